import Testing
@testable import MarbleRewrite

@Suite("MarbleFormatter: the layout fmt gives")
struct MarbleFormatterTests {
    func format(_ source: String) throws -> String {
        switch MarbleFormatter.format(source) {
        case .success(let text): return text
        case .failure(let problem): throw problem
        }
    }

    @Test func alignsEqualFramesInOneColumn() throws {
        let source = """
            // Top comment   \n\
            frame 100ms

            test "wide values"   // about this test
                hot n   -1-2-3-|   // source
              let m=n.map { $0 * 10 }
              expect   m   -{10}-{20}-{30}-|
              expect n.subscriptions   ^------!

            """
        #expect(try format(source) == """
            // Top comment
            frame 100ms

            test "wide values"   // about this test
              hot    n               -1   -2   -3   -|   // source
              let    m = n.map { $0 * 10 }
              expect m               -{10}-{20}-{30}-|
              expect n.subscriptions ^-   --   --   -!

            """)
    }

    @Test func negativeFramesTimeProgressionsGroupsAndLiterals() throws {
        let source = """
            test "mixed tokens"
              hot    a   --^-1-(23)-|
              let    b = a.map { $0 }
              expect b   --1-(23)-|
              expect a.subscriptions ^-----!

            test "time"
              hot    x   -1- 1000ms -2-|
              let    y = x.map { $0 }
              expect y   -1- 1s -2-|

            """
        let formatted = try format(source)
        #expect(formatted == """
            test "mixed tokens"
              hot    a               --^-1-(23)-|
              let    b = a.map { $0 }
              expect b                 --1-(23)-|
              expect a.subscriptions   ^----   -!

            test "time"
              hot    x   -1- 1000ms -2-|
              let    y = x.map { $0 }
              expect y   -1- 1s     -2-|

            """)
    }

    @Test func lineBreaksAndMultiLineExpressionsAreKept() throws {
        let source = "test \"crlf\"\r\n  hot x   -a-|\r\n  let y = x.flatMap { v in\r\n      Just(v)\r\n  }\r\n  expect y -a-|"
        #expect(try format(source) == "test \"crlf\"\r\n  hot    x   -a-|\r\n  let    y = x.flatMap { v in\r\n      Just(v)\r\n  }\r\n  expect y   -a-|")
    }

    @Test func letLinesAlignWithTheNamesNotWithSubscriptionLabels() throws {
        let source = """
            test "x"
              hot    source -1-|
              let    v = source.map { $0 }
              expect v -1-|
              expect source.subscriptions ^--!

            """
        #expect(try format(source) == """
            test "x"
              hot    source               -1-|
              let    v      = source.map { $0 }
              expect v                    -1-|
              expect source.subscriptions ^--!

            """)
    }

    @Test func tokensThatMustStandApartStayApart() throws {
        // `# {1}` is a failure, then the value 1 in the next frame; without the space it would
        // read as `#{1}`, a failure with the error 1. A time progression needs spaces around it.
        let source = "test \"x\"\n  hot    a   -# {1}-|\n  hot    b   -1-2 3ms -|\n  expect a   -#\n"
        let formatted = try format(source)
        #expect(formatted == "test \"x\"\n  hot    a   -# {1}- |\n  hot    b   -1 -  2 3ms -|\n  expect a   -#\n")
        #expect(MarbleFormatter.sameMeaning(source, formatted) == nil)
        #expect(try format(formatted) == formatted)
    }

    @Test func theCataloguesLayoutIsAFixedPoint() throws {
        // Names padded to the longest, marbles and expressions three columns after it.
        let source = """
            frame 100ms

            test "debounce publishes the last value of a burst, and drops it at completion"
              hot    typing   -a-b-c-----d--e-|
              let    query  = typing.debounce(for: .milliseconds(300), scheduler: RunLoop.main)
              expect query    --------c-------|

            """
        #expect(try format(source) == source)
    }
}
