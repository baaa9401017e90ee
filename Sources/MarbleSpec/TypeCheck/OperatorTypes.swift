import MarbleSyntax

/// The static type of a publisher: what it emits and what it fails with.
struct StreamType {
    var output: SpecType
    var failure: SpecType

    static let unknown = StreamType(output: .any, failure: .any)
    var type: SpecType { .publisher(output: output, failure: failure) }
}

extension TypedArgument: BindableArgument {
    var shape: ArgumentShape {
        switch checked {
        case .unknown, .value(.any), .value(.variable): return .unknown
        case .value(.int): return .int
        case .value(.bool): return .bool
        case .member: return .member
        case .closure: return .closure
        case .keyPath: return .keyPath
        default: return .other
        }
    }

    var isUntyped: Bool { shape == .unknown }

    var isNilLiteral: Bool {
        if case .nilLiteral = syntax.kind { return true }
        return false
    }
}

/// A call of an operator or constructor matched to its parameters, for its typing rule: the
/// receiver's type, the arguments' types, and the closures checked with the values the
/// operator passes them — the static side of `BoundCall`.
struct TypedCall {
    let signature: OperatorSignature
    let receiver: StreamType?
    /// By parameter position; read only through `argument(_:as:)`, by name.
    private let arguments: [TypedArgument?]
    /// Read only through `variadicArguments(_:as:)`.
    private let variadic: [TypedArgument]
    let location: SourceLocation
    let checker: ExpressionChecker

    var output: SpecType { receiver?.output ?? .any }
    var failure: SpecType { receiver?.failure ?? .any }
    var store: TypeStore { checker.store }
    /// The receiver's types unchanged (operators that only affect timing or demand).
    var same: StreamType { receiver ?? .unknown }

    init(signature: OperatorSignature, receiver: StreamType?, arguments: [TypedArgument?], variadic: [TypedArgument],
         location: SourceLocation, checker: ExpressionChecker) {
        self.signature = signature
        self.receiver = receiver
        self.arguments = arguments
        self.variadic = variadic
        self.location = location
        self.checker = checker
    }

    // MARK: The one way in

    /// The position of the parameter `name`, which the rule reads as `type` (nil: only asks
    /// whether it is given); nil, and the catalogue's mistake reported, for a read the
    /// declaration does not allow — as `BoundCall` does at run time; `TypingRuleReadTests` runs
    /// every rule to find one.
    private func position(of name: String, as type: ParameterType? = nil, variadic: Bool = false) -> Int? {
        switch signature.position(of: name, as: type, variadic: variadic) {
        case .success(let index):
            return index
        case .failure(let misread):
            checker.error(misread.message, at: location)
            return nil
        }
    }

    /// The argument given for the parameter `name`, read as `type`; nil when it is left out.
    func argument(_ name: String, as type: ParameterType) -> TypedArgument? {
        position(of: name, as: type).flatMap { arguments[$0] }
    }

    /// The arguments of the variadic parameter `name`, read as `type`.
    func variadicArguments(_ name: String, as type: ParameterType) -> [TypedArgument] {
        position(of: name, as: type, variadic: true) == nil ? [] : variadic
    }

    /// Whether the call gives the (defaulted) parameter `name`.
    func has(_ name: String) -> Bool { position(of: name).map { arguments[$0] != nil } ?? false }

    func join(_ a: SpecType, _ b: SpecType) -> SpecType { store.join(a, b) }

    func fresh() -> SpecType { store.fresh() }

    /// The value type of an argument (`Never` when it is left out).
    func value(_ name: String) -> SpecType {
        guard let argument = argument(name, as: .value) else { return .never }
        return checker.valueType(argument.checked, at: argument.location, purpose: "'\(name)'")
    }

    func publisher(_ name: String) -> StreamType {
        guard let argument = argument(name, as: .publisher) else { return .unknown }
        return publisher(of: argument)
    }

    func publisher(of argument: TypedArgument) -> StreamType {
        if case .value(let type) = argument.checked {
            switch store.resolve(type) {
            case .publisher(let output, let failure): return StreamType(output: output, failure: failure)
            case .any, .variable: return .unknown
            default: break
            }
        } else if argument.checked.isUnknown {
            return .unknown
        }
        checker.error("\(signature.selector) needs a publisher here, not \(describe(argument.checked))", at: argument.location)
        return .unknown
    }

