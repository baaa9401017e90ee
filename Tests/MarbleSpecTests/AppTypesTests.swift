import Testing
@testable import MarbleSpec

/// The app's own types (`struct`, `enum`, `typealias`, `extension`), generic arguments and casts,
/// and the app idioms (`@Published`, `sink`, `assign`, `store(in:)`, `URLSession`) in `.marble`
/// files: what runs as Combine would, and every misuse with its message, line and column.
@Suite struct AppTypesTests {
    static let types = """
        struct User: Equatable {
          let name: String
          var age: Int = 0
        }
        enum LoadingState: Equatable {
          case idle, loading
          case loaded([String])
          case failed(String)
        }
        enum APIError: Error, Equatable { case offline, status(Int) }
        enum Tab: String { case home, search = "find" }
        enum Level: Int { case low = 1, mid, high }
        typealias Query = String
        extension User {
          var display: String { "\\(name) (\\(age))" }
        }
        """ + "\n"

    /// The declarations above (lines 1–16), then `test "t"` on line 17 and `lines` from line 18.
    func run(_ lines: String) -> [String] {
        problems(runMarble(Self.types + "test \"t\"\n" + lines))
    }

    /// The diagnostics of a whole file, as `line:column: message | hint`.
    func diagnostics(_ source: String) -> [String] {
        runMarble(source).allDiagnostics.map { "\($0.line):\($0.column): \($0.message)" + ($0.hint.map { " | " + $0 } ?? "") }
    }

    // MARK: What runs

    @Test(arguments: [
        // Memberwise initializers (a default may be left out), stored and computed properties, key paths.
        "  values A = User(name: \"Ann\", age: 3), B = User(name: \"Bob\")\n  hot u -A-B-|\n  let n = u.map(\\.name)\n  expect n -{\"Ann\"}-{\"Bob\"}-|",
        "  values A = User(name: \"Ann\", age: 3)\n  hot u -A-|\n  let d = u.map { $0.display }\n  expect d -{\"Ann (3)\"}-|",
        "  hot t -a-|\n  let u = t.map { User(name: $0, age: 1) }\n  expect u -{User(name: \"a\", age: 1)}-|",
        // Synthesised Equatable: structural equality in closures and in checks.
        "  hot t -a-b-|\n  let same = t.map { User(name: \"x\") == User(name: \"x\", age: 0) }\n  expect same -{true}-{true}-|",
        "  hot t -a-a-b-|\n  let u = t.map { User(name: $0) }.removeDuplicates()\n  expect u -{User(name: \"a\", age: 0)}---{User(name: \"b\", age: 0)}-|",
        // Enum cases: qualified, implicit where the enum is unique, with associated values.
        "  hot t -a-b-|\n  let s = t.map { $0 == \"a\" ? LoadingState.loading : .loaded([$0]) }\n  expect s -{LoadingState.loading}-{.loaded([\"b\"])}-|",
        "  hot t -a-|\n  let s = t.map { _ in LoadingState.idle }.map { $0 == .idle }\n  expect s -{true}-|",
        "  hot t -a-|\n  let s = t.map { _ in Tab.home == .home }\n  expect s -{true}-|",
        // Raw values, both ways; an Int enum counts up from the last raw value written.
        "  hot t -a-|\n  let r = t.map { _ in Tab.search.rawValue }\n  expect r -{\"find\"}-|",
        "  hot t -a-|\n  let r = t.map { _ in Level.high.rawValue }\n  expect r -{3}-|",
        "  hot t -{\"home\"}-{\"x\"}-|\n  let r = t.map { Tab(rawValue: $0) }\n  expect r -{Tab.home}-{nil}-|",
        // A type alias stands for its type.
        "  hot t -a-|\n  let q = t.map { ($0 as Query) + \"!\" }\n  expect q -{\"a!\"}-|",
        // The app's errors: in marbles, in Fail, caught by value.
        "  let f = Fail<String, APIError>(error: .offline)\n  expect f #{APIError.offline}",
        "  let f = Fail(error: APIError.status(500))\n  let c = f.catch { e in Just(e == APIError.status(500) ? \"retry\" : \"give up\") }\n  expect c ({\"retry\"}|)",
        "  hot t -a-|\n  let f = t.tryMap { _ -> String in throw APIError.offline }\n  expect f -#{APIError.offline}",
        "  hot t -a-|\n  let m = t.mapError { _ in APIError.offline }\n  expect m -a-|",
        // Generic arguments: the types they name are what flows.
        "  subject s = PassthroughSubject<User, APIError>()\n  send s -{User(name: \"A\")}-#{APIError.status(1)}\n  expect s -{User(name: \"A\", age: 0)}-#{APIError.status(1)}",
        "  subject s = CurrentValueSubject<LoadingState, Never>(.idle)\n  send s --{LoadingState.loading}\n  expect s {.idle}-{.loading}",
        "  let j = Just<Int>(1)\n  expect j (1|)",
        "  let f = Future<String, Error> { promise in promise(.success(\"a\")) }\n  expect f (a|)",
        "  let e = Just([User]())\n  expect e ({[]}|)",
        // Casts.
        "  let c = Just(1).map { _ in 1 as Double }\n  expect c ({1.0}|)",
        "  hot t -a-1-|\n  let c = t.map { ($0 as? Int) ?? 0 }\n  expect c -{0}-1-|",
        // @Published: `$query` starts with the value and publishes every change before the
        // property holds it (willSet), as Combine's does.
        "  @Published var query = \"\"\n  send query --a--b\n  let seen = $query.map { q in \"\\(q)/\\(query)\" }\n  expect $query {\"\"}-a--b\n  expect seen {\"/\"}-{\"a/\"}--{\"b/a\"}",
        "  @Published var count: Int = 0\n  send count -1-2\n  let doubled = $count.map { $0 * 2 }\n  expect doubled 0{2}-{4}",
    ])
    func runsAsCombineWould(_ lines: String) {
        #expect(run(lines) == [])
    }

