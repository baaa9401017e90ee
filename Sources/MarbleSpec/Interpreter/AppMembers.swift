import Foundation
import MarbleSyntax

/// `Result` and `Optional` cases written in code: `Result<Int, Error>.success($0)`, `.failure(e)`
/// where a `Result` is expected, `Optional.some(x)`.
enum EnumCases {
    /// `Type.name(args)` when it is a case of `Result` or `Optional`; nil for anything else.
    static func construct(_ type: String, _ name: String, _ args: [CallArgument], at location: SourceLocation,
                          interpreter: Interpreter) throws(EvalError) -> Runtime? {
        switch (type, name) {
        case ("Result", "success"), ("Result", "failure"):
            guard args.count == 1, args[0].label == nil else {
                throw interpreter.fail("Result.\(name)(_:) takes one value", at: location)
            }
            return .value(try value(name, [args[0].value], at: args[0].location, interpreter: interpreter))
        case ("Optional", "some"):
            guard args.count == 1 else { throw interpreter.fail("Optional.some(_:) takes one value", at: location) }
            return args[0].value
        default:
            return nil
        }
    }

    /// Whether an implicit member (`.success(x)`) stands for a `Result` where a value is needed.
    static func isContextual(_ name: String, _ payload: [Runtime]) -> Bool {
        (name == "success" || name == "failure") && payload.count == 1
    }

    static func value(_ name: String, _ payload: [Runtime], at location: SourceLocation, interpreter: Interpreter) throws(EvalError) -> Value {
        let inner = try interpreter.valueOf(payload[0], at: location, purpose: "the value of .\(name)")
        return name == "success" ? Instance.success(inner) : Instance.failure(inner)
    }
}

/// The members of values that app code uses beyond the original set in `Builtins`: Foundation's
/// string helpers, the less common array methods, dictionaries and `Result`. Each is one entry:
/// its labels, its static type (for `ExpressionChecker`) and what it does (for `Interpreter`).
enum AppMembers {
    /// The kinds of values these members belong to.
    enum Kind: CaseIterable {
        case string, array, dictionary, result, set

        init?(_ value: Value) {
            switch value {
            case .string: self = .string
            case .array: self = .array
            case .dictionary: self = .dictionary
            case .record(let instance) where instance.isSet: self = .set
            case .record(let instance) where instance.type == "Result": self = .result
            default: return nil
            }
        }

        init?(_ type: SpecType) {
            switch type {
            case .string: self = .string
            case .array: self = .array
            case .dictionary: self = .dictionary
            case .result: self = .result
            case .set: self = .set
            default: return nil
            }
        }
    }

    typealias Run = @Sendable (_ receiver: Value, _ arguments: [Value], _ closures: [ClosureValue], _ call: MethodCall) throws(EvalError) -> Value

    /// A method: Swift's labels (nil for `_`, trailing ones optional), its result type from the
    /// receiver's and the arguments' types, and its work.
    struct Method: Sendable {
        var labels: [String?]
        var optionalTrailing = 0
        var type: @Sendable (_ receiver: SpecType, _ arguments: [SpecType]) -> SpecType
        var run: Run

        var signature: MemberTypes.Method { MemberTypes.Method(labels: labels, optionalTrailing: optionalTrailing) }

        /// Whether a call with these labels means this method rather than the original one of the
        /// same name (`first(where:)` and the property `first`, `contains(where:)` and `contains(_:)`).
        /// A trailing closure fits a closure's label.
        func accepts(_ arguments: [(label: String?, isClosure: Bool)]) -> Bool {
            guard arguments.count <= labels.count, arguments.count >= labels.count - optionalTrailing else { return false }
            return zip(arguments, labels).allSatisfy { argument, label in argument.label == label || (argument.label == nil && argument.isClosure) }
        }
    }

    /// What a method's work needs besides its receiver and arguments.
    struct MethodCall {
        let name: String
        let location: SourceLocation
        let interpreter: Interpreter