    func describe(_ checked: Checked) -> String {
        if case .value(let type) = checked { return "a value of type '\(checker.name(type))'" }
        return checked.kindDescription
    }

    /// The publishers of the variadic parameter `name` (with `flatteningArrays`, an array argument's elements).
    func variadicPublishers(_ name: String, flatteningArrays: Bool = false) -> [StreamType] {
        variadicArguments(name, as: .publisher).map { argument in
            if flatteningArrays, case .value(let type) = argument.checked, case .array(let element) = store.resolve(type) {
                switch store.resolve(element) {
                case .publisher(let output, let failure): return StreamType(output: output, failure: failure)
                case .any, .never, .variable: return .unknown
                case let other:
                    checker.error("\(signature.selector) needs publishers here, not an array of '\(checker.name(other))'", at: argument.location)
                    return .unknown
                }
            }
            return publisher(of: argument)
        }
    }

    /// Checks the closure (or key path) `name` called with `arguments`; nil when it is left out.
    /// A throw is a failure in a try- operator and a mistake anywhere else.
    func closure(_ name: String, with arguments: [SpecType]) -> ClosureOutcome? {
        guard let argument = argument(name, as: .closure) else { return nil }
        switch argument.checked {
        case .closure(let closure):
            return checker.check(closure, with: arguments.map(Checked.value), owner: signature.name, allowsThrowing: signature.name.hasPrefix("try"))
        case .keyPath(let path, let location):
            var current: Checked = .value(arguments.first ?? .any)
            for name in path { current = checker.member(name, of: current, at: location) }
            return ClosureOutcome(result: current, resultLocation: location, thrown: .never)
        default:
            return nil
        }
    }

    /// A closure's result as a value type.
    func result(_ outcome: ClosureOutcome?) -> SpecType {
        guard let outcome else { return .any }
        return checker.valueType(outcome.result, at: outcome.resultLocation, purpose: "the result of \(signature.name)'s closure")
    }

    /// A predicate (`filter`, `first(where:)`, `removeDuplicates(by:)`): its result must be a Bool.
    func predicate(_ name: String, with arguments: [SpecType]) -> ClosureOutcome? {
        let outcome = closure(name, with: arguments)
        if let outcome { checker.expect(outcome, .bool) }
        return outcome
    }

    /// A closure that returns a publisher (`flatMap`, `catch`, `Deferred`): the publisher's types.
    func publisherClosure(_ name: String, with arguments: [SpecType]) -> (stream: StreamType, thrown: SpecType) {
        guard let argument = argument(name, as: .closure) else { return (.unknown, .never) }
        guard case .closure = argument.checked else {
            checker.error("\(signature.selector) needs a closure here, not \(argument.checked.kindDescription)", at: argument.location)
            return (.unknown, .never)
        }
        guard let outcome = closure(name, with: arguments) else { return (.unknown, .never) }
        return (streamOf(outcome.result, at: outcome.resultLocation), outcome.thrown)
    }

    /// What an element or a closure's result is as a publisher (`switchToLatest`, `flatMap`).
    func streamOf(_ checked: Checked, at location: SourceLocation) -> StreamType {
        guard case .value(let type) = checked else {
            if checked.isUnknown { return .unknown }
            checker.error("instance method '\(signature.selector)' requires that \(checked.kindDescription) be a Publisher", at: location)
            return .unknown
        }
        switch store.resolve(type) {
        case .publisher(let output, let failure): return StreamType(output: output, failure: failure)
        case .any, .variable: return .unknown
        case .never: return StreamType(output: .never, failure: .never)
        case let other:
            let subject = signature.kind == .constructor ? "generic struct '\(signature.name)'" : "instance method '\(signature.selector)'"
            checker.error("\(subject) requires that '\(checker.name(other))' conform to 'Publisher'", at: location)
            return .unknown
        }
    }

    /// Reports `removeDuplicates()` on values of a declared type that Swift would not compare.
    func requireEquatable() {
        guard case .named(let typeName) = checker.store.resolve(output), !checker.types.isEquatable(typeName) else { return }
        checker.error("referencing instance method '\(signature.selector)' on 'Publisher' requires that '\(typeName)' conform to 'Equatable'",
                      at: location, length: signature.name.count, hint: checker.types.equatableHint(typeName))
    }

