import Testing
@testable import MarbleSpec

/// The Swift that app closures and app types use beyond expressions (issue 25, item 1): each
/// construct gives Swift's result; its mistakes are refused before anything runs with Swift's
/// words, line, column and hint; what only data can cause is a runtime error at its place.
@Suite struct SwiftConstructTests {
    // MARK: Loops and pattern bindings

    @Test(arguments: [
        // for over a range, with where, continue and break.
        ("-1-5-9-|", "{ n -> Int in var t = 0; for i in 0..<n where i % 2 == 0 { if i == 6 { break }; if i == 2 { continue }; t += i }; return t }",
         "-x-y-y-|", "x = 0, y = 4"),
        ("-3-|", "{ n -> Int in var t = 0; for i in 1...n { t = t * 10 + i }; return t }", "-x-|", "x = 123"),
        ("-1-|", "{ _ -> Int in var t = 0; for _ in 0..<3 { t += 1 }; for i in 0..<0 { t += i + 100 }; return t }", "-x-|", "x = 3"),
        // A dictionary in key order (numbers by value, strings alphabetically), destructured.
        ("-1-|", #"{ _ -> String in var s = ""; for (k, v) in ["b": 2, "a": 1, "c": 3] { s += "\(k)\(v)" }; return s }"#, "-x-|", #"x = "a1b2c3""#),
        ("-1-|", #"{ _ -> String in var s = ""; for (k, _) in [10: "x", 9: "y", 100: "z"] { s += "\(k)," }; return s }"#, "-x-|", #"x = "9,10,100,""#),
        ("-1-|", #"{ _ -> String in var s = ""; for entry in ["b": 2, "a": 1] { s += "\(entry.0)" }; return s }"#, "-x-|", #"x = "ab""#),
        // A string's characters, arrays of tuples, nested loops, for case.
        ("-a-|", #"{ w -> String in var s = ""; for c in w { s = String(c) + s }; return s }"#, "-x-|", #"a = "abc", x = "cba""#),
        ("-a-|", "{ ps -> Int in var t = 0; for (x, y) in ps { t += x * y }; return t }", "-x-|", "a = [(1, 2), (3, 4)], x = 14"),
        ("-1-|", "{ _ -> Int in var t = 0; for i in 0..<3 { for j in 0..<3 { if j > i { break }; t += 1 } }; return t }", "-x-|", "x = 6"),
        ("-a-|", "{ xs -> Int in var t = 0; for case let x? in xs { t += x }; return t }", "-x-|", "a = [1, nil, 3], x = 4"),
        ("-a-|", "{ xs -> Int in var t = 0; for case 2 in xs { t += 1 }; return t }", "-x-|", "a = [2, 1, 2], x = 2"),
        // break in a switch leaves the switch; continue in one goes on with the loop.
        ("-1-|", "{ _ -> Int in var t = 0; for i in 0..<5 { switch i { case 1: break; case 3: continue; default: t += 1 }; t += 10 }; return t }",
         "-x-|", "x = 43"),
        ("-1-|", "{ _ -> Int in var t = 0; for i in 0..<5 { guard i != 2 else { continue }; t += i }; return t }", "-x-|", "x = 8"),
        // while (with let conditions), repeat … while.
        ("-{27}-|", "{ n -> Int in var x = n; var steps = 0; while x != 1 { x = x % 2 == 0 ? x / 2 : 3 * x + 1; steps += 1 }; return steps }", "-x-|", "x = 111"),
        ("-1-|", "{ _ -> Int in var xs = [3, 2, 1]; var t = 0; while let last = xs.last, last < 3 { t += last; xs = Array(xs.dropLast()) }; return t }", "-x-|", "x = 3"),
        ("-1-|", "{ _ -> Int in var n = 0; repeat { n += 1 } while n < 0; return n }", "-x-|", "x = 1"),
        // stride, in a loop and as a value; a literal among Doubles is a Double.
        ("-1-|", "{ _ -> [Double] in var xs: [Double] = []; for x in stride(from: 0, to: 1.0, by: 0.25) { xs = xs + [x] }; return xs }",
         "-x-|", "x = [0.0, 0.25, 0.5, 0.75]"),
        ("-1-|", "{ _ in stride(from: 10, through: 0, by: -5).map { $0 * 2 } }", "-x-|", "x = [20, 10, 0]"),
        // let (a, b) = …, var (a, b) = … then assigned; type annotations decide literals.
        ("-a-|", #"{ p -> String in let (name, score) = p; return "\(name): \(score)" }"#, "-x-|", #"a = ("Ann", 3), x = "Ann: 3""#),
        ("-1-|", "{ n -> Int in var (x, y) = (n, 2); x += 10; y *= x; let (_, z) = (0, y); return z }", "-x-|", "x = 22"),
        ("-1-|", "{ _ -> Double in let total: Double = 0; var xs: [Double] = [1, 2]; xs = xs + [total]; return xs.reduce(0.5) { $0 + $1 } }", "-x-|", "x = 3.5"),
    ])
    func loopsGive(_ input: String, _ body: String, _ output: String, _ values: String) {
        #expect(mapping(input, body, output, values: values) == [])
    }

    @Test(arguments: [
        ("{ n -> Int in for x in n { }; return 0 }", "3:40: for-in loop requires 'Int' to conform to 'Sequence' | loop over an array, a range (0..<n), stride(from:to:by:), a dictionary or a string"),
        ("{ n -> Int in for x in Int(\"1\") { }; return 0 }", "3:40: for-in loop requires 'Int?' to conform to 'Sequence'; did you mean to unwrap optional? | loop over its value or nothing: for x in items ?? [] { … }"),
        ("{ n -> Int in for (p, q) in [1, 2] { }; return 0 }", "3:35: tuple pattern cannot match values of the non-tuple type 'Int'"),
        ("{ n -> Int in for i in 0..<n where i { }; return 0 }", "3:52: type 'Int' cannot be used as a boolean; test for '!= 0' instead"),
        ("{ n -> Int in while n { }; return 0 }", "3:37: type 'Int' cannot be used as a boolean; test for '!= 0' instead"),
        ("{ n -> Int in let (a, b) = (1, 2, 3); return a }", "3:35: tuple pattern has the wrong length for tuple type '(Int, Int, Int)'"),
        ("{ n -> Int in let (a, 2) = (1, 2); return a }", "3:35: this pattern can fail to match | test it with 'if case PATTERN = value' or 'guard case PATTERN = value … else { … }'"),
        ("{ n -> Int in let (a, b) = (1, 2); a = 3; return a }", "3:52: cannot assign to value: 'a' is a 'let' constant | a 'let', a closure's parameter or a loop's variable cannot change: copy it into a 'var' (var next = a) and change the copy"),
        ("{ n -> Int in for x in stride(from: 0, to: n, by: 0.5) { }; return 0 }", "3:60: stride needs three Ints or three Doubles, not a mix | convert the Int: Double(n)"),
        ("{ n -> Int in for x in stride(from: 0, upTo: n, by: 1) { }; return 0 }", "3:40: stride takes (from:to:by:) or (from:through:by:) | stride(from: 0, to: 10, by: 2) stops before 10; stride(from: 0, through: 10, by: 2) includes it"),
        ("{ n -> Int in let x: Int = \"a\"; return x }", "3:44: cannot convert value of type 'String' to specified type 'Int'"),
        ("{ n -> Int in let x: Innt = 1; return x }", "3:38: cannot find type 'Innt' in scope | did you mean 'Int'?"),
    ])
    func loopMistakesAreRefused(_ body: String, _ expected: String) {
        #expect(problems("  hot a -1-|\n  let b = a.map \(body)\n  expect b -|").first == expected)
    }

    @Test(arguments: [
        ("{ n in break }", "3:24: 'break' is only allowed inside a loop or a switch | leave a closure with 'return'"),
        ("{ n in continue }", "3:24: 'continue' is only allowed inside a loop | leave a closure with 'return'"),
        ("{ n in for i in 0..<3 { [1].map { _ in continue } } }", "3:56: 'continue' is only allowed inside a loop | leave a closure with 'return'"),
        ("{ n in for i in 0..<3 { break outer } }", "3:47: labeled 'break' is not supported in closures of a .marble file yet | leave the inner loop with a flag: var done = false … if done { break }"),
        ("{ n in outer: for i in 0..<3 { } }", "3:24: labeled statements are not supported in closures of a .marble file yet | drop the label 'outer:' and leave the inner loop with a flag: var done = false … if done { break }"),
        ("{ n in for i [1] { } }", "3:30: expected 'in' after the pattern of a 'for' loop | write: for item in items { … }"),
        ("{ n in repeat { } until n > 1 }", "3:35: expected 'while' after the body of 'repeat' | write: repeat { … } while CONDITION"),
        ("{ n -> Int in for i in 0..<n { guard i > 0 else { } }; return 0 }", "3:48: 'guard' body must not fall through, consider using a 'return' or 'throw' to exit the scope"),
    ])
    func loopSyntaxMistakes(_ body: String, _ expected: String) {
        #expect(problems("  hot a -1-|\n  let b = a.map \(body)\n  expect b -|").first == expected)
    }

    /// A loop that never ends stops the run at the loop (its rounds count against the work one
    /// frame may do), and so does one that passes Int's range; a range the wrong way round and a
    /// stride of 0 are errors at their place, as Swift traps there.
    @Test(arguments: [
        ("{ n -> Int in var x = n; while true { x += 1 }; return x }", "3:42: more than 100000 actions ran at frame 1: the pipeline never settles | a loop that runs this often at one frame cannot finish: check that its condition turns false, or leave it with 'break'"),
        ("{ n -> Int in var x = Int.max - 2; for _ in 0..<n + 5 { x += 1 }; return x }", "3:75: arithmetic overflow in 9223372036854775807 + 1 | Int is 64-bit; Swift traps on overflow"),
        ("{ n -> Int in for _ in 3..<n { }; return 0 }", "3:41: range requires lowerBound <= upperBound (3..<1)"),
        ("{ n -> Int in for _ in stride(from: 0, to: 3, by: 0) { }; return 0 }", "3:40: stride size must not be zero"),
    ])
    func loopRuntimeErrors(_ body: String, _ expected: String) {
        #expect(problems("  hot a -1-|\n  let b = a.map \(body)\n  expect b -{0}-|").first == expected)
    }

    // MARK: Changing a var in place

    static let declarations = """
        struct Item: Equatable { let name: String; var count: Int }
        struct State: Equatable {
          var items: [Item] = []
          var total = 0
          var tags: [String: [String]] = [:]
          var busy = false
          var label: String { "\\(total)" }
        }

        """

    /// A test over `State` and `Item` (`declarations`) with `lines` after `test "t"` (line 10 on).
    func stateProblems(_ lines: String) -> [String] { problems(lines, declarations: Self.declarations) }

    @Test(arguments: [
        // A reducer: properties, elements of properties, a dictionary's default, toggle.
        (#"{ s -> String in var n = s; n.items.append(Item(name: "a", count: 1)); n.total += 2; n.items[0].count *= 5; n.tags["k", default: []].append("x"); n.busy.toggle(); return "\(n.items[0].count) \(n.total) \(n.tags) \(n.busy) \(s.items.count)" }"#,
         #"{"5 2 [\"k\": [\"x\"]] true 0"}"#),
        // Value semantics: a copy keeps what it had.
        (#"{ s -> String in var a = [3, 1, 2]; let b = a; a.sort(); var n = s; let before = n; n.total = 7; return "\(a) \(b) \(before.total) \(n.total)" }"#,
         #"{"[1, 2, 3] [3, 1, 2] 0 7"}"#),
        // What the mutating methods give back.
        (#"{ _ -> String in var xs = [1, 2, 3, 4]; let first = xs.removeFirst(); let last = xs.removeLast(); let at = xs.remove(at: 0); xs.insert(9, at: 1); xs.append(contentsOf: [5, 6]); let popped = xs.popLast(); xs.removeAll(where: { $0 > 8 }); xs.swapAt(0, 1); return "\(first) \(last) \(at) \(popped ?? 0) \(xs)" }"#,
         #"{"1 4 2 6 [5, 3]"}"#),
        (#"{ _ -> String in var d = ["a": 1, "b": 2]; let old = d.updateValue(5, forKey: "a"); let gone = d.removeValue(forKey: "c"); d.merge(["b": 10, "c": 3]) { $0 + $1 }; return "\(old ?? 0) \(gone == nil) \(d)" }"#,
         #"{"1 true [\"a\": 5, \"b\": 12, \"c\": 3]"}"#),
        (#"{ _ -> String in var s = "ab"; s.append("cd"); let c = s.removeLast(); var xs = ["b", "a"]; xs.sort(by: >); xs.reverse(); var t = (1, 2); t.0 = 5; return s + c + xs.joined() + "\(t.0)" }"#,
         #"{"abcdab5"}"#),
        (#"{ _ -> Int in var xs = [Int](); for i in 0..<4 { xs.append(i * i) }; xs.removeFirst(2); return xs.reduce(0, +) }"#, "{13}"),
    ])
    func changesInPlaceGive(_ body: String, _ output: String) {
        #expect(stateProblems("  hot a -s-|\n  values s = State()\n  let b = a.map \(body)\n  expect b -\(output)-|") == [])
    }

    @Test(arguments: [
        ("{ s -> Int in s.total += 1; return 0 }", "12:31: cannot assign to property: 's' is a 'let' constant | a 'let', a closure's parameter or a loop's variable cannot change: copy it into a 'var' (var next = s) and change the copy"),
        ("{ s -> Int in s.items.append(Item(name: \"a\", count: 1)); return 0 }", "12:31: cannot use mutating member on immutable value: 's' is a 'let' constant | a 'let', a closure's parameter or a loop's variable cannot change: copy it into a 'var' (var next = s) and change the copy"),
        ("{ s -> Int in let xs = [1]; xs[0] = 2; return 0 }", "12:45: cannot assign through subscript: 'xs' is a 'let' constant | a 'let', a closure's parameter or a loop's variable cannot change: copy it into a 'var' (var next = xs) and change the copy"),
        ("{ s -> Int in var i = Item(name: \"a\", count: 1); i.name = \"b\"; return 0 }", "12:68: cannot assign to property: 'name' is a 'let' constant | declare it 'var name' in Item to let a copy change it"),
        ("{ s -> Int in var n = s; n.label = \"x\"; return 0 }", "12:44: cannot assign to property: 'label' is a get-only property | a computed property is worked out from the stored ones: change those"),
        ("{ s -> Int in var n = s; n.total = \"x\"; return 0 }", "12:52: cannot assign value of type 'String' to type 'Int'"),
        ("{ s -> Int in var n = s; n.items.append(1); return 0 }", "12:57: cannot convert value of type 'Int' to expected argument type 'Item'"),
        ("{ s -> Int in var xs = [1]; xs.insert(2); return 0 }", "12:48: no 'insert' of '[Int]' takes these arguments | write insert(_:at:)"),
        ("{ s -> Int in [1].append(2); return 0 }", "12:35: cannot use mutating member on immutable value of type '[Int]' | call it on a 'var': var items = …; items.append(…)"),
        ("{ s -> Int in var n = s; n.items.sort(); return 0 }", "12:50: referencing instance method 'sort()' on 'Array' requires that 'Item' conform to 'Comparable' | sort by a property: n.items.sort { $0.name < $1.name }"),
        ("{ s -> Int in $0.total = 1; return 0 }", "12:31: cannot assign to property: '$0' is immutable | a closure's parameter cannot change: copy it into a 'var' (var next = $0) and change the copy"),
        ("{ s -> Int in s.count() = 1; return 0 }", "12:41: cannot assign to this expression | assign to a 'var' (n = 1), a property of one (next.count = 1) or an element of one (counts[key] = 1)"),
    ])
    func changesInPlaceRefused(_ body: String, _ expected: String) {
        #expect(stateProblems("  hot a -s-|\n  values s = State()\n  let b = a.map \(body)\n  expect b -|").first == expected)
    }

    @Test(arguments: [
        ("{ s -> Int in var xs: [Int] = []; return xs.removeLast() }", "12:61: can't remove last element from an empty collection | test isEmpty first, or use popLast(), which gives nil"),
        ("{ s -> Int in var n = s; n.items[2].count = 1; return 0 }", "12:49: index out of range: 2 in an array of 0 elements"),
        ("{ s -> Int in var xs = [1]; xs.insert(0, at: 3); return 0 }", "12:48: index out of range: 3 in an array of 1 element"),
    ])
    func changesInPlaceFailAtRunTime(_ body: String, _ expected: String) {
        #expect(stateProblems("  hot a -s-|\n  values s = State()\n  let b = a.map \(body)\n  expect b -{0}-|").first == expected)
    }

    // MARK: Operators as functions, ordering by a closure

    @Test(arguments: [
        ("-a-|", "{ $0.reduce(0, +) }", "-x-|", "a = [1, 2, 3], x = 6"),
        ("-a-|", "{ $0.reduce(0.0, +) }", "-x-|", "a = [1.5, 2.0], x = 3.5"),
        ("-a-|", "{ $0.reduce(1, *) - $0.reduce(0, -) }", "-x-|", "a = [2, 3], x = 11"),
        ("-a-|", "{ $0.reduce(true, &&) }", "-x-|", "a = [true, false], x = false"),
        ("-a-|", "{ $0.sorted(by: >) }", "-x-|", "a = [1, 3, 2], x = [3, 2, 1]"),
        ("-a-|", "{ $0.sorted { $0.1 > $1.1 }.map { $0.0 } }", "-x-|", #"a = [("a", 1), ("b", 3), ("c", 3)], x = ["b", "c", "a"]"#),
        ("-a-|", "{ $0.max { $0.1 < $1.1 }!.0 + $0.min(by: { $0.1 < $1.1 })!.0 }", "-x-|", #"a = [("a", 1), ("b", 3), ("c", 3), ("d", 1)], x = "ba""#),
        ("-a-|", "{ ($0.min() ?? 0) * 10 + ($0.max() ?? 0) }", "-x-|", "a = [4, 1, 9], x = 19"),
        ("-a-|", "{ $0.sorted(by: <) == $0.sorted() }", "-x-|", #"a = ["b", "a"], x = true"#),
    ])
    func operatorFunctionsGive(_ input: String, _ body: String, _ output: String, _ values: String) {
        #expect(mapping(input, body, output, values: values) == [])
    }

    /// On a stream, as on an array: `reduce` and `scan` take an operator.
    @Test func operatorFunctionsOnStreams() {
        #expect(problems("  hot a -1-2-3-|\n  let s = a.scan(0, +)\n  let r = a.reduce(1, *)\n  expect s -1-3-6-|\n  expect r -------(6|)") == [])
    }

    @Test(arguments: [
        ("{ $0.reduce(0, +) }", "a = [\"x\"]", "4:32: binary operator '+' cannot be applied to operands of type 'Int' and 'String'"),
        ("{ $0.sorted(by: +) }", "a = [1]", "4:33: cannot convert value of type 'Int' to closure result type 'Bool'"),
        ("{ $0.reduce(0, ..<) }", "a = [1]", "4:32: expected expression, found '..<' in argument list"),
    ])
    func operatorFunctionMistakes(_ body: String, _ values: String, _ expected: String) {
        #expect(problems("  hot a -a-|\n  values \(values)\n  let b = a.map \(body)\n  expect b -|").first == expected)
    }

    // MARK: do / catch, try?, try!

    static let errors = "enum APIError: Error, Equatable { case offline, status(Int) }\n"

    /// A test with the file's `APIError` and `lines` after `test "t"` (line 3 on).
    func errorProblems(_ lines: String) -> [String] { problems(lines, declarations: Self.errors) }

    @Test(arguments: [
        // The first clause that matches; `where`; `error` in a catch without a pattern.
        ("{ n -> String in do { if n == 1 { throw APIError.offline }; if n == 2 { throw APIError.status(503) }; if n == 3 { throw \"boom\" }; return \"ok\" } catch APIError.offline { return \"offline\" } catch let APIError.status(code) where code >= 500 { return \"server \\(code)\" } catch { return \"other \\(error)\" } }",
         #"-{"offline"}-{"server 503"}-{"other boom"}-{"ok"}-|"#),
        // `is` and `as` patterns, an implicit member of the file's error enum.
        ("{ n -> String in do { if n < 3 { throw APIError.status(n) }; throw \"text\" } catch is String { return \"string\" } catch let e as APIError where e == .status(1) { return \"one\" } catch .status(let c) { return \"status \\(c)\" } catch { return \"never\" } }",
         #"-{"one"}-{"status 2"}-{"string"}-{"string"}-|"#),
        // An error no clause catches goes on (here to tryMap, which fails the stream with it).
        ("{ n -> String in do { throw APIError.status(n) } catch APIError.offline { return \"offline\" } }", "-#{APIError.status(1)}"),
        // try? gives nil for a throw, and covers what is to its right; try! gives the value.
        ("{ n -> String in let r: Result<Int, Error> = n.isMultiple(of: 2) ? .success(n * 10) : .failure(\"odd\"); let v = try? r.get() ?? 0; return \"\\(v ?? -1) \\((try? r.get()) ?? 0)\" }",
         #"-{"-1 0"}-{"20 20"}-{"-1 0"}-{"40 40"}-|"#),
        ("{ n in try! Result<Int, Error>.success(n).get() + 1 }", "-2-3-4-5-|"),
        // A do block without catch is a scope; a throw in a catch goes on.
        ("{ n -> Int in do { let x = n * 2; if x > 4 { throw \"big\" } }; return n }", "-1-2-#{\"big\"}"),
        ("{ n -> Int in do { throw APIError.offline } catch { throw \"rethrown \\(error)\" } }", "-#{\"rethrown offline\"}"),
    ])
    func errorHandlingGives(_ body: String, _ output: String) {
        #expect(errorProblems("  hot a -1-2-3-4-|\n  let b = a.tryMap \(body)\n  expect b \(output)") == [])
    }

    @Test(arguments: [
        ("{ n -> Int in do { throw \"x\" } catch APIError.offline { return 1 }; return 2 }",
         "4:31: errors thrown from here are not handled because the enclosing catch is not exhaustive | end with a 'catch { … }' that catches every error (it sees it as 'error')"),
        ("{ n -> Int in do { throw \"x\" } catch APIError.ofline { return 1 } catch { return 0 } }", "4:63: type 'APIError' has no member 'ofline' | did you mean '.offline'?"),
        ("{ n -> Int in do { throw \"x\" } catch let e as APIErr { return 1 } catch { return 0 } }", "4:63: cannot find type 'APIErr' in scope"),
        ("{ n -> Int in let v: Int = try? n + 1; return v }", "4:44: cannot convert value of type 'Int?' to specified type 'Int'"),
        ("{ n -> Int in throw \"x\" }", "4:31: the closure of map can throw, but map cannot throw | use tryMap to turn a throw into a failure"),
        ("{ n -> Int in catch { } }", "4:31: 'catch' must follow a 'do' block | write: do { … } catch { … }"),
        ("{ n -> Int in do { } catch A, B { }; return 0 }", "4:45: a 'catch' with several patterns is not supported in closures of a .marble file yet | write one 'catch' for each pattern"),
    ])
    func errorHandlingMistakes(_ body: String, _ expected: String) {
        #expect(errorProblems("  hot a -1-|\n  let b = a.map \(body)\n  expect b -|").first == expected)
    }

    /// `try!` on a throw is a runtime error at the `try!`, as Swift traps there; `try?` on a
    /// runtime error of the file (not a Swift error) does not hide it.
    @Test(arguments: [
        ("{ n in try! Result<Int, Error>.failure(\"bad\").get() }", "4:24: 'try!' expression unexpectedly raised an error: \"bad\" | use 'try?' to get nil instead, or catch it: do { … } catch { … }"),
        ("{ n in (try? n / 0) ?? 0 }", "4:32: division by zero in 1 / 0"),
    ])
    func errorHandlingRuntimeErrors(_ body: String, _ expected: String) {
        #expect(errorProblems("  hot a -1-|\n  let b = a.map \(body)\n  expect b -1-|").first == expected)
    }

    // MARK: Optional.map and flatMap, key paths as functions

    @Test(arguments: [
        ("-a-b-|", "{ Int($0).map { $0 * 2 } ?? -1 }", "-x-y-|", #"a = "21", b = "z", x = 42, y = -1"#),
        ("-a-b-c-|", "{ Int($0).flatMap { $0 > 0 ? $0 : nil } ?? 0 }", "-x-y-y-|", #"a = "7", b = "-7", c = "q", x = 7, y = 0"#),
        ("-a-|", "{ Int($0).map(\\.description) ?? \"none\" }", "-x-|", #"a = "5", x = "5""#),
        ("-a-|", "{ $0.map(\\.count) }", "-x-|", #"a = ["ab", "c"], x = [2, 1]"#),
        ("-a-|", "{ $0.filter(\\.isEmpty).count }", "-x-|", #"a = ["", "c", ""], x = 2"#),
        // Optional(x) and Optional.some(x) wrap a value; Optional<Int>.none and Optional.none are nil.
        ("-1-2-|", "{ Optional($0).map { $0 + 1 } }", "-x-y-|", "x = 2, y = 3"),
        ("-1-2-|", "{ Optional($0).flatMap { $0 > 1 ? $0 : nil } ?? 0 }", "-x-y-|", "x = 0, y = 2"),
        ("-1-|", "{ n -> Int? in let o: Int? = Optional.some(n); return o }", "-x-|", "x = 1"),
        ("-1-|", "{ n -> Int in let o: Int? = n > 5 ? Optional(n) : Optional.none; return o ?? -1 }", "-x-|", "x = -1"),
    ])
    func optionalMapGives(_ input: String, _ body: String, _ output: String, _ values: String) {
        #expect(mapping(input, body, output, values: values) == [])
    }

    @Test func optionalMapOnACollectionIsRefused() {
        #expect(problems("  hot a -a-|\n  values a = [4]\n  let b = a.map { $0.first.map { $0 * 2 } ?? 0 }\n  expect b -{8}-|") == [])
        #expect(problems("  hot a -a-|\n  values a = [[1]]\n  let b = a.map { $0.first.map { $0.count } }\n  expect b -|").first
            == "4:28: 'map' on an optional [Int] is not supported in a .marble file yet | unwrap it first: if let items { items.map { … } }, or (items ?? []).map { … }")
    }
}

