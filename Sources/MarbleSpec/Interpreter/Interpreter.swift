import Reactive
import MarbleSyntax

/// Evaluates expressions of one test. Holds the test's scheduler and the names it declares,
/// and bridges closures written in the file to the engine's Swift closures.
final class Interpreter {
    let scheduler: VirtualTimeScheduler
    let frameNanoseconds: Int64
    let globals = Environment()
    /// Lines of the file, for quoting expressions in messages and diagrams.
    let lines: LineTable
    /// Output of `print(_:to:)` operators, with frames.
    var trace: [(frame: Int, text: String)] = []
    /// Set when the run is traced: operators wrap what they build in it (`BoundCall.result`).
    var tracer: TraceRecorder?
    /// The types the file and the test declare.
    var types = UserTypes()
    /// The first runtime error of the run; the run stops after it.
    private(set) var fault: SpecDiagnostic?
    private var handles: [StreamValue] = []
    /// The value of the `return` being unwound (see `EvalError.returning`).
    private var returnedValue: Runtime?
    /// How deeply `evaluate` is nested now (see `maximumDepth`).
    private var depth = 0
    /// The links of the chains being walked (see `evaluateChain`).
    var chainFrames: [ChainFrame] = []

    init(scheduler: VirtualTimeScheduler, frameNanoseconds: Int64, lines: LineTable) {
        self.scheduler = scheduler
        self.frameNanoseconds = frameNanoseconds
        self.lines = lines
    }

    /// Breaks the cycles a test builds: the names hold publishers whose closures (the file's)
    /// hold the environment with those names, and the interpreter that calls them. Called once
    /// the test's report is made; the interpreter is unusable afterwards.
    func tearDown() {
        globals.removeAll()
        handles.removeAll()
        tracer = nil
        onFault = nil
        returnedValue = nil
        chainFrames.removeAll()
        scheduler.discardPendingWork()
    }

    // MARK: Faults

    /// Records a runtime error and stops the run after the current action.
    func report(_ diagnostic: SpecDiagnostic) {
        guard fault == nil else { return }
        var diagnostic = diagnostic
        diagnostic.frame = scheduler.currentFrame
        fault = diagnostic
        onFault?()
        scheduler.abort(diagnostic.message)
    }

    /// Called once, at the first runtime error (before the placeholder value that lets the
    /// current action unwind is delivered), so the runner can keep only what happened before it.
    var onFault: (() -> Void)?

    func fail(_ message: String, at location: SourceLocation, hint: String? = nil) -> EvalError {
        .fault(SpecDiagnostic(message, at: location, hint: hint))
    }

    /// The source text of `range` (first line only if it spans several, with "…").
    func text(of range: SourceRange) -> String { Self.text(of: range, in: lines) }

    static func text(of range: SourceRange, in lines: LineTable) -> String {
        guard range.start.line >= 1, range.start.line <= lines.count else { return "" }
        let line = Array(lines.line(range.start.line))
        let start = min(max(0, range.start.column - 1), line.count)
        let end = range.end.line == range.start.line ? min(max(start, range.end.column - 1), line.count) : line.count
        let text = String(line[start..<end])
        return range.end.line == range.start.line ? text : text + " …"
    }

    // MARK: Publisher handles

    func register(_ stream: StreamValue) -> Value {
        handles.append(stream)
        return .publisher(PublisherHandle(id: handles.count - 1, name: stream.text))
    }

    func stream(for handle: PublisherHandle) -> StreamValue? {
        handles.indices.contains(handle.id) ? handles[handle.id] : nil
    }

    // MARK: Evaluation

    /// Nesting of `evaluate` beyond this is a fault rather than a risk to the stack. Chains are
    /// walked in a loop (`evaluateChain`), so what recurses is nesting proper (brackets, arguments,
    /// closure bodies, closures calling closures), which the parser bounds far below this; it
    /// guards trees built some other way. A level is a few kilobytes of stack in a debug build.
    static let maximumDepth = 1_000

