/// A dynamically typed value flowing through a `.marble` simulation. Equality is structural
/// with Swift's types: `1` and `1.0` differ.
///
/// Only the rare publisher case is `indirect`: arrays and tuples already hold their elements out
/// of line, so every other case (an `Int`, say) stays inline instead of costing a heap box per value.
public enum Value: Hashable, Sendable {
    case int(Int)
    case double(Double)
    case string(String)
    case bool(Bool)
    case null
    case array([Value])
    case tuple([Value])
    /// `["a": 1]`, `[String: Int]()`: keys and values of any kind (see `DictionaryValue`).
    case dictionary(DictionaryValue)
    /// A publisher flowing as a value (the inner publishers of `flatMap`, `switchToLatest`);
    /// the handle identifies it within one test run. Boxed: inline, its id and name would make
    /// every `Value` (an `Int` too) a third larger.
    indirect case publisher(PublisherHandle)
    /// A value of a type the file declares: a struct's instance or an enum's case (`UserTypes.swift`).
    indirect case record(Instance)

    /// The name of this value's type, as Swift would say it.
    public var typeName: String {
        switch self {
        case .int: return "Int"
        case .double: return "Double"
        case .string: return "String"
        case .bool: return "Bool"
        case .null: return "Optional"
        case .array(let items): return "[\(items.first?.typeName ?? "Any")]"
        case .tuple(let items): return "(" + items.map(\.typeName).joined(separator: ", ") + ")"
        case .dictionary(let dictionary): return dictionary.typeName
        case .publisher: return "AnyPublisher"
        case .record(let record) where record.isSet: return "Set<\(record.values.first?.typeName ?? "AnyHashable")>"
        case .record(let record): return record.type
        }
    }

    /// Swift source text for the value: `42`, `-1.5`, `"hi"`, `[1, 2]`, `("a", 1)`, `nil`.
    public var literal: String {
        switch self {
        case .int(let value): return String(value)
        case .double(let value): return Value.doubleText(value)
        case .string(let value): return Value.quoted(value)
        case .bool(let value): return value ? "true" : "false"
        case .null: return "nil"
        case .array(let items): return "[" + items.map(\.literal).joined(separator: ", ") + "]"
        case .tuple(let items): return "(" + items.map(\.literal).joined(separator: ", ") + ")"
        case .dictionary(let dictionary): return dictionary.literal
        case .publisher(let handle): return "<publisher \(handle.name)>"
        case .record(let record): return record.literal
        }
    }

    /// What `String(describing:)` gives in Swift: strings without quotes.
    public var text: String {
        switch self {
        case .string(let value): return value
        case .array(let items): return "[" + items.map(\.literal).joined(separator: ", ") + "]"
        case .tuple(let items): return "(" + items.map(\.literal).joined(separator: ", ") + ")"
        case .record(let record): return record.text
        default: return literal
        }
    }

    static func doubleText(_ value: Double) -> String {
        if value.isNaN { return "Double.nan" }
        if value.isInfinite { return value < 0 ? "-Double.infinity" : "Double.infinity" }
        return "\(value)"
    }

    static func quoted(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\t": out += "\\t"
            case "\r": out += "\\r"
            default:
                if scalar.value < 0x20 { out += "\\u{\(String(scalar.value, radix: 16))}" } else { out.unicodeScalars.append(scalar) }
            }
        }
        return out + "\""
    }
}

extension Value: CustomStringConvertible {
    public var description: String { literal }
}

/// Identifies a publisher value within a test run (see `Value.publisher`).
public struct PublisherHandle: Hashable, Sendable {
    public let id: Int
    /// How the publisher was written, for messages.
    public let name: String
}

/// The error a failing stream carries. Errors are identified by their message: `#` in a
/// marble is the message "error", `#{"boom"}` the message "boom", and `throw x` the
/// description of `x`.
public struct StreamError: Error, Hashable, Sendable, CustomStringConvertible {
    public var value: Value
    public init(_ value: Value) { self.value = value }
    public init(message: String) { value = .string(message) }
    public var message: String { value.text }
    public var description: String { message }
    public static let `default` = StreamError(message: "error")

    /// An app's error (`APIError.offline`) equals only itself; its message is Swift's description
    /// (`offline`), so it differs from the string error `"offline"` too.
    public static func == (lhs: StreamError, rhs: StreamError) -> Bool {
        switch (lhs.value, rhs.value) {
        case (.record, _), (_, .record): return lhs.value == rhs.value
        default: return lhs.message == rhs.message
        }
    }
    public func hash(into hasher: inout Hasher) { hasher.combine(message) }
}
