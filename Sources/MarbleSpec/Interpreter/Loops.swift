import MarbleSyntax

/// Running loops and pattern bindings in closure bodies: `for … in … where …` over arrays, ranges,
/// `stride`, dictionaries, strings and sets; `while` and `repeat … while`; `break`, `continue`;
/// `let (a, b) = pair`.
///
/// Every round of a loop counts against the work one frame may do, as a closure call does
/// (`countWork`), so a loop that never ends stops the run with an error at the loop instead of
/// hanging it. A range or a `stride` written as the sequence is walked without building its
/// elements, so `for i in 0..<n` costs what its rounds do.
///
/// A dictionary is walked in the order of its keys (the order `keys` and printing use): Swift's
/// order is unspecified and changes from run to run, and a run must give the same result every time.
extension Interpreter {
    /// Runs a loop, a `break` or `continue`, or a pattern binding.
    func executeLoopStatement(_ statement: ClosureStatement, in env: Environment) throws(EvalError) {
        switch statement {
        case .forIn(let loop):
            try forEachElement(of: loop, in: env) { (element) throws(EvalError) -> Bool in
                try countWork(at: loop.location, hint: Self.loopHint)
                let scope = Environment(parent: env)
                guard try matches(loop.pattern, element, binding: scope) else {
                    if loop.isCasePattern { return true }
                    throw fail("the pattern of this 'for' loop does not match \(element.literal)", at: loop.pattern.location)
                }
                if let whereClause = loop.whereClause, try !condition(whereClause, in: scope) { return true }
                return try runRound(loop.body, in: scope)
            }
        case .whileLoop(let loop):
            var first = true
            while true {
                try countWork(at: loop.location, hint: Self.loopHint)
                let scope = Environment(parent: env)
                if !(loop.isRepeat && first) {
                    guard try holds(loop.conditions, in: scope) else { return }
                }
                first = false
                guard try runRound(loop.body, in: scope) else { return }
            }
        case .breakStatement:
            throw .jump(.breaking)
        case .continueStatement:
            throw .jump(.continuing)
        case .patternBinding(let binding):
            let value = try valueOf(evaluate(binding.value, in: env), at: binding.value.location, purpose: "the value bound")
            // The checker allows only patterns that always match; over `Any` values one may not.
            guard try matches(binding.pattern, value, binding: env) else {
                throw fail("the pattern does not match \(value.literal)", at: binding.pattern.location,
                           hint: "test it first with 'if case PATTERN = value' or 'guard case PATTERN = value'")
            }
        default:
            break
        }
    }

    static let loopHint = "a loop that runs this often at one frame cannot finish: check that its condition turns false, or leave it with 'break'"

    /// One round of a loop's body; false when a `break` ended the loop.
    private func runRound(_ body: [ClosureStatement], in scope: Environment) throws(EvalError) -> Bool {
        do throws(EvalError) {
            _ = try execute(body, in: scope)
        } catch .jump(let jump) {
            return jump == .continuing
        }
        return true
    }

    /// Calls `body` with each element of the loop's sequence until it returns false.
    private func forEachElement(of loop: ForInStatement, in env: Environment, _ body: (Value) throws(EvalError) -> Bool) throws(EvalError) {
        if let bounds = try rangeBounds(loop.sequence, in: env) {
            guard bounds.lower <= bounds.upper || (!bounds.closed && bounds.lower == bounds.upper) else {
                throw fail("range requires lowerBound <= upperBound (\(bounds.lower)\(bounds.closed ? "..." : "..<")\(bounds.upper))", at: loop.sequence.location)
            }
            if bounds.closed {
                for index in bounds.lower...bounds.upper { guard try body(.int(index)) else { return } }
            } else {
                for index in bounds.lower..<bounds.upper { guard try body(.int(index)) else { return } }
            }
            return
        }
        if let stride = try strideArguments(loop.sequence, in: env) {
            try walk(stride, body)
            return
        }
        let sequence = try valueOf(evaluate(loop.sequence, in: env), at: loop.sequence.location, purpose: "the sequence of a 'for' loop")
        for element in try elements(of: sequence, at: loop.sequence.location) {
            guard try body(element) else { return }
        }
    }

    /// The elements of a value as a `for` loop (and `Array(_:)`) walks them.
    func elements(of sequence: Value, at location: SourceLocation) throws(EvalError) -> [Value] {
        switch sequence {
        case .array(let items): return items
        case .dictionary(let dictionary): return dictionary.orderedEntries.map { .tuple([$0.key, $0.value]) }
        case .string(let text): return text.map { .string(String($0)) }
        case .record(let instance) where instance.isSet: return instance.values
        case .null:
            throw fail("unexpectedly found nil where a 'for' loop needs a sequence", at: location, hint: "unwrap it first: for x in items ?? [] { … }")
        default:
            throw fail("for-in loop requires a sequence, not \(sequence.typeName) (\(sequence.literal))", at: location)
        }
    }

