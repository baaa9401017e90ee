import Foundation
import MarbleSyntax

/// `String(format:_:…)` and `String(repeating:count:)`. The format is read here, one
/// conversion at a time, so that a mismatched argument is a reported error with its place —
/// Foundation's `String(format:)` reads an argument of the wrong kind as raw memory.
enum StringFormat {
    /// The result of `String(format:…)`/`String(repeating:count:)`; nil for any other call.
    static func call(_ name: String, _ args: [CallArgument], at location: SourceLocation, interpreter: Interpreter) throws(EvalError) -> Runtime? {
        guard name == "String", let label = args.first?.label, label == "format" || label == "repeating" else { return nil }
        let values = try args.map { (arg) throws(EvalError) -> Value in try interpreter.valueOf(arg.value, at: arg.location, purpose: "an argument of String(\(label):)") }
        if label == "repeating" {
            guard args.count == 2, args[1].label == "count", case .string(let text) = values[0], case .int(let count) = values[1] else {
                throw interpreter.fail("String(repeating:count:) takes a String and an Int", at: location)
            }
            guard count >= 0 else { throw interpreter.fail("String(repeating:count:) needs a count of at least 0, not \(count)", at: args[1].location) }
            guard text.utf8.count.multipliedReportingOverflow(by: count).partialValue <= ValueSize.maximum else {
                throw .fault(ValueSize.limit("value too large: String(repeating:count:) of \(count) copies", at: location))
            }
            return .value(.string(String(repeating: text, count: count)))
        }
        guard case .string(let format) = values[0] else {
            throw interpreter.fail("String(format:) needs a format String, not \(values[0].typeName)", at: args[0].location)
        }
        return .value(.string(try render(format, Array(values.dropFirst()), arguments: Array(args.dropFirst()), at: args[0].location, interpreter: interpreter)))
    }

    /// `%d %i %u %x %X %o` (Int), `%f %e %g` and capitals (Double, an Int converted), `%@ %s`
    /// (any value's description), `%%`; with flags, width and precision (`%05.2f`, `%-8@`).
    static func render(_ format: String, _ values: [Value], arguments: [CallArgument], at location: SourceLocation,
                       interpreter: Interpreter) throws(EvalError) -> String {
        var out = ""
        var next = 0
        var characters = Array(format)[...]
        while let c = characters.popFirst() {
            guard c == "%" else { out.append(c); continue }
            var spec = "%"
            while let d = characters.first, "-+ #0123456789.".contains(d) { spec.append(d); characters.removeFirst() }
            while let d = characters.first, "lhqzjt".contains(d) { characters.removeFirst() }
            guard let conversion = characters.popFirst() else {
                throw interpreter.fail("String(format:) ends inside a conversion: '\(spec)'", at: location)
            }
            if conversion == "%" { out.append("%"); continue }
            guard next < values.count else {
                throw interpreter.fail("String(format:) has more conversions than arguments: nothing for '\(spec)\(conversion)'", at: location)
            }
            let value = values[next]
            let place = arguments[next].location
            next += 1
            // Foundation builds whatever width or precision it is asked for (and traps past
            // Int32): a conversion may ask for no more than a value may hold.
            let size = Self.size(of: spec)
            guard size.width <= ValueSize.maximum, size.precision <= ValueSize.maximum else {
                var diagnostic = ValueSize.limit("value too large: '\(spec)\(conversion)' in String(format:) asks for more than \(ValueSize.maximum) characters (the limit)",
                                                 at: location)
                diagnostic.hint = "a width or a precision takes a few digits: %8d, %.2f"
                throw .fault(diagnostic)
            }
            switch conversion {
            case "d", "i", "u", "x", "X", "o":
                guard case .int(let n) = value else {
                    throw interpreter.fail("'\(spec)\(conversion)' in String(format:) needs an Int, not \(value.typeName) (\(value.literal))", at: place)
                }
                out += String(format: spec + "l" + String(conversion), n)
            case "f", "F", "e", "E", "g", "G":
                let number: Double
                switch value {
                case .double(let d): number = d
                case .int(let n): number = Double(n)
                default: throw interpreter.fail("'\(spec)\(conversion)' in String(format:) needs a Double, not \(value.typeName) (\(value.literal))", at: place)
                }
                out += String(format: spec + String(conversion), number)
            case "@", "s":
                out += padded(value.text, spec: spec)
            default:
                throw interpreter.fail("String(format:) does not know the conversion '%\(conversion)'", at: location,
                                       hint: "use %d for an Int, %f (or %.2f) for a Double, %@ for any value")
            }
        }
        return out
    }

    /// `%-8@`, `%8@`: a description padded to a width (a precision, `%8.3@`, changes nothing).
    private static func padded(_ text: String, spec: String) -> String {
        let width = size(of: spec).width
        guard text.count < width else { return text }
        let padding = String(repeating: " ", count: width - text.count)
        return spec.dropFirst().hasPrefix("-") ? text + padding : padding + text
    }

    /// The width and precision a conversion's spec asks for (`%-08.3`: 8 and 3; 0 when not
    /// given; `Int.max` for one too long to count).
    static func size(of spec: String) -> (width: Int, precision: Int) {
        var characters = spec.dropFirst()[...]
        while let flag = characters.first, "-+ #0".contains(flag) { characters.removeFirst() }
        func number() -> Int {
            var value = 0
            while let digit = characters.first?.wholeNumberValue, characters.first?.isASCII == true {
                characters.removeFirst()
                let (shifted, overflow) = value.multipliedReportingOverflow(by: 10)
                value = overflow || shifted > Int.max - digit ? .max : shifted + digit
            }
            return value
        }
        let width = number()
        guard characters.first == "." else { return (width, 0) }
        characters.removeFirst()
        return (width, number())
    }
}
