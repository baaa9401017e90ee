import MarbleSyntax

/// Checks the statements and expressions of `Interpreter`'s Statements.swift before anything
/// runs: `var` and assignment, `guard`, `if let`/`if case`, `switch` and its patterns,
/// dictionaries, subscripts, `!`, optional chaining, `Result` and the app members. As everywhere
/// in the checker, a mistake is reported only when no value could make the code right (or Swift
/// would refuse it); what depends on the data (a nil behind `!`, an index out of range) is left
/// to run time, which reports it.
extension ExpressionChecker {
    func checkStatementKind(_ expr: Expr, in env: TypeEnvironment) -> Checked {
        switch expr.kind {
        case .dictionary(let entries):
            if let type = writtenDictionaryType(entries, in: env) { return .type(type) }
            let reportedBefore = diagnostics.count
            var key = SpecType.never, value = SpecType.never
            for entry in entries {
                key = store.join(key, valueType(check(entry.key, in: env), at: entry.key.location, purpose: "a dictionary key"))
                value = store.join(value, valueType(check(entry.value, in: env), at: entry.value.location, purpose: "a dictionary value"))
            }
            return diagnostics.count > reportedBefore ? .unknown : .value(.dictionary(key: key, value: value))
        case .switchExpression(let switchExpression):
            return checkSwitch(switchExpression, in: env)
        default:
            return .unknown
        }
    }

    /// `operand!`, given what `operand` gave: the wrapped type of an optional; a type that is
    /// never nil is a mistake.
    func forceUnwrapped(_ checked: Checked, at location: SourceLocation) -> Checked {
        unwrapped(checked, at: location, hint: "remove the '!': the value is never nil") { "cannot force unwrap value of non-optional type '\($0)'" }
    }

    /// `operand?` in an optional chain, given what `operand` gave.
    func optionallyBound(_ checked: Checked, at location: SourceLocation) -> Checked {
        unwrapped(checked, at: location, hint: "remove the '?': the value is never nil") { "cannot use optional chaining on non-optional value of type '\($0)'" }
    }

    /// A postfix chain holding a `?`, given what the chain gave: optional.
    func optionalChain(_ checked: Checked) -> Checked {
        guard case .value(let type) = checked else { return checked }
        if case .optional = store.resolve(type) { return checked }
        return .value(.optional(type))
    }

    /// The type behind `operand!` or `operand?`, given what `operand` gave: the wrapped type of an
    /// optional; a type that is never nil is a mistake (`message` gets its name).
    private func unwrapped(_ checked: Checked, at location: SourceLocation, hint: String, message: (String) -> String) -> Checked {
        guard case .value(let type) = checked else { return checked }
        switch store.resolve(type) {
        case .optional(let wrapped): return .value(wrapped)
        case .any, .never, .variable: return checked
        case let other: return error(message(name(other)), at: location, hint: hint)
        }
    }

    /// `[String: Int]` written as a type (before `()`): its name; nil for a dictionary of values.
    private func writtenDictionaryType(_ entries: [DictionaryEntry], in env: TypeEnvironment) -> String? {
        guard entries.count == 1, case .identifier(let key) = entries[0].key.kind, case .identifier(let value) = entries[0].value.kind,
              SpecType(written: key) != nil, SpecType(written: value) != nil, env[key] == nil, env[value] == nil else { return nil }
        return "[\(key): \(value)]"
    }

    /// `[String: Int]()`: an empty dictionary of that type.
    func emptyDictionary(_ name: String, _ args: [TypedArgument], at location: SourceLocation) -> Checked? {
        guard let type = Self.dictionaryType(written: name) else { return nil }
        guard args.isEmpty else { return error("\(name)() takes no arguments here", at: args[0].location, hint: "write \(name)() for an empty dictionary") }
        return .value(type)
    }

    static func dictionaryType(written name: String) -> SpecType? {
        guard name.hasPrefix("["), name.hasSuffix("]") else { return nil }
        let parts = name.dropFirst().dropLast().split(separator: ":", maxSplits: 1)
        guard parts.count == 2, let key = SpecType(written: String(parts[0])), let value = SpecType(written: String(parts[1])) else { return nil }
        return .dictionary(key: key, value: value)
    }