    /// `a..<b` or `a...b` over Ints, written as the sequence: its bounds (nil for anything else).
    private func rangeBounds(_ expr: Expr, in env: Environment) throws(EvalError) -> (lower: Int, upper: Int, closed: Bool)? {
        guard case .binary(let op, let lowerExpr, let upperExpr) = expr.kind, op == "..<" || op == "..." else { return nil }
        let lower = try valueOf(evaluate(lowerExpr, in: env), at: lowerExpr.location, purpose: "a range bound")
        let upper = try valueOf(evaluate(upperExpr, in: env), at: upperExpr.location, purpose: "a range bound")
        guard case .int(let low) = lower, case .int(let high) = upper else {
            throw fail("a range to loop over needs Int bounds, not \(lower.typeName) and \(upper.typeName)", at: expr.location,
                       hint: "for Doubles, write stride(from: 0.0, to: 1.0, by: 0.25)")
        }
        return (low, high, op == "...")
    }

    /// `stride(from:to:by:)` or `stride(from:through:by:)`, written as the sequence.
    struct StrideArguments {
        var from: Value
        var end: Value
        var by: Value
        var through: Bool
        var location: SourceLocation

        /// From the three arguments' values; an Int literal among Doubles is a Double, as Swift types it.
        init(_ values: [Value], literals: [Bool], through: Bool, location: SourceLocation) {
            var values = values
            if values.contains(where: { if case .double = $0 { true } else { false } }) {
                for index in values.indices where literals[index] {
                    if case .int(let n) = values[index] { values[index] = .double(Double(n)) }
                }
            }
            (from, end, by) = (values[0], values[1], values[2])
            self.through = through
            self.location = location
        }
    }

    /// The arguments of a `stride` call (nil for any other expression).
    func strideArguments(_ expr: Expr, in env: Environment) throws(EvalError) -> StrideArguments? {
        guard case .call(let callee, let arguments) = expr.kind, case .identifier("stride") = callee.kind, env["stride"] == nil else { return nil }
        let labels = arguments.map(\.label)
        guard labels == ["from", "to", "by"] || labels == ["from", "through", "by"] else {
            throw fail("stride takes (from:to:by:) or (from:through:by:)", at: expr.location)
        }
        var values: [Value] = []
        for argument in arguments {
            values.append(try valueOf(evaluate(argument.value, in: env), at: argument.value.location, purpose: "an argument of stride"))
        }
        return StrideArguments(values, literals: arguments.map(\.value.isNumberLiteral), through: labels[1] == "through", location: callee.location)
    }

    /// Calls `body` with each element of a stride until it returns false. Swift's own `stride`
    /// gives the elements (a Double stride multiplies the step rather than adding it up).
    func walk(_ stride: StrideArguments, _ body: (Value) throws(EvalError) -> Bool) throws(EvalError) {
        switch (stride.from, stride.end, stride.by) {
        case (.int(let from), .int(let end), .int(let step)):
            guard step != 0 else { throw fail("stride size must not be zero", at: stride.location) }
            if stride.through {
                for value in Swift.stride(from: from, through: end, by: step) { guard try body(.int(value)) else { return } }
            } else {
                for value in Swift.stride(from: from, to: end, by: step) { guard try body(.int(value)) else { return } }
            }
        case (.double(let from), .double(let end), .double(let step)):
            guard step != 0, step.isFinite else { throw fail("stride size must be a finite number other than zero", at: stride.location) }
            if stride.through {
                for value in Swift.stride(from: from, through: end, by: step) { guard try body(.double(value)) else { return } }
            } else {
                for value in Swift.stride(from: from, to: end, by: step) { guard try body(.double(value)) else { return } }
            }
        default:
            throw fail("stride needs three Ints or three Doubles, not \(stride.from.typeName), \(stride.end.typeName) and \(stride.by.typeName)",
                       at: stride.location, hint: "write the literals alike: stride(from: 0.0, to: 1.0, by: 0.25)")
        }
    }

    /// A stride as an array (outside a `for` loop), as long as a range may be.
    func strideArray(_ stride: StrideArguments) throws(EvalError) -> Value {
        var items: [Value] = []
        try walk(stride) { (value) throws(EvalError) -> Bool in
            guard items.count < Self.largestRange else {
                throw fail("the stride is too large (more than \(Self.largestRange) elements)", at: stride.location, hint: "loop over it with for … in instead")
            }
            items.append(value)
            return true
        }
        return .array(items)
    }

    /// The most elements a range or a stride may make as an array (a loop walks them without one).
    static let largestRange = 100_000
}
