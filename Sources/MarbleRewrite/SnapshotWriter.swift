import AtomicFiles
import Foundation
import MarbleNotation
import MarbleSpec
import MarbleSyntax

/// A line `--update` changed: before (nil for an inserted line) and after (nil for a removed one).
public struct LineChange: Sendable, Equatable {
    /// The line's number in the file as it was (for an inserted line: the line it follows).
    public var line: Int
    /// The test the line belongs to.
    public var test: String
    public var before: String?
    public var after: String?

    public init(line: Int, test: String, before: String?, after: String?) {
        self.line = line
        self.test = test
        self.before = before
        self.after = after
    }
}

/// What `--update` did to one file.
public enum FileUpdate: Sendable, Equatable {
    /// Nothing failed that an update could fix.
    case unchanged
    /// The file was rewritten with these changes.
    case updated([LineChange])
    /// The file needed changes but was left alone, and why.
    case refused(String)
    /// The file needed changes and could not be written (it is not a regular file, or the write
    /// failed), and why: an error of the run, as a path that cannot be read is.
    case unwritable(String)
}

/// `marbles run --update`: rewrites the marbles of each failing `expect` line with what the
/// stream actually did, and nothing else.
///
/// - Only the span of the marbles changes (from their first character to their last); the
///   statement, the spacing before the marbles, a trailing comment and every other line keep
///   their bytes. Values are written with the test's names (`a`) or inline (`{42}`), as the
///   report shows them; long empty stretches become time progressions only where the old line
///   had one or was longer. The new marbles start in the same column and, where their widths
///   allow, put each frame under the column the other lines of the test give it.
/// - A line keeps its length (its trailing dashes) unless what happened reaches further: a
///   run goes on until nothing is left to do, so one round shows everything a stream does.
///   When a rewritten test still fails, the run is repeated and the lines rewritten again (up
///   to `maximumRounds` times).
/// - A file with a test that never settles (a limit stopped its run) is refused: what such a run
///   shows depends on where the limit cut it.
/// - `expect NAME.requests` lines are rewritten like event lines, with the requests recorded.
/// - A stream's `.subscriptions` lines are rewritten together from the recorded subscriptions:
///   one line per subscription, in order — lines are added after the last one (copying its
///   layout) or removed when the number of subscriptions changed; no subscription at all is a
///   line of dashes ("never subscribed").
/// - Tests that stopped with a runtime error are not updated (what they did is not a result),
///   nor tests with a mistake (they did not run); the file's other tests are. A file whose
///   structure has a mistake (no test ran) is never touched, and the rewritten file must show
///   the same mistakes, in the same tests, as the file did.
/// - The new text must parse, with every test present, before it is written; it is then written
///   atomically, and only if the file still holds the bytes that were run.
public enum SnapshotWriter {
    /// The rewritten file and what changed in it.
    public struct Plan {
        public var source: String
        public var changes: [LineChange]
    }

