import Foundation
import Testing
@testable import MarbleSyntax

/// The examples of the format brief (sections 0, 4 and 5) parse, exactly as written.
@Suite struct WorkedExampleTests {
    @Test func introductionExample() throws {
        let file = parseClean("""
        // Combine's debounce drops the pending value when its upstream finishes.
        frame 100ms

        test "debounce publishes the last value of a burst, and drops it at completion"
          hot    typing   -a-b-c-----d--e-|
          let    query  = typing.debounce(for: .milliseconds(300), scheduler: RunLoop.main)
          expect query    --------c-------|
        """)
        #expect(file.statements.map(describe) == ["frame 100ms"])
        #expect(file.statements.first?.location == loc(2, 1))
        let test = try #require(file.tests.first)
        #expect(test.name == "debounce publishes the last value of a burst, and drops it at completion")
        #expect(test.location == loc(4, 1))
        #expect(test.nameLocation == loc(4, 6))
        #expect(test.statements.map(describe) == [
            "hot typing [-a-b-c-----d--e-|]",
            "let query (call (. typing debounce) for:(call (. milliseconds) 300) scheduler:(. RunLoop main))",
            "expect query [--------c-------|]",
        ])
        guard case .hot(let name, let marbles) = test.statements[0].kind else { return }
        #expect(name.location == loc(5, 10))
        #expect(marbles.location == loc(5, 19))
    }

    @Test func expressionSectionSnippet() throws {
        let file = parseClean("""
        test "snippet"
          let found   = query.removeDuplicates().flatMap(maxPublishers: .max(1)) { q in search }
          let label   = count.map { $0 > 9 ? "many" : String($0) }
          let total   = prices.scan(0) { $0 + $1 }
          let parsed  = input.tryMap { if $0 < 0 { throw "negative" } else { $0 * 2 } }
          let latest  = taps.map { _ in request }.switchToLatest()
        """)
        #expect(file.tests.first?.statements.map(describe) == [
            "let found (call (. (call (. query removeDuplicates)) flatMap) maxPublishers:(call (. max) 1) (closure (params q) search))",
            "let label (call (. count map) (closure (? (> $0 9) \"many\" (call String $0))))",
            "let total (call (. prices scan) 0 (closure (+ $0 $1)))",
            "let parsed (call (. input tryMap) (closure (if (< $0 0) (then (throw \"negative\")) (else (* $0 2)))))",
            "let latest (call (. (call (. taps map) (closure (params _) request)) switchToLatest))",
        ])
    }

    /// The brief's section 5 as the catalogue keeps it (marbles/examples/format-brief.marble), from
    /// its first test on, so that line 1 here is the section's line 1.
    static let section5: String = {
        let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("marbles/examples/format-brief.marble")
        let text = (try? String(contentsOf: file, encoding: .utf8)) ?? ""
        return text.range(of: "test \"").map { String(text[$0.lowerBound...]) } ?? ""
    }()

    @Test func section5ParsesExactly() {
        let file = parseClean(WorkedExampleTests.section5)
        #expect(file.statements.isEmpty)
        #expect(file.tests.map(\.name) == [
            "combineLatest waits for every input, then pairs the latest values",
            "flatMap(maxPublishers: .max(1)) drops what a subject sends while it is busy",
            "switchToLatest cancels the previous inner publisher",
            "CurrentValueSubject hands its current value to a late subscriber",
            "a subscriber that asks for two values, then one more",
            "tryMap fails the stream; catch replaces it with a fallback",
        ])
        #expect(file.tests.map { $0.statements.map(describe) } == [
            [
                "hot letters [-a---b-----c--|]",
                "hot numbers [---1---2-3----|]",
                "let pairs (call (. letters combineLatest) numbers)",
                "values A=(tuple \"a\" 1) B=(tuple \"b\" 1) C=(tuple \"b\" 2) D=(tuple \"b\" 3) E=(tuple \"c\" 3)",
                "expect pairs [---A-B-C-D-E--|]",
            ],
            [
                "hot taps [-a-b--------c---|]",
                "cold request [---x|]",
                "let flat (call (. taps flatMap) maxPublishers:(call (. max) 1) (closure (params _) request))",
                "expect flat [----x----------x|]",
            ],
            [
                "hot taps [-a-b--------c---|]",
                "cold request [---x|]",
                "let latest (call (. (call (. taps map) (closure (params _) request)) switchToLatest))",
                "expect latest [------x--------x|]",
                "expect request.subscriptions [-^-!]",
                "expect request.subscriptions [---^---!]",
                "expect request.subscriptions [------------^---!]",
            ],
            [
                "values i=\"idle\" l=\"loading\" d=\"done\"",
                "subject state (call CurrentValueSubject \"idle\")",
                "send state [--l----d--|]",
                "let late state",
                "subscribe late [----^------]",
                "expect state [i-l----d--|]",
                "expect late [----l--d--|]",
            ],
            [
                "hot ticks [-a-b-c-d-e-|]",
                "demand ticks [2------1----]",
                "expect ticks [-a-b---d---|]",
            ],
            [
                "hot input [-1-2-0-3-|]",
                "let inverse (call (. input tryMap) (closure (if (== $0 0) (then (throw \"division by zero\")) (else (/ 12 $0)))))",
                "let safe (call (. inverse catch) (closure (params _) (call Just -1)))",
                "values A=12 B=6 Z=-1",
                "expect inverse [-A-B-#{\"division by zero\"}]",
                "expect safe [-A-B-(Z|)]",
            ],
        ])
    }

    @Test func section5Locations() throws {
        let file = parseClean(WorkedExampleTests.section5)
        // Line 41: `  values A = 12, B = 6, Z = -1`
        let tryMapTest = try #require(file.tests.last)
        #expect(tryMapTest.location == loc(37, 1))
        guard case .values(let bindings) = tryMapTest.statements[3].kind else {
            Issue.record("expected values")
            return
        }
        #expect(tryMapTest.statements[3].location == loc(41, 3))
        #expect(tryMapTest.statements[3].sourceLine == 41)
        #expect(bindings.map(\.nameLocation) == [loc(41, 10), loc(41, 18), loc(41, 25)])
        #expect(bindings.map(\.value.location) == [loc(41, 14), loc(41, 22), loc(41, 29)])
        // `expect request.subscriptions  -^-!` on line 19
        guard case .expect(let name, let property, let marbles) = file.tests[2].statements[4].kind else {
            Issue.record("expected expect")
            return
        }
        #expect(name.location == loc(19, 10))
        #expect(property == Identifier(name: "subscriptions", location: loc(19, 18)))
        #expect(marbles == MarbleText(text: "-^-!", location: loc(19, 33)))
        // `12 / $0` in the tryMap closure: the binary node points at its operator.
        guard case .binding(_, let inverse) = tryMapTest.statements[1].kind,
              case .call(_, let arguments) = inverse.kind,
              case .closure(let closure) = arguments[0].value.kind,
              case .expression(let ifNode) = closure.body[0],
              case .ifExpression(let ifExpression) = ifNode.kind,
              case .expression(let division) = ifExpression.elseBody?.first else {
            Issue.record("unexpected shape")
            return
        }
        #expect(division.location == loc(39, 85))
        #expect(division.range == SourceRange(start: loc(39, 82), end: loc(39, 89)))
        #expect(arguments[0].location == loc(39, 33))
        #expect(inverse.range == SourceRange(start: loc(39, 20), end: loc(39, 93)))
    }
}
