import MarbleSyntax

/// Changing a `var` in place: assignments to it or to a path into it (`next.count += 1`,
/// `state.items[0] = x`, `groups[key, default: []] = …`) and its mutating methods
/// (`next.items.append(x)`). Values are Swift's value types: the path is read down to the part
/// changed, and the containers are rebuilt on the way back up, so a copy made before (`var next =
/// state`) keeps what it had, as in Swift.
extension Interpreter {
    /// A path with its subscripts' keys evaluated, ready to be read and written.
    struct ResolvedPath {
        var root: String
        var rootValue: Value
        var steps: [ResolvedStep]
    }

    enum ResolvedStep {
        case member(String, SourceLocation)
        case element(key: Value, default: Value?, SourceLocation)
    }

    /// `target = value` or `target op= value`.
    func assign(_ assignment: Assignment, in env: Environment) throws(EvalError) {
        guard let path = assignment.target.assignmentPath else { throw fail("cannot assign to this expression", at: assignment.location) }
        let resolved = try resolve(implicitSelf(path, in: env), in: env)
        let value = try valueOf(evaluate(assignment.value, in: env), at: assignment.value.location, purpose: "the value assigned")
        guard let op = assignment.binaryOperator else {
            try write(value, to: resolved, in: env)
            return
        }
        let current = try read(resolved)
        if current == .null, case .element? = resolved.steps.last {
            throw fail("value of optional type 'Optional' must be unwrapped to use '\(assignment.op)'", at: assignment.location,
                       hint: "give the dictionary a default: \(path.root)[key, default: 0] \(assignment.op) …, or assign \(path.root)[key] = (\(path.root)[key] ?? 0) \(op) …")
        }
        let result = try Arithmetic.binary(op, current, value, leftIsLiteral: false, rightIsLiteral: assignment.value.isNumberLiteral, at: assignment.location)
        try write(result, to: resolved, in: env)
    }

    /// `path.name(args)` when `name` is a mutating method of the value at `path` (nil when it is
    /// not: a publisher's `append`, a name that holds no value): the method's result.
    func callMutating(_ name: String, on path: AssignmentPath, _ args: [CallArgument], at location: SourceLocation, in env: Environment) throws(EvalError) -> Runtime? {
        let path = implicitSelf(path, in: env)
        guard case .value? = env[path.root] else { return nil }
        let resolved = try resolve(path, in: env)
        var receiver = try read(resolved)
        if case .record(let record) = receiver, let method = types.methods[record.type]?[name], method.isMutating {
            let (result, changed) = try callMutating(method, on: record, args, at: location)
            try write(.record(changed), to: resolved, in: env)
            return result
        }
        guard let kind = MutatingMethods.Kind(receiver),
              let method = MutatingMethods.overloads(name, kind).first(where: { $0.accepts(args.map(\.label), closures: args.map(\.isClosure)) })
        else { return nil }
        var values: [Value] = []
        var closures: [ClosureValue] = []
        for argument in args {
            if case .closure(let closure) = argument.value {
                closures.append(closure)
            } else if case .keyPath(let keyPath) = argument.value {
                closures.append(keyPathClosure(keyPath, at: argument.location))
            } else {
                values.append(try valueOf(argument.value, at: argument.location, purpose: "an argument of \(name)"))
            }
        }
        let result = try method.run(&receiver, values, closures, AppMembers.MethodCall(name: name, location: location, interpreter: self))
        try write(receiver, to: resolved, in: env)
        return .value(result)
    }

    /// `count` in an `init` or a `mutating func` where no local has that name: `self.count`.
    private func implicitSelf(_ path: AssignmentPath, in env: Environment) -> AssignmentPath {
        guard !env.contains(path.root), case .value(.record(let receiver))? = env["self"], receiver.labels.contains(path.root) else { return path }
        return AssignmentPath(root: "self", rootLocation: path.rootLocation, steps: [.member(path.root, path.rootLocation)] + path.steps)
    }

    /// The closure a key path stands for where a function is expected (`\.name` is `{ $0.name }`).
    func keyPathClosure(_ path: [String], at location: SourceLocation) -> ClosureValue {
        var body = Expr(kind: .identifier("$0"), location: location)
        for name in path { body = Expr(kind: .member(base: body, name: name), location: location) }
        return ClosureValue(syntax: Closure(parameters: nil, body: [.expression(body)]), environment: globals, location: location)
    }

