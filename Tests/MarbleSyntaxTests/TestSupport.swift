import Testing
@testable import MarbleSyntax

/// Prints a tree as an S-expression, so tests can state structure (and with it
/// precedence and associativity) in one string.
func sexp(_ expression: Expr) -> String {
    switch expression.kind {
    case .int(let value): return String(value)
    case .double(let value): return String(value)
    case .bool(let value): return String(value)
    case .nilLiteral: return "nil"
    case .string(let parts):
        if parts.allSatisfy({ if case .literal = $0 { true } else { false } }) {
            return quoted(parts.map { if case .literal(let text) = $0 { text } else { "" } }.joined())
        }
        return "(string" + parts.map { part in
            switch part {
            case .literal(let text): " " + quoted(text)
            case .interpolation(let inner): " " + sexp(inner)
            }
        }.joined() + ")"
    case .identifier(let name): return name
    case .wildcard: return "_"
    case .array(let elements): return "[" + elements.map(sexp).joined(separator: " ") + "]"
    case .tuple(let elements):
        return "(tuple" + elements.map { " " + ($0.label.map { "\($0):" } ?? "") + sexp($0.value) }.joined() + ")"
    case .member(let base, let name):
        return base.map { "(. \(sexp($0)) \(name))" } ?? "(. \(name))"
    case .call(let callee, let arguments):
        return "(call \(sexp(callee))" + arguments.map { " " + ($0.label.map { "\($0):" } ?? "") + sexp($0.value) }.joined() + ")"
    case .genericSpecialization(let base, let arguments):
        return "(generic \(sexp(base))" + arguments.map { " <\($0)>" }.joined() + ")"
    case .closure(let closure):
        var text = "(closure"
        if let parameters = closure.parameters { text += " (params" + parameters.map { " " + $0 }.joined() + ")" }
        return text + closure.body.map { " " + sexp($0) }.joined() + ")"
    case .unary(let op, let operand): return "(\(op) \(sexp(operand)))"
    case .binary(let op, let lhs, let rhs): return "(\(op) \(sexp(lhs)) \(sexp(rhs)))"
    case .ternary(let condition, let then, let otherwise): return "(? \(sexp(condition)) \(sexp(then)) \(sexp(otherwise)))"
    case .ifExpression(let ifExpression): return sexp(ifExpression)
    case .throwExpression(let value): return "(throw \(sexp(value)))"
    case .keyPath(let components): return "(keypath " + components.joined(separator: " ") + ")"
    case .tryExpression(let operand, let mode): return "(\(mode.rawValue) \(sexp(operand)))"
    case .cast(let operand, let type, let mode): return "(\(mode.rawValue) \(sexp(operand)) \(type.text))"
    case .dictionary(let entries): return "[dict" + entries.map { " \(sexp($0.key)):\(sexp($0.value))" }.joined() + "]"
    case .subscriptAccess(let base, let index, let fallback):
        return "(subscript \(sexp(base)) \(sexp(index))" + (fallback.map { " default:" + sexp($0) } ?? "") + ")"
    case .forceUnwrap(let operand): return "(! \(sexp(operand)))"
    case .bindOptional(let operand): return "(?bind \(sexp(operand)))"
    case .optionalChain(let chain): return "(?chain \(sexp(chain)))"
    case .switchExpression(let switchExpression):
        return "(switch \(sexp(switchExpression.subject))" + switchExpression.cases.map { switchCase in
            let head = switchCase.isDefault ? "default" : "case" + switchCase.items.map { " " + sexp($0.pattern) + ($0.guardExpression.map { " where " + sexp($0) } ?? "") }.joined()
            return " (" + head + ":" + switchCase.body.map { " " + sexp($0) }.joined() + ")"
        }.joined() + ")"
    }
}

func sexp(_ pattern: Pattern) -> String {
    switch pattern {
    case .wildcard: "_"
    case .binding(let name, _): "let:" + name
    case .expression(let expr): sexp(expr)
    case .tuple(let items, _): "(ptuple" + items.map { " " + sexp($0) }.joined() + ")"
    case .enumCase(let type, let name, let payload, _): (type ?? "") + "." + name + (payload.map { "(" + $0.map(sexp).joined(separator: " ") + ")" } ?? "")
    case .optional(let inner): sexp(inner) + "?"
    case .isType(let type): "is:" + type.text
    case .cast(let inner, let type): sexp(inner) + " as " + type.text
    }
}

func sexp(_ condition: ConditionClause) -> String {
    switch condition {
    case .boolean(let expr): sexp(expr)
    case .optionalBinding(let name, let value, _): "(iflet \(name) \(sexp(value)))"
    case .patternMatch(let pattern, let value): "(ifcase \(sexp(pattern)) \(sexp(value)))"
    }
}

func sexp(_ ifExpression: IfExpression) -> String {
    let condition = ifExpression.simpleCondition.map(sexp) ?? "(conditions " + ifExpression.conditions.map(sexp).joined(separator: " ") + ")"
    var text = "(if \(condition) (then" + ifExpression.thenBody.map { " " + sexp($0) }.joined() + ")"
    if let elseBody = ifExpression.elseBody { text += " (else" + elseBody.map { " " + sexp($0) }.joined() + ")" }
    return text + ")"
}

