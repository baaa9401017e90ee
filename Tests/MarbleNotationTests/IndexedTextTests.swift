import Testing
import MarbleNotation

/// `IndexedText` keeps only bytes for ASCII text; both representations must read the same.
@Suite struct IndexedTextTests {
    @Test func asciiTextIsReadByByte() {
        let text = IndexedText("-a{12}|")
        #expect(text.isASCII)
        #expect(text.count == 7)
        #expect(text[1] == "a")
        #expect(text.asciiByte(2) == UInt8(ascii: "{"))
        #expect(text.string(3..<5) == "12")
        #expect(text.string(4..<4) == "")
    }

    @Test func otherTextIsReadByCharacter() {
        let text = IndexedText("-é-🙂|")
        #expect(!text.isASCII)
        #expect(text.count == 5)
        #expect(text[1] == "é")
        #expect(text[3] == "🙂")
        #expect(text.asciiByte(1) == nil)
        #expect(text.asciiByte(3) == nil)
        #expect(text.asciiByte(4) == UInt8(ascii: "|"))
        #expect(text.string(1..<4) == "é-🙂")
    }

    @Test func crlfIsOneCharacterNotTwoBytes() {
        // "\r\n" is ASCII bytes but one Character: offsets must count it once.
        let text = IndexedText("a\r\nb")
        #expect(!text.isASCII)
        #expect(text.count == 3)
        #expect(text[1] == "\r\n")
        #expect(text.asciiByte(1) == nil, "CR LF is not one ASCII byte")
        #expect(text[2] == "b")
    }

    @Test func bothRepresentationsAgree() {
        for sample in ["", "abc", "(ab)-|", "x\ty", "\u{7F}"] {
            let ascii = IndexedText(sample)
            let unicode = IndexedText(sample + "é")
            #expect(ascii.isASCII)
            for index in 0..<ascii.count {
                #expect(ascii[index] == unicode[index])
                #expect(ascii.asciiByte(index) == unicode.asciiByte(index))
            }
        }
    }

    @Test func nonASCIIValueNamesParseAtTheirCharacterOffsets() throws {
        let parsed = try MarbleParser().parse("-é-🙂-{42}|", as: .cold)
        #expect(parsed.events.map(\.offset) == [1, 3, 5, 9])
        #expect(parsed.events.map(\.frame) == [1, 3, 5, 6])
    }

    @Test func byteSearchStaysInItsRange() {
        let bytes: [UInt8] = Array("ab/cd/".utf8)
        bytes.withUnsafeBufferPointer { buffer in
            #expect(IndexedText.firstIndex(of: UInt8(ascii: "/"), in: buffer, 0..<6) == 2)
            #expect(IndexedText.firstIndex(of: UInt8(ascii: "/"), in: buffer, 3..<6) == 5)
            #expect(IndexedText.firstIndex(of: UInt8(ascii: "/"), in: buffer, 3..<5) == nil)
            #expect(IndexedText.firstIndex(of: UInt8(ascii: "/"), in: buffer, 6..<9) == nil)
            #expect(IndexedText.firstIndex(of: UInt8(ascii: "a"), in: buffer, 0..<0) == nil)
        }
    }
}