    func evaluate(_ expr: Expr, in env: Environment) throws(EvalError) -> Runtime {
        depth += 1
        defer { depth -= 1 }
        guard depth <= Self.maximumDepth else {
            throw fail("this expression is nested too deeply to evaluate (more than \(Self.maximumDepth) levels)", at: expr.location,
                       hint: "split it into several 'let' lines")
        }
        switch expr.kind {
        case .int(let value): return .value(.int(value))
        case .double(let value): return .value(.double(value))
        case .bool(let value): return .value(.bool(value))
        case .nilLiteral: return .value(.null)
        case .string(let parts):
            var text = ""
            for part in parts {
                switch part {
                case .literal(let literal): text += literal
                case .interpolation(let inner): text += try describe(evaluate(inner, in: env), at: inner.location)
                }
            }
            return .value(.string(text))
        case .identifier(let name):
            return try lookup(name, at: expr.location, in: env)
        case .wildcard:
            throw fail("'_' can only be a closure parameter", at: expr.location)
        case .array(let elements):
            // Publishers in an array become publisher values (`Publishers.MergeMany([a, b])`).
            return .value(.array(try elements.map { (element) throws(EvalError) -> Value in
                try valueOf(evaluate(element, in: env), at: element.location, purpose: "an array element")
            }))
        case .tuple(let elements):
            if elements.isEmpty { return .value(.tuple([])) }
            var values: [Value] = []
            for element in elements {
                values.append(try valueOf(evaluate(element.value, in: env), at: element.value.location, purpose: "a tuple element"))
            }
            return .value(.tuple(values))
        case .member(nil, let name):
            return implicitMember(name)
        case .closure(let closure):
            return .closure(ClosureValue(syntax: closure, environment: env, location: expr.location,
                                         usesSecondAnonymousArgument: closure.parameters == nil && NameCheck.mentions("$1", in: closure.body)))
        case .keyPath(let path):
            return .keyPath(path)
        case .dictionary, .switchExpression:
            return try evaluateStatementKind(expr, in: env)
        case .tryExpression(let operand, let mode):
            return try evaluateTry(operand, mode, at: expr.location, in: env)
        case .member, .call, .genericSpecialization, .unary, .binary, .ternary, .ifExpression, .throwExpression, .subscriptAccess,
             .forceUnwrap, .bindOptional, .optionalChain, .cast:
            return try evaluateChain(expr, in: env)
        }
    }

    func condition(_ expr: Expr, in env: Environment) throws(EvalError) -> Bool {
        try conditionValue(evaluate(expr, in: env), at: expr.location)
    }

    /// The Bool a condition evaluated to; `location` is the condition's.
    func conditionValue(_ runtime: Runtime, at location: SourceLocation) throws(EvalError) -> Bool {
        let value = try valueOf(runtime, at: location, purpose: "a condition")
        guard case .bool(let flag) = value else {
            throw fail("a condition must be a Bool, not \(value.typeName) (\(value.literal))", at: location)
        }
        return flag
    }

    /// Runs statements; returns the value of the last expression statement (Swift's implicit
    /// return for single-expression bodies, extended to the last statement).
    func execute(_ statements: [ClosureStatement], in env: Environment) throws(EvalError) -> Runtime? {
        var last: Runtime?
        for statement in statements {
            switch statement {
            case .expression(let expr):
                last = try evaluate(expr, in: env)
            case .letBinding(let name, let expr, _):
                env[name] = try evaluate(expr, in: env)
                last = nil
            case .returnStatement(let expr, _):
                returnedValue = try expr.map { (expr) throws(EvalError) -> Runtime in try evaluate(expr, in: env) } ?? .value(.tuple([]))
                throw .returning
            case .variable, .assignment, .guardStatement:
                try executeStatementKind(statement, in: env)
                last = nil
            case .forIn, .whileLoop, .breakStatement, .continueStatement, .patternBinding:
                try executeLoopStatement(statement, in: env)
                last = nil
            case .doCatch(let statement):
                try executeDo(statement, in: env)
                last = nil
            }
        }
        return last
    }

    // MARK: Names and members

    private func lookup(_ name: String, at location: SourceLocation, in env: Environment) throws(EvalError) -> Runtime {
        if let value = env[name] { return value }
        // In a member's body, `self`'s members need no `self.` (as in Swift).
        if case .value(.record(let receiver))? = env["self"], types.memberNames(of: receiver.type).contains(name),
           let member = try recordMember(name, of: receiver, at: location) {
            return member
        }
        if let function = types.functions[name] { return .closure(functionValue(function)) }
        if let declared = types.canonicalName(name) { return .type(declared) }
        if let builtin = Builtins.global(name) { return builtin }
        let candidates = env.allNames + Builtins.globalNames + Catalogue.constructorNames + types.names
        if name.hasPrefix("$") {
            throw fail("anonymous closure argument '\(name)' is not available here", at: location,
                       hint: "'$0' only exists inside a closure without named parameters")
        }
        throw fail("cannot find '\(name)' in scope", at: location,
                   hint: Suggestions.nearest(to: name, in: candidates).map { "did you mean '\($0)'?" })
    }

