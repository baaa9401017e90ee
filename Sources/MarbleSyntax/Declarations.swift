// The app's own types in a `.marble` file: `struct`, `enum`, `typealias` and `extension`
// declarations, and `@Published var` properties of a test. Types stay text here
// (`TypeText`); MarbleSpec resolves them.

/// A type as written (`Int`, `[User]`, `String?`, `LoadingState`), trimmed.
public struct TypeText: Hashable, Sendable {
    public var text: String
    public var location: SourceLocation

    public init(text: String, location: SourceLocation) {
        self.text = text
        self.location = location
    }
}

/// `struct NAME: P { … }`, `enum NAME: Raw, Error { … }`, `typealias NAME = TYPE`, `extension NAME { … }`.
public struct TypeDeclaration: Sendable {
    public enum Kind: Sendable {
        /// Stored properties, in order: the memberwise initialiser's parameters.
        case structure([FieldDeclaration])
        case enumeration([CaseDeclaration])
        case alias(TypeText)
        /// Adds computed properties to a type declared elsewhere in the file or test.
        case `extension`
    }

    public var kind: Kind
    public var name: Identifier
    /// After the `:` (`Equatable`, `Error`, an enum's raw type first).
    public var conformances: [TypeText]
    /// `var NAME: TYPE { … }` members.
    public var properties: [ComputedProperty]
    /// `indirect enum`: every case with associated values holds them out of line, so they may
    /// hold the enum itself.
    public var isIndirect: Bool

    public init(kind: Kind, name: Identifier, conformances: [TypeText] = [], properties: [ComputedProperty] = [], isIndirect: Bool = false) {
        self.kind = kind
        self.name = name
        self.conformances = conformances
        self.properties = properties
        self.isIndirect = isIndirect
    }

    /// The declaration's keyword, as written.
    public var keyword: String {
        switch kind {
        case .structure: "struct"
        case .enumeration: "enum"
        case .alias: "typealias"
        case .extension: "extension"
        }
    }
}

/// `let NAME: TYPE` / `var NAME = DEFAULT` in a struct.
public struct FieldDeclaration: Sendable {
    public var name: Identifier
    public var type: TypeText?
    public var defaultValue: Expr?
    /// Declared with `var`: a `var` of the struct may change it (`next.count += 1`).
    public var isVariable: Bool

    public init(name: Identifier, type: TypeText?, defaultValue: Expr?, isVariable: Bool = true) {
        self.name = name
        self.type = type
        self.defaultValue = defaultValue
        self.isVariable = isVariable
    }
}

/// `case NAME`, `case NAME(Int, label: String)`, `case NAME = RAW`, `indirect case NAME(…)`.
public struct CaseDeclaration: Sendable {
    public var name: Identifier
    public var payload: [PayloadElement]
    public var rawValue: Expr?
    /// Written `indirect case`: its associated values are held out of line.
    public var isIndirect: Bool

    public init(name: Identifier, payload: [PayloadElement] = [], rawValue: Expr? = nil, isIndirect: Bool = false) {
        self.name = name
        self.payload = payload
        self.rawValue = rawValue
        self.isIndirect = isIndirect
    }
}

/// One associated value of an enum case.
public struct PayloadElement: Sendable {
    public var label: String?
    public var type: TypeText

    public init(label: String?, type: TypeText) {
        self.label = label
        self.type = type
    }
}

/// `var NAME: TYPE { statements }`: evaluated on each access with `self` (and, as in Swift, the
/// stored properties by their names) in scope.
public struct ComputedProperty: Sendable {
    public var name: Identifier
    public var type: TypeText
    public var body: [ClosureStatement]

    public init(name: Identifier, type: TypeText, body: [ClosureStatement]) {
        self.name = name
        self.type = type
        self.body = body
    }
}

// MARK: Parsing

extension FileParser {
    /// `struct`, `enum`, `typealias` or `extension` at `start`; may span lines while its braces are open.
    func parseDeclaration(at start: Int, lineEnd: Int, next: inout Int) throws(SyntaxError) -> (StatementKind, SourceLocation) {
        let end = expressionExtent(from: start, indentation: indentation(ofLineAt: start))
        next = end + 1
        var parser = ExpressionParser(source: source, from: start, to: end)
        let declaration = try parser.parseDeclaration()
        return (.declaration(declaration), source.location(parser.previousEnd))
    }

    /// `@Published var NAME = EXPR` / `@Published var NAME: TYPE = EXPR`.
    func parsePublished(at start: Int, lineEnd: Int, next: inout Int) throws(SyntaxError) -> (StatementKind, SourceLocation) {
        var wordEnd = start + 1
        while wordEnd < lineEnd && source[wordEnd].isIdentifierContinue { wordEnd += 1 }
        let attribute = source.text(start + 1, wordEnd)
        guard attribute == "Published" else {
            throw source.error("unknown attribute '@\(attribute)'", at: start, length: max(1, wordEnd - start),
                               hint: "only '@Published var NAME = VALUE' is a statement of a test")
        }
        let end = expressionExtent(from: start, indentation: indentation(ofLineAt: start))
        next = end + 1
        var parser = ExpressionParser(source: source, from: wordEnd, to: end)
        let (name, type, value) = try parser.parsePublishedProperty()
        return (.published(name: name, type: type, value: value), value.range.end)
    }
}

