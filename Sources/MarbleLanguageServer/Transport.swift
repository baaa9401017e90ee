#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What the reader found next on its input.
public enum IncomingFrame: Equatable, Sendable {
    /// The body of one message (its `Content-Length` bytes).
    case message([UInt8])
    /// A header block that does not frame a message (no or a bad `Content-Length`, a line that
    /// is no header), or a body cut off by the end of input: answered with a JSON-RPC error;
    /// reading goes on at the next header.
    case malformed(String)
    /// The input ended.
    case end
}

/// Reads LSP's base protocol from a file descriptor: header lines (`Name: value`, each ended by
/// `\r\n`; a bare `\n` is accepted), an empty line, then `Content-Length` bytes of body.
///
/// After a malformed header block the reader looks for the next `Content-Length:` header, even
/// when it follows the unframed body on the same line, so that one bad message costs only itself.
public final class MessageReader {
    /// A header line longer than this is malformed (and skipped up to its end).
    public static let maximumHeaderLine = 8 * 1024
    /// A body longer than this is refused (and its bytes skipped).
    public static let maximumBody = 64 << 20

    private let descriptor: Int32
    private var buffer: [UInt8] = []
    private var position = 0
    private var ended = false
    /// Where in `buffer` the line `line()` read last starts.
    private var lineStart = 0

    public init(descriptor: Int32) {
        self.descriptor = descriptor
    }