    private func implicitMember(_ name: String) -> Runtime {
        switch name {
        case "unlimited": return .demand(.unlimited)
        case "none": return .demand(.none)
        default: return .member(name, [])
        }
    }

    func member(_ name: String, of base: Runtime, at location: SourceLocation) throws(EvalError) -> Runtime {
        switch base {
        case .value(let value):
            if case .record(let record) = value, let property = try recordMember(name, of: record, at: location) { return property }
            if let property = try Builtins.property(name, of: value, at: location, interpreter: self) { return property }
            return .function(name, receiver: base)
        case .stream:
            return .function(name, receiver: base)
        case .type(let typeName):
            if let declared = try userStaticMember(name, of: typeName, at: location) { return declared }
            return try Builtins.staticMember(name, of: typeName, at: location)
        case .scheduler:
            // `DispatchQueue.main.asyncAfter(deadline:execute:)` and `.async(execute:)` run work on
            // the virtual scheduler; any other member of a scheduler is that scheduler.
            return ["asyncAfter", "async", "schedule", "sync"].contains(name) ? .function(name, receiver: .scheduler) : .scheduler
        default:
            throw fail("\(base.kindDescription) has no member '\(name)'", at: location)
        }
    }

    // MARK: Calls

    /// Calls something callable: a closure, a promise, a builtin, a constructor.
    func call(_ callee: Runtime, _ args: [CallArgument], at location: SourceLocation, text: CodeText) throws(EvalError) -> Runtime {
        switch callee {
        case .closure(let closure):
            if let function = closure.function {
                return try call(closure, with: arrange(args, for: function, at: location))
            }
            return try call(closure, with: args.map(\.value))
        case .promise(let fulfil):
            guard args.count == 1, case .member(let kind, let payload) = args[0].value, payload.count == 1 else {
                throw fail("call the promise with .success(value) or .failure(error)", at: location)
            }
            let value = try valueOf(payload[0], at: args[0].location, purpose: "a promise's result")
            switch kind {
            case "success": fulfil(.success(value))
            case "failure": fulfil(.failure(StreamError(value)))
            default: throw fail("call the promise with .success(value) or .failure(error)", at: location)
            }
            return .value(.tuple([]))
        case .type(let name):
            if let made = try userTypeCall(name, member: nil, args, at: location) { return made }
            if Catalogue.isConstructor(name) {
                return try Catalogue.construct(name, args, at: location, text: text, interpreter: self)
            }
            if name.hasPrefix("["), name.contains(":") {
                guard args.isEmpty else { throw fail("\(name)() takes no arguments here", at: location) }
                return .value(.dictionary(DictionaryValue()))
            }
            return try Builtins.callFunction(name, receiver: nil, args, at: location, interpreter: self)
        case .function(let name, let receiver):
            return try Builtins.callFunction(name, receiver: receiver, args, at: location, interpreter: self)
        case .scheduler:
            return .scheduler
        default:
            throw fail("cannot call \(callee.kindDescription)", at: location)
        }
    }

    private static let anonymousNames = (0..<16).map { "$\($0)" }

    /// `$0`, `$1`, … without building a string per call.
    private static func anonymousName(_ index: Int) -> String {
        index < anonymousNames.count ? anonymousNames[index] : "$\(index)"
    }

