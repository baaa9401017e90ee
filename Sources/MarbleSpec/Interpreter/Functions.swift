import MarbleSyntax

/// The interpreter's side of the file's functions: `func` at file or test level, methods,
/// `static func`, `static let` and `init` of the file's types.
extension Interpreter {
    /// `function` as a closure; a method's sees `self` (and, as in Swift, the stored properties by
    /// their names).
    func functionValue(_ function: FunctionDeclaration, receiver: Instance? = nil) -> ClosureValue {
        var environment = globals
        if let receiver {
            environment = Environment(parent: globals)
            environment["self"] = .value(.record(receiver))
            if receiver.caseName == nil, !function.isMutating {
                for (label, value) in zip(receiver.labels, receiver.values) {
                    if let label { environment[label] = .value(value) }
                }
            }
        }
        var closure = ClosureValue(syntax: Closure(parameters: function.parameters.map(\.name), body: function.body),
                                   environment: environment, location: function.name.location)
        closure.function = function
        return closure
    }

    /// The arguments of a call of `function` in the order of its parameters, with the defaults
    /// of those left out.
    func arrange(_ args: [CallArgument], for function: FunctionDeclaration, typeName: String? = nil,
                 at location: SourceLocation) throws(EvalError) -> [Runtime] {
        switch FunctionCalls.match(args.map(\.label), to: function, typeName: typeName) {
        case .failure(let mismatch):
            throw fail(mismatch.message, at: location, hint: mismatch.hint)
        case .success(let slots):
            var values: [Runtime] = []
            for (slot, parameter) in zip(slots, function.parameters) {
                if let slot {
                    // `.offline` or `.zero` for a parameter of a declared type is its member.
                    values.append(try cast(args[slot].value, of: args[slot].syntax, to: parameter.type, mode: .annotation))
                } else if let defaultValue = parameter.defaultValue {
                    values.append(try evaluate(annotated(defaultValue, parameter.type), in: globals))
                }
            }
            return values
        }
    }

    /// `value` as the written type decides a literal (`_ x: Double = 1` is 1.0).
    private func annotated(_ value: Expr, _ type: TypeText) -> Expr {
        Expr(kind: .cast(value, type: type, mode: .annotation), location: value.location, range: value.range)
    }

    /// `init(…)` of a struct: the body runs with `self` a `var` whose stored properties start at
    /// their defaults; every property without one must be set.
    func initialize(_ type: UserTypes.StructType, with initializer: FunctionDeclaration, _ args: [CallArgument],
                    at location: SourceLocation) throws(EvalError) -> Value {
        let arguments = try arrange(args, for: initializer, typeName: type.name, at: location)
        var values: [Value] = []
        for field in type.fields {
            if let defaultValue = field.defaultValue {
                values.append(Value.adoptingSet(try valueOf(evaluate(defaultValue, in: globals), at: defaultValue.location, purpose: "a default value"),
                                                written: field.type?.text))
            } else {
                values.append(.null)
            }
        }
        let env = Environment(parent: globals)
        env["self"] = .value(.record(Instance(type: type.name, caseName: nil, labels: type.fields.map(\.name.name), values: values)))
        var closure = ClosureValue(syntax: Closure(parameters: initializer.parameters.map(\.name), body: initializer.body),
                                   environment: env, location: initializer.name.location)
        closure.function = initializer
        _ = try call(closure, with: arguments)
        guard case .value(.record(let made))? = env["self"] else { throw fail("'init' did not make a value", at: location) }
        return .record(made)
    }

    /// A `mutating func` called on `receiver` (the value of a `var`): its result, and `self` as
    /// the body left it.
    func callMutating(_ method: FunctionDeclaration, on receiver: Instance, _ args: [CallArgument],
                      at location: SourceLocation) throws(EvalError) -> (Runtime, Instance) {
        let closure = functionValue(method, receiver: receiver)
        let result = try call(closure, with: arrange(args, for: method, typeName: receiver.type, at: location))
        guard case .value(.record(let changed))? = closure.environment["self"] else { return (result, receiver) }
        return (result, changed)
    }

    /// `User.guest`, `User.make(…)`, `Outer.Inner`: the static members of a declared type.
    func staticMember(_ name: String, of type: String) throws(EvalError) -> Runtime? {
        if let property = types.staticProperties[type]?[name] {
            let value = property.type.map { Expr(kind: .cast(property.value, type: $0, mode: .annotation), location: property.value.location, range: property.value.range) }
            return try evaluate(value ?? property.value, in: globals)
        }
        if let function = types.staticMethods[type]?[name] { return .closure(functionValue(function)) }
        if types.canonicalName(type + "." + name) != nil { return .type(type + "." + name) }
        return nil
    }
}
