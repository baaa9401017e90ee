import Foundation

/// A Swift source file's bytes, addressed as the compiler addresses them in `#line` and
/// `#column`: lines end at `\n` (so `\r\n` ends a line too), columns count UTF-8 bytes from 1.
public final class SwiftSourceFile: Sendable {
    public let bytes: [UInt8]
    /// The byte offset at which each line starts.
    private let lineStarts: [Int]

    public init(bytes: [UInt8]) {
        self.bytes = bytes
        var starts = [0]
        for (offset, byte) in bytes.enumerated() where byte == UInt8(ascii: "\n") { starts.append(offset + 1) }
        lineStarts = starts
    }

    public convenience init(_ text: String) { self.init(bytes: Array(text.utf8)) }

    /// The file at `path`, or nil when it cannot be read.
    public convenience init?(path: String) {
        guard let data = FileManager.default.contents(atPath: path) else { return nil }
        self.init(bytes: Array(data))
    }

    /// The byte offset of `line`:`column` (both from 1), or nil when there is no such place.
    /// A line holding a lone `\r` is refused: the compiler starts counting columns again after
    /// it, and the line number does not say which part is meant.
    public func offset(line: Int, column: Int) -> Int? {
        guard line >= 1, line <= lineStarts.count, column >= 1 else { return nil }
        let start = lineStarts[line - 1]
        var end = line < lineStarts.count ? lineStarts[line] - 1 : bytes.count
        if end > start, line < lineStarts.count, bytes[end - 1] == UInt8(ascii: "\r") { end -= 1 }  // `\r\n`
        let offset = start + column - 1
        guard offset < end, !bytes[start..<end].contains(UInt8(ascii: "\r")) else { return nil }
        return offset
    }

    /// The line (from 1) that holds byte `offset`.
    public func line(of offset: Int) -> Int {
        var low = 0
        var high = lineStarts.count
        while low < high {
            let middle = (low + high) / 2
            if lineStarts[middle] <= offset { low = middle + 1 } else { high = middle }
        }
        return low
    }

    /// The column (from 1, in bytes) of byte `offset` in its line.
    public func column(of offset: Int) -> Int { offset - lineStarts[line(of: offset) - 1] + 1 }

    /// The byte offset at which the line holding `offset` starts.
    func lineStart(of offset: Int) -> Int { lineStarts[line(of: offset) - 1] }

    /// The text of bytes `range`.
    public func text(_ range: Range<Int>) -> String { String(decoding: bytes[range], as: UTF8.self) }

    // MARK: One read per file and process

    private static let cache = FileCache()

    /// The file at `path` as it was when this process first asked for it (nil if it could not
    /// be read then): the names of a test's calls are read from the source it was compiled from,
    /// even while `MARBLES_UPDATE` rewrites that source.
    public static func cached(path: String) -> SwiftSourceFile? { cache.file(at: path) }

    /// Reads `path` into the cache unless it is there already (an update reads it before its
    /// first write, so that later names still come from the compiled text).
    static func remember(path: String) { _ = cache.file(at: path) }
}

/// Files read so far, by path; a file that could not be read is remembered as such.
private final class FileCache: @unchecked Sendable {
    private let lock = NSLock()
    private var files: [String: SwiftSourceFile?] = [:]

    func file(at path: String) -> SwiftSourceFile? {
        lock.lock()
        defer { lock.unlock() }
        if let known = files[path] { return known }
        let file = SwiftSourceFile(path: path)
        files[path] = file
        return file
    }
}