    @Test func checksOfDeclaredValuesCanFail() {
        #expect(run("  values A = User(name: \"Ann\", age: 3)\n  hot u -A-|\n  let o = u.map { User(name: $0.name, age: $0.age + 1) }\n  expect o -A-|")
                == ["o frame 1: expected A, got {User(name: \"Ann\", age: 4)}"])
        #expect(run("  let f = Fail<Int, APIError>(error: .status(1))\n  expect f #{APIError.offline}")
                == ["f frame 0: expected failure APIError.offline, got failure APIError.status(1)"])
        // An app's error is not the string of its description.
        #expect(run("  let f = Fail(error: APIError.offline)\n  expect f #{\"offline\"}")
                == ["f frame 0: expected failure \"offline\", got failure APIError.offline"])
    }

    @Test func aForcedCastOfTheWrongTypeIsARuntimeError() {
        #expect(run("  hot t -a-|\n  let c = t.map { $0 as! Int }\n  expect c -1-|")
                == ["t: error 19:19: could not cast value of type 'String' (\"a\") to 'Int'"])
    }

    // MARK: Misuse, pinned

    @Test(arguments: [
        // Memberwise initializers, in Swift's words.
        ("  let j = Just(User(nam: \"A\", age: 1))\n  expect j -", "18:16: incorrect argument labels in call (have 'nam:age:', expected 'name:age:') | User(name:age:)"),
        ("  let j = Just(User(age: 1))\n  expect j -", "18:16: missing argument for parameter 'name' in call | User(name:age:)"),
        ("  let j = Just(User(name: \"A\", age: 1, id: 2))\n  expect j -", "18:16: extra argument 'id' in call | User(name:age:)"),
        ("  let j = Just(User(name: 1))\n  expect j -", "18:27: cannot convert value of type 'Int' to expected argument type 'String'"),
        // Members.
        ("  values A = User(name: \"A\")\n  hot u -A-|\n  let n = u.map { $0.nmae }\n  expect n -",
         "20:22: value of type 'User' has no member 'nmae' | did you mean 'name'?"),
        ("  let j = Just(APIError.ofline)\n  expect j -", "18:25: type 'APIError' has no member 'ofline' | did you mean 'offline'?"),
        ("  let j = Just(LoadingState.loaded(1))\n  expect j -", "18:36: cannot convert value of type 'Int' to expected argument type '[String]'"),
        ("  let j = Just(LoadingState.failed)\n  expect j -", "18:16: expected a value for 'output', found the function LoadingState.failed"),
        ("  let j = Just(APIError(rawValue: 1))\n  expect j -",
         "18:16: 'APIError' cannot be constructed because it has no accessible initializers | write one of its cases: APIError.offline"),
        ("  hot t -a-|\n  let s = t.map { _ in .idel }\n  expect s -",
         "19:24: cannot infer contextual base in reference to member 'idel' | no enum of this file has a case 'idel'; write TYPE.idel"),
        // Equatable, as Swift requires it (an enum without associated values has it anyway).
        ("struct Point { let x: Int }\n  hot t -1-|\n  let p = t.map { Point(x: $0) }.removeDuplicates()\n  expect p -",
         "20:34: referencing instance method 'removeDuplicates()' on 'Publisher' requires that 'Point' conform to 'Equatable' | declare it Equatable: struct Point: Equatable { … }"),
        ("enum Shape { case dot, box(Int) }\n  hot t -1-|\n  let p = t.map { _ in Shape.dot == Shape.box(1) }\n  expect p -",
         "20:34: binary operator '==' cannot be applied to two 'Shape' operands | declare it Equatable: enum Shape: Equatable { … }"),
        // Generic arguments.
        ("  let j = Just<Int>(\"a\")\n  expect j -", "18:21: cannot convert value of type 'String' to expected argument type 'Int'"),
        ("  subject s = PassthroughSubject<Usr, Never>()\n  expect s -", "18:34: cannot find type 'Usr' in scope | did you mean 'User'?"),
        ("  let f = Fail<String, APIError>(error: .notFound)\n  expect f -", "18:42: type 'APIError' has no member 'notFound'"),
        ("  subject s = CurrentValueSubject<LoadingState, Never>(.done)\n  expect s -", "18:57: type 'LoadingState' has no member 'done'"),
        // Casts.
        ("  hot t -a-|\n  let c = t.map { $0 as Int }\n  expect c -",
         "19:19: cannot convert value of type 'String' to type 'Int' in coercion | use 'as?' to test the type at run time, or a conversion such as Int(…)"),
        ("  hot t -a-|\n  let c = t.map { $0 as? Usr }\n  expect c -", "19:26: cannot find type 'Usr' in scope"),
        // A computed property's body is checked against its type.
        ("extension User { var initial: Int { name } }\n  hot t -\n  expect t -", "18:37: cannot convert value of type 'String' to the property's type 'Int'"),
        // @Published.
        ("  @Published var query = \"\"\n  send query --a--|\n  expect $query {\"\"}-",
         "19:14: a @Published property never finishes or fails: 'query' cannot be sent '|' | send values only; '$query' stays open as in Combine"),
        ("  @Published var query = \"\"\n  expect query {\"\"}", "19:10: 'query' is a @Published property, not a publisher | its publisher is '$query'"),
        ("  @Published var query: Int = \"\"\n  expect $query -", "18:31: cannot convert value of type 'String' to expected argument type 'Int'"),
        // Subscribers of an app, named for what a test writes instead.
        ("  hot a -1-|\n  let s = a.sink { print($0) }\n  expect s -1-|",
         "19:13: 'sink' has no place in a .marble pipeline: the 'expect' line is the sink | name the pipeline without it (let result = …) and write the events it must receive: expect result  -a-b-|"),
        ("  hot a -1-|\n  let s = a.map { $0 }.assign(to: \\.text, on: label)\n  expect s -1-|",
         "19:24: 'assign' writes into an app's object, which a .marble test has none of | check the values it would assign with an expect line (expect result  -a-b-|); to feed a property, declare @Published var NAME = … and send into it"),
        ("  hot d -a-|\n  let s = d.decode(type: User.self, decoder: JSONDecoder())\n  expect s -",
         "19:13: 'decode' turns JSON into values, and a .marble stream already carries values | write the decoded values in the marbles ({User(name: \"Ann\")} with `struct User` declared) and drop it"),
        ("  hot d -a-|\n  let s = d.map { _ in JSONDecoder() }\n  expect s -",
         "19:24: a .marble stream carries Swift values, not JSON: 'JSONDecoder' has nothing to decode or encode here | write the decoded values in the marbles ({User(name: \"Ann\")} with `struct User` declared) and drop .decode/.encode"),
        ("  let s = URLSession.shared.dataTaskPublisher(for: 1)\n  expect s -",
         "18:11: a .marble test has no network: 'URLSession' cannot run here | stand for the response with a source: cold response  ---{\"body\"}|  (or Just(…), Fail(error: …)), and build the pipeline on it"),
    ])
    func misuseIsPinned(_ lines: String, _ expected: String) {
        let report = runMarble(Self.types + "test \"t\"\n" + lines)
        let found = report.allDiagnostics.map { "\($0.line):\($0.column): \($0.message)" + ($0.hint.map { " | " + $0 } ?? "") }
        #expect(found.first == expected, "all: \(found)")
    }

    @Test(arguments: [
        ("struct A { let x: Int }\nstruct A { let y: Int }\ntest \"t\"\n  hot t -\n  expect t -", "2:8: invalid redeclaration of 'A'"),
        ("struct A { let x: Int; let x: String }\ntest \"t\"\n  hot t -\n  expect t -", "1:28: invalid redeclaration of 'x'"),
        ("struct A { let x: Strng }\ntest \"t\"\n  hot t -\n  expect t -", "1:19: cannot find type 'Strng' in scope | did you mean 'String'?"),
        ("enum E { case a = 1 }\ntest \"t\"\n  hot t -\n  expect t -",
         "1:19: enum case cannot have a raw value if the enum does not have a raw type | declare one: enum E: String { … } or enum E: Int { … }"),
        ("enum E: Int { case a = 1, b = 1 }\ntest \"t\"\n  hot t -\n  expect t -", "1:31: raw value for enum case is not unique | 'a' has the raw value 1 too"),
        ("enum E: Int { case a(Int) }\ntest \"t\"\n  hot t -\n  expect t -", "1:20: enum with raw type cannot have cases with arguments"),
        ("enum E: Int { case a = \"x\" }\ntest \"t\"\n  hot t -\n  expect t -", "1:24: cannot convert value of type 'String' to raw type 'Int'"),
        ("extension Usr { var x: Int { 1 } }\ntest \"t\"\n  hot t -\n  expect t -", "1:11: cannot find type 'Usr' in scope | declare it with struct or enum first"),
        ("struct A { let x: Int }\nextension A { var x: Int { 1 } }\ntest \"t\"\n  hot t -\n  expect t -", "2:19: invalid redeclaration of 'x'"),
        ("struct A { let x: Int; var y: Int { z } }\ntest \"t\"\n  hot t -\n  expect t -", "1:37: cannot find 'z' in scope"),
        // Issue 29, item 10: what Swift rejects, in Swift's words, at the case or type concerned, with the fix.
        // An Int enum counts up from the last raw value written: past Int.max is an overflow.
        ("enum E: Int { case a = 9223372036854775807, b }\ntest \"t\"\n  hot t -\n  expect t -",
         "1:45: integer literal '9223372036854775808' overflows when stored into 'Int' | 'b' counts up from 'a' (9223372036854775807): give it a raw value of its own, b = …"),
        // After a raw value that is not an integer literal, nothing counts up: each case needs its own.
        ("enum E: Double { case a = 1.5, b }\ntest \"t\"\n  hot t -\n  expect t -",
         "1:32: enum case must declare a raw value when the preceding raw value is not an integer | write one: b = …"),
        ("enum E: Double { case a = 2.0\n  case b }\ntest \"t\"\n  hot t -\n  expect t -",
         "2:8: enum case must declare a raw value when the preceding raw value is not an integer | write one: b = …"),
        // A value type that holds itself would be infinitely large.
        ("struct S { let s: S }\ntest \"t\"\n  hot t -\n  expect t -",
         "1:8: value type 'S' cannot have a stored property that recursively contains it | cycle: S.s → S; hold S in an array ([S]) or an indirect enum instead"),
        ("struct S { let next: S? }\ntest \"t\"\n  hot t -\n  expect t -",
         "1:8: value type 'S' cannot have a stored property that recursively contains it | cycle: S.next → S; hold S in an array ([S]) or an indirect enum instead"),
        ("struct A { let b: (Int, B) }\nstruct B { let a: A }\ntest \"t\"\n  hot t -\n  expect t -",
         "1:8: value type 'A' cannot have a stored property that recursively contains it | cycle: A.b → B.a → A; hold A in an array ([A]) or an indirect enum instead"),
        ("enum Tree { case leaf, node(Tree, Tree) }\ntest \"t\"\n  hot t -\n  expect t -",
         "1:6: recursive enum 'Tree' is not marked 'indirect' | cycle: Tree.node → Tree; mark it: indirect enum Tree { … } (or only the case: indirect case node(…))"),
        ("typealias Pair = (Int, Node)\nenum Node { case end, link(Pair) }\ntest \"t\"\n  hot t -\n  expect t -",
         "2:6: recursive enum 'Node' is not marked 'indirect' | cycle: Node.link → Node; mark it: indirect enum Node { … } (or only the case: indirect case link(…))"),
        ("indirect struct S { let x: Int }\ntest \"t\"\n  hot t -\n  expect t -", "1:10: only an enum can be 'indirect' | write: indirect enum S { … }"),
        ("enum E { indirect case a }\ntest \"t\"\n  hot t -\n  expect t -",
         "1:24: enum case 'a' without associated value cannot be 'indirect' | drop 'indirect', or give it an associated value"),
    ])
    func declarationMistakesArePinned(_ source: String, _ expected: String) {
        let found = diagnostics(source)
        #expect(found.first == expected, "all: \(found)")
        // A mistake in a file-level declaration is reported once, not once per test.
        #expect(diagnostics(source + "\ntest \"u\"\n  hot u -\n  expect u -").filter { $0 == expected }.count == 1)
    }

    /// Issue 29, item 15: typealiases are resolved once each, and bounded as a written type is
    /// once written out; one that names itself is Swift's error. Each is reported at its
    /// declaration, once, and what names it reports nothing more.
    @Test func aliasesThatNameThemselvesOrGrowTooLargeAreReportedOnce() {
        let nested = (1...40).map { "typealias A\($0) = [A\($0 - 1)]" }.joined(separator: "\n")
        #expect(diagnostics("typealias A0 = Int\n" + nested + "\ntest \"t\"\n  let j = Just<A40>([])\n  expect j ({[]}|)") == [
            "34:11: 'A33' is nested too deeply: more than 32 levels of brackets and generic arguments once its typealiases are written out | name an inner part: declare a struct for it",
        ])
        let doubling = (1...30).map { "typealias A\($0) = (A\($0 - 1), A\($0 - 1))" }.joined(separator: "\n")
        #expect(diagnostics("typealias A0 = Int\n" + doubling + "\ntest \"t\"\n  hot x -a-|\n  let j = x.map { _ in 1 as? A30 }\n  expect j -{nil}-|") == [
            "11:11: 'A10' is too large: more than 1000 type names once its typealiases are written out | name a part of it: declare a struct for it",
        ])
        #expect(diagnostics("typealias A = B\ntypealias B = [A]\ntypealias C = A\ntest \"t\"\n  hot x -a-|\n  expect x -a-|") == [
            "1:11: type alias 'A' references itself (through A → B → A) | give it a type that does not name 'A'",
        ])
        #expect(diagnostics("typealias A = A\ntest \"t\"\n  hot x -a-|\n  expect x -a-|") == [
            "1:11: type alias 'A' references itself | give it a type that does not name 'A'",
        ])
        // 32 levels written out are fine.
        #expect(diagnostics("typealias A0 = Int\n" + nested.split(separator: "\n").prefix(32).joined(separator: "\n") + "\ntest \"t\"\n  let j = Just<A32>([])\n  expect j ({[]}|)") == [])
    }

    /// What Swift accepts of the same declarations: counting up (a Double enum from an integer
    /// literal too), an indirect enum or case, recursion through an array.
    @Test(arguments: [
        "enum E: Int { case a = 9223372036854775806, b }\ntest \"t\"\n  let r = Just(E.b.rawValue)\n  expect r ({9223372036854775807}|)",
        "enum E: Double { case a = 2, b }\ntest \"t\"\n  let r = Just(E.b.rawValue)\n  expect r ({3.0}|)",
        "enum E: Double { case a, b = 1.5, c = 7, d }\ntest \"t\"\n  let r = Just([E.a.rawValue, E.d.rawValue])\n  expect r ({[0.0, 8.0]}|)",
        "indirect enum Tree: Equatable { case leaf(Int), node(Tree, Tree) }\ntest \"t\"\n  let r = Just(Tree.node(.leaf(1), .leaf(2)))\n  expect r ({Tree.node(Tree.leaf(1), Tree.leaf(2))}|)",
        "enum List { case end\n  indirect case cons(Int, List) }\ntest \"t\"\n  let r = Just(List.cons(1, .end)).map { \"\\($0)\" }\n  expect r ({\"cons(1, List.end)\"}|)",
        "struct Folder { let name: String; let children: [Folder] }\ntest \"t\"\n  let r = Just(Folder(name: \"a\", children: [Folder(name: \"b\", children: [])])).map { $0.children.count }\n  expect r (1|)",
    ])
    func whatSwiftAcceptsOfThemRuns(_ source: String) {
        #expect(diagnostics(source) == [])
        #expect(problems(runMarble(source)) == [])
    }

    @Test(arguments: [
        ("struct A { subscript(i: Int) -> Int { i } }\ntest \"t\"\n  hot t -\n  expect t -",
         "1:12: 'subscript' is not supported in a struct of a .marble file | a struct holds 'let'/'var' stored properties, computed 'var NAME: TYPE { … }' properties, 'func', 'static let', 'static func', 'init' and nested 'struct'/'enum' declarations"),
        ("enum E { let x: Int }\ntest \"t\"\n  hot t -\n  expect t -", "1:10: enums cannot contain stored properties | declare a computed one: var x: TYPE { … }"),
        ("struct A { let x }\ntest \"t\"\n  hot t -\n  expect t -", "1:18: type annotation missing in pattern | write its type: let x: TYPE"),
        ("struct A {\n  let x: Int\ntest \"t\"\n  hot t -\n  expect t -", "2:13: expected '}' to close the struct body opened at 1:10"),
        ("typealias Q String\ntest \"t\"\n  hot t -\n  expect t -", "1:13: expected '=' after 'typealias Q' | for example: typealias Query = String"),
        ("@Published var x = 1\ntest \"t\"\n  hot t -\n  expect t -",
         "1:1: '@Published' must be inside a test | a @Published property belongs to one test; declare it after test \"NAME\""),
        ("test \"t\"\n  @Published let x = 1\n  hot t -\n  expect t -", "2:14: expected 'var' after '@Published' | for example: @Published var query = \"\""),
        ("test \"t\"\n  @Published var x\n  hot t -\n  expect t -",
         "2:19: a @Published property needs an initial value | write: @Published var x = VALUE (its publisher '$x' starts with it)"),
        ("test \"t\"\n  @State var x = 1\n  hot t -\n  expect t -", "2:3: unknown attribute '@State' | only '@Published var NAME = VALUE' is a statement of a test"),
        ("test \"t\"\n  hot a -1-|\n  let s = a.map { $0 as }\n  expect s -", "3:25: expected a type after 'as'"),
        ("test \"t\"\n  hot a -1-|\n  let s = a.store(in: &cancellables)\n  expect s -",
         "3:23: '&cancellables' passes a variable inout; a .marble test has no variables to pass | '.store(in: &cancellables)' keeps an app's subscription alive; in a test the 'expect' line is the subscriber: drop it and write expect NAME MARBLES"),
    ])
    func declarationSyntaxIsPinned(_ source: String, _ expected: String) {
        let found = diagnostics(source)
        #expect(found.first == expected, "all: \(found)")
    }
}
