import MarbleSyntax

/// What an expression is, statically: the checker's counterpart of `Runtime`.
indirect enum Checked {
    case value(SpecType)
    case closure(ClosureReference)
    case scheduler
    case duration
    case demand
    case type(String)
    case member(String, [Checked])
    case function(String, receiver: Checked?)
    case promise(PromiseSink)
    case keyPath([String], SourceLocation)
    /// `.now() + .milliseconds(300)`.
    case deadline
    /// Anything: what the checker cannot know (or already reported); accepted everywhere.
    case unknown

    var kindDescription: String {
        switch self {
        case .value: return "a value"
        case .closure: return "a closure"
        case .scheduler: return "a scheduler"
        case .duration: return "a duration"
        case .demand: return "a demand"
        case .type(let name): return "the type \(name)"
        case .member(let name, _): return "'.\(name)'"
        case .function(let name, _): return "the function \(name)"
        case .promise: return "a promise"
        case .keyPath: return "a key path"
        case .deadline: return "a deadline"
        case .unknown: return "something"
        }
    }
}

/// A closure written in the file, with the names it sees; checked when whoever calls it says
/// with what (`ExpressionChecker.check(_:with:context:)`).
struct ClosureReference {
    var syntax: Closure
    var environment: TypeEnvironment
    var location: SourceLocation
    var usesSecondAnonymousArgument: Bool
    /// For a `func` of the file: its labels, defaults and types.
    var function: FunctionDeclaration? = nil
}

/// What a `Future`'s promise has been called with, joined.
final class PromiseSink {
    var output: SpecType = .never
    var failure: SpecType = .never
}

/// Names visible to an expression, as `Environment` holds them at run time.
final class TypeEnvironment {
    /// As in `Environment`: a closure defined in the scope it captures is kept without that
    /// scope (else a retain cycle), which reading the name puts back.
    private enum Entry {
        case checked(Checked)
        case ownClosure(Closure, location: SourceLocation, usesSecondAnonymousArgument: Bool)
    }

    private var names: [String: Entry] = [:]
    /// The names declared with `var` in this scope.
    private var variables: Set<String> = []
    let parent: TypeEnvironment?

    init(parent: TypeEnvironment? = nil) { self.parent = parent }

    subscript(name: String) -> Checked? {
        get {
            var scope: TypeEnvironment? = self
            while let current = scope {
                if let found = current.names[name] { return current.checked(found) }
                scope = current.parent
            }
            return nil
        }
        set { names[name] = newValue.map(entry) }
    }

    /// Declares `name` with `var`: statements after it may assign it.
    func declareVariable(_ name: String, _ checked: Checked) {
        names[name] = entry(checked)
        variables.insert(name)
    }

    /// Whether the scope that defines `name` declared it with `var`; nil when no scope defines it.
    func isVariable(_ name: String) -> Bool? {
        var scope: TypeEnvironment? = self
        while let current = scope {
            if current.names[name] != nil { return current.variables.contains(name) }
            scope = current.parent
        }
        return nil
    }

    /// The scope that defines `name`, if any.
    func scope(defining name: String) -> TypeEnvironment? {
        var scope: TypeEnvironment? = self
        while let current = scope {
            if current.names[name] != nil { return current }
            scope = current.parent
        }
        return nil
    }

    /// Whether `name` is a stored property of the `self` this scope defines (a method's scope
    /// declares them, for a body that names them without `self.`).
    func isStoredProperty(_ name: String, types: UserTypes, store: TypeStore) -> Bool {
        guard case .checked(.value(let receiver))? = names["self"], case .named(let type) = store.resolve(receiver) else { return false }
        return types.structs[type]?.fields.contains { $0.name.name == name } == true
    }

    /// Changes what `name` is in the scope that defines it (a `var` widened by an assignment).
    func update(_ name: String, _ checked: Checked) {
        var scope: TypeEnvironment? = self
        while let current = scope {
            if current.names[name] != nil {
                current.names[name] = current.entry(checked)
                return
            }
            scope = current.parent
        }
    }

    private func entry(_ checked: Checked) -> Entry {
        if case .closure(let closure) = checked, closure.environment === self {
            return .ownClosure(closure.syntax, location: closure.location, usesSecondAnonymousArgument: closure.usesSecondAnonymousArgument)
        }
        return .checked(checked)
    }

    private func checked(_ entry: Entry) -> Checked {
        switch entry {
        case .checked(let checked): return checked
        case .ownClosure(let syntax, let location, let usesSecond):
            return .closure(ClosureReference(syntax: syntax, environment: self, location: location, usesSecondAnonymousArgument: usesSecond))
        }
    }
}

/// How a closure's `throw` is treated: a try- operator turns it into a failure; anywhere else
/// it is a mistake in the file (`map` cannot throw), whatever the data.
struct ThrowContext {
    /// The operator named in the message, or nil when throws pass to the enclosing closure
    /// (`[1, 2].map { … }` inside a `tryMap`).
    var owner: String?
    var allowsThrowing: Bool
    var thrown: SpecType = .never
}