    /// The rewritten source for the failing checks of `report`, or why there is none.
    public static func plan(source: String, report: FileReport) -> Result<Plan?, Refusal> {
        guard !(report.isError && report.tests.isEmpty) else { return .failure(Refusal("the file has errors; --update leaves it unchanged")) }
        // What a run that never settles shows depends on where a limit cut it: written out, the
        // next run would show more (an endless timer would get a longer line every time).
        if let endless = report.tests.first(where: \.unsettled) {
            return .failure(Refusal("test \"\(endless.name)\" never settles (line \(endless.error?.line ?? endless.line)); "
                                    + "--update writes no expectation for it and leaves the file unchanged"))
        }
        let failing = report.tests.filter { $0.outcome == .failed }
        guard !failing.isEmpty else { return .success(nil) }
        let (file, _) = MarbleFileParser.parse(source)
        guard file.structureErrors.isEmpty else { return .failure(Refusal("the file has errors; --update leaves it unchanged")) }
        guard file.dialect == .native else {
            return .failure(Refusal("the file is written in notation \(file.dialect.name), and --update writes the native notation only; "
                                    + "convert it with `marbles fmt --native` first"))
        }
        var lines = SourceLines(source)
        var edits: [(edit: Edit, test: String)] = []
        // By name, once: looking each failing test up among all of them is quadratic in a big file.
        let tests = Dictionary(file.tests.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        for test in failing {
            guard let syntax = tests[test.name] else { continue }
            edits += TestRewrite(file: file, syntax: syntax, report: test, lines: lines).edits().map { ($0, test.name) }
        }
        guard !edits.isEmpty else { return .success(nil) }
        let changes = apply(edits, to: &lines)
        return .success(Plan(source: lines.text, changes: changes))
    }

    /// A mistake the rewritten file shows and the file did not (by test and message: lines may
    /// have moved), if any.
    static func newMistake(in rerun: FileReport, comparedWith report: FileReport) -> FileDiagnostic? {
        func mistakes(_ report: FileReport) -> [String: [String]] {
            var byTest = ["": report.diagnostics.map(\.message)]
            for test in report.tests where !test.diagnostics.isEmpty { byTest[test.name] = test.diagnostics.map(\.message) }
            return byTest
        }
        guard mistakes(rerun) != mistakes(report) || (rerun.isError && rerun.tests.isEmpty) else { return nil }
        let known = Set(report.allDiagnostics.map(\.message))
        return rerun.allDiagnostics.first { !known.contains($0.message) } ?? rerun.allDiagnostics.first
            ?? FileDiagnostic(path: rerun.path, line: 1, column: 1, message: "an error")
    }

    /// Why a file is left unchanged, as a sentence.
    public struct Refusal: Error, Equatable {
        public var reason: String
        public init(_ reason: String) { self.reason = reason }
    }

    /// One change to the file, by line.
    enum Edit {
        /// Replace `length` characters of line `line` from `column` (1-based) with `text`.
        case replace(line: Int, column: Int, length: Int, text: String)
        /// Add a line after line `after`.
        case insert(after: Int, content: String)
        /// Remove line `line` with its line break.
        case remove(line: Int)

        var line: Int {
            switch self {
            case .replace(let line, _, _, _), .remove(let line): return line
            case .insert(let after, _): return after
            }
        }
    }

    /// Applies the edits (at most one replace or remove per line) and describes them.
    static func apply(_ edits: [(edit: Edit, test: String)], to lines: inout SourceLines) -> [LineChange] {
        var changes: [LineChange] = []
        // Described from the bottom up, as if applied one by one there (line numbers above stay
        // valid); replacements are made in place, and the lines are rebuilt once for the
        // insertions and removals (one `insert(at:)` per edit would be quadratic in the file).
        let ordered = edits.enumerated().sorted { lhs, rhs in
            lhs.element.edit.line != rhs.element.edit.line ? lhs.element.edit.line > rhs.element.edit.line : lhs.offset > rhs.offset
        }.map(\.element)
        var removed: Set<Int> = []
        var inserted: [Int: [String]] = [:]
        for (edit, test) in ordered {
            switch edit {
            case .replace(let number, let column, let length, let text):
                guard let line = lines[number] else { continue }
                let before = line.text
                var content = line.content
                let start = min(max(0, column - 1), content.count)
                let end = min(start + length, content.count)
                content.replaceSubrange(start..<end, with: Array(text))
                lines.lines[number - 1].content = content
                if before != String(content) { changes.append(LineChange(line: number, test: test, before: before, after: String(content))) }
            case .insert(let after, let content):
                guard lines[after] != nil else { continue }
                // Processed bottom up, the last insertion after a line is met first.
                inserted[after, default: []].insert(content, at: 0)
                changes.append(LineChange(line: after, test: test, before: nil, after: content))
            case .remove(let number):
                guard let line = lines[number], removed.insert(number).inserted else { continue }
                changes.append(LineChange(line: number, test: test, before: line.text, after: nil))
            }
        }
        if !removed.isEmpty || !inserted.isEmpty {
            var rebuilt: [SourceLines.Line] = []
            rebuilt.reserveCapacity(lines.lines.count + inserted.values.reduce(0) { $0 + $1.count } - removed.count)
            for (index, line) in lines.lines.enumerated() {
                let number = index + 1
                guard let added = inserted[number] else {
                    if !removed.contains(number) { rebuilt.append(line) }
                    continue
                }
                // The new lines end as the line they follow did; one that ended the file without
                // a break gets one, and the last new line ends the file instead.
                let terminator = line.terminator.isEmpty ? "\n" : line.terminator
                if !removed.contains(number) { rebuilt.append(SourceLines.Line(characters: line.characters, terminator: terminator)) }
                for (position, content) in added.enumerated() {
                    let last = position == added.count - 1
                    rebuilt.append(SourceLines.Line(content: Array(content), terminator: last && line.terminator.isEmpty ? "" : terminator))
                }
            }
            lines.lines = rebuilt
        }
        return changes.sorted { ($0.line, $0.before == nil ? 1 : 0) < ($1.line, $1.before == nil ? 1 : 0) }
    }

    /// Rewrites are repeated (at most this many times) while the rewritten tests still fail (a
    /// rewritten `.subscriptions` line, say, can leave another check to rewrite).
    public static let maximumRounds = 4

    /// The rounds of `--update` over `source`, whose run is `report`, without a file: the
    /// rewritten source and the report of its run (both as given when nothing needs rewriting),
    /// or why the file is left unchanged.
    public static func rewrite(source: String, report: FileReport, path: String, options: RunOptions) -> Result<(source: String, report: FileReport), Refusal> {
        var current = (source: source, report: report)
        for round in 0..<maximumRounds {
            switch plan(source: current.source, report: current.report) {
            case .failure(let refusal):
                if round == 0 { return .failure(refusal) }
            case .success(nil):
                break
            case .success(let plan?):
                let rerun = MarbleRunner.run(source: plan.source, path: path, options: options)
                if let mistake = newMistake(in: rerun, comparedWith: current.report) {
                    if round > 0 { break }
                    return .failure(Refusal("the updated file would not run (line \(mistake.line): \(mistake.message)); left unchanged"))
                }
                current = (plan.source, rerun)
                if rerun.tests.contains(where: { $0.outcome == .failed }) { continue }
            }
            break
        }
        return .success(current)
    }

    /// Reads, runs, plans, checks and writes one file: the report to show (the re-run of the
    /// updated file when it was written) and what happened.
    public static func update(path: String, options: RunOptions) -> (report: FileReport, update: FileUpdate) {
        guard let data = FileManager.default.contents(atPath: path), let source = String(data: data, encoding: .utf8) else {
            return (MarbleRunner.run(path: path, options: options), .unchanged)
        }
        let report = MarbleRunner.run(source: source, path: path, options: options)
        guard Data(source.utf8) == data else {
            let needsUpdate = report.tests.contains { $0.outcome == .failed }
            return (report, needsUpdate ? .refused("the file's bytes do not survive decoding as UTF-8 text; --update leaves it unchanged") : .unchanged)
        }
        let current: (source: String, report: FileReport)
        switch rewrite(source: source, report: report, path: path, options: options) {
        case .failure(let refusal): return (report, .refused(refusal.reason))
        case .success(let rewritten): current = rewritten
        }
        guard current.source != source else { return (report, .unchanged) }
        // Asked before reading the file again: a second read of a FIFO waits for another writer.
        if let refusal = AtomicFile.rewriteRefusal(path) { return (report, .unwritable("\(refusal); --update rewrites only regular files")) }
        guard FileManager.default.contents(atPath: path) == data else {
            return (report, .refused("the file changed while its tests ran; left unchanged"))
        }
        do {
            try AtomicFile.write(Data(current.source.utf8), to: path, nonRegular: .refuse)
        } catch {
            return (report, .unwritable("\(error)"))
        }
        return (current.report, .updated(changes(from: source, to: current.source)))
    }

    /// The lines that differ between two versions of a file (a longest-common-subsequence diff
    /// of whole lines: removed and added lines next to each other pair up as changed lines),
    /// each with the test it belongs to. When both versions hold the same tests, each test is
    /// diffed on its own (`--update` never moves a line out of its test), so the cost is linear
    /// in the file and quadratic only in the lines of one test.
    public static func changes(from old: String, to new: String) -> [LineChange] {
        let before = SourceLines(old).lines.map(\.text)
        let after = SourceLines(new).lines.map(\.text)
        let oldTests = MarbleFileParser.parse(old).file.tests
        let newTests = MarbleFileParser.parse(new).file.tests
        let starts = oldTests.map(\.location.line)
        /// The test that line `line` (1-based) of the old file belongs to: the last one starting at or before it.
        func test(at line: Int) -> String {
            var low = 0
            var high = starts.count
            while low < high {
                let middle = (low + high) / 2
                if starts[middle] <= line { low = middle + 1 } else { high = middle }
            }
            return low == 0 ? "" : oldTests[low - 1].name
        }
        // Where each test starts in either version (0-based), between the text before the first and the end.
        var cuts = [(old: 0, new: 0)]
        if oldTests.map(\.name) == newTests.map(\.name) {
            cuts += zip(oldTests, newTests).map { (old: $0.location.line - 1, new: $1.location.line - 1) }
        }
        cuts.append((old: before.count, new: after.count))
        var changes: [LineChange] = []
        for (from, to) in zip(cuts, cuts.dropFirst()) where from.old <= to.old && from.new <= to.new {
            changes += diff(before, from.old..<to.old, after, from.new..<to.new, test: test(at:))
        }
        return changes
    }

    /// The LCS diff of `before[old]` against `after[new]`, in the old file's line numbers.
    private static func diff(_ before: [String], _ old: Range<Int>, _ after: [String], _ new: Range<Int>, test: (Int) -> String) -> [LineChange] {
        let width = new.count + 1
        // lengths[i * width + j]: the longest common subsequence of before[old.lowerBound + i ..< old.upperBound]
        // and after[new.lowerBound + j ..< new.upperBound].
        var lengths = Array(repeating: 0, count: (old.count + 1) * width)
        for i in stride(from: old.count - 1, through: 0, by: -1) {
            for j in stride(from: new.count - 1, through: 0, by: -1) {
                lengths[i * width + j] = before[old.lowerBound + i] == after[new.lowerBound + j]
                    ? lengths[(i + 1) * width + j + 1] + 1 : max(lengths[(i + 1) * width + j], lengths[i * width + j + 1])
            }
        }
        var changes: [LineChange] = []
        var removed: [Int] = []
        var added: [String] = []
        func flush(before line: Int) {
            let paired = min(removed.count, added.count)
            for k in 0..<paired {
                changes.append(LineChange(line: removed[k] + 1, test: test(removed[k] + 1), before: before[removed[k]], after: added[k]))
            }
            for index in removed.dropFirst(paired) {
                changes.append(LineChange(line: index + 1, test: test(index + 1), before: before[index], after: nil))
            }
            let anchor = removed.last.map { $0 + 1 } ?? line
            for text in added.dropFirst(paired) {
                changes.append(LineChange(line: anchor, test: test(max(1, anchor)), before: nil, after: text))
            }
            removed = []
            added = []
        }
        var i = 0
        var j = 0
        while i < old.count || j < new.count {
            if i < old.count, j < new.count, before[old.lowerBound + i] == after[new.lowerBound + j] {
                flush(before: old.lowerBound + i)
                i += 1
                j += 1
            } else if j < new.count, i == old.count || lengths[i * width + j + 1] >= lengths[(i + 1) * width + j] {
                added.append(after[new.lowerBound + j])
                j += 1
            } else {
                removed.append(old.lowerBound + i)
                i += 1
            }
        }
        flush(before: old.lowerBound + i)
        return changes
    }
}

/// The edits for one failing test.
private struct TestRewrite {
    let file: MarbleFileSyntax
    let syntax: TestSyntax
    let report: TestReport
    let lines: SourceLines