        func fail(_ message: String, hint: String? = nil) -> EvalError { .fault(SpecDiagnostic(message, at: location, hint: hint)) }

        func call(_ closure: ClosureValue, _ values: [Value]) throws(EvalError) -> Value {
            try interpreter.valueOf(interpreter.call(closure, with: values.map(Runtime.value)), at: closure.location, purpose: "the closure's result")
        }

        func string(_ value: Value) throws(EvalError) -> String {
            guard case .string(let text) = value else { throw fail("\(name) needs a String, not \(value.typeName) (\(value.literal))") }
            return text
        }

        func count(_ value: Value) throws(EvalError) -> Int {
            guard case .int(let n) = value, n >= 0 else { throw fail("\(name) needs a non-negative Int, not \(value.literal)") }
            return n
        }
    }

    // MARK: Properties

    /// A property of `value`, or nil when it has none of this name.
    static func property(_ name: String, of value: Value) -> Value? {
        switch (name, value) {
        case ("count", .dictionary(let d)): return .int(d.entries.count)
        case ("isEmpty", .dictionary(let d)): return .bool(d.entries.isEmpty)
        case ("keys", .dictionary(let d)): return .array(sortedEntries(d).map(\.key))
        case ("values", .dictionary(let d)): return .array(sortedEntries(d).map(\.value))
        case ("capitalized", .string(let s)): return .string(s.capitalized)
        // A set's `first` is its least element here (Swift's is whichever its hashing puts first).
        case ("count", .record(let set)) where set.isSet: return .int(set.values.count)
        case ("isEmpty", .record(let set)) where set.isSet: return .bool(set.values.isEmpty)
        case ("first", .record(let set)) where set.isSet: return set.values.first ?? .null
        default: return nil
        }
    }

    /// The static type of a property, or nil when there is none of this name.
    static func propertyType(_ name: String, of type: SpecType) -> SpecType? {
        switch (name, type) {
        case ("count", .dictionary): return .int
        case ("isEmpty", .dictionary): return .bool
        case ("keys", .dictionary(let key, _)): return .array(key)
        case ("values", .dictionary(_, let value)): return .array(value)
        case ("capitalized", .string): return .string
        case ("count", .set): return .int
        case ("isEmpty", .set): return .bool
        case ("first", .set(let element)): return .optional(element)
        default: return nil
        }
    }

    /// Swift gives a dictionary's keys in hash order, which changes from run to run; these come
    /// in key order, so a test's result is stable.
    private static func sortedEntries(_ dictionary: DictionaryValue) -> [(key: Value, value: Value)] {
        dictionary.orderedEntries
    }

    static func names(of kind: Kind) -> [String] {
        let properties: [String] = switch kind {
        case .string: ["capitalized"]
        case .dictionary: ["count", "isEmpty", "keys", "values", "description"]
        case .set: ["count", "isEmpty", "first", "description", "map", "filter", "reduce", "sorted", "min", "max", "allSatisfy", "compactMap", "enumerated", "joined"]
        case .array, .result: []
        }
        return properties + (methods[kind]?.keys.sorted() ?? [])
    }

    static func method(_ name: String, _ kind: Kind) -> Method? { methods[kind]?[name] }

    // MARK: Methods

    private static func element(of type: SpecType) -> SpecType {
        if case .array(let element) = type { return element }
        return .any
    }

