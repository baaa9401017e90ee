import Testing
@testable import MarbleSpec

/// `func` in a `.marble` file (issue 25, item 1): functions at file and test level, methods,
/// `mutating func`, `static let`/`static func`, `init` and nested types, each with Swift's
/// result; their mistakes are refused before anything runs, in Swift's words.
@Suite struct FunctionTests {
    static let declarations = """
        func clamp(_ value: Int, to limit: Int = 10) -> Int {
          if value > limit { return limit }
          return value
        }
        func half(_ value: Double) -> Double { value / 2 }
        func one() -> Double { 1 }
        func factorial(_ n: Int) -> Int { n <= 1 ? 1 : n * factorial(n - 1) }
        func parse(_ text: String) throws -> Int {
          guard let n = Int(text) else { throw ParseError.notANumber(text) }
          return n
        }
        enum ParseError: Error, Equatable { case notANumber(String) }
        struct Money: Equatable {
          var cents: Int
          var currency: String = "EUR"
          init(euros: Double) { self.cents = Int(euros * 100) }
          init(cents: Int) { self.cents = cents }
          init(pennies: Int, currency: String) {
            cents = pennies
            self.currency = currency
          }
          static let zero = Money(cents: 0)
          static func sum(_ items: [Money]) -> Money { Money(cents: items.map(\\.cents).reduce(0, +)) }
          func adding(_ other: Money) -> Money { Money(cents: cents + other.cents) }
          var text: String { "\\(cents) \\(currency)" }
        }
        struct Counter: Equatable {
          var count = 0
          var log: [String] = []
          mutating func add(_ n: Int, note: String = "add") {
            count += n
            log.append(note)
          }
          mutating func reset() { self = Counter() }
        }
        enum Level: Int {
          case low = 1, high
          static let all: [Level] = [.low, .high]
          static func from(_ n: Int) -> Level { n > 5 ? .high : .low }
          func next() -> Level { self == .low ? .high : .low }
          var label: String { "L\\(rawValue) \\(short)" }
          var short: String { self == .low ? "lo" : "hi" }
        }
        struct Board {
          struct Cell: Equatable { var mark: String }
          enum Side { case left, right }
          var cells: [Cell]
          func marks() -> String { cells.map(\\.mark).joined() }
        }

        """

    /// The declarations above, then `test "t"` and `lines`.
    func run(_ lines: String) -> [String] {
        problems(lines, declarations: Self.declarations)
    }

    @Test(arguments: [
        // Labels, defaults, a literal typed by the declared result, recursion.
        "  hot a -{2}-{50}-|\n  let c = a.map { clamp($0) + clamp($0, to: 1) }\n  expect c -{3}-{11}-|",
        "  hot a -{3}-|\n  let h = a.map { half(Double($0)) + one() }\n  expect h -{2.5}-|",
        "  hot a -{5}-|\n  let f = a.map { factorial($0) }\n  expect f -{120}-|",
        // A function passed where a closure goes.
        "  hot a -{[1, 5]}-|\n  let c = a.map { $0.map(factorial) }\n  expect c -{[1, 120]}-|",
        // A throwing function in a try- operator, in do/catch and after try?.
        "  hot a -{\"4\"}-{\"x\"}-|\n  let n = a.tryMap { try parse($0) }\n  expect n -4-#{ParseError.notANumber(\"x\")}",
        "  hot a -{\"4\"}-{\"x\"}-|\n  let n = a.map { s -> Int in\n    do { return try parse(s) } catch ParseError.notANumber(let t) { return t.count * -1 } catch { return 0 }\n  }\n  expect n -4-{-1}-|",
        "  hot a -{\"x\"}-|\n  let n = a.map { (try? parse($0)) ?? 7 }\n  expect n -7-|",
        // init: by labels, with `self.` or without, a property's default kept; static let and func; methods.
        "  hot a -{2}-|\n  let m = a.map { Money(euros: Double($0)).text }\n  expect m -{\"200 EUR\"}-|",
        "  hot a -{2}-|\n  let m = a.map { Money(pennies: $0, currency: \"GBP\").text }\n  expect m -{\"2 GBP\"}-|",
        "  hot a -{2}-|\n  let m = a.map { Money.sum([Money(cents: $0), .zero, Money(cents: 5)]).adding(Money(cents: 1)).adding(.zero).cents }\n  expect m -{8}-|",
        // A mutating func changes the var it is called on; the copy it came from keeps its value.
        "  hot a -{2}-{3}-|\n  let c = a.scan(Counter()) { c, n in\n    var next = c\n    next.add(n)\n    next.add(1, note: \"one\")\n    return next\n  }\n  let s = c.map { \"\\($0.count) \\($0.log)\" }\n  expect s -{\"3 [\\\"add\\\", \\\"one\\\"]\"}-{\"7 [\\\"add\\\", \\\"one\\\", \\\"add\\\", \\\"one\\\"]\"}-|",
        "  hot a -{2}-|\n  let c = a.map { n -> String in\n    let before = Counter(count: n)\n    var after = before\n    after.add(1)\n    var reset = after\n    reset.reset()\n    return \"\\(before.count) \\(after.count) \\(reset.count)\"\n  }\n  expect c -{\"2 3 0\"}-|",
        // Enum members: static let and func, a method on self, implicit self in computed properties.
        "  hot a -{2}-{9}-|\n  let l = a.map { Level.from($0).next().label }\n  expect l -{\"L2 hi\"}-{\"L1 lo\"}-|",
        "  hot a -{0}-|\n  let l = a.map { _ in Level.all.map(\\.rawValue) }\n  expect l -{[1, 2]}-|",
        // Nested types, by their path and (inside the outer type) by their own name.
        "  hot a -x-|\n  let b = a.map { Board(cells: [Board.Cell(mark: $0), Board.Cell(mark: \"o\")]).marks() }\n  expect b -{\"xo\"}-|",
        "  hot a -x-|\n  let b = a.map { _ in Board.Side.left == .left }\n  expect b -{true}-|",
    ])
    func runsAsSwiftWould(_ lines: String) {
        #expect(run(lines) == [])
    }