    /// Reports an operator that needs comparable values (`min()`, `max()`) on values that are not.
    func requireComparable() {
        guard !checker.comparable(output, output) else { return }
        checker.error("referencing instance method '\(signature.selector)' on 'Publisher' requires that '\(checker.name(output))' conform to 'Comparable'",
                      at: location, length: signature.name.count, hint: "use \(signature.name)(by:) with a closure that orders the values")
    }
}

/// Type checking of operator and constructor calls: matching the arguments to the catalogue's
/// signatures as `Catalogue.bind` does, then the entry's rule in `OperatorTypes.rules`.
extension ExpressionChecker {
    func applyOperator(_ name: String, to receiver: StreamType, _ args: [TypedArgument], at location: SourceLocation) -> Checked {
        guard let candidates = Catalogue.methodEntries(named: name) else {
            let diagnostic = Catalogue.unknownOperator(name, at: location)
            return error(diagnostic.message, at: location, length: name.count, hint: diagnostic.hint)
        }
        return dispatch(candidates, receiver: receiver, args, at: location)
    }

    func construct(_ name: String, _ args: [TypedArgument], at location: SourceLocation) -> Checked {
        guard let candidates = Catalogue.constructorEntries(named: name) else { return .unknown }
        return dispatch(candidates, receiver: nil, args, at: location)
    }

    private func dispatch(_ candidates: [CatalogueEntry], receiver: StreamType?, _ args: [TypedArgument], at location: SourceLocation) -> Checked {
        let matching = candidates.compactMap { entry in Catalogue.bind(args, to: entry.signature.parameters).map { (entry, $0) } }
        guard let (entry, bound) = matching.first else {
            let diagnostic = Catalogue.noMatchingVersion(candidates, args, at: location)
            return error(diagnostic.message, at: location, hint: diagnostic.hint)
        }
        // Overloads told apart by an argument's type, and that type unknown: left to run time.
        if matching.count > 1, args.contains(where: \.isUntyped) { return .value(StreamType.unknown.type) }
        let call = TypedCall(signature: entry.signature, receiver: receiver, arguments: bound.arguments, variadic: bound.variadic, location: location, checker: self)
        checkParameters(call, bound.arguments)
        guard let rule = OperatorTypes.rules[entry.signature.selector] else { return .value(StreamType.unknown.type) }
        return .value(rule(call).type)
    }

    /// The conversions `BoundCall` makes when the operator is built, for every argument given.
    private func checkParameters(_ call: TypedCall, _ arguments: [TypedArgument?]) {
        for (parameter, argument) in zip(call.signature.parameters, arguments) {
            guard let argument, !argument.checked.isUnknown else { continue }
            let selector = call.signature.selector
            switch (parameter.type, argument.checked) {
            case (.publisher, _) where !parameter.variadic:
                _ = call.publisher(of: argument)
            case (.duration, .value(.int)):
                warnIfSeconds(argument, in: call, arguments)
            case (.strategy, .member(let name, _)) where name == "byTime" || name == "byTimeOrCount":
                warnIfSecondsInStrategy(argument)
            case (.duration, .duration), (.scheduler, .scheduler), (.demand, .demand), (.demand, .value(.int)):
                break
            case (.duration, .value(let type)) where [.any, .never].contains(store.resolve(type)):
                break
            case (.duration, .value(.double)) where call.signature.name == "Timer.publish":
                break  // a TimeInterval in seconds
            case (.duration, .value(.double)):
                let written = TimeLiterals.literalText(argument.syntax)
                let refusal = TimeLiterals.doubleDuration(selector, written: written, spelled: written.map { TimeLiterals.spelling(argument.syntax, literal: $0) },
                                                          frameNanoseconds: frameNanoseconds)
                error(refusal.message, at: argument.location, hint: refusal.hint)
            case (.duration, let other):
                error("\(selector) needs a duration here (e.g. .milliseconds(300), or a number of frames), not \(call.describe(other))", at: argument.location)
            case (.scheduler, let other):
                error("\(selector) needs a scheduler here (RunLoop.main, DispatchQueue.main, scheduler, …), not \(call.describe(other))", at: argument.location)
            case (.demand, let other):
                error("\(selector) needs a demand here (.unlimited or .max(n)), not \(call.describe(other))", at: argument.location)
            case (.value, _) where !parameter.variadic:
                _ = valueType(argument.checked, at: argument.location, purpose: "'\(parameter.name)'")
            default:
                break
            }
        }
    }
}

