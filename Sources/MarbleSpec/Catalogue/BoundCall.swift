import Reactive
import MarbleSyntax

/// A call matched to an operator's parameters, with conversions from evaluated arguments to
/// what the engine takes — including closures written in the file, bridged to Swift closures
/// that report runtime errors instead of trapping.
struct BoundCall {
    let signature: OperatorSignature
    let receiver: StreamValue?
    /// By parameter position; read only through `argument(_:as:)`, by name.
    private let arguments: [CallArgument?]
    /// All arguments of a variadic parameter, in order; read only through `variadicArguments(_:as:)`.
    private let variadic: [CallArgument]
    let location: SourceLocation
    let text: CodeText
    let interpreter: Interpreter

    init(signature: OperatorSignature, receiver: StreamValue?, arguments: [CallArgument?], variadic: [CallArgument],
         location: SourceLocation, text: CodeText, interpreter: Interpreter) {
        self.signature = signature
        self.receiver = receiver
        self.arguments = arguments
        self.variadic = variadic
        self.location = location
        self.text = text
        self.interpreter = interpreter
    }

    /// Set by the audit of the catalogue (`CatalogueReadTests`): the names of the parameters read.
    var reads: ReadLog? = nil

    var scheduler: VirtualTimeScheduler { interpreter.scheduler }

    private func fail(_ message: String, at location: SourceLocation? = nil, hint: String? = nil) -> EvalError {
        .fault(SpecDiagnostic(message, at: location ?? self.location, hint: hint))
    }

    // MARK: The one way in

    /// The position of the parameter `name`, which the entry reads as `type` (nil: only asks
    /// whether it is given). Every read goes through here, so that a read the declaration does
    /// not allow is reported as the catalogue's mistake (`OperatorSignature.position(of:as:variadic:)`)
    /// — and `CatalogueReadTests` runs every entry to find one.
    private func position(of name: String, as type: ParameterType? = nil, variadic: Bool = false) throws(EvalError) -> Int {
        switch signature.position(of: name, as: type, variadic: variadic) {
        case .success(let index):
            if type != nil { reads?.names.insert(name) }
            return index
        case .failure(let misread):
            throw fail(misread.message)
        }
    }

    /// The argument given for the parameter `name`, read as `type`.
    func argument(_ name: String, as type: ParameterType) throws(EvalError) -> CallArgument {
        guard let argument = arguments[try position(of: name, as: type)] else {
            throw fail("missing argument '\(name)' in \(signature.selector)")
        }
        return argument
    }

    /// Whether the call gives the (defaulted) parameter `name`.
    func has(_ name: String) throws(EvalError) -> Bool {
        arguments[try position(of: name)] != nil
    }

    /// The arguments of the variadic parameter `name`, read as `type`, in order.
    func variadicArguments(_ name: String, as type: ParameterType) throws(EvalError) -> [CallArgument] {
        _ = try position(of: name, as: type, variadic: true)
        return variadic
    }

    /// The publisher the operator is applied to.
    var upstream: Stream {
        get throws(EvalError) {
            guard let receiver else { throw fail("\(signature.name) must be applied to a publisher") }
            return receiver.publisher
        }
    }

    // MARK: Plain arguments

    func value(_ name: String) throws(EvalError) -> Value {
        let argument = try argument(name, as: .value)
        return try interpreter.valueOf(argument.value, at: argument.location, purpose: "'\(name)'")
    }

    func int(_ name: String) throws(EvalError) -> Int {
        let argument = try argument(name, as: .int)
        guard case .value(.int(let n)) = argument.value else {
            throw fail("\(signature.selector) needs an Int here, not \(argument.value.kindDescription)", at: argument.location)
        }
        return n
    }

    func bool(_ name: String) throws(EvalError) -> Bool {
        let argument = try argument(name, as: .bool)
        guard case .value(.bool(let flag)) = argument.value else {
            throw fail("\(signature.selector) needs a Bool here, not \(argument.value.kindDescription)", at: argument.location)
        }
        return flag
    }

    /// A duration in frames: `.milliseconds(300)`, `.seconds(1)`, or a plain Int of frames.
    func duration(_ name: String) throws(EvalError) -> Int {
        let argument = try argument(name, as: .duration)
        switch argument.value {
        case .duration(let frames) where frames >= 0: return frames
        case .value(.int(let frames)) where frames >= 0: return try frameCount(frames, at: argument.location)
        case .duration, .value(.int):
            throw fail("a duration cannot be negative", at: argument.location)
        case .value(.double(let seconds)):
            let literal = TimeLiterals.literalText(argument.syntax)
            let refusal = TimeLiterals.doubleDuration(signature.selector, written: literal ?? "\(seconds)",
                                                      spelled: literal.map { TimeLiterals.spelling(argument.syntax, literal: $0) },
                                                      frameNanoseconds: interpreter.frameNanoseconds)
            throw fail(refusal.message, at: argument.location, hint: refusal.hint)
        default:
            throw fail("\(signature.selector) needs a duration here (e.g. .milliseconds(300), or a number of frames), not \(argument.value.kindDescription)", at: argument.location)
        }
    }

