import MarbleSyntax

/// One argument of a call, checked (a closure stays unchecked until its caller is known).
struct TypedArgument {
    var label: String?
    var checked: Checked
    var location: SourceLocation
    var syntax: Expr
}

/// Calls: operators and constructors (`OperatorTypes`), methods of values (`MemberTypes`),
/// the builtin functions, closures, promises and schedulers — as `Interpreter.evaluateCall`,
/// `Interpreter.call` and `Builtins.callFunction` dispatch them.
extension ExpressionChecker {
    /// A call's arguments, checked first (before its callee), in order.
    func checkArguments(_ arguments: [Argument], in env: TypeEnvironment) -> [TypedArgument] {
        arguments.map { argument -> TypedArgument in
            var checked = check(argument.value, in: env)
            // Overloads and conversions look at the argument's decided type.
            if case .value(let type) = checked { checked = .value(store.resolve(type)) }
            if case .identifier(let name) = argument.value.kind, case .int(let n)? = constants[name],
               let scope = constantScope, env.scope(defining: name) === scope {
                constantIntegerArguments[argument.value.location] = n
            }
            return TypedArgument(label: argument.label, checked: checked, location: argument.location, syntax: argument.value)
        }
    }

    /// A call whose callee is no link of a chain (`.milliseconds(300)`, `[User]()`), checked
    /// whole; nil for any other (`check(_:in:)` walks it as a link).
    func checkCallOfNoChain(callee: Expr, _ args: [TypedArgument], in env: TypeEnvironment) -> Checked? {
        switch callee.kind {
        case .member(nil, let name):
            return implicitMemberCall(name, args, at: callee.location)
        case .array(let elements) where elements.count == 1 && args.isEmpty:
            // `[User]()`: an empty array of a type.
            if case .type(let name) = check(elements[0], in: env) { return .value(.array(specType(written: name) ?? .any)) }
            return call(check(callee, in: env), args, at: callee.location)
        default:
            return nil
        }
    }

    /// `receiver.name(args)`: an operator on a publisher, a method of a value, a static member
    /// of a type; `location` is the member's name.
    func methodCall(_ name: String, on receiver: Checked, _ args: [TypedArgument], at location: SourceLocation) -> Checked {
        switch receiver {
        case .value(let type):
            switch store.resolve(type) {
            case .publisher(let output, let failure):
                return applyOperator(name, to: StreamType(output: output, failure: failure), args, at: location)
            case .any:
                return .unknown
            default:
                return method(name, on: type, args, at: location)
            }
        case .type(let typeName):
            if let result = resultCase(typeName, name, args, at: location) { return result }
            if typeName == "Optional", name == "some", args.count == 1, args[0].label == nil {
                // `Optional.some(x)` (`EnumCases.construct`): x, as an optional.
                let wrapped = valueType(args[0].checked, at: args[0].location, purpose: "the value of .some")
                if case .optional = store.resolve(wrapped) { return .value(wrapped) }
                return .value(.optional(wrapped))
            }
            if let made = userTypeCall(typeName, member: name, args, at: location) { return made }
            let qualified = typeName + "." + name
            if Catalogue.isConstructor(qualified) { return construct(qualified, args, at: location) }
            return call(member(name, of: receiver, at: location), args, at: location)
        default:
            return call(member(name, of: receiver, at: location), args, at: location)
        }
    }

    /// `.milliseconds(300)`, `.max(1)`, `.success(v)`, `.byTime(s, 3)` (`Builtins.implicitMemberCall`).
    private func implicitMemberCall(_ name: String, _ args: [TypedArgument], at location: SourceLocation) -> Checked {
        if ["seconds", "milliseconds", "microseconds", "nanoseconds"].contains(name) {
            guard args.count == 1, case .value(let amount) = args[0].checked else {
                if args.count == 1, args[0].checked.isUnknown { return .duration }
                return error(".\(name)(_:) takes one number", at: location)
            }
            switch store.resolve(amount) {
            case .int, .double, .any, .never: return .duration
            case .variable(let index):
                store.bind(index, to: .int)
                return .duration
            case let other: return error(".\(name)(_:) takes a number, not '\(self.name(other))'", at: location)
            }
        }
        if name == "max" {
            if args.count == 1, case .value(let type) = args[0].checked, [.int, .any].contains(store.resolve(type)) { return .demand }
            if args.count == 1, args[0].checked.isUnknown { return .demand }
            return error(".max(_:) takes a non-negative Int", at: location)
        }
        return .member(name, args.map(\.checked))
    }

