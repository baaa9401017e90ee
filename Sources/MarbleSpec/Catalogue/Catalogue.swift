import Reactive
import MarbleSyntax

/// What a parameter accepts; used to convert arguments, to check what an entry reads (see
/// `BoundCall.argument(_:as:)`), and to print signatures.
public enum ParameterType: Sendable, Hashable {
    case publisher, closure, value, int, duration, demand, bool, strategy, any
    /// Every scheduler of a test is its one virtual scheduler: the dispatcher checks that a
    /// scheduler is given, and nothing is read from it.
    case scheduler
    /// A scheduler's `options:`, a timer's run loop (`on:`) and mode (`in:`): accepted and
    /// ignored, as they mean nothing on the virtual clock.
    case schedulerOptions, runLoop, runLoopMode

    /// How `usage` (`marbles operators`, docs/operators.md) prints it. The virtual clock's
    /// options, run loop and mode print as `Any`: any argument is accepted and ignored.
    public var name: String {
        switch self {
        case .publisher: return "Publisher"
        case .closure: return "Closure"
        case .value: return "Value"
        case .int: return "Int"
        case .duration: return "Duration"
        case .scheduler: return "Scheduler"
        case .demand: return "Demand"
        case .bool: return "Bool"
        case .strategy: return "Strategy"
        case .any, .schedulerOptions, .runLoop, .runLoopMode: return "Any"
        }
    }

    /// Whether an argument of this type says nothing in a diagram: it names the test's one
    /// virtual clock (a scheduler, its options, a run loop and its mode).
    var isTheVirtualClock: Bool {
        switch self {
        case .scheduler, .schedulerOptions, .runLoop, .runLoopMode: return true
        default: return false
        }
    }
}

/// One parameter of an operator: its name, its argument label (nil for `_`), what it accepts,
/// and whether it can be left out.
public struct Parameter: Sendable, Hashable {
    /// What the entry reads it by: the label, or for an unlabelled parameter the name Swift's
    /// declaration gives it (`timeout(_ interval:…)` → `interval`). Unique within a signature.
    public var name: String
    public var label: String?
    public var type: ParameterType
    public var hasDefault: Bool
    /// Combine declares it Optional with a `nil` default (`customError: (() -> Failure)? = nil`,
    /// `options: SchedulerOptions? = nil`): `nil` may be written for it, and means leaving it out.
    /// Implies `hasDefault`. A parameter that is not optional takes no `nil` (unless it takes any
    /// value, where `nil` is a value).
    public var isOptional: Bool
    public var variadic: Bool
    /// Whether a diagram keeps the argument although its type names the virtual clock:
    /// `receive(on:)` and `subscribe(on:)`, whose scheduler is their point.
    public var drawn: Bool

    /// `spelling` is written as in Swift's declaration: `"for"` (a label, also the name) or
    /// `"_ interval"` (no label; the name).
    public init(_ spelling: String, _ type: ParameterType, default hasDefault: Bool = false, optional isOptional: Bool = false,
                variadic: Bool = false, drawn: Bool = false) {
        if spelling.hasPrefix("_ ") {
            name = String(spelling.dropFirst(2))
            label = nil
        } else {
            name = spelling
            label = spelling
        }
        self.type = type
        self.hasDefault = hasDefault || isOptional
        self.isOptional = isOptional
        self.variadic = variadic
        self.drawn = drawn
    }

    /// Whether a diagram leaves the argument out of the operator's text.
    var isLeftOutOfDiagrams: Bool { type.isTheVirtualClock && !drawn && label != nil }
}

/// The name, labels and one-line behaviour of an operator or publisher constructor.
public struct OperatorSignature: Sendable, Hashable {
    public enum Kind: Sendable, Hashable { case method, constructor, property }
    public var name: String
    public var parameters: [Parameter]
    public var summary: String
    public var kind: Kind
    /// The catalogue family: its documentation and tests are `marbles/operators/<family>.marble`.
    public var family: String

    /// Swift's way of naming a function: `debounce(for:scheduler:options:)`.
    public var selector: String {
        name + "(" + parameters.map { ($0.label ?? "_") + ":" }.joined() + ")"
    }

    /// A readable signature: `debounce(for: Duration, scheduler: Scheduler, options: Any = …)`.
    public var usage: String {
        if kind == .property { return name }
        let parts = parameters.map { parameter -> String in
            var text = (parameter.label.map { $0 + ": " } ?? "") + parameter.type.name
            if parameter.variadic { text += "..." }
            if parameter.hasDefault { text += " = …" }
            return text
        }
        return (kind == .method ? "." : "") + name + "(" + parts.joined(separator: ", ") + ")"
    }
}

