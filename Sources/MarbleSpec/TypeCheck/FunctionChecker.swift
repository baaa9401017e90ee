import MarbleSyntax

/// The checker's side of the file's functions (`Interpreter+Functions`): calls are checked
/// against the declared parameters and give the declared result; each body is checked once,
/// with its parameters of their declared types.
extension ExpressionChecker {
    /// `function` as something callable; `receiver` is the type of a method's `self`.
    func functionReference(_ function: FunctionDeclaration) -> Checked {
        var reference = ClosureReference(syntax: Closure(parameters: function.parameters.map(\.name), body: function.body),
                                         environment: TypeEnvironment(), location: function.name.location, usesSecondAnonymousArgument: false)
        reference.function = function
        return .closure(reference)
    }

    /// The declared result of `function` (`Void` when none is written).
    func resultType(of function: FunctionDeclaration) -> SpecType {
        function.result.map { specType(written: $0.text) ?? .any } ?? .void
    }

    /// A call with labels: matched to the parameters as Swift does, each argument of its parameter's type.
    func callFunction(_ function: FunctionDeclaration, _ args: [TypedArgument], typeName: String? = nil, at location: SourceLocation) -> Checked {
        switch FunctionCalls.match(args.map(\.label), to: function, typeName: typeName) {
        case .failure(let mismatch):
            return error(mismatch.message, at: location, hint: mismatch.hint)
        case .success(let slots):
            for (slot, parameter) in zip(slots, function.parameters) {
                guard let slot, let expected = specType(written: parameter.type.text) else { continue }
                let argument = args[slot]
                requireArgument(valueType(argument.checked, at: argument.location, purpose: "the parameter '\(parameter.name)'"), fits: expected,
                                isNumberLiteral: argument.syntax.isNumberLiteral, at: argument.syntax.location)
            }
            if function.isThrowing { noteThrow(.any, at: location) }
            return function.name.name == "init" ? .unknown : .value(resultType(of: function))
        }
    }

    /// A function passed where a closure goes (`xs.map(double)`): positional arguments of the
    /// parameters' types.
    func functionOutcome(_ function: FunctionDeclaration, with arguments: [Checked], at location: SourceLocation) -> ClosureOutcome {
        if arguments.count != function.parameters.count {
            error("'\(function.signature)' takes \(function.parameters.count) argument\(function.parameters.count == 1 ? "" : "s") but is passed \(arguments.count) here",
                  at: location)
        } else {
            for (argument, parameter) in zip(arguments, function.parameters) {
                guard let expected = specType(written: parameter.type.text) else { continue }
                let actual = valueType(argument, at: location, purpose: "the parameter '\(parameter.name)'")
                if !accepts(expected, actual) {
                    error("cannot convert value of type '\(name(actual))' to expected argument type '\(name(expected))'", at: location,
                          hint: "'\(function.signature)' takes \(name(expected)) for '\(parameter.name)'")
                }
            }
        }
        return ClosureOutcome(result: .value(resultType(of: function)), resultLocation: location, thrown: function.isThrowing ? .any : .never)
    }

    /// `User.guest`, `User.make(…)`, `Outer.Inner`; nil when `type` has no such static member.
    func staticMember(_ name: String, of type: String, at location: SourceLocation) -> Checked? {
        if let property = types.staticProperties[type]?[name] {
            if let written = property.type { return .value(specType(written: written.text) ?? .any) }
            return check(property.value, in: TypeEnvironment())
        }
        if let function = types.staticMethods[type]?[name] { return functionReference(function) }
        if types.canonicalName(type + "." + name) != nil { return .type(type + "." + name) }
        return nil
    }

    /// `init(…)` of a struct: the one whose labels fit; with none, the memberwise initializer
    /// unless the struct's body declares an `init`.
    func initializerCall(_ type: UserTypes.StructType, _ args: [TypedArgument], at location: SourceLocation) -> Checked? {
        let initializers = types.initializers[type.name] ?? []
        if let chosen = initializers.first(where: { (try? FunctionCalls.match(args.map(\.label), to: $0).get()) != nil }) {
            _ = callFunction(chosen, args, typeName: type.name, at: location)
            return .value(.named(type.name))
        }
        if types.replacesMemberwise.contains(type.name), let first = initializers.first {
            // The messages of the init whose first label the call has (Swift's nearest candidate).
            let nearest = initializers.first { $0.parameters.first?.label == args.first?.label } ?? first
            _ = callFunction(nearest, args, typeName: type.name, at: location)
            return .value(.named(type.name))
        }
        return nil
    }

    /// Checks the body of every function of the file and of its types once.
    func checkFunctions(in env: TypeEnvironment) {
        for function in types.functions.values.sorted(by: { $0.name.location < $1.name.location }) {
            checkBody(of: function, receiver: nil, in: env)
        }
        let members = [types.methods, types.staticMethods].flatMap { $0.flatMap { type, functions in functions.values.map { (type, $0) } } }
            + types.initializers.flatMap { type, functions in functions.map { (type, $0) } }
        for (type, function) in members.sorted(by: { $0.1.name.location < $1.1.name.location }) {
            checkBody(of: function, receiver: function.isStatic ? nil : type, in: env)
        }
    }

    private func checkBody(of function: FunctionDeclaration, receiver: String?, in env: TypeEnvironment) {
        let scope = TypeEnvironment(parent: env)
        if let receiver {
            // `self` can change only in an `init` and a `mutating func`, as in Swift.
            let isMutable = function.isMutating || function.name.name == "init"
            if isMutable { scope.declareVariable("self", .value(.named(receiver))) } else { scope["self"] = .value(.named(receiver)) }
            if function.name.name != "init", !function.isMutating {
                for field in types.structs[receiver]?.fields ?? [] {
                    scope[field.name.name] = .value(field.type.flatMap { specType(written: $0.text) } ?? .any)
                }
            }
        }
        for parameter in function.parameters {
            if let defaultValue = parameter.defaultValue, let expected = specType(written: parameter.type.text) {
                let actual = valueType(check(defaultValue, in: env), at: defaultValue.location, purpose: "a default value")
                requireArgument(actual, fits: expected, isNumberLiteral: defaultValue.isNumberLiteral, at: defaultValue.location)
            }
        }
        var closure = ClosureReference(syntax: Closure(parameters: function.parameters.map(\.name), body: function.body),
                                       environment: scope, location: function.name.location, usesSecondAnonymousArgument: false)
        closure.function = nil
        let arguments: [Checked] = function.parameters.map { .value(specType(written: $0.type.text) ?? .any) }
        let owner = function.name.name == "init" ? "init" : "func \(function.name.name)"
        let outcome = check(closure, with: arguments, owner: owner, allowsThrowing: function.isThrowing)
        let expected = resultType(of: function)
        guard function.name.name != "init", expected != .void else { return }
        if !function.alwaysReturns {
            let kind = function.isStatic ? "static method" : receiver == nil ? "global function" : "instance method"
            error("missing return in \(kind) expected to return '\(name(expected))'", at: function.name.location,
                  length: function.name.name.count, hint: "every way through the body must end with 'return VALUE' (or 'throw')")
            return
        }
        let actual = valueType(outcome.result, at: outcome.resultLocation, purpose: "the result of '\(function.name.name)'")
        if !accepts(expected, actual) {
            error("cannot convert return expression of type '\(name(actual))' to return type '\(name(expected))'", at: outcome.resultLocation)
        }
    }
}
