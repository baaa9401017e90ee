import Foundation
import MarbleNotation
import SwiftCallSite

/// `MARBLES_UPDATE=1 swift test`: the marbles literal of each failing `expect` is rewritten in
/// the test's source with what happened, as `marbles run --update` rewrites `.marble` files.
/// The failure is still recorded, with a last line that says what was written where (or why
/// nothing was); the next run passes and changes nothing.
///
/// What happened is written as the diff shows it: values by their names in `values:`, others
/// as themselves (`a`, `7`) or in braces (`{42}`, `{"two words"}`), `MarblePrinter`'s canonical
/// marbles; a line that ended in dashes keeps its length, and long silences become time
/// progressions (` 1s `) as in the CLI. The new marbles must read back as what happened (a value
/// the marbles cannot name is refused, with what would have been written).
@usableFromInline
struct ExpectationUpdate: Sendable {
    /// The environment variable that turns updates on: any value but empty or `0`.
    static let variable = "MARBLES_UPDATE"
    /// For this library's tests: updates on or off whatever the environment says.
    @TaskLocal static var enabledOverride: Bool?

    @usableFromInline
    static var isEnabled: Bool {
        if let enabledOverride { return enabledOverride }
        guard let value = ProcessInfo.processInfo.environment[variable] else { return false }
        return !value.isEmpty && value != "0"
    }

    /// Which arguments of the `expect` call hold the marbles.
    var literals: SwiftCall.Literals
    /// The marbles as they ran.
    var ran: [String]
    /// What the literals should say, or why nothing can be written.
    var replacement: Result<[String], Problem>

    struct Problem: Error, Sendable {
        var reason: String
    }

    /// The update of an expectation whose `literals` said `ran` and should say `new`, when
    /// updates are on; `readsBack` says whether marbles read as what happened.
    @usableFromInline
    static func make(_ literals: SwiftCall.Literals, ran: [String], new: @autoclosure () -> [String],
                     readsBack: ([String]) -> Bool) -> ExpectationUpdate? {
        guard isEnabled else { return nil }
        let new = new()
        let replacement: Result<[String], Problem> = readsBack(new) ? .success(new) : .failure(Problem(
            reason: "\(spelled(new)) would not read back as what happened: name its values in values: (and errors: for #{…})"))
        return ExpectationUpdate(literals: literals, ran: ran, replacement: replacement)
    }

    /// `failure` with what its update did said at its end, once the update is made.
    static func applied(_ failure: MarbleFailure) -> MarbleFailure {
        guard let update = failure.update, isEnabled else { return failure }
        var failure = failure
        failure.update = nil
        failure.message += "\n\n" + update.apply(at: failure.location)
        return failure
    }

    /// Rewrites the literals at `location`; the sentence that says what happened.
    private func apply(at location: MarbleSourceLocation) -> String {
        let place = "\(location.fileID):\(location.line)"
        switch replacement {
        case .failure(let problem):
            return "\(Self.variable): cannot update \(place): \(problem.reason)"
        case .success(let new):
            switch SwiftLiteralEditor.rewrite(path: CallSites.path(location), line: location.line, column: location.column, callee: "expect",
                                              literals: literals, ran: ran, with: new) {
            case .success(let change?):
                return "\(Self.variable): updated \(location.fileID):\(change.line): \(Self.spelled(change.before)) → \(Self.spelled(change.after))"
            case .success(nil):
                return "\(Self.variable): \(place) says \(Self.spelled(new)) already"
            case .failure(let refusal):
                return "\(Self.variable): cannot update \(place): \(refusal.reason); what happened: \(Self.spelled(new))"
            }
        }
    }

    /// Marble strings as Swift literals, as a test writes them.
    static func spelled(_ marbles: [String]) -> String {
        marbles.isEmpty ? "no marbles" : marbles.map { SwiftStringLiteral.spelled($0) }.joined(separator: ", ")
    }

    // MARK: Marbles for what happened

    /// `events` as a marble line of `kind`, in the manner of `original`: a line that ended in
    /// dashes keeps its length (unless the events reach further); silences longer than the
    /// longest dash run of `original` (at least 40 frames, 8 when `original` has a time
    /// progression) become time progressions, as `marbles run --update` writes them.
    @usableFromInline
    static func marbles(_ events: [(frame: Int, event: PrintableEvent)], replacing original: String, as kind: MarbleLineKind, frameNanoseconds: Int64) -> String {
        let keepsLength = original.last(where: { !$0.isWhitespace }) == "-"
        let through = keepsLength ? (try? MarbleParser(frameNanoseconds: frameNanoseconds).parse(original, as: kind)).map { $0.endFrame - 1 } : nil
        let hadProgression = original.split(whereSeparator: \.isWhitespace).contains { word in
            (try? MarbleDuration.nanoseconds(String(word))) != nil
        }
        var longestDashes = 0
        var dashes = 0
        for character in original {
            dashes = character == "-" ? dashes + 1 : 0
            longestDashes = max(longestDashes, dashes)
        }
        return MarblePrinter.render(events, through: through, frameNanoseconds: frameNanoseconds,
                                    compressingGapsLongerThan: hadProgression ? 8 : max(40, longestDashes))
    }

    /// Events in order (frames are positions), spaced apart when `original` was (`"a b |"`).
    static func inOrder(_ events: [PrintableEvent], replacing original: String) -> String {
        let written = original.trimmingCharacters(in: .whitespaces)
        if written.contains(" ") { return events.map(\.text).joined(separator: " ") }
        return MarblePrinter.render(events.enumerated().map { (frame: $0.offset, event: $0.element) })
    }
}
