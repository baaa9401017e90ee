import Reactive

/// Operators and sources for watching a pipeline: `handleEvents`, `print`, and the remaining
/// sources `Future` and `Record`.
enum DebuggingCatalogue {
    static let entries: [CatalogueEntry] = [
        CatalogueEntry("handleEvents", [Parameter("receiveSubscription", .closure, optional: true), Parameter("receiveOutput", .closure, optional: true),
                                        Parameter("receiveCompletion", .closure, optional: true), Parameter("receiveCancel", .closure, optional: true),
                                        Parameter("receiveRequest", .closure, optional: true)], family: "handleEvents",
                       "runs closures on each event before passing it on (use print(…) inside them to write to the trace)") { call throws(EvalError) in
            func handler(_ name: String) throws(EvalError) -> ValueFunction<Value>? { try call.has(name) ? call.function(name) : nil }
            let onSubscription = try handler("receiveSubscription")
            let onOutput = try handler("receiveOutput")
            let onCompletion = try handler("receiveCompletion")
            let onCancel = try handler("receiveCancel")
            let onRequest = try handler("receiveRequest")
            return call.result(try call.upstream.handleEvents(
                receiveSubscription: onSubscription.map { body in { _ in _ = body([.string("subscription")]) } },
                receiveOutput: onOutput.map { body in { _ = body($0) } },
                receiveCompletion: onCompletion.map { body in { _ = body([$0.value]) } },
                receiveCancel: onCancel.map { body in { _ = body([]) } },
                receiveRequest: onRequest.map { body in { _ = body([.string($0.description)]) } }))
        },
        CatalogueEntry("print", [Parameter("_ prefix", .value, default: true), Parameter("to", .any, optional: true)], family: "print",
                       "writes every event (subscription, request, value, completion, cancel) to the test's trace") { call throws(EvalError) in
            let prefix = try call.has("prefix") ? call.value("prefix").text : ""
            // `to: nil` (Combine's default) is left out by the binding; any other stream has
            // nowhere to go in a test, whose print lines are its trace.
            if try call.has("to") {
                let stream = try call.argument("to", as: .any)
                guard case .value(.null) = stream.value else {
                    throw .fault(SpecDiagnostic("print(_:to:) writes to the test's trace; 'to:' takes only nil here", at: stream.location,
                                                hint: "leave 'to:' out"))
                }
            }
            let interpreter = call.interpreter
            return call.result(try call.upstream.print(prefix) { line in interpreter.trace(line) })
        },
        CatalogueEntry("Record", [Parameter("output", .value), Parameter("completion", .strategy, default: true)], kind: .constructor, family: "Record",
                       "emits recorded values as demand allows, then the recorded completion") { call throws(EvalError) in
            guard case .array(let values) = try call.value("output") else {
                throw .fault(SpecDiagnostic("Record(output:) needs an array of values", at: call.location))
            }
            let completion = try call.has("completion") ? call.completion("completion") : .finished
            return call.result(Record(output: values, completion: completion))
        },
        CatalogueEntry("Future", [Parameter("_ attemptToFulfill", .closure)], kind: .constructor, family: "Future",
                       "runs its closure once, when created; every subscriber gets the same result (value then finished, or failure)") { call throws(EvalError) in
            let closure = try call.closure("attemptToFulfill")
            let interpreter = call.interpreter
            return call.result(Future<Value, StreamError> { promise in
                let result = Result { () throws(EvalError) -> Runtime in try interpreter.call(closure, with: [.promise(promise)]) }
                if case .failure(let error) = result { interpreter.report(error, at: closure.location) }
            })
        },
    ]
}

extension BoundCall {
    /// `.finished` or `.failure(error)`.
    func completion(_ name: String) throws(EvalError) -> Subscribers.Completion<StreamError> {
        let member = try member(name)
        switch (member.name, member.payload.count) {
        case ("finished", 0): return .finished
        case ("failure", 1):
            return .failure(StreamError(try interpreter.valueOf(member.payload[0], at: member.location, purpose: "a failure")))
        default:
            throw .fault(SpecDiagnostic("a completion is .finished or .failure(error)", at: member.location))
        }
    }
}

extension Subscribers.Completion where Failure == StreamError {
    /// The completion as a value for closures: `"finished"` or `"failure(<message>)"`.
    var value: Value {
        switch self {
        case .finished: return .string("finished")
        case .failure(let error): return .string("failure(\(error.message))")
        }
    }
}

extension Interpreter {
    /// Appends a line to the test's trace at the current frame.
    func trace(_ line: String) { trace.append((scheduler.currentFrame, line)) }
}