    /// `base[index]` or `base[index, default: fallback]`, given what `base` gave (`checked`, at `baseLocation`).
    func subscriptType(_ checked: Checked, at baseLocation: SourceLocation, _ index: Expr, _ fallback: Expr?, at location: SourceLocation, in env: TypeEnvironment) -> SpecType {
        let container = valueType(checked, at: baseLocation, purpose: "a subscripted value")
        let key = valueType(check(index, in: env), at: index.location, purpose: "a subscript index")
        let fallbackType = fallback.map { valueType(check($0, in: env), at: $0.location, purpose: "a dictionary's default") }
        var resolved = store.resolve(container)
        while case .optional(let wrapped) = resolved, store.resolve(wrapped) != .never { resolved = store.resolve(wrapped) }
        func requireKey(_ expected: SpecType) {
            let actual = store.resolve(key)
            if case .variable(let variable) = actual { store.bind(variable, to: expected); return }
            if isConcrete(actual), isConcrete(expected), SpecType.joinConcrete(store.deepResolve(actual), store.deepResolve(expected)) != store.deepResolve(expected) {
                error("cannot convert value of type '\(name(actual))' to expected argument type '\(name(expected))'", at: index.location)
            }
        }
        switch resolved {
        case .array(let element):
            if fallback != nil { error("an array subscript has no 'default:'", at: location, hint: "only a dictionary's does") }
            requireKey(.int)
            return element
        case .dictionary(let keyType, let value):
            requireKey(keyType)
            guard let fallbackType else { return .optional(value) }
            return store.join(value, fallbackType)
        case .string:
            error("cannot subscript a String with an Int", at: location,
                  hint: "use Array(text)[i] for a character by position, or prefix(_:), dropFirst(_:), first, last")
            return .any
        case .any, .never, .variable:
            return .any
        case let other:
            error("value of type '\(name(other))' has no subscripts", at: location)
            return .any
        }
    }

    // MARK: Statements

    func checkStatementKind(_ statement: ClosureStatement, in env: TypeEnvironment) {
        switch statement {
        case .variable(let name, let expr, _):
            env.declareVariable(name, check(expr, in: env))
        case .assignment(let assignment):
            checkAssignment(assignment, in: env)
        case .guardStatement(let guardStatement):
            // The else body sees the names from before the guard; the statements after it, its bindings.
            let before = TypeEnvironment(parent: env)
            checkConditions(guardStatement.conditions, in: env)
            _ = checkBody(guardStatement.elseBody, in: before)
        default:
            break
        }
    }

    // MARK: Conditions

    /// Checks conditions in order, binding their names in `env`.
    func checkConditions(_ conditions: [ConditionClause], in env: TypeEnvironment) {
        for clause in conditions {
            switch clause {
            case .boolean(let expr):
                condition(expr, in: env)
            case .optionalBinding(let name, let expr, _):
                let checked = check(expr, in: env)
                guard case .value(let type) = checked else {
                    env[name] = checked.isUnknown ? .unknown : checked
                    continue
                }
                switch store.resolve(type) {
                case .optional(let wrapped): env[name] = .value(wrapped)
                case .any, .never, .variable: env[name] = .value(type)
                case let other:
                    error("initializer for conditional binding must have Optional type, not '\(self.name(other))'", at: expr.location,
                          hint: "the value is never nil: write 'let \(name) = …' as a statement, or test a condition")
                    env[name] = .value(other)
                }
            case .patternMatch(let pattern, let expr):
                let type = valueType(check(expr, in: env), at: expr.location, purpose: "the value matched")
                checkPattern(pattern, against: type, in: env)
            }
        }
    }

    // MARK: switch

    private func checkSwitch(_ switchExpression: SwitchExpression, in env: TypeEnvironment) -> Checked {
        let subject = valueType(check(switchExpression.subject, in: env), at: switchExpression.subject.location, purpose: "the value switched on")
        var result: Checked = .value(.never)
        for switchCase in switchExpression.cases {
            let scope = TypeEnvironment(parent: env)
            for item in switchCase.items {
                checkPattern(item.pattern, against: subject, in: scope)
                if let guardExpression = item.guardExpression { condition(guardExpression, in: scope) }
            }
            result = joined(result, checkBody(switchCase.body, in: scope).value)
        }
        if !isExhaustive(switchExpression.cases, subject) {
            error("switch must be exhaustive", at: switchExpression.location, length: 6,
                  hint: "add a 'default:' case, or cases for every value of '\(name(subject))'")
        }
        return result
    }

