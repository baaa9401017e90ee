import Foundation
import Testing
@testable import MarbleRewrite

/// `marbles fmt` on files under an RxJS notation (they keep it), and `fmt --native`.
@Suite("fmt and RxJS notations")
struct RxJSNotationFormatTests {
    static let legacy = """
        notation rxjs-legacy   // pasted from RxJS 6
        frame 10ms

        test "switchMap"
            hot  e1   '---a------b------|'
           cold x    '--1--2|'
          let r = e1.map { _ in x }.switchToLatest()
         expect r   '-----1--2---1--2-|'
          expect x.subscriptions     '   ^     !'
          expect x.subscriptions '          ^     !'

        """

    @Test func fmtKeepsAnRxJSFileInItsNotation() throws {
        guard case .success(let formatted) = MarbleFormatter.format(Self.legacy) else {
            Issue.record("fmt refused the file")
            return
        }
        // Indentation and the columns before the strings change; the strings, spaces included,
        // do not, and keep their places relative to each other.
        #expect(formatted == """
            notation rxjs-legacy   // pasted from RxJS 6
            frame 10ms

            test "switchMap"
              hot    e1                '---a------b------|'
              cold   x                '--1--2|'
              let    r  = e1.map { _ in x }.switchToLatest()
              expect r               '-----1--2---1--2-|'
              expect x.subscriptions                  '   ^     !'
              expect x.subscriptions              '          ^     !'

            """)
        guard case .success(let again) = MarbleFormatter.format(formatted) else {
            Issue.record("fmt refused its own output")
            return
        }
        #expect(again == formatted)
        #expect(MarbleFormatter.sameMeaning(Self.legacy, formatted) == nil)
    }

    @Test func fmtNativeConvertsEveryEventToItsFrame() throws {
        let sandbox = try Sandbox(["legacy.marble": Self.legacy])
        let before = marbles("run", sandbox.path("legacy.marble"))
        let convert = marbles("fmt", "--native", sandbox.path("legacy.marble"))
        #expect(convert.code == 0)
        #expect(convert.stdout == "converted \(sandbox.path("legacy.marble"))\n1 file formatted, 0 already formatted\n")
        let converted = try sandbox.read("legacy.marble")
        // Spaces became frames; the notation line is gone; everything else is byte for byte.
        #expect(converted == """
            frame 10ms

            test "switchMap"
                hot  e1   ---a------b------|
               cold x    --1--2|
              let r = e1.map { _ in x }.switchToLatest()
             expect r   -----1--2---1--2-|
              expect x.subscriptions     ---^-----!
              expect x.subscriptions ----------^-----!

            """)
        let after = marbles("run", sandbox.path("legacy.marble"))
        #expect(before.code == 0 && after.code == 0)
        // A second run changes nothing.
        let again = marbles("fmt", "--native", sandbox.path("legacy.marble"))
        #expect(again.stdout == "0 files formatted, 1 already formatted\n")
        #expect(try sandbox.read("legacy.marble") == converted)
    }

    @Test func fmtNativePadsGroupsAndWritesValuesTheNativeNotationReserves() throws {
        let source = """
            notation rxjs

            test "groups"
              hot    a   '-(ab)-{/|'   // run mode
              let    r = a.map { $0 }
              expect r   '-(ab)-{/|'
              subscribe r  '---------!'

            """
        guard case .success(let converted) = NativeConversion.convert(source) else {
            Issue.record("the conversion was refused")
            return
        }
        #expect(converted == """

            test "groups"
              hot    a   -(ab)----{"{"}{"/"}|   // run mode
              let    r = a.map { $0 }
              expect r   -(ab)----{"{"}{"/"}|
              subscribe r  ^--------!

            """)
        #expect(runMarble(source).code == runMarble(converted).code)
    }

    @Test func aLeftOutSubscriptionsLineBesideOthersIsRefused() {
        let source = """
            notation rxjs

            test "left out"
              cold   y    --b|
              let    r  = y.map { $0 }
              expect r    --b|
              expect y.subscriptions ^--!
              expect y.subscriptions ------!

            """
        guard case .failure(let problem) = NativeConversion.convert(source) else {
            Issue.record("expected a refusal")
            return
        }
        #expect(problem.message == "RxJS leaves this line out (it has no '^'), and the native notation reads every `.subscriptions` line as a subscription")
        #expect(problem.place?.line == 8)
    }

    @Test func aNativeFileIsLeftAlone() throws {
        #expect(try NativeConversion.convert(Samples.passing).get() == Samples.passing)
    }

    @Test func updateLeavesAnRxJSFileAlone() throws {
        let source = "notation rxjs\n\ntest \"t\"\n  hot a  '-a-|'\n  let r = a.map { $0 }\n  expect r '-b-|'\n"
        let sandbox = try Sandbox(["spec.marble": source])
        let update = marbles("run", sandbox.path("spec.marble"), "--update")
        #expect(update.stdout.contains("the file is written in notation rxjs, and --update writes the native notation only; convert it with `marbles fmt --native` first"))
        #expect(try sandbox.read("spec.marble") == source)
    }

    private func runMarble(_ source: String) -> Outcome {
        guard let sandbox = try? Sandbox(["x.marble": source]) else { return Outcome(code: -1, stdout: "", stderr: "") }
        return marbles("run", sandbox.path("x.marble"))
    }
}
