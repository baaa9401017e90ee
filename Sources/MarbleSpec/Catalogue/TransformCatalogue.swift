import Reactive

/// Operators that transform or filter values one at a time.
enum TransformCatalogue {
    static let entries: [CatalogueEntry] = [
        CatalogueEntry("map", [Parameter(nil, .closure)], family: "map", "transforms each value") { call throws(EvalError) in
            let transform = try call.function(0)
            return call.result(try call.upstream.map { transform($0) })
        },
        CatalogueEntry("tryMap", [Parameter(nil, .closure)], family: "tryMap",
                       "transforms each value; a throw cancels upstream and fails with that error") { call throws(EvalError) in
            let transform = try call.throwingFunction(0)
            return call.result(try call.upstream.tryMap { try transform($0) })
        },
        CatalogueEntry("mapError", [Parameter(nil, .closure)], family: "mapError", "transforms the failure") { call throws(EvalError) in
            let transform = try call.function(0)
            return call.result(try call.upstream.mapError { StreamError(transform([$0.value])) })
        },
        CatalogueEntry("filter", [Parameter(nil, .closure)], family: "filter",
                       "passes the values the closure accepts") { call throws(EvalError) in
            let isIncluded = try call.predicate(0)
            return call.result(try call.upstream.filter { isIncluded($0) })
        },
        CatalogueEntry("tryFilter", [Parameter(nil, .closure)], family: "tryFilter",
                       "passes the values the closure accepts; a throw fails the stream") { call throws(EvalError) in
            let isIncluded = try call.throwingPredicate(0)
            return call.result(try call.upstream.tryFilter { try isIncluded($0) })
        },
        CatalogueEntry("compactMap", [Parameter(nil, .closure)], family: "compactMap",
                       "transforms each value and drops the nil results") { call throws(EvalError) in
            let transform = try call.function(0)
            return call.result(try call.upstream.compactMap { value -> Value? in
                let result = transform([value])
                return result == .null ? nil : result
            })
        },
        CatalogueEntry("tryCompactMap", [Parameter(nil, .closure)], family: "tryCompactMap",
                       "transforms each value, drops nil results; a throw fails the stream") { call throws(EvalError) in
            let transform = try call.throwingFunction(0)
            return call.result(try call.upstream.tryCompactMap { value -> Value? in
                let result = try transform([value])
                return result == .null ? nil : result
            })
        },
        CatalogueEntry("replaceNil", [Parameter("with", .value)], family: "replaceNil", "replaces nil values") { call throws(EvalError) in
            let replacement = try call.value(0)
            return call.result(try call.upstream.map { $0 == .null ? replacement : $0 })
        },
        CatalogueEntry("eraseToAnyPublisher", [], family: "eraseToAnyPublisher", "hides the publisher's type; no change in behaviour") { call throws(EvalError) in
            call.result(try call.upstream)
        },
    ]
}
