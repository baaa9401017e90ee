import Testing
@testable import MarbleSyntax

@Suite struct SuggestionsTests {
    static let operators = ["map", "filter", "flatMap", "debounce", "throttle", "combineLatest", "scan", "switchToLatest", "receive"]

    @Test(arguments: [
        ("expcet", "expect"),      // a swap of neighbours costs 1
        ("exepct", "expect"),
        ("expec", "expect"),
        ("hto", "hot"),
        ("subscibe", "subscribe"),
        ("Expect", "expect"),      // case is ignored…
        ("EXPECT", "expect"),
        ("lte", "let"),
        ("vaules", "values"),
    ])
    func statementKeywords(word: String, expected: String) {
        #expect(Suggestions.nearest(to: word, in: MarbleFileParser.statementKeywords) == expected)
    }

    @Test(arguments: [
        ("debouncee", "debounce"),
        ("combineLatestt", "combineLatest"),
        ("flatmap", "flatMap"),
        ("FlatMap", "flatMap"),
        ("swtichToLatest", "switchToLatest"),
        ("recieve", "receive"),
        ("scna", "scan"),
        ("filtr", "filter"),
    ])
    func operatorNames(word: String, expected: String) {
        #expect(Suggestions.nearest(to: word, in: SuggestionsTests.operators) == expected)
    }

    @Test(arguments: ["banana", "x", "zip", "flatten", "mapper", "", "merge"])
    func nothingCloseEnough(word: String) {
        #expect(Suggestions.nearest(to: word, in: SuggestionsTests.operators) == nil)
    }

    @Test func tieBreaks() {
        // Equal case-insensitive distance: the spelling nearer with case respected wins…
        #expect(Suggestions.nearest(to: "mapp", in: ["Map", "map"]) == "map")
        #expect(Suggestions.nearest(to: "Mapp", in: ["map", "Map"]) == "Map")
        // …then the first alphabetically, whatever the order of the candidates (a set's order
        // changes from run to run: issue 29, item 11).
        #expect(Suggestions.nearest(to: "ab", in: ["ac", "ad"]) == "ac")
        #expect(Suggestions.nearest(to: "ab", in: ["ad", "ac"]) == "ac")
        #expect(Suggestions.nearest(to: "ab", in: Set(["ad", "ac", "ae"])) == "ac")
        // Nearer always wins over earlier.
        #expect(Suggestions.nearest(to: "filtter", in: ["filer", "filter"]) == "filter")
    }

    @Test func shortWords() {
        #expect(Suggestions.nearest(to: "x", in: ["y", "z"]) == nil)
        #expect(Suggestions.nearest(to: "x", in: ["y", "X"]) == "X")
        #expect(Suggestions.nearest(to: "ab", in: ["abc"]) == "abc")
        #expect(Suggestions.nearest(to: "a", in: ["a"]) == "a")
    }

    @Test func anySequenceOfCandidates() {
        let set: Set<String> = ["expect"]
        #expect(Suggestions.nearest(to: "expcet", in: set) == "expect")
        #expect(Suggestions.nearest(to: "expcet", in: ["EXPECT", "other"].lazy.map { $0.lowercased() }) == "expect")
        #expect(Suggestions.nearest(to: "anything", in: [String]()) == nil)
    }

    @Test func distance() {
        func d(_ a: String, _ b: String) -> Int { Suggestions.distance(Array(a), Array(b), limit: Int.max) }
        #expect(d("", "") == 0)
        #expect(d("abc", "") == 3)
        #expect(d("", "ab") == 2)
        #expect(d("kitten", "sitting") == 3)
        #expect(d("ab", "ba") == 1)
        #expect(d("abcdef", "badcfe") == 3)
        #expect(Suggestions.distance(Array("abcdefgh"), Array("zzzzzzzz"), limit: 2) == 3)
    }
}