extension OperatorSignature {
    /// Where the parameter `name` is, for a read of it as `type` (nil: any type, to ask whether
    /// it is given) — or the catalogue's mistake: no parameter of that name, or one declared
    /// as another type or variadic-ness. `BoundCall` and `TypedCall` read every argument through it.
    func position(of name: String, as type: ParameterType?, variadic: Bool) -> Result<Int, CatalogueMisread> {
        guard let index = parameters.firstIndex(where: { $0.name == name }) else {
            return .failure(CatalogueMisread(message: "catalogue error: \(selector) has no parameter '\(name)'"))
        }
        let parameter = parameters[index]
        if let type, parameter.type != type || parameter.variadic != variadic {
            let declared = parameter.type.name + (parameter.variadic ? "..." : "")
            return .failure(CatalogueMisread(message: "catalogue error: \(selector) reads '\(name)' as \(type.name)\(variadic ? "..." : ""), but declares it \(declared)"))
        }
        return .success(index)
    }
}

/// A catalogue entry or typing rule reading an argument its signature does not declare so.
struct CatalogueMisread: Error {
    let message: String
}

/// An operator or constructor: its signature and how to build it. Its typing rule, for the
/// check before a test runs, is `OperatorTypes.rules[signature.selector]`.
struct CatalogueEntry: Sendable {
    var signature: OperatorSignature
    var build: @Sendable (BoundCall) throws(EvalError) -> Runtime

    init(_ name: String, _ parameters: [Parameter] = [], kind: OperatorSignature.Kind = .method, family: String, _ summary: String,
         build: @escaping @Sendable (BoundCall) throws(EvalError) -> Runtime) {
        signature = OperatorSignature(name: name, parameters: parameters, summary: summary, kind: kind, family: family)
        self.build = build
    }
}

/// Every operator and publisher constructor the `.marble` language knows, spelled as Combine
/// spells them. The single source for `marbles operators`, for "did you mean", and for building.
public enum Catalogue {
    static let entries: [CatalogueEntry] =
        SourceCatalogue.entries + TransformCatalogue.entries + SequenceCatalogue.entries + ReducingCatalogue.entries
        + CombiningCatalogue.entries + ErrorCatalogue.entries + TimingCatalogue.entries + MulticastCatalogue.entries
        + DebuggingCatalogue.entries

    private static let methods: [String: [CatalogueEntry]] =
        Dictionary(grouping: entries.filter { $0.signature.kind == .method }, by: \.signature.name)
    private static let constructors: [String: [CatalogueEntry]] =
        Dictionary(grouping: entries.filter { $0.signature.kind == .constructor }, by: \.signature.name)

    /// Every signature, in catalogue order, including members that are not calls.
    public static var signatures: [OperatorSignature] { entries.map(\.signature) + properties }

    /// The catalogue in parts, each with its families in catalogue order: the table of contents
    /// of the diagram gallery and of docs/operators.md.
    public static let parts: [(title: String, families: [String])] = [
        ("Publishers and subjects", SourceCatalogue.entries.map(\.signature)),
        ("Transforming values", TransformCatalogue.entries.map(\.signature)),
        ("Sequences", SequenceCatalogue.entries.map(\.signature) + properties),
        ("Reducing", ReducingCatalogue.entries.map(\.signature)),
        ("Combining publishers", CombiningCatalogue.entries.map(\.signature)),
        ("Handling errors", ErrorCatalogue.entries.map(\.signature)),
        ("Timing", TimingCatalogue.entries.map(\.signature)),
        ("Sharing and connecting", MulticastCatalogue.entries.map(\.signature)),
        ("Debugging", DebuggingCatalogue.entries.map(\.signature)),
    ].map { part in
        var seen: Set<String> = []
        return (part.0, part.1.map(\.family).filter { seen.insert($0).inserted })
    }

    /// Publishers written as properties rather than calls (handled by the interpreter's members).
    static let properties = [
        OperatorSignature(name: "[…].publisher", parameters: [], summary: "emits an array's elements as demand allows, then finishes at once after the last",
                          kind: .property, family: "sequence-publisher"),
    ]

