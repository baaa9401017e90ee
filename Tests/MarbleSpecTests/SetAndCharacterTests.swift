import Testing
@testable import MarbleSpec

/// `Set` and `Character` in closures (issue 25 item 1): each gives Swift's result, with the one
/// decision Swift leaves open — a set is walked and printed in key order — and its mistakes are
/// refused before the run in Swift's words.
@Suite struct SetAndCharacterTests {
    // MARK: Set

    @Test(arguments: [
        // Construction: from an array (duplicates dropped), empty with its element type, from an
        // annotation, from a range; count, isEmpty, contains.
        ("-a-|", "{ Set($0).count }", "-x-|", "a = [3, 1, 3, 2], x = 3"),
        ("-1-|", "{ _ -> Int in var s = Set<String>(); s.insert(\"a\"); s.insert(\"a\"); s.insert(\"b\"); return s.count }", "-x-|", "x = 2"),
        ("-1-|", "{ _ -> Bool in let s: Set<Int> = [1, 2]; return s.contains(2) && !s.contains(5) && !s.isEmpty && Set<Int>().isEmpty }", "-x-|", "x = true"),
        ("-1-|", "{ _ in Set(0..<3).count }", "-x-|", "x = 3"),
        // The algebra, with a set or an array as the other side.
        ("-1-|", "{ _ -> String in let s = Set([3, 1, 2]); let t: Set = [2, 5]; return \"\\(s.union(t)) \\(s.intersection(t)) \\(s.subtracting(t)) \\(s.symmetricDifference([2, 9]))\" }",
         "-x-|", #"x = "[1, 2, 3, 5] [2] [1, 3] [1, 3, 9]""#),
        ("-1-|", "{ _ in [Set([1]).isSubset(of: [1, 2]), Set([1, 2]).isSuperset(of: Set([2])), Set([1]).isDisjoint(with: [2])] }", "-x-|", "x = [true, true, true]"),
        // Equality ignores the order elements came in, as Swift's.
        ("-1-|", "{ _ in Set([\"b\", \"a\"]) == Set([\"a\", \"b\", \"a\"]) }", "-x-|", "x = true"),
        // Changing a var: insert (its pair, taken apart by position), remove, removeAll, formUnion, subtract.
        ("-1-|", "{ _ -> String in var s: Set<Int> = []; let first = s.insert(4); let again = s.insert(4); s.formUnion([7, 1]); let gone = s.remove(7); let none = s.remove(8); s.subtract([1]); return \"\\(first.0) \\(again.0) \\(gone ?? 0) \\(none ?? 0) \\(s)\" }",
         "-x-|", #"x = "true false 7 0 [4]""#),
        ("-1-|", "{ _ -> Int in var s = Set([1, 2]); s.removeAll(); s.formIntersection([1]); return s.count }", "-x-|", "x = 0"),
        // Walks in key order (numbers by value, strings alphabetically): for, map, sorted, first, min, filter (a Set).
        ("-1-|", "{ _ -> String in var out = \"\"; for w in Set([\"to\", \"be\", \"or\"]) { out += w }; return out }", "-x-|", #"x = "beorto""#),
        ("-1-|", "{ _ -> String in let s = Set([30, 10, 20]); return \"\\(s.map { $0 / 10 }) \\(s.sorted(by: >)) \\(s.first ?? 0) \\(s.min() ?? 0) \\(s.filter { $0 > 10 }) \\(s.reduce(0, +))\" }",
         "-x-|", #"x = "[1, 2, 3] [30, 20, 10] 10 10 [20, 30] 60""#),
        ("-1-|", "{ _ in Set([\"b\", \"a\"]).joined(separator: \"+\") }", "-x-|", #"x = "a+b""#),
    ])
    func setsGive(_ input: String, _ body: String, _ output: String, _ values: String) {
        #expect(mapping(input, body, output, values: values) == [])
    }

    @Test func aSetFlowsThroughAStreamAndIsWrittenAsSwiftWritesIt() {
        // As a stream's value it is `Set([…])` in a marble, and a difference prints it so.
        #expect(problems("  hot a -a-|\n  values a = [\"b\", \"a\", \"b\"]\n  let b = a.map { Set($0) }\n  expect b -{Set([\"a\", \"b\"])}-|") == [])
        #expect(problems("  hot a -a-|\n  values a = [1]\n  let b = a.map { Set($0) }\n  expect b -{Set([2])}-|")
            == ["b frame 1: expected {Set([2])}, got {Set([1])}"])
        // A struct's Set property takes an array literal, as Swift's memberwise initializer does.
        let declarations = "struct Tags: Equatable {\n  var names: Set<String> = []\n}\n"
        #expect(problems("  hot a -a-|\n  values a = \"x\"\n  let b = a.map { t -> Int in var tags = Tags(names: [\"y\", \"y\"]); tags.names.insert(t); return tags.names.count }\n  expect b -{2}-|",
                         declarations: declarations) == [])
    }

    @Test(arguments: [
        ("{ Set([1]).contains(\"a\") }", "3:37: cannot convert value of type 'String' to expected argument type 'Int'"),
        ("{ Set([1]).union([\"a\"]) }", "3:34: cannot convert value of type '[String]' to expected argument type 'Set<Int>'"),
        ("{ Set([1]).cont }", "3:28: value of type 'Set<Int>' has no member 'cont'"),
        ("{ Set([1]) < Set([2]) }", "3:28: binary operator '<' cannot be applied to two 'Set<Int>' operands"),
        ("{ _ -> Int in let s = Set([1]); s.insert(2); return 1 }",
         "3:49: cannot use mutating member on immutable value: 's' is a 'let' constant | a 'let', a closure's parameter or a loop's variable cannot change: copy it into a 'var' (var next = s) and change the copy"),
        ("{ _ -> Int in var s = Set([1]); s.insert(\"a\"); return 1 }", "3:58: cannot convert value of type 'String' to expected argument type 'Int'"),
    ])
    func setMistakesAreRefused(_ body: String, _ expected: String) {
        #expect(problems("  hot a -1-|\n  let b = a.map \(body)\n  expect b -|").first.map { String($0.prefix { $0 != "|" }).trimmingCharacters(in: .whitespaces) }
                == String(expected.prefix { $0 != "|" }).trimmingCharacters(in: .whitespaces))
    }

    // MARK: Character

    @Test(arguments: [
        // A string's filter gives a String; map, contains, allSatisfy, first(where:) walk its Characters.
        ("-a-|", "{ $0.filter { $0 != \" \" } }", "-x-|", #"a = "a b c", x = "abc""#),
        ("-a-|", "{ $0.filter { $0.isLetter }.uppercased() }", "-x-|", #"a = "a1-b", x = "AB""#),
        ("-a-|", "{ $0.map { $0.isNumber ? \"#\" : String($0) }.joined() }", "-x-|", #"a = "a1b2", x = "a#b#""#),
        ("-a-|", "{ $0.contains { $0.isWhitespace } }", "-x-|", #"a = "a b", x = true"#),
        ("-a-|", "{ $0.allSatisfy { $0.isHexDigit } }", "-x-|", #"a = "c0ffee", x = true"#),
        ("-a-|", "{ $0.first(where: { $0.isUppercase }).flatMap { $0.isLetter ? String($0) : nil } ?? \"-\" }", "-x-|", #"a = "abCd", x = "C""#),
        ("-a-|", "{ $0.compactMap { $0.wholeNumberValue }.reduce(0, +) }", "-x-|", #"a = "a1b22", x = 5"#),
        // Character values: Character(_:), literals where a Character is expected, the properties.
        ("-1-|", "{ _ -> String in let c = Character(\"a\"); let d: Character = \"7\"; return \"\\(c.isLetter) \\(d.isNumber) \\(d.wholeNumberValue ?? -1) \\(c.uppercased()) \\(c.asciiValue ?? 0) \\(Character(\"é\").isASCII)\" }",
         "-x-|", #"x = "true true 7 A 97 false""#),
        ("-a-|", "{ w -> Int in var n = 0; for c in w { switch c { case \"a\", \"e\": n += 1; default: break } }; return n }", "-x-|", #"a = "beagle", x = 3"#),
        // String(characters), reversed(), sorted(), Array(string), append(Character), removeLast().
        ("-a-|", "{ String($0.reversed()) + String(Array($0).filter { $0 != \"b\" }) + String($0.sorted()) }", "-x-|", #"a = "cab", x = "baccaabc""#),
        ("-a-|", "{ w -> String in var out = \"\"; for c in w where c.isLetter { out.append(c) }; var rest = out; let last = rest.removeLast(); return \"\\(out) \\(last) \\(rest.lowercased())\" }",
         "-x-|", #"a = "A1bC", x = "AbC C ab""#),
    ])
    func charactersGive(_ input: String, _ body: String, _ output: String, _ values: String) {
        #expect(mapping(input, body, output, values: values) == [])
    }

    @Test(arguments: [
        ("{ $0.first! + \"x\" }", "4:29: binary operator '+' cannot be applied to two 'Character' operands"),
        ("{ $0.isLetter }", "4:22: value of type 'String' has no member 'isLetter'"),
        ("{ String([1, 2]) }", "4:19: no exact matches in call to initializer 'String(_:)' for '[Int]'"),
        ("{ $0.first.map { String($0) } }", "4:28: 'map' on an optional Character is not supported in a .marble file yet"),
        ("{ Character(1) }", "4:19: Character(_:) takes a String of one character, not 'Int'"),
        ("{ c -> Bool in let s: String = \"ab\"; return s.first! == s }", "4:70: binary operator '==' cannot be applied to operands of type 'Character' and 'String'"),
    ])
    func characterMistakesAreRefused(_ body: String, _ expected: String) {
        #expect(problems("  hot a -a-|\n  values a = \"ab\"\n  let b = a.map \(body)\n  expect b -|").first.map { String($0.prefix { $0 != "|" }).trimmingCharacters(in: .whitespaces) }
                == expected)
    }

    @Test func aCharacterOfSeveralCharactersIsARuntimeErrorAsSwiftTraps() {
        #expect(problems("  hot a -a-|\n  values a = \"ab\"\n  let b = a.map { Character($0) }\n  expect b -|").first
            == "4:19: Can't form a Character from a String containing more than one extended grapheme cluster (\"ab\")")
    }

    // MARK: enumerated(), and what closures still refuse

    @Test func enumeratedPairsEachElementWithItsOffset() {
        #expect(mapping("-a-|", "{ xs -> String in var out = \"\"; for (i, x) in xs.enumerated() where i > 0 { out += \"\\(i)\\(x)\" }; return out }", "-x-|",
                        values: #"a = ["a", "b", "c"], x = "1b2c""#) == [])
        #expect(mapping("-a-|", "{ $0.enumerated().map { $0.0 * 10 + $0.1 } }", "-x-|", values: "a = [5, 6], x = [5, 16]") == [])
    }

    @Test func aTypeDeclaredInAClosureIsRefusedWithWhereToDeclareIt() {
        #expect(problems("  hot a -1-|\n  let b = a.map { x -> Int in\n    struct Box { var v: Int }\n    return Box(v: x).v\n  }\n  expect b -1-|").first
            == "4:5: local types are not supported in closures of a .marble file yet | declare it at file level or in the test: struct NAME { … } on a line of its own")
        #expect(problems("  hot a -1-|\n  let b = a.map { x -> Int in\n    enum K { case a }\n    return x\n  }\n  expect b -1-|").first?
            .hasPrefix("4:5: local types are not supported in closures of a .marble file yet | declare it at file level or in the test: enum NAME") == true)
    }
}
