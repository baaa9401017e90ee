import Reactive

/// Operators that keep, drop or reduce values by position or content.
enum SequenceCatalogue {
    static let entries: [CatalogueEntry] = [
        CatalogueEntry("scan", [Parameter("_ initialResult", .value), Parameter("_ nextPartialResult", .closure)], family: "scan",
                       "emits each accumulation of the values so far") { call throws(EvalError) in
            let next = try call.function("nextPartialResult")
            return call.result(try call.upstream.scan(call.value("initialResult")) { next($0, $1) })
        },
        CatalogueEntry("tryScan", [Parameter("_ initialResult", .value), Parameter("_ nextPartialResult", .closure)], family: "tryScan",
                       "emits each accumulation; a throw fails the stream") { call throws(EvalError) in
            let next = try call.throwingFunction("nextPartialResult")
            return call.result(try call.upstream.tryScan(call.value("initialResult")) { try next($0, $1) })
        },
        CatalogueEntry("removeDuplicates", [], family: "removeDuplicates",
                       "drops a value equal to the one received just before it") { call throws(EvalError) in
            call.result(try call.upstream.removeDuplicates())
        },
        CatalogueEntry("removeDuplicates", [Parameter("by", .closure)], family: "removeDuplicates",
                       "drops a value the predicate calls equal to the previous one received") { call throws(EvalError) in
            let same = try call.predicate("by")
            return call.result(try call.upstream.removeDuplicates { same($0, $1) })
        },
        CatalogueEntry("tryRemoveDuplicates", [Parameter("by", .closure)], family: "removeDuplicates",
                       "like removeDuplicates(by:); a throw fails the stream") { call throws(EvalError) in
            let same = try call.throwingPredicate("by")
            return call.result(try call.upstream.tryRemoveDuplicates { try same($0, $1) })
        },
        CatalogueEntry("dropFirst", [Parameter("_ count", .int, default: true)], family: "dropFirst",
                       "drops the first n values (default 1)") { call throws(EvalError) in
            call.result(try call.upstream.dropFirst(call.has("count") ? call.nonNegativeInt("count") : 1))
        },
        CatalogueEntry("drop", [Parameter("while", .closure)], family: "drop-while",
                       "drops values while the predicate holds, then passes everything") { call throws(EvalError) in
            let predicate = try call.predicate("while")
            return call.result(try call.upstream.drop { predicate($0) })
        },
        CatalogueEntry("tryDrop", [Parameter("while", .closure)], family: "drop-while",
                       "like drop(while:); a throw fails the stream") { call throws(EvalError) in
            let predicate = try call.throwingPredicate("while")
            return call.result(try call.upstream.tryDrop { try predicate($0) })
        },
        CatalogueEntry("prefix", [Parameter("_ maxLength", .int)], family: "prefix",
                       "passes the first n values, then finishes and cancels upstream") { call throws(EvalError) in
            call.result(try call.upstream.prefix(call.nonNegativeInt("maxLength")))
        },
        CatalogueEntry("prefix", [Parameter("while", .closure)], family: "prefix-while",
                       "passes values while the predicate holds; finishes at the first that fails") { call throws(EvalError) in
            let predicate = try call.predicate("while")
            return call.result(try call.upstream.prefix { predicate($0) })
        },
        CatalogueEntry("tryPrefix", [Parameter("while", .closure)], family: "prefix-while",
                       "like prefix(while:); a throw fails the stream") { call throws(EvalError) in
            let predicate = try call.throwingPredicate("while")
            return call.result(try call.upstream.tryPrefix { try predicate($0) })
        },
        CatalogueEntry("output", [Parameter("at", .int)], family: "output",
                       "passes only the value at an index, then finishes") { call throws(EvalError) in
            let index = try call.nonNegativeInt("at")
            guard index < Int.max else { throw .fault(SpecDiagnostic("output(at:) needs an index below Int.max", at: call.location)) }
            return call.result(try call.upstream.output(at: index))
        },
        CatalogueEntry("output", [Parameter("in", .value)], family: "output",
                       "passes only the values whose index is in a range (1..<3, 1...2)") { call throws(EvalError) in
            call.result(try call.upstream.output(in: call.indexRange("in")))
        },
        CatalogueEntry("first", [], family: "first", "emits the first value and finishes, cancelling upstream; an empty upstream just finishes") { call throws(EvalError) in
            call.result(try call.upstream.first())
        },
        CatalogueEntry("first", [Parameter("where", .closure)], family: "first",
                       "emits the first value that satisfies the predicate and finishes") { call throws(EvalError) in
            let predicate = try call.predicate("where")
            return call.result(try call.upstream.first { predicate($0) })
        },
        CatalogueEntry("tryFirst", [Parameter("where", .closure)], family: "first",
                       "like first(where:); a throw fails the stream") { call throws(EvalError) in
            let predicate = try call.throwingPredicate("where")
            return call.result(try call.upstream.tryFirst { try predicate($0) })
        },
        CatalogueEntry("last", [], family: "last", "emits the last value when upstream finishes") { call throws(EvalError) in
            call.result(try call.upstream.last())
        },
        CatalogueEntry("last", [Parameter("where", .closure)], family: "last",
                       "emits the last value that satisfied the predicate when upstream finishes") { call throws(EvalError) in
            let predicate = try call.predicate("where")
            return call.result(try call.upstream.last { predicate($0) })
        },
        CatalogueEntry("tryLast", [Parameter("where", .closure)], family: "last",
                       "like last(where:); a throw fails the stream") { call throws(EvalError) in
            let predicate = try call.throwingPredicate("where")
            return call.result(try call.upstream.tryLast { try predicate($0) })
        },
        CatalogueEntry("ignoreOutput", [], family: "ignoreOutput", "drops every value; passes the completion") { call throws(EvalError) in
            call.result(try call.upstream.ignoreOutput(), converting: { never -> Value in })
        },
    ]
}

extension BoundCall {
    func nonNegativeInt(_ name: String) throws(EvalError) -> Int {
        let n = try int(name)
        guard n >= 0 else {
            throw .fault(SpecDiagnostic("\(signature.selector) needs a count of at least 0, not \(n)", at: try argument(name, as: .int).location))
        }
        return n
    }

    /// `1..<3` or `1...2`, which the interpreter evaluates to the array of indices.
    func indexRange(_ name: String) throws(EvalError) -> Range<Int> {
        let argument = try argument(name, as: .value)
        guard case .value(.array(let items)) = argument.value,
              let first = items.first, case .int(let low) = first, case .int(let high)? = items.last,
              low >= 0, high >= low, items.count - 1 == high - low else {
            if case .value(.array(let items)) = argument.value, items.isEmpty {
                throw .fault(SpecDiagnostic("output(in:) needs a non-empty range", at: argument.location))
            }
            throw .fault(SpecDiagnostic("output(in:) needs a range of indices such as 1..<3 or 1...2", at: argument.location))
        }
        // Swift turns `a...b` into `a..<b + 1` (ClosedRange.relative(to:)), which traps at Int.max.
        guard high < Int.max else {
            throw .fault(SpecDiagnostic("output(in:) needs a range that ends below Int.max", at: argument.location,
                                        hint: "Swift counts a...Int.max as a..<Int.max + 1, which overflows"))
        }
        return low..<(high + 1)
    }
}
