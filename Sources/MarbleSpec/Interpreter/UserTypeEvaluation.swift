import MarbleSyntax

/// The interpreter's side of the file's own types (`UserTypes`): memberwise initialisers, enum
/// cases (qualified, implicit and by raw value), stored and computed properties, and `as` casts.
extension Interpreter {
    /// `User(name: "Ann", age: 3)`, `LoadingState.loaded(items)`, `Tab(rawValue: "home")`; nil
    /// when `type` is not a declared type (or `member` not one of its cases).
    func userTypeCall(_ type: String, member: String?, _ args: [CallArgument], at location: SourceLocation) throws(EvalError) -> Runtime? {
        if let member {
            guard let enumType = types.enumType(type), let item = enumType.cases.first(where: { $0.name.name == member }) else { return nil }
            return .value(try enumCase(enumType, item, args, at: location))
        }
        if let structType = types.structType(type) {
            let initializers = types.initializers[structType.name] ?? []
            if let chosen = initializers.first(where: { (try? FunctionCalls.match(args.map(\.label), to: $0).get()) != nil }) {
                return .value(try initialize(structType, with: chosen, args, at: location))
            }
            if types.replacesMemberwise.contains(structType.name), let first = initializers.first {
                let nearest = initializers.first { $0.parameters.first?.label == args.first?.label } ?? first
                _ = try arrange(args, for: nearest, typeName: structType.name, at: location)
            }
            return .value(try memberwise(structType, args, at: location))
        }
        if let enumType = types.enumType(type) {
            guard enumType.rawType != nil, args.count == 1, args[0].label == "rawValue" else {
                throw fail("'\(enumType.name)' cannot be constructed because it has no accessible initializers", at: location,
                           hint: enumType.rawType == nil ? "write one of its cases: \(enumType.name).\(enumType.cases.first?.name.name ?? "…")"
                                                         : "write \(enumType.name)(rawValue: …) or one of its cases")
            }
            let raw = try valueOf(args[0].value, at: args[0].location, purpose: "a raw value")
            let found = enumType.cases.first { enumType.rawValues[$0.name.name] == raw }
            return .value(found.map { .record(Instance(type: enumType.name, caseName: $0.name.name, labels: [], values: [])) } ?? .null)
        }
        return nil
    }

    private func memberwise(_ type: UserTypes.StructType, _ args: [CallArgument], at location: SourceLocation) throws(EvalError) -> Value {
        if let mismatch = type.labelMismatch(args.map(\.label)) { throw fail(mismatch.message, at: location, hint: mismatch.hint) }
        var values: [Value] = []
        var index = 0
        for field in type.fields {
            if index < args.count, args[index].label == field.name.name {
                values.append(Value.adoptingSet(try valueOf(args[index].value, at: args[index].location, purpose: "the property '\(field.name.name)'"),
                                                written: field.type?.text))
                index += 1
            } else if let defaultValue = field.defaultValue {
                values.append(Value.adoptingSet(try valueOf(evaluate(defaultValue, in: globals), at: defaultValue.location, purpose: "a default value"),
                                                written: field.type?.text))
            } else {
                throw fail("missing argument for parameter '\(field.name.name)' in call", at: location,
                           hint: "\(type.name)(\(type.fields.map { "\($0.name.name):" }.joined()))")
            }
        }
        if index < args.count {
            throw fail("extra argument\(args[index].label.map { " '\($0)'" } ?? "") in call", at: args[index].location,
                       hint: "\(type.name)(\(type.fields.map { "\($0.name.name):" }.joined()))")
        }
        return .record(Instance(type: type.name, caseName: nil, labels: type.fields.map(\.name.name), values: values))
    }