/// The outcome of checking a closure's body with known arguments.
struct ClosureOutcome {
    var result: Checked
    /// Where the result comes from (its last expression or a `return`), for messages about it.
    var resultLocation: SourceLocation
    var thrown: SpecType
}

/// Infers and checks the types of expressions before anything runs, mirroring what the
/// interpreter (`Interpreter`, `Arithmetic`, `Builtins`) would do with any value of those types.
/// It reports a mistake only when every value that could reach it would fail (or Swift itself
/// would reject the code: a wrong label, a closure of the wrong type); where a type is unknown
/// (`Any`) it accepts and leaves the rest to run time.
final class ExpressionChecker {
    let store = TypeStore()
    /// The types the file and the test declare.
    var types = UserTypes()
    private(set) var diagnostics: [SpecDiagnostic] = []
    /// What is not an error but may not mean what the writer thinks (`TimeLiterals.integerWarning`).
    private(set) var warnings: [SpecDiagnostic] = []
    private var reported: Set<String> = []
    /// The test's frame, and whether a `frame` line set it: durations are read through it.
    var frameNanoseconds: Int64 = 1_000_000
    var frameWritten = false
    /// The test's `let` constants (`let wait = 3`) and the scope that holds them: an argument
    /// naming one is that number where a duration's meaning is at stake (`integerDuration`).
    var constants: [String: Value] = [:]
    var constantScope: TypeEnvironment?
    /// The arguments, by location, that name an Int constant of the test (`debounce(for: wait, …)`).
    var constantIntegerArguments: [SourceLocation: Int] = [:]
    /// The test's `@Published var` properties (a closure reads them; a `send` line sets them).
    var publishedNames: Set<String> = []
    var throwContexts: [ThrowContext] = []
    private var depth = 0
    private var reportedDepth = false

    /// Nesting beyond this is not checked further (reported once) rather than risking the stack.
    /// Chains, however long, are walked in a loop (`check(_:in:)`); what recurses is nesting
    /// proper — an operand off a chain's spine, an argument, an element, a closure's body, a
    /// block — a few kilobytes of stack a level in a debug build. The parser stops nesting at 32
    /// levels, so this only guards trees built some other way.
    static let maximumDepth = 600

    // MARK: Diagnostics

    @discardableResult
    func error(_ message: String, at location: SourceLocation, length: Int = 1, hint: String? = nil) -> Checked {
        let key = "\(location.line):\(location.column):\(message)"
        if reported.insert(key).inserted {
            diagnostics.append(SpecDiagnostic(message, at: location, length: length, hint: hint))
        }
        return .unknown
    }

    func warn(_ message: String, at location: SourceLocation, length: Int = 1, hint: String? = nil) {
        let key = "warning \(location.line):\(location.column):\(message)"
        if reported.insert(key).inserted {
            warnings.append(SpecDiagnostic(message, at: location, length: length, hint: hint))
        }
    }

    func name(_ type: SpecType) -> String { store.name(type) }

    // MARK: Expressions

    /// The type of `expr`. A chain — an operator chain (`$0 + 1 + 1 …`, `a ?? b ?? …`, `c ? x : d ? y : …`),
    /// a postfix chain (`a.map { $0 }.filter { … }…`, `s.first!.description…`, `x[0][1]`), an
    /// `else if` chain — is walked in a loop, as long as the input makes it: down its spine, each
    /// link doing what comes before its inner expression (a call's arguments, the left side of
    /// `??`, a ternary's condition and `then`), then from the innermost expression out, each link
    /// doing the rest. The types, diagnostics and their order are a recursive walk's.
    func check(_ expr: Expr, in env: TypeEnvironment) -> Checked {
        depth += 1
        defer { depth -= 1 }
        guard depth <= Self.maximumDepth else {
            if !reportedDepth {
                reportedDepth = true
                error("this expression is nested too deeply to check its types (more than \(Self.maximumDepth) levels of brackets, closures and blocks)",
                      at: expr.location, hint: "split it into several `let` lines")
            }
            return .unknown
        }
        var links: [ChainLink] = []
        var node = expr
        var result = Checked.unknown
        walk: while true {
            switch step(node, in: env) {
            case .done(let checked):
                result = checked
                break walk
            case .link(let link, let inner):
                links.append(link)
                node = inner
            }
        }
        while let link = links.popLast() { result = finish(link, inner: result) }
        return result
    }

    /// One node of a walk: checked whole (`done`), or a chain link whose inner expression comes next.
    private enum Step {
        case done(Checked)
        case link(ChainLink, inner: Expr)
    }

