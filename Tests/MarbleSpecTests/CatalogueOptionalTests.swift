import Testing
@testable import MarbleSpec

/// `nil` for an optional argument: wherever Combine's signature declares a parameter optional
/// (`customError: (() -> Failure)? = nil`, `options: SchedulerOptions? = nil`), a file may write
/// `nil` for it, as Apple's own examples do (`timeout(_:scheduler:options:customError: nil)`), and
/// it means what leaving the argument out means. Every catalogue entry is built, type-checked and
/// run with `nil` in each of its optional parameters, beside the same call without it.
@Suite struct CatalogueOptionalTests {
    /// Argument text of each parameter type for a call that runs (the optional ones left out).
    static func sample(_ parameter: Parameter, of signature: OperatorSignature) throws -> String {
        switch parameter.type {
        case .publisher: return "other"
        case .closure: return "{ $0 }"
        case .value, .int: return "1"
        case .duration: return "2"
        case .demand: return ".unlimited"
        case .bool: return "true"
        case .scheduler: return "RunLoop.main"
        case .runLoop: return ".main"
        case .runLoopMode: return ".common"
        case .schedulerOptions, .any: return "nil"
        case .strategy:
            guard let strategy = strategies[signature.selector + " " + parameter.name] else {
                throw CatalogueReadTests.Failure("\(signature.selector): add a sample '\(parameter.name)' to CatalogueOptionalTests.strategies")
            }
            return strategy
        }
    }

    static let strategies = ["collect(_:options:) strategy": ".byTime(RunLoop.main, 2)"]

    /// What makes a call's stream finish, so that the run settles (a timer ticks for ever).
    static let settling = ["Timer.publish(every:tolerance:on:in:options:)": ".autoconnect().prefix(2)"]

    /// The call with `nil` for `optional` (or without it), every other defaulted parameter left out.
    static func call(_ signature: OperatorSignature, giving optional: Parameter?, nilFor: Bool) throws -> String {
        var arguments: [String] = []
        for parameter in signature.parameters {
            let text: String
            if parameter == optional {
                guard nilFor else { continue }
                text = "nil"
            } else if parameter.hasDefault {
                continue
            } else {
                text = try sample(parameter, of: signature)
            }
            arguments.append((parameter.label.map { $0 + ": " } ?? "") + text)
        }
        let call = signature.name + "(" + arguments.joined(separator: ", ") + ")" + (settling[signature.selector] ?? "")
        return signature.kind == .method ? "source." + call : call
    }

    @Test func everyOptionalParameterTakesNilAndNilMeansLeavingItOut() throws {
        var cases = 0
        for signature in Catalogue.signatures where signature.kind != .property {
            for parameter in signature.parameters where parameter.isOptional {
                cases += 1
                let withNil = try Self.call(signature, giving: parameter, nilFor: true)
                let without = try Self.call(signature, giving: parameter, nilFor: false)
                let source = """
                test "nil"
                  hot    source -1-2-3|
                  hot    other  -4|
                  let    out  = \(withNil)
                  expect out    -

                test "left out"
                  hot    source -1-2-3|
                  hot    other  -4|
                  let    out  = \(without)
                  expect out    -
                """
                let report = runMarble(source)
                let errors = report.diagnostics.filter { $0.severity == .error }.map(\.message)
                #expect(errors == [], "\(withNil)")
                #expect(report.tests.map(\.error?.message) == [nil, nil], "\(withNil)")
                guard report.tests.count == 2 else { continue }
                #expect(report.tests[0].checks.map(\.actual) == report.tests[1].checks.map(\.actual), "\(withNil) differs from \(without)")
            }
        }
        // timeout's options and customError, handleEvents' five closures, print's stream, the
        // scheduler options of every time operator, delay's and Timer.publish's tolerance.
        #expect(cases >= 17)
    }

    @Test func applesTimeoutExampleRuns() {
        // Apple's documentation of timeout(_:scheduler:options:customError:).
        let report = runMarble("""
        test "timeout with customError: nil finishes"
          hot    source -1----|
          let    out  = source.timeout(.milliseconds(2), scheduler: DispatchQueue.main, options: nil, customError: nil)
          expect out    -1-|
        """)
        #expect(problems(report) == [])
    }

    @Test func nilWhereCombineHasNoOptionalIsAPreciseError() {
        let report = runMarble("""
        test "t"
          hot    source -1|
          let    out  = source.dropFirst(nil)
          expect out    -|
        """)
        #expect(problems(report) == ["3:24: dropFirst(_:) takes no nil for 'count': Combine's signature has no optional there"])
        #expect(report.allDiagnostics.first?.hint == "leave the argument out for its default")
    }

    /// The labels fit, an argument does not: the error names it, instead of offering the very
    /// signature written (issue 23: "no version of 'timeout' takes the arguments
    /// timeout(_:scheduler:options:customError:)" with that signature as its hint).
    @Test func anArgumentOfTheWrongKindIsNamed() {
        let report = runMarble("""
        test "t"
          hot    source -1|
          let    out  = source.timeout(5, scheduler: RunLoop.main, options: nil, customError: 3)
          expect out    -|
        """)
        #expect(problems(report) == ["3:24: timeout(_:scheduler:options:customError:) takes a Closure for 'customError:', not an Int"])
    }
}
