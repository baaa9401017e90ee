import MarbleDiff
import MarbleNotation
import MarbleSpec
import Testing
@testable import MarblesCLI

@Suite("diagram layout")
struct LayoutTests {
    func values(_ frames: [Int: String]) -> [RenderedEvent] {
        frames.sorted { $0.key < $1.key }.map { RenderedEvent(frame: $0.key, event: .value($0.value)) }
    }

    @Test func groupsWidenTheColumnAndRowsStopAtTheirTerminalEvent() {
        let layout = TextDiagramLayout(
            rows: [
                .aligned(label: "expected", events: values([1: "a", 2: "b"]) + [RenderedEvent(frame: 3, event: .finished)]),
                .aligned(label: "actual", events: [RenderedEvent(frame: 1, event: .value("a")), RenderedEvent(frame: 1, event: .value("b")),
                                                   RenderedEvent(frame: 5, event: .finished)]),
            ],
            differences: [Difference(frame: 1, sentence: "expected a, got a then b")],
            notes: ["a note"], indent: 2)
        #expect(layout.lines(style: Style(enabled: false)) == [
            "  expected   -a   b|",
            "  actual     -(ab)---|",
            "              ^ frame 1: expected a, got a then b",
            "             (a note)",
        ])
    }

    @Test func negativeFramesStartTheAxis() {
        let layout = TextDiagramLayout(rows: [.aligned(label: "x", events: values([-2: "a", 1: "b"]))], differences: [], notes: [], indent: 0)
        #expect(layout.lines(style: Style(enabled: false)) == ["x   a--b"])
    }

    @Test func longestEmptyStretchesCompressFirstUntilTheDiagramFits() {
        // 60 + 100 empty frames: compressing the 100 is enough to fit in 120 columns.
        let layout = TextDiagramLayout(rows: [.aligned(label: "x", events: values([0: "a", 61: "b", 162: "c"]))],
                                   differences: [Difference(frame: 162, sentence: "s")], notes: [], indent: 0)
        let lines = layout.lines(style: Style(enabled: false))
        #expect(lines[0] == "x   a" + String(repeating: "-", count: 60) + "b …100… c")
        #expect(lines[1] == String(repeating: " ", count: 4 + 1 + 60 + 1 + 7) + "^ frame 162: s")
    }

    @Test func unalignedRowsUseTheirOwnAxis() {
        let layout = TextDiagramLayout(rows: [
            .unaligned(label: "request", events: [RenderedEvent(frame: 3, event: .value("x")), RenderedEvent(frame: 4, event: .finished)],
                       frameNanoseconds: 1_000_000, note: "(cold)"),
            .aligned(label: "out", events: values([10: "x"])),
        ], differences: [], notes: [], indent: 0)
        #expect(layout.lines(style: Style(enabled: false)) == ["request   ---x|  (cold)", "out       ----------x"])
    }

    @Test func excerptStripsIndentationKeepsTabsAndUnderlinesTheLength() {
        let (text, carets) = SourceExcerpt.excerpt("    let x =\tfoo.bar()", column: 17, length: 3)
        #expect(text == "let x =\tfoo.bar()")
        #expect(carets.prefix + carets.marks == "       \t    ^^^")
    }

    @Test func diagnosticWithHintAndNoLine() {
        let diagnostic = FileDiagnostic(path: "f.marble", line: 1, column: 1, message: "cannot read the file", hint: "check it")
        #expect(SourceExcerpt.lines(diagnostic, indent: 0, style: Style(enabled: false)) == [
            "f.marble:1:1: error: cannot read the file",
            "  hint: check it",
        ])
    }
}