    // Nesting recurses through `check` and `step`, so `step` only dispatches: in a debug build a
    // function's frame holds the temporaries of all its cases, and each case's work in a
    // function of its own keeps a level of nesting to a few kilobytes of stack.
    private func step(_ expr: Expr, in env: TypeEnvironment) -> Step {
        switch expr.kind {
        case .int, .double, .bool, .nilLiteral, .identifier, .wildcard, .keyPath, .string, .array, .tuple, .closure:
            return .done(checkLiteral(expr, in: env))
        case .member, .call, .genericSpecialization: return memberOrCallStep(expr, in: env)
        case .unary, .binary, .ternary: return operatorStep(expr, in: env)
        case .ifExpression: return ifStep(expr, in: env)
        case .throwExpression, .cast, .subscriptAccess, .forceUnwrap, .bindOptional, .optionalChain: return postfixStep(expr, in: env)
        case .dictionary, .switchExpression: return .done(checkStatementKind(expr, in: env))
        case .tryExpression(let operand, let mode): return .done(checkTry(operand, mode, in: env))
        }
    }

    /// Literals (strings with their interpolations, arrays, tuples, closures) and names.
    private func checkLiteral(_ expr: Expr, in env: TypeEnvironment) -> Checked {
        let reportedBefore = diagnostics.count
        switch expr.kind {
        case .int: return .value(.int)
        case .double: return .value(.double)
        case .bool: return .value(.bool)
        case .nilLiteral: return .value(.nilLiteral)
        case .identifier(let name): return lookup(name, at: expr.location, in: env)
        case .keyPath(let path): return .keyPath(path, expr.location)
        case .string(let parts):
            for case .interpolation(let inner) in parts { _ = valueType(check(inner, in: env), at: inner.location, purpose: "string interpolation") }
            return .value(.string)
        case .array(let elements):
            var element = SpecType.never
            for item in elements { element = store.join(element, valueType(check(item, in: env), at: item.location, purpose: "an array element")) }
            // A mistake inside is reported once, not again by what uses the array.
            return diagnostics.count > reportedBefore ? .unknown : .value(.array(element))
        case .tuple(let elements):
            let items = elements.map { valueType(check($0.value, in: env), at: $0.value.location, purpose: "a tuple element") }
            return diagnostics.count > reportedBefore ? .unknown : .value(.tuple(items))
        case .closure(let closure):
            return .closure(ClosureReference(syntax: closure, environment: env, location: expr.location,
                                             usesSecondAnonymousArgument: closure.parameters == nil && NameCheck.mentions("$1", in: closure.body)))
        default:
            return .unknown
        }
    }

    private func memberOrCallStep(_ expr: Expr, in env: TypeEnvironment) -> Step {
        switch expr.kind {
        case .member(nil, let name):
            switch name {
            case "unlimited", "none": return .done(.demand)
            default: return .done(.member(name, []))
            }
        case .member(let base?, let name):
            return .link(.member(name, at: expr.location), inner: base)
        case .call(let callee, let arguments):
            let args = checkArguments(arguments, in: env)
            if let checked = checkCallOfNoChain(callee: callee, args, in: env) { return .done(checked) }
            switch callee.kind {
            case .genericSpecialization:
                return .link(.specializedCall(callee: callee, contextualArguments(args, callee: callee)), inner: callee)
            case .member(let base?, let name):
                // `items.append(x)` on a `var` (or a property of one): a change in place.
                if MutatingMethods.names.contains(name) || types.mutatingMethodNames.contains(name), let path = base.assignmentPath {
                    let receiver = check(base, in: env)
                    if let checked = checkMutatingCall(name, on: path, receiver, args, at: callee.location, in: env) { return .done(checked) }
                    return .done(methodCall(name, on: receiver, args, at: callee.location))
                }
                return .link(.method(name, at: callee.location, args), inner: base)
            default:
                return .link(.call(at: callee.location, args), inner: callee)
            }
        case .genericSpecialization(let base, _):
            return .link(.specialization, inner: base)
        default:
            return .done(.unknown)
        }
    }

    private func operatorStep(_ expr: Expr, in env: TypeEnvironment) -> Step {
        switch expr.kind {
        case .unary(let op, let operand):
            return .link(.unary(op, operand: operand.location, at: expr.location), inner: operand)
        case .binary("+", let lhs, let rhs) where lhs.isNowCall:
            switch check(rhs, in: env) {
            case .duration, .unknown: return .done(.deadline)
            case .value(let type) where [.int, .double].contains(store.resolve(type)):
                let refusal = TimeLiterals.deadlineNumber(written: TimeLiterals.literalText(rhs), frameNanoseconds: frameNanoseconds)
                return .done(error(refusal.message, at: rhs.location, hint: refusal.hint))
            default: return .done(error("a deadline is .now() + a duration such as .milliseconds(300)", at: rhs.location))
            }
        case .binary(let op, let lhs, let rhs) where op == "&&" || op == "||":
            return .link(.conditions(lhs: lhs, rhs: rhs, env), inner: lhs)
        case .binary("??", let lhs, let rhs):
            // Right-associative: the spine is the right side, checked after the left.
            let left = store.resolve(valueType(check(lhs, in: env), at: lhs.location, purpose: "the left side of '??'"))
            return .link(.nilCoalescing(left: left, right: rhs.location), inner: rhs)
        case .binary(let op, let lhs, let rhs):
            return .link(.binary(op, left: lhs, right: rhs, at: expr.location, env), inner: lhs)
        case .ternary(let test, let then, let otherwise):
            condition(test, in: env)
            return .link(.joined(check(then, in: env)), inner: otherwise)
        default:
            return .done(.unknown)
        }
    }

