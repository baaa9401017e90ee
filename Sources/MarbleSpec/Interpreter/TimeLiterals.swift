import MarbleSyntax

/// What a number written as a duration means here and in Combine, in words (issue 25 item 3).
///
/// In Combine a scheduler's stride is `ExpressibleByFloatLiteral` and `ExpressibleByIntegerLiteral`
/// in seconds (`DispatchQueue.SchedulerTimeType.Stride`, `RunLoop.SchedulerTimeType.Stride`,
/// `OperationQueue.SchedulerTimeType.Stride`), so `debounce(for: 0.3, scheduler: RunLoop.main)` is
/// 0.3 seconds and `for: 1` one second; Dispatch's `.now() + 0.3` is 0.3 seconds too. A `.marble`
/// file keeps an integer as a number of frames (the format brief's and RxJS's run mode's rule, and
/// the catalogue's), refuses a Double with the rewrite that keeps Combine's meaning, and warns where
/// an integer would silently mean something else (see `integerWarning`).
enum TimeLiterals {
    /// The duration written with a unit that means `seconds` (its decimal text, `0.3`, `1.5`,
    /// `2e-3`): `.milliseconds(300)`, `.seconds(1)`, … the largest unit that keeps it whole; nil
    /// when it is finer than a nanosecond, negative, or too long to write so.
    static func rewrite(seconds text: String) -> (call: String, nanoseconds: Int64)? {
        guard let nanoseconds = nanoseconds(ofSeconds: text) else { return nil }
        return (unitCall(nanoseconds), nanoseconds)
    }

    /// The nanoseconds in `text` seconds, exactly (decimal digits, an optional fraction and
    /// exponent, as Swift prints a Double); nil when not a whole number of nanoseconds, negative,
    /// or beyond `Int64`.
    static func nanoseconds(ofSeconds text: String) -> Int64? {
        let parts = text.lowercased().split(separator: "e", maxSplits: 1, omittingEmptySubsequences: false)
        guard let mantissa = parts.first, !mantissa.isEmpty else { return nil }
        var exponent = 9
        if parts.count == 2 {
            guard let written = Int(parts[1]), abs(written) < 100 else { return nil }
            exponent += written
        }
        let pieces = mantissa.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        let whole = pieces[0], fraction = pieces.count == 2 ? pieces[1] : ""
        var digits = Array((whole + fraction).filter { $0 != "_" })
        guard !digits.isEmpty, digits.allSatisfy(\.isASCII), digits.allSatisfy(\.isNumber) else { return nil }
        exponent -= fraction.filter { $0 != "_" }.count
        while exponent < 0 {
            guard let last = digits.last else { return 0 }
            guard last == "0" else { return nil }
            digits.removeLast()
            exponent += 1
        }
        var value: Int64 = 0
        for digit in digits + Array(repeating: "0", count: exponent) {
            guard let d = digit.wholeNumberValue else { return nil }
            let (times, overflow) = value.multipliedReportingOverflow(by: 10)
            let (sum, overflow2) = times.addingReportingOverflow(Int64(d))
            guard !overflow, !overflow2 else { return nil }
            value = sum
        }
        return value
    }

    /// The text of a number literal written as a duration (`0.3`, and the `0.3` of
    /// `TimeInterval(0.3)` or `Double(0.3)`, Foundation's seconds), if it is one.
    static func literalText(_ expr: Expr) -> String? {
        switch expr.kind {
        case .double(let value): return "\(value)"
        case .int(let value): return "\(value)"
        case .call(let callee, let arguments):
            guard case .identifier(let type) = callee.kind, ["TimeInterval", "Double"].contains(type),
                  arguments.count == 1, arguments[0].label == nil else { return nil }
            return literalText(arguments[0].value)
        default: return nil
        }
    }

    /// How the duration was written, for the message: `TimeInterval(0.3)` where a conversion
    /// wraps the literal, else the literal (`0.3`).
    static func spelling(_ expr: Expr, literal: String) -> String {
        guard case .call(let callee, _) = expr.kind, case .identifier(let type) = callee.kind else { return literal }
        return "\(type)(\(literal))"
    }

