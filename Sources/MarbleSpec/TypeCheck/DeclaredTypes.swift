import Foundation
import MarbleSyntax

/// The checker's side of the file's own types (`UserTypes`) and of written types: generic
/// arguments (`Just<Int>(1)`, `PassthroughSubject<User, APIError>()`), `[User]()` and `as` casts.
extension ExpressionChecker {
    /// A written type (`Int`, `[User]`, `LoadingState?`, `(String, Int)`, an alias); nil for one
    /// that names nothing known. `Error` is any error; generic library types are unknown (`Any`).
    func specType(written: String) -> SpecType? {
        let text = written.trimmingCharacters(in: .whitespaces)
        if text.hasSuffix("?") || text.hasSuffix("!") { return specType(written: String(text.dropLast())).map { .optional($0) } }
        if text.hasPrefix("["), text.hasSuffix("]") {
            let inner = String(text.dropFirst().dropLast())
            let parts = UserTypes.topLevelParts(inner, separators: [":"])
            if parts.count == 2 {
                guard types.knows(text) else { return nil }
                guard let key = specType(written: parts[0]), let value = specType(written: parts[1]) else { return .any }
                return .dictionary(key: key, value: value)
            }
            return specType(written: inner).map { .array($0) }
        }
        if text.hasPrefix("("), text.hasSuffix(")") {
            let parts = UserTypes.topLevelParts(String(text.dropFirst().dropLast()), separators: [","])
            if parts == [""] { return .void }
            var elements: [SpecType] = []
            for part in parts {
                guard let element = specType(written: UserTypes.droppingLabel(part)) else { return nil }
                elements.append(element)
            }
            return elements.count == 1 ? elements[0] : .tuple(elements)
        }
        switch text {
        case "Int": return .int
        case "Double", "TimeInterval": return .double
        case "String": return .string
        case "Bool": return .bool
        case "Never": return .never
        case "Void": return .void
        case "Error", "Any": return .any
        default:
            if let canonical = types.canonicalName(text) {
                return canonical == text ? .named(canonical) : specType(written: canonical)
            }
            return types.knows(text) ? .any : nil
        }
    }

    /// Whether a value of `actual` can be passed where `expected` is written (deciding variables).
    func accepts(_ expected: SpecType, _ actual: SpecType) -> Bool {
        let e = store.resolve(expected), a = store.resolve(actual)
        switch (e, a) {
        case (.any, _), (_, .any), (_, .never): return true
        case (.variable(let index), _):
            store.bind(index, to: a)
            return true
        case (_, .variable(let index)):
            store.bind(index, to: e)
            return true
        case (.optional(let x), .optional(let y)): return accepts(x, y)
        case (.optional(let x), _): return accepts(x, a)
        case (.array(let x), .array(let y)): return accepts(x, y)
        case (.dictionary(let k1, let v1), .dictionary(let k2, let v2)): return accepts(k1, k2) && accepts(v1, v2)
        case (.result(let s1, let f1), .result(let s2, let f2)): return accepts(s1, s2) && accepts(f1, f2)
        case (.tuple(let xs), .tuple(let ys)) where xs.count == ys.count: return zip(xs, ys).allSatisfy { accepts($0, $1) }
        case (.publisher, .publisher): return true
        default: return e == a
        }
    }

    /// `cannot convert …` unless `actual` fits `expected`; a number literal fits a Double.
    func requireArgument(_ actual: SpecType, fits expected: SpecType, isNumberLiteral: Bool, at location: SourceLocation) {
        if isNumberLiteral, store.resolve(expected) == .double, store.resolve(actual) == .int { return }
        guard !accepts(expected, actual) else { return }
        error("cannot convert value of type '\(name(actual))' to expected argument type '\(name(expected))'", at: location)
    }

    // MARK: Declared types

