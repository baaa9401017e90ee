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
        /// A function of the file or the test: `func NAME(…) -> TYPE { … }`.
        case function(FunctionDeclaration)
    }

    public var kind: Kind
    public var name: Identifier
    /// After the `:` (`Equatable`, `Error`, an enum's raw type first).
    public var conformances: [TypeText]
    /// `var NAME: TYPE { … }` members.
    public var properties: [ComputedProperty]
    /// `func`, `static func`, `mutating func` and `init` members.
    public var functions: [FunctionDeclaration] = []
    /// `static let NAME = VALUE` members.
    public var statics: [StaticProperty] = []
    /// Types declared inside this one (`struct Outer { enum Kind { … } }`), named `Outer.Kind`.
    public var nested: [TypeDeclaration] = []
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
        case .function: "func"
        }
    }
}

/// `func NAME(LABEL NAME: TYPE = DEFAULT, …) throws -> TYPE { … }`, a member's `static func` and
/// `mutating func`, and `init(…) { … }` (named `init`).
public struct FunctionDeclaration: Sendable {
    public var name: Identifier
    public var parameters: [FunctionParameter]
    /// After `->`; nil for none (`Void`).
    public var result: TypeText?
    public var body: [ClosureStatement]
    public var isStatic = false
    public var isMutating = false
    public var isThrowing = false

    public init(name: Identifier, parameters: [FunctionParameter], result: TypeText?, body: [ClosureStatement]) {
        self.name = name
        self.parameters = parameters
        self.result = result
        self.body = body
    }

    /// `name(label:_:)`, as Swift names a function in messages.
    public var signature: String {
        "\(name.name)(\(parameters.map { ($0.label ?? "_") + ":" }.joined()))"
    }
}

/// One parameter of a `func`: `_ x: Int`, `by step: Int = 1`, `count: Int` (label and name alike).
public struct FunctionParameter: Sendable {
    /// The argument label; nil for `_`.
    public var label: String?
    public var name: String
    public var type: TypeText
    public var defaultValue: Expr?

    public init(label: String?, name: String, type: TypeText, defaultValue: Expr?) {
        self.label = label
        self.name = name
        self.type = type
        self.defaultValue = defaultValue
    }
}

/// `static let NAME: TYPE = VALUE` in a type: a value of the type itself (`User.guest`).
public struct StaticProperty: Sendable {
    public var name: Identifier
    public var type: TypeText?
    public var value: Expr

