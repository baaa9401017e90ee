import Reactive
import MarbleNotation
import MarbleSyntax

/// Preparing a test: the frame length, the declared types, and the check that every name a test uses is defined.
extension TestSession {
    func prepare(fileStatements: [Statement]) {
        // The file's types and the test's own come before any value that uses them.
        declareTypes(fileStatements + syntax.statements)
        guard diagnostics.isEmpty else { return }
        // Value names apply to the whole test wherever written.
        for statement in fileStatements + syntax.statements {
            if case .values(let bindings) = statement.kind {
                for binding in bindings {
                    switch Result(catching: { () throws(EvalError) -> Value in
                        try interpreter.valueOf(interpreter.evaluate(binding.value, in: Environment()), at: binding.value.location, purpose: "a value")
                    }) {
                    case .success(let value):
                        table.bind(binding.name, to: value)
                        valueNames.append(ValueName(name: binding.name, literal: interpreter.text(of: binding.value.range)))
                    case .failure(let error): report(error, at: binding.value.location)
                    }
                }
            }
        }

        checkNames()
        guard diagnostics.isEmpty else { return }
        for statement in syntax.statements { define(statement) }
        for statement in syntax.statements { observe(statement) }
        validateSubscribers()
        // Closures are checked before anything runs, whether or not a value would reach them.
        guard diagnostics.isEmpty, syntax.unparsed.isEmpty else { return }
        for diagnostic in typeChecker.check(syntax.statements) { diagnose(diagnostic) }
    }

    /// The test's lines that did not parse, as its diagnostics; and no "cannot find" for what
    /// they would have defined (a mistake costs one error, not one per later use).
    func reportUnparsedStatements() {
        guard !syntax.unparsed.isEmpty else { return }
        let missing = Set(syntax.unparsed.flatMap { FilePrelude.declaredNames(of: $0, lines: lines) })
        diagnostics = diagnostics.filter { !missing.contains(FilePrelude.pointedName($0)) }
            + syntax.unparsed.map { FileDiagnostic($0.error, path: path, lines: lines) }
    }

    /// Collects the `struct`, `enum`, `typealias` and `extension` declarations the test sees.
    func declareTypes(_ statements: [Statement]) {
        var types = UserTypes()
        let problems = types.declare(statements) { raw in
            switch Result(catching: { () throws(EvalError) -> Value in
                try interpreter.valueOf(interpreter.evaluate(raw, in: Environment()), at: raw.location, purpose: "a raw value")
            }) {
            case .success(let value): return value
            case .failure(let error):
                report(error, at: raw.location)
                return nil
            }
        }
        problems.forEach(diagnose)
        interpreter.types = types
        typeChecker.types = types
    }

    static func frameLength(_ duration: DurationSyntax, path: String, lines: LineTable, current: Int64) -> (Int64, [FileDiagnostic]) {
        func diagnostic(_ message: String, _ hint: String?) -> [FileDiagnostic] {
            [FileDiagnostic(path: path, line: duration.location.line, column: duration.location.column, length: duration.text.count,
                            message: message, hint: hint, lineText: lines.line(duration.location.line))]
        }
        do {
            guard let nanoseconds = try MarbleDuration.nanoseconds(duration.text), nanoseconds > 0 else {
                return (current, diagnostic("'\(duration.text)' is not a frame length", "write a positive duration such as 1ms, 100ms or 1s"))
            }
            return (nanoseconds, [])
        } catch {
            return (current, diagnostic(error.message, error.hint))
        }
    }

    /// Reports every name used in an expression that the test does not define. A computed
    /// property's body sees the types, the builtins, `self` and the stored properties, never a
    /// test's streams (as a Swift type cannot see a function's locals), and one declared at file
    /// level only the file's types: it reads the same in every test, and so does its report.
    func checkNames() {
        let types = interpreter.types
        let builtins = Builtins.globalNames + Catalogue.constructorNames + ["Publishers", "Timer", "true", "false", "nil"]
        var defined = Set(builtins + types.names + types.functions.keys)
        // The file's types and functions (a nested type by its path and its own name).
        let fileTypes = UserTypes.flattened(fileStatements).flatMap { declaration -> [String] in
            if case .extension = declaration.kind { return [] }
            return [declaration.name.name, String(declaration.name.name.split(separator: ".").last ?? "")]
        }
        let scopes = (file: Set(builtins + fileTypes), test: defined)
        for statement in syntax.statements {
            switch statement.kind {
            case .hot(let name, _), .cold(let name, _), .subject(let name, _), .binding(let name, _): defined.insert(name.name)
            case .published(let name, _, _): defined.formUnion([name.name, AppIdioms.publisherName(name.name)])
            default: break
            }
        }
        // What a line that did not parse would have defined is reported with that line.
        for unparsed in syntax.unparsed { defined.formUnion(FilePrelude.declaredNames(of: unparsed, lines: lines)) }
        knownNames = defined
        // Each expression with the names it may use: in its scope, or its closure's parameters.
        var checked: [(expr: Expr, scope: Set<String>, nearby: Set<String>)] = []
        for statement in fileStatements + syntax.statements {
            switch statement.kind {
            case .binding(_, let expr): checked.append((expr, defined, defined))
            case .published(_, _, let expr): checked.append((expr, defined, defined))
            default: break
            }
        }
        for (statements, scope) in [(fileStatements, scopes.file), (syntax.statements, scopes.test)] {
            for declaration in UserTypes.flattened(statements) {
                func body(_ statements: [ClosureStatement], sees names: [String], at location: SourceLocation) {
                    checked.append((Expr(kind: .closure(Closure(parameters: names, body: statements)), location: location), scope, scope.union(names)))
                }
                func function(_ function: FunctionDeclaration, sees names: [String]) {
                    body(function.body, sees: names + function.parameters.map(\.name), at: function.name.location)
                    checked += function.parameters.compactMap(\.defaultValue).map { ($0, scope, scope) }
                }
                if case .function(let free) = declaration.kind {
                    function(free, sees: [])
                    continue
                }
                // A member's body sees `self` and, without `self.`, the type's members.
                let target = types.canonicalName(declaration.name.name) ?? declaration.name.name
                var members = ["self"] + types.memberNames(of: target)
                if case .structure(let stored) = declaration.kind { members += stored.map(\.name.name) }
                let statics = (types.staticMethods[target] ?? [:]).keys.sorted() + (types.staticProperties[target] ?? [:]).keys.sorted()
                for property in declaration.properties { body(property.body, sees: members, at: property.name.location) }
                for member in declaration.functions { function(member, sees: member.isStatic ? statics : members) }
                checked += declaration.statics.map { ($0.value, scope, scope) }
            }
        }
        for (expr, scope, nearby) in checked {
            if let idiom = AppIdioms.subscriberCall(in: expr) {
                diagnose(idiom)
                continue
            }
            for (name, location) in NameCheck(known: scope).undefinedNames(in: expr) {
                if let idiom = AppIdioms.unavailableName(name) {
                    diagnose(idiom.message, at: location, length: name.count, hint: idiom.hint)
                    continue
                }
                diagnose("cannot find '\(name)' in scope", at: location, length: name.count,
                         hint: Suggestions.nearest(to: name, in: nearby).map { "did you mean '\($0)'?" })
            }
        }
    }
}