    private func ifStep(_ expr: Expr, in env: TypeEnvironment) -> Step {
        guard case .ifExpression(let ifExpression) = expr.kind else { return .done(.unknown) }
        let then = checkThen(ifExpression, in: env)
        guard let elseBody = ifExpression.elseBody else { return .done(joined(then, .value(.void))) }
        // `else if`: the next link. Its else body, that `if` alone, declares nothing, so the link
        // stays in this scope (an empty scope per link would lengthen every lookup).
        if elseBody.count == 1, case .expression(let next) = elseBody[0] { return .link(.joined(then), inner: next) }
        return .done(joined(then, checkBody(elseBody, in: TypeEnvironment(parent: env)).value))
    }

    private func postfixStep(_ expr: Expr, in env: TypeEnvironment) -> Step {
        switch expr.kind {
        case .throwExpression(let thrown):
            return .link(.throwing(thrown.location, at: expr.location), inner: thrown)
        case .cast(let operand, let type, let mode):
            return .link(.cast(operand, to: type, mode: mode), inner: operand)
        case .subscriptAccess(let base, let index, let fallback):
            return .link(.subscripting(base.location, index: index, default: fallback, at: expr.location, env), inner: base)
        case .forceUnwrap(let operand):
            return .link(.forceUnwrap(at: expr.location), inner: operand)
        case .bindOptional(let operand):
            return .link(.bindOptional(at: expr.location), inner: operand)
        case .optionalChain(let chain):
            return .link(.optionalChain, inner: chain)
        default:
            return .done(.unknown)
        }
    }

    /// The value type of what an expression gave, as `Interpreter.valueOf` converts it.
    func valueType(_ checked: Checked, at location: SourceLocation, purpose: String) -> SpecType {
        switch checked {
        case .value(let type): return type
        case .unknown: return .any
        case .member(let name, let payload) where (name == "success" || name == "failure") && payload.count == 1 && types.enumsWithCase(name).isEmpty:
            // `.success(x)` where a value is needed is a `Result`, as the interpreter makes it (`EnumCases.value`).
            let inner = valueType(payload[0], at: location, purpose: "the value of .\(name)")
            return name == "success" ? .result(success: inner, failure: .never) : .result(success: .never, failure: inner)
        case .member(let name, let payload) where !types.isEmpty:
            if let type = implicitCase(name, payload, at: location) { return type }
            if payload.isEmpty, let owner = types.typeWithStaticProperty(name), let member = staticMember(name, of: owner, at: location) {
                return valueType(member, at: location, purpose: purpose)
            }
            error("cannot infer contextual base in reference to member '\(name)'", at: location, length: name.count,
                  hint: "no enum of this file has a case '\(name)'; write TYPE.\(name)")
            return .any
        case .function(let name, let receiver?) where !isPublisher(receiver):
            error("expected a value for \(purpose), found the method \(name)", at: location, hint: "call it: \(name)()")
            return .any
        default:
            error("expected a value for \(purpose), found \(checked.kindDescription)", at: location)
            return .any
        }
    }

    private func isPublisher(_ checked: Checked) -> Bool {
        if case .value(let type) = checked, case .publisher = store.resolve(type) { return true }
        return false
    }

    /// Two things an expression may be (`?:`, `if` branches).
    func joined(_ a: Checked, _ b: Checked) -> Checked {
        switch (a, b) {
        case (.value(let x), .value(let y)): return .value(store.join(x, y))
        case (.unknown, _), (_, .unknown): return .unknown
        case (.value(let x), let other) where store.resolve(x) == .never: return other
        case (let other, .value(let y)) where store.resolve(y) == .never: return other
        default: return .unknown
        }
    }

