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
public enum AtomicFile {
    /// Why the file could not be written, as a sentence naming it.
    public struct Failure: Error, CustomStringConvertible {
        public var description: String
        public init(description: String) { self.description = description }
    }

    /// Writes `data` to `path` (see the type's comment); throws a `Failure` when it cannot.
    public static func write(_ data: Data, to path: String) throws {
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
}
