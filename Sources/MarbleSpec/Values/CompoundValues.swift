import Foundation

/// A dictionary value. Swift prints a dictionary in hash order, which changes from run to run;
/// this one prints its entries sorted by their keys' literals, so messages and diagrams are
/// stable. Equality ignores order, as Swift's does.
public struct DictionaryValue: Hashable, Sendable {
    public var entries: [Value: Value]

    public init(_ entries: [Value: Value] = [:]) { self.entries = entries }

    /// `[String: Int]`; `[AnyHashable: Any]` for an empty or mixed one.
    public var typeName: String {
        let keys = Set(entries.keys.map(\.typeName)), values = Set(entries.values.map(\.typeName))
        guard keys.count == 1, let key = keys.first else { return "[AnyHashable: Any]" }
        return "[\(key): \(values.count == 1 ? values.first ?? "Any" : "Any")]"
    }

    /// Swift source text: `["a": 1, "b": 2]`, `[:]`, entries in key order (`orderedEntries`).
    public var literal: String {
        guard !entries.isEmpty else { return "[:]" }
        return "[" + orderedEntries.map { "\($0.key.literal): \($0.value.literal)" }.joined(separator: ", ") + "]"
    }

    /// The entries in the order every walk of a dictionary uses here — a `for` loop, `keys`,
    /// `values`, `map`, printing: by key, numbers by value and strings alphabetically (keys of
    /// different kinds by their literals). Swift's order is unspecified and changes from run to
    /// run; a run must give the same result every time.
    public var orderedEntries: [(key: Value, value: Value)] {
        entries.map { (key: $0.key, value: $0.value) }.sorted { Value.keyOrder($0.key, $1.key) }
    }
}

extension Value {
    /// The order of dictionary keys and set elements (see `DictionaryValue.orderedEntries`).
    static func keyOrder(_ a: Value, _ b: Value) -> Bool {
        switch (a, b) {
        case (.int(let x), .int(let y)): return x < y
        case (.double(let x), .double(let y)) where !x.isNaN && !y.isNaN: return x < y
        case (.string(let x), .string(let y)): return x < y
        case (.bool(let x), .bool(let y)): return !x && y
        case (.tuple(let xs), .tuple(let ys)) where xs.count == ys.count:
            for (x, y) in zip(xs, ys) where x != y { return keyOrder(x, y) }
            return false
        default: return a.literal < b.literal
        }
    }
}

extension Instance {
    /// `Result.success(value)`: Swift's `Result` is an enum like the file's own.
    public static func success(_ value: Value) -> Value { .record(Instance(type: "Result", caseName: "success", labels: [nil], values: [value])) }

    /// `Result.failure(error)`.
    public static func failure(_ error: Value) -> Value { .record(Instance(type: "Result", caseName: "failure", labels: [nil], values: [error])) }
}

extension Value {
    /// A `Set` of `elements`: each once, in key order (`Value.keyOrder`, as a dictionary's keys).
    /// Swift's order is unspecified and changes from run to run; here iteration, printing, `map`
    /// and `first` follow this order, so a run gives the same result every time, and two sets
    /// with the same elements are equal (structurally) whatever order they were built in.
    static func set(_ elements: some Sequence<Value>) -> Value {
        var seen = Set<Value>()
        var unique: [Value] = []
        for element in elements where seen.insert(element).inserted { unique.append(element) }
        unique.sort(by: keyOrder)
        return .record(Instance(type: "Set", caseName: nil, labels: unique.map { _ in nil }, values: unique))
    }

    /// `value` made a `Set` where `written` says one and it is an array (`let seen: Set<String> = []`,
    /// a property declared `Set<Int>` given `[1, 2]`), as Swift reads an array literal there.
    static func adoptingSet(_ value: Value, written: String?) -> Value {
        guard var type = written?.trimmingCharacters(in: .whitespaces), case .array(let items) = value else { return value }
        while type.hasSuffix("?") { type = String(type.dropLast()).trimmingCharacters(in: .whitespaces) }
        return type == "Set" || type.hasPrefix("Set<") ? .set(items) : value
    }

    var isString: Bool {
        if case .string = self { return true }
        return false
    }

    /// The elements of a `Set` value, in order; nil for any other value.
    var setElements: [Value]? {
        guard case .record(let instance) = self, instance.isSet else { return nil }
        return instance.values
    }
}

extension Instance {
    /// Whether this is a `Set` (`Value.set`): no file can declare a type of that name.
    var isSet: Bool { type == "Set" && caseName == nil }
}
