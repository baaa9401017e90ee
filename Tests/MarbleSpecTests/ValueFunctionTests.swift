import Testing
@testable import MarbleSpec

/// `ValueFunction` reuses one argument array across calls; a result that kept the array must
/// not change when the next call writes its arguments.
@Suite struct ValueFunctionTests {
    @Test func aKeptArgumentArrayIsNotOverwritten() {
        let keep = ValueFunction<Value> { .tuple($0) }
        let first = keep(.int(1))
        let second = keep(.int(2))
        let pair = keep(.int(3), .int(4))
        let otherPair = keep(.int(5), .int(6))
        #expect(first == .tuple([.int(1)]))
        #expect(second == .tuple([.int(2)]))
        #expect(pair == .tuple([.int(3), .int(4)]))
        #expect(otherPair == .tuple([.int(5), .int(6)]))
        #expect(keep([.int(7), .int(8), .int(9)]) == .tuple([.int(7), .int(8), .int(9)]))
    }

    @Test func throwingFunctionsPassErrorsAndReuseArguments() throws {
        let checked = ThrowingValueFunction<Value> { arguments in
            guard arguments.first != .int(0) else { throw StreamError(message: "zero") }
            return .tuple(arguments)
        }
        let kept = try checked(.int(1))
        #expect(throws: StreamError.self) { try checked(.int(0)) }
        #expect(try checked(.int(2), .int(3)) == .tuple([.int(2), .int(3)]))
        #expect(kept == .tuple([.int(1)]))
    }
}
