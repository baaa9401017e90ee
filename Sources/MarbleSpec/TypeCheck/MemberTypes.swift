import MarbleSyntax

/// The members the interpreter supports on each type (`Builtins.property` and its methods), for
/// checking them before anything runs: what a property gives, which labels a method takes, and
/// the spellings to suggest for a member that does not exist.
enum MemberTypes {
    /// A method: its argument labels (nil for `_`) and how many of them may be left out at the end.
    struct Method {
        var labels: [String?]
        var optionalTrailing = 0
    }

    /// The kinds of values that have members, in the order an undecided type tries them (a
    /// letter, the commonest marble value, first).
    enum Kind: CaseIterable {
        case string, int, double, bool, array, character

        var defaultType: SpecType {
            switch self {
            case .string: return .string
            case .int: return .int
            case .double: return .double
            case .bool: return .bool
            case .array: return .array(.any)
            case .character: return .character
            }
        }
    }

    static func kind(of type: SpecType) -> Kind? {
        switch type {
        case .string: return .string
        case .int: return .int
        case .double: return .double
        case .bool: return .bool
        case .array: return .array
        case .character: return .character
        default: return nil
        }
    }

    /// The Bool properties of a `Character` (Swift's character properties).
    static let characterTests: [String: @Sendable (Character) -> Bool] = [
        "isLetter": \.isLetter, "isNumber": \.isNumber, "isWhitespace": \.isWhitespace, "isUppercase": \.isUppercase,
        "isLowercase": \.isLowercase, "isPunctuation": \.isPunctuation, "isASCII": \.isASCII, "isHexDigit": \.isHexDigit,
        "isSymbol": \.isSymbol, "isNewline": \.isNewline, "isWholeNumber": \.isWholeNumber, "isCased": \.isCased,
    ]

    private static let properties: [Kind: [String]] = [
        .string: ["count", "isEmpty", "first", "last", "description"],
        .array: ["count", "isEmpty", "first", "last", "description", "publisher"],
        .int: ["description"],
        .double: ["description", "isNaN"],
        .bool: ["description"],
        .character: characterTests.keys.sorted() + ["wholeNumberValue", "hexDigitValue", "asciiValue", "description"],
    ]

    private static let methods: [Kind: [String: Method]] = [
        .string: ["uppercased": Method(labels: []), "lowercased": Method(labels: []), "contains": Method(labels: [nil]),
                  "hasPrefix": Method(labels: [nil]), "hasSuffix": Method(labels: [nil]), "reversed": Method(labels: [])],
        .array: ["contains": Method(labels: [nil]), "reversed": Method(labels: []), "sorted": Method(labels: []),
                 "joined": Method(labels: ["separator"], optionalTrailing: 1), "map": Method(labels: [nil]), "filter": Method(labels: [nil]),
                 "reduce": Method(labels: [nil, nil]), "min": Method(labels: []), "max": Method(labels: [])],
        .int: ["isMultiple": Method(labels: ["of"])],
        .double: ["truncatingRemainder": Method(labels: ["dividingBy"])],
        .bool: [:],
        .character: ["uppercased": Method(labels: []), "lowercased": Method(labels: [])],
    ]

    static func hasProperty(_ name: String, _ kind: Kind) -> Bool { properties[kind, default: []].contains(name) }

    static func method(_ name: String, _ kind: Kind) -> Method? { methods[kind]?[name] }

    /// Every member name of a kind (a tuple has `description` and its element numbers).
    static func names(of kind: Kind) -> [String] {
        let appKind: AppMembers.Kind? = switch kind {
        case .string: .string
        case .array: .array
        default: nil
        }
        return properties[kind, default: []] + (methods[kind]?.keys.sorted() ?? []) + (appKind.map(AppMembers.names(of:)) ?? [])
    }

    /// Spellings from other languages and common slips, and the member Swift has instead: the
    /// nearest of these is suggested when it is nearer than any real member (`lenght` → `count`).
    private static let aliases: [String: String] = [
        "length": "count", "size": "count", "len": "count", "empty": "isEmpty",
        "toUpperCase": "uppercased", "upper": "uppercased", "uppercase": "uppercased", "upperCased": "uppercased",
        "toLowerCase": "lowercased", "lower": "lowercased", "lowercase": "lowercased", "lowerCased": "lowercased",
        "startsWith": "hasPrefix", "endsWith": "hasSuffix", "includes": "contains", "has": "contains",
        "reverse": "reversed", "sort": "sorted", "join": "joined", "toString": "description",
        "isMultipleOf": "isMultiple", "remainder": "truncatingRemainder",
        "trim": "trimmingCharacters", "strip": "trimmingCharacters", "replace": "replacingOccurrences", "replaceAll": "replacingOccurrences",
        "substring": "prefix", "take": "prefix", "skip": "dropFirst", "indexOf": "firstIndex", "find": "first", "some": "contains", "every": "allSatisfy",
    ]

    /// The member to suggest for a misspelt `name` among `members`.
    static func suggestion(for name: String, among members: [String]) -> String? {
        if let nearest = Suggestions.nearest(to: name, in: members) { return nearest }
        let usable = aliases.filter { members.contains($0.value) }
        return Suggestions.nearest(to: name, in: usable.keys.sorted()).flatMap { usable[$0] }
    }
}
