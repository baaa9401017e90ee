/// The one escaper for text written into XML and HTML: SVG diagrams, the JUnit report and the
/// diagram gallery.
public enum XMLText {
    /// Where the text goes: element content, or a double-quoted attribute value.
    public enum Context: Sendable {
        case content, attribute
    }

    /// Escapes `text` for `context`:
    /// - `&`, `<`, `>`, `"` and `'` become references everywhere (so the same function serves
    ///   single- and double-quoted attributes, and HTML as well as XML);
    /// - tab, line feed and carriage return are kept in content, and written as references in
    ///   attributes, where a parser would otherwise normalise them to spaces (XML 1.0 §3.3.3);
    /// - what XML 1.0 cannot hold at all (other C0 controls, lone surrogates, U+FFFE, U+FFFF)
    ///   is written as a visible `\u{…}`, so that the output always parses and says what was there.
    public static func escape(_ text: String, in context: Context = .content) -> String {
        var output = ""
        output.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": output += "&amp;"
            case "<": output += "&lt;"
            case ">": output += "&gt;"
            case "\"": output += "&quot;"
            case "'": output += "&#39;"
            case "\t", "\n", "\r":
                if context == .attribute {
                    output += "&#\(scalar.value);"
                } else {
                    output.unicodeScalars.append(scalar)
                }
            default:
                let value = scalar.value
                if value < 0x20 || (0xD800...0xDFFF).contains(value) || value == 0xFFFE || value == 0xFFFF {
                    output += "\\u{\(String(value, radix: 16))}"
                } else {
                    output.unicodeScalars.append(scalar)
                }
            }
        }
        return output
    }
}