    private func isExhaustive(_ cases: [SwitchCase], _ subject: SpecType) -> Bool {
        let items = cases.flatMap { switchCase in switchCase.isDefault ? [nil] : switchCase.items.filter { $0.guardExpression == nil }.map(\.pattern) }
        if items.contains(where: { $0 == nil || Self.isIrrefutable($0!) }) { return true }
        let patterns = items.compactMap { $0 }
        func covers(_ name: String) -> Bool {
            patterns.contains { pattern in
                if case .enumCase(_, name, let payload, _) = pattern { return (payload ?? []).allSatisfy(Self.isIrrefutable) }
                return false
            }
        }
        switch store.resolve(subject) {
        case .any, .never, .variable: return true
        case .bool:
            let literals = patterns.compactMap { pattern -> Bool? in
                if case .expression(let expr) = pattern, case .bool(let flag) = expr.kind { return flag }
                return nil
            }
            return Set(literals).count == 2
        case .optional:
            let none = covers("none") || patterns.contains { if case .expression(let expr) = $0, case .nilLiteral = expr.kind { true } else { false } }
            let some = covers("some") || patterns.contains { if case .optional(let inner) = $0 { Self.isIrrefutable(inner) } else { false } }
            return none && some
        case .result: return covers("success") && covers("failure")
        case .named(let typeName):
            // An enum of the file: every case covered; a struct only by a pattern that matches anything.
            guard let enumType = types.enumType(typeName) else { return false }
            return enumType.cases.allSatisfy { covers($0.name.name) }
        default: return false
        }
    }

    static func isIrrefutable(_ pattern: Pattern) -> Bool {
        switch pattern {
        case .wildcard, .binding: true
        case .tuple(let items, _): items.allSatisfy(isIrrefutable)
        default: false
        }
    }

    /// Checks that `pattern` can match values of `type` and binds its names in `env`.
    func checkPattern(_ pattern: Pattern, against type: SpecType, in env: TypeEnvironment) {
        let resolved = store.resolve(type)
        switch pattern {
        case .wildcard:
            break
        case .binding(let name, _):
            env[name] = .value(type)
        case .optional(let inner):
            switch resolved {
            case .optional(let wrapped): checkPattern(inner, against: wrapped, in: env)
            case .any, .never, .variable: checkPattern(inner, against: .any, in: env)
            default:
                error("'?' pattern cannot match values of type '\(name(resolved))'", at: pattern.location, hint: "the value is never nil: drop the '?'")
                checkPattern(inner, against: .any, in: env)
            }
        case .tuple(let items, let location):
            switch resolved {
            case .tuple(let types) where types.count == items.count:
                for (item, itemType) in zip(items, types) { checkPattern(item, against: itemType, in: env) }
            case .tuple:
                error("tuple pattern has the wrong length for tuple type '\(name(resolved))'", at: location)
                for item in items { checkPattern(item, against: .any, in: env) }
            case .any, .never, .variable:
                for item in items { checkPattern(item, against: .any, in: env) }
            default:
                error("tuple pattern cannot match values of the non-tuple type '\(name(resolved))'", at: location)
                for item in items { checkPattern(item, against: .any, in: env) }
            }
        case .enumCase(_, let caseName, let payload, let location):
            checkCasePattern(caseName, payload, location, against: resolved, in: env)
        case .expression(let expr):
            checkExpressionPattern(expr, against: resolved, in: env)
        case .isType(let type):
            if specType(written: type.text) == nil { error("cannot find type '\(type.text)' in scope", at: type.location, length: type.text.count) }
        case .cast(let inner, let type):
            guard let target = specType(written: type.text) else {
                error("cannot find type '\(type.text)' in scope", at: type.location, length: type.text.count)
                checkPattern(inner, against: .any, in: env)
                return
            }
            checkPattern(inner, against: target, in: env)
        }
    }