    /// A plain number given as a duration: `frames` frames, within virtual time.
    func frameCount(_ frames: Int, at location: SourceLocation) throws(EvalError) -> Int {
        try Builtins.checkedFrames(frames, written: "a duration of \(frames) frames", at: location, frameNanoseconds: interpreter.frameNanoseconds)
    }

    /// `Timer.publish(every:)` takes a TimeInterval in seconds (a number), or a duration.
    func timerInterval(_ name: String) throws(EvalError) -> Int {
        let argument = try argument(name, as: .duration)
        let frames: Int
        switch argument.value {
        case .duration(let n): frames = n
        case .value(let seconds) where seconds.isNumber:
            frames = try Builtins.frames(seconds, unit: 1_000_000_000, name: "seconds", at: argument.location, frameNanoseconds: interpreter.frameNanoseconds)
        default:
            throw fail("\(signature.name)(\(name):) takes seconds (a number) or a duration", at: argument.location)
        }
        guard frames > 0 else { throw fail("a timer's interval must be at least one frame", at: argument.location) }
        return frames
    }

    func demand(_ name: String) throws(EvalError) -> Subscribers.Demand {
        let argument = try argument(name, as: .demand)
        switch argument.value {
        case .demand(let demand): return demand
        case .value(.int(let n)) where n >= 0: return .max(n)
        default: throw fail("\(signature.selector) needs a demand here (.unlimited or .max(n)), not \(argument.value.kindDescription)", at: argument.location)
        }
    }

    /// Checks the arguments whose declared type needs no conversion to be read, before the
    /// operator is built: a `.scheduler` parameter must be given a scheduler (every scheduler is
    /// the test's virtual one, so nothing is read from it).
    func checkDeclaredTypes() throws(EvalError) {
        for (parameter, argument) in zip(signature.parameters, arguments) where parameter.type == .scheduler {
            guard let argument else { continue }
            guard case .scheduler = argument.value else {
                throw fail("\(signature.selector) needs a scheduler here (RunLoop.main, DispatchQueue.main, scheduler, …), not \(argument.value.kindDescription)", at: argument.location)
            }
        }
    }

    /// An enum-case argument such as `.keepFull` or `.byTime(s, 3)`: its name and payload.
    func member(_ name: String) throws(EvalError) -> (name: String, payload: [Runtime], location: SourceLocation) {
        let argument = try argument(name, as: .strategy)
        guard case .member(let name, let payload) = argument.value else {
            throw fail("\(signature.selector) needs one of its cases here, not \(argument.value.kindDescription)", at: argument.location)
        }
        return (name, payload, argument.location)
    }

    func stream(_ name: String) throws(EvalError) -> Stream {
        try stream(of: argument(name, as: .publisher))
    }

    func stream(of argument: CallArgument) throws(EvalError) -> Stream {
        switch argument.value {
        case .stream(let stream): return stream.publisher
        case .value(.publisher(let handle)):
            if let stream = interpreter.stream(for: handle) { return stream.publisher }
        default: break
        }
        throw fail("\(signature.selector) needs a publisher here, not \(argument.value.kindDescription)", at: argument.location)
    }

    // MARK: Closures

    func closure(_ name: String) throws(EvalError) -> ClosureValue {
        let argument = try argument(name, as: .closure)
        guard case .closure(let closure) = argument.value else {
            throw fail("\(signature.selector) needs a closure here, not \(argument.value.kindDescription)", at: argument.location)
        }
        return closure
    }

    /// A non-throwing `(Value…) -> Value`: a `throw` inside is a mistake in the file, and a
    /// runtime error is reported and stops the run.
    func function(_ name: String) throws(EvalError) -> ValueFunction<Value> {
        try functionAndForm(name).function
    }

