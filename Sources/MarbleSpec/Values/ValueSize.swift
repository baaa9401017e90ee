import MarbleSyntax

/// How large one value may grow. Values are built by closures in the file, event after event,
/// and nothing else bounds them: `scan("x") { acc, _ in acc + acc }` doubles a string per event.
/// Printing, comparing and drawing a value walk all of it, and nested arrays that share storage
/// (`[acc, acc]`) are small in memory but exponential to print, so size is counted as printed.
enum ValueSize {
    /// Characters (UTF-8 bytes) of strings plus elements of arrays, tuples, dictionaries (keys and
    /// values) and enum payloads, in one value.
    static let maximum = 1_000_000
    /// Arrays and tuples inside one another (printing and comparing recurse once per level).
    static let maximumNesting = 100

    /// Why `value` is too large, or nil. Stops counting at the limit, so it costs at most
    /// `maximum` steps, and one step for a scalar.
    static func problem(with value: Value) -> String? {
        switch value {
        case .int, .double, .bool, .null, .publisher: return nil
        case .string(let text):
            return text.utf8.count > maximum ? "a string of \(text.utf8.count) bytes (the limit is \(maximum))" : nil
        case .array, .tuple, .dictionary, .record: break
        }
        var size = 0
        var pending: [(value: Value, nesting: Int)] = [(value, 1)]
        while let (popped, nesting) = pending.popLast() {
            // An instance of a declared type counts as the tuple of its values.
            var next = popped
            if case .record(let instance) = popped { next = .tuple(instance.values) }
            switch next {
            case .int, .double, .bool, .null, .publisher: size += 1
            case .string(let text): size += max(1, text.utf8.count)
            case .record: break
            case .array(let items), .tuple(let items):
                guard nesting <= maximumNesting else {
                    return "arrays and tuples nested more than \(maximumNesting) deep"
                }
                size += 1
                for item in items { pending.append((item, nesting + 1)) }
            case .dictionary(let dictionary):
                guard nesting <= maximumNesting else { return "arrays and tuples nested more than \(maximumNesting) deep" }
                size += 1
                for (key, item) in dictionary.entries { pending += [(key, nesting + 1), (item, nesting + 1)] }
            }
            if size > maximum {
                return "more than \(maximum) elements and characters (the limit)"
            }
        }
        return nil
    }

    /// A diagnostic for a value past the limit.
    static func limit(_ message: String, at location: SourceLocation) -> SpecDiagnostic {
        var diagnostic = SpecDiagnostic(message, at: location, hint: "a value that grows with every event (scan { acc, _ in acc + acc }, say) exhausts memory")
        diagnostic.isLimit = true
        return diagnostic
    }

    /// `problem(with:)` as an error at `location`.
    static func check(_ value: Value, at location: SourceLocation) throws(EvalError) -> Value {
        guard let problem = problem(with: value) else { return value }
        throw .fault(limit("value too large: \(problem)", at: location))
    }
}
