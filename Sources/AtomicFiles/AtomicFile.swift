import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes a file so that it is never seen half-written: the bytes go to a temporary file next to
/// it, are flushed to disk, and the temporary file is renamed over the target in one step. If
/// the process dies before the rename, the target is untouched (a stray `.NAME.*.tmp` may stay).
/// An existing file keeps its permissions; a symbolic link keeps pointing at the file it names.
///
/// Renaming replaces whatever the path names, so that is done only for a regular file (or a
/// path that names nothing yet). Anything else is never replaced: a stream — a FIFO or a
/// character device such as `/dev/null`, `/dev/stdout` or a terminal — is written into in place
/// when the writer allows it (`NonRegular.writeInPlace`: a report, a diagram), and every other
/// kind (a folder, a block device, a socket), or any non-regular file for a writer that rewrites
/// a file it read (`fmt`, `--update`, `doc`), is refused. As root, `--output /dev/null` once
/// replaced `/dev/null` with a regular file.
public enum AtomicFile {
    /// Why the file could not be written, as a sentence naming it.
    public struct Failure: Error, CustomStringConvertible {
        public var description: String
        public init(description: String) { self.description = description }
    }

    /// What a writer does with a path that names something other than a regular file.
    public enum NonRegular: Sendable {
        /// Writes into a FIFO or a character device in place (what is written is output to be
        /// read, not a file to keep); refuses every other kind.
        case writeInPlace
        /// Refuses: the writer rewrites a file it read, which only a regular file holds.
        case refuse
    }

    /// Writes `data` to `path` (see the type's comment); throws a `Failure` when it cannot.
    public static func write(_ data: Data, to path: String, nonRegular: NonRegular) throws {
        if let kind = Kind(path: path), kind != .regular {
            guard nonRegular == .writeInPlace, kind == .fifo || kind == .characterDevice else {
                throw Failure(description: "cannot write '\(path)': it is \(kind.description), not a regular file")
            }
            try writeInPlace(data, to: path)
            return
        }
        let target = URL(fileURLWithPath: path).resolvingSymlinksInPath()
        let folder = target.deletingLastPathComponent()
        let temporary = folder.appendingPathComponent(".\(target.lastPathComponent).\(UUID().uuidString).tmp")
        let manager = FileManager.default
        var attributes: [FileAttributeKey: Any] = [:]
        if let permissions = try? manager.attributesOfItem(atPath: target.path)[.posixPermissions] {
            attributes[.posixPermissions] = permissions
        }
        guard manager.createFile(atPath: temporary.path, contents: data, attributes: attributes) else {
            throw Failure(description: "cannot write '\(path)': cannot create a file in '\(folder.path)'")
        }
        do {
            let handle = try FileHandle(forWritingTo: temporary)
            try handle.synchronize()
            try handle.close()
        } catch {
            try? manager.removeItem(at: temporary)
            throw Failure(description: "cannot write '\(path)': \(error.localizedDescription)")
        }
        guard rename(temporary.path, target.path) == 0 else {
            let reason = String(cString: strerror(errno))
            try? manager.removeItem(at: temporary)
            throw Failure(description: "cannot write '\(path)': \(reason)")
        }
    }

    /// Why `path` cannot be rewritten in place of the file a writer read (nil for a regular
    /// file, or for nothing there): asked before the bytes are read again, since reading a FIFO
    /// a second time waits for another writer.
    public static func rewriteRefusal(_ path: String) -> Failure? {
        guard let kind = Kind(path: path), kind != .regular else { return nil }
        return Failure(description: "cannot write '\(path)': it is \(kind.description), not a regular file")
    }

    /// What a path names, following symbolic links (`/dev/stdout` → the pipe or terminal).
    enum Kind: Equatable {
        case regular, folder, fifo, characterDevice, blockDevice, socket, other

        /// Nil when the path names nothing (or cannot be examined: the write then says why).
        init?(path: String) {
            var status = stat()
            guard stat(path, &status) == 0 else { return nil }
            switch status.st_mode & S_IFMT {
            case S_IFREG: self = .regular
            case S_IFDIR: self = .folder
            case S_IFIFO: self = .fifo
            case S_IFCHR: self = .characterDevice
            case S_IFBLK: self = .blockDevice
            case S_IFSOCK: self = .socket
            default: self = .other
            }
        }

        var description: String {
            switch self {
            case .regular: return "a regular file"
            case .folder: return "a folder"
            case .fifo: return "a FIFO (named pipe)"
            case .characterDevice: return "a character device"
            case .blockDevice: return "a block device"
            case .socket: return "a socket"
            case .other: return "a special file"
            }
        }
    }

    /// Opens the FIFO or device at `path` for writing (no creation, no truncation: neither
    /// applies to a stream) and writes all of `data`.
    private static func writeInPlace(_ data: Data, to path: String) throws {
        let descriptor = open(path, O_WRONLY | O_NOCTTY | O_CLOEXEC)
        guard descriptor >= 0 else { throw Failure(description: "cannot write '\(path)': \(String(cString: strerror(errno)))") }
        defer { close(descriptor) }
        try data.withUnsafeBytes { (buffer: UnsafeRawBufferPointer) in
            var offset = 0
            while offset < buffer.count, let base = buffer.baseAddress {
                let written = writeBytes(descriptor, base + offset, buffer.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    throw Failure(description: "cannot write '\(path)': \(String(cString: strerror(errno)))")
                }
                offset += written
            }
        }
    }
}

/// The system's `write(2)` (inside `AtomicFile`, `write` names its own method).
private func writeBytes(_ descriptor: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int {
    write(descriptor, bytes, count)
}