    private func lookup(_ name: String, at location: SourceLocation, in env: TypeEnvironment) -> Checked {
        if let found = env[name] { return found }
        // In a member's body, `self`'s members need no `self.` (as in Swift).
        if case .value(let receiver)? = env["self"], case .named(let type) = store.resolve(receiver), types.memberNames(of: type).contains(name) {
            return namedMember(name, of: type, at: location)
        }
        if let function = types.functions[name] { return functionReference(function) }
        if let declared = types.canonicalName(name) { return .type(declared) }
        switch Builtins.global(name) {
        case .scheduler?: return .scheduler
        case .type(let type)?: return .type(type)
        case .function(let function, _)?: return .function(function, receiver: nil)
        default: break
        }
        if name.hasPrefix("$") {
            return error("anonymous closure argument '\(name)' is not available here", at: location, length: name.count,
                         hint: "'$0' only exists inside a closure without named parameters; this closure is called with fewer arguments")
        }
        // Undefined names were reported by the name check.
        return .unknown
    }

    // MARK: Conditions and operators

    @discardableResult
    func condition(_ expr: Expr, in env: TypeEnvironment) -> Bool {
        requireCondition(check(expr, in: env), of: expr)
    }

    /// Whether what `expr` gave (`checked`) can be a condition (reports it when it cannot).
    @discardableResult
    func requireCondition(_ checked: Checked, of expr: Expr) -> Bool {
        let type = valueType(checked, at: expr.location, purpose: "a condition")
        return requireBool(type, at: expr.range.start, length: expr.range.end.line == expr.range.start.line ? expr.range.end.column - expr.range.start.column : 1)
    }

    /// Whether `type` can be a condition (reports it when it cannot).
    @discardableResult
    func requireBool(_ type: SpecType, at location: SourceLocation, length: Int = 1) -> Bool {
        switch store.resolve(type) {
        case .bool, .any, .never: return true
        case .variable(let index):
            store.bind(index, to: .bool)
            return true
        case .optional(let wrapped): return requireBool(wrapped, at: location, length: length)
        case .int:
            error("type 'Int' cannot be used as a boolean; test for '!= 0' instead", at: location, length: length)
            return false
        case let other:
            error("cannot convert value of type '\(name(other))' to expected condition type 'Bool'", at: location, length: length)
            return false
        }
    }

    /// A type used where a concrete one is needed: an undecided variable becomes `fallback`;
    /// an optional is taken for the value it holds (a `nil` there fails only at run time).
    private func operand(_ type: SpecType, deciding fallback: SpecType?) -> SpecType {
        var current = store.resolve(type)
        if case .variable(let index) = current, let fallback {
            store.bind(index, to: fallback)
            current = store.resolve(fallback)
        }
        while case .optional(let wrapped) = current, store.resolve(wrapped) != .never { current = store.resolve(wrapped) }
        return current
    }

    func unary(_ op: String, _ type: SpecType, at location: SourceLocation) -> SpecType {
        let value = operand(type, deciding: op == "!" ? .bool : .int)
        switch (op, value) {
        case (_, .any), (_, .never), (_, .variable): return .any
        case ("-", .int), ("+", .int): return .int
        case ("-", .double), ("+", .double): return .double
        case ("!", .bool): return .bool
        default:
            error("unary operator '\(op)' cannot be applied to an operand of type '\(name(value))'", at: location)
            return .any
        }
    }

    /// `Arithmetic.binary`'s rules on types.
    func binaryType(_ op: String, _ leftType: SpecType, _ rightType: SpecType, leftIsLiteral: Bool, rightIsLiteral: Bool, at location: SourceLocation) -> SpecType {
        let comparison = ["==", "!=", "<", "<=", ">", ">="].contains(op)
        // An undecided side takes the other side's type (`$0 * 2` on a stream nobody wrote a value for).
        let leftResolved = store.resolve(leftType), rightResolved = store.resolve(rightType)
        var left = operand(leftType, deciding: isDecided(rightResolved) ? rightResolved : nil)
        var right = operand(rightType, deciding: isDecided(left) ? left : nil)
        if op == "==" || op == "!=" {
            // Comparing with nil (or an optional) never fails.
            if case .optional = leftResolved { return .bool }
            if case .optional = rightResolved { return .bool }
        }
        if left == .int, leftIsLiteral, right == .double { left = .double }
        if left == .double, right == .int, rightIsLiteral { right = .double }
        switch (left, right) {
        case (.any, _), (_, .any), (.never, _), (_, .never), (.variable, _), (_, .variable):
            return comparison ? .bool : op == "..." || op == "..<" ? .array(.int) : .any
        default: break
        }
        switch op {
        case "==", "!=":
            for case .named(let typeName) in [left, right] where !types.isEquatable(typeName) {
                error("binary operator '\(op)' cannot be applied to two '\(typeName)' operands", at: location, length: op.count,
                      hint: types.equatableHint(typeName))
                return .bool
            }
            let kinds: Set<SpecType> = [.int, .double, .string, .bool]
            if left != right, kinds.contains(left), kinds.contains(right) { mismatch(op, left, right, at: location) }
            return .bool
        case "<", "<=", ">", ">=":
            if !comparable(left, right) { mismatch(op, left, right, at: location) }
            return .bool
        case "...", "..<":
            if left != .int || right != .int { mismatch(op, left, right, at: location) }
            return .array(.int)
        default: break
        }
        switch (left, right) {
        case (.int, .int): return .int
        case (.double, .double) where op == "%":
            error("'%' is unavailable for Double", at: location, hint: "use x.truncatingRemainder(dividingBy: y)")
            return .double
        case (.double, .double): return .double
        case (.string, .string) where op == "+": return .string
        case (.array(let x), .array(let y)) where op == "+": return .array(store.join(x, y))
        default:
            mismatch(op, left, right, at: location)
            return .any
        }
    }