    func enumCase(_ type: UserTypes.EnumType, _ item: CaseDeclaration, _ args: [CallArgument], at location: SourceLocation) throws(EvalError) -> Value {
        guard args.count == item.payload.count else {
            throw fail("'\(type.name).\(item.name.name)' takes \(item.payload.count) associated value\(item.payload.count == 1 ? "" : "s"), not \(args.count)", at: location)
        }
        var values: [Value] = []
        for argument in args { values.append(try valueOf(argument.value, at: argument.location, purpose: "an associated value")) }
        return .record(Instance(type: type.name, caseName: item.name.name, labels: item.payload.map(\.label), values: values))
    }

    /// `APIError.offline`, `LoadingState.self`; nil when `type` is not a declared type.
    func userStaticMember(_ name: String, of type: String, at location: SourceLocation) throws(EvalError) -> Runtime? {
        guard let canonical = types.canonicalName(type) else { return nil }
        if name == "self" { return .type(canonical) }
        if let member = try staticMember(name, of: canonical) { return member }
        guard let enumType = types.enums[canonical] else { return nil }
        guard let item = enumType.cases.first(where: { $0.name.name == name }) else {
            throw fail("type '\(canonical)' has no member '\(name)'", at: location,
                       hint: Suggestions.nearest(to: name, in: enumType.cases.map(\.name.name)).map { "did you mean '\($0)'?" })
        }
        // A case with associated values is applied by `userTypeCall`; alone it is a function.
        guard item.payload.isEmpty else { return .function("\(canonical).\(name)", receiver: nil) }
        return .value(.record(Instance(type: canonical, caseName: name, labels: [], values: [])))
    }

    /// `.offline` or `.status(404)` where a value is needed and no type is written: the case of
    /// the one declared enum that has it.
    func implicitEnumCase(_ name: String, _ payload: [Runtime], at location: SourceLocation) throws(EvalError) -> Value? {
        let candidates = types.enumsWithCase(name)
        guard let enumType = candidates.first, let item = enumType.cases.first(where: { $0.name.name == name }) else { return nil }
        guard candidates.count == 1 else {
            throw fail("'.\(name)' is ambiguous: \(candidates.map { "\($0.name).\(name)" }.joined(separator: " and ")) both exist", at: location,
                       hint: "write the type: \(candidates[0].name).\(name)")
        }
        let args = payload.map { CallArgument(label: nil, value: $0, location: location, syntax: Expr(kind: .wildcard, location: location)) }
        return try enumCase(enumType, item, args, at: location)
    }

    /// A stored or computed property, or `rawValue`; nil for any other name.
    func recordMember(_ name: String, of record: Instance, at location: SourceLocation) throws(EvalError) -> Runtime? {
        if record.caseName == nil, let index = record.labels.firstIndex(of: name) { return .value(record.values[index]) }
        if name == "rawValue", let caseName = record.caseName, let raw = types.enums[record.type]?.rawValues[caseName] { return .value(raw) }
        if let method = types.methods[record.type]?[name] { return .closure(functionValue(method, receiver: record)) }
        guard let property = types.properties[record.type]?[name] else { return nil }
        // The body sees `self` and, as in Swift, the stored properties by name.
        let fields = record.caseName == nil ? record.labels.compactMap { $0 } : []
        let closure = ClosureValue(syntax: Closure(parameters: ["self"] + fields, body: property.body), environment: globals, location: property.name.location)
        return try call(closure, with: [.value(.record(record))] + (record.caseName == nil ? record.values.map(Runtime.value) : []))
    }

    /// The implicit members among the arguments of `Fail<String, APIError>(error: .offline)` or
    /// `CurrentValueSubject<LoadingState, Never>(.idle)`: each must be a case of the written enum.
    func checkContextualMembers(_ callee: Expr, _ arguments: [Argument]) throws(EvalError) {
        guard case .genericSpecialization(let base, let written) = callee.kind, case .identifier(let constructor) = base.kind else { return }
        let index = constructor == "Fail" ? 1 : 0
        guard written.indices.contains(index), let enumType = types.enumType(written[index]) else { return }
        for argument in arguments {
            guard case .member(nil, let name) = argument.value.kind, !enumType.cases.contains(where: { $0.name.name == name }) else { continue }
            throw fail("type '\(enumType.name)' has no member '\(name)'", at: argument.value.location,
                       hint: Suggestions.nearest(to: name, in: enumType.cases.map(\.name.name)).map { "did you mean '\($0)'?" })
        }
    }

