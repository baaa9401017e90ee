import Testing
@testable import MarbleSyntax

/// The syntax of the statements, patterns and postfix forms app closures use: how each parses.
@Suite struct StatementSyntaxTests {
    @Test(arguments: [
        // Dictionaries and subscripts.
        ("[\"a\": 1, \"b\": 2]", #"[dict "a":1 "b":2]"#),
        ("[:]", "[dict]"),
        ("[String: Int]()", "(call [dict String:Int])"),
        ("d[k, default: 0]", "(subscript d k default:0)"),
        ("xs[0][1]", "(subscript (subscript xs 0) 1)"),
        // `!`, `?` chains (the whole chain is wrapped), and `!` still a prefix operator.
        ("a!.count", "(. (! a) count)"),
        ("a?.b.c", "(?chain (. (. (?bind a) b) c))"),
        ("a?[0] ?? 1", "(?? (?chain (subscript (?bind a) 0)) 1)"),
        ("!a", "(! a)"),
        ("a ? b : c", "(? a b c)"),
        // `.init` references and calls.
        ("Int.init", "(closure (call Int $0))"),
        ("Int.init(x)", "(call Int x)"),
        // if with several conditions, shorthand `if let`, `if case`.
        ("if let x = a, x > 1 { x }", "(if (conditions (iflet x a) (> x 1)) (then x))"),
        ("if let a { a }", "(if (conditions (iflet a a)) (then a))"),
        ("if case .some(let v) = a { v }", "(if (conditions (ifcase .some(let:v) a)) (then v))"),
        // switch and its patterns.
        ("switch x { case 1, 2: a; case 3...5 where x > 3: b; default: c }",
         "(switch x (case 1 2: a) (case (... 3 5) where (> x 3): b) (default: c))"),
        ("switch p { case (let a, 0): a; case let (a, b): b }", "(switch p (case (ptuple let:a 0): a) (case (ptuple let:a let:b): b))"),
        ("switch r { case .success(let v): v; case Result.failure(_): 0 }", "(switch r (case .success(let:v): v) (case Result.failure(_): 0))"),
        ("switch n { case Int.min..<0: a; default: b }", "(switch n (case (..< (. Int min) 0): a) (default: b))"),
        ("switch o { case let v?: v; case nil: 0 }", "(switch o (case let:v?: v) (case nil: 0))"),
        ("switch o { case .none: break }", "(switch o (case .none: (break)))"),
        // Statements in closures.
        ("{ var n = 0; n += 1; return n }", "(closure (var n 0) (+= n 1) (return n))"),
        ("{ d[k] = nil }", "(closure (= (subscript d k) nil))"),
        ("{ guard let v = $0 else { return 0 }; v }", "(closure (guard (iflet v $0) (else (return 0))) v)"),
        ("{ guard $0 > 0 else { if a { return 1 } else { throw e } }; 2 }",
         "(closure (guard (> $0 0) (else (if a (then (return 1)) (else (throw e))))) 2)"),
        // Loops, break and continue, pattern bindings, annotations.
        ("{ for i in 0..<n where i > 1 { if i == 3 { continue }; break } }",
         "(closure (for let:i (..< 0 n) (where (> i 1)) (do (if (== i 3) (then (continue))) (break))))"),
        ("{ for (k, v) in d { } }", "(closure (for (ptuple let:k let:v) d (do)))"),
        ("{ for case let x? in xs { x } }", "(closure (for case let:x? xs (do x)))"),
        ("{ for _ in xs { } }", "(closure (for _ xs (do)))"),
        ("{ while let x = f(), x > 0 { } }", "(closure (while (iflet x (call f)) (> x 0) (do)))"),
        ("{ repeat { n += 1 } while n < 3 }", "(closure (repeat (< n 3) (do (+= n 1))))"),
        ("{ let (a, b) = p; var (c, _) = p }", "(closure (let (ptuple let:a let:b) p) (var (ptuple let:c _) p))"),
        ("{ var xs: [Double] = [] }", "(closure (var xs (: [] [Double])))"),
        // Assignments to paths into a var; operators as functions.
        ("{ n.items[0].count += 1; n.tags[k, default: []] = [] }",
         "(closure (+= (. (subscript (. n items) 0) count) 1) (= (subscript (. n tags) k default:[]) []))"),
        ("xs.reduce(0, +)", "(call (. xs reduce) 0 (closure (+ $0 $1)))"),
        ("xs.sorted(by: >=)", "(call (. xs sorted) by:(closure (>= $0 $1)))"),
        // do / catch with patterns, try? and try!.
        ("{ do { f() } catch APIError.offline { 1 } catch let e as APIError where e != x { 2 } catch is String { 3 } catch { 4 } }",
         "(closure (do (call f) (catch APIError.offline 1) (catch let:e as APIError where (!= e x) 2) (catch is:String 3) (catch 4)))"),
        ("try? a ?? b", "(try? (?? a b))"),
        ("(try! f()) + 1", "(+ (try! (call f)) 1)"),
        ("switch v { case let n as Int: n; case is String: 0; default: 1 }", "(switch v (case let:n as Int: n) (case is:String: 0) (default: 1))"),
        ("{ for x in xs { switch x { case 1: break; default: continue } } }",
         "(closure (for let:x xs (do (switch x (case 1: (break)) (default: (continue))))))"),
    ])
    func parses(source: String, expected: String) {
        #expect(sx(source) == expected)
    }

    /// Statements count towards the nesting limit as brackets do.
    @Test func switchesAndGuardsAreBoundedByTheNestingLimit() {
        let deep = String(repeating: "{ guard true else { return 0 }; switch 1 { default: ", count: 20) + "0" + String(repeating: " } }", count: 20)
        #expect(sx(deep).hasPrefix("error: expression is nested too deeply"))
    }
}
