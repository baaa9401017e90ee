import SwiftCallSite
import Testing

/// Reading a call back from Swift source: which shapes give a name or a literal, and which
/// read as nothing (so that a failure says `output`, never a wrong name).
@Suite struct SwiftCallSiteTests {
    /// The `callee` call on line `line` of `source`, found by its `(` as `#column` gives it.
    func call(_ source: String, line: Int = 1, _ callee: String = "expect", occurrence: Int = 0) -> SwiftCall? {
        let file = SwiftSourceFile(source)
        let text = Array(source.split(separator: "\n", omittingEmptySubsequences: false)[line - 1].utf8)
        let needle = Array((callee + "(").utf8)
        let starts = (0..<text.count).filter { text[$0...].starts(with: needle) }
        guard starts.indices.contains(occurrence) else { return nil }
        return SwiftCall(in: file, line: line, column: starts[occurrence] + needle.count, callee: callee)
    }

    func literal(_ argument: SwiftCall.Argument?) -> SwiftStringLiteral? {
        if case .stringLiteral(let literal)? = argument?.form { return literal }
        return nil
    }

    @Test func thePublisherIsNamedAsWritten() throws {
        for (source, name) in [("scheduler.expect(query, \"-a|\")", "query"),
                               ("scheduler.expect(model.$results, \"-a|\")", "model.$results"),
                               ("scheduler.expect(self.model.output, \"-a|\")", "self.model.output"),
                               ("scheduler.expect(model?.results, \"-a|\")", "model?.results"),
                               ("scheduler.expect( query /* the output */ , \"-a|\")", "query"),
                               ("scheduler.expect(\n    query,\n    \"-a|\"\n)", "query")] {
            let first = try #require(call(source)?.arguments.first)
            #expect(first.form == .reference(name), "\(source)")
        }
        // Not a reference: read as an expression, which names nothing.
        for source in ["scheduler.expect(typing.debounce(for: .seconds(1), scheduler: scheduler), \"-a|\")",
                       "scheduler.expect(a + b, \"-a|\")", "scheduler.expect(sources[0], \"-a|\")", "scheduler.expect(#line, \"-a|\")",
                       "scheduler.expect(model.\n, \"-a|\")"] {
            #expect(call(source)?.arguments.first?.form == .expression, "\(source)")
        }
    }

    @Test func aCallIsFoundOnlyWhereItIs() {
        #expect(call("check(query, \"-a|\")") == nil)
        #expect(SwiftCall(in: SwiftSourceFile("x.expect(q, \"a\")"), line: 1, column: 12, callee: "expect") == nil)  // after the call
        #expect(SwiftCall(in: SwiftSourceFile("x.expect(q, \"a\")"), line: 2, column: 1, callee: "expect") == nil)  // no such line
        #expect(SwiftCall(in: SwiftSourceFile("x.expect(q, \"a\")"), line: 1, column: 40, callee: "expect") == nil)
        #expect(call("x.reexpect(q, \"a\")", "expect") == nil)  // another function whose name ends the same
        // A column at the start of the line (compilers that give the expression's start) when `expect(` is there once.
        #expect(SwiftCall(in: SwiftSourceFile("x.expect(q, \"a\")"), line: 1, column: 1, callee: "expect")?.arguments.count == 2)
        #expect(SwiftCall(in: SwiftSourceFile("x.expect(q, \"expect(\")"), line: 1, column: 1, callee: "expect") == nil)
        // Unbalanced or unterminated: nothing.
        #expect(call("x.expect(q, \"a\"") == nil)
        #expect(call("x.expect(q, \"a)") == nil)
        #expect(call("x.expect(q, [1, 2)") == nil)
        #expect(call("x.expect(q, /* a )") == nil)
    }

    @Test func columnsCountBytesAndLinesEndAtNewlines() throws {
        // `é` is two bytes: the compiler's column of `(` is 22 here.
        let file = SwiftSourceFile("let é = 1; let x = f(\"ü\")\r\nlet y = f(\"a\")\n")
        #expect(SwiftCall(in: file, line: 1, column: 22, callee: "f").flatMap { literal($0.arguments.first) }?.value == "ü")
        #expect(SwiftCall(in: file, line: 2, column: 10, callee: "f").flatMap { literal($0.arguments.first) }?.value == "a")
        // A lone carriage return makes the compiler count columns again without a new line: not read.
        #expect(SwiftCall(in: SwiftSourceFile("let y = 1\rlet z = f(\"b\")"), line: 1, column: 10, callee: "f") == nil)
    }

    @Test func stringLiterals() throws {
        func read(_ argument: String) -> SwiftStringLiteral? { literal(call("x.expect(q, \(argument))")?.arguments.last) }
        #expect(read("\"-a-b|\"")?.value == "-a-b|")
        #expect(read("\"-{\\\"two words\\\"}|\"")?.value == "-{\"two words\"}|")
        #expect(read("\"a\\\\b\\t\\u{1F600}\"")?.value == "a\\b\t😀")
        #expect(read("#\"-{\"x\"}|\"#")?.value == "-{\"x\"}|")
        #expect(read("#\"-{\"x\"}|\"#")?.hashes == 1)
        #expect(read("##\"a\"#b\"##")?.value == "a\"#b")
        #expect(read("#\"a\\b\"#")?.value == "a\\b")  // a backslash without `#` is itself in a raw string
        #expect(read("\"a\\(x)b\"")?.problem == "an interpolated string")
        #expect(read("\"a\\(f(\")\"))b\"")?.problem == "an interpolated string")
        #expect(read("#\"a\\#(x)b\"#")?.problem == "an interpolated string")
        #expect(read("\"\"\"\n    -a|\n    \"\"\"")?.problem == "a multi-line string literal")
        #expect(call("x.expect(q, \"a\" + tail)")?.arguments.last?.form == .expression)
        #expect(call("x.expect(q, marbles)")?.arguments.last?.form == .reference("marbles"))
        #expect(call("x.expect(q, \"a\nb\")") == nil)  // a line break ends nothing: not Swift
        #expect(call("x.expect(q, \"a\\q\")") == nil)  // no such escape
    }

