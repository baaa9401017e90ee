import MarbleSyntax

/// Checks changes in place (`Interpreter`'s Mutation.swift) before anything runs: what changes
/// must be a `var` (a `let`, a closure's parameter or a test's name cannot), every property on
/// the way must be one the struct declares with `var` (a computed one has no setter), and the
/// value must fit — in Swift's words.
extension ExpressionChecker {
    func checkAssignment(_ assignment: Assignment, in env: TypeEnvironment) {
        let value = valueType(check(assignment.value, in: env), at: assignment.value.location, purpose: "the value assigned")
        guard let path = assignment.target.assignmentPath else { return }
        let name = path.root
        guard checkMutable(path, assignment.target, mutatingMember: nil, in: env) else { return }
        let target = valueType(check(assignment.target, in: env), at: assignment.target.location, purpose: "the target of '\(assignment.op)'")
        var assigned = value
        if let op = assignment.binaryOperator {
            if case .subscriptAccess(_, _, nil) = assignment.target.kind, case .optional(let wrapped) = store.resolve(target) {
                error("value of optional type '\(self.name(target))' must be unwrapped to a value of type '\(self.name(wrapped))'", at: assignment.location,
                      length: assignment.op.count, hint: "give the dictionary a default: \(name)[key, default: 0] \(assignment.op) …")
                return
            }
            assigned = binaryType(op, target, value, leftIsLiteral: false, rightIsLiteral: assignment.value.isNumberLiteral, at: assignment.location)
        }
        let old = store.deepResolve(target), new = store.deepResolve(assigned)
        if case .subscriptAccess = assignment.target.kind {
            // `counts[k] = nil` removes the key.
            if case .optional(let wrapped) = old, new == .nilLiteral || SpecType.joinConcrete(wrapped, new) == wrapped { return }
        }
        if let literal = Self.literalType(of: assignment.value, as: old), assignment.binaryOperator == nil, accepts(old, literal) { return }
        if isConcrete(old), isConcrete(new), SpecType.joinConcrete(old, new) != old, !(old == .double && new == .int && assignment.value.isNumberLiteral) {
            if case .optional = old, new == .nilLiteral { return }
            error("cannot assign value of type '\(self.name(new))' to type '\(self.name(old))'", at: assignment.value.location)
            return
        }
        if path.steps.isEmpty, !isConcrete(old) { env.update(name, .value(store.join(target, assigned))) }
    }

    /// `path.name(args)` where `name` is a mutating method of the value at `path` (`receiver`, as
    /// checked): its result; nil when the receiver has no such method (a publisher's `append`).
    func checkMutatingCall(_ name: String, on path: AssignmentPath, _ receiver: Checked, _ args: [TypedArgument], at location: SourceLocation,
                           in env: TypeEnvironment) -> Checked? {
        guard case .value(let type) = receiver else { return nil }
        let resolved = store.resolve(type)
        if case .named(let typeName) = resolved, let method = types.methods[typeName]?[name], method.isMutating {
            let result = callFunction(method, args, typeName: typeName, at: location)
            _ = checkMutable(path, Self.expression(of: path), mutatingMember: name, in: env)
            return result
        }
        guard let kind = MutatingMethods.Kind(resolved) else { return nil }
        let overloads = MutatingMethods.overloads(name, kind)
        guard !overloads.isEmpty else { return nil }
        guard let method = overloads.first(where: { $0.accepts(args.map(\.label), closures: args.map(\.isClosure)) }) else {
            return error("no '\(name)' of '\(self.name(resolved))' takes these arguments", at: location, length: name.count,
                         hint: "write " + overloads.map { name + $0.selector }.joined(separator: " or "))
        }
        guard checkMutable(path, Self.expression(of: path), mutatingMember: name, in: env) else { return .value(method.type(resolved).result) }
        let signature = method.type(resolved)
        var undecided = false
        if case .array(let element) = resolved, store.resolve(element) == .never { undecided = true }
        for (index, argument) in args.enumerated() {
            if method.closures.contains(index) {
                guard case .closure(let closure) = argument.checked else { continue }
                let element: SpecType = if case .array(let item) = resolved { item } else if case .dictionary(_, let value) = resolved { value } else { .any }
                let parameters: [Checked] = name == "removeAll" ? [.value(element)] : [.value(element), .value(element)]
                let outcome = check(closure, with: parameters, owner: nil, allowsThrowing: true)
                expect(outcome, name == "merge" ? element : .bool)
                continue
            }
            let actual = valueType(argument.checked, at: argument.location, purpose: "an argument of \(name)")
            if undecided, name == "append", argument.label == nil {
                // `var items = []` then `items.append(x)`: the first element decides.
                if path.steps.isEmpty { env.update(path.root, .value(.array(actual))) }
                continue
            }
            requireArgument(actual, fits: signature.arguments[index], isNumberLiteral: argument.syntax.isNumberLiteral, at: argument.syntax.location)
        }
        if name == "sort", args.isEmpty, case .array(let element) = resolved, !comparable(element, element) {
            error("referencing instance method 'sort()' on 'Array' requires that '\(self.name(element))' conform to 'Comparable'", at: location, length: name.count,
                  hint: "sort by a property: \(path.root + path.steps.map { if case .member(let name, _) = $0 { "." + name } else { "[…]" } }.joined()).sort { $0.name < $1.name }")
        }
        return .value(signature.result)
    }

