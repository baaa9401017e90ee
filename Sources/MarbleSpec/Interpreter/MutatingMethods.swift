import MarbleSyntax

/// The mutating methods of Swift's collections, strings and Bools that app closures call on a
/// `var` or a property of one (`next.items.append(x)`, `counts.removeValue(forKey: k)`,
/// `flag.toggle()`): each one entry, with its labels, its static type (for `ExpressionChecker`)
/// and what it does to the value (for `Interpreter`). The value is changed where it is stored, by
/// `Interpreter.modify`, so a copy made before (`var next = state`) keeps what it had.
enum MutatingMethods {
    enum Kind {
        case array, dictionary, string, bool, set

        init?(_ value: Value) {
            switch value {
            case .array: self = .array
            case .record(let instance) where instance.isSet: self = .set
            case .dictionary: self = .dictionary
            case .string: self = .string
            case .bool: self = .bool
            default: return nil
            }
        }

        init?(_ type: SpecType) {
            switch type {
            case .array: self = .array
            case .set: self = .set
            case .dictionary: self = .dictionary
            case .string: self = .string
            case .bool: self = .bool
            default: return nil
            }
        }
    }

    typealias Run = @Sendable (_ receiver: inout Value, _ arguments: [Value], _ closures: [ClosureValue], _ call: AppMembers.MethodCall) throws(EvalError) -> Value

    /// One overload: its labels (nil for `_`), which arguments are closures (by position), the types
    /// its arguments must have and its result's, from the receiver's type, and its work.
    struct Method: Sendable {
        var labels: [String?]
        var closures: Set<Int> = []
        var type: @Sendable (_ receiver: SpecType) -> (arguments: [SpecType], result: SpecType)
        var run: Run

        func accepts(_ labels: [String?], closures: [Bool]) -> Bool {
            guard labels.count == self.labels.count else { return false }
            return zip(zip(labels, self.labels), closures).enumerated().allSatisfy { index, pair in
                pair.0.0 == pair.0.1 || (pair.0.0 == nil && pair.1 && self.closures.contains(index))
            }
        }

        var selector: String { "(" + labels.map { ($0 ?? "_") + ":" }.joined() + ")" }
    }

    /// Every name that is a mutating method of some kind.
    static let names: Set<String> = Set(methods.values.flatMap(\.keys))

    /// The overloads of `name` on a kind.
    static func overloads(_ name: String, _ kind: Kind) -> [Method] { methods[kind]?[name] ?? [] }

    private static func element(_ type: SpecType) -> SpecType {
        if case .array(let element) = type { return element }
        if case .set(let element) = type { return element }
        return .any
    }

    /// `formUnion(_:)` and its kin: the set becomes what `AppMembers`' `union(_:)` and its kin give.
    private static func formSet(_ operation: String) -> [Method] {
        [Method(labels: [nil], type: { ($0 == .set(.never) ? [.any] : [$0], .void) }) { receiver, args, _, call throws(EvalError) in
            guard let method = AppMembers.method(operation, .set) else { return void }
            receiver = try method.run(receiver, args, [], AppMembers.MethodCall(name: operation, location: call.location, interpreter: call.interpreter))
            return void
        }]
    }

    private static func keyValue(_ type: SpecType) -> (SpecType, SpecType) {
        if case .dictionary(let key, let value) = type { return (key, value) }
        return (.any, .any)
    }

    private static let void = Value.tuple([])

    private static func items(_ value: Value) -> [Value] {
        if case .array(let items) = value { return items }
        return []
    }

    private static func index(_ value: Value, in items: [Value], _ call: AppMembers.MethodCall, allowingEnd: Bool = false) throws(EvalError) -> Int {
        guard case .int(let index) = value, index >= 0, index < items.count || (allowingEnd && index == items.count) else {
            throw call.fail("index out of range: \(value.literal) in an array of \(items.count) element\(items.count == 1 ? "" : "s")")
        }
        return index
    }

    /// `removeFirst()` / `removeLast()` (the element removed; an empty array is Swift's trap, an
    /// error here) and `removeFirst(k)` / `removeLast(k)`.
    private static func removeFromEnd(last: Bool) -> [Method] {
        let end = last ? "last" : "first"
        return [
            Method(labels: [], type: { ([], element($0)) }) { receiver, _, _, call throws(EvalError) in
                var list = items(receiver)
                if list.isEmpty { throw call.fail("can't remove \(end) element from an empty collection", hint: "test isEmpty first, or use popLast(), which gives nil") }
                let removed = last ? list.removeLast() : list.removeFirst()
                receiver = .array(list)
                return removed
            },
            Method(labels: [nil], type: { _ in ([.int], .void) }) { receiver, args, _, call throws(EvalError) in
                let list = items(receiver)
                guard case .int(let k) = args[0], k >= 0, k <= list.count else {
                    throw call.fail("can't remove more items from a collection than it contains (\(args[0].literal) of \(list.count))")
                }
                receiver = .array(last ? Array(list.dropLast(k)) : Array(list.dropFirst(k)))
                return void
            },
        ]
    }