    private var frameNanoseconds: Int64 { MarbleColumns.frameNanoseconds(file: file, test: syntax) }

    /// Every marble statement of the test with its kind, text and parsed extent.
    private var marbleLines: [(statement: Statement, kind: MarbleLineKind, marbles: MarbleText, meaning: MarbleColumns.Meaning?)] {
        syntax.statements.compactMap { statement in
            guard let (kind, marbles) = MarbleColumns.marbles(of: statement) else { return nil }
            return (statement, kind, marbles, MarbleColumns.meaning(marbles.text, kind: kind, frameNanoseconds: frameNanoseconds))
        }
    }


    func edits() -> [SnapshotWriter.Edit] {
        var edits: [SnapshotWriter.Edit] = []
        let all = marbleLines
        for check in report.checks where !check.passed && check.kind != .subscriptions && check.rewritable {
            let property: String? = check.kind == .requests ? "requests" : nil
            guard let line = all.first(where: { item in
                if case .expect(let name, let written, _) = item.statement.kind {
                    return name.name == check.stream && written?.name == property && item.statement.sourceLine == check.line
                }
                return false
            }) else { continue }
            let through = (line.meaning?.endFrame).map { $0 - 1 }
            let text = marbles(check.actual.map { ($0.frame, $0.event) }, through: through, replacing: line.marbles, kind: line.kind, others: all.map(\.marbles))
            edits.append(.replace(line: line.marbles.location.line, column: line.marbles.location.column, length: line.marbles.text.count, text: text))
        }
        let streams = Set(report.checks.filter { !$0.passed && $0.kind == .subscriptions }.map(\.stream))
        for stream in streams.sorted() {
            edits += subscriptionEdits(stream, all: all)
        }
        return edits
    }

