import MarbleReport

/// The text of an operator box: a `let` expression as written, with its receiver left out when
/// the receiver is drawn right above the box, and the arguments the catalogue says name the
/// virtual clock (`scheduler:`, `options:`, …) left out because every scheduler of a test is
/// its one virtual scheduler.
enum PipelineText {
    static func text(_ expression: String, receiver: String?, omitting omitted: OmittedArguments) -> String {
        var text = expression
        if let receiver, text.hasPrefix(receiver + "."), text.count > receiver.count + 1 {
            text = String(text.dropFirst(receiver.count + 1))
        }
        return droppingArguments(text, isDropped: { omitted.omits(label: $0, callee: $1) })
    }

    /// What a scan of Swift text knows at each character.
    private struct Scan {
        /// Open brackets, innermost last: `(`, `[` or `{`.
        var brackets: [Character] = []
        /// Offsets of the open brackets, innermost last.
        var openings: [Int] = []
        var offset = 0
        var inString = false
        var escaped = false

        /// Updates the state with `character`; returns whether it is code (not inside a string literal).
        mutating func step(_ character: Character) -> Bool {
            defer { offset += 1 }
            if inString {
                if escaped { escaped = false } else if character == "\\" { escaped = true } else if character == "\"" { inString = false }
                return false
            }
            switch character {
            case "\"": inString = true; return false
            case "(", "[", "{":
                brackets.append(character)
                openings.append(offset)
            case ")", "]", "}":
                if !brackets.isEmpty { brackets.removeLast() }
                if !openings.isEmpty { openings.removeLast() }
            default: break
            }
            return true
        }
    }

    /// Removes the `label: value` arguments `isDropped(label, callee)` picks from every call in `text`.
    static func droppingArguments(_ text: String, isDropped: (String, String) -> Bool) -> String {
        let characters = Array(text)
        var removals: [Range<Int>] = []
        var scan = Scan()
        var index = 0
        while index < characters.count {
            let character = characters[index]
            let isCode = scan.step(character)
            index += 1
            // An argument starts after `(` or `,` directly inside parentheses.
            guard isCode, character == "(" || (character == "," && scan.brackets.last == "("), scan.brackets.last == "(" else { continue }
            var start = index
            while start < characters.count, characters[start] == " " { start += 1 }
            var end = start
            while end < characters.count, characters[end].isLetter || characters[end].isNumber || characters[end] == "_" { end += 1 }
            guard end > start, end < characters.count, characters[end] == ":" else { continue }
            let label = String(characters[start..<end])
            guard isDropped(label, callee(before: scan.openings.last ?? 0, in: characters)) else { continue }
            // The argument runs to the next `,` or `)` at this depth.
            var inner = Scan()
            inner.brackets = scan.brackets
            let depth = scan.brackets.count
            end += 1
            while end < characters.count {
                let next = characters[end]
                if !inner.inString, inner.brackets.count == depth, next == "," || next == ")" { break }
                _ = inner.step(next)
                end += 1
            }
            guard end < characters.count else { continue }
            if character == "," {
                // `, scheduler: x` → remove from the comma.
                removals.append((index - 1)..<end)
            } else if characters[end] == "," {
                // `(scheduler: x, y)` → remove through the comma and the spaces after it.
                var through = end + 1
                while through < characters.count, characters[through] == " " { through += 1 }
                removals.append(index..<through)
            } else {
                removals.append(index..<end)
            }
        }
        guard !removals.isEmpty else { return text }
        var result = ""
        var cursor = 0
        for range in removals where range.lowerBound >= cursor {
            result += String(characters[cursor..<range.lowerBound])
            cursor = range.upperBound
        }
        result += String(characters[cursor...])
        return result
    }

    /// The dotted name before the bracket at `opening`: `Timer.publish`, `typing.debounce`.
    private static func callee(before opening: Int, in characters: [Character]) -> String {
        var start = opening
        while start > 0, characters[start - 1].isLetter || characters[start - 1].isNumber || characters[start - 1] == "_" || characters[start - 1] == "." {
            start -= 1
        }
        var name = String(characters[start..<opening])
        while name.hasPrefix(".") { name.removeFirst() }
        return name
    }

    /// Splits `text` into lines of at most `width` cells: first before each top-level `.`
    /// of a chain, then at spaces, continuation lines indented by two.
    static func lines(_ text: String, width: Int) -> [String] {
        guard TextMetrics.units(text) > width else { return [text] }
        let pieces = steps(text)
        // Join short chain pieces back together while they fit.
        var joined: [String] = []
        for piece in pieces {
            if let last = joined.last, TextMetrics.units(last + piece) <= width {
                joined[joined.count - 1] = last + piece
            } else {
                joined.append(piece)
            }
        }
        var result: [String] = []
        for (index, piece) in joined.enumerated() {
            let indent = index == 0 ? "" : "  "
            result += wrapped(indent + piece, width: width, continuation: "    ")
        }
        return result
    }

    /// A chain cut before each top-level `.`: `a.map { $0 }.filter(f)` → `a`, `.map { $0 }`, `.filter(f)`.
    static func steps(_ text: String) -> [String] {
        var pieces: [String] = []
        var current = ""
        var scan = Scan()
        var previous: Character = " "
        let characters = Array(text)
        for (offset, character) in characters.enumerated() {
            let isCode = scan.step(character)
            let next: Character? = offset + 1 < characters.count ? characters[offset + 1] : nil
            if isCode, character == ".", scan.brackets.isEmpty, !current.isEmpty, previous == ")" || previous == "}" || previous.isLetter || previous == "_",
               let next, next.isLetter {
                pieces.append(current)
                current = ""
            }
            current.append(character)
            previous = character
        }
        if !current.isEmpty { pieces.append(current) }
        return pieces
    }

    /// Word-wraps one line at spaces; a word longer than the width stays whole.
    private static func wrapped(_ line: String, width: Int, continuation: String) -> [String] {
        guard TextMetrics.units(line) > width else { return [line] }
        let leading = String(line.prefix { $0 == " " })
        let words = line.dropFirst(leading.count).split(separator: " ", omittingEmptySubsequences: false)
        var result: [String] = []
        var current = leading
        for word in words {
            let candidate = current == leading || current == continuation ? current + word : current + " " + word
            if TextMetrics.units(candidate) > width, current != leading, current != continuation {
                result.append(current)
                current = continuation + word
            } else {
                current = candidate
            }
        }
        result.append(current)
        return result
    }
}
