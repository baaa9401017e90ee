import AtomicFiles
import Foundation
import MarbleRewrite
import Testing
@testable import MarblesCLI
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Issue 29, item 6: the atomic write renamed a temporary file over whatever the path named, so
/// `--output /dev/null` run as root replaced `/dev/null` with a regular file. Now a report or a
/// diagram is written into a FIFO or a character device in place, a rewrite of a file that was
/// read (`fmt`, `--update`, `doc`) refuses anything but a regular file, and every other kind (a
/// folder, a block device) is refused, exit 2. Nodes are made in a sandbox (`mknod` needs root;
/// those tests are skipped otherwise), never the machine's own `/dev/null`.
@Suite("issue 29: a writer never replaces a device, a FIFO or another non-regular file")
struct NonRegularFileTests {
    static let isRoot = getuid() == 0

    /// What `path` names now: "c" a character device, "b" a block device, "p" a FIFO, "-" a
    /// regular file, "d" a folder.
    static func kind(_ path: String) -> String {
        var status = stat()
        guard lstat(path, &status) == 0 else { return "missing" }
        switch status.st_mode & S_IFMT {
        case S_IFCHR: return "c"
        case S_IFBLK: return "b"
        case S_IFIFO: return "p"
        case S_IFREG: return "-"
        case S_IFDIR: return "d"
        default: return "?"
        }
    }

    /// `makedev(3)`, a macro Swift does not import (small numbers only).
    static func device(_ major: UInt32, _ minor: UInt32) -> dev_t {
        #if os(Linux)
        return dev_t((major << 8) | minor)
        #else
        return dev_t(Int32(bitPattern: (major << 24) | minor))
        #endif
    }

    /// A character device that discards what is written to it, as `/dev/null` (1, 3) does.
    static func makeNull(_ path: String) throws {
        #expect(mknod(path, S_IFCHR | 0o666, Self.device(1, 3)) == 0, "mknod \(path): \(String(cString: strerror(errno)))")
    }

    /// Reads a FIFO to its end on another thread, started before anything writes into it.
    final class FIFOReader: @unchecked Sendable {
        private let done = DispatchSemaphore(value: 0)
        private var data = Data()
        init(_ path: String) {
            Thread { [self] in
                data = FileHandle(forReadingAtPath: path)?.readDataToEndOfFile() ?? Data()
                done.signal()
            }.start()
        }
        func text() -> String {
            done.wait()
            return String(decoding: data, as: UTF8.self)
        }
    }

    static func makeFIFO(_ sandbox: Sandbox, _ name: String) throws -> String {
        let path = sandbox.path(name)
        #expect(mkfifo(path, 0o644) == 0, "mkfifo \(path): \(String(cString: strerror(errno)))")
        return path
    }

    // MARK: Written in place

    @Test(.enabled(if: isRoot), arguments: ["human", "junit", "tap", "json", "github"])
    func aReportIsWrittenIntoACharacterDeviceInPlace(_ reporter: String) throws {
        let sandbox = try Sandbox(["fail.marble": Samples.failing])
        let null = sandbox.path("null")
        try Self.makeNull(null)
        let run = marbles("run", sandbox.path("fail.marble"), "--reporter", reporter, "--output", null)
        #expect(run.code == 1, "the test fails; the report is written: \(run.stderr)")
        #expect(run.stderr.isEmpty)
        #expect(Self.kind(null) == "c")
        #expect(try FileManager.default.contentsOfDirectory(atPath: sandbox.path()).sorted() == ["fail.marble", "null"], "no temporary file left")
    }

    @Test(arguments: ["junit", "tap"])
    func aReportIsWrittenIntoAFIFOInPlace(_ reporter: String) throws {
        let sandbox = try Sandbox(["fail.marble": Samples.failing])
        let fifo = try Self.makeFIFO(sandbox, "fifo")
        let reader = FIFOReader(fifo)
        let run = marbles("run", sandbox.path("fail.marble"), "--reporter", reporter, "--output", fifo)
        #expect(run.code == 1)
        let text = reader.text()
        #expect(text.contains(reporter == "tap" ? "not ok 1 - " : "<testsuites"), "\(text)")
        #expect(Self.kind(fifo) == "p")
    }

    @Test(.enabled(if: isRoot))
    func evalDrawsIntoACharacterDeviceInPlace() throws {
        let sandbox = try Sandbox()
        let null = sandbox.path("null")
        try Self.makeNull(null)
        let run = marbles("eval", "--hot", "x=-a-|", "--svg", null, "x.map { $0 }")
        #expect(run.code == 0, "\(run.stderr)")
        #expect(Self.kind(null) == "c")
    }

    @Test func evalDrawsIntoAFIFOInPlace() throws {
        let sandbox = try Sandbox()
        let fifo = try Self.makeFIFO(sandbox, "fifo")
        let reader = FIFOReader(fifo)
        let run = marbles("eval", "--hot", "x=-a-|", "--svg", fifo, "x.map { $0 }")
        #expect(run.code == 0)
        #expect(reader.text().hasSuffix("</svg>\n"))
        #expect(Self.kind(fifo) == "p")
    }

