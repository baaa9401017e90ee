#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Text read by `Character` offset in constant time. Offsets are what error columns count.
///
/// Marble files are nearly always ASCII, and a long timeline is megabytes of it: an ASCII text
/// keeps only its bytes (one byte is one character) and hands out characters on demand; any
/// other text also keeps an array of `Character`s. An array of `Character`s costs 16 bytes per
/// character and a pass through the grapheme breaker to build, which is what made parsing a
/// long line slow.
public struct IndexedText: Sendable {
    /// One byte per character: its ASCII byte, or 0 when it is not a one-byte ASCII character.
    /// Scanners loop over these and look at `self[i]` only where they find a 0.
    public let bytes: [UInt8]
    /// The characters when the text is not ASCII, else empty.
    @usableFromInline let characters: [Character]
    /// True when every character is one ASCII byte (then `bytes` is the text's UTF-8).
    public let isASCII: Bool

    public init(_ text: String) {
        var text = text
        if text.withUTF8(IndexedText.isOneBytePerCharacter) {
            isASCII = true
            bytes = Array(text.utf8)
            characters = []
        } else {
            isASCII = false
            characters = Array(text)
            bytes = characters.map { $0.utf8.count == 1 ? $0.asciiValue ?? 0 : 0 }
        }
    }

    /// True when every byte is ASCII and no "\r\n" (two bytes, one Character) occurs.
    private static func isOneBytePerCharacter(_ buffer: UnsafeBufferPointer<UInt8>) -> Bool {
        var union: UInt8 = 0
        for byte in buffer { union |= byte }  // a loop the compiler vectorises
        guard union < 0x80 else { return false }
        var start = 0
        while let cr = firstIndex(of: 0x0D, in: buffer, start..<buffer.count) {
            if cr + 1 < buffer.count, buffer[cr + 1] == 0x0A { return false }
            start = cr + 1
        }
        return true
    }

    /// The first index in `range` where `buffer` holds `byte`: `memchr`, which reads many
    /// bytes per step (a byte-by-byte loop costs milliseconds on a megabyte-long line).
    public static func firstIndex(of byte: UInt8, in buffer: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Int? {
        let range = range.clamped(to: 0..<buffer.count)
        guard !range.isEmpty, let base = buffer.baseAddress,
              let found = memchr(base + range.lowerBound, Int32(byte), range.count) else { return nil }
        return base.distance(to: found.assumingMemoryBound(to: UInt8.self))
    }

    /// How many characters the text has.
    @inlinable public var count: Int { bytes.count }

    @inlinable public subscript(index: Int) -> Character {
        isASCII ? Character(Unicode.Scalar(bytes[index])) : characters[index]
    }

    /// The character at `index` as its ASCII byte, or nil when it is not a one-byte ASCII character.
    @inlinable public func asciiByte(_ index: Int) -> UInt8? {
        let byte = bytes[index]
        return byte != 0 || isASCII ? byte : nil
    }

    /// The characters `range` as a string (bytes are copied as they are when the text is ASCII).
    public func string(_ range: Range<Int>) -> String {
        guard !range.isEmpty else { return "" }
        guard isASCII else { return String(characters[range]) }
        // Known ASCII: copied without the UTF-8 validation `String(decoding:as:)` does.
        return bytes.withUnsafeBufferPointer { buffer in
            String(unsafeUninitializedCapacity: range.count) { target in
                _ = target.initialize(from: buffer[range])
                return range.count
            }
        }
    }
}
