import Reactive

/// Operators about failure: recovering, retrying, replacing, asserting.
enum ErrorCatalogue {
    static let entries: [CatalogueEntry] = [
        CatalogueEntry("catch", [Parameter("_ handler", .closure)], family: "catch",
                       "on failure, subscribes to the publisher the closure returns for the error") { call throws(EvalError) in
            let handler = try call.publisherFunction("handler")
            return call.result(try call.upstream.catch { handler([$0.value]) })
        },
        CatalogueEntry("tryCatch", [Parameter("_ handler", .closure)], family: "tryCatch",
                       "like catch; a throw in the closure fails with that error") { call throws(EvalError) in
            let handler = try call.throwingPublisherFunction("handler")
            return call.result(try call.upstream.tryCatch { try handler([$0.value]) })
        },
        CatalogueEntry("retry", [Parameter("_ retries", .int)], family: "retry",
                       "on failure, resubscribes upstream at once, up to n times; then passes the failure") { call throws(EvalError) in
            call.result(try call.upstream.retry(call.nonNegativeInt("retries"), scheduler: call.scheduler))
        },
        CatalogueEntry("retry", [], family: "retry",
                       "on failure, resubscribes upstream at once, without limit (bounded by the run's limits)") { call throws(EvalError) in
            call.result(try call.upstream.retry(scheduler: call.scheduler))
        },
        CatalogueEntry("replaceError", [Parameter("with", .value)], family: "replaceError",
                       "turns a failure into one last value and a normal finish") { call throws(EvalError) in
            call.result(try call.upstream.replaceError(with: call.value("with")))
        },
        CatalogueEntry("replaceEmpty", [Parameter("with", .value)], family: "replaceEmpty",
                       "emits the value when upstream finishes without emitting anything") { call throws(EvalError) in
            call.result(try call.upstream.replaceEmpty(with: call.value("with")))
        },
        CatalogueEntry("setFailureType", [Parameter("to", .any)], family: "setFailureType",
                       "changes the declared failure type; no change in behaviour") { call throws(EvalError) in
            call.result(try call.upstream)
        },
        CatalogueEntry("assertNoFailure", [Parameter("_ prefix", .value, default: true), Parameter("file", .any, default: true), Parameter("line", .any, default: true)], family: "assertNoFailure",
                       "a failure is a fatal error in Combine: here it stops the test with an error") { call throws(EvalError) in
            let prefix = try call.has("prefix") ? call.value("prefix").text : ""
            let interpreter = call.interpreter
            let location = call.location
            return call.result(try call.upstream.assertNoFailure(prefix) { message in
                interpreter.report(SpecDiagnostic("assertNoFailure: \(message)", at: location, hint: "Combine traps here (fatalError); handle the failure upstream with catch or replaceError"))
            })
        },
    ]
}

extension BoundCall {
    /// A closure returning a publisher that may throw (`tryCatch`).
    func throwingPublisherFunction(_ name: String) throws(EvalError) -> ([Value]) throws -> Stream {
        let closure = try closure(name)
        let interpreter = self.interpreter
        let name = signature.name
        return { args in
            switch interpreter.streamOutcome(of: closure, args, purpose: "the result of \(name)'s closure") {
            case .success(let stream): return stream
            case .failure(.thrown(let error)): throw error
            case .failure(let error): interpreter.report(error, at: closure.location)
            }
            return Empty<Value, StreamError>().eraseToAnyPublisher()
        }
    }
}
