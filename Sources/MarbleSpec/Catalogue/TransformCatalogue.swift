import Reactive

/// Operators that transform or filter values one at a time.
enum TransformCatalogue {
    static let entries: [CatalogueEntry] = [
        CatalogueEntry("map", [Parameter("_ transform", .closure)], family: "map", "transforms each value") { call throws(EvalError) in
            let transform = try call.function("transform")
            return call.result(try call.upstream.map { transform($0) })
        },
        CatalogueEntry("tryMap", [Parameter("_ transform", .closure)], family: "tryMap",
                       "transforms each value; a throw cancels upstream and fails with that error") { call throws(EvalError) in
            let transform = try call.throwingFunction("transform")
            return call.result(try call.upstream.tryMap { try transform($0) })
        },
        CatalogueEntry("mapError", [Parameter("_ transform", .closure)], family: "mapError", "transforms the failure") { call throws(EvalError) in
            let transform = try call.function("transform")
            return call.result(try call.upstream.mapError { StreamError(transform([$0.value])) })
        },
        CatalogueEntry("filter", [Parameter("_ isIncluded", .closure)], family: "filter",
                       "passes the values the closure accepts") { call throws(EvalError) in
            let isIncluded = try call.predicate("isIncluded")
            return call.result(try call.upstream.filter { isIncluded($0) })
        },
        CatalogueEntry("tryFilter", [Parameter("_ isIncluded", .closure)], family: "tryFilter",
                       "passes the values the closure accepts; a throw fails the stream") { call throws(EvalError) in
            let isIncluded = try call.throwingPredicate("isIncluded")
            return call.result(try call.upstream.tryFilter { try isIncluded($0) })
        },
        CatalogueEntry("compactMap", [Parameter("_ transform", .closure)], family: "compactMap",
                       "transforms each value and drops the nil results") { call throws(EvalError) in
            let transform = try call.function("transform")
            return call.result(try call.upstream.compactMap { value -> Value? in
                let result = transform([value])
                return result == .null ? nil : result
            })
        },
        CatalogueEntry("tryCompactMap", [Parameter("_ transform", .closure)], family: "tryCompactMap",
                       "transforms each value, drops nil results; a throw fails the stream") { call throws(EvalError) in
            let transform = try call.throwingFunction("transform")
            return call.result(try call.upstream.tryCompactMap { value -> Value? in
                let result = try transform([value])
                return result == .null ? nil : result
            })
        },
        CatalogueEntry("replaceNil", [Parameter("with", .value)], family: "replaceNil", "replaces nil values") { call throws(EvalError) in
            let replacement = try call.value("with")
            return call.result(try call.upstream.map { $0 == .null ? replacement : $0 })
        },
        CatalogueEntry("eraseToAnyPublisher", [], family: "eraseToAnyPublisher", "hides the publisher's type; no change in behaviour") { call throws(EvalError) in
            call.result(try call.upstream)
        },
    ]
}
