import MarbleSyntax

/// Checks `do { … } catch …`, `try?` and `try!` before anything runs: what the `do` body throws
/// is caught there (what a `catch` that is not exhaustive lets through goes on to the enclosing
/// closure), each `catch` pattern must fit, and `try? x` is an optional of `x`'s type.
extension ExpressionChecker {
    func checkDo(_ statement: DoStatement, in env: TypeEnvironment) {
        throwContexts.append(ThrowContext(owner: "do", allowsThrowing: true))
        _ = checkBody(statement.body, in: TypeEnvironment(parent: env))
        let thrown = throwContexts.removeLast().thrown
        for clause in statement.clauses {
            let scope = TypeEnvironment(parent: env)
            if let pattern = clause.pattern {
                checkPattern(pattern, against: catchType(of: pattern, thrown: thrown), in: scope)
            } else {
                scope["error"] = .value(.any)
            }
            if let guardExpression = clause.guardExpression { condition(guardExpression, in: scope) }
            _ = checkBody(clause.body, in: scope)
        }
        let exhaustive = statement.clauses.contains { $0.guardExpression == nil && ($0.pattern.map(Self.isIrrefutable) ?? true) }
        guard !exhaustive, store.resolve(thrown) != .never else { return }
        if !statement.clauses.isEmpty, let enclosing = throwContexts.last(where: { $0.owner != nil }), !enclosing.allowsThrowing {
            error("errors thrown from here are not handled because the enclosing catch is not exhaustive", at: statement.location, length: 2,
                  hint: "end with a 'catch { … }' that catches every error (it sees it as 'error')")
            return
        }
        noteThrow(thrown, at: statement.location)
    }

    /// What a `catch` pattern is checked against. Swift's error is `any Error`: a case of a
    /// written enum is checked against that enum, one without a type against what the body
    /// throws when that is one of the file's error types; anything else is left to run time.
    private func catchType(of pattern: Pattern, thrown: SpecType) -> SpecType {
        if case .enumCase(let written?, _, _, _) = pattern {
            return types.enumType(written).map { .named($0.name) } ?? .any
        }
        if case .enumCase = pattern, case .named = store.resolve(thrown) { return thrown }
        return .any
    }

    /// `try? operand` (`T?` for a `T`, flattened as Swift 5 does) or `try! operand` (a `T`): what
    /// the operand throws stops there.
    func checkTry(_ operand: Expr, _ mode: TryMode, in env: TypeEnvironment) -> Checked {
        throwContexts.append(ThrowContext(owner: mode.rawValue, allowsThrowing: true))
        let checked = check(operand, in: env)
        throwContexts.removeLast()
        guard mode == .optional, case .value(let type) = checked else { return checked }
        if case .optional = store.resolve(type) { return checked }
        return .value(.optional(type))
    }
}
