import Foundation
import Testing
@testable import MarblesCLI
import MarbleRewrite
import MarbleSpec

@Suite("marbles fmt: the command over the catalogue and files")
struct FormatTests {
    func format(_ source: String) throws -> String {
        switch MarbleFormatter.format(source) {
        case .success(let text): return text
        case .failure(let problem): throw problem
        }
    }

    @Test func isIdempotentAndPreservesMeaningAcrossTheCatalogue() throws {
        let files = Discovery.marbleFiles(in: catalogueFolder)
        #expect(files.count > 50)
        var changed = 0
        for file in files {
            let source = try String(contentsOfFile: file, encoding: .utf8)
            let once = try format(source)
            #expect(try format(once) == once, "fmt is idempotent on \(file)")
            #expect(MarbleFormatter.sameMeaning(source, once) == nil)
            #expect(SourceLines(source).lines.count == SourceLines(once).lines.count)
            if once != source { changed += 1 }
            // The strongest check: the tests say and do exactly the same before and after.
            let before = MarbleRunner.run(source: source, path: file)
            let after = MarbleRunner.run(source: once, path: file)
            #expect(before.allDiagnostics.isEmpty && after.allDiagnostics.isEmpty, "\(file)")
            #expect(before.tests.map(\.name) == after.tests.map(\.name))
            for (old, new) in zip(before.tests, after.tests) {
                #expect(old.checks.map(\.expected) == new.checks.map(\.expected), "\(file) › \(old.name)")
                #expect(old.checks.map(\.actual) == new.checks.map(\.actual), "\(file) › \(old.name)")
                #expect(old.sources == new.sources, "\(file) › \(old.name)")
                #expect(old.outcome == new.outcome)
            }
        }
        #expect(changed > 0)
    }

    @Test func checkExitsOneWhenAFileWouldChangeAndWritesNothing() throws {
        let messy = "test \"x\"\n  hot x   -a-|\n  expect   x -a-|\n"
        let sandbox = try Sandbox(["messy.marble": messy, "tidy.marble": try format(Samples.passing)])
        let check = marbles("fmt", "--check", sandbox.path())
        #expect(check.code == 1)
        #expect(check.stdout == """
            would reformat \(sandbox.path("messy.marble")) (lines 2, 3)
            1 file would be reformatted, 1 already formatted

            """)
        #expect(try sandbox.read("messy.marble") == messy)

        let write = marbles("fmt", sandbox.path())
        #expect(write.code == 0)
        #expect(write.stdout.hasPrefix("formatted \(sandbox.path("messy.marble")) (lines 2, 3)\n"))
        #expect(try sandbox.read("messy.marble") == "test \"x\"\n  hot    x   -a-|\n  expect x   -a-|\n")
        let again = marbles("fmt", "--check", sandbox.path())
        #expect(again.code == 0)
        #expect(again.stdout == "2 files already formatted\n")
    }

    @Test func aFileWithErrorsIsLeftAlone() throws {
        let broken = "test \"x\"\n  frobnicate   x -a-|\n"
        let badMarbles = "test \"y\"\n  hot  x   -(a-b)-|\n  expect x -a-|\n"
        let sandbox = try Sandbox(["broken.marble": broken, "marbles.marble": badMarbles])
        let run = marbles("fmt", sandbox.path())
        #expect(run.code == 2)
        #expect(try sandbox.read("broken.marble") == broken)
        #expect(try sandbox.read("marbles.marble") == badMarbles)
        // As `marbles run` reports them: the place, the line, a caret, the parser's reason.
        #expect(run.stdout.contains("\(sandbox.path("broken.marble")):2:3: error: "))
        #expect(run.stdout.contains("""
            \(sandbox.path("marbles.marble")):2:15: error: a group cannot contain '-'
              hot  x   -(a-b)-|
                          ^
              hint: a group occupies one frame; close it with ')' before '-'
              (fmt leaves \(sandbox.path("marbles.marble")) unchanged)

            """))
    }
}
