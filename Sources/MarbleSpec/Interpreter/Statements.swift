import MarbleSyntax

/// Running the statements and expressions of closure bodies beyond `let`, `return` and a
/// Boolean `if`: `var` and assignment, `guard`, `if let`/`if case`, `switch` and its patterns,
/// dictionaries, subscripts, `!` and optional chaining.
///
/// A `var` lives in the scope of the call that declared it, as in Swift: one declared in an
/// operator's closure starts afresh at every value; one declared in a closure that runs once per
/// subscription (`Deferred { var attempts = 0; return … }`) and captured by the closures it
/// builds is state of that subscription.
extension Interpreter {
    /// Dictionary literals and `switch` (subscripts, `!` and `?` are links of chains: `evaluateChain`).
    func evaluateStatementKind(_ expr: Expr, in env: Environment) throws(EvalError) -> Runtime {
        switch expr.kind {
        case .dictionary(let entries):
            // `[String: Int]` before `()`: the type.
            if entries.count == 1, case .identifier = entries[0].key.kind, case .identifier = entries[0].value.kind,
               case .type(let key) = try evaluate(entries[0].key, in: env), case .type(let value) = try evaluate(entries[0].value, in: env) {
                return .type("[\(key): \(value)]")
            }
            var dictionary: [Value: Value] = [:]
            for entry in entries {
                let key = try valueOf(evaluate(entry.key, in: env), at: entry.key.location, purpose: "a dictionary key")
                guard dictionary[key] == nil else {
                    throw fail("dictionary literal has the key \(key.literal) twice", at: entry.key.location)
                }
                dictionary[key] = try valueOf(evaluate(entry.value, in: env), at: entry.value.location, purpose: "a dictionary value")
            }
            return .value(.dictionary(DictionaryValue(dictionary)))
        case .switchExpression(let switchExpression):
            return try evaluateSwitch(switchExpression, in: env)
        default:
            throw fail("internal error: not a statement expression", at: expr.location)
        }
    }

    /// `container[key]`: an array's element (out of range is a runtime error, as in Swift), a
    /// dictionary's value or nil.
    func element(of container: Value, at key: Value, location: SourceLocation) throws(EvalError) -> Value {
        switch (container, key) {
        case (.array(let items), .int(let index)):
            guard items.indices.contains(index) else {
                throw fail("index out of range: \(index) in an array of \(items.count) element\(items.count == 1 ? "" : "s")", at: location)
            }
            return items[index]
        case (.dictionary(let dictionary), _):
            return dictionary.entries[key] ?? .null
        case (.null, _):
            throw fail("unexpectedly found nil while subscripting an Optional value", at: location,
                       hint: "unwrap it first with 'if let' or '?': value?[index]")
        default:
            throw fail("cannot subscript a value of type \(container.typeName) with \(key.typeName) (\(key.literal))", at: location)
        }
    }

    // MARK: Statements

    /// Runs a `var`, an assignment or a `guard`.
    func executeStatementKind(_ statement: ClosureStatement, in env: Environment) throws(EvalError) {
        switch statement {
        case .variable(let name, let expr, _):
            env[name] = try evaluate(expr, in: env)
        case .assignment(let assignment):
            try assign(assignment, in: env)
        case .guardStatement(let guardStatement):
            // The conditions bind into the guard's own scope: its names are seen after it.
            if try holds(guardStatement.conditions, in: env) { return }
            _ = try execute(guardStatement.elseBody, in: Environment(parent: env))
            throw fail("'guard' body fell through", at: guardStatement.location)
        default:
            break
        }
    }

    // MARK: Conditions

    /// Whether every condition holds, tried in order; the names they bind go into `env`.
    func holds(_ conditions: [ConditionClause], in env: Environment) throws(EvalError) -> Bool {
        for clause in conditions {
            switch clause {
            case .boolean(let expr):
                guard try condition(expr, in: env) else { return false }
            case .optionalBinding(let name, let expr, _):
                let value = try evaluate(expr, in: env)
                if case .value(.null) = value { return false }
                env[name] = value
            case .patternMatch(let pattern, let expr):
                let value = try valueOf(evaluate(expr, in: env), at: expr.location, purpose: "the value matched")
                guard try matches(pattern, value, binding: env) else { return false }
            }
        }
        return true
    }

    // MARK: switch

