import Foundation
import Testing
@testable import MarblesCLI
import MarbleSpec

@Suite("marbles trace and the trace recorder")
struct TraceTests {
    static let silent = """
        test "a cancelled debounce goes silent"
          hot       typing   -a-----b-c----d-|
          let       query  = typing.debounce(for: 3, scheduler: RunLoop.main)
          subscribe query    ^--------!
          expect    query    ----a-----

        test "print lines take their place"
          hot    src    -a-|
          let    seen = src.print("p").map { $0 }
          expect seen   -a-|

        """

    @Test func traceShowsTimelinesAndEveryEventInOrder() throws {
        let sandbox = try Sandbox(["t.marble": Self.silent])
        let run = marbles("trace", sandbox.path("t.marble"), "--test", "a cancelled debounce goes silent")
        #expect(run.code == 0)
        #expect(run.stdout == """
            \(sandbox.path("t.marble")) › a cancelled debounce goes silent   ✓ passed

              typing   ^a-----b-!
              query    ^---a----!

              frame  stream or operator  event
                  0  typing              receive subscription
                  0  query               receive subscription
                  0  query               request unlimited
                  0  typing              request unlimited
                  1  typing              receive value: (a)
                  4  query               receive value: (a)
                  7  typing              receive value: (b)
                  9  query               receive cancel
                  9  typing              receive cancel

            """)
    }

    @Test func printLinesAndOperatorsInAChain() throws {
        let sandbox = try Sandbox(["t.marble": Self.silent])
        let run = marbles("trace", sandbox.path("t.marble"), "--test", "print lines")
        #expect(run.code == 0)
        let log = run.lines.drop { !$0.contains("stream or operator") }.dropFirst().map { $0.trimmingLeadingSpaces }
        #expect(log.first == "0  src                 receive subscription")
        #expect(log.contains("0  (print)             p: receive subscription: (PassthroughSubject)"), "print names the subscription as it would untraced")
        #expect(log.contains("0  src.print(\"p\")      receive subscription"))
        #expect(log.contains("1  (print)             p: receive value: (\"a\")"))
        let printed = try #require(log.firstIndex(of: "1  (print)             p: receive value: (\"a\")"))
        let delivered = try #require(log.firstIndex(of: "1  src.print(\"p\")      receive value: (a)"))
        let arrived = try #require(log.firstIndex(of: "1  src                 receive value: (a)"))
        #expect(arrived < printed && printed < delivered, "the print line stands between the value arriving and leaving print")
    }

    @Test func innerPublishersAreNumberedBySubscription() throws {
        let sandbox = try Sandbox(["t.marble": """
            test "flatMap"
              cold   request   --x|
              hot    taps      -a----b-|
              let    results = taps.flatMap { _ in request }
              expect results   ---x----x|

            """])
        let run = marbles("trace", sandbox.path("t.marble"))
        #expect(run.stdout.contains("  request #1   -^-x|\n"))
        #expect(run.stdout.contains("  request #2   ------^-x|\n"))
        #expect(run.stdout.contains("  6  request #2          receive subscription\n"))
    }

    @Test func testSelection() throws {
        let sandbox = try Sandbox(["t.marble": Self.silent])
        #expect(marbles("trace", sandbox.path("t.marble")).stdout.components(separatedBy: "   ✓ passed").count == 3, "both tests without --test")
        let none = marbles("trace", sandbox.path("t.marble"), "--test", "a cancelled debounce goes quiet")
        #expect(none.code == 2)
        #expect(none.stdout.contains("error: no test named \"a cancelled debounce goes quiet\"; did you mean \"a cancelled debounce goes silent\"?"))
        let ambiguous = marbles("trace", sandbox.path("t.marble"), "--test", "e")
        #expect(ambiguous.code == 2)
        #expect(ambiguous.stdout.contains("\"e\" matches 2 tests"))
        #expect(marbles("trace", sandbox.path("missing.marble")).code == 2)
        #expect(marbles("trace").code == 2)
        let broken = try Sandbox(["b.marble": Samples.malformed])
        let run = marbles("trace", broken.path("b.marble"))
        #expect(run.code == 2)
        #expect(run.stdout.contains("error: a group cannot contain '-'"))
    }

    @Test func aFailingTestIsTracedToo() throws {
        let sandbox = try Sandbox(["f.marble": Samples.failing, "e.marble": Samples.runtimeError])
        let failing = marbles("trace", sandbox.path("f.marble"))
        #expect(failing.code == 0)
        #expect(failing.stdout.contains("✗ failed"))
        #expect(failing.stdout.contains("  input.map { $0 * 2 }") == false, "the operator is named by the stream it defines")
        #expect(failing.stdout.contains("  doubled   ^2-4-6-|"))
        let error = marbles("trace", sandbox.path("e.marble"))
        #expect(error.stdout.contains("✗ stopped with an error"))
        #expect(error.stdout.contains("division by zero"))
    }

    /// Tracing wraps every stream and operator; it must not change a single outcome.
    @Test func tracingChangesNothingInTheWholeCatalogue() throws {
        let files = Discovery.marbleFiles(in: catalogueFolder)
        #expect(files.count > 50)
        var traced = RunOptions()
        traced.traceEvents = true
        var events = 0
        for file in files {
            let plain = MarbleRunner.run(path: file)
            let withTrace = MarbleRunner.run(path: file, options: traced)
            #expect(plain.allDiagnostics == withTrace.allDiagnostics, "\(file)")
            #expect(plain.tests.map(\.checks) == withTrace.tests.map(\.checks), "\(file)")
            let faults = (plain.tests.map(\.error), withTrace.tests.map(\.error))
            #expect(faults.0 == faults.1, "\(file)")
            #expect(plain.tests.map(\.trace) == withTrace.tests.map(\.trace), "\(file)")
            let recorded = plain.tests.map(\.events.count).reduce(0, +)
            #expect(recorded == 0, "nothing is recorded when tracing is off")
            events += withTrace.tests.map(\.events.count).reduce(0, +)
        }
        #expect(events > 1000)
    }

    @Test func selectedTestsRunAlone() throws {
        let source = Samples.mixed["c/two.marble"] ?? ""
        var options = RunOptions()
        options.selectedTests = ["third", "first"]
        let report = MarbleRunner.run(source: source, path: "two.marble", options: options)
        #expect(report.tests.map(\.name) == ["first", "third"])
    }
}