    @Test func literalsAreSpelledToReadBackAsTheirText() throws {
        for text in ["-a-b|", "-{\"two words\"}|", "a\\b", "tab\there", "#{\"e\"}", "é😀"] {
            for hashes in 0...2 {
                let spelled = SwiftStringLiteral.spelled(text, hashes: hashes)
                #expect(literal(call("x.expect(q, \(spelled))")?.arguments.last)?.value == text, "\(spelled)")
            }
        }
        #expect(SwiftStringLiteral.spelled("-{\"x\"}|", hashes: 1) == "#\"-{\"x\"}|\"#")
        #expect(SwiftStringLiteral.spelled("a\"#b", hashes: 1) == "\"a\\\"#b\"")  // does not fit in #"…"#: plain
    }

    @Test func labelsAndTheMarblesArguments() throws {
        let events = try #require(call("s.expect(q, \"-a|\", values: [\"a\": 1], name: \"n\")"))
        #expect(events.arguments.map(\.label) == [nil, nil, "values", "name"])
        #expect(events.arguments(.second).map { $0.map { literal($0)?.value } } == ["-a|"])
        #expect(events.passes(["-a|"], in: .second))
        #expect(!events.passes(["-b|"], in: .second))
        let inOrder = try #require(call("s.expect(q, inOrder: \"a b |\", values: [:])"))
        #expect(inOrder.arguments(.labelled("inOrder")).map { $0.map { literal($0)?.value } } == ["a b |"])
        #expect(inOrder.arguments(.second) == nil)
        let lines = try #require(call("s.expect(answer.subscriptions, \"-^-!\", \"---^-!\")"))
        #expect(lines.arguments(.rest).map { $0.map { literal($0)?.value } } == ["-^-!", "---^-!"])
        #expect(lines.passes(["-^-!", "---^-!"], in: .rest))
        #expect(!lines.passes(["-^-!"], in: .rest))
        #expect(try #require(call("s.expect(answer.subscriptions)")).arguments(.rest)?.isEmpty == true)
        // A variable cannot be checked against what ran, so it does not disprove the call.
        #expect(try #require(call("s.expect(q, marbles)")).passes(["anything"], in: .second))
        #expect(try #require(call("s.expect()")).arguments.isEmpty)
        // A trailing comma ends the list: no empty argument after it.
        #expect(try #require(call("s.expect(answer.subscriptions, \"-^-!\",\n  \"---^-!\",\n)")).passes(["-^-!", "---^-!"], in: .rest))
    }

    @Test func aSourceIsNamedByTheVariableItInitialises() {
        for (source, name) in [("let typing = scheduler.hot(\"-a|\")", "typing"),
                               ("    var typing = scheduler.hot(\"-a|\") // the user", "typing"),
                               ("let typing: TestPublisher<String, Never> = scheduler.hot(\"-a|\")", "typing"),
                               ("private lazy var typing = self.scheduler.hot(\"-a|\");", "typing"),
                               ("let `default` = hot(\"-a|\")", "default"),
                               ("let typing = scheduler.hot(\n  \"-a|\",\n  values: [:]\n)\nlet next = 1", "typing"),
                               ("let answer = scheduler.hot(\"-a|\")\n\n  // later\n  answer.sink()", "answer")] {
            #expect(call(source, "hot")?.declaredName == name, "\(source)")
        }
        for source in ["let query = scheduler.hot(\"-a|\").map { $0 }",        // the call is not the whole value
                       "let query = scheduler.hot(\"-a|\")\n    .map { $0 }",   // continued on the next line
                       "let query = scheduler.hot(\"-a|\") + other",
                       "let query = make(scheduler.hot(\"-a|\"))",
                       "query = scheduler.hot(\"-a|\")",
                       "let (a, b) = scheduler.hot(\"-a|\")",
                       "let _ = scheduler.hot(\"-a|\")",
                       "let q = [scheduler].first!.hot(\"-a|\")",
                       "f(); let q = scheduler.hot(\"-a|\")",
                       "\"\"\"; let q = scheduler.hot(\"-a|\")"] {
            #expect(call(source, "hot")?.declaredName == nil, "\(source)")
        }
    }

    @Test func aSendLineIsNamedByWhatItDrives() {
        #expect(call("scheduler.send(\"-s-w\", values: [:]) { model.query = $0 }", "send")?.assignmentTarget == "model.query")
        #expect(call("scheduler.send(\"-s-w\") {model.query=$0}", "send")?.assignmentTarget == "model.query")
        #expect(call("scheduler.send(\"-s-w\") { model.query = $0.uppercased() }", "send")?.assignmentTarget == nil)
        #expect(call("scheduler.send(\"-s-w\") { model.query += $0 }", "send")?.assignmentTarget == nil)
        #expect(call("scheduler.send(\"-s-w\") { model.query == $0 }", "send")?.assignmentTarget == nil)
        #expect(call("scheduler.send(\"-s-w\") { print($0); model.query = $0 }", "send")?.assignmentTarget == nil)
        #expect(call("scheduler.send(\"-s-w\", to: subject)", "send")?.arguments.last?.form == .reference("subject"))
    }
}
