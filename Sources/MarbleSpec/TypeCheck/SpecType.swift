import Foundation

/// The static type of a value in a `.marble` file, as the load-time checker sees it (see
/// `TypeChecker`). It mirrors the interpreter's dynamic `Value`s, which stay untyped at run time.
///
/// The file's own structs and enums are `named` (`DeclaredTypes.swift` gives their members).
indirect enum SpecType: Hashable, Sendable {
    case int
    case double
    case string
    case bool
    /// A value that may be `nil`. The interpreter has no `!`: operations on an optional act on
    /// the value it holds, and a `nil` there is a runtime error only the data can cause.
    case optional(SpecType)
    case array(SpecType)
    /// `[String: Int]`: subscripting gives an optional value.
    case dictionary(key: SpecType, value: SpecType)
    /// `Result<Int, Error>`: `.success(value)` or `.failure(error)`.
    case result(success: SpecType, failure: SpecType)
    /// `()` is the empty tuple (what `print(…)` and an `if` without `else` give).
    case tuple([SpecType])
    /// A publisher as a value: named streams, `Just(1)`, the inner publishers of `flatMap`.
    case publisher(output: SpecType, failure: SpecType)
    /// No value at all: the type of a `throw`, the elements of `[]`, the failure of a stream
    /// that cannot fail. Joined with any type it gives that type.
    case never
    /// Unknown or mixed (a marble line holding letters and digits): everything is accepted and
    /// left to run time, so the checker never rejects what might run.
    case any
    /// Not known yet: the values of a line with no values, of `Empty()`, of `PassthroughSubject()`.
    /// Its uses decide it (see `TypeStore`).
    case variable(Int)
    /// A struct or enum the file declares (`User`, `APIError`), by name.
    case named(String)

    /// Computed, not a stored global: the global's box is referenced through a pointer that
    /// carries the case in its spare bits, which LeakSanitizer does not recognise as a pointer
    /// (it reported the box as leaked in every process that type-checked a closure).
    static var void: SpecType { .tuple([]) }
    static let nilLiteral = SpecType.optional(.never)

    /// The type of a runtime value (a marble's value, a `values` entry, a constant).
    init(of value: Value) {
        switch value {
        case .int: self = .int
        case .double: self = .double
        case .string: self = .string
        case .bool: self = .bool
        case .null: self = .nilLiteral
        case .array(let items):
            var element = SpecType.never
            for item in items where element != .any { element = SpecType.joinConcrete(element, SpecType(of: item)) }
            self = .array(element)
        case .tuple(let items): self = .tuple(items.map(SpecType.init(of:)))
        case .dictionary(let dictionary):
            var key = SpecType.never, element = SpecType.never
            for (k, v) in dictionary.entries {
                key = SpecType.joinConcrete(key, SpecType(of: k))
                element = SpecType.joinConcrete(element, SpecType(of: v))
            }
            self = .dictionary(key: key, value: element)
        case .publisher: self = .publisher(output: .any, failure: .any)
        case .record(let instance) where instance.type == "Result":
            let payload = instance.values.first.map(SpecType.init(of:)) ?? .any
            self = instance.caseName == "success" ? .result(success: payload, failure: .never) : .result(success: .never, failure: payload)
        case .record(let instance): self = .named(instance.type)
        }
    }

    /// A type written in generic arguments (`Int`, `[String]`, `Int?`, `(Int, String)`); nil
    /// for anything else (`Never`, `Error`, app types), which the caller treats as unknown.
    init?(written text: String) {
        let text = text.trimmingCharacters(in: .whitespaces)
        switch text {
        case "Int": self = .int
        case "Double", "TimeInterval": self = .double
        case "String": self = .string
        case "Bool": self = .bool
        default:
            if text.hasSuffix("?"), let wrapped = SpecType(written: String(text.dropLast())) {
                self = .optional(wrapped)
            } else if text.hasPrefix("["), text.hasSuffix("]"), let element = SpecType(written: String(text.dropFirst().dropLast())) {
                self = .array(element)
            } else {
                return nil
            }
        }
    }

    /// Joins two types without variables (see `TypeStore.join`).
    static func joinConcrete(_ a: SpecType, _ b: SpecType) -> SpecType {
        if a == b { return a }
        switch (a, b) {
        case (.never, let x), (let x, .never): return x
        case (.any, _), (_, .any): return .any
        case (.optional(let x), .optional(let y)): return .optional(joinConcrete(x, y))
        case (.optional(let x), let y), (let y, .optional(let x)): return .optional(joinConcrete(x, y))
        case (.array(let x), .array(let y)): return .array(joinConcrete(x, y))
        case (.dictionary(let k1, let v1), .dictionary(let k2, let v2)): return .dictionary(key: joinConcrete(k1, k2), value: joinConcrete(v1, v2))
        case (.result(let s1, let f1), .result(let s2, let f2)): return .result(success: joinConcrete(s1, s2), failure: joinConcrete(f1, f2))
        case (.tuple(let xs), .tuple(let ys)) where xs.count == ys.count: return .tuple(zip(xs, ys).map { joinConcrete($0, $1) })
        case (.publisher(let o1, let f1), .publisher(let o2, let f2)): return .publisher(output: joinConcrete(o1, o2), failure: joinConcrete(f1, f2))
        default: return .any
        }
    }
}