    /// `function(_:)` and the closure's direct form on Ints, if it has one.
    private func functionAndForm(_ name: String) throws(EvalError) -> (function: ValueFunction<Value>, form: ClosureCompiler.IntegerForm?) {
        let (body, location, integers) = try evaluator(name)
        let interpreter = self.interpreter
        let name = signature.name
        // Int arithmetic called with Ints runs directly; a call is counted as the compiled
        // closure counts it (`countClosureCall`). Past the run's limit the count says no (and
        // keeps saying no), and the closure below reports it.
        let scheduler = interpreter.scheduler
        let one = integers?.one.map { fast in
            { (value: Value) -> Value? in
                guard case .int(let x) = value, let result = fast(x), scheduler.countWorkThisInstant() else { return nil }
                return result
            }
        }
        let two = integers?.two.map { fast in
            { (first: Value, second: Value) -> Value? in
                guard case .int(let x) = first, case .int(let y) = second, let result = fast(x, y), scheduler.countWorkThisInstant() else { return nil }
                return result
            }
        }
        return (ValueFunction({ args in
            do throws(EvalError) {
                return try body(args)
            } catch .thrown {
                interpreter.report(SpecDiagnostic("the closure of \(name) threw, but \(name) cannot throw", at: location,
                                                  hint: "use the try- version of the operator (e.g. tryMap) to turn a throw into a failure"))
            } catch {
                interpreter.report(error, at: location)
            }
            return .null
        }, one: one, two: two), integers)
    }

    /// A throwing `(Value…) throws -> Value`: `throw` fails the stream with that error.
    func throwingFunction(_ name: String) throws(EvalError) -> ThrowingValueFunction<Value> {
        let (body, location, _) = try evaluator(name)
        let interpreter = self.interpreter
        return ThrowingValueFunction { args in
            do throws(EvalError) {
                return try body(args)
            } catch .thrown(let error) {
                throw error
            } catch {
                interpreter.report(error, at: location)
            }
            throw StreamError(message: "runtime error")
        }
    }

    /// The closure (or key path) given for `name` as a Swift function — compiled when it can be, else
    /// interpreted — where it is written, and its direct form on Ints when it has one (an Int or
    /// a Bool is never too large, so that form skips `ValueSize`).
    private func evaluator(_ name: String) throws(EvalError) -> (([Value]) throws(EvalError) -> Value, SourceLocation, ClosureCompiler.IntegerForm?) {
        let interpreter = self.interpreter
        let argument = try argument(name, as: .closure)
        if case .keyPath(let path) = argument.value {
            return ({ args in interpreter.keyPath(path, of: args.first ?? .null, at: argument.location) }, argument.location, nil)
        }
        let closure = try closure(name)
        let location = closure.location
        if let compiled = ClosureCompiler.compile(closure) {
            // A compiled call bypasses the interpreter, which counts every call it runs: count it here.
            let body = compiled.run
            return ({ (args: [Value]) throws(EvalError) -> Value in
                try interpreter.countClosureCall(at: location)
                return try ValueSize.check(body(args), at: location)
            }, location, ClosureCompiler.integerForm(closure))
        }
        let purpose = "the result of \(signature.name)'s closure"
        return ({ (args: [Value]) throws(EvalError) -> Value in
            try ValueSize.check(interpreter.outcome(of: closure, args, purpose: purpose).get(), at: location)
        }, location, nil)
    }

    /// A predicate; a non-Bool result is reported as a type mismatch.
    func predicate(_ name: String) throws(EvalError) -> ValueFunction<Bool> {
        let (body, form) = try functionAndForm(name)
        let interpreter = self.interpreter
        let location = try argument(name, as: .closure).location
        let name = signature.name
        let checked = { (args: [Value]) -> Bool in
            let result = body(args)
            guard case .bool(let flag) = result else {
                interpreter.report(SpecDiagnostic("the closure of \(name) must return a Bool, not \(result.typeName) (\(result.literal))", at: location))
                return false
            }
            return flag
        }
        // A direct form of Int results would only ever take the path that reports.
        guard form?.returnsBool == true else { return ValueFunction(checked) }
        return body.map({ result in if case .bool(let flag) = result { flag } else { nil } }, else: checked)
    }

    func throwingPredicate(_ name: String) throws(EvalError) -> ThrowingValueFunction<Bool> {
        let body = try throwingFunction(name)
        let interpreter = self.interpreter
        let location = try argument(name, as: .closure).location
        let name = signature.name
        return ThrowingValueFunction { args in
            let result = try body(args)
            guard case .bool(let flag) = result else {
                interpreter.report(SpecDiagnostic("the closure of \(name) must return a Bool, not \(result.typeName) (\(result.literal))", at: location))
                throw StreamError(message: "runtime error")
            }
            return flag
        }
    }

