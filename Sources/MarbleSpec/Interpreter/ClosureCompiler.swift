import MarbleSyntax

/// Compiles the closures that operators call once per value into Swift closures, so a call
/// costs no environment, no name lookups and no string keys. It covers bodies made of one
/// expression over literals, the closure's parameters (`$0`, named), arithmetic, comparisons,
/// logic, `?:`, `??`, `if`/`else`, `throw`, string interpolation and tuple elements (`$0.1`) —
/// the shape of nearly every closure in a marble file. Anything else returns nil and the
/// interpreter runs the closure; both give the same values and the same errors. A long operator,
/// `??`, ternary or `else if` chain compiles to one closure looping over its links, and nesting
/// past `maximumDepth` is left to the interpreter, so no input deepens a compiled call's stack.
enum ClosureCompiler {
    typealias Body = ([Value]) throws(EvalError) -> Value

    /// A compiled closure: binds its arguments as `Interpreter.call` does, then runs the body.
    struct Compiled {
        let run: Body
    }

    static func compile(_ closure: ClosureValue) -> Compiled? {
        guard closure.syntax.body.count == 1, case .expression(let expr) = closure.syntax.body[0] else { return nil }
        let parameters = closure.syntax.parameters
        var slots: [String: Int] = [:]
        for (index, name) in (parameters ?? []).enumerated() where name != "_" { slots[name] = index }
        guard let body = compile(expr, anonymous: parameters == nil, slots: slots, depth: 0) else { return nil }
        let spreadsTuple = closure.usesSecondAnonymousArgument
        let location = closure.location
        if let parameters {
            let count = parameters.count
            return Compiled { (args: [Value]) throws(EvalError) -> Value in
                if args.count == count { return try body(args) }
                if count > 1, args.count == 1, case .tuple(let items) = args[0], items.count == count { return try body(items) }
                if count == 1, args.count > 1 { return try body([.tuple(args)]) }
                throw .fault(SpecDiagnostic("this closure takes \(count) parameter\(count == 1 ? "" : "s") but is called with \(args.count)", at: location))
            }
        }
        return Compiled { (args: [Value]) throws(EvalError) -> Value in
            if spreadsTuple, args.count == 1, case .tuple(let items) = args[0] { return try body(items) }
            return try body(args)
        }
    }

    /// Compiled closures nested deeper than this (each calls the next per value) are left to the
    /// interpreter, whose walk needs no stack per link. Long chains do not nest: they compile to
    /// one loop (`chain`), so only nesting proper (brackets, alternating kinds of chain) counts.
    static let maximumDepth = 64

    /// Chains up to this many links compile as nested closures, each shape with its own fast
    /// path (`$0 % 3 != 0` is two); longer ones to one closure looping over its links.
    static let longestNestedChain = 8

