import MarbleSyntax

/// One link of a chain as `ExpressionChecker.check(_:in:)` walks it: what is left to do once the
/// link's inner expression (the next one down the spine) has been checked, with what the link
/// checked before it. The input decides how many there are (`a.map { $0 }` 100,000 times), so a
/// walk keeps them in an array rather than on the stack.
enum ChainLink {
    /// `inner.name` (the location is the name's).
    case member(String, at: SourceLocation)
    /// `inner.name(arguments)`: the arguments were checked before the receiver.
    case method(String, at: SourceLocation, [TypedArgument])
    /// `inner(arguments)` for any other callee; `at` is the callee's location.
    case call(at: SourceLocation, [TypedArgument])
    /// `Just<Int>(arguments)`: the callee is the inner expression, its arguments read as the
    /// written types say (`contextualArguments`).
    case specializedCall(callee: Expr, [TypedArgument])
    /// `inner<T>` (the written types are read by the call around it).
    case specialization
    /// `-inner`, `!inner`.
    case unary(String, operand: SourceLocation, at: SourceLocation)
    /// `inner && right`, `inner || right`: both are conditions.
    case conditions(lhs: Expr, rhs: Expr, TypeEnvironment)
    /// `left ?? inner`: the left side's type, checked before the right (the spine, `??` being
    /// right-associative).
    case nilCoalescing(left: SpecType, right: SourceLocation)
    /// `inner OP right` for the other binary operators; `at` is the operator's.
    case binary(String, left: Expr, right: Expr, at: SourceLocation, TypeEnvironment)
    /// `c ? then : inner` and `if c { then } else inner`: what `then` gave, joined with the inner.
    case joined(Checked)
    /// `throw inner`.
    case throwing(SourceLocation, at: SourceLocation)
    /// `inner as T` (`as?`, `as!`).
    case cast(Expr, to: TypeText, mode: CastMode)
    /// `inner[index]`, `inner[index, default: fallback]`; the first location is the base's.
    case subscripting(SourceLocation, index: Expr, default: Expr?, at: SourceLocation, TypeEnvironment)
    /// `inner!`.
    case forceUnwrap(at: SourceLocation)
    /// `inner?` inside an optional chain.
    case bindOptional(at: SourceLocation)
    /// A postfix chain holding a `?`.
    case optionalChain
}

extension ExpressionChecker {
    /// What `link` makes of what its inner expression gave.
    func finish(_ link: ChainLink, inner: Checked) -> Checked {
        switch link {
        case .member(let name, let location):
            return member(name, of: inner, at: location)
        case .method(let name, let location, let args):
            return methodCall(name, on: inner, args, at: location)
        case .call(let location, let args):
            return call(inner, args, at: location)
        case .specializedCall(let callee, let args):
            return applyGenericArguments(call(inner, args, at: callee.location), callee: callee, args)
        case .specialization:
            return inner
        case .unary(let op, let operand, let location):
            return .value(unary(op, valueType(inner, at: operand, purpose: "the operand of '\(op)'"), at: location))
        case .conditions(let lhs, let rhs, let env):
            requireCondition(inner, of: lhs)
            condition(rhs, in: env)
            return .value(.bool)
        case .nilCoalescing(let left, let rightLocation):
            let right = valueType(inner, at: rightLocation, purpose: "the right side of '??'")
            switch left {
            case .optional(let wrapped): return .value(store.join(wrapped, right))
            case .any, .variable: return .value(store.join(left, right))
            default: return .value(left)
            }
        case .binary(let op, let lhs, let rhs, let location, let env):
            let left = valueType(inner, at: lhs.location, purpose: "the left side of '\(op)'")
            let right = valueType(check(rhs, in: env), at: rhs.location, purpose: "the right side of '\(op)'")
            return .value(binaryType(op, left, right, leftIsLiteral: lhs.isNumberLiteral || lhs.isPlainStringLiteral,
                                     rightIsLiteral: rhs.isNumberLiteral || rhs.isPlainStringLiteral, at: location))
        case .joined(let then):
            return joined(then, inner)
        case .throwing(let thrownLocation, let location):
            noteThrow(valueType(inner, at: thrownLocation, purpose: "a thrown error"), at: location)
            return .value(.never)
        case .cast(let operand, let type, let mode):
            return cast(inner, of: operand, to: type, mode: mode)
        case .subscripting(let baseLocation, let index, let fallback, let location, let env):
            return .value(subscriptType(inner, at: baseLocation, index, fallback, at: location, in: env))
        case .forceUnwrap(let location):
            return forceUnwrapped(inner, at: location)
        case .bindOptional(let location):
            return optionallyBound(inner, at: location)
        case .optionalChain:
            return optionalChain(inner)
        }
    }
}
