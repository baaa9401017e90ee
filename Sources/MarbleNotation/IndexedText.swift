/// Text read by `Character` offset in constant time. Offsets are what error columns count.
///
/// Marble files are nearly always ASCII, and a long timeline is megabytes of it: an ASCII text
/// keeps only its bytes (one byte is one character) and hands out characters on demand; any
/// other text keeps an array of `Character`s. An array of `Character`s costs 16 bytes per
/// character and a pass through the grapheme breaker to build, which is what made parsing a
/// long line slow.
public struct IndexedText: Sendable {
    /// The text's UTF-8 bytes when every character is one ASCII byte, else empty.
    public let bytes: [UInt8]
    /// The characters when the text is not ASCII, else empty.
    @usableFromInline let characters: [Character]
    /// True when `bytes` holds the text (every character is one ASCII byte).
    public let isASCII: Bool

    public init(_ text: String) {
        let bytes = Array(text.utf8)
        // "\r\n" is two ASCII bytes but one Character, so it takes the general path.
        var ascii = true
        var previous: UInt8 = 0
        for byte in bytes {
            if byte >= 0x80 || (byte == 0x0A && previous == 0x0D) { ascii = false; break }
            previous = byte
        }
        isASCII = ascii
        self.bytes = ascii ? bytes : []
        characters = ascii ? [] : Array(text)
    }

    /// How many characters the text has.
    @inlinable public var count: Int { isASCII ? bytes.count : characters.count }

    @inlinable public subscript(index: Int) -> Character {
        isASCII ? Character(Unicode.Scalar(bytes[index])) : characters[index]
    }

    /// The character at `index` as its ASCII byte, or nil when it is not a one-byte ASCII character.
    @inlinable public func asciiByte(_ index: Int) -> UInt8? {
        if isASCII { return bytes[index] }
        return characters[index].asciiValue.flatMap { characters[index].utf8.count == 1 ? $0 : nil }
    }

    /// The characters `range` as a string (bytes are copied as they are when the text is ASCII).
    public func string(_ range: Range<Int>) -> String {
        guard !range.isEmpty else { return "" }
        return isASCII ? String(decoding: bytes[range], as: UTF8.self) : String(characters[range])
    }
}
