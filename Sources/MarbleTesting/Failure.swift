import Foundation
import MarbleDiagram
import MarbleDiff
import MarbleReport

/// Where an expectation was written: recorded failures point there.
public struct MarbleSourceLocation: Sendable, Hashable, CustomStringConvertible {
    public var fileID: String
    public var filePath: String
    public var line: Int
    public var column: Int
    /// XCTest wants the path as a `StaticString`.
    let staticFilePath: StaticString

    public init(fileID: String, filePath: StaticString, line: UInt, column: UInt) {
        self.fileID = fileID
        self.filePath = "\(filePath)"
        self.line = Int(line)
        self.column = Int(column)
        staticFilePath = filePath
    }

    public var description: String { "\(fileID):\(line):\(column)" }
    public static func == (lhs: Self, rhs: Self) -> Bool { (lhs.filePath, lhs.line, lhs.column) == (rhs.filePath, rhs.line, rhs.column) }
    public func hash(into hasher: inout Hasher) { hasher.combine(filePath); hasher.combine(line); hasher.combine(column) }
}

/// An expectation that failed (or a marble string with a mistake): the text recorded to the
/// test library, where it was written, and the SVG diagram of the mismatch.
public struct MarbleFailure: Sendable, CustomStringConvertible {
    /// A headline, then the CLI's diff: the sources, expected and actual aligned frame by frame,
    /// a caret under each difference with one sentence.
    public var message: String
    public var location: MarbleSourceLocation
    /// The mismatch drawn as a standalone SVG document (nil for a mistake in the marbles).
    public var svg: String?
    /// The diagram's file name, `<file>--line-<n>.svg`.
    public var diagramName: String?
    /// What `MARBLES_UPDATE` writes into the `expect` call (set only while updates are on).
    @usableFromInline var update: ExpectationUpdate?

    public init(message: String, location: MarbleSourceLocation, svg: String? = nil, diagramName: String? = nil) {
        self.message = message
        self.location = location
        self.svg = svg
        self.diagramName = diagramName
    }

    public var description: String { message }

    /// Several failures of one expectation as one (subscription lines of one call).
    init?(combining failures: [MarbleFailure]) {
        guard let first = failures.first else { return nil }
        self = first
        message = failures.map(\.message).joined(separator: "\n\n")
    }
}

extension TestScheduler {
    /// The failure of `check`: its headline and diff, and its diagram.
    @usableFromInline
    func failure(_ check: CheckReport, headline: String, labelled: Bool, position: String = "frame", at location: MarbleSourceLocation) -> MarbleFailure {
        let report = testReport(check, at: location)
        var layout = TextDiagramLayout(failing: check, of: report, labelled: labelled, indent: 2)
        layout.position = position
        let message = ([headline + ":", ""] + layout.lines()).joined(separator: "\n")
        let name = MarbleDiagram.fileName(path: location.fileID, test: "line \(location.line)")
        return MarbleFailure(message: message, location: location, svg: MarbleDiagram.svg(for: report, path: location.fileID), diagramName: name)
    }

    /// A test report with one check, as the CLI's runner would make it: every source of this
    /// scheduler, and the checked stream fed by all of them (which ones feed it is not known).
    private func testReport(_ check: CheckReport, at location: MarbleSourceLocation) -> TestReport {
        var streams = sources.map { source in
            StreamReport(name: source.name, kind: source.kind, marbles: source.marbles, lineKind: source.kind == .cold ? .cold : .hot,
                         frameNanoseconds: frameNanoseconds,
                         subscriptions: source.spans?().map { SubscriptionRecord(start: $0.start, end: $0.end) } ?? [])
        }
        if check.kind == .events {
            streams.append(StreamReport(name: check.stream, kind: .derived, expression: check.stream, inputs: sources.map(\.name),
                                        observed: check.actual))
        }
        let frames = ([check.expected, check.actual].joined().map(\.frame) + check.differences.map(\.frame))
        return TestReport(name: "\(location.fileID):\(location.line)", line: location.line, checks: [check], streams: streams,
                          endFrame: (frames.max() ?? 0) + 1, frameNanoseconds: frameNanoseconds)
    }
}

/// Writes diagrams of failures into the folder named by `MARBLES_DIAGRAMS`, when it is set.
enum DiagramFolder {
    static let variable = "MARBLES_DIAGRAMS"

    /// The path written, or nil when the variable is not set or the file could not be written.
    static func write(_ failure: MarbleFailure) -> String? {
        guard let folder = ProcessInfo.processInfo.environment[variable], !folder.isEmpty else { return nil }
        return write(failure, to: folder)
    }

    static func write(_ failure: MarbleFailure, to folder: String) -> String? {
        guard let svg = failure.svg, let name = failure.diagramName else { return nil }
        let url = URL(fileURLWithPath: folder, isDirectory: true)
        do {
            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
            let file = url.appendingPathComponent(name)
            try Data(svg.utf8).write(to: file, options: .atomic)
            return file.path
        } catch {
            return nil
        }
    }
}
