/// A call as written in a Swift source file, read at the place `#line`/`#column` gave for it
/// (its opening parenthesis): what a library reads back to name things the way the test
/// wrote them, and to rewrite a string literal the test passed.
///
/// Only what can be read for certain is read: a call's arguments when its brackets, strings
/// and comments balance, a name when the code has one of a few plain shapes. Anything else
/// reads as nothing, so a caller falls back to what it would say without the source.
public struct SwiftCall: Sendable {
    /// One argument: its label (nil when unlabelled), where its expression is, and what it is.
    public struct Argument: Sendable {
        public enum Form: Sendable, Equatable {
            /// One string literal and nothing else.
            case stringLiteral(SwiftStringLiteral)
            /// A name, or names joined by `.` (`query`, `model.$results`, `self.answer`), written
            /// back without spaces or comments; `?` and `!` may follow a name.
            case reference(String)
            /// Anything else (a call, an operator, a closure, several literals joined).
            case expression
        }

        public var label: String?
        /// The expression's bytes (without the label), from its first token through its last.
        public var range: Range<Int>
        public var form: Form
    }

    /// The function's name as written before `(`.
    public var callee: String
    public var arguments: [Argument]
    /// Where `(` and the matching `)` are.
    public var open: Int
    public var close: Int
    let file: SwiftSourceFile

    /// The call whose `(` is at `line`:`column` and whose function is `callee`, or nil when
    /// there is none there (the source changed since it was compiled, or the position belongs
    /// to a wrapper that passed its caller's `#line` on) or its arguments cannot be read. A
    /// `column` that points at the start of the call's line (compilers that give the start of
    /// the expression) is accepted when the line holds `callee(` exactly once.
    public init?(in file: SwiftSourceFile, line: Int, column: Int, callee: String) {
        guard let offset = file.offset(line: line, column: column) else { return nil }
        let bytes = file.bytes
        var open = offset
        if bytes[offset] != UInt8(ascii: "(") {
            let name = Array(callee.utf8) + [UInt8(ascii: "(")]
            var lineEnd = offset
            while lineEnd < bytes.count, bytes[lineEnd] != UInt8(ascii: "\n") { lineEnd += 1 }
            let starts = (offset..<lineEnd).filter { start in
                start + name.count <= lineEnd && bytes[start..<(start + name.count)].elementsEqual(name)
                    && (start == 0 || !SwiftScanner.isIdentifierByte(bytes[start - 1]))
            }
            guard starts.count == 1, let start = starts.first else { return nil }
            open = start + name.count - 1
        }
        let calleeBytes = Array(callee.utf8)
        let calleeStart = open - calleeBytes.count
        guard calleeStart >= 0, bytes[calleeStart..<open].elementsEqual(calleeBytes),
              calleeStart == 0 || !SwiftScanner.isIdentifierByte(bytes[calleeStart - 1]) else { return nil }
        let scanner = SwiftScanner(bytes: bytes)
        guard let (tokens, close) = scanner.arguments(openingAt: open) else { return nil }
        self.callee = callee
        self.open = open
        self.close = close
        self.file = file
        arguments = tokens.map { Self.argument($0, in: file) }
    }

    private static func argument(_ tokens: [SwiftToken], in file: SwiftSourceFile) -> Argument {
        var expression = tokens[...]
        var label: String?
        if tokens.count >= 2, tokens[0].kind == .identifier, tokens[1].kind == .punctuation(UInt8(ascii: ":")) {
            label = file.text(tokens[0].range)
            expression = tokens.dropFirst(2)
        }
        guard let first = expression.first, let last = expression.last else {
            return Argument(label: label, range: tokens.last.map { $0.range.upperBound..<$0.range.upperBound } ?? 0..<0, form: .expression)
        }
        let range = first.range.lowerBound..<last.range.upperBound
        if expression.count == 1, case .string(let literal) = first.kind {
            return Argument(label: label, range: range, form: .stringLiteral(literal))
        }
        return Argument(label: label, range: range, form: reference(Array(expression), in: file).map(Argument.Form.reference) ?? .expression)
    }

    /// `a`, `a.b`, `a.$b`, `a?.b`, `a!.b` as text, or nil for any other tokens.
    static func reference(_ tokens: [SwiftToken], in file: SwiftSourceFile) -> String? {
        var text = ""
        var expectsName = true
        for token in tokens {
            switch token.kind {
            case .identifier where expectsName:
                let name = file.text(token.range)
                guard !name.hasPrefix("#"), !name.hasPrefix("`") || name.count > 2 else { return nil }
                text += name
                expectsName = false
            case .punctuation(UInt8(ascii: ".")) where !expectsName:
                text += "."
                expectsName = true
            case .punctuation(let byte) where !expectsName && (byte == UInt8(ascii: "?") || byte == UInt8(ascii: "!")):
                text += String(UnicodeScalar(byte))
            default:
                return nil
            }
        }
        return expectsName || text.isEmpty ? nil : text
    }

    /// Which arguments hold a call's marble literals.
    public enum Literals: Sendable, Equatable, CustomStringConvertible {
        /// The first unlabelled argument after the first argument: `expect(publisher, "…")`.
        case second
        /// The argument with this label: `expect(publisher, inOrder: "…")`.
        case labelled(String)
        /// The first argument: `hot("…")`.
        case first
        /// Every unlabelled argument after the first, up to a labelled one (a variadic parameter):
        /// `expect(source.subscriptions, "…", "…")`.
        case rest