    private func checkCasePattern(_ caseName: String, _ payload: [Pattern]?, _ location: SourceLocation, against resolved: SpecType, in env: TypeEnvironment) {
        func bindPayload(_ types: [SpecType]) {
            guard let payload else { return }
            if payload.count == types.count {
                for (item, type) in zip(payload, types) { checkPattern(item, against: type, in: env) }
            } else {
                error("pattern of '.\(caseName)' has \(payload.count) element\(payload.count == 1 ? "" : "s"), but the case has \(types.count)", at: location)
                for item in payload { checkPattern(item, against: .any, in: env) }
            }
        }
        switch (caseName, resolved) {
        case (_, .any), (_, .never), (_, .variable):
            for item in payload ?? [] { checkPattern(item, against: .any, in: env) }
        case ("some", .optional(let wrapped)):
            bindPayload([wrapped])
        case ("none", .optional):
            bindPayload([])
        case ("success", .result(let success, _)):
            bindPayload([success])
        case ("failure", .result(_, let failure)):
            bindPayload([failure == .never ? .any : failure])
        case (_, .named(let typeName)) where types.enumType(typeName)?.cases.contains(where: { $0.name.name == caseName }) == true:
            let item = types.enumType(typeName)?.cases.first { $0.name.name == caseName }
            // One pattern for several associated values matches them as a tuple, as in Swift.
            let payloadTypes = (item?.payload ?? []).map { specType(written: $0.type.text) ?? .any }
            if let payload, payload.count == 1, payloadTypes.count > 1 {
                checkPattern(payload[0], against: .tuple(payloadTypes), in: env)
            } else {
                bindPayload(payloadTypes)
            }
        default:
            let members: [String] = switch resolved {
            case .optional: ["some", "none"]
            case .result: ["success", "failure"]
            case .named(let typeName): types.enumType(typeName)?.cases.map(\.name.name) ?? []
            default: []
            }
            error("type '\(name(resolved))' has no member '\(caseName)'", at: location, length: caseName.count,
                  hint: Suggestions.nearest(to: caseName, in: members).map { "did you mean '.\($0)'?" })
            for item in payload ?? [] { checkPattern(item, against: .any, in: env) }
        }
    }

    private func checkExpressionPattern(_ expr: Expr, against subject: SpecType, in env: TypeEnvironment) {
        var bounds = [expr]
        if case .binary(let op, let lower, let upper) = expr.kind, op == "..." || op == "..<" { bounds = [lower, upper] }
        if case .unary(let op, let bound) = expr.kind, ["..<", "...", "x..."].contains(op) { bounds = [bound] }
        for bound in bounds {
            let type = store.deepResolve(valueType(check(bound, in: env), at: bound.location, purpose: "a pattern"))
            if type == .nilLiteral {
                if case .optional = subject { continue }
                if isConcrete(subject) {
                    error("'nil' cannot match values of the non-optional type '\(name(subject))'", at: bound.location)
                }
                continue
            }
            var expected = store.deepResolve(subject)
            while case .optional(let wrapped) = expected { expected = store.deepResolve(wrapped) }
            if expected == .double, type == .int, bound.isNumberLiteral { continue }
            if isConcrete(type), isConcrete(expected), SpecType.joinConcrete(type, expected) == .any {
                error("expression pattern of type '\(name(type))' cannot match values of type '\(name(expected))'", at: bound.location)
            }
        }
    }

    // MARK: Result, app members, String(format:)

    /// `Result<Int, Error>.success(x)` / `.failure(e)`; nil for anything but a case of `Result`.
    func resultCase(_ typeName: String, _ caseName: String, _ args: [TypedArgument], at location: SourceLocation) -> Checked? {
        guard typeName == "Result" else { return nil }
        guard caseName == "success" || caseName == "failure" else {
            return error("type 'Result' has no member '\(caseName)'", at: location, length: caseName.count,
                         hint: Suggestions.nearest(to: caseName, in: ["success", "failure"]).map { "did you mean '\($0)'?" })
        }
        guard args.count == 1, args[0].label == nil else { return error("Result.\(caseName)(_:) takes one value", at: location) }
        let payload = valueType(args[0].checked, at: args[0].location, purpose: "the value of .\(caseName)")
        return .value(caseName == "success" ? .result(success: payload, failure: .never) : .result(success: .never, failure: payload))
    }

