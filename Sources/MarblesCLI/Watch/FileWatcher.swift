import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// `--watch`: the files a run read, watched for saves. On Linux through inotify (a watch per
// folder, so that a file an editor saves by renaming a new one over it is seen too); elsewhere
// by comparing each file's size and modification time twice a second. Either way the loop
// sleeps in poll(2) until something happens: no busy loop.

/// What woke the watch loop.
enum WatchWake: Equatable {
    /// Files under the watched paths that may have changed (created, written, moved, removed).
    case changed(Set<String>)
    /// A key (or, when standard input is not a terminal, a line) typed by the user.
    case input(String)
    /// Standard input ended.
    case inputClosed
    /// SIGINT or SIGTERM.
    case interrupted
}

/// Watches folders and files for changes to the files with one of `extensions` below them.
final class FileWatcher {
    /// How changes are noticed.
    enum Mechanism: String, Sendable {
        case inotify, polling
        /// inotify on Linux, polling elsewhere.
        static var preferred: Mechanism {
            #if os(Linux)
            return .inotify
            #else
            return .polling
            #endif
        }
    }

    let mechanism: Mechanism
    let extensions: Set<String>
    /// The paths as given (files and folders).
    let roots: [String]
    /// How long the loop waits between two scans when polling.
    static let pollingInterval = 500
    /// How long after a change the loop waits for more before acting: an editor's save is
    /// often several writes and a rename.
    static let settleMilliseconds: Int32 = 80

    private var notifyDescriptor: Int32 = -1
    /// inotify watch descriptor → the folder it watches.
    private var folders: [Int32: String] = [:]
    private var watchedFolders: Set<String> = []
    /// Explicitly named files: the path a change in their folder names → the path as given.
    private var namedFiles: [String: String] = [:]
    /// Folders watched whole (every file with an extension below them).
    private var wholeFolders: [String] = []
    /// For polling: each file's size and modification time at the last scan.
    private var stamps: [String: FileStamp] = [:]

    /// The keyboard (standard input), or -1 for none.
    private var input: Int32
    private var inputIsTerminal = false
    /// Read end of the pipe the signal handler writes to, or -1.
    private var signalDescriptor: Int32 = -1

    struct FileStamp: Equatable {
        var size: Int64
        var modified: Int64
    }

    /// - Parameters:
    ///   - input: the descriptor keys are read from (standard input), or -1.
    ///   - signals: whether SIGINT and SIGTERM end the loop (the command line); tests leave them alone.
    init(paths: [String], extensions: Set<String>, mechanism: Mechanism = .preferred, input: Int32, signals: Bool) throws {
        self.roots = paths
        self.extensions = extensions
        self.mechanism = mechanism
        self.input = input
        #if os(Linux)
        if mechanism == .inotify {
            notifyDescriptor = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
            guard notifyDescriptor >= 0 else { throw WatchError("cannot watch files: inotify_init1 failed (\(String(cString: strerror(errno))))") }
        }
        #endif
        for path in paths { try add(path) }
        if mechanism == .polling { stamps = scan() }
        if signals { signalDescriptor = SignalPipe.install() }
    }

    deinit {
        if notifyDescriptor >= 0 { close(notifyDescriptor) }
        if signalDescriptor >= 0 { SignalPipe.uninstall() }
    }

    struct WatchError: Error, CustomStringConvertible {
        var description: String
        init(_ description: String) { self.description = description }
    }

    // MARK: What is watched

    private func add(_ path: String) throws {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue {
            let folder = Self.trimmed(path)
            wholeFolders.append(folder)
            try watchTree(folder)
        } else {
            // A file (or a path that does not exist yet): its folder is watched, for its name.
            let (folder, name) = Self.split(path)
            namedFiles[Self.join(folder, name)] = path
            try watchFolder(folder)
        }
    }

    /// The folder and the name of a file's path (`.` for a bare name).
    static func split(_ path: String) -> (folder: String, name: String) {
        let trimmedPath = trimmed(path)
        guard let slash = trimmedPath.lastIndex(of: "/") else { return (".", trimmedPath) }
        let folder = String(trimmedPath[..<slash])
        return (folder.isEmpty ? "/" : folder, String(trimmedPath[trimmedPath.index(after: slash)...]))
    }

