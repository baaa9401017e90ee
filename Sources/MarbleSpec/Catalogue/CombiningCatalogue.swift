import Reactive

/// Operators that combine several publishers, including the higher-order ones.
enum CombiningCatalogue {
    static let entries: [CatalogueEntry] = [
        CatalogueEntry("merge", [Parameter("with", .publisher, variadic: true)], family: "merge",
                       "interleaves values of all inputs; finishes when all finish, fails at the first failure") { call throws(EvalError) in
            let others = try call.variadicStreams("with")
            guard others.count <= 7 else { throw .fault(SpecDiagnostic("merge(with:) takes 1 to 7 publishers; use Publishers.MergeMany for more", at: call.location)) }
            return call.result(Publishers.MergeMany([try call.upstream] + others))
        },
        CatalogueEntry("Publishers.MergeMany", [Parameter("_ upstream", .publisher, variadic: true)], kind: .constructor, family: "merge",
                       "merges any number of publishers (also from an array)") { call throws(EvalError) in
            call.result(Publishers.MergeMany(try call.variadicStreams("upstream", flatteningArrays: true)))
        },
        CatalogueEntry("Publishers.Merge", [Parameter("_ a", .publisher), Parameter("_ b", .publisher)], kind: .constructor, family: "merge",
                       "merges two publishers") { call throws(EvalError) in
            call.result(Publishers.Merge(try call.stream("a"), try call.stream("b")))
        },
        CatalogueEntry("Publishers.CombineLatest", [Parameter("_ a", .publisher), Parameter("_ b", .publisher)], kind: .constructor, family: "combineLatest",
                       "the constructor form of a.combineLatest(b)") { call throws(EvalError) in
            try call.combined(.combineLatest, inputs: ["a", "b"].map(call.stream(_:)), transform: nil)
        },
        CatalogueEntry("Publishers.CombineLatest3", [Parameter("_ a", .publisher), Parameter("_ b", .publisher), Parameter("_ c", .publisher)], kind: .constructor, family: "combineLatest",
                       "the constructor form of a.combineLatest(b, c)") { call throws(EvalError) in
            try call.combined(.combineLatest, inputs: ["a", "b", "c"].map(call.stream(_:)), transform: nil)
        },
        CatalogueEntry("Publishers.CombineLatest4", [Parameter("_ a", .publisher), Parameter("_ b", .publisher), Parameter("_ c", .publisher), Parameter("_ d", .publisher)], kind: .constructor, family: "combineLatest",
                       "the constructor form of a.combineLatest(b, c, d)") { call throws(EvalError) in
            try call.combined(.combineLatest, inputs: ["a", "b", "c", "d"].map(call.stream(_:)), transform: nil)
        },
        CatalogueEntry("Publishers.Zip", [Parameter("_ a", .publisher), Parameter("_ b", .publisher)], kind: .constructor, family: "zip",
                       "the constructor form of a.zip(b)") { call throws(EvalError) in
            try call.combined(.zip, inputs: ["a", "b"].map(call.stream(_:)), transform: nil)
        },
        CatalogueEntry("Publishers.Zip3", [Parameter("_ a", .publisher), Parameter("_ b", .publisher), Parameter("_ c", .publisher)], kind: .constructor, family: "zip",
                       "the constructor form of a.zip(b, c)") { call throws(EvalError) in
            try call.combined(.zip, inputs: ["a", "b", "c"].map(call.stream(_:)), transform: nil)
        },
        CatalogueEntry("Publishers.Zip4", [Parameter("_ a", .publisher), Parameter("_ b", .publisher), Parameter("_ c", .publisher), Parameter("_ d", .publisher)], kind: .constructor, family: "zip",
                       "the constructor form of a.zip(b, c, d)") { call throws(EvalError) in
            try call.combined(.zip, inputs: ["a", "b", "c", "d"].map(call.stream(_:)), transform: nil)
        },
        CatalogueEntry("combineLatest", [Parameter("_ others", .publisher, variadic: true), Parameter("_ transform", .closure, default: true)], family: "combineLatest",
                       "once every input has a value, emits the latest of each on every value; finishes when all finish") { call throws(EvalError) in
            try call.combined(.combineLatest, inputs: [call.upstream] + call.variadicStreams("others"), transform: "transform")
        },
        CatalogueEntry("zip", [Parameter("_ others", .publisher, variadic: true), Parameter("_ transform", .closure, default: true)], family: "zip",
                       "pairs the n-th values of each input; finishes when an input has finished with nothing queued") { call throws(EvalError) in
            try call.combined(.zip, inputs: [call.upstream] + call.variadicStreams("others"), transform: "transform")
        },
        CatalogueEntry("flatMap", [Parameter("maxPublishers", .demand, default: true), Parameter("_ transform", .closure)], family: "flatMap",
                       "subscribes to the publisher returned for each value (at most maxPublishers at once) and merges their values") { call throws(EvalError) in
            let transform = try call.publisherFunction("transform")
            let maxPublishers = try call.has("maxPublishers") ? call.demand("maxPublishers") : .unlimited
            return call.result(try call.upstream.flatMap(maxPublishers: maxPublishers) { transform([$0]) })
        },
        CatalogueEntry("switchToLatest", [], family: "switchToLatest",
                       "subscribes to each new inner publisher, cancelling the previous one") { call throws(EvalError) in
            let interpreter = call.interpreter
            let location = call.location
            return call.result(try call.upstream.map { value -> Stream in
                switch Result(catching: { () throws(EvalError) -> Stream in try interpreter.streamOf(.value(value), at: location, purpose: "switchToLatest's input") }) {
                case .success(let stream): return stream
                case .failure(let error):
                    interpreter.report(error, at: location)
                    return Empty<Value, StreamError>().eraseToAnyPublisher()
                }
            }.switchToLatest())
        },
        CatalogueEntry("append", [Parameter("_ elements", .value, variadic: true)], family: "append",
                       "after upstream finishes, emits these values, or subscribes to this publisher") { call throws(EvalError) in
            let upstream = try call.upstream
            if let suffix = try call.singlePublisher("elements") { return call.result(upstream.append(suffix)) }
            return call.result(upstream.append(try call.variadicValues("elements")))
        },
        CatalogueEntry("prepend", [Parameter("_ elements", .value, variadic: true)], family: "prepend",
                       "emits these values (or this publisher's) first, then subscribes upstream") { call throws(EvalError) in
            let upstream = try call.upstream
            if let prefix = try call.singlePublisher("elements") { return call.result(upstream.prepend(prefix)) }
            return call.result(upstream.prepend(try call.variadicValues("elements")))
        },
        CatalogueEntry("drop", [Parameter("untilOutputFrom", .publisher)], family: "drop-untilOutputFrom",
                       "drops values until the other publisher emits; finishes if it finishes first") { call throws(EvalError) in
            call.result(try call.upstream.drop(untilOutputFrom: call.stream("untilOutputFrom")))
        },
        CatalogueEntry("prefix", [Parameter("untilOutputFrom", .publisher)], family: "prefix-untilOutputFrom",
                       "passes values until the other publisher emits, then finishes; ignores its completion") { call throws(EvalError) in
            call.result(try call.upstream.prefix(untilOutputFrom: call.stream("untilOutputFrom")))
        },
    ]
}

