import Reactive
import MarbleSyntax

/// Checks the types of one test's `let` and `subject` expressions before anything runs, so a
/// mistake in a closure is an error whether or not a value ever reaches it (docs/language.md,
/// "Types"). Types flow from the marbles: each source's values (and failures) as written in its
/// lines, then through every operator's rule (`OperatorTypes`) into each closure's parameters.
struct TypeChecker {
    /// The types of the values and failures of the test's `hot` and `cold` lines, and of what
    /// its `send` lines send into each subject.
    var marbleTypes: [String: StreamType] = [:]
    var sentTypes: [String: StreamType] = [:]
    /// `let` names bound to values (`let limit = 3`), as evaluated.
    var constants: [String: Value] = [:]
    /// The types the file and the test declare.
    var types = UserTypes()
    /// The test's frame, and whether a `frame` line set it (`TimeLiterals`).
    var frameNanoseconds: Int64 = 1_000_000
    var frameWritten = false

    /// Notes the types of a line's events (joined with what earlier lines of the same name sent).
    static func noting(_ events: [TimedEvent<Value, StreamError>], into known: StreamType?) -> StreamType {
        var type = known ?? StreamType(output: .never, failure: .never)
        // A line's values are mostly of one kind, or repeat (a table's names): the type is
        // computed again only when a value differs in kind from the one before.
        var last: Value?
        for item in events {
            switch item.event {
            case .value(let value):
                if type.output == .any { continue }
                if let last, last.sameKind(as: value) || last == value { continue }
                last = value
                type.output = SpecType.joinConcrete(type.output, SpecType(of: value))
            case .completion(.failure(let error)):
                type.failure = SpecType.joinConcrete(type.failure, SpecType(of: error.value))
            case .completion(.finished):
                break
            }
        }
        return type
    }

    func check(_ statements: [Statement]) -> [SpecDiagnostic] {
        checkWithWarnings(statements).errors
    }

    /// The errors, and the warnings of what may not mean what its writer thinks.
    func checkWithWarnings(_ statements: [Statement]) -> (errors: [SpecDiagnostic], warnings: [SpecDiagnostic]) {
        let checker = ExpressionChecker()
        checker.types = types
        checker.frameNanoseconds = frameNanoseconds
        checker.frameWritten = frameWritten
        let env = TypeEnvironment()
        func typed(_ stream: StreamType) -> Checked {
            // A line with no values: its uses decide the type (`TypeStore`).
            .value(.publisher(output: stream.output == .never ? checker.store.fresh() : stream.output, failure: stream.failure))
        }
        for (name, stream) in marbleTypes { env[name] = typed(stream) }
        // Names a closure may use before their line: unknown until checked.
        for statement in statements {
            switch statement.kind {
            case .binding(let name, _), .subject(let name, _): env[name.name] = .unknown
            default: break
            }
        }
        for (name, value) in constants { env[name] = .value(SpecType(of: value)) }
        checker.constants = constants
        checker.constantScope = env
        for statement in statements {
            switch statement.kind {
            case .subject(let name, let expr):
                var stream = StreamType.unknown
                if case .value(let type) = checker.check(expr, in: env), case .publisher(let output, let failure) = checker.store.resolve(type) {
                    stream = StreamType(output: output, failure: failure)
                }
                if let declared = Self.declaredOutput(expr) { stream.output = checker.store.join(stream.output, declared) }
                if let sent = sentTypes[name.name] {
                    stream.output = checker.store.join(stream.output, sent.output)
                    stream.failure = checker.store.join(stream.failure, sent.failure)
                }
                env[name.name] = .value(stream.type)
            case .binding(let name, let expr):
                guard constants[name.name] == nil else { continue }
                env[name.name] = checker.check(expr, in: env)
            case .published(let name, let written, let expr):
                // `query` is the property's value, `$query` its publisher (which never fails).
                var type = checker.valueType(checker.check(expr, in: env), at: expr.location, purpose: "a @Published property")
                if let written, let declared = checker.specType(written: written.text) {
                    checker.requireArgument(type, fits: declared, isNumberLiteral: expr.isNumberLiteral, at: expr.location)
                    type = declared
                }
                checker.publishedNames.insert(name.name)
                let publisher = AppIdioms.publisherName(name.name)
                if let sent = sentTypes[publisher] { type = checker.store.join(type, sent.output) }
                env[name.name] = .value(type)
                env[publisher] = .value(.publisher(output: type, failure: .never))
            default:
                break
            }
        }
        checker.checkComputedProperties(in: env)
        checker.checkFunctions(in: env)
        return (checker.diagnostics, checker.warnings)
    }

    /// The output type written in `PassthroughSubject<Int, Never>()`, if it is one the checker knows.
    private static func declaredOutput(_ expr: Expr) -> SpecType? {
        guard case .call(let callee, _) = expr.kind, case .genericSpecialization(_, let arguments) = callee.kind, let first = arguments.first else { return nil }
        return SpecType(written: first)
    }
}

extension Value {
    /// Whether two values have the same type for certain without looking inside (scalars).
    fileprivate func sameKind(as other: Value) -> Bool {
        switch (self, other) {
        case (.int, .int), (.double, .double), (.string, .string), (.bool, .bool), (.null, .null): return true
        default: return false
        }
    }
}
