import AtomicFiles
import Foundation

/// Rewrites the string literals a call passed, in place in its source file: what
/// `MARBLES_UPDATE` does to a failing expectation's marbles.
///
/// - Only the literals' bytes change (and, for `.rest`, literals are added after the last one or
///   removed with the `, ` before them); every other byte of the file stays, and no line is
///   added or removed, so the lines of the other calls stay where the compiler saw them.
/// - Each rewrite reads the file again, finds the call at its line and column (moved by the
///   rewrites this process made earlier on that line), and checks that its literals still say
///   what ran; the file is then written atomically, and only if it did not change meanwhile.
/// - Rewrites are serialized within the process (tests run in parallel).
public enum SwiftLiteralEditor {
    /// What a rewrite changed: the call's line and its literals' values before and after.
    public struct Change: Sendable, Equatable {
        /// The line of the first literal that changed (or where literals were added).
        public var line: Int
        public var before: [String]
        public var after: [String]
    }

    /// Why the file was left as it was, as a sentence.
    public struct Refusal: Error, Sendable, Equatable, CustomStringConvertible {
        public var reason: String
        public init(_ reason: String) { self.reason = reason }
        public var description: String { reason }
    }

    /// Replaces the literals of the `callee` call at `line`:`column` of `path`, which must say
    /// `ran`, with `new`. Returns nil when `new` is what they say already.
    public static func rewrite(path: String, line: Int, column: Int, callee: String, literals: SwiftCall.Literals,
                               ran: [String], with new: [String]) -> Result<Change?, Refusal> {
        state.lock.lock()
        defer { state.lock.unlock() }
        // The names of later failures are read from the text the tests were compiled from.
        SwiftSourceFile.remember(path: path)
        guard let data = FileManager.default.contents(atPath: path) else { return .failure(Refusal("cannot read \(path)")) }
        let file = SwiftSourceFile(bytes: Array(data))
        let shifted = column + state.shifts[path, default: []].filter { $0.line == line && $0.column < column }.reduce(0) { $0 + $1.delta }
        guard let call = SwiftCall(in: file, line: line, column: shifted, callee: callee) else {
            return .failure(Refusal("found no `\(callee)(` call there that can be read (the file changed since it was compiled, "
                                    + "the call is made by a helper that passes its own caller's line, or its brackets do not balance)"))
        }
        guard let selected = call.arguments(literals) else {
            return .failure(Refusal("the call has no marbles argument (its \(literals))"))
        }
        var written: [SwiftStringLiteral] = []
        for argument in selected {
            switch argument.form {
            case .stringLiteral(let literal) where literal.value != nil:
                written.append(literal)
            case .stringLiteral(let literal):
                return .failure(Refusal("the marbles are \(literal.problem ?? "not a plain string literal"); write them as one \"…\" literal"))
            case .reference(let name):
                return .failure(Refusal("the marbles are a variable (`\(name)`), not a string literal"))
            case .expression:
                return .failure(Refusal("the marbles are an expression (`\(call.text(of: argument))`), not a single string literal"))
            }
        }
        guard written.compactMap(\.value) == ran else {
            return .failure(Refusal("the call no longer passes the marbles that ran (the file changed since it was compiled)"))
        }
        guard new != ran else { return .success(nil) }

        var edits: [(range: Range<Int>, text: String)] = []
        for (literal, text) in zip(written, new) where literal.value != text {
            edits.append((literal.range, literal.respelled(text)))
        }
        let hashes = written.last?.hashes ?? 0
        if new.count > written.count {
            guard literals == .rest, let first = call.arguments.first else { return .failure(Refusal("the call takes one marbles literal")) }
            let end = written.last?.range.upperBound ?? first.range.upperBound
            edits.append((end..<end, new[written.count...].map { ", " + SwiftStringLiteral.spelled($0, hashes: hashes) }.joined()))
        } else if new.count < written.count {
            guard let first = call.arguments.first else { return .failure(Refusal("the call takes one marbles literal")) }
            let start = new.isEmpty ? first.range.upperBound : written[new.count - 1].range.upperBound
            let removed = start..<written[written.count - 1].range.upperBound
            guard !file.bytes[removed].contains(UInt8(ascii: "\n")) else {
                return .failure(Refusal("the \(written.count - new.count) surplus literal(s) are on other lines; remove them by hand"))
            }
            edits.append((removed, ""))
        }
        var bytes = file.bytes
        for edit in edits.sorted(by: { $0.range.lowerBound > $1.range.lowerBound }) {
            bytes.replaceSubrange(edit.range, with: Array(edit.text.utf8))
        }
        guard FileManager.default.contents(atPath: path) == data else {
            return .failure(Refusal("the file changed while it was being updated; left unchanged"))
        }
        do {
            try AtomicFile.write(Data(bytes), to: path, nonRegular: .refuse)
        } catch {
            return .failure(Refusal("\(error)"))
        }
        for edit in edits {
            state.shifts[path, default: []].append((file.line(of: edit.range.lowerBound), file.column(of: edit.range.lowerBound),
                                                    edit.text.utf8.count - edit.range.count))
        }
        let firstEdit = edits.map(\.range.lowerBound).min() ?? call.open
        return .success(Change(line: file.line(of: firstEdit), before: ran, after: new))
    }

    /// The lock that serializes rewrites, and the rewrites made so far on each line of each file:
    /// a call after one on its line now starts `delta` bytes further.
    private static let state = EditorState()

    private final class EditorState: @unchecked Sendable {
        let lock = NSLock()
        var shifts: [String: [(line: Int, column: Int, delta: Int)]] = [:]
    }
}