    func appMethod(_ name: String, _ method: AppMembers.Method, on receiver: SpecType, _ args: [TypedArgument], at location: SourceLocation) -> Checked {
        guard checkLabels(name, method.signature, args, at: location) else { return .unknown }
        var types: [SpecType] = []
        for arg in args {
            switch arg.checked {
            case .closure(let closure):
                let element: SpecType
                switch receiver {
                case .array(let item), .dictionary(_, let item): element = item
                default: element = .any
                }
                // `sorted(by:)`, `min(by:)`, `max(by:)` compare two elements.
                let compares = ["sorted", "min", "max"].contains(name)
                let outcome = check(closure, with: compares ? [.value(element), .value(element)] : [.value(element)], owner: nil, allowsThrowing: true)
                let result = valueType(outcome.result, at: outcome.resultLocation, purpose: "the closure's result")
                if compares || ["first", "contains", "allSatisfy"].contains(name) { expect(outcome, .bool) }
                types.append(result)
            case .member(let set, _) where name == "trimmingCharacters":
                if AppMembers.characterSets[set] == nil {
                    error("'.\(set)' is not a CharacterSet this interpreter knows", at: arg.location,
                          hint: "use one of " + AppMembers.characterSets.keys.sorted().map { ".\($0)" }.joined(separator: ", "))
                }
                types.append(.any)
            default:
                let type = valueType(arg.checked, at: arg.location, purpose: "an argument of \(name)")
                types.append(type)
                let actual = store.deepResolve(type)
                if name == "trimmingCharacters", isConcrete(actual) {
                    error("trimmingCharacters(in:) needs a CharacterSet such as .whitespaces", at: arg.location)
                }
                let expected: SpecType? = switch (name, arg.label) {
                case ("split", _), ("components", _), ("replacingOccurrences", _), ("starts", _): .string
                case ("prefix", _), ("suffix", _), ("dropFirst", _), ("dropLast", _): .int
                default: nil
                }
                if let expected, isConcrete(actual), actual != expected {
                    error("cannot convert value of type '\(self.name(actual))' to expected argument type '\(self.name(expected))'", at: arg.location)
                }
                // A set's `contains` takes an element; `union(_:)` and its kin a set or an array of them.
                if case .set(let element) = receiver, isConcrete(actual) {
                    let wanted: SpecType = name == "contains" ? element : .set(element)
                    if !accepts(wanted, actual) {
                        error("cannot convert value of type '\(self.name(actual))' to expected argument type '\(self.name(wanted))'", at: arg.location)
                    }
                }
            }
        }
        if name == "compactMap", let mapped = types.first {
            var element = store.resolve(mapped)
            if case .optional(let wrapped) = element { element = wrapped }
            return .value(.array(element))
        }
        if name == "mapValues", case .dictionary(let key, _) = receiver, let mapped = types.first { return .value(.dictionary(key: key, value: mapped)) }
        if name == "get", case .result(_, let failure) = receiver { noteThrow(failure == .never ? .any : failure, at: location) }
        return .value(method.type(receiver, types))
    }

    /// `String(format:…)`, `String(repeating:count:)`; nil for any other call.
    func stringFormat(_ name: String, _ args: [TypedArgument], at location: SourceLocation) -> Checked? {
        guard name == "String", let label = args.first?.label, label == "format" || label == "repeating" else { return nil }
        let types = args.map { store.deepResolve(valueType($0.checked, at: $0.location, purpose: "an argument of String(\(label):)")) }
        if label == "repeating" {
            if args.count != 2 || args[1].label != "count" { return error("String(repeating:count:) takes a String and count: an Int", at: location) }
            if isConcrete(types[1]), types[1] != .int { error("cannot convert value of type '\(self.name(types[1]))' to expected argument type 'Int'", at: args[1].location) }
            return .value(.string)
        }
        if isConcrete(types[0]), types[0] != .string {
            error("cannot convert value of type '\(self.name(types[0]))' to expected argument type 'String'", at: args[0].location)
        }
        return .value(.string)
    }
}
