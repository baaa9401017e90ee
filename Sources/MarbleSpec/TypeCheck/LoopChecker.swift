import MarbleSyntax

/// Checks loops and pattern bindings (`Interpreter`'s Loops.swift) before anything runs: the
/// sequence of a `for` must be one (an array, a range, a `stride`, a dictionary, a string), its
/// pattern must fit the elements, `where` and `while` conditions must be `Bool`s, and the pattern
/// of `let (a, b) = …` must always match.
extension ExpressionChecker {
    func checkLoopStatement(_ statement: ClosureStatement, in env: TypeEnvironment) {
        switch statement {
        case .forIn(let loop):
            let element = elementType(of: loop.sequence, in: env)
            let scope = TypeEnvironment(parent: env)
            checkPattern(loop.pattern, against: element, in: scope)
            if !loop.isCasePattern, !Self.isIrrefutable(loop.pattern) {
                error("this pattern can fail to match an element", at: loop.pattern.location,
                      hint: "write 'for case PATTERN in …' to loop over the elements that match")
            }
            if let whereClause = loop.whereClause { condition(whereClause, in: scope) }
            _ = checkBody(loop.body, in: TypeEnvironment(parent: scope))
        case .whileLoop(let loop):
            let scope = TypeEnvironment(parent: env)
            if loop.isRepeat {
                // The body runs first; the condition cannot see its names.
                _ = checkBody(loop.body, in: scope)
                checkConditions(loop.conditions, in: TypeEnvironment(parent: env))
            } else {
                checkConditions(loop.conditions, in: scope)
                _ = checkBody(loop.body, in: TypeEnvironment(parent: scope))
            }
        case .patternBinding(let binding):
            let type = valueType(check(binding.value, in: env), at: binding.value.location, purpose: "the value bound")
            checkPattern(binding.pattern, against: type, in: env)
            if !Self.isIrrefutable(binding.pattern) {
                error("this pattern can fail to match", at: binding.pattern.location,
                      hint: "test it with 'if case PATTERN = value' or 'guard case PATTERN = value … else { … }'")
            }
            if binding.isVariable {
                for name in binding.pattern.boundNames { env.declareVariable(name, env[name] ?? .unknown) }
            }
        default:
            break
        }
    }

    /// The type of the elements a `for` loop over `sequence` gets (reported when it is no sequence).
    func elementType(of sequence: Expr, in env: TypeEnvironment) -> SpecType {
        let type = valueType(check(sequence, in: env), at: sequence.location, purpose: "the sequence of a 'for' loop")
        return elementType(ofSequence: type, at: sequence.location) ?? .any
    }

    /// The elements of a sequence type; nil (reported) for a type that is not a sequence.
    func elementType(ofSequence type: SpecType, at location: SourceLocation) -> SpecType? {
        switch store.resolve(type) {
        case .array(let element): return element
        case .dictionary(let key, let value): return .tuple([key, value])
        case .string: return .character
        case .set(let element): return element
        case .any, .never, .variable: return .any
        case .optional(let wrapped) where store.resolve(wrapped) != .never:
            error("for-in loop requires '\(name(type))' to conform to 'Sequence'; did you mean to unwrap optional?", at: location,
                  hint: "loop over its value or nothing: for x in items ?? [] { … }")
            return nil
        case let other:
            error("for-in loop requires '\(name(other))' to conform to 'Sequence'", at: location,
                  hint: "loop over an array, a range (0..<n), stride(from:to:by:), a dictionary or a string")
            return nil
        }
    }

    /// `stride(from:to:by:)` / `stride(from:through:by:)`: an array of Ints or of Doubles.
    func strideType(_ args: [TypedArgument], at location: SourceLocation) -> Checked {
        let labels = args.map(\.label)
        guard labels == ["from", "to", "by"] || labels == ["from", "through", "by"] else {
            return error("stride takes (from:to:by:) or (from:through:by:)", at: location, length: 6,
                         hint: "stride(from: 0, to: 10, by: 2) stops before 10; stride(from: 0, through: 10, by: 2) includes it")
        }
        var types: [SpecType] = []
        for arg in args {
            let type = store.deepResolve(valueType(arg.checked, at: arg.location, purpose: "an argument of stride"))
            switch type {
            case .int, .double, .any, .never, .variable: types.append(type)
            default: return error("cannot convert value of type '\(name(type))' to expected argument type 'Int'", at: arg.location)
            }
        }
        // A number literal takes the others' type, as in Swift: stride(from: 0, to: 1.0, by: 0.25) is Doubles.
        let kind: SpecType = types.contains(.double) ? .double : .int
        for (arg, type) in zip(args, types) {
            if case .variable(let index) = type { store.bind(index, to: kind) }
            if kind == .double, type == .int, !arg.syntax.isNumberLiteral {
                return error("stride needs three Ints or three Doubles, not a mix", at: arg.syntax.location,
                             hint: "convert the Int: Double(n)")
            }
        }
        return .value(.array(kind == .never ? .int : kind))
    }
}