func sexp(_ statement: ClosureStatement) -> String {
    switch statement {
    case .expression(let expression): sexp(expression)
    case .letBinding(let name, let value, _): "(let \(name) \(sexp(value)))"
    case .returnStatement(let value, _): value.map { "(return \(sexp($0)))" } ?? "(return)"
    case .variable(let name, let value, _): "(var \(name) \(sexp(value)))"
    case .assignment(let assignment): "(\(assignment.op) \(sexp(assignment.target)) \(sexp(assignment.value)))"
    case .guardStatement(let guardStatement):
        "(guard " + guardStatement.conditions.map(sexp).joined(separator: " ") + " (else" + guardStatement.elseBody.map { " " + sexp($0) }.joined() + "))"
    case .forIn(let loop):
        "(for " + (loop.isCasePattern ? "case " : "") + sexp(loop.pattern) + " " + sexp(loop.sequence) + (loop.whereClause.map { " (where " + sexp($0) + ")" } ?? "")
            + " (do" + loop.body.map { " " + sexp($0) }.joined() + "))"
    case .whileLoop(let loop):
        "(" + (loop.isRepeat ? "repeat" : "while") + " " + loop.conditions.map(sexp).joined(separator: " ") + " (do" + loop.body.map { " " + sexp($0) }.joined() + "))"
    case .breakStatement: "(break)"
    case .continueStatement: "(continue)"
    case .patternBinding(let binding): "(\(binding.isVariable ? "var" : "let") \(sexp(binding.pattern)) \(sexp(binding.value)))"
    case .doCatch(let statement):
        "(do" + statement.body.map { " " + sexp($0) }.joined() + statement.clauses.map { clause in
            " (catch" + (clause.pattern.map { " " + sexp($0) } ?? "") + (clause.guardExpression.map { " where " + sexp($0) } ?? "")
                + clause.body.map { " " + sexp($0) }.joined() + ")"
        }.joined() + ")"
    }
}

func quoted(_ text: String) -> String {
    "\"" + text.replacingOccurrences("\\", "\\\\").replacingOccurrences("\"", "\\\"").replacingOccurrences("\n", "\\n") + "\""
}

extension String {
    func replacingOccurrences(_ target: Character, _ replacement: String) -> String {
        var result = ""
        for c in self { if c == target { result += replacement } else { result.append(c) } }
        return result
    }
}

/// The expression `text` (written at 1:1) as an S-expression, or `error: MESSAGE @L:C`.
func sx(_ text: String) -> String {
    do {
        return sexp(try MarbleFileParser.parseExpression(text, at: loc(1, 1)))
    } catch {
        return "error: \(error.message) @\(error.location)"
    }
}

/// The error that parsing the expression `text` (written at 1:1) reports, if any.
func expressionError(_ text: String) -> SyntaxError? {
    do {
        _ = try MarbleFileParser.parseExpression(text, at: loc(1, 1))
        return nil
    } catch {
        return error
    }
}

/// Parses `text` as a file and records an issue for every error.
func parseClean(_ text: String, sourceLocation: Testing.SourceLocation = #_sourceLocation) -> MarbleFileSyntax {
    let (file, errors) = MarbleFileParser.parse(text)
    for error in errors {
        Issue.record("unexpected error: \(error)", sourceLocation: sourceLocation)
    }
    return file
}

/// The errors of `text` as `L:C message` strings.
func errorList(_ text: String) -> [String] {
    MarbleFileParser.parse(text).errors.map { "\($0.location) \($0.message)" }
}

/// The single error of `text`, recording an issue when there is not exactly one.
func onlyError(_ text: String, sourceLocation: Testing.SourceLocation = #_sourceLocation) -> SyntaxError? {
    let errors = MarbleFileParser.parse(text).errors
    if errors.count != 1 {
        Issue.record("expected one error, got \(errors.map(\.description))", sourceLocation: sourceLocation)
    }
    return errors.first
}

func loc(_ line: Int, _ column: Int) -> MarbleSyntax.SourceLocation {
    MarbleSyntax.SourceLocation(line: line, column: column)
}

/// A compact description of a statement, for comparing whole files.
func describe(_ statement: Statement) -> String {
    switch statement.kind {
    case .frame(let duration): "frame \(duration.text)"
    case .notation(let notation): "notation \(notation.dialect.name)"
    case .values(let bindings): "values " + bindings.map { "\($0.name)=\(sexp($0.value))" }.joined(separator: " ")
    case .hot(let name, let marbles): "hot \(name.name) [\(marbles.text)]"
    case .cold(let name, let marbles): "cold \(name.name) [\(marbles.text)]"
    case .send(let name, let marbles): "send \(name.name) [\(marbles.text)]"
    case .subject(let name, let value): "subject \(name.name) \(sexp(value))"
    case .binding(let name, let value): "let \(name.name) \(sexp(value))"
    case .subscribe(let name, let marbles): "subscribe \(name.name) [\(marbles.text)]"
    case .demand(let name, let marbles): "demand \(name.name) [\(marbles.text)]"
    case .connect(let name, let marbles): "connect \(name.name) [\(marbles.text)]"
    case .expect(let name, let property, let marbles):
        "expect \(name.name)\(property.map { "." + $0.name } ?? "") [\(marbles.text)]"
    case .declaration(let declaration): "\(declaration.keyword) \(declaration.name.name)"
    case .published(let name, let type, let value): "@Published \(name.name)\(type.map { ": " + $0.text } ?? "") \(sexp(value))"
    }
}