extension ExpressionChecker {
    /// The warning for an integer literal duration that Combine would read as seconds
    /// (`TimeLiterals.integerWarning`): on a scheduler spelled as a real one, in a test whose
    /// `frame` line makes a frame something other than a second.
    fileprivate func warnIfSeconds(_ argument: TypedArgument, in call: TypedCall, _ arguments: [TypedArgument?]) {
        guard call.signature.name != "Timer.publish",
              let schedulerArgument = zip(call.signature.parameters, arguments).first(where: { $0.0.type == .scheduler })?.1
        else { return }
        warnIfSeconds(argument.syntax, scheduler: schedulerArgument.syntax, at: argument.location)
    }

    /// The same for the stride of `collect(.byTime(RunLoop.main, 3))` and `.byTimeOrCount(…)`.
    fileprivate func warnIfSecondsInStrategy(_ argument: TypedArgument) {
        guard case .call(_, let strategyArguments) = argument.syntax.kind, strategyArguments.count >= 2 else { return }
        warnIfSeconds(strategyArguments[1].value, scheduler: strategyArguments[0].value, at: strategyArguments[1].location)
    }

    /// Warns when `duration` is an integer (a literal, or a `let` constant of the test naming one)
    /// on a scheduler spelled as a real one.
    private func warnIfSeconds(_ duration: Expr, scheduler schedulerSyntax: Expr, at location: SourceLocation) {
        let frames: Int, name: String?
        switch duration.kind {
        case .int(let n): (frames, name) = (n, nil)
        case .identifier(let constant):
            guard let n = constantIntegerArguments[duration.location] else { return }
            (frames, name) = (n, constant)
        default: return
        }
        guard let scheduler = TimeLiterals.realScheduler(schedulerSyntax),
              let warning = TimeLiterals.integerWarning(frames, named: name, scheduler: scheduler, frameNanoseconds: frameNanoseconds, frameWritten: frameWritten)
        else { return }
        warn(warning.message, at: location, length: name?.count ?? "\(frames)".count, hint: warning.hint)
    }
}

/// The typing rule of every catalogue entry, by its selector (`map(_:)`): the types of what the
/// operator emits and fails with, from its receiver's and arguments' types, checking its
/// closures with the values the operator passes them. `OperatorTypeTests` checks that every
/// entry of the catalogue has one.
enum OperatorTypes {
    typealias Rule = @Sendable (TypedCall) -> StreamType

    static let rules: [String: Rule] = transforms.merging(combining) { a, _ in a }
        .merging(reducing) { a, _ in a }.merging(sequence) { a, _ in a }.merging(sources) { a, _ in a }
        .merging(timing) { a, _ in a }.merging(errors) { a, _ in a }.merging(multicast) { a, _ in a }.merging(debugging) { a, _ in a }

    /// Emits the closure's results; a try- closure's throws become failures.
    private static func mapping(_ call: TypedCall) -> StreamType {
        let outcome = call.closure("transform", with: [call.output])
        return StreamType(output: call.result(outcome), failure: call.join(call.failure, outcome?.thrown ?? .never))
    }

    /// Passes the receiver's values the predicate `name` accepts.
    private static func filtering(_ name: String, arity: Int = 1) -> Rule {
        { call in
            let outcome = call.predicate(name, with: Array(repeating: call.output, count: arity))
            return StreamType(output: call.output, failure: call.join(call.failure, outcome?.thrown ?? .never))
        }
    }

    /// Emits one value of `type` (count, contains, allSatisfy), after the predicate `predicate` if any.
    private static func emitting(_ type: SpecType, predicate: String? = nil) -> Rule {
        { call in
            let thrown = predicate.flatMap { call.predicate($0, with: [call.output])?.thrown } ?? .never
            return StreamType(output: type, failure: call.join(call.failure, thrown))
        }
    }

