import MarbleSyntax

/// Finds names that nothing defines, before anything runs: closures are evaluated only when
/// values arrive, so without this pass a misspelt stream inside `{ _ in requst }` would surface
/// mid-run, or never.
struct NameCheck {
    /// Names defined outside closures: the test's streams and constants, and the builtins.
    let known: Set<String>

    func undefinedNames(in expr: Expr) -> [(name: String, location: SourceLocation)] {
        var found: [(String, SourceLocation)] = []
        visit(expr, scope: [], into: &found)
        return found
    }

    /// Whether `name` appears in a closure body (outside nested closures' own parameters).
    static func mentions(_ name: String, in body: [ClosureStatement]) -> Bool {
        let expr = Expr(kind: .closure(Closure(parameters: nil, body: body)), location: SourceLocation(line: 0, column: 0))
        return !NameCheck(known: []).undefinedNames(in: expr).filter { $0.name == name }.isEmpty
            || NameCheck.references(in: expr, to: [name]).inClosures.contains(name)
    }

    /// Every identifier an expression mentions, closures included, each once.
    static func identifiers(in expr: Expr) -> Set<String> {
        var names: Set<String> = []
        var pending = [expr]
        // A work list rather than recursion: cheap, and it needs no depth bound.
        while let next = pending.popLast() {
            switch next.kind {
            case .identifier(let name): names.insert(name)
            case .closure(let closure): pending += expressions(in: closure.body)
            default: pending += next.kind.children
            }
        }
        return names
    }

    private static func expressions(in body: [ClosureStatement]) -> [Expr] {
        body.flatMap(\.expressions)
    }

    /// The names of `streams` an expression uses, in order of first use: directly (the inputs
    /// of its operators), and inside closures (inner publishers of `flatMap`, `catch`, …).
    static func references(in expr: Expr, to streams: Set<String>) -> (direct: [String], inClosures: [String]) {
        var direct: [String] = []
        var inClosures: [String] = []
        // A stack of (expression, inside a closure) in place of recursion: the input decides the
        // depth. Children are pushed last first, so they are met in source order.
        var pending: [(Expr, Bool)] = [(expr, false)]
        while let (next, inside) = pending.popLast() {
            switch next.kind {
            case .identifier(let name):
                guard streams.contains(name) else { continue }
                if inside { if !inClosures.contains(name) { inClosures.append(name) } } else if !direct.contains(name) { direct.append(name) }
            case .closure(let closure):
                pending += expressions(in: closure.body).reversed().map { ($0, true) }
            default:
                pending += next.kind.children.reversed().map { ($0, inside) }
            }
        }
        return (direct, inClosures)
    }

    /// What is left to check, with the names in scope there. A stack of these replaces recursion
    /// (the input decides the depth); items are pushed last first, so names are found in source order.
    private enum Work {
        case expr(Expr, Set<String>)
        /// Statements in order, each seeing the names the earlier ones bind.
        case body(ArraySlice<ClosureStatement>, Set<String>)
        /// Conditions in order, each seeing the names the earlier ones bind; then `next`.
        case conditions(ArraySlice<ConditionClause>, Set<String>, next: AfterConditions)
    }

    /// What follows the conditions of an `if` (its body, in their scope) or of a `guard` (its
    /// `else` body in the scope before them, then the statements after it in their scope).
    private enum AfterConditions {
        case thenBody([ClosureStatement])
        case guardElse([ClosureStatement], before: Set<String>, rest: ArraySlice<ClosureStatement>)
    }

