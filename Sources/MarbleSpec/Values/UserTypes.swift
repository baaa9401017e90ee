import Foundation
import MarbleSyntax

/// A value of a type the file declares: a struct's instance (`caseName` nil, one value per stored
/// property) or an enum's case with its associated values. Equality is structural, as Swift
/// synthesises it for `Equatable`.
public struct Instance: Hashable, Sendable {
    public var type: String
    public var caseName: String?
    public var labels: [String?]
    public var values: [Value]

    public init(type: String, caseName: String?, labels: [String?], values: [Value]) {
        self.type = type
        self.caseName = caseName
        self.labels = labels
        self.values = values
    }

    private var payload: String {
        zip(labels, values).map { label, value in (label.map { "\($0): " } ?? "") + value.literal }.joined(separator: ", ")
    }

    /// Swift source text: `User(name: "Ann", age: 3)`, `APIError.offline`, `APIError.status(404)`.
    var literal: String {
        guard let caseName else { return "\(type)(\(payload))" }
        return "\(type).\(caseName)" + (values.isEmpty ? "" : "(\(payload))")
    }

    /// What `String(describing:)` gives: a struct as its literal, a case without its type (`offline`, `status(404)`).
    var text: String {
        guard let caseName else { return literal }
        return caseName + (values.isEmpty ? "" : "(\(payload))")
    }
}

/// The types one test can use: the file's declarations and the test's own (`struct`, `enum`,
/// `typealias`, `extension`), checked when the test is prepared.
struct UserTypes: Sendable {
    struct EnumType: Sendable {
        var name: String
        var cases: [CaseDeclaration]
        /// `String`, `Int` or `Double` when the first conformance is one of them.
        var rawType: String?
        var rawValues: [String: Value] = [:]
    }

    struct StructType: Sendable {
        var name: String
        var fields: [FieldDeclaration]
    }

    private(set) var structs: [String: StructType] = [:]
    private(set) var enums: [String: EnumType] = [:]
    private(set) var aliases: [String: TypeText] = [:]
    /// Computed properties by type, from the declaration and its extensions.
    private(set) var properties: [String: [String: ComputedProperty]] = [:]
    /// The conformances written for each type (its declaration's and its extensions').
    private(set) var conformances: [String: [String]] = [:]
    /// The file's and the test's own functions (`func NAME(…)` outside a type), by name.
    private(set) var functions: [String: FunctionDeclaration] = [:]
    /// Instance methods (`func`, `mutating func`) by type, then name.
    private(set) var methods: [String: [String: FunctionDeclaration]] = [:]
    /// `static func` by type, then name.
    private(set) var staticMethods: [String: [String: FunctionDeclaration]] = [:]
    /// `static let` by type, then name.
    private(set) var staticProperties: [String: [String: StaticProperty]] = [:]
    /// `init(…)` by type; a struct that declares one in its body has no memberwise initializer.
    private(set) var initializers: [String: [FunctionDeclaration]] = [:]
    /// The structs whose own body declares an `init` (an extension's keeps the memberwise one, as in Swift).
    private(set) var replacesMemberwise: Set<String> = []
    /// The names of the `mutating func`s of every type (a call of one on a `var` changes it).
    private(set) var mutatingMethodNames: Set<String> = []
    /// What each alias stands for, the aliases it names followed (see `resolveAliases`).
    var resolvedAliases: [String: String] = [:]
    /// Aliases reported as mistakes (naming themselves, too deep or too large written out): known
    /// names that stand for an unknown type.
    var unusableAliases: Set<String> = []

    static let builtinTypeNames: Set<String> = ["Int", "Double", "String", "Bool", "Error", "Never", "Any", "Void", "TimeInterval"]

    var isEmpty: Bool { structs.isEmpty && enums.isEmpty && aliases.isEmpty && functions.isEmpty }

    /// The names a member's body sees without `self.`: stored and computed properties, methods,
    /// `rawValue`.
    func memberNames(of type: String) -> [String] {
        var names = (structs[type]?.fields.map(\.name.name) ?? []) + (properties[type] ?? [:]).keys.sorted() + (methods[type] ?? [:]).keys.sorted()
        if enums[type]?.rawType != nil { names.append("rawValue") }
        return names
    }