    /// The value without its optional (what `compactMap` keeps).
    private static func unwrapped(_ type: SpecType, _ call: TypedCall) -> SpecType {
        if case .optional(let wrapped) = call.store.resolve(type) { return wrapped }
        return type
    }

    private static func accumulating(_ call: TypedCall) -> StreamType {
        let initial = call.value("initialResult")
        guard let outcome = call.closure("nextPartialResult", with: [initial, call.output]) else { return StreamType(output: initial, failure: call.failure) }
        return StreamType(output: call.checker.accumulate(initial, outcome), failure: call.join(call.failure, outcome.thrown))
    }

    private static let same: Rule = { $0.same }

    static let transforms: [String: Rule] = [
        "map(_:)": mapping,
        "tryMap(_:)": mapping,
        "mapError(_:)": { call in
            StreamType(output: call.output, failure: call.result(call.closure("transform", with: [call.failure])))
        },
        "filter(_:)": filtering("isIncluded"),
        "tryFilter(_:)": filtering("isIncluded"),
        "compactMap(_:)": { call in
            let mapped = mapping(call)
            return StreamType(output: unwrapped(mapped.output, call), failure: mapped.failure)
        },
        "tryCompactMap(_:)": { call in
            let mapped = mapping(call)
            return StreamType(output: unwrapped(mapped.output, call), failure: mapped.failure)
        },
        "replaceNil(with:)": { call in
            let replacement = call.value("with")
            switch call.store.resolve(call.output) {
            case .optional(let wrapped): return StreamType(output: call.join(wrapped, replacement), failure: call.failure)
            case .any, .never, .variable: return StreamType(output: call.join(call.output, replacement), failure: call.failure)
            case let other:
                call.checker.error("referencing instance method 'replaceNil(with:)' on 'Publisher' requires that '\(call.checker.name(other))' be an Optional type",
                                   at: call.location, length: call.signature.name.count, hint: "no value of this stream is nil: replaceNil changes nothing here")
                return call.same
            }
        },
        "eraseToAnyPublisher()": same,
    ]

    static let combining: [String: Rule] = [
        "merge(with:)": { call in merged([call.same] + call.variadicPublishers("with"), call) },
        "Publishers.MergeMany(_:)": { call in merged(call.variadicPublishers("upstream", flatteningArrays: true), call) },
        "Publishers.Merge(_:_:)": { call in merged(["a", "b"].map(call.publisher(_:)), call) },
        "Publishers.CombineLatest(_:_:)": { call in combined(["a", "b"].map(call.publisher(_:)), call) },
        "Publishers.CombineLatest3(_:_:_:)": { call in combined(["a", "b", "c"].map(call.publisher(_:)), call) },
        "Publishers.CombineLatest4(_:_:_:_:)": { call in combined(["a", "b", "c", "d"].map(call.publisher(_:)), call) },
        "Publishers.Zip(_:_:)": { call in combined(["a", "b"].map(call.publisher(_:)), call) },
        "Publishers.Zip3(_:_:_:)": { call in combined(["a", "b", "c"].map(call.publisher(_:)), call) },
        "Publishers.Zip4(_:_:_:_:)": { call in combined(["a", "b", "c", "d"].map(call.publisher(_:)), call) },
        "combineLatest(_:_:)": { call in combined([call.same] + call.variadicPublishers("others"), call, transform: "transform") },
        "zip(_:_:)": { call in combined([call.same] + call.variadicPublishers("others"), call, transform: "transform") },
        "flatMap(maxPublishers:_:)": { call in
            let (inner, thrown) = call.publisherClosure("transform", with: [call.output])
            return StreamType(output: inner.output, failure: call.join(call.join(call.failure, inner.failure), thrown))
        },
        "switchToLatest()": { call in
            let inner = call.streamOf(.value(call.output), at: call.location)
            return StreamType(output: inner.output, failure: call.join(call.failure, inner.failure))
        },
        "append(_:)": concatenated,
        "prepend(_:)": concatenated,
        "drop(untilOutputFrom:)": same,
        "prefix(untilOutputFrom:)": same,
    ]

    private static func merged(_ inputs: [StreamType], _ call: TypedCall) -> StreamType {
        inputs.dropFirst().reduce(inputs.first ?? .unknown) { StreamType(output: call.join($0.output, $1.output), failure: call.join($0.failure, $1.failure)) }
    }