    /// A closure that returns a publisher (`flatMap`, `catch`, `Deferred`).
    func publisherFunction(_ name: String) throws(EvalError) -> ([Value]) -> Stream {
        let closure = try closure(name)
        let interpreter = self.interpreter
        let name = signature.name
        return { args in
            switch interpreter.streamOutcome(of: closure, args, purpose: "the result of \(name)'s closure") {
            case .success(let stream): return stream
            case .failure(.thrown):
                interpreter.report(SpecDiagnostic("the closure of \(name) threw, but it cannot throw", at: closure.location))
            case .failure(let error): interpreter.report(error, at: closure.location)
            }
            return Empty<Value, StreamError>().eraseToAnyPublisher()
        }
    }

    // MARK: Results

    func result<P: Publisher>(_ publisher: P) -> Runtime where P.Output == Value, P.Failure == StreamError {
        let erased = publisher.eraseToAnyPublisher()
        var stream = StreamValue(publisher: interpreter.tracer?.traceOperator(text.text, erased) ?? erased, text: text)
        // An operator applied to one that drops values without demand (debounce, throttle, a
        // timer) subscribes it as it is subscribed: what it drops is still the line's to note.
        stream.demandDrops = receiver?.demandDrops ?? []
        return .stream(stream)
    }

    /// A publisher whose failure is `any Error` (the try- operators), brought back to `StreamError`.
    func result<P: Publisher>(_ publisher: P) -> Runtime where P.Output == Value, P.Failure == any Error {
        result(Bridge(upstream: publisher, value: { $0 }, failure: { $0 as? StreamError ?? StreamError(message: "\($0)") }))
    }

    func result<P: Publisher>(_ publisher: P) -> Runtime where P.Output == Value, P.Failure == Never {
        result(Bridge(upstream: publisher, value: { $0 }, failure: neverFails))
    }

    /// A publisher of engine values (`[Value]`, `Int`, `Bool`), converted to `Value`s.
    func result<P: Publisher>(_ publisher: P, converting value: @escaping (P.Output) -> Value) -> Runtime where P.Failure == StreamError {
        result(Bridge(upstream: publisher, value: value, failure: { $0 }))
    }

    /// The same for a try- operator, whose failure is `any Error`.
    func result<P: Publisher>(_ publisher: P, converting value: @escaping (P.Output) -> Value) -> Runtime where P.Failure == any Error {
        result(Bridge(upstream: publisher, value: value, failure: { $0 as? StreamError ?? StreamError(message: "\($0)") }))
    }
}

/// What the audit of the catalogue records of one build: the parameters it read.
final class ReadLog {
    var names: Set<String> = []
}

/// The error transform of a publisher that cannot fail.
func neverFails(_ never: Never) -> StreamError {
}

extension Interpreter {
    func streamOf(_ runtime: Runtime, at location: SourceLocation, purpose: String) throws(EvalError) -> Stream {
        switch runtime {
        case .stream(let stream): return stream.publisher
        case .value(.publisher(let handle)):
            if let stream = stream(for: handle) { return stream.publisher }
        default: break
        }
        throw EvalError.fault(SpecDiagnostic("expected a publisher for \(purpose), found \(runtime.kindDescription)", at: location))
    }

    /// Calls a closure and converts its result to a value, capturing any error.
    func outcome(of closure: ClosureValue, _ args: [Value], purpose: String) -> Result<Value, EvalError> {
        Result { () throws(EvalError) -> Value in
            try valueOf(call(closure, with: args.map(Runtime.value)), at: closure.location, purpose: purpose)
        }
    }

    /// Calls a closure and converts its result to a publisher, capturing any error.
    func streamOutcome(of closure: ClosureValue, _ args: [Value], purpose: String) -> Result<Stream, EvalError> {
        Result { () throws(EvalError) -> Stream in
            try streamOf(call(closure, with: args.map(Runtime.value)), at: closure.location, purpose: purpose)
        }
    }

    /// Reports a failed evaluation as a runtime error.
    func report(_ error: EvalError, at location: SourceLocation) {
        switch error {
        case .fault(let diagnostic): report(diagnostic)
        case .thrown(let thrown): report(SpecDiagnostic("uncaught error \(thrown.value.literal)", at: location))
        case .returning: report(SpecDiagnostic("'return' outside a closure", at: location))
        case .nilInChain: report(SpecDiagnostic("'?' outside an optional chain", at: location))
        case .jump: report(SpecDiagnostic("'break' or 'continue' outside a loop", at: location))
        }
    }

    /// Resolves a key path such as `\.count` against a value, reporting errors.
    func keyPath(_ path: [String], of value: Value, at location: SourceLocation) -> Value {
        let result = Result { () throws(EvalError) -> Value in
            var current: Runtime = .value(value)
            for name in path { current = try member(name, of: current, at: location) }
            return try valueOf(current, at: location, purpose: "a key path")
        }
        switch result {
        case .success(let value): return value
        case .failure(let error):
            report(error, at: location)
            return .null
        }
    }
}
