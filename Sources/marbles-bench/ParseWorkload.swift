import MarbleNotation

/// W6: one long marble line. `simple` uses only what RxPY's marble parser reads the same way
/// (`-`, one-letter values, `|`); `rich` adds groups, `{…}` literals and time progressions.
enum ParseWorkload {
    static let simpleChunk = "-a-b--c-d-e--f-"
    static let richChunk = "-a-b--(cd)-{42}-{\"x\"}-e- 10ms "

    static func line(flavor: String, bytes: Int) -> String? {
        let chunk: String
        switch flavor {
        case "simple": chunk = simpleChunk
        case "rich": chunk = richChunk
        default: return nil
        }
        let copies = max(1, (bytes - 1) / chunk.utf8.count)
        return String(repeating: chunk, count: copies) + "|"
    }

    /// The engine's parser: a value (code 1) or the completion at each frame.
    static func parse(_ line: String) -> Checksum? {
        guard let parsed = try? MarbleParser(frameNanoseconds: 1_000_000).parse(line, as: .hot) else { return nil }
        let checksum = Checksum()
        for event in parsed.events {
            switch event.event {
            case .value: checksum.value(1, at: event.frame)
            case .finished: checksum.finished(at: event.frame)
            default: return nil
            }
        }
        return checksum
    }

    /// The floor: a byte loop that knows only the tokens the generated lines use.
    static func floor(_ line: String) -> Checksum {
        let checksum = Checksum()
        var frame = 0
        var inGroup = false
        var bytes = Array(line.utf8)[...]
        while let byte = bytes.popFirst() {
            switch byte {
            case UInt8(ascii: "-"): frame += 1
            case UInt8(ascii: " "): break
            case UInt8(ascii: "("): inGroup = true
            case UInt8(ascii: ")"): inGroup = false; frame += 1
            case UInt8(ascii: "|"): checksum.finished(at: frame); frame += 1
            case UInt8(ascii: "0")...UInt8(ascii: "9"):
                var count = Int(byte - UInt8(ascii: "0"))
                while let next = bytes.first, next >= UInt8(ascii: "0"), next <= UInt8(ascii: "9") {
                    count = count * 10 + Int(next - UInt8(ascii: "0"))
                    bytes.removeFirst()
                }
                bytes.removeFirst(2)  // "ms"
                frame += count
            case UInt8(ascii: "{"):
                while let next = bytes.popFirst(), next != UInt8(ascii: "}") {}
                checksum.value(1, at: frame)
                if !inGroup { frame += 1 }
            default:
                checksum.value(1, at: frame)
                if !inGroup { frame += 1 }
            }
        }
        return checksum
    }
}