    public init(name: Identifier, type: TypeText?, value: Expr) {
        self.name = name
        self.type = type
        self.value = value
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
    static let declarationKeywords: Set<String> = ["struct", "enum", "typealias", "extension", "indirect", "func"]

    func identifierHere(_ what: String, after keyword: String) throws(SyntaxError) -> Identifier {
        guard let name = current.identifier, !expressionKeywords.contains(name), name != "_" else {
            throw error("expected \(what) after '\(keyword)'", at: current)
        }
        return Identifier(name: name, location: location(current))
    }

    /// A declaration from its keyword to its end; a `nested` one (in a type's body) ends at its `}`.
    mutating func parseDeclaration(nested: Bool = false) throws(SyntaxError) -> TypeDeclaration {
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
        if keyword == "func" {
            let function = try parseFunction()
            guard isAtEnd else { throw error("unexpected \(describe(current)) after the function's body", at: current) }
            return TypeDeclaration(kind: .function(function), name: function.name)
        }
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
        var functions: [FunctionDeclaration] = []
        var statics: [StaticProperty] = []
        var nestedTypes: [TypeDeclaration] = []
        while true {
            while at(";") { advance() }
            if at("}") { break }
            guard !isAtEnd else { throw error(closeError("}", "\(keyword) body", open), at: current) }
            let memberStart = current
            switch current.identifier {
            case "case" where keyword == "enum":
                cases += try parseCases()
            case "static" where peek().identifier == "let":
                    advance()
                    advance()
                    let field = try identifierHere("a property name", after: "static let")
                    advance()
                    var type: TypeText?
                    if at(":") {
                        advance()
                        type = try parseTypeText(after: "':'")
                    }
                    guard atOperator("=") else {
                        throw error("a 'static let' needs a value", at: current, hint: "write: static let \(field.name) = VALUE")
                    }
                    advance()
                    guard canStartHere else { throw expectedAfter("=") }
                    statics.append(StaticProperty(name: field, type: type, value: try parseExpression()))
            case "func", "mutating", "init":
                functions.append(try parseFunction())
            case "static" where ["func", "mutating"].contains(peek().identifier ?? ""):
                functions.append(try parseFunction())
            case "indirect" where keyword == "enum" && peek().identifier == "case":
                advance()
                cases += try parseCases(indirect: true)
            case "struct", "enum", "indirect":
                // A nested type (`indirect` before anything but `enum` is refused there).
                try enter()
                defer { depth -= 1 }
                nestedTypes.append(try parseDeclaration(nested: true))
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
                let members = "computed 'var NAME: TYPE { … }' properties, 'func', 'static let', 'static func', 'init' and nested 'struct'/'enum' declarations"
                let hint = keyword == "enum" ? "an enum holds 'case' lines, \(members)"
                    : keyword == "struct" ? "a struct holds 'let'/'var' stored properties, \(members)"
                    : "an extension holds \(members)"
                if word == "static", peek().identifier == "var" {
                    throw error("'static var' is not supported in a \(keyword) of a .marble file", at: current,
                                hint: "a static var is state shared by every test: write 'static let' for a constant")
                }
                throw error("'\(word)' is not supported in a \(keyword) of a .marble file", at: current, hint: hint)
            default:
                throw error("expected a member declaration, found \(describe(current))", at: current)
            }
            if at(";") || at("}") || isAtEnd || current.newlineBefore { continue }
            throw error("consecutive declarations on a line must be separated by ';'", at: current)
        }
        advance()
        if !nested {
            guard isAtEnd else { throw error("unexpected \(describe(current)) after the \(keyword) body", at: current) }
        }
        var declaration = switch keyword {
        case "struct": TypeDeclaration(kind: .structure(fields), name: name, conformances: conformances, properties: properties)
        case "enum": TypeDeclaration(kind: .enumeration(cases), name: name, conformances: conformances, properties: properties, isIndirect: isIndirect)
        default: TypeDeclaration(kind: .extension, name: name, conformances: conformances, properties: properties)
        }
        declaration.functions = functions
        declaration.statics = statics
        declaration.nested = nestedTypes
        return declaration
    }

    /// `func NAME(…) throws -> TYPE { … }` with `static`/`mutating` before it, or `init(…) { … }`,
    /// from the first word.
    mutating func parseFunction() throws(SyntaxError) -> FunctionDeclaration {
        var isStatic = false, isMutating = false
        while let word = current.identifier, word == "static" || word == "mutating" {
            if word == "static" { isStatic = true } else { isMutating = true }
            advance()
        }
        let name: Identifier
        if atIdentifier("init") {
            name = Identifier(name: "init", location: location(current))
            advance()
            if atOperator("?") || atOperator("!") {
                throw error("failable initializers are not supported in a .marble file yet", at: current,
                            hint: "write a static func that returns an optional: static func make(…) -> \("Self")?")
            }
        } else {
            guard atIdentifier("func") else { throw error("expected 'func' after '\(isStatic ? "static" : "mutating")'", at: current) }
            advance()
            name = try identifierHere("a function name", after: "func")
            advance()
        }
        if at("<") || atOperator("<") {
            throw error("generic functions are not supported in a .marble file yet", at: current,
                        hint: "write the function for the type it is used with: func \(name.name)(_ value: Int) …")
        }
        guard at("(") else { throw error("expected '(' after '\(name.name)'", at: current, hint: "for example: func \(name.name)(_ value: Int) -> Int { … }") }
        let open = tokens[position].start
        advance()
        var parameters: [FunctionParameter] = []
        while !at(")") {
            guard !isAtEnd else { throw error(closeError(")", "parameter list", open), at: current) }
            guard let first = current.identifier, !expressionKeywords.contains(first) || first == "_" else {
                throw error("expected a parameter name", at: current, hint: "for example: _ value: Int, or label name: Int")
            }
            advance()
            var label: String? = first == "_" ? nil : first
            var parameterName = first
            if let second = current.identifier, !at(":") {
                parameterName = second
                advance()
            } else if first == "_" {
                throw error("expected a parameter name after '_'", at: current, hint: "for example: _ value: Int")
            }
            if name.name == "init", first == parameterName { label = first }
            guard at(":") else { throw error("expected ':' and a type after the parameter '\(parameterName)'", at: current, hint: "for example: \(parameterName): Int") }
            advance()
            if atIdentifier("inout") {
                throw error("'inout' parameters are not supported in a .marble file yet", at: current,
                            hint: "return the changed value instead: func \(name.name)(…) -> TYPE")
            }
            let typeToken = current
            let type = try parseTypeText(after: "':'")
            if type.text.hasSuffix("...") {
                throw error("variadic parameters are not supported in a .marble file yet", at: typeToken,
                            hint: "take an array: \(parameterName): [\(type.text.dropLast(3))]")
            }
            var defaultValue: Expr?
            if atOperator("=") {
                advance()
                guard canStartHere else { throw expectedAfter("=") }
                defaultValue = try parseExpression()
            }
            parameters.append(FunctionParameter(label: label, name: parameterName, type: type, defaultValue: defaultValue))
            if at(",") { advance() } else if !at(")") { throw error("expected ',' or ')' in the parameters of '\(name.name)'", at: current) }
        }
        advance()
        var isThrowing = false
        if atIdentifier("throws") || atIdentifier("rethrows") {
            isThrowing = true
            advance()
        }
        var result: TypeText?
        if at("->") {
            advance()
            result = try parseTypeText(after: "'->'")
            if ["Void", "()"].contains(result?.text ?? "") { result = nil }
        }
        if atIdentifier("where") {
            throw error("generic functions are not supported in a .marble file yet", at: current)
        }
        let savedTargets = jumpTargets, savedResult = resultType
        jumpTargets = JumpTargets()
        resultType = result
        defer { jumpTargets = savedTargets; resultType = savedResult }
        var body = try parseBlock(after: "the function's signature")
        // A body of one expression returns it (`func double(_ x: Int) -> Int { x * 2 }`).
        if body.count == 1, case .expression(let expr) = body[0] {
            switch expr.kind {
            case .ifExpression, .switchExpression: break
            default: body[0] = .expression(annotated(expr, result, mode: .result))
            }
        }
        var function = FunctionDeclaration(name: name, parameters: parameters, result: result, body: body)
        function.isStatic = isStatic
        function.isMutating = isMutating
        function.isThrowing = isThrowing
        return function
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
    /// Refuses a type nested past `maximumDepth` at the current token of a written type: the
    /// brackets open around it (`outer`) and, for generic arguments, the brackets inside them.
    func checkTypeNestingHere(outer: Int) throws(SyntaxError) {
        if case .genericArguments = current.kind {
            try Self.checkTypeNesting(source, from: current.start, to: current.end, outer: outer)
        }
        guard outer <= ExpressionParser.maximumDepth else { throw Self.typeNestedTooDeeply(in: source, at: current.start) }
    }

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
            try checkTypeNestingHere(outer: nesting)
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

extension FunctionDeclaration {
    /// Whether every way through the body ends in `return` or `throw`, or the body is one
    /// expression (its value is the result), as Swift requires of a function with a result.
    public var alwaysReturns: Bool {
        if body.count == 1, case .expression(let expr) = body[0] {
            if case .ifExpression(let branch) = expr.kind { return Self.exits(body) || branch.elseBody != nil }
            return true
        }
        return Self.exits(body)
    }

    private static func exits(_ statements: [ClosureStatement]) -> Bool {
        guard let last = statements.last else { return false }
        switch last {
        case .returnStatement:
            return true
        case .expression(let expr):
            switch expr.kind {
            case .throwExpression: return true
            case .ifExpression(let branch): return exits(branch.thenBody) && branch.elseBody.map(exits) == true
            case .switchExpression(let choice): return choice.cases.allSatisfy { exits($0.body) }
            default: return false
            }
        case .doCatch(let statement):
            return exits(statement.body) && statement.clauses.allSatisfy { exits($0.body) }
        case .whileLoop(let loop):
            // `while true { … }` ends only by a `return` or a `throw`.
            guard loop.conditions.count == 1, case .boolean(let condition) = loop.conditions[0], case .bool(true) = condition.kind else { return false }
            return true
        default:
            return false
        }
    }
}
