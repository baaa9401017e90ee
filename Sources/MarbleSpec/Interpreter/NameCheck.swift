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
            case .string(let parts): for case .interpolation(let inner) in parts { pending.append(inner) }
            case .array(let items): pending += items
            case .tuple(let elements): pending += elements.map(\.value)
            case .member(let base, _): if let base { pending.append(base) }
            case .call(let callee, let arguments): pending.append(callee); pending += arguments.map(\.value)
            case .genericSpecialization(let base, _), .unary(_, let base), .throwExpression(let base), .cast(let base, _, _): pending.append(base)
            case .closure(let closure): pending += expressions(in: closure.body)
            case .binary(_, let lhs, let rhs): pending += [lhs, rhs]
            case .ternary(let c, let t, let e): pending += [c, t, e]
            case .ifExpression, .dictionary, .subscriptAccess, .forceUnwrap, .bindOptional, .optionalChain, .switchExpression:
                pending += next.kind.statementChildren
            case .int, .double, .bool, .nilLiteral, .wildcard, .keyPath: break
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
        func note(_ name: String, insideClosure: Bool) {
            guard streams.contains(name) else { return }
            if insideClosure { if !inClosures.contains(name) { inClosures.append(name) } } else if !direct.contains(name) { direct.append(name) }
        }
        func walk(_ expr: Expr, _ inside: Bool) {
            switch expr.kind {
            case .identifier(let name): note(name, insideClosure: inside)
            case .string(let parts): for case .interpolation(let inner) in parts { walk(inner, inside) }
            case .array(let items): items.forEach { walk($0, inside) }
            case .tuple(let elements): elements.forEach { walk($0.value, inside) }
            case .member(let base, _): if let base { walk(base, inside) }
            case .call(let callee, let arguments):
                walk(callee, inside)
                arguments.forEach { walk($0.value, inside) }
            case .genericSpecialization(let base, _): walk(base, inside)
            case .closure(let closure): walkBody(closure.body)
            case .unary(_, let operand), .throwExpression(let operand), .cast(let operand, _, _): walk(operand, inside)
            case .binary(_, let lhs, let rhs): walk(lhs, inside); walk(rhs, inside)
            case .ternary(let c, let t, let e): [c, t, e].forEach { walk($0, inside) }
            case .ifExpression, .dictionary, .subscriptAccess, .forceUnwrap, .bindOptional, .optionalChain, .switchExpression:
                expr.kind.statementChildren.forEach { walk($0, inside) }
            case .int, .double, .bool, .nilLiteral, .wildcard, .keyPath: break
            }
        }
        func walkBody(_ body: [ClosureStatement]) {
            for statement in body {
                statement.expressions.forEach { walk($0, true) }
            }
        }
        walk(expr, false)
        return (direct, inClosures)
    }

    private func visit(_ expr: Expr, scope: Set<String>, into found: inout [(String, SourceLocation)]) {
        switch expr.kind {
        case .identifier(let name):
            if !scope.contains(name), !known.contains(name), !name.hasPrefix("$") { found.append((name, expr.location)) }
        case .string(let parts):
            for case .interpolation(let inner) in parts { visit(inner, scope: scope, into: &found) }
        case .array(let items):
            for item in items { visit(item, scope: scope, into: &found) }
        case .tuple(let elements):
            for element in elements { visit(element.value, scope: scope, into: &found) }
        case .member(let base, _):
            if let base { visit(base, scope: scope, into: &found) }
        case .call(let callee, let arguments):
            visit(callee, scope: scope, into: &found)
            for argument in arguments { visit(argument.value, scope: scope, into: &found) }
        case .genericSpecialization(let base, _):
            visit(base, scope: scope, into: &found)
        case .closure(let closure):
            var inner = scope
            for parameter in closure.parameters ?? [] { inner.insert(parameter) }
            visit(closure.body, scope: inner, into: &found)
        case .unary(_, let operand), .throwExpression(let operand), .cast(let operand, _, _):
            visit(operand, scope: scope, into: &found)
        case .binary(_, let lhs, let rhs):
            visit(lhs, scope: scope, into: &found)
            visit(rhs, scope: scope, into: &found)
        case .ternary(let condition, let then, let otherwise):
            for part in [condition, then, otherwise] { visit(part, scope: scope, into: &found) }
        case .ifExpression(let ifExpression):
            visit(ifExpression, scope: scope, into: &found)
        case .switchExpression(let switchExpression):
            visit(switchExpression.subject, scope: scope, into: &found)
            for switchCase in switchExpression.cases {
                var inner = scope
                for item in switchCase.items { inner.formUnion(item.pattern.boundNames) }
                for item in switchCase.items {
                    for part in item.pattern.expressions { visit(part, scope: scope, into: &found) }
                    if let guardExpression = item.guardExpression { visit(guardExpression, scope: inner, into: &found) }
                }
                visit(switchCase.body, scope: inner, into: &found)
            }
        case .dictionary, .subscriptAccess, .forceUnwrap, .bindOptional, .optionalChain:
            for child in expr.kind.statementChildren { visit(child, scope: scope, into: &found) }
        case .int, .double, .bool, .nilLiteral, .wildcard, .keyPath:
            break
        }
    }

    private func visit(_ ifExpression: IfExpression, scope: Set<String>, into found: inout [(String, SourceLocation)]) {
        let inner = visit(ifExpression.conditions, scope: scope, into: &found)
        visit(ifExpression.thenBody, scope: inner, into: &found)
        if let elseBody = ifExpression.elseBody { visit(elseBody, scope: scope, into: &found) }
    }

    /// Conditions in order, each seeing the names the earlier ones bind; returns the scope after them.
    private func visit(_ conditions: [ConditionClause], scope: Set<String>, into found: inout [(String, SourceLocation)]) -> Set<String> {
        var scope = scope
        for condition in conditions {
            for part in condition.expressions { visit(part, scope: scope, into: &found) }
            scope.formUnion(condition.boundNames)
        }
        return scope
    }

    private func visit(_ body: [ClosureStatement], scope: Set<String>, into found: inout [(String, SourceLocation)]) {
        var scope = scope
        for statement in body {
            switch statement {
            case .expression(let expr): visit(expr, scope: scope, into: &found)
            case .letBinding(let name, let expr, _), .variable(let name, let expr, _):
                visit(expr, scope: scope, into: &found)
                scope.insert(name)
            case .returnStatement(let expr, _):
                if let expr { visit(expr, scope: scope, into: &found) }
            case .assignment(let assignment):
                visit(assignment.target, scope: scope, into: &found)
                visit(assignment.value, scope: scope, into: &found)
            case .guardStatement(let guardStatement):
                let after = visit(guardStatement.conditions, scope: scope, into: &found)
                visit(guardStatement.elseBody, scope: scope, into: &found)
                scope = after
            }
        }
    }
}
