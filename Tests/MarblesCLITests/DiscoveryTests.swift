import Foundation
import Testing
@testable import MarblesCLI

@Suite("marbles run: finding files")
struct DiscoveryTests {
    @Test func foldersAreSearchedRecursivelySortedAndOnlyForMarbleFiles() throws {
        let sandbox = try Sandbox([
            "b.marble": Samples.passing,
            "a/z.marble": Samples.passing,
            "a/nested/y.marble": Samples.passing,
            "notes.txt": "not a test",
            ".hidden/x.marble": Samples.failing,
        ])
        let found = Discovery.discover([sandbox.path()])
        #expect(found == [
            .file(sandbox.path() + "/a/nested/y.marble"),
            .file(sandbox.path() + "/a/z.marble"),
            .file(sandbox.path() + "/b.marble"),
        ])
        let run = marbles("run", sandbox.path())
        #expect(run.code == 0)
        #expect(run.lastLine == "3 passed, 0 failed")
        #expect(run.stdout.contains("3 tests in 3 files, "))
    }

    @Test func aFolderPathWithATrailingSlashGivesCleanPaths() throws {
        let sandbox = try Sandbox(["one.marble": Samples.passing])
        #expect(Discovery.discover([sandbox.path() + "/"]) == [.file(sandbox.path() + "/one.marble")])
    }

    @Test func anExplicitFileRunsWhateverItsExtensionAndOnlyOnce() throws {
        let sandbox = try Sandbox(["test.txt": Samples.passing])
        let file = sandbox.path("test.txt")
        #expect(Discovery.discover([file, file]) == [.file(file)])
    }

    @Test func anEmptyFolderIsAnError() throws {
        let sandbox = try Sandbox()
        try sandbox.folder("empty")
        let run = marbles("run", sandbox.path("empty"))
        #expect(run.code == 2)
        #expect(run.stdout.hasPrefix("\(sandbox.path("empty")): error: no .marble files in this folder\n"))
        #expect(run.lastLine == "0 passed, 0 failed, 1 error")
    }

    // MARK: Issue 29: a search stays on its file system, off made-up ones, and is bounded

    @Test func aSearchOfTheRootIsRefused() {
        let run = marbles("run", "/")
        #expect(run.code == 2)
        #expect(run.stdout.hasPrefix("/: error: refusing to search '/', the whole file system: name the folder that holds the tests\n"))
        #expect(Discovery.walk("/", withExtension: "md").problem == "refusing to search '/', the whole file system: name the folder that holds the tests")
    }

    @Test(.enabled(if: FileManager.default.fileExists(atPath: "/proc/self/mountinfo")))
    func aSearchOfProcOrSysIsRefused() {
        let run = marbles("run", "/proc")
        #expect(run.code == 2)
        #expect(run.stdout.hasPrefix("/proc: error: refusing to search a proc file system (it shows the kernel's state, not files): name the folder that holds the tests\n"))
        #expect(Discovery.walk("/sys", withExtension: "marble").problem?.hasPrefix("refusing to search a sysfs file system") == true)
        let doc = marbles("doc", "--check", "/proc")
        #expect(doc.code == 2)
        #expect(doc.stdout.contains("/proc: error: refusing to search a proc file system"), "\(doc.stdout)")
    }

    @Test func aSearchStopsAtItsLimitAndSaysSo() throws {
        let sandbox = try Sandbox(["a/one.marble": Samples.passing, "b/two.marble": Samples.passing, "c/three.marble": Samples.passing])
        let walk = Discovery.walk(sandbox.path(), withExtension: "marble", limit: 4)
        #expect(walk.problem == "stopped searching after 4 entries (the limit of a search): name a smaller folder")
        #expect(walk.files.count < 3)
        #expect(Discovery.walk(sandbox.path(), withExtension: "marble", limit: 6).files.count == 3)
    }

    @Test func symbolicLinksInsideAFolderAreNotFollowed() throws {
        let sandbox = try Sandbox(["real/a.marble": Samples.passing, "other/b.marble": Samples.passing])
        try FileManager.default.createSymbolicLink(atPath: sandbox.path("real/linked"), withDestinationPath: sandbox.path("other"))
        try FileManager.default.createSymbolicLink(atPath: sandbox.path("real/link.marble"), withDestinationPath: sandbox.path("other/b.marble"))
        #expect(Discovery.discover([sandbox.path("real")]) == [.file(sandbox.path("real") + "/a.marble")])
    }

    /// A folder mounted inside the one searched (here a tmpfs; mounting needs root) is another
    /// file system: not searched, as `find -xdev` does not.
    @Test(.enabled(if: getuid() == 0))
    func aSearchDoesNotLeaveItsFileSystem() throws {
        let sandbox = try Sandbox(["a.marble": Samples.passing])
        try sandbox.folder("mounted")
        let mount = Process()
        mount.executableURL = URL(fileURLWithPath: "/bin/mount")
        mount.arguments = ["-t", "tmpfs", "none", sandbox.path("mounted")]
        mount.standardError = FileHandle.nullDevice
        guard (try? mount.run()) != nil else { return }
        mount.waitUntilExit()
        guard mount.terminationStatus == 0 else { return }  // no right to mount here: nothing to test
        defer {
            let unmount = Process()
            unmount.executableURL = URL(fileURLWithPath: "/bin/umount")
            unmount.arguments = [sandbox.path("mounted")]
            try? unmount.run()
            unmount.waitUntilExit()
        }
        try Data(Samples.passing.utf8).write(to: URL(fileURLWithPath: sandbox.path("mounted/b.marble")))
        #expect(Discovery.discover([sandbox.path()]) == [.file(sandbox.path() + "/a.marble")])
        #expect(Discovery.discover([sandbox.path("mounted")]) == [.file(sandbox.path("mounted") + "/b.marble")], "named itself, it is searched")
    }
}