    /// Every declared name, aliases included, in alphabetical order (the same on every run).
    var names: [String] { (Array(structs.keys) + Array(enums.keys) + Array(aliases.keys)).sorted() }

    /// The type a name stands for, aliases followed (`typealias Query = String` gives `String`);
    /// nil for a name the file does not declare, or an alias reported as a mistake.
    func canonicalName(_ name: String) -> String? {
        if structs[name] != nil || enums[name] != nil { return name }
        guard let resolved = resolvedAliases[name] else { return nil }
        return resolved
    }

    func enumType(_ name: String) -> EnumType? { canonicalName(name).flatMap { enums[$0] } }
    func structType(_ name: String) -> StructType? { canonicalName(name).flatMap { structs[$0] } }

    /// The enums with a case spelt `name`, for an implicit member (`.offline`) whose type is not written.
    func enumsWithCase(_ name: String) -> [EnumType] {
        enums.values.filter { $0.cases.contains { $0.name.name == name } }.sorted { $0.name < $1.name }
    }

    /// The one type with a `static let` spelt `name` (for `.zero` where a value is needed), or
    /// nil when none or several have it.
    func typeWithStaticProperty(_ name: String) -> String? {
        let owners = staticProperties.filter { $0.value[name] != nil }.map(\.key)
        return owners.count == 1 ? owners[0] : nil
    }

    /// Whether Swift compares values of the type with `==`: declared `Equatable` (or `Hashable`,
    /// `Comparable`), or an enum whose cases have no associated values (Swift synthesises it then).
    func isEquatable(_ name: String) -> Bool {
        guard let canonical = canonicalName(name) else { return true }
        if conformances[canonical, default: []].contains(where: { ["Equatable", "Hashable", "Comparable"].contains($0) }) { return true }
        if let enumType = enums[canonical] { return enumType.cases.allSatisfy(\.payload.isEmpty) }
        return false
    }

    /// How to declare the type `Equatable`, keeping what it conforms to (`enum APIError: Error, Equatable { … }`).
    func equatableHint(_ name: String) -> String {
        let keyword = structs[name] != nil ? "struct" : "enum"
        return "declare it Equatable: \(keyword) \(name): \((conformances[name, default: []] + ["Equatable"]).joined(separator: ", ")) { … }"
    }

    func isErrorType(_ name: String) -> Bool { conformances[canonicalName(name) ?? name, default: []].contains("Error") }

    /// Whether a written type names something known: the builtins, the declared types, and
    /// arrays, optionals, tuples, dictionaries and generic types of them.
    func knows(_ written: String) -> Bool {
        var text = written.trimmingCharacters(in: .whitespaces)
        while text.hasSuffix("?") || text.hasSuffix("!") { text = text.dropLast().trimmingCharacters(in: .whitespaces) }
        if (text.hasPrefix("[") && text.hasSuffix("]")) || (text.hasPrefix("(") && text.hasSuffix(")")) {
            let inner = String(text.dropFirst().dropLast())
            if inner.isEmpty { return true }
            return Self.topLevelParts(inner, separators: [",", ":"]).allSatisfy { knows(Self.droppingLabel($0)) }
        }
        if let open = text.firstIndex(of: "<") {
            return knows(String(text[..<open]))
        }
        return Self.builtinTypeNames.contains(text) || canonicalName(text) != nil || unusableAliases.contains(text) || Self.libraryTypeNames.contains(text)
    }

    /// Generic types of Combine and the standard library that a declaration may mention.
    private static let libraryTypeNames: Set<String> = ["Result", "Optional", "Array", "Dictionary", "Set", "AnyPublisher", "Date", "Character"]

    /// `a, (b, c), d` split at separators outside brackets.
    static func topLevelParts(_ text: String, separators: Set<Character>) -> [String] {
        var parts: [String] = []
        var current = ""
        var nesting = 0
        for c in text {
            if "([<".contains(c) { nesting += 1 }
            if ")]>".contains(c) { nesting -= 1 }
            if nesting == 0, separators.contains(c) {
                parts.append(current)
                current = ""
            } else {
                current.append(c)
            }
        }
        parts.append(current)
        return parts.map { $0.trimmingCharacters(in: .whitespaces) }
    }