    private func isDecided(_ type: SpecType) -> Bool {
        switch type {
        case .any, .never, .variable: return false
        default: return true
        }
    }

    /// Whether `Arithmetic.compare` orders two values of these types.
    func comparable(_ a: SpecType, _ b: SpecType) -> Bool {
        let x = operand(a, deciding: nil), y = operand(b, deciding: nil)
        switch (x, y) {
        case (.any, _), (_, .any), (.never, _), (_, .never), (.variable, _), (_, .variable): return true
        case (.int, .int), (.double, .double), (.string, .string): return true
        case (.tuple(let xs), .tuple(let ys)) where xs.count == ys.count: return zip(xs, ys).allSatisfy { comparable($0, $1) }
        default: return false
        }
    }

    private func mismatch(_ op: String, _ left: SpecType, _ right: SpecType, at location: SourceLocation) {
        let mixesNumbers = Set([left, right]) == [.int, .double]
        let hint = mixesNumbers ? "Swift does not mix Int and Double: convert one side, e.g. Double(x), or write the literal as 2.0" : nil
        if left == right {
            error("binary operator '\(op)' cannot be applied to two '\(name(left))' operands", at: location, length: op.count, hint: hint)
        } else {
            error("binary operator '\(op)' cannot be applied to operands of type '\(name(left))' and '\(name(right))'", at: location, length: op.count, hint: hint)
        }
    }

    // MARK: Statements and closures

    /// An `if`'s conditions and its `then` body; the `else` body is the caller's (`else if` chains).
    private func checkThen(_ ifExpression: IfExpression, in env: TypeEnvironment) -> Checked {
        guard let test = ifExpression.simpleCondition else {
            let scope = TypeEnvironment(parent: env)
            checkConditions(ifExpression.conditions, in: scope)
            return checkBody(ifExpression.thenBody, in: scope).value
        }
        condition(test, in: env)
        return checkBody(ifExpression.thenBody, in: TypeEnvironment(parent: env)).value
    }

    private struct ClosureKey: Hashable {
        var line: Int
        var column: Int
    }
    private var closuresBeingChecked: Set<ClosureKey> = []

    /// A closure's body is checked at each of its calls, with that call's arguments, so closures
    /// that each call another twice (`let f1 = { f0($0) + f0($0) }`, `let f2 = { f1($0) + f1($0) }`,
    /// …) would take time exponential in their number; past this many checks in one test the
    /// checker stops, as the interpreter's work budget stops their run.
    static let maximumClosureChecks = 100_000
    private var closureChecks = 0

    /// The returns seen in the closure being checked, innermost closure last.
    private var returns: [[(Checked, SourceLocation)]] = []

    /// Checks statements as `Interpreter.execute` runs them; the value is the last expression
    /// statement's (`()` after a `let`), or `Never` after a `return`.
    func checkBody(_ statements: [ClosureStatement], in env: TypeEnvironment) -> (value: Checked, location: SourceLocation?) {
        var last: Checked = .value(.void)
        var location: SourceLocation?
        for statement in statements {
            switch statement {
            case .expression(let expr):
                last = check(expr, in: env)
                location = expr.range.start
            case .letBinding(let name, let expr, _):
                env[name] = check(expr, in: env)
                last = .value(.void)
            case .returnStatement(let expr, let at):
                let value = expr.map { check($0, in: env) } ?? .value(.void)
                if !returns.isEmpty { returns[returns.count - 1].append((value, expr?.range.start ?? at)) }
                last = .value(.never)
                location = nil
            case .variable, .assignment, .guardStatement:
                checkStatementKind(statement, in: env)
                last = .value(.void)
            case .forIn, .whileLoop, .breakStatement, .continueStatement, .patternBinding:
                checkLoopStatement(statement, in: env)
                last = .value(.void)
            case .doCatch(let statement):
                checkDo(statement, in: env)
                last = .value(.void)
            }
        }
        return (last, location)
    }

