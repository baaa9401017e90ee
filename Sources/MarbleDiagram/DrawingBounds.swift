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
            let check = test.checks[index]
            test.checks[index].differences = check.differences.prefix(maximumDifferences).map { difference in
                var difference = difference
                if difference.sentence.count > maximumSentence { difference.sentence = difference.sentence.prefix(maximumSentence) + " …" }
                return difference
            }
            guard check.expected.count > maximumEvents || check.actual.count > maximumEvents || check.differences.count > maximumDifferences else { continue }
            test.checks[index].expected = Array(check.expected.prefix(maximumEvents))
            test.checks[index].actual = Array(check.actual.prefix(maximumEvents))
            omissions.append("the check of \(check.label) (line \(check.line)): the first \(min(check.differences.count, maximumDifferences)) of "
                             + "\(check.differences.count) differences and at most \(maximumEvents) events a side are drawn (`marbles run --reporter json` has all)")
        }
        return (test, omissions)
    }
}