    /// `name: Int` → `Int` (a tuple element's label).
    static func droppingLabel(_ part: String) -> String {
        let pieces = part.split(separator: ":", maxSplits: 1)
        guard pieces.count == 2, pieces[0].allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" }) else { return part }
        return pieces[1].trimmingCharacters(in: .whitespaces)
    }

    // MARK: Collecting declarations

    /// Adds the declarations among `statements`; every mistake is returned, at its place.
    /// `rawValue` evaluates a case's raw value literal.
    mutating func declare(_ statements: [Statement], rawValue: (Expr) -> Value?) -> [SpecDiagnostic] {
        var diagnostics: [SpecDiagnostic] = []
        func fail(_ message: String, _ identifier: Identifier, hint: String? = nil) {
            diagnostics.append(SpecDiagnostic(message, at: identifier.location, length: identifier.name.count, hint: hint))
        }
        var extensions: [TypeDeclaration] = []
        var aliasOrder: [Identifier] = []
        for declaration in Self.flattened(statements) {
            let name = declaration.name
            if case .function(let function) = declaration.kind {
                if functions[function.name.name] != nil {
                    fail("invalid redeclaration of '\(function.name.name)'", function.name,
                         hint: "overloading is not supported in a .marble file yet: give each function its own name")
                } else {
                    functions[function.name.name] = function
                }
                continue
            }
            if case .extension = declaration.kind {
                extensions.append(declaration)
                continue
            }
            if structs[name.name] != nil || enums[name.name] != nil || aliases[name.name] != nil || Self.builtinTypeNames.contains(name.name) {
                fail("invalid redeclaration of '\(name.name)'", name)
                continue
            }
            conformances[name.name] = declaration.conformances.map(\.text)
            switch declaration.kind {
            case .structure(let fields) where declaration.functions.contains(where: { $0.name.name == "init" }):
                replacesMemberwise.insert(name.name)
                fallthrough
            case .structure(let fields):
                var seen: Set<String> = []
                for field in fields where !seen.insert(field.name.name).inserted { fail("invalid redeclaration of '\(field.name.name)'", field.name) }
                structs[name.name] = StructType(name: name.name, fields: fields)
            case .enumeration(let cases):
                var type = EnumType(name: name.name, cases: cases)
                if let first = declaration.conformances.first?.text, ["String", "Int", "Double"].contains(first) { type.rawType = first }
                diagnostics += Self.assignRawValues(&type, rawValue: rawValue)
                enums[name.name] = type
            case .alias(let target):
                aliases[name.name] = target
                aliasOrder.append(name)
            case .extension, .function:
                break
            }
            addProperties(declaration, diagnostics: &diagnostics)
        }
        // A nested type is named by its path (`Outer.Inner`), and by its own name where no other
        // type has it, as the outer type's members write it.
        for declaration in Self.flattened(statements) where declaration.name.name.contains(".") {
            let short = String(declaration.name.name.split(separator: ".").last ?? "")
            if structs[short] == nil, enums[short] == nil, aliases[short] == nil {
                aliases[short] = TypeText(text: declaration.name.name, location: declaration.name.location)
                aliasOrder.append(Identifier(name: short, location: declaration.name.location))
            }
        }
        diagnostics += resolveAliases(aliasOrder)
        for declaration in extensions {
            guard let target = canonicalName(declaration.name.name), structs[target] != nil || enums[target] != nil else {
                fail("cannot find type '\(declaration.name.name)' in scope", declaration.name,
                     hint: Suggestions.nearest(to: declaration.name.name, in: names).map { "did you mean '\($0)'?" } ?? "declare it with struct or enum first")
                continue
            }
            conformances[target, default: []] += declaration.conformances.map(\.text)
            var renamed = declaration
            renamed.name.name = target
            addProperties(renamed, diagnostics: &diagnostics)
        }
        diagnostics += unknownTypes(in: statements)
        diagnostics += recursiveValueTypes(in: statements)
        return diagnostics
    }