    @Test(.enabled(if: isRoot))
    func aDiagramIsWrittenIntoTheDeviceAtItsPath() throws {
        let sandbox = try Sandbox(["fail.marble": Samples.failing])
        try sandbox.folder("svg")
        try sandbox.folder("run")
        try Self.makeNull(sandbox.path("svg/fail--map-doubles.svg"))
        try Self.makeNull(sandbox.path("run/fail--map-doubles.svg"))
        let svg = try EndToEndTests.run([sandbox.path("fail.marble"), "-o", sandbox.path("svg"), "--index"], program: "marbles-svg")
        #expect(svg.code == 1, "\(svg.stderr)")
        #expect(Self.kind(sandbox.path("svg/fail--map-doubles.svg")) == "c")
        #expect(Self.kind(sandbox.path("svg/index.html")) == "-")
        let run = marbles("run", sandbox.path("fail.marble"), "--svg", sandbox.path("run"))
        #expect(run.code == 1)
        #expect(Self.kind(sandbox.path("run/fail--map-doubles.svg")) == "c")
    }

    // MARK: Refused

    @Test func aReportOntoAFolderIsRefused() throws {
        let sandbox = try Sandbox(["fail.marble": Samples.failing])
        try sandbox.folder("out")
        let run = marbles("run", sandbox.path("fail.marble"), "--reporter", "junit", "--output", sandbox.path("out"))
        #expect(run.code == 2)
        #expect(run.stderr == "marbles: error: cannot write '\(sandbox.path("out"))': it is a folder, not a regular file\n")
        #expect(Self.kind(sandbox.path("out")) == "d")
    }

    @Test(.enabled(if: isRoot))
    func aReportOntoABlockDeviceIsRefused() throws {
        let sandbox = try Sandbox(["fail.marble": Samples.failing])
        let block = sandbox.path("block")
        // A loop device's numbers; nothing is opened: the refusal comes first.
        #expect(mknod(block, S_IFBLK | 0o600, Self.device(7, 0)) == 0)
        let run = marbles("run", sandbox.path("fail.marble"), "--reporter", "tap", "--output", block)
        #expect(run.code == 2)
        #expect(run.stderr == "marbles: error: cannot write '\(block)': it is a block device, not a regular file\n")
        #expect(Self.kind(block) == "b")
    }

    @Test(.enabled(if: isRoot))
    func docRefusesADeviceAtADiagramsPath() throws {
        let document = "# Doc\n\n```marble\n" + Samples.passing + "```\n"
        let sandbox = try Sandbox(["doc.md": document])
        try sandbox.folder("diagrams")
        let diagram = sandbox.path("diagrams/doc--map-doubles.svg")
        try Self.makeNull(diagram)
        let check = marbles("doc", "--check", "--out", sandbox.path("diagrams"), sandbox.path("doc.md"))
        #expect(check.code == 1)
        #expect(check.stdout.contains("stale: \(diagram) (run 'marbles doc' to refresh it)\n"), "\(check.stdout)")
        let run = marbles("doc", "--out", sandbox.path("diagrams"), sandbox.path("doc.md"))
        #expect(run.code == 2)
        #expect((run.stdout + run.stderr).contains("cannot write '\(diagram)': it is a character device, not a regular file"), "\(run.stdout)\(run.stderr)")
        #expect(Self.kind(diagram) == "c")
        #expect(try String(contentsOfFile: sandbox.path("doc.md"), encoding: .utf8) == document, "the document is left as it was")
    }

    /// `fmt` and `--update` read the file before they rewrite it (a FIFO or a device is refused
    /// there already: "cannot read the file"); if it has become one since, the write refuses.
    @Test func aRewriteRefusesAFIFO() throws {
        let sandbox = try Sandbox()
        let fifo = try Self.makeFIFO(sandbox, "f.marble")
        #expect(AtomicFile.rewriteRefusal(fifo)?.description == "cannot write '\(fifo)': it is a FIFO (named pipe), not a regular file")
        #expect(AtomicFile.rewriteRefusal(sandbox.path("missing.marble")) == nil)
        #expect(throws: AtomicFile.Failure.self) { try AtomicFile.write(Data("x".utf8), to: fifo, nonRegular: .refuse) }
        #expect(Self.kind(fifo) == "p")
    }

    // MARK: Regular files: atomic, as before

    @Test func aRegularFileIsReplacedWholeKeepingItsPermissions() throws {
        let sandbox = try Sandbox(["fail.marble": Samples.failing, "report.xml": "old"])
        try FileManager.default.setAttributes([.posixPermissions: 0o640], ofItemAtPath: sandbox.path("report.xml"))
        let run = marbles("run", sandbox.path("fail.marble"), "--reporter", "junit", "--output", sandbox.path("report.xml"))
        #expect(run.code == 1)
        #expect(try String(contentsOfFile: sandbox.path("report.xml"), encoding: .utf8).hasPrefix("<?xml"))
        let permissions = try FileManager.default.attributesOfItem(atPath: sandbox.path("report.xml"))[.posixPermissions] as? Int
        #expect(permissions == 0o640)
        #expect(try FileManager.default.contentsOfDirectory(atPath: sandbox.path()).sorted() == ["fail.marble", "report.xml"])
    }
}
