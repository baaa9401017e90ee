import MarbleSyntax

/// Evaluating chains in a loop: the file's text decides how long an operator chain
/// (`$0 + 1 + 1 …`, `a ?? b ?? …`, `a && b && …`), a ternary or `else if` chain or a postfix chain
/// (`a.map { $0 }.map { $0 } …`, `x.f().g()`, `d[k]!`, `a?.b.c`) is, so evaluating one link by
/// recursing into the next would let the file exhaust the stack. Here the walk goes down a chain
/// pushing what each link still has to do once its first operand is known (a frame), evaluates
/// the innermost operand, then pops the frames outward; an operand that ends a link's work (the
/// right side of `??`, a ternary's branch, an `else if`) is walked into the same way. Only the
/// operands off the chain (arguments, an index, a `then` body, brackets) recurse, and the parser
/// bounds their nesting; `Interpreter.maximumDepth` guards trees built some other way.
///
/// Values, errors, their locations and the order of evaluation are those of a recursive walk:
/// a call evaluates its arguments before its receiver, `&&`, `||` and `??` stop early, a
/// ternary and an `if` evaluate one side.
extension Interpreter {
    /// What a link of a chain still has to do once the operand walked into is evaluated.
    enum ChainFrame {
        /// A binary operator waiting for its left side.
        case binaryLeft(Expr, Environment)
        /// An arithmetic or comparison operator waiting for its right side.
        case binaryRight(Expr, left: Value)
        /// `&&` or `||` waiting for its right side (a condition).
        case logicalRight(SourceLocation)
        /// `??` waiting for its right side.
        case coalesceRight(SourceLocation)
        /// `.now() + …` waiting for the duration.
        case deadline(SourceLocation)
        /// A ternary waiting for its condition.
        case ternary(Expr, Environment)
        /// An `if` with one Boolean condition waiting for it.
        case ifCondition(IfExpression, SourceLocation, Environment)
        /// `.name` waiting for its base.
        case member(String, SourceLocation)
        /// `base.name(arguments)` waiting for its base (the arguments are evaluated first).
        case methodCall(String, SourceLocation, [CallArgument], CodeText)
        /// `callee(arguments)` waiting for its callee.
        case call(SourceLocation, [CallArgument], CodeText)
        /// A prefix operator waiting for its operand.
        case unary(String, operand: SourceLocation, SourceLocation)
        /// `throw` waiting for the error.
        case throwing(SourceLocation)
        /// `base[index]` waiting for its base.
        case subscriptBase(Expr, Environment)
        case forceUnwrap(SourceLocation)
        case bindOptional
        /// A chain holding `?`: a `nil` found by one of its `?` makes it `nil`.
        case optionalChain
        /// `as`, `as?`, `as!` waiting for the value.
        case cast(operand: Expr, TypeText, CastMode)
    }

    /// The next step of the walk: evaluate an expression, or give a value to the frame on top.
    private enum ChainStep {
        case evaluate(Expr, Environment)
        case deliver(Runtime)
    }

    /// Evaluates an expression of a chain kind (see `Interpreter.evaluate`) in a loop over its links.
    func evaluateChain(_ root: Expr, in rootEnvironment: Environment) throws(EvalError) -> Runtime {
        // One stack for the whole interpreter: a walk started inside this one (an argument, a
        // closure called by a link) pushes above `base` and is gone before this one goes on.
        let base = chainFrames.count
        var step = ChainStep.evaluate(root, rootEnvironment)
        while true {
            do throws(EvalError) {
                switch step {
                case .evaluate(let expr, let env):
                    step = try descend(expr, in: env)
                case .deliver(let value):
                    guard chainFrames.count > base, let frame = chainFrames.popLast() else { return value }
                    step = try apply(frame, to: value)
                }
            } catch .nilInChain {
                // The innermost chain holding a `?` of this walk gives nil; without one, the
                // chain is an enclosing walk's.
                guard let index = chainFrames[base...].lastIndex(where: { if case .optionalChain = $0 { true } else { false } }) else {
                    chainFrames.removeSubrange(base...)
                    throw .nilInChain
                }
                chainFrames.removeSubrange(index...)
                step = .deliver(.value(.null))
            } catch {
                chainFrames.removeSubrange(base...)
                throw error
            }
        }
    }