    private static let methods: [Kind: [String: Method]] = [
        .string: [
            "trimmingCharacters": Method(labels: ["in"], type: { _, _ in .string }) { receiver, args, _, call throws(EvalError) in
                // `call(_:on:…)` passes the CharacterSet (`.whitespaces`) by its name.
                .string(try call.string(receiver).trimmingCharacters(in: characterSets[try call.string(args[0])] ?? .whitespaces))
            },
            "split": Method(labels: ["separator"], type: { _, _ in .array(.string) }) { receiver, args, _, call throws(EvalError) in
                let separator = try call.string(args[0])
                guard !separator.isEmpty else { throw call.fail("split(separator:) needs a non-empty separator") }
                return .array(try call.string(receiver).split(separator: separator).map { .string(String($0)) })
            },
            "components": Method(labels: ["separatedBy"], type: { _, _ in .array(.string) }) { receiver, args, _, call throws(EvalError) in
                let separator = try call.string(args[0])
                guard !separator.isEmpty else { throw call.fail("components(separatedBy:) needs a non-empty separator") }
                return .array(try call.string(receiver).components(separatedBy: separator).map(Value.string))
            },
            "replacingOccurrences": Method(labels: ["of", "with"], type: { _, _ in .string }) { receiver, args, _, call throws(EvalError) in
                let target = try call.string(args[0])
                guard !target.isEmpty else { return receiver }
                return .string(try call.string(receiver).replacingOccurrences(of: target, with: try call.string(args[1])))
            },
            "starts": Method(labels: ["with"], type: { _, _ in .bool }) { receiver, args, _, call throws(EvalError) in
                .bool(try call.string(receiver).hasPrefix(try call.string(args[0])))
            },
            "prefix": Method(labels: [nil], type: { _, _ in .string }) { receiver, args, _, call throws(EvalError) in
                .string(String(try call.string(receiver).prefix(try call.count(args[0]))))
            },
            "suffix": Method(labels: [nil], type: { _, _ in .string }) { receiver, args, _, call throws(EvalError) in
                .string(String(try call.string(receiver).suffix(try call.count(args[0]))))
            },
            "dropFirst": Method(labels: [nil], optionalTrailing: 1, type: { _, _ in .string }) { receiver, args, _, call throws(EvalError) in
                .string(String(try call.string(receiver).dropFirst(try args.first.map(call.count) ?? 1)))
            },
            "dropLast": Method(labels: [nil], optionalTrailing: 1, type: { _, _ in .string }) { receiver, args, _, call throws(EvalError) in
                .string(String(try call.string(receiver).dropLast(try args.first.map(call.count) ?? 1)))
            },
        ],
        .array: [
            // Swift's pairs are labelled (offset:, element:); here a pair is taken apart by position:
            // `for (i, x) in xs.enumerated()`, `$0.0`, `$0.1`.
            "enumerated": Method(labels: [], type: { receiver, _ in .array(.tuple([.int, element(of: receiver)])) }) { receiver, _, _, _ throws(EvalError) in
                guard case .array(let items) = receiver else { return receiver }
                return .array(items.enumerated().map { .tuple([.int($0.offset), $0.element]) })
            },
            "prefix": Method(labels: [nil], type: { receiver, _ in receiver }) { receiver, args, _, call throws(EvalError) in
                guard case .array(let items) = receiver else { return receiver }
                return .array(Array(items.prefix(try call.count(args[0]))))
            },
            "suffix": Method(labels: [nil], type: { receiver, _ in receiver }) { receiver, args, _, call throws(EvalError) in
                guard case .array(let items) = receiver else { return receiver }
                return .array(Array(items.suffix(try call.count(args[0]))))
            },
            "dropFirst": Method(labels: [nil], optionalTrailing: 1, type: { receiver, _ in receiver }) { receiver, args, _, call throws(EvalError) in
                guard case .array(let items) = receiver else { return receiver }
                return .array(Array(items.dropFirst(try args.first.map(call.count) ?? 1)))
            },
            "dropLast": Method(labels: [nil], optionalTrailing: 1, type: { receiver, _ in receiver }) { receiver, args, _, call throws(EvalError) in
                guard case .array(let items) = receiver else { return receiver }
                return .array(Array(items.dropLast(try args.first.map(call.count) ?? 1)))
            },
            "firstIndex": Method(labels: ["of"], type: { _, _ in .optional(.int) }) { receiver, args, _, _ throws(EvalError) in
                guard case .array(let items) = receiver else { return .null }
                return items.firstIndex(of: args[0]).map(Value.int) ?? .null
            },
            "first": Method(labels: ["where"], type: { receiver, _ in .optional(element(of: receiver)) }) { receiver, _, closures, call throws(EvalError) in
                guard case .array(let items) = receiver else { return .null }
                for item in items where try call.call(closures[0], [item]) == .bool(true) { return item }
                return .null
            },
            "contains": Method(labels: ["where"], type: { _, _ in .bool }) { receiver, _, closures, call throws(EvalError) in
                guard case .array(let items) = receiver else { return .bool(false) }
                for item in items where try call.call(closures[0], [item]) == .bool(true) { return .bool(true) }
                return .bool(false)
            },
            "allSatisfy": Method(labels: [nil], type: { _, _ in .bool }) { receiver, _, closures, call throws(EvalError) in
                guard case .array(let items) = receiver else { return .bool(true) }
                for item in items where try call.call(closures[0], [item]) != .bool(true) { return .bool(false) }
                return .bool(true)
            },
            "sorted": Method(labels: ["by"], type: { receiver, _ in receiver }) { receiver, _, closures, call throws(EvalError) in
                guard case .array(let items) = receiver else { return receiver }
                return .array(try MutatingMethods.sorted(items, by: closures[0], call))
            },
            // `min(by:)` and `max(by:)`: the first of the least (greatest) elements, as Swift's.
            "min": Method(labels: ["by"], type: { receiver, _ in .optional(element(of: receiver)) }) { receiver, _, closures, call throws(EvalError) in
                guard case .array(let items) = receiver, var best = items.first else { return .null }
                for item in items.dropFirst() where try call.call(closures[0], [item, best]) == .bool(true) { best = item }
                return best
            },
            "max": Method(labels: ["by"], type: { receiver, _ in .optional(element(of: receiver)) }) { receiver, _, closures, call throws(EvalError) in
                guard case .array(let items) = receiver, var best = items.first else { return .null }
                for item in items.dropFirst() where try call.call(closures[0], [best, item]) == .bool(true) { best = item }
                return best
            },
            "compactMap": Method(labels: [nil], type: { _, _ in .array(.any) }) { receiver, _, closures, call throws(EvalError) in
                guard case .array(let items) = receiver else { return receiver }
                var kept: [Value] = []
                for item in items {
                    let mapped = try call.call(closures[0], [item])
                    if mapped != .null { kept.append(mapped) }
                }
                return .array(kept)
            },
        ],
        .dictionary: [
            "mapValues": Method(labels: [nil], type: { receiver, _ in
                if case .dictionary(let key, _) = receiver { return .dictionary(key: key, value: .any) }
                return .any
            }) { receiver, _, closures, call throws(EvalError) in
                guard case .dictionary(let dictionary) = receiver else { return receiver }
                var mapped: [Value: Value] = [:]
                // In key order: the closure's calls (a print, the first that throws) happen in the same order on every run.
                for (key, value) in sortedEntries(dictionary) { mapped[key] = try call.call(closures[0], [value]) }
                return .dictionary(DictionaryValue(mapped))
            },
        ],
        .set: [
            "contains": Method(labels: [nil], type: { _, _ in .bool }) { receiver, args, _, _ throws(EvalError) in
                .bool(receiver.setElements?.contains(args[0]) ?? false)
            },
            "union": setOperation { mine, other in mine + Array(other) },
            "intersection": setOperation { mine, other in mine.filter(other.contains) },
            "subtracting": setOperation { mine, other in mine.filter { !other.contains($0) } },
            "symmetricDifference": setOperation { mine, other in
                let own = Set(mine)
                return mine.filter { !other.contains($0) } + other.filter { !own.contains($0) }
            },
            "isSubset": setTest("of") { mine, other in mine.isSubset(of: other) },
            "isSuperset": setTest("of") { mine, other in mine.isSuperset(of: other) },
            "isDisjoint": setTest("with") { mine, other in mine.isDisjoint(with: other) },
        ],
        .result: [
            "get": Method(labels: [], type: { receiver, _ in
                if case .result(let success, _) = receiver { return success }
                return .any
            }) { receiver, _, _, _ throws(EvalError) in
                guard case .record(let result) = receiver, let payload = result.values.first else { return receiver }
                if result.caseName == "failure" { throw .thrown(StreamError(payload)) }
                return payload
            },
        ],
    ]