    func noteThrow(_ type: SpecType, at location: SourceLocation) {
        guard let index = throwContexts.lastIndex(where: { $0.owner != nil }) else { return }
        throwContexts[index].thrown = store.join(throwContexts[index].thrown, type)
        if !throwContexts[index].allowsThrowing, let owner = throwContexts[index].owner, owner.hasPrefix("func ") || owner == "init" {
            error("error is not handled because the enclosing function is not declared 'throws'", at: location,
                  hint: "declare it: \(owner == "init" ? "init(…) throws" : "\(owner)(…) throws -> …"), or catch the error with do { … } catch { … }")
        } else if !throwContexts[index].allowsThrowing, let owner = throwContexts[index].owner {
            let tryVersion = "try" + owner.prefix(1).uppercased() + owner.dropFirst()
            error("the closure of \(owner) can throw, but \(owner) cannot throw", at: location,
                  hint: owner == "Future" ? "fail the Future with promise(.failure(error))"
                      : Catalogue.methodEntries(named: tryVersion) != nil ? "use \(tryVersion) to turn a throw into a failure"
                      : "only the try- operators (tryMap, tryFilter, …) turn a throw into a failure")
        }
    }

    /// Checks a closure called with `arguments`, binding its parameters as `Interpreter.call`
    /// does (a tuple spread over several parameters, several arguments gathered into one).
    /// `owner` names the operator whose closure it is (nil: throws pass to the enclosing closure).
    func check(_ closure: ClosureReference, with arguments: [Checked], owner: String?, allowsThrowing: Bool) -> ClosureOutcome {
        if let function = closure.function { return functionOutcome(function, with: arguments, at: closure.location) }
        // A closure that calls itself (`let f = { … f(x) … }`) is checked once; the inner call is unknown.
        let key = ClosureKey(line: closure.location.line, column: closure.location.column)
        guard closuresBeingChecked.insert(key).inserted else {
            return ClosureOutcome(result: .unknown, resultLocation: closure.location, thrown: .never)
        }
        defer { closuresBeingChecked.remove(key) }
        closureChecks += 1
        guard closureChecks <= Self.maximumClosureChecks else {
            if closureChecks == Self.maximumClosureChecks + 1 {
                error("the closures of this test call each other too many times to check their types (more than \(Self.maximumClosureChecks) checks of a closure's body)",
                      at: closure.location, hint: "a closure is checked at each call: calls that each call a closure several times multiply")
            }
            return ClosureOutcome(result: .unknown, resultLocation: closure.location, thrown: .never)
        }
        let env = TypeEnvironment(parent: closure.environment)
        // A parameter no value can reach (the values of an empty line) is decided by its uses.
        let arguments = arguments.map { (argument) -> Checked in
            if case .value(let type) = argument, store.resolve(type) == .never { return .value(store.fresh()) }
            return argument
        }
        if let parameters = closure.syntax.parameters {
            var bound = arguments
            if parameters.count > 1, arguments.count == 1 {
                switch arguments[0] {
                case .value(let type):
                    switch store.resolve(type) {
                    case .tuple(let items) where items.count == parameters.count: bound = items.map(Checked.value)
                    case .any, .variable: bound = parameters.map { _ in .value(.any) }
                    default: break
                    }
                case .unknown: bound = parameters.map { _ in .unknown }
                default: break
                }
            } else if parameters.count == 1, arguments.count > 1 {
                bound = [.value(.tuple(arguments.map { valueType($0, at: closure.location, purpose: "a closure argument") }))]
            }
            if bound.count != parameters.count {
                error("contextual closure type expects \(arguments.count) argument\(arguments.count == 1 ? "" : "s"), but \(parameters.count) \(parameters.count == 1 ? "was" : "were") used in closure body",
                      at: closure.location)
                bound = parameters.map { _ in .unknown }
            }
            for (name, value) in zip(parameters, bound) where name != "_" { env[name] = value }
        } else {
            for (index, value) in arguments.enumerated() { env["$\(index)"] = value }
            if arguments.count == 1, closure.usesSecondAnonymousArgument, case .value(let type) = arguments[0] {
                switch store.resolve(type) {
                case .tuple(let items): for (index, item) in items.enumerated() { env["$\(index)"] = .value(item) }
                case .any, .variable: for index in 0..<16 { env["$\(index)"] = .value(.any) }
                default: break
                }
            }
        }
        throwContexts.append(ThrowContext(owner: owner, allowsThrowing: allowsThrowing))
        returns.append([])
        let body = checkBody(closure.syntax.body, in: env)
        let context = throwContexts.removeLast()
        let closureReturns = returns.removeLast()
        var result = body.value
        var location = body.location ?? closure.location
        for (value, at) in closureReturns {
            if case .value(let type) = result, store.resolve(type) == .never { location = at }
            result = joined(result, value)
        }
        if closure.syntax.body.isEmpty { result = .value(.void) }
        return ClosureOutcome(result: result, resultLocation: location, thrown: context.thrown)
    }

    // MARK: Members