    /// The error for a Double given as a scheduler's duration: what Combine makes of it and how
    /// to write it here. `written` is the literal's text when the argument is one (or the value's,
    /// found at run time); `selector` names the operator.
    static func doubleDuration(_ selector: String, written: String?, spelled: String? = nil, frameNanoseconds: Int64) -> (message: String, hint: String) {
        let frame = "1 frame = \(Builtins.durationText(frameNanoseconds)) in this test"
        let hint = "in a .marble file a plain number is a number of frames (\(frame)), and a Double is refused so that a duration copied from an app cannot silently mean something else"
        guard let written, let (call, nanoseconds) = rewrite(seconds: written) else {
            return ("\(selector): a Double duration is seconds in Combine; write it with a unit: .milliseconds(300) for 0.3 seconds", hint)
        }
        return ("\(selector): \(spelled ?? written) is \(written) seconds in Combine; write \(call)", hint + wholeFrames(call, nanoseconds, frameNanoseconds))
    }

    /// The error for a number added to Dispatch's `.now()`: seconds in Dispatch, refused here.
    static func deadlineNumber(written: String?, frameNanoseconds: Int64) -> (message: String, hint: String) {
        let hint = "a deadline is .now() + a duration with a unit (1 frame = \(Builtins.durationText(frameNanoseconds)) in this test)"
        guard let written, let (call, nanoseconds) = rewrite(seconds: written) else {
            return ("a number added to .now() is seconds in Dispatch; write the duration with a unit: .now() + .milliseconds(300)", hint)
        }
        return (".now() + \(written) is \(written) seconds from now in Dispatch; write .now() + \(call)", hint + wholeFrames(call, nanoseconds, frameNanoseconds))
    }

    /// A note when the rewrite is not a whole number of frames (it would be refused in turn).
    private static func wholeFrames(_ call: String, _ nanoseconds: Int64, _ frameNanoseconds: Int64) -> String {
        guard nanoseconds % frameNanoseconds != 0 else { return "" }
        return "; \(call) is not a whole number of frames: make the test's frame shorter (frame \(Builtins.durationText(gcd(nanoseconds, frameNanoseconds))))"
    }

    private static func gcd(_ a: Int64, _ b: Int64) -> Int64 { b == 0 ? a : gcd(b, a % b) }

    /// How `expr` spells a scheduler an app uses (`RunLoop.main`, `DispatchQueue.main`,
    /// `DispatchQueue.global()`, `OperationQueue.main`, …), on which Combine reads an integer
    /// stride as seconds; nil for any other (the test's `scheduler`, `ImmediateScheduler.shared`).
    static func realScheduler(_ expr: Expr) -> String? {
        switch expr.kind {
        case .identifier(let name): return ["RunLoop", "DispatchQueue", "OperationQueue"].contains(name) ? name : nil
        case .member(let base?, let name): return realScheduler(base).map { "\($0).\(name)" }
        case .call(let callee, let arguments): return realScheduler(callee).map { arguments.isEmpty ? "\($0)()" : "\($0)(…)" }
        default: return nil
        }
    }

    /// The warning for an integer literal duration on a scheduler spelled as a real one, in a test
    /// whose `frame` line makes a frame something other than a second: frames here, seconds in
    /// Combine. Nil where the two agree (zero, a 1s frame) and where the file counts in frames
    /// (no `frame` line: the default 1ms frame is the format's unit, as RxJS's run mode's; the
    /// catalogue writes 59 such durations, so a warning there could never be quiet).
    static func integerWarning(_ frames: Int, named name: String? = nil, scheduler: String, frameNanoseconds: Int64, frameWritten: Bool) -> (message: String, hint: String)? {
        guard frameWritten, frames != 0, frameNanoseconds != 1_000_000_000 else { return nil }
        let (here, overflow) = Int64(frames).multipliedReportingOverflow(by: frameNanoseconds)
        let length = overflow ? "" : " (\(Builtins.durationText(here)))"
        let unit = frames == 1 ? "frame" : "frames"
        let second = frames == 1 ? "second" : "seconds"
        let subject = name.map { "'\($0)' (\(frames))" } ?? "\(frames)"
        return ("\(subject) is \(frames) \(unit) here\(length), but \(frames) \(second) in Combine on \(scheduler)",
                "write .seconds(\(frames)) for Combine's meaning\(overflow ? "" : ", or \(unitCall(here)) to keep this one")")
    }

    /// `.milliseconds(300)` for 300ms: the largest unit that keeps `nanoseconds` whole.
    private static func unitCall(_ nanoseconds: Int64) -> String {
        for (name, unit) in [("seconds", Int64(1_000_000_000)), ("milliseconds", 1_000_000), ("microseconds", 1_000)] where nanoseconds % unit == 0 {
            return ".\(name)(\(nanoseconds / unit))"
        }
        return ".nanoseconds(\(nanoseconds))"
    }
}