    /// `sort()` and `sort(by:)` (and `sorted(by:)`): Swift's own sort with the file's ordering, so
    /// equal elements and the calls of the closure come as in Swift.
    static func sorted(_ items: [Value], by closure: ClosureValue?, _ call: AppMembers.MethodCall) throws(EvalError) -> [Value] {
        var failure: EvalError?
        let sorted = items.sorted { a, b in
            guard failure == nil else { return false }
            let order = Result { () throws(EvalError) -> Bool in
                if let closure { return try call.call(closure, [a, b]) == .bool(true) }
                return try Arithmetic.compare(a, b, op: "<", at: call.location) < 0
            }
            switch order {
            case .success(let less): return less
            case .failure(let error):
                failure = error
                return false
            }
        }
        if let failure { throw failure }
        return sorted
    }

    private static let methods: [Kind: [String: [Method]]] = [
        .set: [
            // Swift's `insert` gives `(inserted: Bool, memberAfterInsert: Element)`; here the pair
            // is taken apart by position (`.0`), as `enumerated()`'s.
            "insert": [
                Method(labels: [nil], type: { ([element($0)], .tuple([.bool, element($0)])) }) { receiver, args, _, _ throws(EvalError) in
                    let elements = receiver.setElements ?? []
                    if let member = elements.first(where: { $0 == args[0] }) { return .tuple([.bool(false), member]) }
                    receiver = .set(elements + [args[0]])
                    return .tuple([.bool(true), args[0]])
                },
            ],
            "remove": [
                Method(labels: [nil], type: { ([element($0)], .optional(element($0))) }) { receiver, args, _, _ throws(EvalError) in
                    let elements = receiver.setElements ?? []
                    guard let member = elements.first(where: { $0 == args[0] }) else { return .null }
                    receiver = .set(elements.filter { $0 != args[0] })
                    return member
                },
            ],
            "removeAll": [
                Method(labels: [], type: { _ in ([], .void) }) { receiver, _, _, _ throws(EvalError) in
                    receiver = .set([])
                    return void
                },
            ],
            "formUnion": formSet("union"),
            "subtract": formSet("subtracting"),
            "formIntersection": formSet("intersection"),
            "formSymmetricDifference": formSet("symmetricDifference"),
        ],
        .array: [
            "append": [
                Method(labels: [nil], type: { ([element($0)], .void) }) { receiver, args, _, _ throws(EvalError) in
                    var list = items(receiver)
                    list.append(args[0])
                    receiver = .array(list)
                    return void
                },
                Method(labels: ["contentsOf"], type: { ([$0], .void) }) { receiver, args, _, call throws(EvalError) in
                    receiver = .array(items(receiver) + (try call.interpreter.elements(of: args[0], at: call.location)))
                    return void
                },
            ],
            "insert": [
                Method(labels: [nil, "at"], type: { ([element($0), .int], .void) }) { receiver, args, _, call throws(EvalError) in
                    var list = items(receiver)
                    list.insert(args[0], at: try index(args[1], in: list, call, allowingEnd: true))
                    receiver = .array(list)
                    return void
                },
            ],
            "remove": [
                Method(labels: ["at"], type: { ([.int], element($0)) }) { receiver, args, _, call throws(EvalError) in
                    var list = items(receiver)
                    let removed = list.remove(at: try index(args[0], in: list, call))
                    receiver = .array(list)
                    return removed
                },
            ],
            "removeFirst": removeFromEnd(last: false),
            "removeLast": removeFromEnd(last: true),
            "popLast": [
                Method(labels: [], type: { ([], .optional(element($0))) }) { receiver, _, _, _ throws(EvalError) in
                    var list = items(receiver)
                    let removed = list.popLast() ?? .null
                    receiver = .array(list)
                    return removed
                },
            ],
            "removeAll": [
                Method(labels: [], type: { _ in ([], .void) }) { receiver, _, _, _ throws(EvalError) in
                    receiver = .array([])
                    return void
                },
                Method(labels: ["where"], closures: [0], type: { _ in ([.bool], .void) }) { receiver, _, closures, call throws(EvalError) in
                    var kept: [Value] = []
                    for item in items(receiver) where try call.call(closures[0], [item]) != .bool(true) { kept.append(item) }
                    receiver = .array(kept)
                    return void
                },
            ],
            "sort": [
                Method(labels: [], type: { _ in ([], .void) }) { receiver, _, _, call throws(EvalError) in
                    receiver = .array(try sorted(items(receiver), by: nil, call))
                    return void
                },
                Method(labels: ["by"], closures: [0], type: { _ in ([.bool], .void) }) { receiver, _, closures, call throws(EvalError) in
                    receiver = .array(try sorted(items(receiver), by: closures[0], call))
                    return void
                },
            ],
            "reverse": [
                Method(labels: [], type: { _ in ([], .void) }) { receiver, _, _, _ throws(EvalError) in
                    receiver = .array(items(receiver).reversed())
                    return void
                },
            ],
            "swapAt": [
                Method(labels: [nil, nil], type: { _ in ([.int, .int], .void) }) { receiver, args, _, call throws(EvalError) in
                    var list = items(receiver)
                    list.swapAt(try index(args[0], in: list, call), try index(args[1], in: list, call))
                    receiver = .array(list)
                    return void
                },
            ],
        ],
        .dictionary: [
            "removeValue": [
                Method(labels: ["forKey"], type: { ([keyValue($0).0], .optional(keyValue($0).1)) }) { receiver, args, _, _ throws(EvalError) in
                    guard case .dictionary(var dictionary) = receiver else { return .null }
                    let removed = dictionary.entries.removeValue(forKey: args[0]) ?? .null
                    receiver = .dictionary(dictionary)
                    return removed
                },
            ],
            "updateValue": [
                Method(labels: [nil, "forKey"], type: { ([keyValue($0).1, keyValue($0).0], .optional(keyValue($0).1)) }) { receiver, args, _, _ throws(EvalError) in
                    guard case .dictionary(var dictionary) = receiver else { return .null }
                    let old = dictionary.entries.updateValue(args[0], forKey: args[1]) ?? .null
                    receiver = .dictionary(dictionary)
                    return old
                },
            ],
            "merge": [
                Method(labels: [nil, "uniquingKeysWith"], closures: [1], type: { ([$0, keyValue($0).1], .void) }) { receiver, args, closures, call throws(EvalError) in
                    guard case .dictionary(var dictionary) = receiver, case .dictionary(let other) = args[0] else { return void }
                    for (key, value) in other.orderedEntries {
                        if let old = dictionary.entries[key] {
                            dictionary.entries[key] = try call.call(closures[0], [old, value])
                        } else {
                            dictionary.entries[key] = value
                        }
                    }
                    receiver = .dictionary(dictionary)
                    return void
                },
            ],
            "removeAll": [
                Method(labels: [], type: { _ in ([], .void) }) { receiver, _, _, _ throws(EvalError) in
                    receiver = .dictionary(DictionaryValue())
                    return void
                },
            ],
        ],
        .string: [
            "append": [
                Method(labels: [nil], type: { _ in ([.string], .void) }) { receiver, args, _, call throws(EvalError) in
                    receiver = .string(try call.string(receiver) + (try call.string(args[0])))
                    return void
                },
            ],
            "removeLast": [
                Method(labels: [], type: { _ in ([], .character) }) { receiver, _, _, call throws(EvalError) in
                    var text = try call.string(receiver)
                    guard let last = text.popLast() else { throw call.fail("can't remove last element from an empty collection", hint: "test isEmpty first") }
                    receiver = .string(text)
                    return .string(String(last))
                },
            ],
            "removeFirst": [
                Method(labels: [], type: { _ in ([], .character) }) { receiver, _, _, call throws(EvalError) in
                    var text = try call.string(receiver)
                    guard !text.isEmpty else { throw call.fail("can't remove first element from an empty collection", hint: "test isEmpty first") }
                    let first = text.removeFirst()
                    receiver = .string(text)
                    return .string(String(first))
                },
            ],
            "removeAll": [
                Method(labels: [], type: { _ in ([], .void) }) { receiver, _, _, _ throws(EvalError) in
                    receiver = .string("")
                    return void
                },
            ],
        ],
        .bool: [
            "toggle": [
                Method(labels: [], type: { _ in ([], .void) }) { receiver, _, _, _ throws(EvalError) in
                    if case .bool(let flag) = receiver { receiver = .bool(!flag) }
                    return void
                },
            ],
        ],
    ]
}
