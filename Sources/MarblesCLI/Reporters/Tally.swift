import MarbleSpec

/// Counts of a `marbles run`, and the exit status they imply.
struct Tally: Equatable {
    var files = 0
    var tests = 0
    var passed = 0
    var failed = 0
    /// Tests that stopped with an error: a mistake in them (or in what they use), a runtime error.
    var testErrors = 0
    /// Tests (counted in `testErrors` too) that cannot run as written — a mistake in them or in
    /// what they use, or a limit of marbles stopped them: exit 2, as a bad file.
    var unrunnable = 0
    /// Missing paths, and files that could not be read or parsed.
    var inputErrors = 0
    /// Streams defined and never checked (they change no exit status).
    var warnings = 0

    var errors: Int { testErrors + inputErrors }

    /// 2 when a path, a file or a test was bad (or a limit stopped a test), else 1 when a test
    /// failed or errored at run time, else 0.
    var exitCode: Int32 {
        if inputErrors > 0 || unrunnable > 0 { return CLI.ExitCode.usage }
        if failed > 0 || testErrors > 0 { return CLI.ExitCode.failure }
        return CLI.ExitCode.success
    }

    /// Adds a test's outcome.
    mutating func count(_ test: TestReport) {
        tests += 1
        warnings += test.warnings.count
        switch test.outcome {
        case .passed: passed += 1
        case .failed: failed += 1
        case .error: testErrors += 1
        }
        if test.cannotRunAsWritten { unrunnable += 1 }
    }

    /// `12 tests in 3 files, 38 ms`
    func totals(milliseconds: Int) -> String {
        "\(count(tests, "test")) in \(count(files, "file")), \(milliseconds) ms"
    }

    /// `45 passed, 1 failed` or `45 passed, 1 failed, 2 errors`: the line CI systems look for.
    var outcome: String {
        var text = "\(passed) passed, \(failed) failed"
        if errors > 0 { text += ", " + count(errors, "error") }
        if warnings > 0 { text += ", " + count(warnings, "warning") }
        return text
    }

    private func count(_ n: Int, _ noun: String) -> String {
        "\(n) \(noun)" + (n == 1 ? "" : "s")
    }
}