    /// The elements of a set operation's argument: a set or any sequence (`union([1, 2])`, as Swift's take a Sequence).
    static func operand(_ value: Value, _ call: MethodCall) throws(EvalError) -> [Value] {
        if let elements = value.setElements { return elements }
        return try call.interpreter.elements(of: value, at: call.location)
    }

    /// `union(_:)` and its kin: a new set of what `combine` keeps.
    private static func setOperation(_ combine: @escaping @Sendable (_ mine: [Value], _ other: Set<Value>) -> [Value]) -> Method {
        Method(labels: [nil], type: { receiver, _ in receiver }) { receiver, args, _, call throws(EvalError) in
            .set(combine(receiver.setElements ?? [], Set(try operand(args[0], call))))
        }
    }

    /// `isSubset(of:)` and its kin.
    private static func setTest(_ label: String, _ test: @escaping @Sendable (Set<Value>, Set<Value>) -> Bool) -> Method {
        Method(labels: [label], type: { _, _ in .bool }) { receiver, args, _, call throws(EvalError) in
            .bool(test(Set(receiver.setElements ?? []), Set(try operand(args[0], call))))
        }
    }

    static let characterSets: [String: CharacterSet] = [
        "whitespaces": .whitespaces, "whitespacesAndNewlines": .whitespacesAndNewlines, "newlines": .newlines,
        "decimalDigits": .decimalDigits, "letters": .letters, "punctuationCharacters": .punctuationCharacters,
    ]

