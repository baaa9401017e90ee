/// A position in a `.marble` file. Both numbers are 1-based; `column` counts
/// `Character`s (grapheme clusters), so `é` or an emoji is one column.
public struct SourceLocation: Hashable, Sendable, Comparable, CustomStringConvertible {
    public var line: Int
    public var column: Int

    public init(line: Int, column: Int) {
        self.line = line
        self.column = column
    }

    public static func < (lhs: SourceLocation, rhs: SourceLocation) -> Bool {
        (lhs.line, lhs.column) < (rhs.line, rhs.column)
    }

    /// `line:column`, the way diagnostics print it.
    public var description: String { "\(line):\(column)" }
}

/// A half-open stretch of source: `start` is the first character, `end` the
/// position just after the last one (on the last character's line).
public struct SourceRange: Hashable, Sendable, CustomStringConvertible {
    public var start: SourceLocation
    public var end: SourceLocation

    public init(start: SourceLocation, end: SourceLocation) {
        self.start = start
        self.end = end
    }

    public var description: String { "\(start)-\(end)" }
}

/// A syntax error in a `.marble` file or expression.
///
/// `location` is the first character of the offending token (or the position
/// where something was expected), `length` how many characters of that line a
/// caret should underline (at least 1), `hint` an optional second line such as
/// "did you mean 'expect'?".
public struct SyntaxError: Error, Hashable, Sendable, CustomStringConvertible {
    public var message: String
    public var location: SourceLocation
    public var length: Int
    public var hint: String?

    public init(message: String, location: SourceLocation, length: Int = 1, hint: String? = nil) {
        self.message = message
        self.location = location
        self.length = max(1, length)
        self.hint = hint
    }

    /// `line:column: error: message`, followed by the hint on its own line when there is one.
    public var description: String {
        var text = "\(location): error: \(message)"
        if let hint { text += "\n  hint: \(hint)" }
        return text
    }
}