    /// One node walked into: a frame pushed and its first operand next, or its value when it is
    /// not a link of a chain.
    private func descend(_ expr: Expr, in env: Environment) throws(EvalError) -> ChainStep {
        switch expr.kind {
        case .binary("+", let lhs, let rhs) where lhs.isNowCall:
            // `.now() + .milliseconds(300)`: a deadline on the virtual clock.
            chainFrames.append(.deadline(rhs.location))
            return .evaluate(rhs, env)
        case .binary(_, let lhs, _):
            chainFrames.append(.binaryLeft(expr, env))
            return .evaluate(lhs, env)
        case .ternary(let test, _, _):
            chainFrames.append(.ternary(expr, env))
            return .evaluate(test, env)
        case .ifExpression(let ifExpression):
            if let test = ifExpression.simpleCondition {
                chainFrames.append(.ifCondition(ifExpression, test.location, env))
                return .evaluate(test, env)
            }
            let scope = Environment(parent: env)
            if try holds(ifExpression.conditions, in: scope) {
                return .deliver(try execute(ifExpression.thenBody, in: scope) ?? .value(.tuple([])))
            }
            return try otherwise(ifExpression, in: env)
        case .member(let base?, let name):
            chainFrames.append(.member(name, expr.location))
            return .evaluate(base, env)
        case .call(let callee, let arguments):
            if case .genericSpecialization = callee.kind, !types.isEmpty { try checkContextualMembers(callee, arguments) }
            let args = try arguments.map { (argument) throws(EvalError) -> CallArgument in
                CallArgument(label: argument.label, value: try evaluate(argument.value, in: env), location: argument.location, syntax: argument.value)
            }
            let range = expr.range
            let text = CodeText { [lines] in Interpreter.text(of: range, in: lines) }
            switch callee.kind {
            case .member(nil, let name):
                return .deliver(try Builtins.implicitMemberCall(name, args, at: callee.location, interpreter: self))
            case .member(let base?, let name):
                if MutatingMethods.names.contains(name) || types.mutatingMethodNames.contains(name), let path = base.assignmentPath,
                   let result = try callMutating(name, on: path, args, at: callee.location, in: env) {
                    return .deliver(result)
                }
                chainFrames.append(.methodCall(name, callee.location, args, text))
                return .evaluate(base, env)
            case .array(let elements) where elements.count == 1 && arguments.isEmpty:
                // `[User]()`: an empty array of a type.
                if case .type = try evaluate(elements[0], in: env) { return .deliver(.value(.array([]))) }
                return .deliver(try call(evaluate(callee, in: env), args, at: callee.location, text: text))
            default:
                chainFrames.append(.call(callee.location, args, text))
                return .evaluate(callee, env)
            }
        case .genericSpecialization(let base, _):
            return .evaluate(base, env)
        case .unary(let op, let operand):
            chainFrames.append(.unary(op, operand: operand.location, expr.location))
            return .evaluate(operand, env)
        case .throwExpression(let thrown):
            chainFrames.append(.throwing(thrown.location))
            return .evaluate(thrown, env)
        case .subscriptAccess(let base, _, _):
            chainFrames.append(.subscriptBase(expr, env))
            return .evaluate(base, env)
        case .forceUnwrap(let operand):
            chainFrames.append(.forceUnwrap(expr.location))
            return .evaluate(operand, env)
        case .bindOptional(let operand):
            chainFrames.append(.bindOptional)
            return .evaluate(operand, env)
        case .optionalChain(let chain):
            chainFrames.append(.optionalChain)
            return .evaluate(chain, env)
        case .cast(let operand, let type, let mode):
            chainFrames.append(.cast(operand: operand, type, mode))
            return .evaluate(operand, env)
        default:
            // Not a link: `evaluate` gives its value without coming back here.
            return .deliver(try evaluate(expr, in: env))
        }
    }

    /// The `else` of an `if` whose conditions failed: an `else if` is walked into.
    private func otherwise(_ ifExpression: IfExpression, in env: Environment) throws(EvalError) -> ChainStep {
        guard let elseBody = ifExpression.elseBody else { return .deliver(.value(.tuple([]))) }
        if elseBody.count == 1, case .expression(let next) = elseBody[0], case .ifExpression = next.kind {
            // In `env` itself, not in a scope of its own as other `else` bodies: a lone `if` binds
            // nothing there (its conditions bind in its own scope), and a scope per `else if` would
            // make a long chain's lookups climb them all.
            return .evaluate(next, env)
        }
        return .deliver(try execute(elseBody, in: Environment(parent: env)) ?? .value(.tuple([])))
    }