    /// combineLatest / zip: tuples of the inputs' values, or the transform's results.
    private static func combined(_ inputs: [StreamType], _ call: TypedCall, transform: String? = nil) -> StreamType {
        let failure = inputs.map(\.failure).reduce(SpecType.never) { call.join($0, $1) }
        let outputs = inputs.map(\.output)
        if let transform, let outcome = call.closure(transform, with: outputs) {
            return StreamType(output: call.result(outcome), failure: failure)
        }
        return StreamType(output: .tuple(outputs), failure: failure)
    }

    /// append/prepend: a publisher's values, or the values given (an array's elements).
    private static func concatenated(_ call: TypedCall) -> StreamType {
        let elements = call.variadicArguments("elements", as: .value)
        if elements.count == 1, case .value(let type) = elements[0].checked, case .publisher = call.store.resolve(type) {
            return merged([call.same, call.publisher(of: elements[0])], call)
        }
        var types = elements.map { call.checker.valueType($0.checked, at: $0.location, purpose: "\(call.signature.name)'s values") }
        if types.count == 1, case .array(let element) = call.store.resolve(types[0]) { types = [element] }
        return StreamType(output: types.reduce(call.output) { call.join($0, $1) }, failure: call.failure)
    }

    static let reducing: [String: Rule] = [
        "collect()": { call in StreamType(output: .array(call.output), failure: call.failure) },
        "collect(_:)": { call in StreamType(output: .array(call.output), failure: call.failure) },
        "reduce(_:_:)": accumulating,
        "tryReduce(_:_:)": accumulating,
        "count()": emitting(.int),
        "min()": { call in call.requireComparable(); return call.same },
        "max()": { call in call.requireComparable(); return call.same },
        "min(by:)": filtering("by", arity: 2),
        "max(by:)": filtering("by", arity: 2),
        "tryMin(by:)": filtering("by", arity: 2),
        "tryMax(by:)": filtering("by", arity: 2),
        "contains(_:)": emitting(.bool),
        "contains(where:)": emitting(.bool, predicate: "where"),
        "tryContains(where:)": emitting(.bool, predicate: "where"),
        "allSatisfy(_:)": emitting(.bool, predicate: "predicate"),
        "tryAllSatisfy(_:)": emitting(.bool, predicate: "predicate"),
        "buffer(size:prefetch:whenFull:)": { call in
            // `.customError({ error })`: the closure's result is the failure.
            guard let argument = call.argument("whenFull", as: .strategy), case .member("customError", let payload) = argument.checked,
                  payload.count == 1, case .closure(let closure) = payload[0] else { return call.same }
            let outcome = call.checker.check(closure, with: [], owner: "buffer", allowsThrowing: false)
            let error = call.checker.valueType(outcome.result, at: outcome.resultLocation, purpose: "the buffer's error")
            return StreamType(output: call.output, failure: call.join(call.failure, error))
        },
    ]

    static let sequence: [String: Rule] = [
        "scan(_:_:)": accumulating,
        "tryScan(_:_:)": accumulating,
        "removeDuplicates()": { call in call.requireEquatable(); return call.same },
        "removeDuplicates(by:)": filtering("by", arity: 2),
        "tryRemoveDuplicates(by:)": filtering("by", arity: 2),
        "dropFirst(_:)": same,
        "drop(while:)": filtering("while"),
        "tryDrop(while:)": filtering("while"),
        "prefix(_:)": same,
        "prefix(while:)": filtering("while"),
        "tryPrefix(while:)": filtering("while"),
        "output(at:)": same,
        "output(in:)": same,
        "first()": same,
        "first(where:)": filtering("where"),
        "tryFirst(where:)": filtering("where"),
        "last()": same,
        "last(where:)": filtering("where"),
        "tryLast(where:)": filtering("where"),
        "ignoreOutput()": { call in StreamType(output: .never, failure: call.failure) },
    ]

