import Testing
@testable import MarbleRewrite

/// `SourceLines` finds line breaks in UTF-8 bytes and keeps each line a slice of the file's text:
/// the lines must be the ones a walk over the characters finds, and the text rebuilt the original.
@Suite struct SourceLinesTests {
    /// The lines as splitting at every newline `Character` gives them.
    static func characterLines(_ source: String) -> [SourceLines.Line] {
        var lines: [SourceLines.Line] = []
        var current = ""
        for character in source {
            if character.isNewline {
                lines.append(SourceLines.Line(characters: Substring(current), terminator: String(character)))
                current = ""
            } else {
                current.append(character)
            }
        }
        if !current.isEmpty || lines.isEmpty { lines.append(SourceLines.Line(characters: Substring(current), terminator: "")) }
        return lines
    }

    @Test func everyKindOfLineBreakSplitsAsCharactersDo() {
        let pieces = ["a", "é", "\u{301}", "x\u{301}", "—", "🙂", " ", "\n", "\r", "\r\n", "\u{0B}", "\u{0C}", "\u{85}", "\u{2028}", "\u{2029}", "\u{2027}", "\u{A0}"]
        var generator = LinearGenerator(state: 17)
        for _ in 0..<2_000 {
            var source = ""
            for _ in 0..<Int.random(in: 0...12, using: &generator) {
                source += pieces[Int.random(in: 0..<pieces.count, using: &generator)]
            }
            let lines = SourceLines(source)
            #expect(lines.lines == Self.characterLines(source), "\(source.unicodeScalars.map { $0.value })")
            #expect(lines.text == source)
        }
    }

    @Test func aChangedLineIsCopiedAndTheOthersStaySlices() {
        var lines = SourceLines("one\r\ntwo  \nthree")
        lines.lines[1].characters = lines.lines[1].characters.dropLast(2)
        lines.lines[2].content = Array("THREE")
        #expect(lines.text == "one\r\ntwo\nTHREE")
        #expect(lines[1]?.text == "one" && lines[1]?.terminator == "\r\n")
        #expect(lines[3]?.content == Array("THREE") && lines[4] == nil)
    }
}

/// A tiny deterministic generator (the rewrite tests import no test support target).
struct LinearGenerator: RandomNumberGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
        state = state &* 6364136223846793005 &+ 1442695040888963407
        return state >> 11 | state << 53
    }
}
