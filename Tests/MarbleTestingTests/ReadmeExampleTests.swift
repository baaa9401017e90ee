// The README's "Testing your own publishers" example, exactly as written there.
import Foundation
import MarbleTesting
import Testing

@Test func debounceWaitsForThePauseInTyping() {
    let scheduler = TestScheduler(frame: .milliseconds(100))
    let typing = scheduler.hot("-a-b-c-----d--e-|")
    let query = typing.debounce(for: .milliseconds(300), scheduler: scheduler)

    scheduler.expect(query, "--------c-------|")
    scheduler.expect(typing.subscriptions, "^---------------!")
    scheduler.run()
}

/// The README, read from the checkout this file is in.
private func readme() throws -> String {
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    return try String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8)
}

/// The fenced block that follows `marker` in `text`, without its fences.
private func block(after marker: String, in text: String) -> String? {
    guard let start = text.range(of: marker) else { return nil }
    let rest = text[start.upperBound...]
    guard let open = rest.range(of: "```"), let line = rest[open.upperBound...].firstIndex(of: "\n"),
          let close = rest[line...].range(of: "\n```") else { return nil }
    return String(rest[rest.index(after: line)..<close.lowerBound])
}

/// The README shows what the example prints when its expectation is wrong, word for word: the
/// same code (names read from this file) with `e` written before the completion.
@Test func theReadmeFailureReadsAsShown() throws {
    let issues = recordedIssues {
        let scheduler = TestScheduler(frame: .milliseconds(100))
        let typing = scheduler.hot("-a-b-c-----d--e-|")
        let query = typing.debounce(for: .milliseconds(300), scheduler: scheduler)

        scheduler.expect(query, "--------c-------e|")
        scheduler.expect(typing.subscriptions, "^---------------!")
        scheduler.run()
    }
    let text = try readme()
    let shown = try #require(block(after: "the test fails at that line with:", in: text))
    #expect(issues.map(\.message) == [shown])
    // The example above is the README's, character for character.
    let example = try #require(block(after: "## Testing your own publishers", in: text))
    let source = try String(contentsOfFile: #filePath, encoding: .utf8)
    #expect(source.contains(example.replacingOccurrences(of: "import MarbleTesting\nimport Testing\n\n", with: "")))
}
