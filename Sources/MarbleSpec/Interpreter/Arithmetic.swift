import MarbleSyntax

/// Swift's arithmetic, comparison and logic on dynamic values. Int arithmetic that would trap
/// in Swift (overflow, division by zero) is reported as an error instead.
enum Arithmetic {
    static func unary(_ op: String, _ value: Value, at location: SourceLocation) throws(EvalError) -> Value {
        switch (op, value) {
        case ("-", .int(let x)):
            guard x != .min else { throw overflow("-", "\(x)", at: location) }
            return .int(-x)
        case ("-", .double(let x)): return .double(-x)
        case ("+", .int), ("+", .double): return value
        case ("!", .bool(let x)): return .bool(!x)
        default:
            throw EvalError.fault(SpecDiagnostic("unary operator '\(op)' cannot be applied to \(value.typeName) (\(value.literal))", at: location))
        }
    }

    static func binary(_ op: String, _ lhs: Value, _ rhs: Value, leftIsLiteral: Bool, rightIsLiteral: Bool, at location: SourceLocation) throws(EvalError) -> Value {
        var lhs = lhs
        var rhs = rhs
        // A number literal takes its type from the other operand, as in Swift (`$0 * 2` on a Double).
        if case .int(let x) = lhs, case .double = rhs, leftIsLiteral { lhs = .double(Double(x)) }
        if case .double = lhs, case .int(let y) = rhs, rightIsLiteral { rhs = .double(Double(y)) }

        switch op {
        case "==": return .bool(try equal(lhs, rhs, op: op, at: location))
        case "!=": return .bool(try !equal(lhs, rhs, op: op, at: location))
        case "<", "<=", ">", ">=":
            let order = try compare(lhs, rhs, op: op, at: location)
            switch op {
            case "<": return .bool(order < 0)
            case "<=": return .bool(order <= 0)
            case ">": return .bool(order > 0)
            default: return .bool(order >= 0)
            }
        case "...", "..<":
            guard case .int(let low) = lhs, case .int(let high) = rhs else { break }
            // Both forms need low <= high (Swift traps otherwise, `1..<Int.min` included); then
            // high - low is the count of `..<`, one less than that of `...`, and cannot wrap
            // unless the range is enormous.
            guard low <= high else {
                throw EvalError.fault(SpecDiagnostic("range requires lowerBound <= upperBound (\(low)\(op)\(high))", at: location))
            }
            // A range is an array of its Ints; keep it small enough to build.
            let (span, overflow) = high.subtractingReportingOverflow(low)
            guard !overflow, span - (op == "..." ? 0 : 1) < 100_000 else {
                throw EvalError.fault(SpecDiagnostic("the range \(low)\(op)\(high) is too large (more than 100000 elements)", at: location))
            }
            return .array((op == "..." ? Array(low...high) : Array(low..<high)).map(Value.int))
        default: break
        }

        switch (lhs, rhs) {
        case (.int(let x), .int(let y)):
            return .int(try intArithmetic(op, x, y, at: location))
        case (.double(let x), .double(let y)):
            switch op {
            case "+": return .double(x + y)
            case "-": return .double(x - y)
            case "*": return .double(x * y)
            case "/": return .double(x / y)
            case "%":
                throw EvalError.fault(SpecDiagnostic("'%' is unavailable for Double", at: location, hint: "use x.truncatingRemainder(dividingBy: y)"))
            default: break
            }
        case (.string(let x), .string(let y)) where op == "+":
            // Checked before joining: a doubling string would exhaust memory building the result.
            guard x.utf8.count + y.utf8.count <= ValueSize.maximum else {
                throw tooLarge("a string of \(x.utf8.count + y.utf8.count) bytes", at: location)
            }
            return .string(x + y)
        case (.array(let x), .array(let y)) where op == "+":
            guard x.count + y.count <= ValueSize.maximum else {
                throw tooLarge("an array of \(x.count + y.count) elements", at: location)
            }
            return .array(x + y)
        default: break
        }
        throw mismatch(op, lhs, rhs, at: location)
    }

    private static func intArithmetic(_ op: String, _ x: Int, _ y: Int, at location: SourceLocation) throws(EvalError) -> Int {
        let result: (partialValue: Int, overflow: Bool)
        switch op {
        case "+": result = x.addingReportingOverflow(y)
        case "-": result = x.subtractingReportingOverflow(y)
        case "*": result = x.multipliedReportingOverflow(by: y)
        case "/", "%":
            guard y != 0 else {
                throw EvalError.fault(SpecDiagnostic("division by zero in \(x) \(op) \(y)", at: location))
            }
            result = op == "/" ? x.dividedReportingOverflow(by: y) : x.remainderReportingOverflow(dividingBy: y)
        default:
            throw EvalError.fault(SpecDiagnostic("binary operator '\(op)' cannot be applied to two Int operands", at: location))
        }
        guard !result.overflow else { throw overflow(op, "\(x) \(op) \(y)", at: location) }
        return result.partialValue
    }

    private static func tooLarge(_ what: String, at location: SourceLocation) -> EvalError {
        .fault(ValueSize.limit("value too large: '+' would make \(what) (the limit is \(ValueSize.maximum))", at: location))
    }

    private static func overflow(_ op: String, _ expression: String, at location: SourceLocation) -> EvalError {
        .fault(SpecDiagnostic("arithmetic overflow in \(expression)", at: location, hint: "Int is 64-bit; Swift traps on overflow"))
    }

    private static func mismatch(_ op: String, _ lhs: Value, _ rhs: Value, at location: SourceLocation) -> EvalError {
        .fault(SpecDiagnostic("binary operator '\(op)' cannot be applied to operands of type \(lhs.typeName) and \(rhs.typeName) (\(lhs.literal) \(op) \(rhs.literal))", at: location))
    }

    static func equal(_ lhs: Value, _ rhs: Value, op: String, at location: SourceLocation) throws(EvalError) -> Bool {
        switch (lhs, rhs) {
        case (.null, _), (_, .null): return lhs == rhs
        case (.int, .double), (.double, .int), (.int, .string), (.string, .int), (.double, .string), (.string, .double),
             (.bool, .int), (.int, .bool), (.bool, .string), (.string, .bool), (.bool, .double), (.double, .bool):
            throw mismatch(op, lhs, rhs, at: location)
        default: return lhs == rhs
        }
    }

    /// -1, 0 or 1.
    static func compare(_ lhs: Value, _ rhs: Value, op: String, at location: SourceLocation) throws(EvalError) -> Int {
        switch (lhs, rhs) {
        case (.int(let x), .int(let y)): return x < y ? -1 : x == y ? 0 : 1
        case (.double(let x), .double(let y)): return x < y ? -1 : x == y ? 0 : 1
        case (.string(let x), .string(let y)): return x < y ? -1 : x == y ? 0 : 1
        case (.tuple(let xs), .tuple(let ys)) where xs.count == ys.count:
            for (x, y) in zip(xs, ys) {
                let order = try compare(x, y, op: op, at: location)
                if order != 0 { return order }
            }
            return 0
        default: throw mismatch(op, lhs, rhs, at: location)
        }
    }
}
