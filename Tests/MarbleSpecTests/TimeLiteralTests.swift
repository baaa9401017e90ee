import Testing
@testable import MarbleSpec

/// Time literals cannot silently mean something else (issue 25 item 3): an integer duration is a
/// number of frames, a Double one (seconds in Combine) is refused with the rewrite that keeps
/// Combine's meaning, and an integer on a scheduler spelled as an app's is a warning where a
/// `frame` line makes a frame something other than a second.
@Suite struct TimeLiteralTests {
    /// The errors (`line:column: message | hint`) and the warnings (`warning line:column: …`)
    /// of a file.
    func findings(_ source: String) -> [String] {
        let report = runMarble(source)
        let errors = report.allDiagnostics.map { "\($0.line):\($0.column): \($0.message)" + ($0.hint.map { " | " + $0 } ?? "") }
        let warnings = report.tests.flatMap(\.warnings).map { "warning \($0.line):\($0.column): \($0.message)" + ($0.hint.map { " | " + $0 } ?? "") }
        return errors + warnings
    }

    func test(frame: String?, _ line: String, expect: String = "expect d  -a-|") -> String {
        (frame.map { "frame \($0)\n" } ?? "") + "test \"t\"\n  hot a -a-|\n  let d = " + line + "\n  " + expect + "\n"
    }

    @Test(arguments: [
        ("0.3", ".milliseconds(300)"), ("1.5", ".milliseconds(1500)"), ("2.0", ".seconds(2)"), ("0.0001", ".microseconds(100)"),
        ("1e-09", ".nanoseconds(1)"), ("2.5e-1", ".milliseconds(250)"), ("0.0", ".seconds(0)"), ("1_000.5", ".milliseconds(1000500)"),
    ])
    func theRewriteKeepsCombinesSeconds(written: String, call: String) {
        #expect(TimeLiterals.rewrite(seconds: written)?.call == call)
    }

    @Test(arguments: ["0.0000000001", "-0.3", "1e30", "x", "", "1.2.3", "nan"])
    func whatHasNoExactRewrite(written: String) {
        #expect(TimeLiterals.rewrite(seconds: written) == nil)
    }

