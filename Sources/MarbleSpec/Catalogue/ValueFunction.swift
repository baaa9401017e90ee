/// A closure of the marble file as an operator calls it: with one or two values
/// (`transform($0)`, `next($0, $1)`) or with a list. Calls with one or two values reuse one
/// argument array, so calling a closure once per value allocates nothing.
///
/// A closure of Int arithmetic also has direct forms (`ClosureCompiler.IntegerForm`), tried
/// first with one or two values: nil from them means "call the closure".
struct ValueFunction<Result> {
    private let body: ([Value]) -> Result
    private let arguments = ArgumentArrays()
    private let one: ((Value) -> Result?)?
    private let two: ((Value, Value) -> Result?)?

    init(_ body: @escaping ([Value]) -> Result, one: ((Value) -> Result?)? = nil, two: ((Value, Value) -> Result?)? = nil) {
        self.body = body
        self.one = one
        self.two = two
    }

    func callAsFunction(_ list: [Value]) -> Result { body(list) }

    func callAsFunction(_ value: Value) -> Result {
        if let one, let result = one(value) { return result }
        return body(arguments.holding(value))
    }

    func callAsFunction(_ first: Value, _ second: Value) -> Result {
        if let two, let result = two(first, second) { return result }
        return body(arguments.holding(first, second))
    }

    /// The same function with its results converted (the direct forms too, when `convert` gives
    /// nil the closure runs and `body` decides).
    func map<Other>(_ convert: @escaping (Result) -> Other?, else body: @escaping ([Value]) -> Other) -> ValueFunction<Other> {
        ValueFunction<Other>(body,
                             one: one.map { one in { value in one(value).flatMap(convert) } },
                             two: two.map { two in { first, second in two(first, second).flatMap(convert) } })
    }
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