    private func evaluateSwitch(_ switchExpression: SwitchExpression, in env: Environment) throws(EvalError) -> Runtime {
        let subject = try valueOf(evaluate(switchExpression.subject, in: env), at: switchExpression.subject.location, purpose: "the value switched on")
        for switchCase in switchExpression.cases {
            if switchCase.isDefault { return try runCase(switchCase.body, in: Environment(parent: env)) }
            for item in switchCase.items {
                // A fresh scope per pattern: one that fails halfway leaves no names behind.
                let scope = Environment(parent: env)
                guard try matches(item.pattern, subject, binding: scope) else { continue }
                if let guardExpression = item.guardExpression, try !condition(guardExpression, in: scope) { continue }
                return try runCase(switchCase.body, in: scope)
            }
        }
        // The checker refuses a switch it can see is not exhaustive; this is one over values of
        // a type it could not know.
        throw fail("no case of the switch matches \(subject.literal)", at: switchExpression.location, hint: "add a 'default:' case")
    }

    /// A case's body; a `break` in it leaves the switch (a `continue` goes on to its loop).
    private func runCase(_ body: [ClosureStatement], in scope: Environment) throws(EvalError) -> Runtime {
        do throws(EvalError) {
            return try execute(body, in: scope) ?? .value(.tuple([]))
        } catch .jump(.breaking) {
            return .value(.tuple([]))
        }
    }

    /// Whether `value` matches `pattern`; the names it binds go into `env`.
    func matches(_ pattern: Pattern, _ value: Value, binding env: Environment) throws(EvalError) -> Bool {
        switch pattern {
        case .wildcard:
            return true
        case .binding(let name, _):
            env[name] = .value(value)
            return true
        case .optional(let inner):
            guard value != .null else { return false }
            return try matches(inner, value, binding: env)
        case .tuple(let patterns, _):
            guard case .tuple(let items) = value, items.count == patterns.count else { return false }
            for (inner, item) in zip(patterns, items) {
                guard try matches(inner, item, binding: env) else { return false }
            }
            return true
        case .enumCase(_, "some", let payload, _):
            guard value != .null else { return false }
            guard let payload, payload.count == 1 else { return true }
            return try matches(payload[0], value, binding: env)
        case .enumCase(_, "none", nil, _):
            return value == .null
        case .enumCase(let type, let name, let payload, _):
            // `Result`'s cases and the file's enums' (`case .loaded(let items)`).
            guard case .record(let instance) = value, instance.caseName == name, type == nil || types.canonicalName(type ?? "") ?? type == instance.type else { return false }
            guard let payload else { return true }
            if payload.count == 1, instance.values.count > 1 {
                return try matches(payload[0], .tuple(instance.values), binding: env)
            }
            guard payload.count == instance.values.count else { return false }
            for (inner, item) in zip(payload, instance.values) {
                guard try matches(inner, item, binding: env) else { return false }
            }
            return true
        case .expression(let expr):
            return try matches(expression: expr, value, in: env)
        case .isType(let type):
            return matches(value, type.text)
        case .cast(let inner, let type):
            guard matches(value, type.text) else { return false }
            return try matches(inner, value, binding: env)
        }
    }

    /// Swift's `~=`: a range holds the value; anything else equals it.
    private func matches(expression expr: Expr, _ value: Value, in env: Environment) throws(EvalError) -> Bool {
        if case .binary(let op, let lower, let upper) = expr.kind, op == "..." || op == "..<" {
            let low = try valueOf(evaluate(lower, in: env), at: lower.location, purpose: "a range bound")
            let high = try valueOf(evaluate(upper, in: env), at: upper.location, purpose: "a range bound")
            // Swift traps on forming a range whose bounds are out of order (`case 1..<Int.min:`).
            if try Arithmetic.compare(low, high, op: op, at: expr.location) > 0 {
                throw EvalError.fault(SpecDiagnostic("range requires lowerBound <= upperBound (\(low.literal)\(op)\(high.literal))", at: expr.location))
            }
            let above = try Arithmetic.binary(">=", value, low, leftIsLiteral: false, rightIsLiteral: lower.isNumberLiteral, at: expr.location)
            let below = try Arithmetic.binary(op == "..." ? "<=" : "<", value, high, leftIsLiteral: false, rightIsLiteral: upper.isNumberLiteral, at: expr.location)
            return above == .bool(true) && below == .bool(true)
        }
        let expected = try valueOf(evaluate(expr, in: env), at: expr.location, purpose: "a pattern")
        // Values of different kinds never match (an `Any` line holding letters and digits); a
        // number literal matches an Int or a Double, as Swift types it from the value.
        switch (value, expected) {
        case (.int, .int), (.double, .double), (.string, .string), (.bool, .bool), (.double, .int): break
        default: return value == expected
        }
        return try Arithmetic.binary("==", value, expected, leftIsLiteral: false, rightIsLiteral: expr.isNumberLiteral, at: expr.location) == .bool(true)
    }
}
