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
}
