import MarbleReport

/// What one diagram draws at most. A run may record up to its limits (a million values on a
/// stream, 100,000 at one frame); a diagram of that many marbles is unreadable, and drawing it
/// cost minutes and hundreds of megabytes. The report is cut before the scene is built, and the
/// footer says what was left out, so nothing is dropped silently.
enum DrawingBounds {
    /// Events of one stream (what it published, what a check expected or got).
    static let maximumEvents = 1_000
    /// Numbered differences of one check.
    static let maximumDifferences = 100
    /// Characters of a difference's sentence ("expected a then b, got …" lists a frame's values).
    static let maximumSentence = 300

    /// The report to draw, and a sentence for each part left out.
    static func bounded(_ test: TestReport) -> (test: TestReport, omissions: [String]) {
        var test = test
        var omissions: [String] = []
        for index in test.streams.indices {
            guard let observed = test.streams[index].observed, observed.count > maximumEvents else { continue }
            test.streams[index].observed = Array(observed.prefix(maximumEvents))
            omissions.append("\(test.streams[index].name): the first \(maximumEvents) of its \(observed.count) events are drawn")
        }
        for index in test.checks.indices {
            var check = test.checks[index]
            for item in check.differences.indices where check.differences[item].sentence.count > maximumSentence {
                check.differences[item].sentence = check.differences[item].sentence.prefix(maximumSentence) + " …"
            }
            test.checks[index] = check
            let counts = (check.expected.count, check.actual.count, check.differences.count)
            guard counts.0 > maximumEvents || counts.1 > maximumEvents || counts.2 > maximumDifferences else { continue }
            check.expected = Array(check.expected.prefix(maximumEvents))
            check.actual = Array(check.actual.prefix(maximumEvents))
            check.differences = Array(check.differences.prefix(maximumDifferences))
            test.checks[index] = check
            omissions.append("the check of \(check.label) (line \(check.line)): the first \(min(counts.2, maximumDifferences)) of \(counts.2) differences "
                             + "and at most \(maximumEvents) events a side are drawn (`marbles run --reporter json` has all)")
        }
        return (test, omissions)
    }
}