extension ExpressionParser {
    static let declarationKeywords: Set<String> = ["struct", "enum", "typealias", "extension", "indirect"]

    func identifierHere(_ what: String, after keyword: String) throws(SyntaxError) -> Identifier {
        guard let name = current.identifier, !expressionKeywords.contains(name), name != "_" else {
            throw error("expected \(what) after '\(keyword)'", at: current)
        }
        return Identifier(name: name, location: location(current))
    }

    mutating func parseDeclaration() throws(SyntaxError) -> TypeDeclaration {
        var isIndirect = false
        if current.identifier == "indirect" {
            advance()
            isIndirect = true
            guard current.identifier == "enum" else {
                let name = peek().identifier ?? "NAME"
                throw error("only an enum can be 'indirect'", at: current, hint: "write: indirect enum \(name) { … }")
            }
        }
        let keyword = current.identifier ?? ""
        advance()
        let name = try identifierHere("a type name", after: keyword)
        advance()
        if keyword == "typealias" {
            guard atOperator("=") else { throw error("expected '=' after 'typealias \(name.name)'", at: current, hint: "for example: typealias Query = String") }
            advance()
            let type = try parseTypeText(after: "=")
            guard isAtEnd else { throw error("unexpected \(describe(current)) after the type", at: current) }
            return TypeDeclaration(kind: .alias(type), name: name)
        }
        var conformances: [TypeText] = []
        if at(":") {
            advance()
            repeat {
                if at(",") { advance() }
                conformances.append(try parseTypeText(after: conformances.isEmpty ? "':'" : "','"))
            } while at(",")
        }
        let open = tokens[position].start
        guard at("{") else { throw error("expected '{' after '\(keyword) \(name.name)'", at: current) }
        advance()
        var fields: [FieldDeclaration] = []
        var cases: [CaseDeclaration] = []
        var properties: [ComputedProperty] = []
        while true {
            while at(";") { advance() }
            if at("}") { break }
            guard !isAtEnd else { throw error(closeError("}", "\(keyword) body", open), at: current) }
            let memberStart = current
            switch current.identifier {
            case "case" where keyword == "enum":
                cases += try parseCases()
            case "indirect" where keyword == "enum" && peek().identifier == "case":
                advance()
                cases += try parseCases(indirect: true)
            case "let", "var":
                let isVar = current.identifier == "var"
                advance()
                let field = try identifierHere("a property name", after: isVar ? "var" : "let")
                advance()
                var type: TypeText?
                if at(":") {
                    advance()
                    type = try parseTypeText(after: "':'")
                }
                if at("{"), let type {
                    guard isVar else { throw error("a computed property is declared with 'var'", at: memberStart) }
                    properties.append(ComputedProperty(name: field, type: type, body: try parseBlock(after: "the property's type")))
                } else {
                    guard keyword == "struct" else {
                        throw error("\(keyword == "enum" ? "enums" : "extensions") cannot contain stored properties", at: memberStart,
                                    hint: "declare a computed one: var \(field.name): TYPE { … }")
                    }
                    var defaultValue: Expr?
                    if atOperator("=") {
                        advance()
                        guard canStartHere else { throw expectedAfter("=") }
                        defaultValue = try parseExpression()
                    }
                    guard type != nil || defaultValue != nil else {
                        throw error("type annotation missing in pattern", at: current.start == memberStart.end ? memberStart : current,
                                    hint: "write its type: \(isVar ? "var" : "let") \(field.name): TYPE")
                    }
                    fields.append(FieldDeclaration(name: field, type: type, defaultValue: defaultValue, isVariable: isVar))
                }
            case let word?:
                let hint = keyword == "enum" ? "an enum holds 'case' lines and computed 'var NAME: TYPE { … }' properties"
                    : keyword == "struct" ? "a struct holds 'let'/'var' stored properties and computed 'var NAME: TYPE { … }' properties (the memberwise init is made for you)"
                    : "an extension holds computed 'var NAME: TYPE { … }' properties"
                throw error("'\(word)' is not supported in a \(keyword) of a .marble file", at: current, hint: hint)
            default:
                throw error("expected a member declaration, found \(describe(current))", at: current)
            }
            if at(";") || at("}") || isAtEnd || current.newlineBefore { continue }
            throw error("consecutive declarations on a line must be separated by ';'", at: current)
        }
        advance()
        guard isAtEnd else { throw error("unexpected \(describe(current)) after the \(keyword) body", at: current) }
        switch keyword {
        case "struct": return TypeDeclaration(kind: .structure(fields), name: name, conformances: conformances, properties: properties)
        case "enum": return TypeDeclaration(kind: .enumeration(cases), name: name, conformances: conformances, properties: properties, isIndirect: isIndirect)
        default: return TypeDeclaration(kind: .extension, name: name, conformances: conformances, properties: properties)
        }
    }