    private mutating func addProperties(_ declaration: TypeDeclaration, diagnostics: inout [SpecDiagnostic]) {
        let type = declaration.name.name
        let stored = Set(structs[type]?.fields.map(\.name.name) ?? [])
        func taken(_ name: String) -> Bool {
            stored.contains(name) || properties[type]?[name] != nil || methods[type]?[name] != nil
                || staticMethods[type]?[name] != nil || staticProperties[type]?[name] != nil
                || enums[type]?.cases.contains(where: { $0.name.name == name }) == true
        }
        func redeclared(_ identifier: Identifier, hint: String? = nil) {
            diagnostics.append(SpecDiagnostic("invalid redeclaration of '\(identifier.name)'", at: identifier.location, length: identifier.name.count, hint: hint))
        }
        for property in declaration.properties {
            if taken(property.name.name) {
                redeclared(property.name)
                continue
            }
            properties[type, default: [:]][property.name.name] = property
        }
        for property in declaration.statics {
            if taken(property.name.name) {
                redeclared(property.name)
                continue
            }
            staticProperties[type, default: [:]][property.name.name] = property
        }
        for function in declaration.functions {
            if function.name.name == "init" {
                if enums[type] != nil {
                    diagnostics.append(SpecDiagnostic("'init' is not supported in an enum of a .marble file yet", at: function.name.location, length: 4,
                                                      hint: "write a static func that returns a case: static func make(…) -> \(type)"))
                    continue
                }
                let labels = function.parameters.map(\.label)
                if initializers[type, default: []].contains(where: { $0.parameters.map(\.label) == labels }) {
                    redeclared(function.name, hint: "another init has the labels \(function.signature)")
                    continue
                }
                initializers[type, default: []].append(function)
                continue
            }
            if taken(function.name.name) {
                redeclared(function.name, hint: "overloading is not supported in a .marble file yet: give each function its own name")
                continue
            }
            if function.isStatic {
                staticMethods[type, default: [:]][function.name.name] = function
            } else {
                methods[type, default: [:]][function.name.name] = function
                if function.isMutating { mutatingMethodNames.insert(function.name.name) }
            }
        }
    }

    /// The declarations among `statements`, each nested type after its outer one and named by
    /// its path (`Outer.Inner`).
    static func flattened(_ statements: [Statement]) -> [TypeDeclaration] {
        var result: [TypeDeclaration] = []
        var pending: [TypeDeclaration] = statements.compactMap {
            if case .declaration(let declaration) = $0.kind { return declaration }
            return nil
        }.reversed()
        while var declaration = pending.popLast() {
            let inner = declaration.nested.map { nested -> TypeDeclaration in
                var renamed = nested
                renamed.name.name = declaration.name.name + "." + nested.name.name
                return renamed
            }
            declaration.nested = []
            result.append(declaration)
            pending += inner.reversed()
        }
        return result
    }

