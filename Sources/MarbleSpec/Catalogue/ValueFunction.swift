/// A closure of the marble file as an operator calls it: with one or two values
/// (`transform($0)`, `next($0, $1)`) or with a list. Calls with one or two values reuse one
/// argument array, so calling a closure once per value allocates nothing.
struct ValueFunction<Result> {
    private let body: ([Value]) -> Result
    private let arguments = ArgumentArrays()

    init(_ body: @escaping ([Value]) -> Result) { self.body = body }

    func callAsFunction(_ list: [Value]) -> Result { body(list) }
    func callAsFunction(_ value: Value) -> Result { body(arguments.holding(value)) }
    func callAsFunction(_ first: Value, _ second: Value) -> Result { body(arguments.holding(first, second)) }
}

/// The same for a closure that may throw (the try- operators).
struct ThrowingValueFunction<Result> {
    private let body: ([Value]) throws -> Result
    private let arguments = ArgumentArrays()

    init(_ body: @escaping ([Value]) throws -> Result) { self.body = body }

    func callAsFunction(_ list: [Value]) throws -> Result { try body(list) }
    func callAsFunction(_ value: Value) throws -> Result { try body(arguments.holding(value)) }
    func callAsFunction(_ first: Value, _ second: Value) throws -> Result { try body(arguments.holding(first, second)) }
}

/// The argument arrays one function reuses. After a call the function holds the only reference
/// again, so the next call writes in place; a callee that kept the array (in a tuple, say) has
/// its own copy by copy-on-write, so reuse never changes a result.
final class ArgumentArrays {
    // Single-threaded, and each access is over before the next begins.
    @exclusivity(unchecked) private var one: [Value] = [.null]
    @exclusivity(unchecked) private var two: [Value] = [.null, .null]

    func holding(_ value: Value) -> [Value] {
        one[0] = value
        return one
    }

    func holding(_ first: Value, _ second: Value) -> [Value] {
        two[0] = first
        two[1] = second
        return two
    }
}
