import Foundation
import Testing
@testable import MarblesCLI

/// `marbles doc --catalogue DIR FILE.md`: the operator reference generated from the catalogue.
@Suite("marbles doc --catalogue")
struct OperatorsPageTests {
    static let debounce = """
        // debounce waits for a quiet stretch; a value_with_underscores and <T> stay literal,
        // but `code_spans` do not change.
        // (source: OpenCombine DebounceTests; reference §3, §10.1)
        //
        // A second paragraph.
        frame 100ms

        test "the last value of a burst"
          hot    typing   -a-b-c----|
          let    query  = typing.debounce(for: .milliseconds(300), scheduler: RunLoop.main)
          expect query    --------c-|

        test "another one"
          hot    typing   -a-|
          let    query  = typing.debounce(for: .milliseconds(300), scheduler: RunLoop.main)
          expect query    ---|

        """

    static let map = """
        // map turns each value into another.
        test "map doubles"
          hot    input   -1-2-|
          let    doubled = input.map { $0 * 2 }
          expect doubled -2-4-|

        """

    @Test func aSectionPerFamilyInCatalogueOrderWithItsCommentSignaturesAndFirstTest() throws {
        let sandbox = try Sandbox(["catalogue/debounce.marble": Self.debounce, "catalogue/map.marble": Self.map])
        let page = sandbox.path("docs/operators.md")
        let run = marbles("doc", "--catalogue", sandbox.path("catalogue"), page)
        #expect(run.code == 0, "\(run.stdout)")
        let text = try sandbox.read("docs/operators.md")
        // Transforming comes before Timing, as in the catalogue.
        let map = try #require(text.range(of: "\n### map\n\nmap turns each value into another.\n\n- `.map(Closure)` — transforms each value\n"))
        let debounce = try #require(text.range(of: "\n### debounce\n\n"))
        #expect(map.lowerBound < debounce.lowerBound)
        #expect(text.contains("- **Transforming values**: [map](#map)\n- **Timing**: [debounce](#debounce)\n"))
        #expect(text.contains("debounce waits for a quiet stretch; a value\\_with\\_underscores and \\<T\\> stay literal, but `code_spans` do not change. (source: OpenCombine DebounceTests)\n\nA second paragraph.\n\n"))
        #expect(!text.contains("reference §"))
        // The first test with the file-level lines, as a block that ran and got its pictures.
        #expect(text.contains("```marble\nframe 100ms\n\ntest \"the last value of a burst\"\n  hot    typing   -a-b-c----|\n"))
        #expect(text.contains("<img src=\"diagrams/operators--the-last-value-of-a-burst.svg\" alt=\"the last value of a burst\">"))
        #expect(FileManager.default.fileExists(atPath: sandbox.path("docs/diagrams/operators--the-last-value-of-a-burst~dark.svg")))
        #expect(!text.contains("```marble\ntest \"another one\""))
        #expect(text.contains("The other tests of [`debounce.marble`](../catalogue/debounce.marble): “another one”.\n"))
        #expect(text.contains("The only test of [`map.marble`](../catalogue/map.marble).\n"))
        #expect(run.lastLine.hasSuffix("files written"))
        let check = marbles("doc", "--check", "--catalogue", sandbox.path("catalogue"), page)
        #expect(check.code == 0)
        #expect(check.lastLine == "docs up to date")
    }

    @Test func thePageIsStaleWhenTheCatalogueChanges() throws {
        let sandbox = try Sandbox(["catalogue/map.marble": Self.map])
        let page = sandbox.path("operators.md")
        let missing = marbles("doc", "--check", "--catalogue", sandbox.path("catalogue"), page)
        #expect(missing.code == 1)
        #expect(missing.stdout.contains("stale: \(page) (run 'marbles doc' to refresh it)"))
        #expect(!FileManager.default.fileExists(atPath: page))
        #expect(marbles("doc", "--catalogue", sandbox.path("catalogue"), page).code == 0)
        try sandbox.write("catalogue/map.marble", Self.map.replacingOccurrences(of: "map turns each value into another.", with: "map transforms."))
        let stale = marbles("doc", "--check", "--catalogue", sandbox.path("catalogue"), page)
        #expect(stale.code == 1)
        #expect(stale.stdout.contains("stale: \(page) "))
        // A test of the catalogue that fails fails the page, located inside it.
        try sandbox.write("catalogue/map.marble", Self.map.replacingOccurrences(of: "-2-4-|", with: "-2-5-|"))
        let failing = marbles("doc", "--catalogue", sandbox.path("catalogue"), page)
        #expect(failing.code == 1)
        #expect(failing.stdout.contains("operators.md:"))
    }

