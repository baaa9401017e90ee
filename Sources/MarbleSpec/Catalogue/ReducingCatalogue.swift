import Reactive
import MarbleSyntax

/// Operators that hold their result until upstream finishes (or decides early), and buffering.
enum ReducingCatalogue {
    static let entries: [CatalogueEntry] = [
        CatalogueEntry("collect", [], family: "collect", "emits one array of every value when upstream finishes ([] if none)") { call throws(EvalError) in
            call.result(try call.upstream.collect(), converting: { Value.array($0) })
        },
        CatalogueEntry("collect", [Parameter("_ count", .int)], family: "collect", "emits arrays of n values; a partial array at finish; failure discards it") { call throws(EvalError) in
            let count = try call.int("count")
            guard count > 0 else { throw .fault(SpecDiagnostic("collect(_:) needs a count of at least 1", at: call.location)) }
            return call.result(try call.upstream.collect(count), converting: { Value.array($0) })
        },
        CatalogueEntry("reduce", [Parameter("_ initialResult", .value), Parameter("_ nextPartialResult", .closure)], family: "reduce",
                       "emits the accumulation of all values when upstream finishes") { call throws(EvalError) in
            let next = try call.function("nextPartialResult")
            return call.result(try call.upstream.reduce(call.value("initialResult")) { next($0, $1) })
        },
        CatalogueEntry("tryReduce", [Parameter("_ initialResult", .value), Parameter("_ nextPartialResult", .closure)], family: "tryReduce",
                       "like reduce; a throw fails the stream") { call throws(EvalError) in
            let next = try call.throwingFunction("nextPartialResult")
            return call.result(try call.upstream.tryReduce(call.value("initialResult")) { try next($0, $1) })
        },
        CatalogueEntry("count", [], family: "count", "emits the number of values when upstream finishes") { call throws(EvalError) in
            call.result(try call.upstream.count(), converting: { Value.int($0) })
        },
        CatalogueEntry("min", [], family: "min", "emits the smallest value when upstream finishes (the first of equals)") { call throws(EvalError) in
            let less = call.valueOrder()
            return call.result(try call.upstream.min(by: less))
        },
        CatalogueEntry("max", [], family: "max", "emits the largest value when upstream finishes (the first of equals)") { call throws(EvalError) in
            let less = call.valueOrder()
            return call.result(try call.upstream.max(by: less))
        },
        CatalogueEntry("min", [Parameter("by", .closure)], family: "min", "emits the smallest value by a closure when upstream finishes") { call throws(EvalError) in
            let less = try call.predicate("by")
            return call.result(try call.upstream.min { less($0, $1) })
        },
        CatalogueEntry("max", [Parameter("by", .closure)], family: "max", "emits the largest value by a closure when upstream finishes") { call throws(EvalError) in
            let less = try call.predicate("by")
            return call.result(try call.upstream.max { less($0, $1) })
        },
        CatalogueEntry("tryMin", [Parameter("by", .closure)], family: "min", "like min(by:); a throw fails the stream") { call throws(EvalError) in
            let less = try call.throwingPredicate("by")
            return call.result(try call.upstream.tryMin { try less($0, $1) })
        },
        CatalogueEntry("tryMax", [Parameter("by", .closure)], family: "max", "like max(by:); a throw fails the stream") { call throws(EvalError) in
            let less = try call.throwingPredicate("by")
            return call.result(try call.upstream.tryMax { try less($0, $1) })
        },
        CatalogueEntry("contains", [Parameter("_ output", .value)], family: "contains",
                       "emits true and finishes at the first equal value (cancelling upstream), false at finish") { call throws(EvalError) in
            call.result(try call.upstream.contains(call.value("output")), converting: { Value.bool($0) })
        },
        CatalogueEntry("contains", [Parameter("where", .closure)], family: "contains",
                       "emits true at the first match (cancelling upstream), false at finish") { call throws(EvalError) in
            let predicate = try call.predicate("where")
            return call.result(try call.upstream.contains { predicate($0) }, converting: { Value.bool($0) })
        },
        CatalogueEntry("tryContains", [Parameter("where", .closure)], family: "contains",
                       "like contains(where:); a throw fails the stream") { call throws(EvalError) in
            let predicate = try call.throwingPredicate("where")
            return call.result(try call.upstream.tryContains { try predicate($0) }, converting: { Value.bool($0) })
        },
        CatalogueEntry("allSatisfy", [Parameter("_ predicate", .closure)], family: "allSatisfy",
                       "emits false at the first value that fails the predicate, true at finish") { call throws(EvalError) in
            let predicate = try call.predicate("predicate")
            return call.result(try call.upstream.allSatisfy { predicate($0) }, converting: { Value.bool($0) })
        },
        CatalogueEntry("tryAllSatisfy", [Parameter("_ predicate", .closure)], family: "allSatisfy",
                       "like allSatisfy; a throw fails the stream") { call throws(EvalError) in
            let predicate = try call.throwingPredicate("predicate")
            return call.result(try call.upstream.tryAllSatisfy { try predicate($0) }, converting: { Value.bool($0) })
        },
        CatalogueEntry("buffer", [Parameter("size", .int), Parameter("prefetch", .strategy), Parameter("whenFull", .strategy)], family: "buffer",
                       "holds up to size values for a slow subscriber; when full drops the newest, the oldest, or fails") { call throws(EvalError) in
            let size = try call.int("size")
            guard size > 0 else { throw .fault(SpecDiagnostic("buffer(size:) needs a size of at least 1", at: call.location)) }
            let prefetch = try call.member("prefetch")
            let prefetchStrategy: Publishers.PrefetchStrategy
            switch prefetch.name {
            case "keepFull": prefetchStrategy = .keepFull
            case "byRequest": prefetchStrategy = .byRequest
            default: throw .fault(SpecDiagnostic("prefetch is .keepFull or .byRequest", at: prefetch.location))
            }
            let whenFull = try call.member("whenFull")
            let strategy: Publishers.BufferingStrategy<StreamError>
            switch (whenFull.name, whenFull.payload.count) {
            case ("dropNewest", 0): strategy = .dropNewest
            case ("dropOldest", 0): strategy = .dropOldest
            case ("customError", 1):
                guard case .closure(let closure) = whenFull.payload[0] else {
                    throw .fault(SpecDiagnostic(".customError takes a closure returning the error", at: whenFull.location))
                }
                let interpreter = call.interpreter
                strategy = .customError {
                    switch interpreter.outcome(of: closure, [], purpose: "the buffer's error") {
                    case .success(let value): return StreamError(value)
                    case .failure(let error):
                        interpreter.report(error, at: closure.location)
                        return StreamError(message: "runtime error")
                    }
                }
            default:
                throw .fault(SpecDiagnostic("whenFull is .dropNewest, .dropOldest or .customError({ error })", at: whenFull.location))
            }
            return call.result(try call.upstream.buffer(size: size, prefetch: prefetchStrategy, whenFull: strategy))
        },
    ]
}

extension BoundCall {
    /// Swift's `<` on values, reporting values that cannot be compared.
    func valueOrder() -> (Value, Value) -> Bool {
        let interpreter = self.interpreter
        let location = self.location
        let name = signature.name
        return { lhs, rhs in
            switch Result(catching: { () throws(EvalError) -> Int in try Arithmetic.compare(lhs, rhs, op: name, at: location) }) {
            case .success(let order): return order < 0
            case .failure(let error):
                interpreter.report(error, at: location)
                return false
            }
        }
    }
}
