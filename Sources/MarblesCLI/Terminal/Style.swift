import MarbleDiff

/// ANSI colour, or none. Colour is used only when stdout is a terminal, `NO_COLOR` is not set
/// (whatever its value) and `--no-color` was not given.
struct Style: Sendable {
    let enabled: Bool

    static func decide(isTerminal: Bool, environment: [String: String], noColor: Bool) -> Style {
        Style(enabled: isTerminal && environment["NO_COLOR"] == nil && !noColor)
    }

    private func wrap(_ text: String, _ code: String) -> String {
        enabled && !text.isEmpty ? "\u{1B}[\(code)m" + text + "\u{1B}[0m" : text
    }

    func green(_ text: String) -> String { wrap(text, "32") }
    func red(_ text: String) -> String { wrap(text, "31") }
    func yellow(_ text: String) -> String { wrap(text, "33") }
    func dim(_ text: String) -> String { wrap(text, "2") }
    func bold(_ text: String) -> String { wrap(text, "1") }
}

/// Failure diagrams (MarbleDiff) colour their carets and notes through this.
extension Style: DiagramStyle {}