    private static func compile(_ expr: Expr, anonymous: Bool, slots: [String: Int], depth: Int) -> Body? {
        guard depth < maximumDepth else { return nil }
        func sub(_ e: Expr) -> Body? { compile(e, anonymous: anonymous, slots: slots, depth: depth + 1) }
        if let links = longChain(expr) { return chain(links, anonymous: anonymous, slots: slots, depth: depth) }
        let location = expr.location
        switch expr.kind {
        case .int(let n):
            let value = Value.int(n)
            return { _ in value }
        case .double(let d):
            let value = Value.double(d)
            return { _ in value }
        case .bool(let b):
            let value = Value.bool(b)
            return { _ in value }
        case .nilLiteral:
            return { _ in .null }
        case .identifier(let name):
            if anonymous, name.hasPrefix("$"), let index = Int(name.dropFirst()) {
                return { (args: [Value]) throws(EvalError) -> Value in
                    guard index < args.count else {
                        throw .fault(SpecDiagnostic("anonymous closure argument '\(name)' is not available here", at: location,
                                                    hint: "'$0' only exists inside a closure without named parameters"))
                    }
                    return args[index]
                }
            }
            guard let index = slots[name] else { return nil }
            return { args in args[index] }
        case .unary(let op, let operand):
            guard let operand = sub(operand) else { return nil }
            return { (args: [Value]) throws(EvalError) -> Value in try Arithmetic.unary(op, operand(args), at: location) }
        case .binary(let op, let lhsExpr, let rhsExpr):
            guard let lhs = sub(lhsExpr), let rhs = sub(rhsExpr) else { return nil }
            switch op {
            case "&&", "||":
                let stopsOn = op == "||"
                return { (args: [Value]) throws(EvalError) -> Value in
                    let left = try condition(lhs(args), at: lhsExpr.location)
                    if left == stopsOn { return .bool(left) }
                    return .bool(try condition(rhs(args), at: rhsExpr.location))
                }
            case "??":
                return { (args: [Value]) throws(EvalError) -> Value in
                    let left = try lhs(args)
                    return left == .null ? try rhs(args) : left
                }
            default:
                let leftIsLiteral = lhsExpr.isNumberLiteral
                let rightIsLiteral = rhsExpr.isNumberLiteral
                // Decided once here, not per call: comparing operator strings per value is slow.
                let intOperator = IntOperator(rawValue: op)
                let general = { (args: [Value]) throws(EvalError) -> Value in
                    let left = try lhs(args)
                    let right = try rhs(args)
                    // The common case, Int with Int, without the general dispatch.
                    if let intOperator, case .int(let x) = left, case .int(let y) = right, let result = intOperator.apply(x, y) {
                        return result
                    }
                    return try Arithmetic.binary(op, left, right, leftIsLiteral: leftIsLiteral, rightIsLiteral: rightIsLiteral, at: location)
                }
                guard let intOperator else { return general }
                // The shapes of nearly every operator closure (`$0 * 2`, `$0 + $1`, `… != 0`) read
                // their operands directly; anything unusual (not an Int, overflow, a missing
                // argument) takes the general path, which reports it.
                switch (operand(lhsExpr, anonymous: anonymous, slots: slots), operand(rhsExpr, anonymous: anonymous, slots: slots)) {
                case let (.argument(i), .int(k)):
                    return { (args: [Value]) throws(EvalError) -> Value in
                        if i < args.count, case .int(let x) = args[i], let result = intOperator.apply(x, k) { return result }
                        return try general(args)
                    }
                case let (.argument(i), .argument(j)):
                    return { (args: [Value]) throws(EvalError) -> Value in
                        if i < args.count, j < args.count, case .int(let x) = args[i], case .int(let y) = args[j],
                           let result = intOperator.apply(x, y) { return result }
                        return try general(args)
                    }
                case let (.other, .int(k)):
                    return { (args: [Value]) throws(EvalError) -> Value in
                        let left = try lhs(args)
                        if case .int(let x) = left, let result = intOperator.apply(x, k) { return result }
                        return try Arithmetic.binary(op, left, .int(k), leftIsLiteral: leftIsLiteral, rightIsLiteral: true, at: location)
                    }
                default:
                    return general
                }
            }
        case .ternary(let testExpr, let thenExpr, let elseExpr):
            guard let test = sub(testExpr), let then = sub(thenExpr), let otherwise = sub(elseExpr) else { return nil }
            // The condition's location, as the interpreter reports it.
            let testLocation = testExpr.location
            return { (args: [Value]) throws(EvalError) -> Value in
                try condition(test(args), at: testLocation) ? then(args) : otherwise(args)
            }
        case .ifExpression(let ifExpression):
            guard let simple = ifExpression.simpleCondition, let test = sub(simple),
                  let then = block(ifExpression.thenBody, anonymous: anonymous, slots: slots, depth: depth + 1) else { return nil }
            var otherwise: Body = { _ in .tuple([]) }
            if let elseBody = ifExpression.elseBody {
                guard let compiled = block(elseBody, anonymous: anonymous, slots: slots, depth: depth + 1) else { return nil }
                otherwise = compiled
            }
            let testLocation = simple.location
            return { (args: [Value]) throws(EvalError) -> Value in
                try condition(test(args), at: testLocation) ? then(args) : otherwise(args)
            }
        case .throwExpression(let thrown):
            guard let thrown = sub(thrown) else { return nil }
            return { (args: [Value]) throws(EvalError) -> Value in throw .thrown(StreamError(try thrown(args))) }
        case .string(let parts):
            var pieces: [Body] = []
            for part in parts {
                switch part {
                case .literal(let text):
                    let value = Value.string(text)
                    pieces.append { _ in value }
                case .interpolation(let inner):
                    guard let compiled = sub(inner) else { return nil }
                    pieces.append(compiled)
                }
            }
            return { (args: [Value]) throws(EvalError) -> Value in
                var text = ""
                for piece in pieces { text += try piece(args).text }
                return .string(text)
            }
        case .member(let base?, let name):
            // Tuple elements only (`$0.1`); other members go through the interpreter.
            guard let index = Int(name), let base = sub(base) else { return nil }
            return { (args: [Value]) throws(EvalError) -> Value in
                let value = try base(args)
                guard case .tuple(let items) = value, items.indices.contains(index) else {
                    throw .fault(SpecDiagnostic("\(value.typeName) (\(value.literal)) has no element .\(name)", at: location))
                }
                return items[index]
            }
        default:
            return nil
        }
    }

