import Reactive
import MarbleSyntax

/// Every publisher the interpreter handles: dynamically typed values, errors identified by message.
public typealias Stream = AnyPublisher<Value, StreamError>

/// A publisher held by the interpreter, with what it needs beyond the publisher itself.
struct StreamValue {
    var publisher: Stream
    /// How it was written, cut from the file when first asked for.
    var code: CodeText
    /// For connectable publishers (`makeConnectable()`, `multicast`, a timer): connects it.
    var connect: (() -> any Cancellable)? = nil
    /// For subjects: how to send into it.
    var subject: SubjectHandle? = nil
    /// For `share()`, `multicast`, `makeConnectable()`: where its subject broadcasts (so that a run
    /// can note what it dropped).
    var broadcast: BroadcastWatch? = nil
    /// For debounce, throttle and a timer, and any chain built on one (`x.debounce(…).map { … }`):
    /// where each of them tells the values it discards without demand.
    var demandDrops: [DemandDrops<Value>] = []

    init(publisher: Stream, text: CodeText, connect: (() -> any Cancellable)? = nil, subject: SubjectHandle? = nil, broadcast: BroadcastWatch? = nil) {
        self.publisher = publisher
        self.code = text
        self.connect = connect
        self.subject = subject
        self.broadcast = broadcast
    }

    init(publisher: Stream, text: String, connect: (() -> any Cancellable)? = nil, subject: SubjectHandle? = nil) {
        self.init(publisher: publisher, text: CodeText(text), connect: connect, subject: subject)
    }

    /// How it was written, e.g. `typing.debounce(for: .milliseconds(300), scheduler: RunLoop.main)`.
    var text: String { code.text }
}

/// The source text of an expression, cut from its line only when something reads it (a trace,
/// a message): every call of a chain of n operators has its own text, the chain so far, so
/// cutting them all up front would copy O(n²) characters.
final class CodeText {
    private var cut: (() -> String)?
    private var cached: String?

    init(_ text: String) { cached = text }

    init(_ cut: @escaping () -> String) { self.cut = cut }

    var text: String {
        if let cached { return cached }
        let text = cut?() ?? ""
        cached = text
        cut = nil
        return text
    }
}

/// What the interpreter can do with a subject besides subscribing: send events into it (`send`
/// lines) and subscribe it to an upstream (`multicast(subject:)`).
struct SubjectHandle {
    let send: (TimelineEvent<Value, StreamError>) -> Void
    let attach: (any Subscription) -> Void
    /// A value sent while a subscriber has no demand is lost for it (a PassthroughSubject; a
    /// CurrentValueSubject keeps the value until asked).
    let dropsWithoutDemand: Bool
    /// A CurrentValueSubject's value (it conflates: a value held for a subscriber without demand
    /// is lost when the next replaces it); nil for other subjects.
    let current: (() -> Value)?

    init<S: Subject>(_ subject: S) where S.Output == Value, S.Failure == StreamError {
        send = subject.send(event:)
        attach = subject.send(subscription:)
        dropsWithoutDemand = subject is PassthroughSubject<Value, StreamError>
        current = (subject as? CurrentValueSubject<Value, StreamError>).map { held in { held.value } }
    }

    /// A handle that ignores everything (for names whose definition had an error).
    init() {
        send = { _ in }
        attach = { _ in }
        dropsWithoutDemand = false
        current = nil
    }
}

/// A closure written in the file, with the names it can see.
struct ClosureValue {
    var syntax: Closure
    var environment: Environment
    var location: SourceLocation
    /// Whether the body uses `$1` (then a single tuple argument is spread over `$0`, `$1`, …).
    var usesSecondAnonymousArgument = false
    /// For a `func` of the file: its labels, defaults and types.
    var function: FunctionDeclaration? = nil
}

/// Anything an expression can evaluate to.
indirect enum Runtime {
    case value(Value)
    case stream(StreamValue)
    case closure(ClosureValue)
    /// Every scheduler (`RunLoop.main`, `DispatchQueue.main`, `scheduler`, …) is the test's virtual scheduler.
    case scheduler
    /// A duration in frames (`.milliseconds(300)` after conversion).
    case duration(Int)
    case demand(Subscribers.Demand)
    /// A type or namespace name: `Int`, `Publishers`, `RunLoop`, `Never`, …
    case type(String)
    /// An enum case or implicit member not otherwise understood: `.finished`, `.keepFull`, `.byTime(s, 3)`, `.success(1)`.
    case member(String, [Runtime])
    /// A built-in function (`min`, `max`, `abs`, `Int`, `String`, …) or a method bound to its receiver.
    case function(String, receiver: Runtime?)
    /// The `promise` handed to a `Future`'s closure.
    case promise((Result<Value, StreamError>) -> Void)
    /// `\.count`: a function from a value to one of its properties.
    case keyPath([String])

    var kindDescription: String {
        switch self {
        case .value(let value): return "a value of type \(value.typeName)"
        case .stream: return "a publisher"
        case .closure: return "a closure"
        case .scheduler: return "a scheduler"
        case .duration: return "a duration"
        case .demand: return "a demand"
        case .type(let name): return "the type \(name)"
        case .member(let name, _): return "'.\(name)'"
        case .function(let name, _): return "the function \(name)"
        case .promise: return "a promise"
        case .keyPath: return "a key path"
        }
    }
}