    /// Calls something callable (`Interpreter.call`).
    func call(_ callee: Checked, _ args: [TypedArgument], at location: SourceLocation) -> Checked {
        switch callee {
        case .closure(let closure):
            if let function = closure.function { return callFunction(function, args, at: location) }
            // A local closure: its throws belong to the closure that calls it.
            return check(closure, with: args.map(\.checked), owner: nil, allowsThrowing: true).result
        case .promise(let sink):
            guard args.count == 1, case .member(let kind, let payload) = args[0].checked, payload.count == 1, kind == "success" || kind == "failure" else {
                return error("call the promise with .success(value) or .failure(error)", at: location)
            }
            let type = valueType(payload[0], at: args[0].location, purpose: "a promise's result")
            if kind == "success" { sink.output = store.join(sink.output, type) } else { sink.failure = store.join(sink.failure, type) }
            return .value(.void)
        case .type(let name):
            if let made = userTypeCall(name, member: nil, args, at: location) { return made }
            if Catalogue.isConstructor(name) { return construct(name, args, at: location) }
            if let dictionary = emptyDictionary(name, args, at: location) { return dictionary }
            return function(name, args, at: location)
        case .function(let name, nil):
            return function(name, args, at: location)
        case .function(let name, .scheduler?):
            return schedule(name, args, at: location)
        case .function(let name, .value(let type)?):
            return method(name, on: type, args, at: location)
        case .scheduler:
            return .scheduler
        case .value(let type):
            switch store.resolve(type) {
            case .any, .never, .variable: return .unknown
            case let other: return error("cannot call value of non-function type '\(name(other))'", at: location)
            }
        case .unknown, .function:
            return .unknown
        default:
            return error("cannot call \(callee.kindDescription)", at: location)
        }
    }

    // MARK: Builtin functions

    /// `print`, `min`, `max`, `abs`, `Int(_:)`, `Double(_:)`, `String(_:)`, `Bool(_:)` (`Builtins.callFunction`).
    private func function(_ name: String, _ args: [TypedArgument], at location: SourceLocation) -> Checked {
        if let formatted = stringFormat(name, args, at: location) { return formatted }
        if name == "stride" { return strideType(args, at: location) }
        let types = args.map { valueType($0.checked, at: $0.location, purpose: "an argument of \(name)") }
        let first = types.first.map { operandOf($0) }
        switch (name, types.count) {
        case ("print", _):
            return .value(.void)
        case ("min", 2...), ("max", 2...):
            var result = SpecType.never
            for (index, type) in types.enumerated() {
                if index > 0, !comparable(type, types[0]) {
                    return error("global function '\(name)' requires that the arguments have one Comparable type; '\(self.name(types[0]))' and '\(self.name(type))' differ",
                                 at: args[index].location)
                }
                result = store.join(result, type)
            }
            return .value(result)
        case ("abs", 1):
            switch first {
            case .int?, .double?, .any?, .never?: return .value(types[0])
            default: return error("abs(_:) needs a number, not '\(self.name(types[0]))'", at: location)
            }
        case ("Int", 1), ("Double", 1), ("TimeInterval", 1):
            let result: SpecType = name == "Int" ? .int : .double
            switch first {
            case .int?, .double?: return .value(result)
            case .string?, .any?, .never?: return .value(.optional(result))
            default: return error("\(name)(_:) cannot convert a value of type '\(self.name(types[0]))'", at: location)
            }
        case ("String", 1):
            return .value(.string)
        case ("Optional", 1):
            // `Optional(x)`: x wrapped (an optional stays one: the interpreter has one level of nil).
            if case .optional = store.resolve(types[0]) { return .value(types[0]) }
            return .value(.optional(types[0]))
        case ("Array", 1):
            return .value(.array(elementType(ofSequence: types[0], at: args[0].location) ?? .any))
        case ("Bool", 1):
            switch first {
            case .bool?: return .value(.bool)
            case .string?, .any?, .never?: return .value(.optional(.bool))
            default: return error("Bool(_:) cannot convert a value of type '\(self.name(types[0]))'", at: location)
            }
        default:
            return error("cannot call '\(name)' with \(types.count) argument\(types.count == 1 ? "" : "s")", at: location)
        }
    }

    /// An argument's type as a function sees it: an optional is the value it holds (a `nil`
    /// fails only at run time); an undecided type stays open.
    private func operandOf(_ type: SpecType) -> SpecType {
        var current = store.resolve(type)
        while case .optional(let wrapped) = current { current = store.resolve(wrapped) }
        if case .variable = current { return .any }
        return current
    }

    // MARK: Methods of values