    /// `case a, b(Int), c = 3` (each `indirect` after `indirect case`).
    mutating func parseCases(indirect: Bool = false) throws(SyntaxError) -> [CaseDeclaration] {
        var cases: [CaseDeclaration] = []
        repeat {
            advance()
            let name = try identifierHere("a case name", after: cases.isEmpty ? "case" : "','")
            advance()
            var payload: [PayloadElement] = []
            if at("("), current.start == previousEnd {
                advance()
                while !at(")") {
                    var label: String?
                    if let word = current.identifier, peek().isPunctuation(":") {
                        label = word == "_" ? nil : word
                        advance()
                        advance()
                    }
                    payload.append(PayloadElement(label: label, type: try parseTypeText(after: "'('")))
                    if at(",") { advance() } else if !at(")") { throw error("expected ',' or ')' in the associated values of '\(name.name)'", at: current) }
                }
                advance()
            }
            var rawValue: Expr?
            if atOperator("=") {
                advance()
                guard canStartHere else { throw expectedAfter("=") }
                rawValue = try parseExpression()
            }
            cases.append(CaseDeclaration(name: name, payload: payload, rawValue: rawValue, isIndirect: indirect))
        } while at(",")
        return cases
    }

    /// A type: tokens up to a `,` `=` `{` `}` `;` `)` or the end of the line, outside brackets.
    mutating func parseTypeText(after what: String) throws(SyntaxError) -> TypeText {
        let first = current
        var nesting = 0
        var last = first
        var consumed = false
        while !isAtEnd {
            if consumed, current.newlineBefore, nesting == 0 { break }
            if nesting == 0 {
                if at(",") || at("{") || at("}") || at(";") || at(")") || atOperator("=") { break }
            }
            if at("(") || at("[") { nesting += 1 }
            if at(")") || at("]") { nesting -= 1 }
            if case .op(let op) = current.kind {
                nesting += op.filter { $0 == "<" }.count - op.filter { $0 == ">" }.count
            }
            if case .genericArguments = current.kind {
                try Self.checkTypeNesting(source, from: current.start, to: current.end, outer: nesting)
            }
            guard nesting <= ExpressionParser.maximumDepth else { throw Self.typeNestedTooDeeply(in: source, at: current.start) }
            last = current
            consumed = true
            advance()
        }
        guard consumed else {
            throw error("expected a type after \(what)", at: current)
        }
        let text = source.text(first.start, last.end).trimmingSpaces
        return TypeText(text: text, location: location(first))
    }

    /// `var NAME (: TYPE)? = EXPR` after `@Published`.
    mutating func parsePublishedProperty() throws(SyntaxError) -> (Identifier, TypeText?, Expr) {
        guard atIdentifier("var") else {
            throw error("expected 'var' after '@Published'", at: current, hint: "for example: @Published var query = \"\"")
        }
        advance()
        let name = try identifierHere("a property name", after: "var")
        advance()
        var type: TypeText?
        if at(":") {
            advance()
            type = try parseTypeText(after: "':'")
        }
        guard atOperator("=") else {
            throw error("a @Published property needs an initial value", at: current,
                        hint: "write: @Published var \(name.name) = VALUE (its publisher '$\(name.name)' starts with it)")
        }
        advance()
        guard canStartHere else { throw expectedAfter("=") }
        let value = try parseExpression()
        guard isAtEnd else { throw error("unexpected \(describe(current)) after the expression", at: current) }
        return (name, type, value)
    }
}

extension ExpressionParser {
    /// A written type nests its brackets and generic arguments at most `maximumDepth` levels,
    /// as an expression does: every reading of a type (its check, an alias's expansion) then
    /// costs time linear in its length.
    static func typeNestedTooDeeply(in source: SourceText, at index: Int) -> SyntaxError {
        source.error("type is nested too deeply (more than \(maximumDepth) levels of brackets and generic arguments)", at: index,
                     hint: "name an inner part: declare a struct for it")
    }

    /// Throws when the brackets of `source[start..<end]`, inside `outer` levels, nest too deeply.
    static func checkTypeNesting(_ source: SourceText, from start: Int, to end: Int, outer: Int) throws(SyntaxError) {
        var nesting = outer
        for index in start..<end {
            let c = source[index]
            if c == "<" || c == "[" || c == "(" {
                nesting += 1
                if nesting > maximumDepth { throw typeNestedTooDeeply(in: source, at: index) }
            } else if c == ">" || c == "]" || c == ")" {
                nesting -= 1
            }
        }
    }

    /// `as TYPE`, `as? TYPE`, `as! TYPE` after `operand`.
    mutating func parseCast(_ operand: Expr, start: Int) throws(SyntaxError) -> Expr {
        let keyword = current
        advance()
        var mode = CastMode.coerce
        if current.start == keyword.end, atOperator("?") || atOperator("!") {
            mode = atOperator("?") ? .conditional : .forced
            advance()
        }
        let type = try parseWrittenType(after: mode.rawValue)
        return make(.cast(operand, type: type, mode: mode), at: keyword.start, from: start)
    }
}