    /// Calls a closure written in the file.
    func call(_ closure: ClosureValue, with args: [Runtime]) throws(EvalError) -> Runtime {
        try countClosureCall(at: closure.location)
        let env = Environment(parent: closure.environment)
        let arguments = args
        if let parameters = closure.syntax.parameters {
            var bound = arguments
            if parameters.count > 1, arguments.count == 1, case .value(.tuple(let items)) = arguments[0], items.count == parameters.count {
                bound = items.map { .value($0) }
            } else if parameters.count == 1, arguments.count > 1 {
                bound = [.value(.tuple(arguments.compactMap { if case .value(let v) = $0 { v } else { nil } }))]
            }
            guard bound.count == parameters.count else {
                throw fail("this closure takes \(parameters.count) parameter\(parameters.count == 1 ? "" : "s") but is called with \(arguments.count)", at: closure.location)
            }
            for (name, value) in zip(parameters, bound) where name != "_" { env[name] = value }
        } else {
            for (index, value) in arguments.enumerated() { env[Self.anonymousName(index)] = value }
            if arguments.count == 1, case .value(.tuple(let items)) = arguments[0], closure.usesSecondAnonymousArgument {
                // `{ $0 + $1 }` on a tuple-valued stream destructures the tuple, as Swift does for closures.
                for (index, item) in items.enumerated() { env[Self.anonymousName(index)] = .value(item) }
            }
        }
        do throws(EvalError) {
            return try execute(closure.syntax.body, in: env) ?? .value(.tuple([]))
        } catch {
            guard case .returning = error, let value = returnedValue else { throw error }
            returnedValue = nil
            return value
        }
    }

    /// Counts a call of a closure of the file as synchronous work at this frame: nested
    /// flatMaps over arrays, or closures calling closures, do all theirs inside one action, so
    /// the per-frame budget counts the calls themselves. Throws (a limit) once it is spent.
    func countClosureCall(at location: SourceLocation) throws(EvalError) {
        try countWork(at: location, hint: "closures called this often at one frame (nested flatMaps over arrays, closures calling closures) cannot finish")
    }

    /// Counts one piece of synchronous work at this frame (a closure's call, a loop's round);
    /// throws the limit, at `location` with `hint`, once the frame's budget is spent.
    func countWork(at location: SourceLocation, hint: String) throws(EvalError) {
        guard !scheduler.countWorkThisInstant() else { return }
        var diagnostic = SpecDiagnostic(scheduler.stopReason?.description ?? "the run stopped", at: location, hint: hint)
        diagnostic.isLimit = true
        throw .fault(diagnostic)
    }

    // MARK: Conversions

    func valueOf(_ runtime: Runtime, at location: SourceLocation, purpose: String) throws(EvalError) -> Value {
        switch runtime {
        case .value(let value): return value
        case .stream(let stream): return register(stream)
        case .member(let name, let payload):
            if EnumCases.isContextual(name, payload) && types.enumsWithCase(name).isEmpty { return try EnumCases.value(name, payload, at: location, interpreter: self) }
            if let value = try implicitEnumCase(name, payload, at: location) { return value }
            // `.zero` where one declared type has a `static let zero`.
            if payload.isEmpty, let owner = types.typeWithStaticProperty(name), let member = try staticMember(name, of: owner) {
                return try valueOf(member, at: location, purpose: purpose)
            }
            if !types.isEmpty {
                throw fail("cannot infer contextual base in reference to member '\(name)'", at: location,
                           hint: "no enum of this file has a case '\(name)'; write TYPE.\(name)")
            }
            throw fail("expected a value for \(purpose), found \(runtime.kindDescription)", at: location)
        default: throw fail("expected a value for \(purpose), found \(runtime.kindDescription)", at: location)
        }
    }

    private func describe(_ runtime: Runtime, at location: SourceLocation) throws(EvalError) -> String {
        try valueOf(runtime, at: location, purpose: "string interpolation").text
    }
}

/// One evaluated argument of a call.
struct CallArgument {
    var label: String?
    var value: Runtime
    var location: SourceLocation
    var syntax: Expr

    var isClosure: Bool {
        if case .closure = value { return true }
        return false
    }
}

extension Expr {
    /// `.now()` (a deadline of "now" on a scheduler).
    var isNowCall: Bool {
        if case .call(let callee, let arguments) = kind, arguments.isEmpty, case .member(_, "now") = callee.kind { return true }
        return false
    }

    /// Whether this is a number literal (which Swift would type from context: `$0 * 2` on a Double is Double arithmetic).
    var isNumberLiteral: Bool {
        switch kind {
        case .int, .double: return true
        case .unary("-", let operand): return operand.isNumberLiteral
        default: return false
        }
    }

    /// A string literal without interpolation (`" "`), which Swift reads as a `Character` where one is expected.
    var isPlainStringLiteral: Bool {
        guard case .string(let parts) = kind else { return false }
        return parts.allSatisfy { if case .literal = $0 { true } else { false } }
    }
}