    @Test func aFunctionOfATestAndAFailingCheck() {
        let found = problems("  func twice(_ s: String) -> String { s + s }\n  hot a -x-|\n  let b = a.map { twice($0) }\n  expect b -{\"xy\"}-|")
        #expect(found.count == 1 && found[0].contains("frame 1"), "\(found)")
        #expect(problems("  func twice(_ s: String) -> String { s + s }\n  hot a -x-|\n  let b = a.map { twice($0) }\n  expect b -{\"xx\"}-|") == [])
    }

    @Test(arguments: [
        ("  hot a -1-|\n  let b = a.map { clamp($0, limit: 2) }\n  expect b -1-|",
         "3:19: incorrect argument label in call (have '_:limit:', expected '_:to:') | clamp(_:to:)"),
        ("  hot a -1-|\n  let b = a.map { clamp(to: 2) }\n  expect b -1-|", "3:19: missing argument for parameter #1 in call | clamp(_:to:)"),
        ("  hot a -1-|\n  let b = a.map { clamp($0, to: 2, by: 3) }\n  expect b -1-|", "3:19: extra argument 'by' in call | clamp(_:to:)"),
        ("  hot a -1-|\n  let b = a.map { clamp(\"x\") }\n  expect b -1-|", "3:25: cannot convert value of type 'String' to expected argument type 'Int'"),
        ("  hot a -1-|\n  let b = a.map { clamp($0) + \"x\" }\n  expect b -1-|", "3:29: binary operator '+' cannot be applied to operands of type 'Int' and 'String'"),
        ("  hot a -1-|\n  let b = a.map { parse(\"1\") }\n  expect b -1-|", "3:19: the closure of map can throw, but map cannot throw | use tryMap to turn a throw into a failure"),
        ("  hot a -1-|\n  let b = a.map { Money(cents: $0).addng(1) }\n  expect b -1-|", "3:36: value of type 'Money' has no member 'addng' | did you mean 'adding'?"),
        ("  hot a -1-|\n  let b = a.map { Counter().add($0) }\n  expect b -1-|",
         "3:29: cannot use mutating member on immutable value of type 'Counter' | call it on a 'var': var value = …; value.add(…)"),
        ("  hot a -1-|\n  let b = a.map { n -> Int in\n    let c = Counter()\n    c.add(n)\n    return c.count\n  }\n  expect b -1-|",
         "5:5: cannot use mutating member on immutable value: 'c' is a 'let' constant | a 'let', a closure's parameter or a loop's variable cannot change: copy it into a 'var' (var next = c) and change the copy"),
        ("  hot a -1-|\n  let b = a.map { Money(cents: $0, currency: \"x\") }\n  expect b -1-|", "3:19: extra argument 'currency' in call | Money(cents:)"),
        ("  hot a -1-|\n  let b = a.map { n -> Int in\n    func f(_ y: Int) -> Int { y }\n    return f(n)\n  }\n  expect b -1-|",
         "4:5: local functions are not supported in closures of a .marble file yet | declare it at file level or in the test (func NAME(…) { … } on a line of its own), or bind a closure: let NAME = { (x: Int) -> Int in … }"),
    ])
    func callMistakesArePinned(_ lines: String, _ expected: String) {
        let found = run(lines)
        #expect(found.first.map { $0.replacingOccurrences(of: "^\\d+:", with: "", options: .regularExpression) }
                == expected.replacingOccurrences(of: "^\\d+:", with: "", options: .regularExpression), "all: \(found)")
    }

    /// The diagnostics of a whole file, as `line:column: message | hint`.
    func diagnostics(_ source: String) -> [String] {
        runMarble(source + "\ntest \"t\"\n  hot t -\n  expect t -").diagnostics.map { "\($0.line):\($0.column): \($0.message)" + ($0.hint.map { " | " + $0 } ?? "") }
    }

    @Test(arguments: [
        ("func g(_ x: Int) -> Int { \"a\" }", "1:27: cannot convert return expression of type 'String' to return type 'Int'"),
        ("func g(_ x: Int) -> Int { if x > 0 { return 1 } }",
         "1:6: missing return in global function expected to return 'Int' | every way through the body must end with 'return VALUE' (or 'throw')"),
        ("func g(_ x: Int) -> Int {\n  let y = x\n}", "1:6: missing return in global function expected to return 'Int' | every way through the body must end with 'return VALUE' (or 'throw')"),
        ("func g(_ x: Int) -> Int { throw \"no\" }",
         "1:27: error is not handled because the enclosing function is not declared 'throws' | declare it: func g(…) throws -> …, or catch the error with do { … } catch { … }"),
        ("func g(_ x: Int = \"a\") -> Int { x }", "1:19: cannot convert value of type 'String' to expected argument type 'Int'"),
        ("func g(_ x: Innt) -> Int { 1 }", "1:13: cannot find type 'Innt' in scope | did you mean 'Int'?"),
        ("func g(_ x: Int) -> Int { y }", "1:27: cannot find 'y' in scope"),
        ("func g() -> Int { 1 }\nfunc g(_ x: Int) -> Int { x }", "2:6: invalid redeclaration of 'g' | overloading is not supported in a .marble file yet: give each function its own name"),
        ("struct A {\n  var x: Int\n  func f() -> Int { x }\n  func f(_ y: Int) -> Int { y }\n}",
         "4:8: invalid redeclaration of 'f' | overloading is not supported in a .marble file yet: give each function its own name"),
        ("struct A {\n  var x: Int\n  func f() { x += 1 }\n}",
         "3:14: cannot assign to property: 'self' is immutable | mark the method 'mutating' to make 'self' mutable: mutating func …"),
        ("struct A {\n  var x: Int\n  init(y: Int) { x = y }\n}\nlet a = A(x: 1)", "5:1: 'let' must be inside a test | only 'frame', 'notation', 'values' and type declarations may come before the first test; start one with: test \"NAME\""),
        ("enum E {\n  case a\n  init() { self = .a }\n}", "3:3: 'init' is not supported in an enum of a .marble file yet | write a static func that returns a case: static func make(…) -> E"),
        ("func g<T>(_ x: T) -> T { x }", "1:7: generic functions are not supported in a .marble file yet | write the function for the type it is used with: func g(_ value: Int) …"),
        ("func g(_ x: inout Int) { }", "1:13: 'inout' parameters are not supported in a .marble file yet | return the changed value instead: func g(…) -> TYPE"),
        ("func g(_ xs: Int...) -> Int { 0 }", "1:14: variadic parameters are not supported in a .marble file yet | take an array: xs: [Int]"),
        ("struct A {\n  static var count = 0\n}",
         "2:3: 'static var' is not supported in a struct of a .marble file | a static var is state shared by every test: write 'static let' for a constant"),
    ])
    func declarationMistakesArePinned(_ source: String, _ expected: String) {
        let found = diagnostics(source)
        #expect(found.first == expected, "all: \(found)")
    }

    @Test func anInitReplacesTheMemberwiseInitializer() {
        let source = "struct A {\n  var x: Int\n  init(y: Int) { x = y }\n}\n"
        #expect(problems("  hot a -1-|\n  let b = a.map { A(x: $0).x }\n  expect b -1-|", declarations: source).first
                == "7:19: incorrect argument label in call (have 'x:', expected 'y:') | A(y:)")
        // One declared in an extension keeps it, as in Swift.
        let extended = "struct A { var x: Int }\nextension A {\n  init(y: Int) { x = y * 2 }\n}\n"
        #expect(problems("  hot a -1-|\n  let b = a.map { A(x: $0).x + A(y: $0).x }\n  expect b -3-|", declarations: extended) == [])
    }
}
