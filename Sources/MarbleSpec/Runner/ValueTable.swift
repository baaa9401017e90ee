import MarbleNotation

/// The one-character names of a test's values (its `values` lines and the file's), and the
/// default rule: a digit is an `Int`, any other character a one-character `String`.
struct ValueTable {
    private(set) var byName: [Character: Value] = [:]
    private var names: [Value: Character] = [:]

    mutating func bind(_ name: Character, to value: Value) {
        if let old = byName[name], names[old] == name { names[old] = nil }
        byName[name] = value
        if names[value] == nil { names[value] = name }
    }

    func value(named name: Character) -> Value {
        if let value = byName[name] { return value }
        if let digit = name.wholeNumberValue, name.isASCII { return .int(digit) }
        return .string(String(name))
    }

    /// How a value is written in a marble: its name, or `{literal}`.
    func token(for value: Value) -> String {
        if !names.isEmpty, let name = names[value] { return String(name) }
        switch value {
        case .int(let n):
            if (0...9).contains(n) {
                let name = Character(String(n))
                if byName[name] == nil { return String(name) }
            }
            return ValueToken.braced(n)
        case .string(let s) where s.count == 1:
            if let name = s.first, byName[name] == nil, !ValueTable.reserved.contains(name), !name.isWhitespace, !name.isNumber {
                return s
            }
        default: break
        }
        return ValueToken.braced(value.literal)
    }

    /// How a failure is written: nil for `#` (the message "error"), else the `{literal}` text.
    func failureToken(for error: StreamError) -> String? {
        if case .record(let instance) = error.value { return "{\(instance.literal)}" }
        return error.message == "error" ? nil : "{\(Value.string(error.message).literal)}"
    }

    /// How a value is named in a sentence: `c`, `{42}`.
    func describe(_ value: Value) -> String { token(for: value) }

    static let reserved: Set<Character> = ["-", "|", "#", "(", ")", "{", "}", "^", "!"]
}