    private func subscriptionEdits(_ stream: String, all: [(statement: Statement, kind: MarbleLineKind, marbles: MarbleText, meaning: MarbleColumns.Meaning?)]) -> [SnapshotWriter.Edit] {
        let written = all.filter { item in
            if case .expect(let name, let property?, _) = item.statement.kind { return name.name == stream && property.name == "subscriptions" }
            return false
        }
        guard let last = written.last else { return [] }
        let spans = report.streams.first { $0.name == stream }?.subscriptions ?? []
        var edits: [SnapshotWriter.Edit] = []
        func events(_ span: SubscriptionRecord) -> [(Int, PrintableEvent)] {
            [(span.start, .subscribe)] + (span.end.map { [($0, .cancel)] } ?? [])
        }
        for (index, line) in written.enumerated() {
            let through = (line.meaning?.endFrame).map { $0 - 1 }
            if index < spans.count {
                let text = marbles(events(spans[index]), through: through, replacing: line.marbles, kind: .subscription, others: all.map(\.marbles))
                edits.append(.replace(line: line.marbles.location.line, column: line.marbles.location.column, length: line.marbles.text.count, text: text))
            } else if index == 0 {
                // Never subscribed: a line with neither mark, as long as it was.
                let length = max(1, (line.meaning?.endFrame ?? 1) - (line.meaning?.firstFrame ?? 0))
                edits.append(.replace(line: line.marbles.location.line, column: line.marbles.location.column, length: line.marbles.text.count,
                                      text: String(repeating: "-", count: length)))
            } else {
                edits.append(.remove(line: line.statement.sourceLine))
            }
        }
        if spans.count > written.count, let lineText = lines[last.marbles.location.line]?.content {
            let prefix = String(lineText.prefix(last.marbles.location.column - 1))
            for span in spans[written.count...] {
                let text = marbles(events(span), through: nil, replacing: last.marbles, kind: .subscription, others: all.map(\.marbles))
                edits.append(.insert(after: last.marbles.location.line, content: prefix + text))
            }
        }
        return edits
    }