    /// `.uppercased()`, `.contains(_:)`, `.isMultiple(of:)`, `[…].map { … }`, … (`Builtins.method`).
    func method(_ name: String, on receiverType: SpecType, _ args: [TypedArgument], at location: SourceLocation) -> Checked {
        // A key path stands for the closure that reads it (`users.map(\.name)`), as the interpreter runs it.
        let args = args.map { argument -> TypedArgument in
            guard case .keyPath(let path, let at) = argument.checked else { return argument }
            var body = Expr(kind: .identifier("$0"), location: at)
            for component in path { body = Expr(kind: .member(base: body, name: component), location: at) }
            var closure = argument
            closure.checked = .closure(ClosureReference(syntax: Closure(parameters: nil, body: [.expression(body)]), environment: TypeEnvironment(),
                                                        location: at, usesSecondAnonymousArgument: false))
            return closure
        }
        var receiver = store.resolve(receiverType)
        if case .variable(let index) = receiver {
            let kind = MemberTypes.Kind.allCases.first { MemberTypes.method(name, $0) != nil || MemberTypes.hasProperty(name, $0) } ?? .string
            store.bind(index, to: kind == .array ? .array(store.fresh()) : kind.defaultType)
            receiver = store.resolve(receiver)
        }
        if name == "map" || name == "flatMap", case .optional(let wrapped) = receiver, store.resolve(wrapped) != .never {
            return optionalMap(name, wrapped: store.resolve(wrapped), args, at: location)
        }
        while case .optional(let wrapped) = receiver, store.resolve(wrapped) != .never { receiver = store.resolve(wrapped) }
        switch receiver {
        case .any, .never, .optional: return .unknown
        case .publisher(let output, let failure): return applyOperator(name, to: StreamType(output: output, failure: failure), args, at: location)
        case .named(let type):
            if let method = types.methods[type]?[name] {
                if method.isMutating {
                    return error("cannot use mutating member on immutable value of type '\(type)'", at: location, length: name.count,
                                 hint: "call it on a 'var': var value = …; value.\(name)(…)")
                }
                return callFunction(method, args, typeName: type, at: location)
            }
            if MemberTypes.kind(of: receiver) == nil, types.properties[type]?[name] == nil, types.structs[type]?.fields.contains(where: { $0.name.name == name }) != true {
                return error("value of type '\(type)' has no member '\(name)'", at: location, length: name.count,
                             hint: Suggestions.nearest(to: name, in: types.memberNames(of: type)).map { "did you mean '\($0)'?" })
            }
        default: break
        }
        if let kind = AppMembers.Kind(receiver), let appMethod = AppMembers.method(name, kind),
           appMethod.accepts(args.map { ($0.label, $0.isClosure) }) || MemberTypes.kind(of: receiver).flatMap({ MemberTypes.method(name, $0) }) == nil {
            return self.appMethod(name, appMethod, on: receiver, args, at: location)
        }
        guard let kind = MemberTypes.kind(of: receiver), let signature = MemberTypes.method(name, kind) else {
            if case .tuple = receiver { return callOfTupleMember(name, receiver, at: location) }
            if let kind = MemberTypes.kind(of: receiver), MemberTypes.hasProperty(name, kind) {
                return error("cannot call value of non-function type '\(self.name(member(name, of: .value(receiver), at: location).valueTypeOrAny))'", at: location, length: name.count,
                             hint: "'\(name)' is a property: write .\(name) without parentheses")
            }
            if let kind = MutatingMethods.Kind(receiver), !MutatingMethods.overloads(name, kind).isEmpty {
                return error("cannot use mutating member on immutable value of type '\(self.name(receiver))'", at: location, length: name.count,
                             hint: "call it on a 'var': var items = …; items.\(name)(…)")
            }
            let members = MemberTypes.kind(of: receiver).map(MemberTypes.names(of:)) ?? []
            return error("value of type '\(self.name(receiver))' has no member '\(name)'", at: location, length: name.count,
                         hint: MemberTypes.suggestion(for: name, among: members).map { "did you mean '\($0)'?" })
        }
        guard checkLabels(name, signature, args, at: location) else { return .unknown }
        func argument(_ index: Int) -> SpecType {
            valueType(args[index].checked, at: args[index].location, purpose: "an argument of \(name)")
        }
        func require(_ expected: SpecType, _ index: Int, hint: String? = nil) {
            let actual = operandOf(argument(index))
            switch actual {
            case .any, .never: return
            default:
                if actual != expected {
                    error("cannot convert value of type '\(self.name(actual))' to expected argument type '\(self.name(expected))'", at: args[index].location, hint: hint)
                }
            }
        }
        func closure(_ index: Int) -> ClosureReference? {
            if case .closure(let closure) = args[index].checked { return closure }
            if !args[index].checked.isUnknown { error("\(name) needs a closure", at: location) }
            return nil
        }
        switch (name, receiver) {
        case ("uppercased", _), ("lowercased", _): return .value(.string)
        case ("contains", .string), ("hasPrefix", _), ("hasSuffix", _):
            require(.string, 0)
            return .value(.bool)
        case ("isMultiple", _):
            require(.int, 0)
            return .value(.bool)
        case ("truncatingRemainder", _):
            require(.double, 0, hint: "the interpreter does not convert an Int literal here: write 2.0")
            return .value(.double)
        case ("reversed", _): return .value(receiver)
        case ("contains", .array(let element)):
            let actual = operandOf(argument(0))
            let expected = operandOf(element)
            if isConcrete(actual), isConcrete(expected), store.join(actual, expected) == .any, !(expected == .double && args[0].syntax.isNumberLiteral) {
                error("cannot convert value of type '\(self.name(actual))' to expected argument type '\(self.name(expected))'", at: args[0].location)
            }
            return .value(.bool)
        case ("sorted", .array(let element)):
            if !comparable(element, element) {
                return error("referencing instance method 'sorted()' on 'Array' requires that '\(self.name(element))' conform to 'Comparable'", at: location, length: name.count)
            }
            return .value(receiver)
        case ("joined", _):
            if !args.isEmpty { require(.string, 0) }
            return .value(.string)
        case ("min", .array(let element)), ("max", .array(let element)):
            if !comparable(element, element) {
                return error("referencing instance method '\(name)()' on 'Array' requires that '\(self.name(element))' conform to 'Comparable'", at: location, length: name.count)
            }
            return .value(.optional(element))
        case ("map", .array(let element)):
            guard let closure = closure(0) else { return .value(.array(.any)) }
            let outcome = check(closure, with: [.value(element)], owner: nil, allowsThrowing: true)
            return .value(.array(valueType(outcome.result, at: outcome.resultLocation, purpose: "the closure's result")))
        case ("filter", .array(let element)):
            if let closure = closure(0) {
                let outcome = check(closure, with: [.value(element)], owner: nil, allowsThrowing: true)
                expect(outcome, .bool)
            }
            return .value(receiver)
        case ("reduce", .array(let element)):
            let initial = argument(0)
            guard let closure = closure(1) else { return .value(.any) }
            let outcome = check(closure, with: [.value(initial), .value(element)], owner: nil, allowsThrowing: true)
            return .value(accumulate(initial, outcome))
        default:
            return .unknown
        }
    }

