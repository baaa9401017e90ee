import Foundation

/// What a path given on the command line stands for.
enum DiscoveredPath: Equatable {
    /// A `.marble` file to run (a file named explicitly runs whatever its extension).
    case file(String)
    /// A path that cannot be run, and why: `missing.marble: error: no such file or directory`.
    case problem(path: String, message: String)
}

/// Turns the paths of `marbles run` into the files to run, in order.
enum Discovery {
    static let fileExtension = "marble"

    /// Files in argument order; inside a folder, every `*.marble` file below it (hidden files and
    /// folders skipped) sorted by path. A file reached twice runs once.
    /// Why a path that does not resolve cannot be read: a symbolic link can point nowhere or
    /// round in a loop, which `fileExists` reports as missing alike.
    static func missingReason(_ path: String) -> String {
        var status = stat()
        guard lstat(path, &status) == 0 else { return "no such file or directory" }
        if stat(path, &status) != 0, errno == ELOOP { return "too many levels of symbolic links (a symbolic link loop)" }
        return "a symbolic link to a missing file"
    }

    static func discover(_ paths: [String], fileManager: FileManager = .default) -> [DiscoveredPath] {
        var result: [DiscoveredPath] = []
        var seen: Set<String> = []
        for path in paths {
            var isDirectory: ObjCBool = false
            guard fileManager.fileExists(atPath: path, isDirectory: &isDirectory) else {
                result.append(.problem(path: path, message: missingReason(path)))
                continue
            }
            guard isDirectory.boolValue else {
                if seen.insert(normalized(path)).inserted { result.append(.file(path)) }
                continue
            }
            let files = marbleFiles(in: path, fileManager: fileManager)
            if files.isEmpty {
                result.append(.problem(path: path, message: "no .\(fileExtension) files in this folder"))
            }
            for file in files where seen.insert(normalized(file)).inserted {
                result.append(.file(file))
            }
        }
        return result
    }

    /// Every `*.marble` regular file below `folder`, as `folder/relative/path`, sorted.
    static func marbleFiles(in folder: String, fileManager: FileManager = .default) -> [String] {
        files(in: folder, withExtension: fileExtension, fileManager: fileManager)
    }

    /// Every regular file named `*.EXTENSION` below `folder`, as `folder/relative/path`, sorted.
    static func files(in folder: String, withExtension fileExtension: String, fileManager: FileManager = .default) -> [String] {
        let root = URL(fileURLWithPath: folder, isDirectory: true)
        guard let enumerator = fileManager.enumerator(at: root, includingPropertiesForKeys: [.isRegularFileKey],
                                                      options: [.skipsHiddenFiles]) else { return [] }
        let prefix = folder.hasSuffix("/") ? folder : folder + "/"
        let rootPath = root.standardizedFileURL.path
        var files: [String] = []
        for case let url as URL in enumerator where url.pathExtension == fileExtension {
            guard (try? url.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true else { continue }
            let full = url.standardizedFileURL.path
            guard full.hasPrefix(rootPath) else { continue }
            let relative = full.dropFirst(rootPath.count).drop { $0 == "/" }
            files.append(prefix + relative)
        }
        // Compare by path components so that `a/z.marble` sorts before `a-b/a.marble`
        // the way a tree listing shows them.
        return files.sorted { $0.split(separator: "/").lexicographicallyPrecedes($1.split(separator: "/")) }
    }

    private static func normalized(_ path: String) -> String {
        URL(fileURLWithPath: path).standardizedFileURL.path
    }
}