    /// Reads more input into the buffer; false at the end of input (or a read error).
    private func fill() -> Bool {
        guard !ended else { return false }
        // Bytes before `position` are read: dropped now and then (`lineStart` moves with them).
        if position > 0, position == buffer.count {
            buffer.removeAll(keepingCapacity: true)
            lineStart = max(0, lineStart - position)
            position = 0
        } else if position > 1 << 16 {
            buffer.removeFirst(position)
            lineStart = max(0, lineStart - position)
            position = 0
        }
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count > 0 {
                buffer.append(contentsOf: chunk[0..<count])
                return true
            }
            if count < 0 && errno == EINTR { continue }
            ended = true
            return false
        }
    }

    /// One line without its terminator, or nil at the end of input. `tooLong` says whether it
    /// was cut at `maximumHeaderLine` (the rest of it is skipped).
    private func line() -> (bytes: [UInt8], tooLong: Bool)? {
        lineStart = position
        var searched = position
        while true {
            if let newline = buffer[searched...].firstIndex(of: 0x0A) {
                var end = newline
                if end > position, buffer[end - 1] == 0x0D { end -= 1 }
                let bytes = Array(buffer[position..<end])
                position = newline + 1
                return (bytes, bytes.count > Self.maximumHeaderLine)
            }
            searched = buffer.count
            if buffer.count - position > Self.maximumHeaderLine {
                // Skip to the end of this line without holding it.
                position = buffer.count
                while true {
                    guard fill() else { return ([], true) }
                    if let newline = buffer[position...].firstIndex(of: 0x0A) {
                        position = newline + 1
                        return ([], true)
                    }
                    position = buffer.count
                }
            }
            let before = buffer.count - position
            guard fill() else {
                guard before > 0 else { return nil }
                let bytes = Array(buffer[position...])
                position = buffer.count
                return (bytes, false)
            }
            searched = position + before
        }
    }

    /// Whether more input is already there: bytes read and not yet taken, or bytes waiting on
    /// the descriptor (asked without waiting).
    public var hasPendingInput: Bool {
        if position < buffer.count { return true }
        guard !ended else { return false }
        var descriptor = pollfd(fd: self.descriptor, events: Int16(POLLIN), revents: 0)
        return poll(&descriptor, 1, 0) > 0
    }

    /// The next frame.
    public func next() -> IncomingFrame {
        var contentLength: Int?
        var problems: [String] = []
        var sawHeader = false
        while true {
            guard let (bytes, tooLong) = line() else {
                return sawHeader ? .malformed("the input ends inside a header") : .end
            }
            if tooLong {
                sawHeader = true
                problems.append("a header line longer than \(Self.maximumHeaderLine) bytes")
                continue
            }
            if bytes.isEmpty {
                // Blank lines between messages are tolerated.
                if !sawHeader { continue }
                break
            }
            sawHeader = true
            // A message without framing runs into the next header on the same line: what is
            // before the header is reported, and reading resumes at the header.
            if let resync = Self.firstIndex(of: Self.contentLengthHeader, in: bytes), resync > 0 {
                problems.append("text that is not a header: '\(Self.excerpt(String(decoding: bytes[..<resync], as: UTF8.self)))'")
                position = lineStart + resync
                return .malformed(problems.joined(separator: "; "))
            }
            let text = String(decoding: bytes, as: UTF8.self)
            guard let colon = text.firstIndex(of: ":") else {
                problems.append("a line that is not a header: '\(Self.excerpt(text))'")
                continue
            }
            let name = text[..<colon].trimmingSpaces.lowercased()
            let value = text[text.index(after: colon)...].trimmingSpaces
            switch name {
            case "content-length":
                guard let length = Int(value), length >= 0 else {
                    problems.append("Content-Length is not a number of bytes: '\(Self.excerpt(value))'")
                    continue
                }
                contentLength = length
            case "content-type":
                // LSP's only encoding is UTF-8 ("utf8" is accepted for older clients).
                if let charset = value.lowercased().firstRange(of: "charset=") {
                    let encoding = value.lowercased()[charset.upperBound...].trimmingSpaces
                    if encoding != "utf-8" && encoding != "utf8" { problems.append("the charset '\(encoding)' (LSP messages are UTF-8)") }
                }
            default:
                break
            }
        }
        guard let length = contentLength else {
            return .malformed((["a message without a Content-Length header"] + problems).joined(separator: "; "))
        }
        if length > Self.maximumBody {
            skip(length)
            return .malformed("a message of \(length) bytes, more than the \(Self.maximumBody) this server reads")
        }
        guard let body = body(length) else {
            return .malformed("the input ends inside a message of \(length) bytes")
        }
        guard problems.isEmpty else { return .malformed(problems.joined(separator: "; ")) }
        return .message(body)
    }

    private func body(_ length: Int) -> [UInt8]? {
        while buffer.count - position < length {
            guard fill() else {
                position = buffer.count
                return nil
            }
        }
        let body = Array(buffer[position..<position + length])
        position += length
        return body
    }

    private func skip(_ length: Int) {
        var left = length
        while left > 0 {
            if position == buffer.count, !fill() { return }
            let taken = min(left, buffer.count - position)
            position += taken
            left -= taken
        }
    }

    private static let contentLengthHeader = Array("Content-Length:".utf8)

    static func firstIndex(of needle: [UInt8], in bytes: [UInt8]) -> Int? {
        guard bytes.count >= needle.count else { return nil }
        return (0...(bytes.count - needle.count)).first { start in bytes[start..<start + needle.count].elementsEqual(needle) }
    }

    static func excerpt(_ text: String) -> String {
        text.count > 40 ? String(text.prefix(40)) + "…" : text
    }
}

extension StringProtocol {
    var trimmingSpaces: String {
        String(drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
    }
}

/// Writes LSP messages to a file descriptor: `Content-Length: N\r\n\r\n` and the body.
public final class MessageWriter {
    private let descriptor: Int32
    /// False once a write failed (the client went away): later messages are dropped.
    public private(set) var isOpen = true

    public init(descriptor: Int32) {
        self.descriptor = descriptor
    }

    public func send(_ message: JSON) {
        let body = Array(message.text.utf8)
        write(Array("Content-Length: \(body.count)\r\n\r\n".utf8) + body)
    }

    private func write(_ bytes: [UInt8]) {
        guard isOpen else { return }
        var sent = 0
        while sent < bytes.count {
            let count = bytes.withUnsafeBytes { systemWrite(descriptor, $0.baseAddress.map { $0 + sent }, bytes.count - sent) }
            if count > 0 {
                sent += count
            } else if count < 0 && errno == EINTR {
                continue
            } else {
                isOpen = false
                return
            }
        }
    }
}

private func systemWrite(_ descriptor: Int32, _ bytes: UnsafeRawPointer?, _ count: Int) -> Int {
    write(descriptor, bytes, count)
}