    func member(_ name: String, of base: Checked, at location: SourceLocation) -> Checked {
        switch base {
        case .value(let type):
            return valueMember(name, of: type, at: location)
        case .unknown:
            return .unknown
        case .type(let typeName):
            if let declared = userStaticMember(name, of: typeName, at: location) { return declared }
            do throws(EvalError) {
                switch try Builtins.staticMember(name, of: typeName, at: location) {
                case .value(let value): return .value(SpecType(of: value))
                case .type(let type): return .type(type)
                case .scheduler: return .scheduler
                case .demand: return .demand
                case .member(let member, _): return .member(member, [])
                default: return .unknown
                }
            } catch {
                if case .fault(let diagnostic) = error { self.error(diagnostic.message, at: diagnostic.location, length: name.count, hint: diagnostic.hint) }
                return .unknown
            }
        case .scheduler:
            return ["asyncAfter", "async", "schedule", "sync"].contains(name) ? .function(name, receiver: .scheduler) : .scheduler
        case .function(_, let receiver?) where receiver.isUnknown:
            return .unknown
        default:
            return error("\(base.kindDescription) has no member '\(name)'", at: location, length: name.count)
        }
    }

    private func valueMember(_ name: String, of type: SpecType, at location: SourceLocation) -> Checked {
        let resolved = store.resolve(type)
        switch resolved {
        case .any, .never: return .unknown
        case .named(let typeName):
            return namedMember(name, of: typeName, at: location)
        case .variable(let index):
            if Int(name) != nil { return .unknown }
            // The first kind of value that has this member decides the type; none: a letter's.
            let kind = MemberTypes.Kind.allCases.first { MemberTypes.hasProperty(name, $0) || MemberTypes.method(name, $0) != nil } ?? .string
            store.bind(index, to: kind == .array ? .array(store.fresh()) : kind.defaultType)
            return valueMember(name, of: resolved, at: location)
        case .optional(let wrapped):
            if name == "description" { return .value(.string) }
            if store.resolve(wrapped) == .never { return .unknown }
            if name == "publisher" {
                // Combine's `Optional.Publisher`: the value once, or nothing for nil.
                if case .array = store.resolve(wrapped) {
                    return error("the publisher of an optional array is not supported in a .marble file yet (it would publish the whole array once)", at: location, length: name.count,
                                 hint: "unwrap it and write Just(array) for the array once, or (array ?? []).publisher for its elements")
                }
                return .value(.publisher(output: wrapped, failure: .never))
            }
            return valueMember(name, of: wrapped, at: location)
        case .publisher:
            if name == "description" { return .value(.string) }
            return .function(name, receiver: .value(resolved))
        case .tuple(let items):
            if let index = Int(name), items.indices.contains(index) { return .value(items[index]) }
            if name == "description" { return .value(.string) }
            let members = ["description"] + items.indices.map(String.init)
            return error("value of tuple type '\(self.name(resolved))' has no member '\(name)'", at: location, length: name.count,
                         hint: Suggestions.nearest(to: name, in: members).map { "did you mean '\($0)'?" })
        default:
            break
        }
        if let type = AppMembers.propertyType(name, of: resolved) { return .value(type) }
        if let kind = AppMembers.Kind(resolved), AppMembers.method(name, kind) != nil,
           !(MemberTypes.kind(of: resolved).map { MemberTypes.hasProperty(name, $0) } ?? false) {
            return .function(name, receiver: .value(resolved))
        }
        if case .dictionary = resolved {
            if name == "description" { return .value(.string) }
            return error("value of type '\(self.name(resolved))' has no member '\(name)'", at: location, length: name.count,
                         hint: MemberTypes.suggestion(for: name, among: AppMembers.names(of: .dictionary)).map { "did you mean '\($0)'?" })
        }
        if case .result = resolved {
            if name == "description" { return .value(.string) }
            return error("value of type '\(self.name(resolved))' has no member '\(name)'", at: location, length: name.count,
                         hint: name == "value" ? "switch over it (case .success(let value)) or call get()" : nil)
        }
        guard let kind = MemberTypes.kind(of: resolved) else { return .unknown }
        switch (name, resolved) {
        case ("count", _): if MemberTypes.hasProperty(name, kind) { return .value(.int) }
        case ("isEmpty", _), ("isNaN", _): if MemberTypes.hasProperty(name, kind) { return .value(.bool) }
        case ("description", _): return .value(.string)
        case ("first", .string), ("last", .string): return .value(.optional(.string))
        case ("first", .array(let element)), ("last", .array(let element)): return .value(.optional(element))
        case ("publisher", .array(let element)): return .value(.publisher(output: element, failure: .never))
        default: break
        }
        if MemberTypes.method(name, kind) != nil { return .function(name, receiver: .value(resolved)) }
        return error("value of type '\(self.name(resolved))' has no member '\(name)'", at: location, length: name.count,
                     hint: MemberTypes.suggestion(for: name, among: MemberTypes.names(of: kind)).map { "did you mean '\($0)'?" })
    }
}

extension Checked {
    var isUnknown: Bool {
        switch self {
        case .unknown: return true
        case .value(.any): return true
        default: return false
        }
    }
}