    @Test func aDoubleDurationSaysWhatItMeansInCombineAndHowToWriteIt() {
        #expect(findings(test(frame: "100ms", "a.debounce(for: 0.3, scheduler: RunLoop.main)")) == [
            "4:22: debounce(for:scheduler:options:): 0.3 is 0.3 seconds in Combine; write .milliseconds(300) | in a .marble file a plain number is a number of frames (1 frame = 100ms in this test), and a Double is refused so that a duration copied from an app cannot silently mean something else",
        ])
        #expect(findings(test(frame: nil, "a.throttle(for: 1.0, scheduler: DispatchQueue.main, latest: true)")).first?
            .hasPrefix("3:22: throttle(for:scheduler:latest:): 1.0 is 1.0 seconds in Combine; write .seconds(1) | in a .marble file a plain number is a number of frames (1 frame = 1ms in this test)") == true)
        #expect(findings(test(frame: nil, "a.timeout(0.25, scheduler: scheduler)")).first?
            .hasPrefix("3:21: timeout(_:scheduler:options:customError:): 0.25 is 0.25 seconds in Combine; write .milliseconds(250) |") == true)
        #expect(findings(test(frame: nil, "a.delay(for: 0.002, scheduler: RunLoop.main)")).first?
            .hasPrefix("3:19: delay(for:tolerance:scheduler:options:): 0.002 is 0.002 seconds in Combine; write .milliseconds(2) |") == true)
    }

    @Test func aRewriteThatIsNotWholeFramesSaysWhichFrameWouldDo() {
        let found = findings(test(frame: "100ms", "a.debounce(for: 0.25, scheduler: RunLoop.main)"))
        #expect(found.count == 1)
        #expect(found.first?.hasSuffix("; .milliseconds(250) is not a whole number of frames: make the test's frame shorter (frame 50ms)") == true, "\(found)")
    }

    @Test func aDoubleThatIsNotALiteralGetsTheRuleAndAnExample() {
        let source = "test \"t\"\n  hot a -a-|\n  let d = a.flatMap { x -> AnyPublisher<String, Never> in let wait = 0.5 * 2; return Just(x).delay(for: wait, scheduler: RunLoop.main).eraseToAnyPublisher() }\n  expect d  -a-|\n"
        let found = findings(source)
        #expect(found.count == 1)
        #expect(found.first?.contains("delay(for:tolerance:scheduler:options:): a Double duration is seconds in Combine; write it with a unit: .milliseconds(300) for 0.3 seconds |") == true, "\(found)")
    }

    @Test func aNumberAddedToNowIsSecondsInDispatch() {
        func deadline(_ rhs: String) -> [String] {
            findings("test \"t\"\n  hot a -1-|\n  let d = a.flatMap { _ in Future<Int, Never> { promise in DispatchQueue.main.asyncAfter(deadline: .now() + \(rhs)) { promise(.success(1)) } } }\n  expect d -1-|\n")
        }
        #expect(deadline("0.3").map { String($0.prefix { $0 != "|" }) } == ["3:109: .now() + 0.3 is 0.3 seconds from now in Dispatch; write .now() + .milliseconds(300) "])
        #expect(deadline("3").map { String($0.prefix { $0 != "|" }) } == ["3:109: .now() + 3 is 3 seconds from now in Dispatch; write .now() + .seconds(3) "])
        #expect(deadline(".milliseconds(3)").isEmpty)
    }

    @Test func anIntegerIsFramesAndWarnsOnlyWhereAFrameLineMakesItMisleading() {
        // frame 100ms: 3 frames are 300ms, where Combine on RunLoop.main waits 3 seconds.
        #expect(findings(test(frame: "100ms", "a.delay(for: 3, scheduler: RunLoop.main)", expect: "expect d  ----a-|")) == [
            "warning 4:19: 3 is 3 frames here (300ms), but 3 seconds in Combine on RunLoop.main | write .seconds(3) for Combine's meaning, or .milliseconds(300) to keep this one",
        ])
        #expect(findings(test(frame: "10ms", "a.debounce(for: 1, scheduler: DispatchQueue.main)", expect: "expect d  --a|")) == [
            "warning 4:22: 1 is 1 frame here (10ms), but 1 second in Combine on DispatchQueue.main | write .seconds(1) for Combine's meaning, or .milliseconds(10) to keep this one",
        ])
        #expect(findings(test(frame: "1ms", "a.timeout(5, scheduler: OperationQueue.main)", expect: "expect d  -a-|")).count == 1)
        // Quiet: no frame line (the file counts in frames), a 1s frame (the two agree), zero,
        // the test's own scheduler, a Timer (seconds, as in Combine), a duration with a unit.
        #expect(findings(test(frame: nil, "a.delay(for: 3, scheduler: RunLoop.main)", expect: "expect d  ----a-|")) == [])
        #expect(findings(test(frame: "1s", "a.delay(for: 3, scheduler: RunLoop.main)", expect: "expect d  ----a-|")) == [])
        #expect(findings(test(frame: "100ms", "a.delay(for: 0, scheduler: RunLoop.main)")) == [])
        #expect(findings(test(frame: "100ms", "a.delay(for: 3, scheduler: scheduler)", expect: "expect d  ----a-|")) == [])
        #expect(findings(test(frame: "100ms", "a.delay(for: 3, scheduler: ImmediateScheduler.shared)", expect: "expect d  ----a-|")) == [])
        #expect(findings(test(frame: "100ms", "a.delay(for: .milliseconds(300), scheduler: RunLoop.main)", expect: "expect d  ----a-|")) == [])
    }

    @Test func aFrameLineInsideTheTestCountsToo() {
        let source = "test \"t\"\n  frame 100ms\n  hot a -a-|\n  let d = a.delay(for: 2, scheduler: RunLoop.main)\n  expect d  ---a-|\n"
        #expect(findings(source).map { String($0.prefix { $0 != "|" }) } == ["warning 4:19: 2 is 2 frames here (200ms), but 2 seconds in Combine on RunLoop.main "])
    }

    @Test func aTimeIntervalOrDoubleConversionOfALiteralIsRefusedAsTheLiteralIs() {
        #expect(findings(test(frame: "100ms", "a.debounce(for: TimeInterval(0.3), scheduler: RunLoop.main)")) == [
            "4:22: debounce(for:scheduler:options:): TimeInterval(0.3) is 0.3 seconds in Combine; write .milliseconds(300) | in a .marble file a plain number is a number of frames (1 frame = 100ms in this test), and a Double is refused so that a duration copied from an app cannot silently mean something else",
        ])
        #expect(findings(test(frame: nil, "a.delay(for: Double(2), scheduler: RunLoop.main)")).first?
            .hasPrefix("3:19: delay(for:tolerance:scheduler:options:): Double(2) is 2 seconds in Combine; write .seconds(2) |") == true)
        // TimeInterval is Foundation's Double, in seconds: a type, a conversion and an annotation.
        let typed = "test \"t\"\n  hot a -{2}-|\n  let d = a.map { n -> Double in let t: TimeInterval = 0.5; return TimeInterval(n) + t }\n  expect d  -{2.5}-|\n"
        #expect(findings(typed) == [])
        #expect(runMarble(typed).tests.map(\.outcome) == [.passed])
    }

    @Test func anIntegerNamedByATestsLetWarnsAsTheLiteralWould() {
        let source = "frame 100ms\ntest \"t\"\n  hot a -a-|\n  let wait = 3\n  let d = a.debounce(for: wait, scheduler: RunLoop.main)\n  expect d  -----|\n"
        #expect(findings(source) == [
            "warning 5:22: 'wait' (3) is 3 frames here (300ms), but 3 seconds in Combine on RunLoop.main | write .seconds(3) for Combine's meaning, or .milliseconds(300) to keep this one",
        ])
        // A closure's own name is not the test's constant, and the test's scheduler is quiet.
        let shadowed = "frame 100ms\ntest \"t\"\n  hot a -a-|\n  let wait = 3\n  let d = a.flatMap { _ -> AnyPublisher<String, Never> in let wait = 2; return Just(\"b\").delay(for: wait, scheduler: RunLoop.main).eraseToAnyPublisher() }\n  expect d  ---b-|\n"
        #expect(findings(shadowed) == [])
        let own = "frame 100ms\ntest \"t\"\n  hot a -a-|\n  let wait = 3\n  let d = a.debounce(for: wait, scheduler: scheduler)\n  expect d  -----|\n"
        #expect(findings(own) == [])
    }

    @Test func collectByTimeWarnsForItsStride() {
        #expect(findings(test(frame: "100ms", "a.collect(.byTime(RunLoop.main, 3))", expect: "expect d  ---({[\"a\"]}|)")) == [
            "warning 4:43: 3 is 3 frames here (300ms), but 3 seconds in Combine on RunLoop.main | write .seconds(3) for Combine's meaning, or .milliseconds(300) to keep this one",
        ])
        #expect(findings(test(frame: "100ms", "a.collect(.byTimeOrCount(DispatchQueue.main, 2, 5))", expect: "expect d  ---({[\"a\"]}|)")).map { String($0.prefix { $0 != "|" }) } == [
            "warning 4:56: 2 is 2 frames here (200ms), but 2 seconds in Combine on DispatchQueue.main ",
        ])
        #expect(findings(test(frame: "100ms", "a.collect(.byTime(scheduler, 3))", expect: "expect d  ---({[\"a\"]}|)")) == [])
        #expect(findings(test(frame: nil, "a.collect(.byTime(RunLoop.main, 3))", expect: "expect d  ---({[\"a\"]}|)")) == [])
    }

    @Test func theWarningDoesNotStopTheTest() {
        let report = runMarble(test(frame: "100ms", "a.delay(for: 3, scheduler: RunLoop.main)", expect: "expect d  ----a-|"))
        #expect(report.tests.map(\.outcome) == [.passed])
    }
}
