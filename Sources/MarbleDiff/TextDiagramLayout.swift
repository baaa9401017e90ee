import MarbleNotation
import MarbleReport

/// One line of a failure diagram.
public enum DiagramRow: Sendable, Hashable {
    /// A timeline on the test's shared axis, drawn frame by frame in the common columns.
    case aligned(label: String, events: [RenderedEvent])
    /// A timeline with its own axis (a cold source), drawn from the timeline column, followed by a note.
    case unaligned(label: String, events: [RenderedEvent], frameNanoseconds: Int64, note: String)

    public var label: String {
        switch self {
        case .aligned(let label, _), .unaligned(let label, _, _, _): return label
        }
    }
}

/// Lays out timelines one above the other so that each frame is one column, as wide as the
/// widest cell any row has at that frame, and puts a caret under each differing frame.
///
/// Cells narrower than their column are padded with spaces (whitespace means nothing in
/// marbles, so every aligned row still reads as the timeline it shows). When the rows would
/// be wider than `maximumWidth` columns, the longest stretches of frames that are empty in
/// every row are drawn as ` …N… ` (N empty frames), longest first, until the diagram fits or
/// no stretch is longer than its marker. Nothing is ever expanded frame by frame before it is
/// known to fit, so an idle stretch of a million frames costs nothing.
public struct TextDiagramLayout: Sendable, Hashable {
    public static let maximumWidth = 120
    /// Differences given a caret line each; the rest are counted. Each caret line is as wide as
    /// its frame's column, so one per difference of a long line would be quadratic output.
    static let maximumDifferencesShown = 10
    /// Spaces between the label column and the timelines.
    static let labelGap = 3

    public var rows: [DiagramRow]
    public var differences: [Difference]
    public var notes: [String]
    public var indent: Int
    /// The word before each difference's position: `frame 16: …`, or `event 3: …` for an
    /// expectation that ignores timing (its rows are laid out one event per column).
    public var position: String

    public init(rows: [DiagramRow], differences: [Difference], notes: [String], indent: Int, position: String = "frame") {
        self.rows = rows
        self.differences = differences
        self.notes = notes
        self.indent = indent
        self.position = position
    }

    private enum Column {
        case frame(Int, width: Int)
        case gap(start: Int, count: Int, compressed: Bool)

        var width: Int {
            switch self {
            case .frame(_, let width): return width
            case .gap(_, let count, let compressed): return compressed ? TextDiagramLayout.marker(count).count : count
            }
        }
    }

    static func marker(_ count: Int) -> String { " …\(count)… " }

    public func lines(style: some DiagramStyle = PlainStyle()) -> [String] {
        let labelWidth = (rows.map(\.label.count).max() ?? 0) + Self.labelGap
        let lead = String(repeating: " ", count: indent)
        let cellsByRow = rows.map(cellsByFrame)
        let columns = layout(cellsByRow: cellsByRow, budget: Self.maximumWidth - indent - labelWidth)

        var output: [String] = []
        for (row, cells) in zip(rows, cellsByRow) {
            let label = lead + row.label + String(repeating: " ", count: labelWidth - row.label.count)
            switch row {
            case .aligned(_, let events):
                output.append(trimmingTrailingSpaces(label + render(columns, cells, through: terminalFrame(events))))
            case .unaligned(_, let events, let frameNanoseconds, let note):
                let text = MarblePrinter.render(events.map { ($0.frame, $0.event) }, frameNanoseconds: frameNanoseconds,
                                                compressingGapsLongerThan: 40)
                output.append(label + text + "  " + style.dim(note))
            }
        }

        let offsets = frameOffsets(columns)
        let caretLead = lead + String(repeating: " ", count: labelWidth)
        for difference in differences.prefix(Self.maximumDifferencesShown) {
            let offset = offsets[difference.frame] ?? 0
            output.append(caretLead + String(repeating: " ", count: offset) + style.red("^") + " \(position) \(difference.frame): \(difference.sentence)")
        }
        if differences.count > Self.maximumDifferencesShown {
            let more = differences.count - Self.maximumDifferencesShown
            output.append(caretLead + "… and \(more) more difference\(more == 1 ? "" : "s"), up to frame \(differences[differences.count - 1].frame) (--reporter json lists them all)")
        }
        for note in notes {
            output.append(caretLead + style.dim("(\(note))"))
        }
        return output
    }

