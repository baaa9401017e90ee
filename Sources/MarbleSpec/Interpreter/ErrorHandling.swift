import MarbleSyntax

/// Running `do { … } catch …`, `try?` and `try!`. An error thrown in a `do` body (a `throw`, a
/// throwing call, `Result.get()`) goes to the first `catch` whose pattern matches it; an error
/// no clause matches goes on, as in Swift. A limit or a runtime error of the file is no Swift
/// error: no `catch` and no `try?` stops it.
extension Interpreter {
    func executeDo(_ statement: DoStatement, in env: Environment) throws(EvalError) {
        do throws(EvalError) {
            _ = try execute(statement.body, in: Environment(parent: env))
        } catch .thrown(let error) {
            for clause in statement.clauses {
                let scope = Environment(parent: env)
                if let pattern = clause.pattern {
                    guard try matches(pattern, error.value, binding: scope) else { continue }
                } else {
                    scope["error"] = .value(error.value)
                }
                if let guardExpression = clause.guardExpression, try !condition(guardExpression, in: scope) { continue }
                _ = try execute(clause.body, in: scope)
                return
            }
            throw .thrown(error)
        }
    }

    /// `try? operand` (nil when it throws) or `try! operand` (a runtime error then).
    func evaluateTry(_ operand: Expr, _ mode: TryMode, at location: SourceLocation, in env: Environment) throws(EvalError) -> Runtime {
        do throws(EvalError) {
            return try evaluate(operand, in: env)
        } catch .thrown(let error) {
            guard mode == .forced else { return .value(.null) }
            throw fail("'try!' expression unexpectedly raised an error: \(error.value.literal)", at: location,
                       hint: "use 'try?' to get nil instead, or catch it: do { … } catch { … }")
        }
    }
}