    private func visit(_ root: Expr, scope: Set<String>, into found: inout [(String, SourceLocation)]) {
        var pending: [Work] = [.expr(root, scope)]
        func push(_ exprs: [Expr], _ scope: Set<String>) { pending += exprs.reversed().map { .expr($0, scope) } }
        while let work = pending.popLast() {
            switch work {
            case .expr(let expr, let scope):
                switch expr.kind {
                case .identifier(let name):
                    if !scope.contains(name), !known.contains(name), !name.hasPrefix("$") { found.append((name, expr.location)) }
                case .closure(let closure):
                    pending.append(.body(closure.body[...], scope.union(closure.parameters ?? [])))
                case .ifExpression(let ifExpression):
                    if let elseBody = ifExpression.elseBody { pending.append(.body(elseBody[...], scope)) }
                    pending.append(.conditions(ifExpression.conditions[...], scope, next: .thenBody(ifExpression.thenBody)))
                case .switchExpression(let switchExpression):
                    for switchCase in switchExpression.cases.reversed() {
                        var inner = scope
                        for item in switchCase.items { inner.formUnion(item.pattern.boundNames) }
                        pending.append(.body(switchCase.body[...], inner))
                        for item in switchCase.items.reversed() {
                            if let guardExpression = item.guardExpression { pending.append(.expr(guardExpression, inner)) }
                            push(item.pattern.expressions, scope)
                        }
                    }
                    pending.append(.expr(switchExpression.subject, scope))
                default:
                    push(expr.kind.children, scope)
                }
            case .body(let statements, let scope):
                guard let statement = statements.first else { continue }
                let rest = statements.dropFirst()
                switch statement {
                case .expression(let expr):
                    pending.append(.body(rest, scope))
                    pending.append(.expr(expr, scope))
                case .letBinding(let name, let expr, _), .variable(let name, let expr, _):
                    pending.append(.body(rest, scope.union([name])))
                    pending.append(.expr(expr, scope))
                case .returnStatement(let expr, _):
                    pending.append(.body(rest, scope))
                    if let expr { pending.append(.expr(expr, scope)) }
                case .assignment(let assignment):
                    pending.append(.body(rest, scope))
                    push([assignment.target, assignment.value], scope)
                case .guardStatement(let guardStatement):
                    pending.append(.conditions(guardStatement.conditions[...], scope, next: .guardElse(guardStatement.elseBody, before: scope, rest: rest)))
                case .forIn(let loop):
                    // The sequence sees the names before the loop; the `where` clause and the body, the pattern's too.
                    let inner = scope.union(loop.pattern.boundNames)
                    pending.append(.body(rest, scope))
                    pending.append(.body(loop.body[...], inner))
                    if let whereClause = loop.whereClause { pending.append(.expr(whereClause, inner)) }
                    push(loop.pattern.expressions, scope)
                    pending.append(.expr(loop.sequence, scope))
                case .whileLoop(let loop):
                    pending.append(.body(rest, scope))
                    pending.append(.conditions(loop.conditions[...], scope, next: .thenBody(loop.body)))
                case .breakStatement, .continueStatement:
                    pending.append(.body(rest, scope))
                case .patternBinding(let binding):
                    pending.append(.body(rest, scope.union(binding.pattern.boundNames)))
                    push(binding.pattern.expressions, scope)
                    pending.append(.expr(binding.value, scope))
                case .doCatch(let statement):
                    pending.append(.body(rest, scope))
                    for clause in statement.clauses.reversed() {
                        let inner = scope.union(clause.boundNames)
                        pending.append(.body(clause.body[...], inner))
                        if let guardExpression = clause.guardExpression { pending.append(.expr(guardExpression, inner)) }
                        push(clause.pattern?.expressions ?? [], scope)
                    }
                    pending.append(.body(statement.body[...], scope))
                }
            case .conditions(let conditions, let scope, let next):
                guard let condition = conditions.first else {
                    switch next {
                    case .thenBody(let body):
                        pending.append(.body(body[...], scope))
                    case .guardElse(let elseBody, let before, let rest):
                        pending.append(.body(rest, scope))
                        pending.append(.body(elseBody[...], before))
                    }
                    continue
                }
                pending.append(.conditions(conditions.dropFirst(), scope.union(condition.boundNames), next: next))
                push(condition.expressions, scope)
            }
        }
    }
}

extension ExprKind {
    /// The expressions directly inside this one, in source order (a closure's: none — its body
    /// is statements; an `if` or `switch`: its conditions' and bodies' expressions).
    var children: [Expr] {
        switch self {
        case .string(let parts): parts.compactMap { if case .interpolation(let inner) = $0 { inner } else { nil } }
        case .array(let items): items
        case .tuple(let elements): elements.map(\.value)
        case .member(let base, _): base.map { [$0] } ?? []
        case .call(let callee, let arguments): [callee] + arguments.map(\.value)
        case .genericSpecialization(let base, _), .unary(_, let base), .throwExpression(let base), .cast(let base, _, _), .tryExpression(let base, _): [base]
        case .binary(_, let lhs, let rhs): [lhs, rhs]
        case .ternary(let condition, let then, let otherwise): [condition, then, otherwise]
        case .ifExpression, .dictionary, .subscriptAccess, .forceUnwrap, .bindOptional, .optionalChain, .switchExpression: statementChildren
        case .closure, .int, .double, .bool, .nilLiteral, .identifier, .wildcard, .keyPath: []
        }
    }
}