/// Names visible to an expression: closure parameters and local `let`s, then the test's streams.
final class Environment {
    /// A closure defined in the scope that it captures (`let f = { … }` in a body, at test level)
    /// is kept without that environment: the scope holding a closure that holds the scope would
    /// be a retain cycle, leaked when the scope ends. Reading the name puts the scope back.
    private enum Entry {
        case runtime(Runtime)
        case ownClosure(Closure, location: SourceLocation, usesSecondAnonymousArgument: Bool)
    }

    private var names: [String: Entry] = [:]
    let parent: Environment?

    init(parent: Environment? = nil) { self.parent = parent }

    subscript(name: String) -> Runtime? {
        get {
            var scope: Environment? = self
            while let current = scope {
                if let entry = current.names[name] { return current.runtime(entry) }
                scope = current.parent
            }
            return nil
        }
        set { names[name] = newValue.map(entry) }
    }

    /// Sets `name` in the scope that defines it (a `var` of this or an enclosing scope, as a
    /// closure captures it); false when no scope does.
    func assign(_ name: String, _ value: Runtime) -> Bool {
        var scope: Environment? = self
        while let current = scope {
            if current.names[name] != nil {
                current.names[name] = current.entry(value)
                return true
            }
            scope = current.parent
        }
        return false
    }

    func contains(_ name: String) -> Bool { names[name] != nil || (parent?.contains(name) ?? false) }

    var allNames: [String] { Array(names.keys) + (parent?.allNames ?? []) }

    /// Forgets every name (see `Interpreter.tearDown`).
    func removeAll() { names.removeAll() }

    private func entry(_ value: Runtime) -> Entry {
        if case .closure(let closure) = value, closure.environment === self {
            return .ownClosure(closure.syntax, location: closure.location, usesSecondAnonymousArgument: closure.usesSecondAnonymousArgument)
        }
        return .runtime(value)
    }

    private func runtime(_ entry: Entry) -> Runtime {
        switch entry {
        case .runtime(let value): return value
        case .ownClosure(let syntax, let location, let usesSecond):
            return .closure(ClosureValue(syntax: syntax, environment: self, location: location, usesSecondAnonymousArgument: usesSecond))
        }
    }
}

/// Why evaluation stopped.
enum EvalError: Error {
    /// `throw` in the file: a stream failure where throwing is allowed.
    case thrown(StreamError)
    /// A mistake in the file or a runtime error in a closure (overflow, division by zero, a
    /// type mismatch): the test cannot go on.
    case fault(SpecDiagnostic)
    /// `return` unwinding to the closure being called (never escapes `Interpreter.call`); the
    /// value waits in `Interpreter.returnedValue`.
    case returning
    /// A `?` of optional chaining found nil: unwinds to the chain, which gives nil (never
    /// escapes `Interpreter.evaluate` of an `.optionalChain`).
    case nilInChain
    /// `break` or `continue` unwinding to its loop (or a `break` to its `switch`); the parser
    /// allows them only there, so one never escapes the closure that holds it.
    case jump(LoopJump)
}

/// What `break` and `continue` do to the loop they unwind to.
enum LoopJump {
    case breaking, continuing
}

/// A problem in a `.marble` file, at a place in it.
public struct SpecDiagnostic: Error, Hashable, Sendable, CustomStringConvertible {
    public var message: String
    public var location: SourceLocation
    public var length: Int
    public var hint: String?
    /// The frame at which a runtime error happened; nil for errors found before running.
    public var frame: Int?
    /// A limit of marbles stopped the run, rather than an error in a closure.
    public var isLimit = false

    public init(_ message: String, at location: SourceLocation, length: Int = 1, hint: String? = nil, frame: Int? = nil) {
        self.message = message
        self.location = location
        self.length = max(1, length)
        self.hint = hint
        self.frame = frame
    }

    public var description: String {
        var text = "\(location): error: \(message)"
        if let frame { text += " (at frame \(frame))" }
        if let hint { text += "\n  hint: \(hint)" }
        return text
    }
}