    /// `User(name:age:)`, `LoadingState.loaded(_:)`, `Tab(rawValue:)`; nil when `type` is not declared.
    func userTypeCall(_ type: String, member: String?, _ args: [TypedArgument], at location: SourceLocation) -> Checked? {
        if let member {
            guard let enumType = types.enumType(type) else { return nil }
            if let function = types.staticMethods[enumType.name]?[member] { return callFunction(function, args, typeName: enumType.name, at: location) }
            guard let item = enumType.cases.first(where: { $0.name.name == member }) else {
                return error("type '\(enumType.name)' has no member '\(member)'", at: location, length: member.count,
                             hint: Suggestions.nearest(to: member, in: enumType.cases.map(\.name.name)).map { "did you mean '\($0)'?" })
            }
            checkPayload(item, of: enumType.name, args, at: location)
            return .value(.named(enumType.name))
        }
        if let structType = types.structType(type) {
            if let made = initializerCall(structType, args, at: location) { return made }
            if let mismatch = structType.labelMismatch(args.map(\.label)) { return error(mismatch.message, at: location, hint: mismatch.hint) }
            for argument in args {
                guard let field = structType.fields.first(where: { $0.name.name == argument.label }), let written = field.type,
                      let expected = specType(written: written.text) else { continue }
                requireArgument(valueType(argument.checked, at: argument.location, purpose: "the property '\(field.name.name)'"), fits: expected,
                                isNumberLiteral: argument.syntax.isNumberLiteral, at: argument.syntax.location)
            }
            return .value(.named(structType.name))
        }
        if let enumType = types.enumType(type) {
            guard let rawType = enumType.rawType, args.count == 1, args[0].label == "rawValue" else {
                return error("'\(enumType.name)' cannot be constructed because it has no accessible initializers", at: location,
                             hint: enumType.rawType == nil ? "write one of its cases: \(enumType.name).\(enumType.cases.first?.name.name ?? "…")"
                                                           : "write \(enumType.name)(rawValue: …) or one of its cases")
            }
            if let expected = specType(written: rawType) {
                requireArgument(valueType(args[0].checked, at: args[0].location, purpose: "a raw value"), fits: expected,
                                isNumberLiteral: args[0].syntax.isNumberLiteral, at: args[0].syntax.location)
            }
            return .value(.optional(.named(enumType.name)))
        }
        return nil
    }

    private func checkPayload(_ item: CaseDeclaration, of type: String, _ args: [TypedArgument], at location: SourceLocation) {
        guard args.count == item.payload.count else {
            error("'\(type).\(item.name.name)' takes \(item.payload.count) associated value\(item.payload.count == 1 ? "" : "s"), not \(args.count)", at: location,
                  length: item.name.name.count)
            return
        }
        for (argument, element) in zip(args, item.payload) {
            guard let expected = specType(written: element.type.text) else { continue }
            requireArgument(valueType(argument.checked, at: argument.location, purpose: "an associated value"), fits: expected,
                            isNumberLiteral: argument.syntax.isNumberLiteral, at: argument.syntax.location)
        }
    }

    /// `APIError.offline`, `User.self`; nil when `type` is not declared.
    func userStaticMember(_ name: String, of type: String, at location: SourceLocation) -> Checked? {
        guard let canonical = types.canonicalName(type) else { return nil }
        if name == "self" { return .type(canonical) }
        if let member = staticMember(name, of: canonical, at: location) { return member }
        guard let enumType = types.enums[canonical] else {
            guard types.structs[canonical] != nil else { return nil }
            return error("type '\(canonical)' has no member '\(name)'", at: location, length: name.count,
                         hint: "make a value with its memberwise initializer: \(canonical)(…)")
        }
        guard let item = enumType.cases.first(where: { $0.name.name == name }) else {
            return error("type '\(canonical)' has no member '\(name)'", at: location, length: name.count,
                         hint: Suggestions.nearest(to: name, in: enumType.cases.map(\.name.name)).map { "did you mean '\($0)'?" })
        }
        guard item.payload.isEmpty else { return .unknown }
        return .value(.named(canonical))
    }

    /// The type of `.offline` / `.status(404)` where no type is written: the one declared enum with that case.
    func implicitCase(_ name: String, _ payload: [Checked], at location: SourceLocation) -> SpecType? {
        let candidates = types.enumsWithCase(name)
        guard let enumType = candidates.first, let item = enumType.cases.first(where: { $0.name.name == name }) else { return nil }
        guard candidates.count == 1 else {
            error("'.\(name)' is ambiguous: \(candidates.map { "\($0.name).\(name)" }.joined(separator: " and ")) both exist", at: location,
                  length: name.count, hint: "write the type: \(candidates[0].name).\(name)")
            return .any
        }
        let args = payload.map { TypedArgument(label: nil, checked: $0, location: location, syntax: Expr(kind: .wildcard, location: location)) }
        checkPayload(item, of: enumType.name, args, at: location)
        return .named(enumType.name)
    }

    /// A member of a value of a declared type: a stored or computed property, `rawValue`, `description`.
    func namedMember(_ name: String, of type: String, at location: SourceLocation) -> Checked {
        if name == "description" { return .value(.string) }
        var members: [String] = ["description"]
        if let structType = types.structs[type] {
            if let field = structType.fields.first(where: { $0.name.name == name }) {
                guard let written = field.type else {
                    if let defaultValue = field.defaultValue, case .value(let type) = check(defaultValue, in: TypeEnvironment()) { return .value(type) }
                    return .unknown
                }
                return .value(specType(written: written.text) ?? .any)
            }
            members += structType.fields.map(\.name.name)
        }
        if let enumType = types.enums[type], let rawType = enumType.rawType {
            if name == "rawValue" { return .value(specType(written: rawType) ?? .any) }
            members.append("rawValue")
        }
        if let property = types.properties[type]?[name] { return .value(specType(written: property.type.text) ?? .any) }
        if let method = types.methods[type]?[name] { return functionReference(method) }
        members += (types.properties[type] ?? [:]).keys.sorted() + (types.methods[type] ?? [:]).keys.sorted()
        return error("value of type '\(type)' has no member '\(name)'", at: location, length: name.count,
                     hint: Suggestions.nearest(to: name, in: members).map { "did you mean '\($0)'?" })
    }