    /// The expression a path names (for checking its types), rebuilt from the call's receiver.
    private static func expression(of path: AssignmentPath) -> Expr {
        var node = Expr(kind: .identifier(path.root), location: path.rootLocation)
        for step in path.steps {
            switch step {
            case .member(let name, let at): node = Expr(kind: .member(base: node, name: name), location: at)
            case .element(let index, let fallback, let at): node = Expr(kind: .subscriptAccess(base: node, index: index, default: fallback), location: at)
            }
        }
        return node
    }

    /// Whether what `path` names may change; reports why not in Swift's words. `target` is the
    /// expression changed; `mutatingMember` names the mutating method called on it (nil for an
    /// assignment).
    private func checkMutable(_ path: AssignmentPath, _ target: Expr, mutatingMember: String?, in env: TypeEnvironment) -> Bool {
        let root = path.root
        let what: String
        if mutatingMember != nil {
            what = "cannot use mutating member on immutable value"
        } else if case .element? = path.steps.first {
            what = "cannot assign through subscript"
        } else if !path.steps.isEmpty {
            what = "cannot assign to property"
        } else {
            what = "cannot assign to value"
        }
        switch env.isVariable(root) {
        case false?:
            let scope = env.scope(defining: root)
            if let scope, root == "self" || scope.isStoredProperty(root, types: types, store: store) {
                // A non-mutating method's `self` and the properties it sees without `self.`.
                error("\(mutatingMember == nil ? "cannot assign to property" : "cannot use mutating member on immutable value"): 'self' is immutable",
                      at: path.rootLocation, length: root.count, hint: "mark the method 'mutating' to make 'self' mutable: mutating func …")
                return false
            }
            if let scope, scope === constantScope, publishedNames.contains(root) {
                error("cannot assign to '@Published var \(root)' in a closure of a .marble file", at: path.rootLocation, length: root.count,
                      hint: "a 'send \(root) MARBLES' line sets it, at the frames it says; a closure reads it")
                return false
            }
            let kind = scope != nil && scope === constantScope ? "a test's 'let'" : "a 'let', a closure's parameter or a loop's variable"
            error("\(what): '\(root)' is \(root.hasPrefix("$") ? "immutable" : "a 'let' constant")", at: path.rootLocation, length: root.count,
                  hint: "\(kind) cannot change: copy it into a 'var' (var next = \(root)) and change the copy")
            return false
        case nil:
            // Not defined here: the name check reported it, or a test-level name the checker cannot see.
            if !root.hasPrefix("$") { return false }
            error("\(what): '\(root)' is immutable", at: path.rootLocation, length: root.count,
                  hint: "a closure's parameter cannot change: copy it into a 'var' (var next = \(root)) and change the copy")
            return false
        case true?:
            break
        }
        // Every property on the way must be a stored `var`.
        var node = target
        var properties: [(base: Expr, name: String, location: SourceLocation)] = []
        while true {
            switch node.kind {
            case .member(let base?, let name):
                properties.append((base, name, node.location))
                node = base
            case .subscriptAccess(let base, _, _):
                node = base
            default:
                break
            }
            if case .identifier = node.kind { break }
            if node.assignmentPath == nil { break }
        }
        for property in properties.reversed() {
            guard case .value(let type) = check(property.base, in: env), case .named(let typeName) = store.resolve(type) else { continue }
            if let field = types.structs[typeName]?.fields.first(where: { $0.name.name == property.name }), !field.isVariable {
                error("cannot assign to property: '\(property.name)' is a 'let' constant", at: property.location, length: property.name.count,
                      hint: "declare it 'var \(property.name)' in \(typeName) to let a copy change it")
                return false
            }
            if types.properties[typeName]?[property.name] != nil {
                error("cannot assign to property: '\(property.name)' is a get-only property", at: property.location, length: property.name.count,
                      hint: "a computed property is worked out from the stored ones: change those")
                return false
            }
        }
        return true
    }
}