    /// `Optional.map` / `flatMap`: the closure gets the value, nil stays nil; `flatMap`'s closure
    /// gives an optional, which is not wrapped again. On an optional array or string the
    /// interpreter could not tell it from the collection's own `map`: refused, with the rewrite.
    private func optionalMap(_ name: String, wrapped: SpecType, _ args: [TypedArgument], at location: SourceLocation) -> Checked {
        switch wrapped {
        case .array, .dictionary, .string:
            return error("'\(name)' on an optional \(self.name(wrapped)) is not supported in a .marble file yet", at: location, length: name.count,
                         hint: "unwrap it first: if let items { items.\(name) { … } }, or (items ?? []).\(name) { … }")
        default: break
        }
        guard checkLabels(name, MemberTypes.Method(labels: [nil]), args, at: location) else { return .unknown }
        guard case .closure(let closure) = args[0].checked else {
            if case .keyPath(let path, let at) = args[0].checked {
                var current: Checked = .value(wrapped)
                for component in path { current = member(component, of: current, at: at) }
                return .value(.optional(valueType(current, at: at, purpose: "the key path's value")))
            }
            return args[0].checked.isUnknown ? .unknown : error("\(name) needs a closure", at: location)
        }
        let outcome = check(closure, with: [.value(wrapped)], owner: nil, allowsThrowing: true)
        let result = valueType(outcome.result, at: outcome.resultLocation, purpose: "the closure's result")
        if name == "flatMap", case .optional = store.resolve(result) { return .value(result) }
        return .value(.optional(result))
    }

    /// `(a, b).0()` or `(a, b).x()`: a tuple has no methods.
    private func callOfTupleMember(_ name: String, _ tuple: SpecType, at location: SourceLocation) -> Checked {
        if case .value(let type) = member(name, of: .value(tuple), at: location) {
            return error("cannot call value of non-function type '\(self.name(type))'", at: location, length: name.count)
        }
        return .unknown
    }

    func isConcrete(_ type: SpecType) -> Bool {
        switch store.resolve(type) {
        case .any, .never, .variable: return false
        case .optional(let x), .array(let x): return isConcrete(x)
        case .tuple(let xs): return xs.allSatisfy(isConcrete)
        case .publisher: return false
        default: return true
        }
    }