    // MARK: Long chains

    /// A chain of more than `longestNestedChain` links that `compile` met at its top.
    private enum LongChain {
        /// `a + b * c - d …`, any binary operators down the left sides: the operators, outermost first.
        case binary([Expr], innermost: Expr)
        /// `a ?? b ?? …`: the operators, outermost first, then the last right side.
        case coalescing([Expr], last: Expr)
        /// `c ? x : d ? y : …` or `if c { x } else if d { y } …`: the links, outermost first, then
        /// what the last one's `else` is (for an `if` chain, the last `if` itself).
        case conditional([Expr], last: Expr)
    }

    private static func longChain(_ expr: Expr) -> LongChain? {
        switch expr.kind {
        case .binary(let op, _, _):
            let left = expr.spine { if case .binary(_, let lhs, _) = $0.kind { lhs } else { nil } }
            if left.links.count > longestNestedChain { return .binary(left.links, innermost: left.innermost) }
            guard op == "??" else { return nil }
            let right = expr.spine { if case .binary("??", _, let rhs) = $0.kind { rhs } else { nil } }
            return right.links.count > longestNestedChain ? .coalescing(right.links, last: right.innermost) : nil
        case .ternary:
            let chain = expr.spine { if case .ternary(_, _, let otherwise) = $0.kind { otherwise } else { nil } }
            return chain.links.count > longestNestedChain ? .conditional(chain.links, last: chain.innermost) : nil
        case .ifExpression:
            let chain = expr.spine(along: \.elseIfChild)
            return chain.links.count > longestNestedChain ? .conditional(chain.links, last: chain.innermost) : nil
        default:
            return nil
        }
    }

    /// One link of a long operator chain, applied to the value of the chain so far.
    private enum BinaryLink {
        case logical(stopsOn: Bool, rhs: Body, lhsLocation: SourceLocation, rhsLocation: SourceLocation)
        case coalescing(rhs: Body)
        case arithmetic(String, IntOperator?, rhs: Body, leftIsLiteral: Bool, rightIsLiteral: Bool, SourceLocation)
    }