    /// The cell text of every frame at which an aligned row has events (empty for unaligned rows).
    private func cellsByFrame(_ row: DiagramRow) -> [Int: String] {
        guard case .aligned(_, let events) = row else { return [:] }
        let grouped = Dictionary(grouping: events, by: \.frame)
        var cells: [Int: String] = [:]
        for (frame, items) in grouped {
            cells[frame] = MarblePrinter.cells(items.map { ($0.frame, $0.event) }, frames: frame..<frame.addingClamped(1)).first ?? "-"
        }
        return cells
    }

    /// The columns from frame min(0, first event) to the last event or difference, with the
    /// longest empty stretches compressed when the whole would not fit in `budget` columns.
    private func layout(cellsByRow: [[Int: String]], budget: Int) -> [Column] {
        var occupied = Set(differences.map(\.frame))
        for cells in cellsByRow { occupied.formUnion(cells.keys) }
        let frames = occupied.sorted()
        guard let first = frames.first else { return [] }

        var columns: [Column] = []
        var cursor = Swift.min(0, first)
        for frame in frames {
            if frame > cursor { columns.append(.gap(start: cursor, count: frame.subtractingClamped(cursor), compressed: false)) }
            let width = cellsByRow.compactMap { $0[frame]?.count }.max() ?? 1
            columns.append(.frame(frame, width: width))
            cursor = frame.addingClamped(1)
        }
        var width = columns.reduce(0) { $0.addingClamped($1.width) }
        guard width > budget else { return columns }
        let gaps = columns.indices.filter { if case .gap = columns[$0] { return true } else { return false } }
        let longestFirst = gaps.sorted { lhs, rhs in
            let (a, b) = (columns[lhs].width, columns[rhs].width)
            return a != b ? a > b : lhs < rhs
        }
        for index in longestFirst where width > budget {
            guard case .gap(let start, let count, _) = columns[index], Self.marker(count).count < count else { continue }
            width = width.subtractingClamped(count - Self.marker(count).count)
            columns[index] = .gap(start: start, count: count, compressed: true)
        }
        return columns
    }

    /// The frame of a row's last event when that event ends the row (`|`, `#`, `!`): nothing
    /// can follow it, so the row is not drawn past it.
    private func terminalFrame(_ events: [RenderedEvent]) -> Int? {
        guard let last = events.map(\.frame).max() else { return nil }
        let ends = events.contains { event in
            guard event.frame == last else { return false }
            switch event.event {
            case .finished, .failure, .cancel: return true
            default: return false
            }
        }
        return ends ? last : nil
    }

    private func render(_ columns: [Column], _ cells: [Int: String], through end: Int? = nil) -> String {
        var text = ""
        for column in columns {
            switch column {
            case .frame(let frame, let width):
                let cell = cells[frame] ?? "-"
                text += cell + String(repeating: " ", count: width - cell.count)
                if frame == end { return text }
            case .gap(_, let count, let compressed):
                text += compressed ? Self.marker(count) : String(repeating: "-", count: count)
            }
        }
        return text
    }

    private func trimmingTrailingSpaces(_ text: String) -> String {
        var text = Substring(text)
        while text.last == " " { text.removeLast() }
        return String(text)
    }

    /// The column offset (from the start of the timelines) of every frame that has a column.
    private func frameOffsets(_ columns: [Column]) -> [Int: Int] {
        var offsets: [Int: Int] = [:]
        var offset = 0
        for column in columns {
            if case .frame(let frame, _) = column { offsets[frame] = offset }
            offset += column.width
        }
        return offsets
    }
}

/// Frames in a report lie within virtual time (`VirtualTimeEnd`), where sums cannot overflow;
/// the layout saturates anyway, so that a report built otherwise is drawn, not trapped on.
private extension Int {
    func addingClamped(_ other: Int) -> Int {
        let (sum, overflow) = addingReportingOverflow(other)
        return overflow ? (other < 0 ? .min : .max) : sum
    }

    func subtractingClamped(_ other: Int) -> Int {
        let (difference, overflow) = subtractingReportingOverflow(other)
        return overflow ? (other < 0 ? .max : .min) : difference
    }
}