    /// Raw values as Swift gives them: a `String` enum's are the case names; an `Int` or `Double`
    /// enum's count up from the last integer literal written (from 0), as Swift's literals do:
    /// past `Int.max` is an overflow, and after a raw value that is not an integer literal
    /// (`1.5`, `2.0`) every case must write its own.
    private static func assignRawValues(_ type: inout EnumType, rawValue: (Expr) -> Value?) -> [SpecDiagnostic] {
        var diagnostics: [SpecDiagnostic] = []
        var seenCases: Set<String> = []
        /// What a case without a raw value counts up from.
        enum Counter {
            /// No raw value yet: from 0.
            case start
            /// `steps` cases after the case `name` wrote the integer literal `literal`.
            case after(name: String, literal: Int, steps: Int)
            /// After a raw value that is not an integer literal.
            case stopped
            /// After a raw value with a mistake (reported there): nothing more to say.
            case unknown
        }
        var counter = Counter.start
        var used: [Value: String] = [:]
        for item in type.cases {
            let name = item.name
            if !seenCases.insert(name.name).inserted {
                diagnostics.append(SpecDiagnostic("invalid redeclaration of '\(name.name)'", at: name.location, length: name.name.count))
                continue
            }
            if item.isIndirect, item.payload.isEmpty {
                diagnostics.append(SpecDiagnostic("enum case '\(name.name)' without associated value cannot be 'indirect'", at: name.location,
                                                  length: name.name.count, hint: "drop 'indirect', or give it an associated value"))
            }
            guard let rawType = type.rawType else {
                if let raw = item.rawValue {
                    diagnostics.append(SpecDiagnostic("enum case cannot have a raw value if the enum does not have a raw type", at: raw.location,
                                                      hint: "declare one: enum \(type.name): String { … } or enum \(type.name): Int { … }"))
                }
                continue
            }
            if !item.payload.isEmpty {
                diagnostics.append(SpecDiagnostic("enum with raw type cannot have cases with arguments", at: name.location, length: name.name.count))
                continue
            }
            var value: Value
            if let raw = item.rawValue {
                counter = .unknown
                guard let evaluated = rawValue(raw) else { continue }
                value = evaluated
                if case .int(let n) = evaluated {
                    counter = .after(name: name.name, literal: n, steps: 0)
                    if rawType == "Double" { value = .double(Double(n)) }
                } else {
                    counter = .stopped
                }
                guard value.typeName == rawType else {
                    counter = .unknown
                    diagnostics.append(SpecDiagnostic("cannot convert value of type '\(evaluated.typeName)' to raw type '\(rawType)'", at: raw.location))
                    continue
                }
            } else if rawType == "String" {
                value = .string(name.name)
            } else {
                switch counter {
                case .unknown:
                    continue
                case .stopped:
                    diagnostics.append(SpecDiagnostic("enum case must declare a raw value when the preceding raw value is not an integer",
                                                      at: name.location, length: name.name.count, hint: "write one: \(name.name) = …"))
                    continue
                case .start:
                    counter = .after(name: name.name, literal: 0, steps: 0)
                    value = rawType == "Int" ? .int(0) : .double(0)
                case .after(let from, let literal, let steps):
                    counter = .after(name: from, literal: literal, steps: steps + 1)
                    let (sum, overflow) = literal.addingReportingOverflow(steps + 1)
                    if rawType == "Double" {
                        value = .double(Double(literal) + Double(steps + 1))
                    } else if overflow {
                        // Only upwards: `literal` is at most Int.max, and steps are few.
                        let written = String(UInt64(bitPattern: Int64(literal)) &+ UInt64(steps + 1))
                        diagnostics.append(SpecDiagnostic("integer literal '\(written)' overflows when stored into 'Int'", at: name.location,
                                                          length: name.name.count,
                                                          hint: "'\(name.name)' counts up from '\(from)' (\(literal)): give it a raw value of its own, \(name.name) = …"))
                        counter = .unknown
                        continue
                    } else {
                        value = .int(sum)
                    }
                }
            }
            if let earlier = used[value] {
                diagnostics.append(SpecDiagnostic("raw value for enum case is not unique", at: item.rawValue?.location ?? name.location,
                                                  hint: "'\(earlier)' has the raw value \(value.literal) too"))
                continue
            }
            used[value] = name.name
            type.rawValues[name.name] = value
        }
        return diagnostics
    }

    /// Every written type of the declarations that names nothing known.
    private func unknownTypes(in statements: [Statement]) -> [SpecDiagnostic] {
        var written: [TypeText] = []
        for declaration in Self.flattened(statements) {
            switch declaration.kind {
            case .structure(let fields): written += fields.compactMap(\.type)
            case .enumeration(let cases): written += cases.flatMap { $0.payload.map(\.type) }
            case .alias(let target): written.append(target)
            case .extension: break
            case .function(let function): written += function.parameters.map(\.type) + [function.result].compactMap { $0 }
            }
            written += declaration.properties.map(\.type) + declaration.statics.compactMap(\.type)
            written += declaration.functions.flatMap { $0.parameters.map(\.type) + [$0.result].compactMap { $0 } }
        }
        for statement in statements {
            if case .published(_, let type?, _) = statement.kind { written.append(type) }
        }
        return written.filter { !knows($0.text) }.map { type in
            let name = type.text.filter { $0.isLetter || $0.isNumber || $0 == "_" }
            return SpecDiagnostic("cannot find type '\(type.text)' in scope", at: type.location, length: type.text.count,
                                  hint: Suggestions.nearest(to: name, in: names + Array(Self.builtinTypeNames)).map { "did you mean '\($0)'?" })
        }
    }
}