        public var description: String {
            switch self {
            case .second: return "second argument"
            case .labelled(let label): return label + ":"
            case .first: return "first argument"
            case .rest: return "unlabelled arguments after the first"
            }
        }
    }

    /// The arguments that `which` names, or nil when the call has none such (`.rest` may be empty).
    public func arguments(_ which: Literals) -> [Argument]? {
        switch which {
        case .first:
            guard let first = arguments.first, first.label == nil else { return nil }
            return [first]
        case .second:
            guard arguments.count > 1, arguments[1].label == nil else { return nil }
            return [arguments[1]]
        case .labelled(let label):
            return arguments.first { $0.label == label }.map { [$0] }
        case .rest:
            return Array(arguments.dropFirst().prefix { $0.label == nil })
        }
    }

    /// Whether the literals among `which` say `marbles` (those that are not plain literals, or
    /// not literals at all, cannot be checked and pass): the sign that this is the call that ran.
    public func passes(_ marbles: [String], in which: Literals) -> Bool {
        guard let selected = arguments(which), selected.count == marbles.count else { return false }
        return zip(selected, marbles).allSatisfy { argument, text in
            if case .stringLiteral(let literal) = argument.form, let value = literal.value { return value == text }
            return true
        }
    }

    /// The text of an argument's expression as written.
    public func text(of argument: Argument) -> String { file.text(argument.range) }

    /// `NAME` when the call is the whole value of a declaration on its line,
    /// `let NAME = receiver.callee(…)` (or `var`, a type annotation, modifiers such as
    /// `private`; the receiver a name or names joined by `.`), and nothing follows the call
    /// but a comment, a `;` or the end of the line (a next line starting with `.` continues it).
    public var declaredName: String? {
        let scanner = SwiftScanner(bytes: file.bytes)
        let calleeStart = open - callee.utf8.count
        guard let prefix = scanner.tokens(file.lineStart(of: calleeStart)..<calleeStart) else { return nil }
        var index = prefix.startIndex
        let modifiers: Set<String> = ["private", "fileprivate", "internal", "public", "static", "lazy", "nonisolated", "final"]
        while index < prefix.endIndex, prefix[index].kind == .identifier, modifiers.contains(file.text(prefix[index].range)) { index += 1 }
        guard index < prefix.endIndex, prefix[index].kind == .identifier, ["let", "var"].contains(file.text(prefix[index].range)) else { return nil }
        index += 1
        guard index < prefix.endIndex, prefix[index].kind == .identifier else { return nil }
        let name = file.text(prefix[index].range)
        guard name != "_", !name.hasPrefix("#") else { return nil }
        index += 1
        if index < prefix.endIndex, prefix[index].kind == .punctuation(UInt8(ascii: ":")) {
            // A type annotation: anything up to the `=`.
            while index < prefix.endIndex, prefix[index].kind != .punctuation(UInt8(ascii: "=")) { index += 1 }
        }
        guard index < prefix.endIndex, prefix[index].kind == .punctuation(UInt8(ascii: "=")) else { return nil }
        index += 1
        // The receiver: names, each followed by `.`.
        let receiver = prefix[index...]
        for (position, token) in receiver.enumerated() {
            let isName = position % 2 == 0
            if isName ? token.kind != .identifier : token.kind != .punctuation(UInt8(ascii: ".")) { return nil }
        }
        guard receiver.count % 2 == 0 else { return nil }
        guard endsStatement(after: close + 1) else { return nil }
        return name.hasPrefix("`") ? String(name.dropFirst().dropLast()) : name
    }

    /// Whether the statement ends at `offset`: only a comment, a `;`, or a line break follows,
    /// and the next line does not continue the expression with `.`.
    private func endsStatement(after offset: Int) -> Bool {
        let scanner = SwiftScanner(bytes: file.bytes)
        var position = offset
        let sawNewline = scanner.skipTrivia(from: &position, skippingNewlines: false)
        guard position < file.bytes.count else { return true }
        if file.bytes[position] == UInt8(ascii: ";") { return true }
        guard sawNewline || file.bytes[position] == UInt8(ascii: "\n") || file.bytes[position] == UInt8(ascii: "\r") else { return false }
        scanner.skipTrivia(from: &position)
        guard position < file.bytes.count else { return true }
        let next = file.bytes[position]
        return next != UInt8(ascii: ".") && next != UInt8(ascii: "?")
    }

    /// The body of a trailing closure right after the call, when it is one assignment of the
    /// closure's argument, `{ TARGET = $0 }`: TARGET as a reference (`model.query`).
    public var assignmentTarget: String? {
        let scanner = SwiftScanner(bytes: file.bytes)
        var position = close + 1
        scanner.skipTrivia(from: &position, skippingNewlines: false)
        guard position < file.bytes.count, file.bytes[position] == UInt8(ascii: "{"),
              let end = scanner.balanced(from: position),
              let body = scanner.tokens((position + 1)..<(end - 1)),
              body.count >= 3, let equals = body.firstIndex(where: { $0.kind == .punctuation(UInt8(ascii: "=")) }),
              equals == body.count - 2, body[equals + 1].kind == .identifier, file.text(body[equals + 1].range) == "$0"
        else { return nil }
        return Self.reference(Array(body[..<equals]), in: file)
    }
}