    /// Checks every computed property's body as a closure of `self` (and the stored properties)
    /// whose result must be the declared type.
    func checkComputedProperties(in env: TypeEnvironment) {
        for (typeName, properties) in types.properties.sorted(by: { $0.key < $1.key }) {
            let fields = types.structs[typeName]?.fields ?? []
            for property in properties.values.sorted(by: { $0.name.location < $1.name.location }) {
                let closure = ClosureReference(syntax: Closure(parameters: ["self"] + fields.map(\.name.name), body: property.body),
                                               environment: env, location: property.name.location, usesSecondAnonymousArgument: false)
                let arguments: [Checked] = [.value(.named(typeName))] + fields.map { field in
                    .value(field.type.flatMap { specType(written: $0.text) } ?? .any)
                }
                let outcome = check(closure, with: arguments, owner: "a computed property", allowsThrowing: false)
                guard let expected = specType(written: property.type.text) else { continue }
                let actual = valueType(outcome.result, at: outcome.resultLocation, purpose: "the property '\(property.name.name)'")
                if !accepts(expected, actual) {
                    error("cannot convert value of type '\(name(actual))' to the property's type '\(name(expected))'", at: outcome.resultLocation)
                }
            }
        }
    }

    // MARK: Written types in expressions

    /// `x as T` (checked: `x` must be a `T`), `x as? T` (a `T?`), `x as! T` (a `T`), given what
    /// `x` (`operand`) gave.
    func cast(_ checked: Checked, of operand: Expr, to type: TypeText, mode: CastMode) -> Checked {
        if mode == .annotation || mode == .result { return annotation(checked, of: operand, type, isResult: mode == .result) }
        let actual = valueType(checked, at: operand.location, purpose: "a cast")
        guard let target = specType(written: type.text) else {
            return error("cannot find type '\(type.text)' in scope", at: type.location, length: type.text.count)
        }
        if mode == .coerce, !(operand.isNumberLiteral && target == .double), !accepts(target, actual) {
            error("cannot convert value of type '\(name(actual))' to type '\(name(target))' in coercion", at: operand.location,
                  hint: "use 'as?' to test the type at run time, or a conversion such as \(name(target))(…)")
        }
        return .value(mode == .conditional ? .optional(target) : target)
    }

    /// `let x: T = value`: the value must be a `T`, and the name has the written type (a number
    /// literal written for a `Double` is one). Types the checker does not model (a function type,
    /// a generic type of Combine) leave the value's own type.
    private func annotation(_ checked: Checked, of operand: Expr, _ type: TypeText, isResult: Bool) -> Checked {
        if type.text.contains("->") { return checked }
        guard let target = specType(written: type.text) else {
            return error("cannot find type '\(type.text)' in scope", at: type.location, length: type.text.count,
                         hint: Suggestions.nearest(to: type.text, in: types.names + Array(UserTypes.builtinTypeNames)).map { "did you mean '\($0)'?" })
        }
        switch checked {
        case .value, .unknown: break
        case .member(let name, _):
            // `let state: LoadingState = .idle`: the case of the written enum.
            if case .named(let typeName) = store.resolve(target), let enumType = types.enumType(typeName) {
                if !enumType.cases.contains(where: { $0.name.name == name }) {
                    return error("type '\(enumType.name)' has no member '\(name)'", at: operand.location, length: name.count,
                                 hint: Suggestions.nearest(to: name, in: enumType.cases.map(\.name.name)).map { "did you mean '\($0)'?" })
                }
                return .value(target)
            }
            if store.resolve(target) == .any { return checked }
        default:
            return checked
        }
        let actual = Self.literalType(of: operand, as: store.resolve(target)) ?? valueType(checked, at: operand.location, purpose: "a value")
        if !accepts(target, actual) {
            error(isResult ? "cannot convert return expression of type '\(name(actual))' to return type '\(name(target))'"
                           : "cannot convert value of type '\(name(actual))' to specified type '\(name(target))'", at: operand.location)
            return .value(target)
        }
        return .value(store.resolve(target) == .any ? actual : target)
    }