    /// A link's work once the operand it waited for is `value`.
    private func apply(_ frame: ChainFrame, to value: Runtime) throws(EvalError) -> ChainStep {
        switch frame {
        case .binaryLeft(let expr, let env):
            guard case .binary(let op, let lhs, let rhs) = expr.kind else { return .deliver(value) }
            switch op {
            case "&&", "||":
                let left = try conditionValue(value, at: lhs.location)
                if op == "&&" ? !left : left { return .deliver(.value(.bool(left))) }
                chainFrames.append(.logicalRight(rhs.location))
            case "??":
                let left = try valueOf(value, at: lhs.location, purpose: "the left side of '??'")
                if left != .null { return .deliver(.value(left)) }
                chainFrames.append(.coalesceRight(rhs.location))
            default:
                let left = try valueOf(value, at: lhs.location, purpose: "the left side of '\(op)'")
                chainFrames.append(.binaryRight(expr, left: left))
            }
            return .evaluate(rhs, env)
        case .binaryRight(let expr, let left):
            guard case .binary(let op, let lhs, let rhs) = expr.kind else { return .deliver(value) }
            let right = try valueOf(value, at: rhs.location, purpose: "the right side of '\(op)'")
            return .deliver(.value(try Arithmetic.binary(op, left, right, leftIsLiteral: lhs.isNumberLiteral, rightIsLiteral: rhs.isNumberLiteral,
                                                         at: expr.location)))
        case .logicalRight(let location):
            return .deliver(.value(.bool(try conditionValue(value, at: location))))
        case .coalesceRight(let location):
            return .deliver(.value(try valueOf(value, at: location, purpose: "the right side of '??'")))
        case .deadline(let location):
            guard case .duration(let frames) = value else {
                if case .value(let number) = value, number.isNumber {
                    let refusal = TimeLiterals.deadlineNumber(written: number.literal, frameNanoseconds: frameNanoseconds)
                    throw fail(refusal.message, at: location, hint: refusal.hint)
                }
                throw fail("a deadline is .now() + a duration such as .milliseconds(300)", at: location)
            }
            return .deliver(.member("deadline", [.value(.int(scheduler.currentFrame.addingReportingOverflow(frames).partialValue))]))
        case .ternary(let expr, let env):
            guard case .ternary(let test, let then, let otherwise) = expr.kind else { return .deliver(value) }
            return .evaluate(try conditionValue(value, at: test.location) ? then : otherwise, env)
        case .ifCondition(let ifExpression, let location, let env):
            if try conditionValue(value, at: location) {
                return .deliver(try execute(ifExpression.thenBody, in: Environment(parent: env)) ?? .value(.tuple([])))
            }
            return try otherwise(ifExpression, in: env)
        case .member(let name, let location):
            return .deliver(try member(name, of: value, at: location))
        case .methodCall(let name, let location, let args, let text):
            return .deliver(try callMethod(name, of: value, args, at: location, text: text))
        case .call(let location, let args, let text):
            return .deliver(try call(value, args, at: location, text: text))
        case .unary(let op, let operandLocation, let location):
            let operand = try valueOf(value, at: operandLocation, purpose: "the operand of '\(op)'")
            return .deliver(.value(try Arithmetic.unary(op, operand, at: location)))
        case .throwing(let location):
            throw .thrown(StreamError(try valueOf(value, at: location, purpose: "a thrown error")))
        case .subscriptBase(let expr, let env):
            guard case .subscriptAccess(let base, let index, let fallback) = expr.kind else { return .deliver(value) }
            let container = try valueOf(value, at: base.location, purpose: "a subscripted value")
            let key = try valueOf(evaluate(index, in: env), at: index.location, purpose: "a subscript index")
            let found = try element(of: container, at: key, location: expr.location)
            if found == .null, let fallback { return .evaluate(fallback, env) }
            return .deliver(.value(found))
        case .forceUnwrap(let location):
            if case .value(.null) = value {
                throw fail("unexpectedly found nil while unwrapping an Optional value", at: location,
                           hint: "use 'if let', 'guard let' or '??' where the value can be nil")
            }
            return .deliver(value)
        case .bindOptional:
            if case .value(.null) = value { throw .nilInChain }
            return .deliver(value)
        case .optionalChain:
            return .deliver(value)
        case .cast(let operand, let type, let mode):
            return .deliver(try cast(value, of: operand, to: type, mode: mode))
        }
    }

    /// `receiver.name(args)`: an operator on a stream, a case or a member of a type, a method of a value.
    private func callMethod(_ name: String, of receiver: Runtime, _ args: [CallArgument], at location: SourceLocation,
                            text: CodeText) throws(EvalError) -> Runtime {
        switch receiver {
        case .stream(let stream):
            return try Catalogue.applyOperator(name, to: stream, args, at: location, text: text, interpreter: self)
        case .type(let typeName):
            if let value = try EnumCases.construct(typeName, name, args, at: location, interpreter: self) { return value }
            if let made = try userTypeCall(typeName, member: name, args, at: location) { return made }
            let qualified = typeName + "." + name
            if Catalogue.isConstructor(qualified) {
                return try Catalogue.construct(qualified, args, at: location, text: text, interpreter: self)
            }
            return try call(member(name, of: receiver, at: location), args, at: location, text: text)
        case .value(let value):
            // `first(where:)` before the property `first` (a string's and a set's walk their elements).
            if value.isString || value.setElements != nil, Builtins.walksCharacters(name, args.map { ($0.label, $0.isClosure) }) {
                return try Builtins.callFunction(name, receiver: receiver, args, at: location, interpreter: self)
            }
            if let result = try AppMembers.call(name, on: value, args, at: location, interpreter: self) { return result }
            return try call(member(name, of: receiver, at: location), args, at: location, text: text)
        default:
            return try call(member(name, of: receiver, at: location), args, at: location, text: text)
        }
    }
}
