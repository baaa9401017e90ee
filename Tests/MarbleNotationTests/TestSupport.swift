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
