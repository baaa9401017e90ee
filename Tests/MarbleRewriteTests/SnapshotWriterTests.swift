import Testing
import MarbleSyntax
@testable import MarbleRewrite

@Suite("SnapshotWriter: the edits --update makes and how they are reported")
struct SnapshotWriterTests {
    @Test func changesAreAWholeLineDiff() {
        let old = "test \"t\"\n  a\n  b\n  c\n  d\n"
        let new = "test \"t\"\n  a\n  B\n  c\n  c2\n  d\n"
        #expect(SnapshotWriter.changes(from: old, to: new) == [
            LineChange(line: 3, test: "t", before: "  b", after: "  B"),
            LineChange(line: 4, test: "t", before: nil, after: "  c2"),
        ])
        #expect(SnapshotWriter.changes(from: new, to: old).map(\.line) == [3, 5])
    }

    @Test func snapshotWriterAppliesEditsBottomUp() {
        var source = SourceLines("a\nb\nc\n")
        let changes = SnapshotWriter.apply([(.replace(line: 1, column: 1, length: 1, text: "A"), "t"), (.insert(after: 2, content: "b2"), "t"),
                                            (.insert(after: 2, content: "b3"), "t"), (.remove(line: 3), "t")], to: &source)
        #expect(source.text == "A\nb\nb2\nb3\n")
        #expect(changes.map(\.line) == [1, 2, 2, 3])
    }

    @Test func insertionsAfterTheLastLineWithoutABreakEndTheFile() {
        var source = SourceLines("a\r\nb")
        let changes = SnapshotWriter.apply([(.insert(after: 2, content: "c"), "t"), (.insert(after: 2, content: "d"), "t"),
                                            (.insert(after: 1, content: "a2"), "t")], to: &source)
        #expect(source.text == "a\r\na2\r\nb\nc\nd")
        #expect(changes.map(\.line) == [1, 2, 2])
        #expect(Set(changes.compactMap(\.after)) == ["a2", "c", "d"])
    }

    @Test func aRemovedLineAndItsNeighboursKeepTheirBreaks() {
        var source = SourceLines("a\nb\r\nc")
        let changes = SnapshotWriter.apply([(.remove(line: 2), "t"), (.replace(line: 3, column: 1, length: 1, text: "C"), "t")], to: &source)
        #expect(source.text == "a\nC")
        #expect(changes == [LineChange(line: 2, test: "t", before: "b", after: nil), LineChange(line: 3, test: "t", before: "c", after: "C")])
    }

    @Test func eachChangeNamesTheTestItIsIn() {
        let old = "frame 1ms\n\ntest \"one\"\n  a\n  b\n\ntest \"two\"\n  a\n  b\n"
        let new = "frame 2ms\n\ntest \"one\"\n  a\n  b\n  b2\n\ntest \"two\"\n  A\n"
        #expect(SnapshotWriter.changes(from: old, to: new) == [
            LineChange(line: 1, test: "", before: "frame 1ms", after: "frame 2ms"),
            LineChange(line: 5, test: "one", before: nil, after: "  b2"),
            LineChange(line: 8, test: "two", before: "  a", after: "  A"),
            LineChange(line: 9, test: "two", before: "  b", after: nil),
        ])
    }

    /// 18,000 lines: a whole-file LCS table would hold 324 million entries (2.6 GB); diffed test
    /// by test, it is 3,000 small tables.
    @Test func aBigFileIsDiffedTestByTest() {
        let tests = 3_000
        let old = (0..<tests).map { "test \"t\($0)\"\n  hot    x   -1-|\n  let    y = x.map { $0 }\n  expect y   -1-|\n  expect x.subscriptions ^--!\n" }.joined(separator: "\n")
        var new = old
        new = new.replacing("test \"t2999\"\n  hot    x   -1-|", with: "test \"t2999\"\n  hot    x   -2-|")
        new = new.replacing("test \"t0\"\n  hot    x   -1-|", with: "test \"t0\"\n  hot    x   -1-|\n  // added")
        let changes = SnapshotWriter.changes(from: old, to: new)
        #expect(changes == [LineChange(line: 2, test: "t0", before: nil, after: "  // added"),
                            LineChange(line: 2999 * 6 + 2, test: "t2999", before: "  hot    x   -1-|", after: "  hot    x   -2-|")])
    }
}