    /// A long chain as one closure running a loop over its links: the same values and errors as
    /// the nested closures of a short one, without a call (and its stack) per link.
    private static func chain(_ chain: LongChain, anonymous: Bool, slots: [String: Int], depth: Int) -> Body? {
        func sub(_ e: Expr) -> Body? { compile(e, anonymous: anonymous, slots: slots, depth: depth + 1) }
        switch chain {
        case .binary(let nodes, let innermost):
            guard let first = sub(innermost) else { return nil }
            var links: [BinaryLink] = []
            links.reserveCapacity(nodes.count)
            for node in nodes.reversed() {
                guard case .binary(let op, let lhs, let rhsExpr) = node.kind, let rhs = sub(rhsExpr) else { return nil }
                switch op {
                case "&&", "||": links.append(.logical(stopsOn: op == "||", rhs: rhs, lhsLocation: lhs.location, rhsLocation: rhsExpr.location))
                case "??": links.append(.coalescing(rhs: rhs))
                default:
                    links.append(.arithmetic(op, IntOperator(rawValue: op), rhs: rhs, leftIsLiteral: lhs.isNumberLiteral,
                                             rightIsLiteral: rhsExpr.isNumberLiteral, node.location))
                }
            }
            return { (args: [Value]) throws(EvalError) -> Value in
                var value = try first(args)
                for link in links {
                    switch link {
                    case .logical(let stopsOn, let rhs, let lhsLocation, let rhsLocation):
                        let left = try condition(value, at: lhsLocation)
                        value = left == stopsOn ? .bool(left) : .bool(try condition(rhs(args), at: rhsLocation))
                    case .coalescing(let rhs):
                        if value == .null { value = try rhs(args) }
                    case .arithmetic(let op, let intOperator, let rhs, let leftIsLiteral, let rightIsLiteral, let location):
                        let right = try rhs(args)
                        if let intOperator, case .int(let x) = value, case .int(let y) = right, let result = intOperator.apply(x, y) {
                            value = result
                        } else {
                            value = try Arithmetic.binary(op, value, right, leftIsLiteral: leftIsLiteral, rightIsLiteral: rightIsLiteral, at: location)
                        }
                    }
                }
                return value
            }
        case .coalescing(let nodes, let lastExpr):
            var lefts: [Body] = []
            lefts.reserveCapacity(nodes.count)
            for node in nodes {
                guard case .binary(_, let lhs, _) = node.kind, let left = sub(lhs) else { return nil }
                lefts.append(left)
            }
            guard let last = sub(lastExpr) else { return nil }
            return { (args: [Value]) throws(EvalError) -> Value in
                for left in lefts {
                    let value = try left(args)
                    if value != .null { return value }
                }
                return try last(args)
            }
        case .conditional(let nodes, let lastExpr):
            var links: [(test: Body, location: SourceLocation, then: Body)] = []
            links.reserveCapacity(nodes.count)
            for node in nodes {
                switch node.kind {
                case .ternary(let testExpr, let then, _):
                    guard let test = sub(testExpr), let then = sub(then) else { return nil }
                    links.append((test, testExpr.location, then))
                case .ifExpression(let ifExpression):
                    guard let simple = ifExpression.simpleCondition, let test = sub(simple),
                          let then = block(ifExpression.thenBody, anonymous: anonymous, slots: slots, depth: depth + 1) else { return nil }
                    links.append((test, simple.location, then))
                default:
                    return nil
                }
            }
            guard let last = sub(lastExpr) else { return nil }
            return { (args: [Value]) throws(EvalError) -> Value in
                for link in links where try condition(link.test(args), at: link.location) { return try link.then(args) }
                return try last(args)
            }
        }
    }

    // MARK: Integer forms

    /// A closure over Ints as Swift arithmetic on `Int`: `$0 * 2`, `$0 % 3 != 0`, `$0 + $1`,
    /// `{ acc, x in acc + x }`, `!(x < 2) && x != 5` — literals, the closure's first two
    /// parameters, `+ - * / %`, comparisons, `&&`, `||`, `!` and unary `-`. Called with Ints, it
    /// gives what the compiled closure gives without a `Value` per step or an argument array;
    /// where that closure would not simply return a value (an overflow, a division by zero), it
    /// gives nil and the caller runs the compiled closure, which reports the error.
    struct IntegerForm {
        /// The closure called with one Int (nil when it cannot be called so).
        let one: ((Int) -> Value?)?
        /// The closure called with two Ints.
        let two: ((Int, Int) -> Value?)?
        /// Whether its results are Bools (else Ints).
        let returnsBool: Bool
    }

