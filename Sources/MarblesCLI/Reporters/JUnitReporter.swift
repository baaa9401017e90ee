import MarbleDiagram
import MarbleSpec

/// JUnit XML, as Jenkins, GitLab and GitHub test summaries read it:
///
/// ```xml
/// <testsuites name="marbles" tests="2" failures="1" errors="0" skipped="0" time="0.004">
///   <testsuite name="specs/map.marble" tests="2" failures="1" errors="0" skipped="0" time="0.003" file="specs/map.marble">
///     <testcase name="map doubles" classname="specs.map" file="specs/map.marble" line="1" time="0.001">
///       <failure message="doubled: frame 5: expected 7, got 6" type="marble mismatch">…the diagram…</failure>
///     </testcase>
///   </testsuite>
/// </testsuites>
/// ```
///
/// One `testsuite` per file, one `testcase` per test; a failure's text is the marble diagram, a
/// runtime error or a mistake in the test is an `error`. The file's own mistakes are one errored
/// testcase named `(file)`, with the diagnostics, first in its suite (alone when no test could
/// run); a path that does not exist is a suite holding only that.
final class JUnitReporter: Reporter {
    private let target: ReportTarget
    private var suites: [String] = []
    private var totals = (tests: 0, failures: 0, errors: 0, seconds: 0.0)

    init(target: ReportTarget) {
        self.target = target
    }

    func problem(path: String, message: String) {
        suites.append(fileError(path: path, seconds: 0, message: message, details: "\(path): error: \(message)"))
    }

    func file(_ result: FileResult) {
        let report = result.report
        totals.seconds += result.seconds
        var cases: [String] = []
        var failures = 0
        var errors = 0
        if let first = report.diagnostics.first {
            errors += 1
            cases.append(Self.fileCase(path: report.path, message: "\(first.line):\(first.column): \(first.message)",
                                       details: FailureText.lines(for: report.diagnostics).joined(separator: "\n")))
        }
        for test in report.tests {
            var attributes = [("name", test.name), ("classname", Self.className(report.path)), ("file", report.path),
                              ("line", String(test.line)), ("time", test.seconds.secondsText)]
            // A stream nothing checks is written to the test's output (JUnit has no warnings).
            let warnings = test.warnings.isEmpty ? [] : ["      <system-out>" + XMLText.escape(test.warnings.map {
                "\(report.path):\($0.line):\($0.column): warning: \($0.message)"
            }.joined(separator: "\n")) + "</system-out>"]
            if test.outcome == .passed {
                cases += warnings.isEmpty ? ["    <testcase \(Self.attributes(attributes))/>"]
                    : ["    <testcase \(Self.attributes(attributes))>"] + warnings + ["    </testcase>"]
                continue
            }
            let element = test.outcome == .error ? "error" : "failure"
            let type = test.unsettled ? "never settles" : !test.diagnostics.isEmpty ? "mistake in the test"
                : test.outcome == .error ? "runtime error" : "marble mismatch"
            if test.outcome == .error { errors += 1 } else { failures += 1 }
            if let line = test.error?.line, test.outcome == .error { attributes[3].1 = String(line) }
            cases.append("    <testcase \(Self.attributes(attributes))>")
            cases.append("      <\(element) \(Self.attributes([("message", test.failureHeadline), ("type", type)]))>"
                         + XMLText.escape(FailureText.text(for: test)) + "</\(element)>")
            cases += warnings
            cases.append("    </testcase>")
        }
        let count = report.tests.count + (report.diagnostics.isEmpty ? 0 : 1)
        totals.tests += count
        totals.failures += failures
        totals.errors += errors
        let suite = Self.attributes([("name", report.path), ("tests", String(count)), ("failures", String(failures)),
                                     ("errors", String(errors)), ("skipped", "0"), ("time", result.seconds.secondsText), ("file", report.path)])
        suites.append((["  <testsuite \(suite)>"] + cases + ["  </testsuite>"]).joined(separator: "\n"))
    }

    func finish(_ summary: RunSummary) {
        target.line("<?xml version=\"1.0\" encoding=\"UTF-8\"?>")
        let root = Self.attributes([("name", "marbles"), ("tests", String(totals.tests)), ("failures", String(totals.failures)),
                                    ("errors", String(totals.errors)), ("skipped", "0"), ("time", (Double(summary.milliseconds) / 1000).secondsText)])
        target.line("<testsuites \(root)>")
        suites.forEach { target.line($0) }
        target.line("</testsuites>")
    }

    private func fileError(path: String, seconds: Double, message: String, details: String) -> String {
        totals.tests += 1
        totals.errors += 1
        let suite = Self.attributes([("name", path), ("tests", "1"), ("failures", "0"), ("errors", "1"), ("skipped", "0"),
                                     ("time", seconds.secondsText), ("file", path)])
        return "  <testsuite \(suite)>\n" + Self.fileCase(path: path, message: message, details: details) + "\n  </testsuite>"
    }

    /// The testcase `(file)`: the mistakes of a file that belong to none of its tests.
    private static func fileCase(path: String, message: String, details: String) -> String {
        let testcase = attributes([("name", "(file)"), ("classname", className(path)), ("file", path), ("time", "0.000")])
        return """
                <testcase \(testcase)>
                  <error \(attributes([("message", message), ("type", "file error")]))>\(XMLText.escape(details))</error>
                </testcase>
            """
    }

    /// `specs/operators/map.marble` → `specs.operators.map`: Jenkins groups by the dotted prefix.
    static func className(_ path: String) -> String {
        var trimmed = Substring(path)
        while trimmed.hasPrefix("./") { trimmed = trimmed.dropFirst(2) }
        while trimmed.hasPrefix("/") { trimmed = trimmed.dropFirst() }
        if trimmed.hasSuffix(".marble") { trimmed = trimmed.dropLast(".marble".count) }
        return trimmed.split(separator: "/").joined(separator: ".")
    }

    static func attributes(_ pairs: [(String, String)]) -> String {
        pairs.map { "\($0.0)=\"\(XMLText.escape($0.1, in: .attribute))\"" }.joined(separator: " ")
    }
}