    /// `x as T`, `x as? T`, `x as! T`, where `x` (the expression `operand`) evaluated to `runtime`.
    func cast(_ runtime: Runtime, of operand: Expr, to type: TypeText, mode: CastMode) throws(EvalError) -> Runtime {
        if mode == .annotation || mode == .result {
            // `let x: Double = 0`: a literal takes the written type; anything else is as it is
            // (the checker has made sure it is of that type).
            guard case .value(let value) = runtime else {
                if case .member(let name, let payload) = runtime, let enumType = types.enumType(type.text),
                   let item = enumType.cases.first(where: { $0.name.name == name }) {
                    let args = payload.map { CallArgument(label: nil, value: $0, location: operand.location, syntax: operand) }
                    return .value(try enumCase(enumType, item, args, at: operand.location))
                }
                if case .member(let name, let payload) = runtime, payload.isEmpty, let owner = types.canonicalName(type.text),
                   let member = try staticMember(name, of: owner) {
                    return member
                }
                // `let r: Result<Int, Error> = .success(1)`.
                if case .member(let name, let payload) = runtime, EnumCases.isContextual(name, payload) {
                    return .value(try valueOf(runtime, at: operand.location, purpose: "a value"))
                }
                return runtime
            }
            return .value(Self.adoptingLiterals(value, of: operand, as: type.text))
        }
        var value = try valueOf(runtime, at: operand.location, purpose: "a cast")
        // `1 as Double` is the Double 1.0, as Swift types the literal.
        if type.text == "Double", operand.isNumberLiteral, case .int(let n) = value { value = .double(Double(n)) }
        if mode == .coerce || matches(value, type.text) { return .value(value) }
        if mode == .conditional { return .value(.null) }
        throw fail("could not cast value of type '\(value.typeName)' (\(value.literal)) to '\(type.text)'", at: operand.location,
                   hint: "use 'as?' to get nil instead")
    }

    /// `value`, the value of `expr`, with its number literals made Doubles where `written` says
    /// `Double` (`let xs: [Double] = [1, 2]`), as Swift types them.
    static func adoptingLiterals(_ value: Value, of expr: Expr, as written: String) -> Value {
        var type = written.trimmingCharacters(in: .whitespaces)
        while type.hasSuffix("?") { type = String(type.dropLast()).trimmingCharacters(in: .whitespaces) }
        if type == "Set" || type.hasPrefix("Set<") { return Value.adoptingSet(value, written: type) }
        switch (value, expr.kind) {
        case (.int(let n), _) where type == "Double" && expr.isNumberLiteral: return .double(Double(n))
        case (.array(let items), .array(let elements)) where type.hasPrefix("[") && type.hasSuffix("]") && items.count == elements.count:
            let element = String(type.dropFirst().dropLast())
            return .array(zip(items, elements).map { adoptingLiterals($0, of: $1, as: element) })
        default: return value
        }
    }

    /// Whether a value is of a written type (for `as?` and `as!`).
    func matches(_ value: Value, _ written: String) -> Bool {
        let text = types.canonicalName(written) ?? written
        if text == "Any" { return true }
        if text.hasSuffix("?") { return value == .null || matches(value, String(text.dropLast())) }
        if text.hasPrefix("["), text.hasSuffix("]"), case .array(let items) = value {
            let element = String(text.dropFirst().dropLast())
            return items.allSatisfy { matches($0, element) }
        }
        switch value {
        case .record(let record): return record.type == text || (text == "Error" && types.isErrorType(record.type))
        case .null: return false
        default: return value.typeName == text || (text == "Error" && value.typeName == "String")
        }
    }
}