    /// The marbles for `events`, starting in the column of `original`. The old line's own layout
    /// is kept where the events fit it (its time progressions, its trailing dashes), each frame
    /// where the other lines have it when widths allow; else the canonical marbles. Whatever is
    /// chosen must parse to exactly the canonical marbles' events over the same frames.
    private func marbles(_ events: [(Int, PrintableEvent)], through: Int?, replacing original: MarbleText, kind: MarbleLineKind, others: [MarbleText]) -> String {
        let originalTokens = MarbleColumns.tokens(original.text, kind: kind, frameNanoseconds: frameNanoseconds) ?? []
        let longestDashes = originalTokens.reduce(into: (longest: 0, run: 0)) { state, token in
            state.run = token.text == "-" ? state.run + 1 : 0
            state.longest = max(state.longest, state.run)
        }.longest
        let hadProgression = originalTokens.contains(where: \.isProgression)
        let limit = max(longestDashes, hadProgression ? 8 : 40)
        let canonical = MarblePrinter.render(events.map { (frame: $0.0, event: $0.1) }, through: through, frameNanoseconds: frameNanoseconds,
                                             compressingGapsLongerThan: limit)
        let meaning = MarbleColumns.meaning(canonical, kind: kind, frameNanoseconds: frameNanoseconds)

        // Where each frame stands in the test's lines — only where every line that has a token
        // at that frame puts it in the same column (cold lines count their frames from each
        // subscription, so they say nothing about columns).
        var columns: [Int: Set<Int>] = [:]
        for text in Set([original] + others) {
            let lineKind = text == original ? kind : lineKind(of: text)
            guard lineKind != .cold, let lineTokens = MarbleColumns.tokens(text.text, kind: lineKind, frameNanoseconds: frameNanoseconds) else { continue }
            for token in lineTokens { columns[token.frame, default: []].insert(text.location.column - 1 + token.offset) }
        }
        let targets = columns.compactMapValues { $0.count == 1 ? $0.first : nil }
        let candidates = [reusing(originalTokens, events, through: through, kind: kind),
                          MarbleColumns.tokens(canonical, kind: kind, frameNanoseconds: frameNanoseconds)]
        for case let tokens? in candidates where !tokens.isEmpty {
            let text = layout(tokens, start: original.location.column - 1, targets: targets)
            if meaning != nil, MarbleColumns.meaning(text, kind: kind, frameNanoseconds: frameNanoseconds) == meaning { return text }
        }
        return canonical
    }