    /// The integer form of a closure `compile` compiles, or nil when its body is not Int
    /// arithmetic and logic (or nests deeper than `IntegerTerm.maximumDepth`).
    static func integerForm(_ closure: ClosureValue) -> IntegerForm? {
        guard compile(closure) != nil, closure.syntax.body.count == 1, case .expression(let expr) = closure.syntax.body[0] else { return nil }
        let parameters = closure.syntax.parameters
        var slots: [String: Int] = [:]
        for (index, name) in (parameters ?? []).enumerated() where name != "_" { slots[name] = index }
        var reader = IntegerTerm(anonymous: parameters == nil, slots: slots)
        let result: (Int, Int) -> Value?
        let returnsBool: Bool
        if let term = reader.int(expr) {
            result = { x, y in term(x, y).map(Value.int) }
            returnsBool = false
        } else if let term = reader.bool(expr) {
            result = { x, y in term(x, y).map(Value.bool) }
            returnsBool = true
        } else {
            return nil
        }
        // Called with more or fewer arguments than it names, a closure with parameters reports
        // (through the compiled closure); an anonymous one reads the `$n` it uses.
        let takesOne = parameters.map { $0.count == 1 } ?? (reader.highestArgument < 1)
        let takesTwo = parameters.map { $0.count == 2 } ?? true
        return IntegerForm(one: takesOne ? { x in result(x, 0) } : nil, two: takesTwo ? result : nil, returnsBool: returnsBool)
    }

    /// Reads an expression as a function of two Ints, giving an `Int` or a `Bool` (nil where
    /// Swift would trap or the interpreter report).
    private struct IntegerTerm {
        typealias IntTerm = (Int, Int) -> Int?
        typealias BoolTerm = (Int, Int) -> Bool?
        /// Deeper terms are left to the compiled closure (each level is a call).
        static let maximumDepth = 16

        let anonymous: Bool
        let slots: [String: Int]
        /// The highest argument index read (-1: none).
        var highestArgument = -1
        var depth = 0

        init(anonymous: Bool, slots: [String: Int]) {
            self.anonymous = anonymous
            self.slots = slots
        }

        mutating func argument(_ expr: Expr) -> Int? {
            guard case .identifier(let name) = expr.kind else { return nil }
            let index: Int?
            if anonymous {
                index = name.hasPrefix("$") ? Int(name.dropFirst()) : nil
            } else {
                index = slots[name]
            }
            guard let index, index == 0 || index == 1 else { return nil }
            highestArgument = max(highestArgument, index)
            return index
        }

        mutating func int(_ expr: Expr) -> IntTerm? {
            guard depth < Self.maximumDepth else { return nil }
            depth += 1
            defer { depth -= 1 }
            switch expr.kind {
            case .int(let n):
                return { _, _ in n }
            case .identifier:
                guard let index = argument(expr) else { return nil }
                return index == 0 ? { x, _ in x } : { _, y in y }
            case .unary("-", let operand):
                guard let operand = int(operand) else { return nil }
                return { x, y in operand(x, y).flatMap { $0 == .min ? nil : -$0 } }
            case .binary(let op, let lhsExpr, let rhsExpr):
                guard let intOperator = IntOperator(rawValue: op), intOperator.isArithmetic else { return nil }
                // The shapes of nearly every closure read their operands directly.
                if case .int(let k) = rhsExpr.kind, let index = argument(lhsExpr) {
                    return index == 0 ? { x, _ in intOperator.arithmetic(x, k) } : { _, y in intOperator.arithmetic(y, k) }
                }
                if let i = argument(lhsExpr), let j = argument(rhsExpr) {
                    switch (i, j) {
                    case (0, 1): return { x, y in intOperator.arithmetic(x, y) }
                    case (1, 0): return { x, y in intOperator.arithmetic(y, x) }
                    case (0, _): return { x, _ in intOperator.arithmetic(x, x) }
                    default: return { _, y in intOperator.arithmetic(y, y) }
                    }
                }
                guard let lhs = int(lhsExpr), let rhs = int(rhsExpr) else { return nil }
                return { x, y in
                    guard let left = lhs(x, y), let right = rhs(x, y) else { return nil }
                    return intOperator.arithmetic(left, right)
                }
            default:
                return nil
            }
        }

