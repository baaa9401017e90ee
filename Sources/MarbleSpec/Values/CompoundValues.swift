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

    /// Swift source text: `["a": 1, "b": 2]`, `[:]`.
    public var literal: String {
        guard !entries.isEmpty else { return "[:]" }
        let sorted = entries.map { (key: $0.key.literal, value: $0.value.literal) }.sorted { $0.key < $1.key }
        return "[" + sorted.map { "\($0.key): \($0.value)" }.joined(separator: ", ") + "]"
    }
}

extension Instance {
    /// `Result.success(value)`: Swift's `Result` is an enum like the file's own.
    public static func success(_ value: Value) -> Value { .record(Instance(type: "Result", caseName: "success", labels: [nil], values: [value])) }

    /// `Result.failure(error)`.
    public static func failure(_ error: Value) -> Value { .record(Instance(type: "Result", caseName: "failure", labels: [nil], values: [error])) }
}
