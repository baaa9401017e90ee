import Reactive

/// Operators that combine several publishers, including the higher-order ones.
enum CombiningCatalogue {
    static let entries: [CatalogueEntry] = [
        CatalogueEntry("merge", [Parameter("with", .publisher, variadic: true)], family: "merge",
                       "interleaves values of all inputs; finishes when all finish, fails at the first failure") { call throws(EvalError) in
            let others = try call.variadicStreams()
            guard others.count <= 7 else { throw .fault(SpecDiagnostic("merge(with:) takes 1 to 7 publishers; use Publishers.MergeMany for more", at: call.location)) }
            return call.result(Publishers.MergeMany([try call.upstream] + others))
        },
        CatalogueEntry("Publishers.MergeMany", [Parameter(nil, .publisher, variadic: true)], kind: .constructor, family: "merge",
                       "merges any number of publishers (also from an array)") { call throws(EvalError) in
            call.result(Publishers.MergeMany(try call.variadicStreams(flatteningArrays: true)))
        },
        CatalogueEntry("Publishers.Merge", [Parameter(nil, .publisher), Parameter(nil, .publisher)], kind: .constructor, family: "merge",
                       "merges two publishers") { call throws(EvalError) in
            call.result(Publishers.Merge(try call.stream(0), try call.stream(1)))
        },
        CatalogueEntry("Publishers.CombineLatest", [Parameter(nil, .publisher), Parameter(nil, .publisher)], kind: .constructor, family: "combineLatest",
                       "the constructor form of a.combineLatest(b)") { call throws(EvalError) in
            try call.combined(.combineLatest, inputs: [call.stream(0), call.stream(1)], transformIndex: nil)
        },
        CatalogueEntry("Publishers.CombineLatest3", [Parameter(nil, .publisher), Parameter(nil, .publisher), Parameter(nil, .publisher)], kind: .constructor, family: "combineLatest",
                       "the constructor form of a.combineLatest(b, c)") { call throws(EvalError) in
            try call.combined(.combineLatest, inputs: [call.stream(0), call.stream(1), call.stream(2)], transformIndex: nil)
        },
        CatalogueEntry("Publishers.CombineLatest4", [Parameter(nil, .publisher), Parameter(nil, .publisher), Parameter(nil, .publisher), Parameter(nil, .publisher)], kind: .constructor, family: "combineLatest",
                       "the constructor form of a.combineLatest(b, c, d)") { call throws(EvalError) in
            try call.combined(.combineLatest, inputs: [call.stream(0), call.stream(1), call.stream(2), call.stream(3)], transformIndex: nil)
        },
        CatalogueEntry("Publishers.Zip", [Parameter(nil, .publisher), Parameter(nil, .publisher)], kind: .constructor, family: "zip",
                       "the constructor form of a.zip(b)") { call throws(EvalError) in
            try call.combined(.zip, inputs: [call.stream(0), call.stream(1)], transformIndex: nil)
        },
        CatalogueEntry("Publishers.Zip3", [Parameter(nil, .publisher), Parameter(nil, .publisher), Parameter(nil, .publisher)], kind: .constructor, family: "zip",
                       "the constructor form of a.zip(b, c)") { call throws(EvalError) in
            try call.combined(.zip, inputs: [call.stream(0), call.stream(1), call.stream(2)], transformIndex: nil)
        },
        CatalogueEntry("Publishers.Zip4", [Parameter(nil, .publisher), Parameter(nil, .publisher), Parameter(nil, .publisher), Parameter(nil, .publisher)], kind: .constructor, family: "zip",
                       "the constructor form of a.zip(b, c, d)") { call throws(EvalError) in
            try call.combined(.zip, inputs: [call.stream(0), call.stream(1), call.stream(2), call.stream(3)], transformIndex: nil)
        },
        CatalogueEntry("combineLatest", [Parameter(nil, .publisher, variadic: true), Parameter(nil, .closure, default: true)], family: "combineLatest",
                       "once every input has a value, emits the latest of each on every value; finishes when all finish") { call throws(EvalError) in
            try call.combined(.combineLatest, inputs: [call.upstream] + call.variadicStreams(), transformIndex: 1)
        },
        CatalogueEntry("zip", [Parameter(nil, .publisher, variadic: true), Parameter(nil, .closure, default: true)], family: "zip",
                       "pairs the n-th values of each input; finishes when an input has finished with nothing queued") { call throws(EvalError) in
            try call.combined(.zip, inputs: [call.upstream] + call.variadicStreams(), transformIndex: 1)
        },
        CatalogueEntry("flatMap", [Parameter("maxPublishers", .demand, default: true), Parameter(nil, .closure)], family: "flatMap",
                       "subscribes to the publisher returned for each value (at most maxPublishers at once) and merges their values") { call throws(EvalError) in
            let transform = try call.publisherFunction(1)
            let maxPublishers = call.has(0) ? try call.demand(0) : .unlimited
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
        CatalogueEntry("append", [Parameter(nil, .value, variadic: true)], family: "append",
                       "after upstream finishes, emits these values, or subscribes to this publisher") { call throws(EvalError) in
            let upstream = try call.upstream
            if let suffix = try call.singlePublisherArgument() { return call.result(upstream.append(suffix)) }
            return call.result(upstream.append(try call.variadicValues()))
        },
        CatalogueEntry("prepend", [Parameter(nil, .value, variadic: true)], family: "prepend",
                       "emits these values (or this publisher's) first, then subscribes upstream") { call throws(EvalError) in
            let upstream = try call.upstream
            if let prefix = try call.singlePublisherArgument() { return call.result(upstream.prepend(prefix)) }
            return call.result(upstream.prepend(try call.variadicValues()))
        },
        CatalogueEntry("drop", [Parameter("untilOutputFrom", .publisher)], family: "drop-untilOutputFrom",
                       "drops values until the other publisher emits; finishes if it finishes first") { call throws(EvalError) in
            call.result(try call.upstream.drop(untilOutputFrom: call.stream(0)))
        },
        CatalogueEntry("prefix", [Parameter("untilOutputFrom", .publisher)], family: "prefix-untilOutputFrom",
                       "passes values until the other publisher emits, then finishes; ignores its completion") { call throws(EvalError) in
            call.result(try call.upstream.prefix(untilOutputFrom: call.stream(0)))
        },
    ]
}

extension BoundCall {
    enum Combination { case combineLatest, zip }