    static let sources: [String: Rule] = [
        "Just(_:)": { call in StreamType(output: call.value("output"), failure: .never) },
        "Empty(completeImmediately:)": { call in StreamType(output: call.fresh(), failure: .never) },
        "Fail(error:)": { call in StreamType(output: call.fresh(), failure: call.value("error")) },
        "Deferred(createPublisher:)": { call in
            let (inner, _) = call.publisherClosure("createPublisher", with: [])
            return inner
        },
        "PassthroughSubject()": { call in StreamType(output: call.fresh(), failure: .never) },
        "CurrentValueSubject(_:)": { call in StreamType(output: call.value("value"), failure: .never) },
    ]

    static let timing: [String: Rule] = [
        "debounce(for:scheduler:options:)": same,
        "throttle(for:scheduler:latest:)": same,
        "delay(for:tolerance:scheduler:options:)": same,
        "timeout(_:scheduler:options:customError:)": { call in
            let error = call.has("customError") ? call.result(call.closure("customError", with: [])) : .never
            return StreamType(output: call.output, failure: call.join(call.failure, error))
        },
        "measureInterval(using:options:)": { call in StreamType(output: .int, failure: call.failure) },
        "receive(on:options:)": same,
        "subscribe(on:options:)": same,
        "collect(_:options:)": { call in StreamType(output: .array(call.output), failure: call.failure) },
        "Timer.publish(every:tolerance:on:in:options:)": { _ in StreamType(output: .int, failure: .never) },
    ]

    static let errors: [String: Rule] = [
        "catch(_:)": recovering,
        "tryCatch(_:)": recovering,
        "retry(_:)": same,
        "retry()": same,
        "replaceError(with:)": { call in StreamType(output: call.join(call.output, call.value("with")), failure: .never) },
        "replaceEmpty(with:)": { call in StreamType(output: call.join(call.output, call.value("with")), failure: call.failure) },
        "setFailureType(to:)": same,
        "assertNoFailure(_:file:line:)": { call in StreamType(output: call.output, failure: .never) },
    ]

    /// catch/tryCatch: the handler's publisher takes over after a failure.
    private static func recovering(_ call: TypedCall) -> StreamType {
        let (inner, thrown) = call.publisherClosure("handler", with: [call.failure])
        return StreamType(output: call.join(call.output, inner.output), failure: call.join(inner.failure, thrown))
    }

    static let multicast: [String: Rule] = [
        "share()": same,
        "makeConnectable()": same,
        "multicast(subject:)": same,
        "multicast(_:)": { call in
            if let outcome = call.closure("createSubject", with: []) {
                let subject = call.streamOf(outcome.result, at: outcome.resultLocation)
                _ = call.join(subject.output, call.output)
            }
            return call.same
        },
        "autoconnect()": same,
    ]

    static let debugging: [String: Rule] = [
        "handleEvents(receiveSubscription:receiveOutput:receiveCompletion:receiveCancel:receiveRequest:)": { call in
            // What `handleEvents` passes each closure: a description of the subscription, the
            // value, "finished"/"failure(…)", nothing, the demand's description.
            let arguments: [(String, [SpecType])] = [("receiveSubscription", [.string]), ("receiveOutput", [call.output]),
                                                     ("receiveCompletion", [.string]), ("receiveCancel", []), ("receiveRequest", [.string])]
            for (name, passed) in arguments { _ = call.closure(name, with: passed) }
            return call.same
        },
        "print(_:to:)": same,
        "Record(output:completion:)": { call in
            var output = SpecType.any
            switch call.store.resolve(call.value("output")) {
            case .array(let element): output = element
            case .any: break
            case let other:
                call.checker.error("Record(output:) needs an array of values, not a value of type '\(call.checker.name(other))'", at: call.argument("output", as: .value)?.location ?? call.location)
            }
            var failure = SpecType.never
            if let argument = call.argument("completion", as: .strategy), case .member("failure", let payload) = argument.checked, payload.count == 1 {
                failure = call.checker.valueType(payload[0], at: argument.location, purpose: "a failure")
            }
            return StreamType(output: output, failure: failure)
        },
        "Future(_:)": { call in
            guard let argument = call.argument("attemptToFulfill", as: .closure), case .closure(let closure) = argument.checked else { return .unknown }
            let sink = PromiseSink()
            _ = call.checker.check(closure, with: [.promise(sink)], owner: "Future", allowsThrowing: false)
            return StreamType(output: sink.output == .never ? call.fresh() : sink.output, failure: sink.failure)
        },
    ]
}