    /// The type a literal takes where `target` is written: number literals become Doubles for a
    /// `Double` (in arrays and optionals too); nil when `expr` is no such literal.
    static func literalType(of expr: Expr, as target: SpecType) -> SpecType? {
        switch (expr.kind, target) {
        case (_, .optional(let wrapped)): return literalType(of: expr, as: wrapped)
        case (_, .double) where expr.isNumberLiteral: return .double
        case (.array(let items), .array(let element)) where !items.isEmpty:
            let types = items.map { literalType(of: $0, as: element) }
            guard types.allSatisfy({ $0 != nil }), let first = types.first ?? nil, types.allSatisfy({ $0 == first }) else { return nil }
            return .array(first)
        default: return nil
        }
    }

    /// The constructors whose generic arguments are their output and failure types.
    private static let genericConstructors: Set<String> = ["Just", "Fail", "Future", "Empty", "PassthroughSubject", "CurrentValueSubject", "Record"]

    /// Implicit members among the arguments of `Fail<String, MyError>(error: .notFound)` or
    /// `CurrentValueSubject<LoadingState, Never>(.idle)`: each is a case of the written enum.
    func contextualArguments(_ args: [TypedArgument], callee: Expr) -> [TypedArgument] {
        guard case .genericSpecialization(let base, let written) = callee.kind, case .identifier(let constructor) = base.kind,
              Self.genericConstructors.contains(constructor) else { return args }
        return args.map { argument in
            guard case .member(nil, let caseName) = argument.syntax.kind else { return argument }
            let index = constructor == "Fail" ? 1 : 0
            guard written.indices.contains(index), let enumType = types.enumType(written[index]) else { return argument }
            var resolved = argument
            if enumType.cases.contains(where: { $0.name.name == caseName && $0.payload.isEmpty }) {
                resolved.checked = .value(.named(enumType.name))
            } else {
                resolved.checked = error("type '\(enumType.name)' has no member '\(caseName)'", at: argument.syntax.location, length: caseName.count,
                                         hint: Suggestions.nearest(to: caseName, in: enumType.cases.map(\.name.name)).map { "did you mean '\($0)'?" })
            }
            return resolved
        }
    }

    /// A constructor's result with its generic arguments applied: each must name a type, and the
    /// values given must be of it (`Just<Int>("a")` is an error, as in Swift).
    func applyGenericArguments(_ result: Checked, callee: Expr, _ args: [TypedArgument]) -> Checked {
        guard case .genericSpecialization(let base, let written) = callee.kind else { return result }
        var column = base.range.end.column + 1
        var resolved: [SpecType?] = []
        for text in written {
            let type = specType(written: text)
            if type == nil {
                error("cannot find type '\(text)' in scope", at: SourceLocation(line: base.range.end.line, column: column), length: text.count,
                      hint: Suggestions.nearest(to: text, in: types.names + Array(UserTypes.builtinTypeNames)).map { "did you mean '\($0)'?" })
            }
            resolved.append(type)
            column += text.count + 2
        }
        guard case .identifier(let constructor) = base.kind, Self.genericConstructors.contains(constructor),
              case .value(let type) = result, case .publisher(let output, let failure) = store.resolve(type) else { return result }
        let writtenOutput = resolved.first ?? nil
        let writtenFailure = resolved.count > 1 ? resolved[1] : nil
        if let writtenOutput, !accepts(writtenOutput, output) {
            let at = args.first?.syntax.location ?? callee.location
            error("cannot convert value of type '\(name(output))' to expected argument type '\(name(writtenOutput))'", at: at)
        }
        if let writtenFailure, constructor == "Fail", !accepts(writtenFailure, failure) {
            let at = args.first?.syntax.location ?? callee.location
            error("cannot convert value of type '\(name(failure))' to expected argument type '\(name(writtenFailure))'", at: at)
        }
        let outputType = writtenOutput.map { store.resolve($0) == .any ? output : $0 } ?? output
        let failureType = writtenFailure.map { store.resolve($0) == .any ? failure : $0 } ?? failure
        return .value(.publisher(output: outputType, failure: failureType))
    }
}

extension UserTypes.StructType {
    /// Swift's complaint about the labels of a memberwise initializer call, or nil when they fit
    /// (stored properties with a default may be left out).
    func labelMismatch(_ labels: [String?]) -> (message: String, hint: String)? {
        let expected = fields.map { "\($0.name.name):" }.joined()
        let hint = "\(name)(\(expected))"
        var index = 0
        for field in fields {
            if index < labels.count, labels[index] == field.name.name {
                index += 1
            } else if field.defaultValue == nil {
                if labels.count == fields.count {
                    let have = labels.map { ($0 ?? "_") + ":" }.joined()
                    return ("incorrect argument label\(labels.count == 1 ? "" : "s") in call (have '\(have)', expected '\(expected)')", hint)
                }
                return ("missing argument for parameter '\(field.name.name)' in call", hint)
            }
        }
        if index < labels.count {
            return ("extra argument\(labels[index].map { " '\($0)'" } ?? "") in call", hint)
        }
        return nil
    }
}