    /// Runs `name` on `value` if it is one of these methods; nil otherwise.
    static func call(_ name: String, on value: Value, _ args: [CallArgument], at location: SourceLocation, interpreter: Interpreter) throws(EvalError) -> Runtime? {
        guard let kind = Kind(value), let method = method(name, kind),
              method.accepts(args.map { (label: $0.label, isClosure: $0.isClosure) }) || MemberTypes.kind(of: SpecType(of: value)).flatMap({ MemberTypes.method(name, $0) }) == nil
        else { return nil }
        let call = MethodCall(name: name, location: location, interpreter: interpreter)
        var values: [Value] = []
        var closures: [ClosureValue] = []
        for arg in args {
            switch arg.value {
            case .closure(let closure): closures.append(closure)
            case .keyPath(let path): closures.append(interpreter.keyPathClosure(path, at: arg.location))
            case .member(let set, let payload) where payload.isEmpty && name == "trimmingCharacters":
                guard characterSets[set] != nil else {
                    throw call.fail("'.\(set)' is not a CharacterSet this interpreter knows", hint: "use one of " + characterSets.keys.sorted().map { ".\($0)" }.joined(separator: ", "))
                }
                values.append(.string(set))
            default: values.append(try interpreter.valueOf(arg.value, at: arg.location, purpose: "an argument of \(name)"))
            }
        }
        if name == "trimmingCharacters", args.contains(where: { if case .member = $0.value { false } else { true } }) {
            throw call.fail("trimmingCharacters(in:) needs a CharacterSet such as .whitespaces")
        }
        guard closures.count + values.count >= method.labels.count - method.optionalTrailing else { throw call.fail("missing argument for \(name)") }
        let needsClosure = kind != .set && ["first", "contains", "allSatisfy", "compactMap", "mapValues", "sorted", "min", "max"].contains(name)
        if needsClosure, closures.isEmpty { throw call.fail("\(name) needs a closure") }
        return .value(try method.run(value, values, closures, call))
    }
}