        mutating func bool(_ expr: Expr) -> BoolTerm? {
            guard depth < Self.maximumDepth else { return nil }
            depth += 1
            defer { depth -= 1 }
            switch expr.kind {
            case .bool(let flag):
                return { _, _ in flag }
            case .unary("!", let operand):
                guard let operand = bool(operand) else { return nil }
                return { x, y in operand(x, y).map(!) }
            case .binary("&&", let lhsExpr, let rhsExpr), .binary("||", let lhsExpr, let rhsExpr):
                guard case .binary(let op, _, _) = expr.kind, let lhs = bool(lhsExpr), let rhs = bool(rhsExpr) else { return nil }
                let stopsOn = op == "||"
                return { x, y in
                    guard let left = lhs(x, y) else { return nil }
                    return left == stopsOn ? left : rhs(x, y)
                }
            case .binary(let op, let lhsExpr, let rhsExpr):
                guard let intOperator = IntOperator(rawValue: op), !intOperator.isArithmetic,
                      let lhs = int(lhsExpr) else { return nil }
                if case .int(let k) = rhsExpr.kind { return { x, y in lhs(x, y).map { intOperator.compare($0, k) } } }
                guard let rhs = int(rhsExpr) else { return nil }
                return { x, y in
                    guard let left = lhs(x, y), let right = rhs(x, y) else { return nil }
                    return intOperator.compare(left, right)
                }
            default:
                return nil
            }
        }
    }

    /// What an operand is, for the direct shapes of a binary operator.
    private enum Operand {
        case argument(Int)
        case int(Int)
        case other
    }

    private static func operand(_ expr: Expr, anonymous: Bool, slots: [String: Int]) -> Operand {
        switch expr.kind {
        case .int(let n): return .int(n)
        case .identifier(let name):
            if anonymous, name.hasPrefix("$"), let index = Int(name.dropFirst()) { return .argument(index) }
            if !anonymous, let index = slots[name] { return .argument(index) }
            return .other
        default: return .other
        }
    }

    /// The binary operators on two Ints, with Swift's results; nil (overflow, division by zero)
    /// leaves the case to `Arithmetic.binary`, which reports it.
    enum IntOperator: String {
        case add = "+", subtract = "-", multiply = "*", remainder = "%", divide = "/"
        case equal = "==", notEqual = "!=", less = "<", lessOrEqual = "<=", greater = ">", greaterOrEqual = ">="

        /// `+ - * / %`, as opposed to the comparisons.
        var isArithmetic: Bool {
            switch self {
            case .add, .subtract, .multiply, .remainder, .divide: return true
            default: return false
            }
        }

        /// An arithmetic operator's result, nil where `apply` gives nil. (Called for comparisons,
        /// nil.)
        @inline(__always)
        func arithmetic(_ x: Int, _ y: Int) -> Int? {
            switch self {
            case .add: let r = x.addingReportingOverflow(y); return r.overflow ? nil : r.partialValue
            case .subtract: let r = x.subtractingReportingOverflow(y); return r.overflow ? nil : r.partialValue
            case .multiply: let r = x.multipliedReportingOverflow(by: y); return r.overflow ? nil : r.partialValue
            case .remainder: return y == 0 || (x == .min && y == -1) ? nil : x % y
            case .divide: return y == 0 || (x == .min && y == -1) ? nil : x / y
            default: return nil
            }
        }

        /// A comparison's result (false for the arithmetic operators, which never ask).
        @inline(__always)
        func compare(_ x: Int, _ y: Int) -> Bool {
            switch self {
            case .equal: return x == y
            case .notEqual: return x != y
            case .less: return x < y
            case .lessOrEqual: return x <= y
            case .greater: return x > y
            case .greaterOrEqual: return x >= y
            default: return false
            }
        }

        func apply(_ x: Int, _ y: Int) -> Value? {
            isArithmetic ? arithmetic(x, y).map(Value.int) : .bool(compare(x, y))
        }
    }

    /// An `if` branch: a single expression.
    private static func block(_ statements: [ClosureStatement], anonymous: Bool, slots: [String: Int], depth: Int) -> Body? {
        guard statements.count == 1, case .expression(let expr) = statements[0] else { return nil }
        return compile(expr, anonymous: anonymous, slots: slots, depth: depth)
    }

    private static func condition(_ value: Value, at location: SourceLocation) throws(EvalError) -> Bool {
        guard case .bool(let flag) = value else {
            throw .fault(SpecDiagnostic("a condition must be a Bool, not \(value.typeName) (\(value.literal))", at: location))
        }
        return flag
    }
}