    /// Swift's labels for a method; the interpreter reads arguments by position, so a wrong
    /// label would pass there and fail in the app the code came from.
    func checkLabels(_ name: String, _ signature: MemberTypes.Method, _ args: [TypedArgument], at location: SourceLocation) -> Bool {
        let selector = name + "(" + signature.labels.map { ($0 ?? "_") + ":" }.joined() + ")"
        let required = signature.labels.count - signature.optionalTrailing
        if args.count > signature.labels.count {
            error(signature.labels.isEmpty ? "argument passed to call that takes no arguments" : "extra argument in call",
                  at: args[signature.labels.count].location, hint: "\(selector) takes \(signature.labels.count) argument\(signature.labels.count == 1 ? "" : "s")")
            return false
        }
        for (index, label) in signature.labels.enumerated() {
            guard index < args.count else {
                if index < required {
                    error("missing argument for parameter \(label.map { "'\($0)'" } ?? "#\(index + 1)") in call", at: location, length: name.count, hint: "write \(selector)")
                    return false
                }
                break
            }
            let written = args[index].label
            // A trailing closure has no label.
            if written == label || (written == nil && args[index].isClosure) { continue }
            switch (written, label) {
            case (nil, let expected?): error("missing argument label '\(expected):' in call", at: args[index].location, hint: "write \(selector)")
            case (let have?, nil): error("extraneous argument label '\(have):' in call", at: args[index].location, hint: "write \(selector)")
            case (let have?, let expected?): error("incorrect argument label in call (have '\(have):', expected '\(expected):')", at: args[index].location, hint: "write \(selector)")
            case (nil, nil): continue
            }
            return false
        }
        return true
    }

    // MARK: Schedulers

    /// `DispatchQueue.main.asyncAfter(deadline: .now() + d) { … }` and `.async { … }` (`Builtins.schedule`).
    private func schedule(_ name: String, _ args: [TypedArgument], at location: SourceLocation) -> Checked {
        guard name == "asyncAfter" || name == "async" else {
            return error("'\(name)' on a scheduler is not supported", at: location,
                         hint: "run work later with DispatchQueue.main.asyncAfter(deadline: .now() + .milliseconds(300)) { … }")
        }
        guard let last = args.last, case .closure(let closure) = last.checked else {
            return error("\(name) needs a closure to run", at: location)
        }
        if name == "asyncAfter" {
            guard let deadline = args.first(where: { $0.label == "deadline" }) else {
                return error("asyncAfter needs deadline: .now() + a duration", at: location)
            }
            switch deadline.checked {
            case .deadline, .member("now", _), .unknown: break
            default: error("a deadline is .now() + a duration such as .milliseconds(300)", at: deadline.location)
            }
        }
        _ = check(closure, with: [], owner: name, allowsThrowing: false)
        return .value(.void)
    }

    // MARK: Closure results

    /// Reports a closure whose result cannot be `expected` (a predicate returning an `Int`).
    func expect(_ outcome: ClosureOutcome, _ expected: SpecType) {
        let actual = valueType(outcome.result, at: outcome.resultLocation, purpose: "the closure's result")
        let value = store.resolve(actual)
        if case .variable(let index) = value { store.bind(index, to: expected); return }
        if expected == .bool {
            var wrapped = value
            while case .optional(let inner) = wrapped { wrapped = store.resolve(inner) }
            switch wrapped {
            case .bool, .any, .never, .variable: return
            default: break
            }
        }
        guard isConcrete(value), store.join(value, expected) == .any || (expected == .bool && value != .bool) else { return }
        error("cannot convert value of type '\(name(value))' to closure result type '\(name(expected))'", at: outcome.resultLocation)
    }

    /// The accumulator of `reduce`/`scan`: the closure must give back the initial value's type.
    func accumulate(_ initial: SpecType, _ outcome: ClosureOutcome) -> SpecType {
        let result = valueType(outcome.result, at: outcome.resultLocation, purpose: "the closure's result")
        let start = store.resolve(initial), next = store.resolve(result)
        if isConcrete(start), isConcrete(next), store.join(start, next) == .any {
            error("cannot convert value of type '\(name(next))' to closure result type '\(name(start))'", at: outcome.resultLocation,
                  hint: "the closure's result is the next accumulator: it must have the initial value's type")
            return .any
        }
        return store.join(start, next)
    }
}

extension Checked {
    var valueTypeOrAny: SpecType {
        if case .value(let type) = self { return type }
        return .any
    }
}