    /// Evaluates the keys of a path's subscripts, in order.
    func resolve(_ path: AssignmentPath, in env: Environment) throws(EvalError) -> ResolvedPath {
        guard let rootRuntime = env[path.root] else { throw fail("cannot find '\(path.root)' in scope", at: path.rootLocation) }
        let root = try valueOf(rootRuntime, at: path.rootLocation, purpose: "the value changed")
        var steps: [ResolvedStep] = []
        for step in path.steps {
            switch step {
            case .member(let name, let location):
                steps.append(.member(name, location))
            case .element(let index, let fallback, let location):
                let key = try valueOf(evaluate(index, in: env), at: index.location, purpose: "a subscript index")
                let defaultValue = try fallback.map { (fallback) throws(EvalError) -> Value in
                    try valueOf(evaluate(fallback, in: env), at: fallback.location, purpose: "a dictionary's default")
                }
                steps.append(.element(key: key, default: defaultValue, location))
            }
        }
        return ResolvedPath(root: path.root, rootValue: root, steps: steps)
    }

    /// The value at the end of a path.
    func read(_ path: ResolvedPath) throws(EvalError) -> Value {
        var value = path.rootValue
        for step in path.steps { value = try part(of: value, step) }
        return value
    }

    /// Stores `value` at the end of a path: each container on the way is rebuilt with its part
    /// replaced, and the `var` gets the new whole.
    func write(_ value: Value, to path: ResolvedPath, in env: Environment) throws(EvalError) {
        var containers: [Value] = [path.rootValue]
        for step in path.steps.dropLast() { containers.append(try part(of: containers[containers.count - 1], step)) }
        var new = value
        for (container, step) in zip(containers, path.steps).reversed() { new = try replacing(step, in: container, with: new) }
        guard env.assign(path.root, .value(new)) else { throw fail("cannot find '\(path.root)' in scope", at: path.steps.first.map(location) ?? SourceLocation(line: 0, column: 0)) }
    }

    private func location(_ step: ResolvedStep) -> SourceLocation {
        switch step {
        case .member(_, let location), .element(_, _, let location): location
        }
    }

    /// One step down a path.
    private func part(of container: Value, _ step: ResolvedStep) throws(EvalError) -> Value {
        switch step {
        case .member(let name, let location):
            if case .null = container {
                throw fail("unexpectedly found nil while unwrapping an Optional value", at: location, hint: "unwrap it first with 'if let' or 'guard let'")
            }
            if case .tuple(let items) = container, let index = Int(name), items.indices.contains(index) { return items[index] }
            if case .record(let record) = container, record.caseName == nil, let index = record.labels.firstIndex(of: name) { return record.values[index] }
            throw fail("cannot assign to property '\(name)' of \(container.typeName) (\(container.literal))", at: location)
        case .element(let key, let fallback, let location):
            if case .dictionary(let dictionary) = container, dictionary.entries[key] == nil, let fallback { return fallback }
            return try element(of: container, at: key, location: location)
        }
    }

    /// `container` with the part a step reaches replaced by `value`.
    private func replacing(_ step: ResolvedStep, in container: Value, with value: Value) throws(EvalError) -> Value {
        switch (step, container) {
        case (.member(let name, _), .tuple(var items)):
            if let index = Int(name), items.indices.contains(index) {
                items[index] = value
                return .tuple(items)
            }
        case (.member(let name, _), .record(var record)):
            if record.caseName == nil, let index = record.labels.firstIndex(of: name) {
                record.values[index] = value
                return .record(record)
            }
        case (.element(.int(let index), _, let location), .array(var items)):
            guard items.indices.contains(index) else {
                throw fail("index out of range: \(index) in an array of \(items.count) element\(items.count == 1 ? "" : "s")", at: location)
            }
            items[index] = value
            return .array(items)
        case (.element(let key, let fallback, _), .dictionary(var dictionary)):
            // As in Swift, assigning nil removes the key (a subscript with a default is never nil).
            dictionary.entries[key] = value == .null && fallback == nil ? nil : value
            return .dictionary(dictionary)
        default:
            break
        }
        switch step {
        case .member(let name, let location):
            throw fail("cannot assign to property '\(name)' of \(container.typeName) (\(container.literal))", at: location)
        case .element(let key, _, let location):
            throw fail("cannot subscript a value of type \(container.typeName) with \(key.typeName) (\(key.literal))", at: location)
        }
    }
}