    /// The labels a diagram leaves out of an operator's text, per operator or constructor name:
    /// the parameters whose type names the virtual clock, unless the entry keeps them drawn
    /// (`receive(on:)`, `subscribe(on:)`). The runner puts it in every `TestReport`.
    public static let omittedArguments = OmittedArguments(labels: entries.reduce(into: [:]) { labels, entry in
        let omitted = entry.signature.parameters.filter(\.isLeftOutOfDiagrams).compactMap(\.label)
        if !omitted.isEmpty { labels[entry.signature.name, default: []].formUnion(omitted) }
    })

    static var constructorNames: [String] { Array(constructors.keys) }

    static func isConstructor(_ name: String) -> Bool { constructors[name] != nil }

    static func applyOperator(_ name: String, to receiver: StreamValue, _ args: [CallArgument], at location: SourceLocation, text: CodeText, interpreter: Interpreter) throws(EvalError) -> Runtime {
        guard let candidates = methods[name] else { throw EvalError.fault(unknownOperator(name, at: location)) }
        return try dispatch(candidates, receiver: receiver, args, at: location, text: text, interpreter: interpreter)
    }

    static func construct(_ name: String, _ args: [CallArgument], at location: SourceLocation, text: CodeText, interpreter: Interpreter) throws(EvalError) -> Runtime {
        guard let candidates = constructors[name] else {
            throw EvalError.fault(SpecDiagnostic("unknown publisher '\(name)'", at: location))
        }
        return try dispatch(candidates, receiver: nil, args, at: location, text: text, interpreter: interpreter)
    }

    /// The operators (methods on a publisher) and the constructors spelled `name`, in catalogue order.
    static func methodEntries(named name: String) -> [CatalogueEntry]? { methods[name] }
    static func constructorEntries(named name: String) -> [CatalogueEntry]? { constructors[name] }

    static func unknownOperator(_ name: String, at location: SourceLocation) -> SpecDiagnostic {
        if let idiom = AppIdioms.subscriberOperator(name, at: location) { return idiom }
        let suggestion = Suggestions.nearest(to: name, in: methods.keys)
        return SpecDiagnostic("unknown operator '\(name)'", at: location,
            hint: suggestion.flatMap { methods[$0]?.first }.map { "did you mean '\($0.signature.selector)'?" })
    }

    /// No overload of an operator takes the arguments written.
    static func noMatchingVersion<Argument: BindableArgument>(_ candidates: [CatalogueEntry], _ args: [Argument], at location: SourceLocation) -> SpecDiagnostic {
        if let diagnostic = wrongKindOfArgument(candidates, args, at: location) { return diagnostic }
        let labels = args.map(\.label)
        let written = candidates[0].signature.name + "(" + labels.map { ($0 ?? "_") + ":" }.joined() + ")"
        let nearest = Suggestions.nearest(to: written, in: candidates.map(\.signature.selector)) ?? candidates[0].signature.selector
        let known = candidates.map(\.signature.selector).joined(separator: ", ")
        return SpecDiagnostic("no version of '\(candidates[0].signature.name)' takes the arguments \(written)", at: location,
            hint: "did you mean '\(nearest)'?" + (candidates.count > 1 ? " (known: \(known))" : ""))
    }

    /// The labels fit a version, but an argument is of a kind its parameter does not take: a
    /// `nil` where Combine's signature has no optional (`dropFirst(nil)`), a value where a
    /// closure goes (`timeout(…, customError: 3)`). Said of that argument, rather than offering
    /// the very signature that was written.
    private static func wrongKindOfArgument<Argument: BindableArgument>(_ candidates: [CatalogueEntry], _ args: [Argument], at location: SourceLocation) -> SpecDiagnostic? {
        // Each argument stands for one of any type, so that only the labels decide.
        let stand = args.enumerated().map { ArgumentStandIn(label: $1.label, shape: .unknown, index: $0) }
        for entry in candidates {
            guard let bound = bind(stand, to: entry.signature.parameters) else { continue }
            for (parameter, standIn) in zip(entry.signature.parameters, bound.arguments) {
                guard let standIn, !args[standIn.index].matches(parameter) else { continue }
                let argument = args[standIn.index]
                let name = parameter.label.map { "'\($0):'" } ?? "'\(parameter.name)'"
                if argument.isNilLiteral {
                    return SpecDiagnostic("\(entry.signature.selector) takes no nil for \(name): Combine's signature has no optional there",
                                          at: location, hint: parameter.hasDefault ? "leave the argument out for its default" : "give a \(parameter.type.name) here")
                }
                return SpecDiagnostic("\(entry.signature.selector) takes a \(parameter.type.name) for \(name), not \(argument.shape.description)", at: location)
            }
        }
        return nil
    }