    /// Issue 29, item 9: a comment line `// ```marble` is text of the page, not a fence, and a
    /// mistake in a catalogue file is reported in that file (the page is never written).
    @Test func aFenceInTheOpeningCommentStaysTextAndMistakesPointIntoTheCatalogueFile() throws {
        let commented = "// map turns each value into another.\n//\n// ```marble\n" + Self.map.split(separator: "\n", omittingEmptySubsequences: false).dropFirst().joined(separator: "\n")
        let sandbox = try Sandbox(["catalogue/map.marble": commented])
        let page = sandbox.path("operators.md")
        let run = marbles("doc", "--catalogue", sandbox.path("catalogue"), page)
        #expect(run.code == 0, "\(run.stdout)")
        let text = try sandbox.read("operators.md")
        #expect(text.contains("### map\n\nmap turns each value into another.\n\n\\```marble\n\n- `.map(Closure)` — transforms each value\n\n```marble\ntest \"map doubles\"\n"))
        #expect(marbles("doc", "--check", "--catalogue", sandbox.path("catalogue"), page).lastLine == "docs up to date")

        // A stream name misspelt in the catalogue's first test: the error is at its line there.
        try FileManager.default.removeItem(atPath: page)
        try sandbox.write("catalogue/map.marble", commented.replacingOccurrences(of: "expect doubled", with: "expect doubld"))
        let broken = marbles("doc", "--catalogue", sandbox.path("catalogue"), page)
        #expect(broken.code == 2)
        #expect(broken.stdout.contains("""
              ✗ map doubles    \(sandbox.path("catalogue/map.marble")):7:10

                \(sandbox.path("catalogue/map.marble")):7:10: error: cannot find stream 'doubld' in this test
                  expect doubld -2-4-|
                         ^^^^^^
                  hint: did you mean 'doubled'?
            """), "\(broken.stdout)")
        #expect(!broken.stdout.contains("operators.md:"))
        #expect(!FileManager.default.fileExists(atPath: page))
    }

    /// A line of a test that starts with backticks cannot close the page's block: its fence is longer.
    @Test func theBlockFenceIsLongerThanAnyRunOfBackticksInTheTest() throws {
        let sandbox = try Sandbox(["catalogue/map.marble": Self.map.replacingOccurrences(of: "  hot    input", with: "  // ```` a comment\n  hot    input")])
        let page = sandbox.path("operators.md")
        let run = marbles("doc", "--catalogue", sandbox.path("catalogue"), page)
        #expect(run.code == 0, "\(run.stdout)")
        let text = try sandbox.read("operators.md")
        #expect(text.contains("\n`````marble\ntest \"map doubles\"\n  // ```` a comment\n"))
        #expect(text.contains("  expect doubled -2-4-|\n`````\n<!-- marbles:begin"))
        #expect(OperatorsPage.longestRun(of: "`", in: "a``b```c`") == 3)
    }

    @Test func theCommandLineAndAnEmptyCatalogue() throws {
        let sandbox = try Sandbox(["empty/notes.txt": "x"])
        #expect(marbles("doc", "--catalogue", "marbles/operators", "a.md", "b.md").stderr
            .contains("marbles: error: --catalogue generates one page: give one .md file to write, e.g. docs/operators.md"))
        #expect(marbles("doc", "--catalogue", "marbles/operators", "--update", "a.md").stderr
            .contains("--catalogue pages are generated: update the .marble files, not the page"))
        let empty = marbles("doc", "--catalogue", sandbox.path("empty"), sandbox.path("ops.md"))
        #expect(empty.code == 2)
        #expect(empty.stdout.contains("\(sandbox.path("empty")): error: no catalogue files in '\(sandbox.path("empty"))' (FAMILY.marble for the families of 'marbles operators')"))
    }

    @Test func internalReferencesAreLeftOut() {
        #expect(OperatorsPage.withoutInternalReferences("a (source: X; reference §3, §10.1) b") == "a (source: X) b")
        #expect(OperatorsPage.withoutInternalReferences("a (source: reference §2, OpenCombine Y; z) b") == "a (source: OpenCombine Y; z) b")
        #expect(OperatorsPage.withoutInternalReferences("a (reference §8) b.") == "a b.")
        #expect(OperatorsPage.markdownText("a*b `c*d` [e]") == "a\\*b `c*d` \\[e\\]")
    }

    /// The project's own docs: what `make docs` wrote is what the catalogue and the engine give now.
    @Test func theProjectsOperatorsPageAndDocsAreUpToDate() {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path
        let page = marbles("doc", "--check", "--out", root + "/docs/doc-diagrams", "--catalogue", root + "/marbles/operators", root + "/docs/operators.md")
        #expect(page.code == 0, "docs/operators.md is stale: run make docs\n\(page.stdout.split(separator: "\n").filter { $0.hasPrefix("stale") }.joined(separator: "\n"))")
    }
}