    /// The publishers of a variadic parameter (and, with `flatteningArrays`, of an array argument).
    func variadicStreams(flatteningArrays: Bool = false) throws(EvalError) -> [Stream] {
        var streams: [Stream] = []
        for argument in variadic {
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

    func variadicValues() throws(EvalError) -> [Value] {
        var values: [Value] = []
        for argument in variadic {
            values.append(try interpreter.valueOf(argument.value, at: argument.location, purpose: "\(signature.name)'s values"))
        }
        // `append([1, 2])` is the sequence form: its elements, not the array.
        if values.count == 1, case .array(let items) = values[0], items.allSatisfy({ if case .publisher = $0 { false } else { true } }) {
            return items
        }
        return values
    }

    /// The publisher of `append(p)`/`prepend(p)`, if the single argument is one.
    func singlePublisherArgument() throws(EvalError) -> Stream? {
        guard variadic.count == 1 else { return nil }
        switch variadic[0].value {
        case .stream, .value(.publisher): return try stream(of: variadic[0])
        default: return nil
        }
    }

    /// combineLatest / zip over 2…4 inputs, emitting tuples or the transform's result.
    func combined(_ kind: Combination, inputs: [Stream], transformIndex: Int?) throws(EvalError) -> Runtime {
        guard (2...4).contains(inputs.count) else {
            throw .fault(SpecDiagnostic("\(signature.name) takes 1 to 3 other publishers", at: location))
        }
        let transform = if let transformIndex, has(transformIndex) { try function(transformIndex) } else { ValueFunction<Value> { .tuple($0) } }
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