    private static func dispatch(_ candidates: [CatalogueEntry], receiver: StreamValue?, _ args: [CallArgument], at location: SourceLocation, text: CodeText, interpreter: Interpreter) throws(EvalError) -> Runtime {
        for entry in candidates {
            if let bound = bind(args, to: entry.signature.parameters) {
                let call = BoundCall(signature: entry.signature, receiver: receiver, arguments: bound.arguments, variadic: bound.variadic, location: location, text: text, interpreter: interpreter)
                try call.checkDeclaredTypes()
                return try entry.build(call)
            }
        }
        throw EvalError.fault(noMatchingVersion(candidates, args, at: location))
    }

    /// Matches arguments to parameters the way Swift does: labels in order, defaulted parameters
    /// may be skipped, a variadic parameter takes the unlabelled arguments after its first, and a
    /// trailing closure may fill a labelled closure parameter.
    static func bind<Argument: BindableArgument>(_ args: [Argument], to parameters: [Parameter]) -> (arguments: [Argument?], variadic: [Argument])? {
        var bound: [Argument?] = Array(repeating: nil, count: parameters.count)
        var variadic: [Argument] = []
        var index = 0
        for (position, parameter) in parameters.enumerated() {
            if index < args.count, args[index].matches(parameter) {
                // `customError: nil`: Combine's default, as if it were left out.
                bound[position] = args[index].isNilLiteral && parameter.isOptional ? nil : args[index]
                index += 1
                if parameter.variadic {
                    variadic.append(args[index - 1])
                    while index < args.count, args[index].label == nil, !(args[index].isClosure && position + 1 < parameters.count && parameters[position + 1].type == .closure) {
                        variadic.append(args[index])
                        index += 1
                    }
                }
            } else if !parameter.hasDefault {
                return nil
            }
        }
        return index == args.count ? (bound, variadic) : nil
    }
}

/// An argument that `Catalogue.bind` can match to a parameter: an evaluated one (to build the
/// operator) or a checked one (to type it before anything runs), so both pick the same overload.
protocol BindableArgument {
    var label: String? { get }
    var shape: ArgumentShape { get }
    /// Written as `nil`.
    var isNilLiteral: Bool { get }
}

/// An argument as `Catalogue.wrongKindOfArgument` binds it: its label, a shape, its position.
private struct ArgumentStandIn: BindableArgument {
    let label: String?
    let shape: ArgumentShape
    let index: Int
    var isNilLiteral: Bool { false }
}

/// What `Catalogue.bind` looks at in an argument to tell overloads that share labels apart
/// (`collect(_: Int)` and `collect(_: TimeGroupingStrategy)`). Conversions and their precise
/// errors happen when the operator is built.
enum ArgumentShape {
    case int, bool, member, closure, keyPath, other
    /// A checked argument whose type is not known: it may be meant for any parameter.
    case unknown

    /// How an error names an argument of this shape.
    var description: String {
        switch self {
        case .int: return "an Int"
        case .bool: return "a Bool"
        case .member: return "a '.member'"
        case .closure: return "a closure"
        case .keyPath: return "a key path"
        case .other, .unknown: return "this argument"
        }
    }
}

extension BindableArgument {
    var isClosure: Bool { shape == .closure }

    func matches(_ parameter: Parameter) -> Bool {
        if label == parameter.label {
            // `nil` is an argument only where Combine's signature has an optional, or takes any value.
            if isNilLiteral { return parameter.isOptional || parameter.type == .value }
            return fits(parameter.type)
        }
        return label == nil && parameter.type == .closure && isClosure
    }

    func fits(_ type: ParameterType) -> Bool {
        switch (type, shape) {
        case (_, .unknown), (.int, .int), (.bool, .bool), (.strategy, .member), (.closure, .closure), (.closure, .keyPath): return true
        case (.int, _), (.bool, _), (.strategy, _), (.closure, _): return false
        default: return true
        }
    }
}

extension CallArgument: BindableArgument {
    var isNilLiteral: Bool {
        if case .nilLiteral = syntax.kind { return true }
        return false
    }

    var shape: ArgumentShape {
        switch value {
        case .value(.int): return .int
        case .value(.bool): return .bool
        case .member: return .member
        case .closure: return .closure
        case .keyPath: return .keyPath
        default: return .other
        }
    }
}