/// The type variables of one test and what they have been decided to be. A variable stands for
/// the values of a stream nobody wrote a value for; the first use that needs a concrete type
/// decides it (`$0 * 2` makes it `Int`, `$0.uppercased()` a `String`), and joining it with a
/// type decides it too (merging it with a stream of `Int`). One that a member needs but nothing
/// decided defaults to `String`, the type of a letter in a marble.
final class TypeStore {
    private var bindings: [SpecType?] = []

    func fresh() -> SpecType {
        bindings.append(nil)
        return .variable(bindings.count - 1)
    }

    /// Follows decided variables at the top of `type`.
    func resolve(_ type: SpecType) -> SpecType {
        var current = type
        while case .variable(let index) = current, let bound = bindings[index] { current = bound }
        return current
    }

    /// `type` with every decided variable replaced, all the way down (for messages).
    func deepResolve(_ type: SpecType) -> SpecType {
        // Iterative over the spine: types are shallow (a type is as deep as the literal that made it).
        switch resolve(type) {
        case .optional(let x): return .optional(deepResolve(x))
        case .array(let x): return .array(deepResolve(x))
        case .dictionary(let k, let v): return .dictionary(key: deepResolve(k), value: deepResolve(v))
        case .result(let s, let f): return .result(success: deepResolve(s), failure: deepResolve(f))
        case .tuple(let xs): return .tuple(xs.map(deepResolve))
        case .publisher(let o, let f): return .publisher(output: deepResolve(o), failure: deepResolve(f))
        case let other: return other
        }
    }

    /// Decides an undecided variable.
    func bind(_ index: Int, to type: SpecType) {
        guard bindings[index] == nil, !occurs(index, in: type) else { return }
        bindings[index] = type
    }

    private func occurs(_ index: Int, in type: SpecType) -> Bool {
        switch resolve(type) {
        case .variable(let other): return other == index
        case .optional(let x), .array(let x): return occurs(index, in: x)
        case .tuple(let xs): return xs.contains { occurs(index, in: $0) }
        case .publisher(let o, let f), .dictionary(let o, let f), .result(let o, let f): return occurs(index, in: o) || occurs(index, in: f)
        default: return false
        }
    }

    /// The type of a value that is either of two types (the branches of `?:`, a stream merged
    /// with another, an accumulator). Two different kinds give `Any`: never an error, since the
    /// interpreter accepts values of every kind in one stream.
    func join(_ first: SpecType, _ second: SpecType) -> SpecType {
        let a = resolve(first)
        let b = resolve(second)
        if a == b { return a }
        switch (a, b) {
        case (.never, let x), (let x, .never): return x
        case (.variable(let index), let x), (let x, .variable(let index)):
            if occurs(index, in: x) { return .any }
            bind(index, to: x)
            return x
        case (.any, _), (_, .any): return .any
        case (.optional(let x), .optional(let y)): return .optional(join(x, y))
        case (.optional(let x), let y), (let y, .optional(let x)): return .optional(join(x, y))
        case (.array(let x), .array(let y)): return .array(join(x, y))
        case (.dictionary(let k1, let v1), .dictionary(let k2, let v2)): return .dictionary(key: join(k1, k2), value: join(v1, v2))
        case (.result(let s1, let f1), .result(let s2, let f2)): return .result(success: join(s1, s2), failure: join(f1, f2))
        case (.tuple(let xs), .tuple(let ys)) where xs.count == ys.count: return .tuple(zip(xs, ys).map { join($0, $1) })
        case (.publisher(let o1, let f1), .publisher(let o2, let f2)): return .publisher(output: join(o1, o2), failure: join(f1, f2))
        default: return .any
        }
    }

    /// How Swift writes the type: `Int`, `String?`, `[Int]`, `(String, Int)`, `AnyPublisher<Int, Never>`.
    func name(_ type: SpecType) -> String {
        switch resolve(type) {
        case .int: return "Int"
        case .double: return "Double"
        case .string: return "String"
        case .bool: return "Bool"
        case .optional(let x):
            let inner = resolve(x)
            if inner == .never { return "Optional<Any>" }
            return name(inner) + "?"
        case .array(let x): return "[" + (resolve(x) == .never ? "Any" : name(x)) + "]"
        case .dictionary(let k, let v):
            return "[" + (resolve(k) == .never ? "AnyHashable" : name(k)) + ": " + (resolve(v) == .never ? "Any" : name(v)) + "]"
        case .result(let s, let f):
            let failure = resolve(f)
            return "Result<\(resolve(s) == .never ? "Never" : name(s)), \(failure == .never || failure == .string ? "Error" : name(failure))>"
        case .tuple(let xs): return "(" + xs.map(name).joined(separator: ", ") + ")"
        case .publisher(let o, let f):
            let failure = resolve(f)
            return "AnyPublisher<\(resolve(o) == .never ? "Never" : name(o)), \(failure == .never ? "Never" : failure == .string ? "Error" : name(failure))>"
        case .never: return "Never"
        case .named(let name): return name
        case .any, .variable: return "Any"
        }
    }
}