extension BoundCall {
    enum Combination { case combineLatest, zip }

    /// The publishers of the variadic parameter `name` (and, with `flatteningArrays`, of an array argument).
    func variadicStreams(_ name: String, flatteningArrays: Bool = false) throws(EvalError) -> [Stream] {
        var streams: [Stream] = []
        for argument in try variadicArguments(name, as: .publisher) {
            if flatteningArrays, case .value(.array(let items)) = argument.value {
                for item in items {
                    streams.append(try stream(of: CallArgument(label: nil, value: .value(item), location: argument.location, syntax: argument.syntax)))
                }
            } else {
                streams.append(try stream(of: argument))
            }
        }
        return streams
    }

    func variadicValues(_ name: String) throws(EvalError) -> [Value] {
        var values: [Value] = []
        for argument in try variadicArguments(name, as: .value) {
            values.append(try interpreter.valueOf(argument.value, at: argument.location, purpose: "\(signature.name)'s values"))
        }
        // `append([1, 2])` is the sequence form: its elements, not the array.
        if values.count == 1, case .array(let items) = values[0], items.allSatisfy({ if case .publisher = $0 { false } else { true } }) {
            return items
        }
        return values
    }

    /// The publisher of `append(p)`/`prepend(p)`: the one argument of the variadic `name`, if it is one.
    func singlePublisher(_ name: String) throws(EvalError) -> Stream? {
        let arguments = try variadicArguments(name, as: .value)
        guard arguments.count == 1 else { return nil }
        switch arguments[0].value {
        case .stream, .value(.publisher): return try stream(of: arguments[0])
        default: return nil
        }
    }

    /// combineLatest / zip over 2…4 inputs, emitting tuples or the result of the (defaulted) closure `transform`.
    func combined(_ kind: Combination, inputs: [Stream], transform transformName: String?) throws(EvalError) -> Runtime {
        guard (2...4).contains(inputs.count) else {
            throw .fault(SpecDiagnostic("\(signature.name) takes 1 to 3 other publishers", at: location))
        }
        let transform = if let transformName, try has(transformName) { try function(transformName) } else { ValueFunction<Value> { .tuple($0) } }
        switch (kind, inputs.count) {
        case (.combineLatest, 2): return result(Publishers.CombineLatest(inputs[0], inputs[1]).map { transform($0, $1) })
        case (.combineLatest, 3): return result(Publishers.CombineLatest3(inputs[0], inputs[1], inputs[2]).map { transform([$0, $1, $2]) })
        case (.combineLatest, _): return result(Publishers.CombineLatest4(inputs[0], inputs[1], inputs[2], inputs[3]).map { transform([$0, $1, $2, $3]) })
        case (.zip, 2): return result(Publishers.Zip(inputs[0], inputs[1]).map { transform($0, $1) })
        case (.zip, 3): return result(Publishers.Zip3(inputs[0], inputs[1], inputs[2]).map { transform([$0, $1, $2]) })
        case (.zip, _): return result(Publishers.Zip4(inputs[0], inputs[1], inputs[2], inputs[3]).map { transform([$0, $1, $2, $3]) })
        }
    }
}