    /// The old line's tokens with each frame's cell replaced by what happened there, cut or
    /// extended to the new length; nil when the events do not fit (an event inside a time
    /// progression or before the line's start, or a `^` that shifts an expect line's frames).
    private func reusing(_ original: [MarbleToken], _ events: [(Int, PrintableEvent)], through: Int?, kind: MarbleLineKind) -> [MarbleToken]? {
        guard let first = original.first else { return nil }
        if kind != .subscription, original.contains(where: { $0.text.contains("^") }) { return nil }
        let frames = events.map(\.0)
        guard frames.allSatisfy({ $0 >= first.frame }) else { return nil }
        let end = max((frames.max() ?? -1) + 1, (through ?? -1) + 1)
        func cell(_ frame: Int) -> String {
            let here = events.filter { $0.0 == frame }
            return here.isEmpty ? "-" : MarblePrinter.cells(here.map { (frame: $0.0, event: $0.1) }, frames: frame..<(frame + 1)).first ?? "-"
        }
        var tokens: [MarbleToken] = []
        var cursor = first.frame
        for token in original where token.frame < end {
            if token.isProgression {
                let span = token.frame..<(token.frame + token.frames)
                guard span.upperBound <= end, !frames.contains(where: span.contains) else { return nil }
                tokens.append(token)
            } else {
                var replaced = token
                replaced.text = cell(token.frame)
                tokens.append(replaced)
            }
            cursor = token.frame + token.frames
        }
        while cursor < end {
            tokens.append(MarbleToken(text: cell(cursor), frame: cursor, frames: 1, isProgression: false, offset: 0))
            cursor += 1
        }
        return tokens
    }

    /// Tokens from column `start`, each frame moved right to where `targets` puts it when that is
    /// further right; a space wherever two tokens must stand apart.
    private func layout(_ tokens: [MarbleToken], start: Int, targets: [Int: Int]) -> String {
        var columns: [Int] = []
        var cursor = start
        for (index, token) in tokens.enumerated() {
            var column = cursor + (index > 0 && MarbleColumns.needsSpace(tokens[index - 1], token) ? 1 : 0)
            if index > 0, let target = targets[token.frame], target > column { column = target }
            columns.append(column)
            cursor = column + token.width
        }
        return MarbleColumns.render(tokens, columns: columns, start: start)
    }

    private func lineKind(of text: MarbleText) -> MarbleLineKind {
        marbleLines.first { $0.marbles == text }?.kind ?? .expect
    }
}

extension PrintableEvent {
    /// `|` or `#`: an event that ends a stream.
    public var isTerminal: Bool {
        switch self {
        case .finished, .failure: return true
        default: return false
        }
    }
}
