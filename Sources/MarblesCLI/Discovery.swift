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
            let walk = walk(path, withExtension: fileExtension)
            if let refusal = walk.problem {
                result.append(.problem(path: path, message: refusal))
            } else if walk.files.isEmpty {
                result.append(.problem(path: path, message: "no .\(fileExtension) files in this folder"))
            }
            for file in walk.files where seen.insert(normalized(file)).inserted {
                result.append(.file(file))
            }
        }
        return result
    }

    /// Every `*.marble` regular file below `folder`, as `folder/relative/path`, sorted.
    static func marbleFiles(in folder: String) -> [String] {
        walk(folder, withExtension: fileExtension).files
    }

    /// What a search of a folder found: its files, and why it was refused or cut short.
    struct Walk: Equatable {
        var files: [String]
        var problem: String?
    }

    /// Directory entries a search looks at before it stops: a search runs before any test, and
    /// a folder that holds a whole disk (or a `node_modules`) should not keep it for minutes.
    static let maximumEntries = 1_000_000

    /// Every regular file named `*.EXTENSION` below `folder`, as `folder/relative/path`, sorted.
    /// Hidden files and folders are skipped, and so are symbolic links (a path given on the
    /// command line is followed, a link met inside a folder is not), folders on another file
    /// system than `folder` (a mount point: `/proc`, `/sys`, a network share), and everything
    /// past `limit` entries. `/` itself, and a folder on a file system the kernel makes up (proc,
    /// sysfs, …), are refused: neither holds tests, and a search of either is no use to anyone.
    static func walk(_ folder: String, withExtension fileExtension: String, limit: Int = maximumEntries) -> Walk {
        if URL(fileURLWithPath: folder).resolvingSymlinksInPath().standardizedFileURL.path == "/" {
            return Walk(files: [], problem: "refusing to search '/', the whole file system: name the folder that holds the tests")
        }
        if let kind = PseudoFileSystem.kind(of: folder) {
            return Walk(files: [], problem: "refusing to search a \(kind) file system (it shows the kernel's state, not files): name the folder that holds the tests")
        }
        var root = stat()
        guard stat(folder, &root) == 0 else { return Walk(files: [], problem: nil) }
        let prefix = folder.hasSuffix("/") ? folder : folder + "/"
        var files: [String] = []
        var visited = 0
        // Relative paths ("" for the folder itself), depth first; iterative, so no depth of
        // nesting deepens the stack.
        var pending = [""]
        while let relative = pending.popLast() {
            let directory = prefix + relative
            guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory) else { continue }
            for name in names where !name.hasPrefix(".") {
                visited += 1
                if visited > limit {
                    return Walk(files: sorted(files), problem: "stopped searching after \(limit) entries (the limit of a search): name a smaller folder")
                }
                let path = relative.isEmpty ? name : relative + "/" + name
                var status = stat()
                guard lstat(prefix + path, &status) == 0 else { continue }
                switch status.st_mode & S_IFMT {
                case S_IFDIR where status.st_dev == root.st_dev: pending.append(path)
                case S_IFREG where (name as NSString).pathExtension == fileExtension: files.append(prefix + path)
                default: continue
                }
            }
        }
        return Walk(files: sorted(files), problem: nil)
    }

    /// By path components, so that `a/z.marble` sorts before `a-b/a.marble` the way a tree
    /// listing shows them.
    private static func sorted(_ files: [String]) -> [String] {
        files.sorted { $0.split(separator: "/").lexicographicallyPrecedes($1.split(separator: "/")) }
    }

    private static func normalized(_ path: String) -> String {
        URL(fileURLWithPath: path).standardizedFileURL.path
    }
}

/// The file systems Linux makes up from the kernel's state: a search of one finds no tests,
/// and some of them never end (`/proc`). A path's file system is read from
/// `/proc/self/mountinfo`: the mount whose device (`major:minor`) is the path's.
enum PseudoFileSystem {
    static let names: Set<String> = [
        "proc", "sysfs", "devpts", "cgroup", "cgroup2", "debugfs", "tracefs", "securityfs", "bpf", "pstore",
        "configfs", "efivarfs", "selinuxfs", "fusectl", "mqueue", "binfmt_misc", "hugetlbfs", "autofs", "rpc_pipefs", "nsfs",
    ]

    /// The type of the made-up file system `path` is on (`proc`); nil for a real one, or
    /// where there is no mount table to read.
    static func kind(of path: String) -> String? {
        var status = stat()
        guard stat(path, &status) == 0,
              let table = try? String(contentsOfFile: "/proc/self/mountinfo", encoding: .utf8) else { return nil }
        let device = UInt64(status.st_dev)
        // glibc's major() and minor() of a dev_t.
        let major = ((device >> 8) & 0xfff) | ((device >> 32) & ~0xfff)
        let minor = (device & 0xff) | ((device >> 12) & ~0xff)
        for line in table.split(separator: "\n") {
            // `36 35 98:0 /mnt1 /mnt/parent rw,noatime master:1 - ext3 /dev/root rw`: the device
            // is the third field, the type the first after `-`.
            let fields = line.split(separator: " ")
            guard fields.count > 2, fields[2] == "\(major):\(minor)",
                  let dash = fields.firstIndex(of: "-"), dash + 1 < fields.count else { continue }
            let type = String(fields[dash + 1])
            return names.contains(type) ? type : nil
        }
        return nil
    }
}