    static func join(_ folder: String, _ name: String) -> String {
        folder == "/" ? "/" + name : folder + "/" + name
    }

    private static func trimmed(_ path: String) -> String {
        var path = path
        while path.count > 1 && path.hasSuffix("/") { path.removeLast() }
        return path
    }

    /// The folder and every folder below it (hidden ones skipped, as discovery skips them).
    private func watchTree(_ folder: String) throws {
        try watchFolder(folder)
        guard let entries = try? FileManager.default.contentsOfDirectory(atPath: folder) else { return }
        for entry in entries.sorted() where !entry.hasPrefix(".") {
            let child = Self.join(folder, entry)
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: child, isDirectory: &isDirectory), isDirectory.boolValue {
                try watchTree(child)
            }
        }
    }

    private func watchFolder(_ folder: String) throws {
        guard watchedFolders.insert(folder).inserted else { return }
        #if os(Linux)
        guard mechanism == .inotify else { return }
        let mask = UInt32(IN_CLOSE_WRITE | IN_MOVED_TO | IN_MOVED_FROM | IN_CREATE | IN_DELETE | IN_DELETE_SELF | IN_ONLYDIR)
        let descriptor = inotify_add_watch(notifyDescriptor, folder, mask)
        guard descriptor >= 0 else {
            throw WatchError("cannot watch '\(folder)': \(String(cString: strerror(errno)))")
        }
        folders[descriptor] = folder
        #endif
    }

    /// The path to run for a change to `path` (a watched folder, "/", a name), if it concerns the run.
    func runPath(for path: String) -> String? {
        if let given = namedFiles[path] { return given }
        let name = Self.split(path).name
        guard let dot = name.lastIndex(of: "."), extensions.contains(String(name[name.index(after: dot)...])), !name.hasPrefix(".") else { return nil }
        return isBelowAWholeFolder(path) ? path : nil
    }

    private func isBelowAWholeFolder(_ path: String) -> Bool {
        wholeFolders.contains { root in path.hasPrefix(root == "/" ? "/" : root + "/") }
    }

    /// Every file the watch covers now: the named ones, and those with an extension below the folders.
    func files() -> [String] {
        var result = Array(namedFiles.values)
        for root in wholeFolders {
            for fileExtension in extensions.sorted() { result += Discovery.walk(root, withExtension: fileExtension).files }
        }
        var seen: Set<String> = []
        return result.filter { seen.insert($0).inserted }.sorted()
    }

    // MARK: Waiting

    /// Sleeps until a watched file changes, a key is typed, input ends or a signal arrives.
    func wait() -> WatchWake {
        var changed: Set<String> = []
        while true {
            var descriptors: [pollfd] = []
            if notifyDescriptor >= 0 { descriptors.append(pollfd(fd: notifyDescriptor, events: Int16(POLLIN), revents: 0)) }
            if input >= 0 { descriptors.append(pollfd(fd: input, events: Int16(POLLIN), revents: 0)) }
            if signalDescriptor >= 0 { descriptors.append(pollfd(fd: signalDescriptor, events: Int16(POLLIN), revents: 0)) }
            // Once something changed, wait a moment for the rest of the save; when polling, scan
            // at the interval; otherwise sleep until woken.
            let timeout: Int32 = !changed.isEmpty ? Self.settleMilliseconds : mechanism == .polling ? Int32(Self.pollingInterval) : -1
            let ready = poll(&descriptors, nfds_t(descriptors.count), timeout)
            if ready < 0 {
                if errno == EINTR { continue }
                return .interrupted
            }
            if ready == 0 {
                if mechanism == .polling {
                    let now = scan()
                    let differing = Set(now.keys).union(stamps.keys).filter { now[$0] != stamps[$0] }
                    stamps = now
                    changed.formUnion(differing)
                    if !differing.isEmpty { continue }
                }
                if !changed.isEmpty { return .changed(changed) }
                continue
            }
            for descriptor in descriptors where descriptor.revents != 0 {
                if descriptor.fd == signalDescriptor { return .interrupted }
                if descriptor.fd == input {
                    if let wake = readInput() { return wake }
                }
                if descriptor.fd == notifyDescriptor { changed.formUnion(readNotifications()) }
            }
        }
    }

    /// Reads what was typed: a key on a terminal, a line otherwise.
    private func readInput() -> WatchWake? {
        var buffer = [UInt8](repeating: 0, count: 256)
        let count = read(input, &buffer, buffer.count)
        if count < 0 {
            return errno == EINTR || errno == EAGAIN ? nil : stopReadingInput()
        }
        if count == 0 { return stopReadingInput() }
        let text = String(decoding: buffer[0..<count], as: UTF8.self)
        return .input(text)
    }

    private func stopReadingInput() -> WatchWake {
        input = -1
        return .inputClosed
    }

    /// The watched paths named by the pending inotify events; new folders are watched too.
    private func readNotifications() -> Set<String> {
        var changed: Set<String> = []
        #if os(Linux)
        let size = 64 * 1024
        var buffer = [UInt8](repeating: 0, count: size)
        while true {
            let count = read(notifyDescriptor, &buffer, size)
            guard count > 0 else { break }
            var offset = 0
            // struct inotify_event { int wd; uint32_t mask, cookie, len; char name[len]; }
            while offset + 16 <= count {
                let (descriptor, mask, length) = buffer.withUnsafeBytes { bytes in
                    (bytes.loadUnaligned(fromByteOffset: offset, as: Int32.self),
                     bytes.loadUnaligned(fromByteOffset: offset + 4, as: UInt32.self),
                     Int(bytes.loadUnaligned(fromByteOffset: offset + 12, as: UInt32.self)))
                }
                let nameBytes = buffer[(offset + 16)..<min(count, offset + 16 + length)].prefix { $0 != 0 }
                offset += 16 + length
                guard let folder = folders[descriptor] else { continue }
                if mask & UInt32(IN_IGNORED) != 0 {
                    folders[descriptor] = nil
                    watchedFolders.remove(folder)
                    continue
                }
                guard !nameBytes.isEmpty else { continue }
                let name = String(decoding: nameBytes, as: UTF8.self)
                let path = Self.join(folder, name)
                if mask & UInt32(IN_ISDIR) != 0 {
                    // A folder made (or moved) under a watched one: its files count from now on.
                    if mask & UInt32(IN_CREATE | IN_MOVED_TO) != 0, !name.hasPrefix("."), isBelowAWholeFolder(path) {
                        try? watchTree(path)
                        for fileExtension in extensions { changed.formUnion(Discovery.walk(path, withExtension: fileExtension).files) }
                    }
                    continue
                }
                // A file just created is empty until its writer closes it: that comes next.
                if mask & UInt32(IN_CREATE) != 0 { continue }
                if let run = runPath(for: path) { changed.insert(run) }
            }
        }
        #endif
        return changed
    }

    /// Polling: the size and modification time of every watched file now.
    private func scan() -> [String: FileStamp] {
        var result: [String: FileStamp] = [:]
        for file in files() {
            var status = stat()
            guard stat(file, &status) == 0 else { continue }
            #if canImport(Darwin)
            let modified = Int64(status.st_mtimespec.tv_sec) * 1_000_000_000 + Int64(status.st_mtimespec.tv_nsec)
            #else
            let modified = Int64(status.st_mtim.tv_sec) * 1_000_000_000 + Int64(status.st_mtim.tv_nsec)
            #endif
            result[file] = FileStamp(size: Int64(status.st_size), modified: modified)
        }
        return result
    }
}

/// SIGINT and SIGTERM, turned into a byte on a pipe that the watch loop polls.
enum SignalPipe {
    /// The write end, read by the handler (which may only call async-signal-safe functions).
    nonisolated(unsafe) private static var writeEnd: Int32 = -1
    nonisolated(unsafe) private static var readEnd: Int32 = -1

    /// Installs the handlers; returns the read end.
    static func install() -> Int32 {
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { return -1 }
        (readEnd, writeEnd) = (ends[0], ends[1])
        _ = fcntl(writeEnd, F_SETFL, fcntl(writeEnd, F_GETFL) | O_NONBLOCK)
        for number in [SIGINT, SIGTERM] {
            signal(number) { _ in
                var byte: UInt8 = 1
                _ = write(SignalPipe.writeEnd, &byte, 1)
            }
        }
        return readEnd
    }

    static func uninstall() {
        signal(SIGINT, SIG_DFL)
        signal(SIGTERM, SIG_DFL)
        close(readEnd)
        close(writeEnd)
        (readEnd, writeEnd) = (-1, -1)
    }
}
