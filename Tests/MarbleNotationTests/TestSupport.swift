import MarbleNotation

/// Parses and summarises events as "frame:text", e.g. ["1:a", "5:(c", …].
func summary(_ text: String, _ kind: MarbleLineKind = .hot, frame: Int64 = 1_000_000) throws -> [String] {
    try MarbleParser(frameNanoseconds: frame).parse(text, as: kind).events.map { "\($0.frame):\($0.event.printable.text)" }
}

/// The error a parse throws, or nil if it succeeds.
func parseError(_ text: String, _ kind: MarbleLineKind = .hot, frame: Int64 = 1_000_000) -> MarbleSyntaxError? {
    do {
        _ = try MarbleParser(frameNanoseconds: frame).parse(text, as: kind)
        return nil
    } catch {
        return error
    }
}

func name(_ character: Character, at offset: Int) -> MarbleEvent {
    .value(ValueToken(form: .name(character), offset: offset))
}

func literal(_ text: String, at offset: Int) -> MarbleEvent {
    .value(ValueToken(form: .literal(text), offset: offset))
}

/// A deterministic generator (SplitMix64), so randomised tests are reproducible.
struct SeededGenerator: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
