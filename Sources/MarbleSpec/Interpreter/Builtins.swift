import Reactive
import MarbleSyntax
import MarbleNotation

/// The names, properties and functions the expression language knows besides operators:
/// the members listed in the format brief (`.count`, `.uppercased()`, `Int(_:)`, `min`, …) and
/// the spellings of schedulers and durations that code copied from an app uses.
enum Builtins {
    static let schedulerTypes: Set<String> = ["RunLoop", "DispatchQueue", "OperationQueue", "ImmediateScheduler", "DispatchQueue.SchedulerTimeType"]
    private static let typeNames: Set<String> = ["Int", "Double", "String", "Bool", "Never", "Error", "Void", "Subscribers", "Optional", "Array", "Timer", "Result", "TimeInterval"]
    private static let functions: Set<String> = ["min", "max", "abs", "print", "stride"]
    private static let schedulerNames: Set<String> = ["scheduler", "testScheduler", "mainScheduler"]

    static var globalNames: [String] { Array(schedulerTypes) + Array(typeNames) + Array(functions) + Array(schedulerNames) }

    static func global(_ name: String) -> Runtime? {
        if schedulerNames.contains(name) { return .scheduler }
        if schedulerTypes.contains(name) || typeNames.contains(name) || Catalogue.isConstructor(name) || name == "Publishers" {
            return .type(name)
        }
        if functions.contains(name) { return .function(name, receiver: nil) }
        return nil
    }

    static func staticMember(_ name: String, of type: String, at location: SourceLocation) throws(EvalError) -> Runtime {
        if name == "self" { return .type(type) }
        if schedulerTypes.contains(type) { return .scheduler }
        switch (type, name) {
        case ("Int", "max"): return .value(.int(.max))
        case ("Int", "min"): return .value(.int(.min))
        case ("Double", "infinity"): return .value(.double(.infinity))
        case ("Double", "nan"): return .value(.double(.nan))
        case ("Optional", "none"): return .value(.null)
        case ("Subscribers", "Demand"), ("Subscribers", "Completion"): return .type("Subscribers." + name)
        case ("Subscribers.Demand", "unlimited"): return .demand(.unlimited)
        case ("Subscribers.Demand", "none"): return .demand(.none)
        case ("Subscribers.Demand", _), ("Subscribers.Completion", _): return .member(name, [])
        default: break
        }
        let qualified = type + "." + name
        if Catalogue.isConstructor(qualified) { return .type(qualified) }
        throw EvalError.fault(SpecDiagnostic("type '\(type)' has no member '\(name)'", at: location,
            hint: Suggestions.nearest(to: qualified, in: Catalogue.constructorNames).map { "did you mean '\($0)'?" }))
    }

    /// A property of a value, or nil when `name` is not a property (it may be a method).
    static func property(_ name: String, of value: Value, at location: SourceLocation, interpreter: Interpreter) throws(EvalError) -> Runtime? {
        if let index = Int(name) {
            guard case .tuple(let items) = value, items.indices.contains(index) else {
                throw EvalError.fault(SpecDiagnostic("\(value.typeName) (\(value.literal)) has no element .\(name)", at: location))
            }
            return .value(items[index])
        }
        if let property = AppMembers.property(name, of: value) { return .value(property) }
        switch (name, value) {
        case ("count", .string(let s)): return .value(.int(s.count))
        case ("count", .array(let a)): return .value(.int(a.count))
        case ("isEmpty", .string(let s)): return .value(.bool(s.isEmpty))
        case ("isEmpty", .array(let a)): return .value(.bool(a.isEmpty))
        case ("first", .string(let s)): return .value(s.first.map { .string(String($0)) } ?? .null)
        case ("first", .array(let a)): return .value(a.first ?? .null)
        case ("last", .string(let s)): return .value(s.last.map { .string(String($0)) } ?? .null)
        case ("last", .array(let a)): return .value(a.last ?? .null)
        case ("description", _): return .value(.string(value.text))
        case ("publisher", .array(let items)):
            return .stream(StreamValue(publisher: Publishers.Sequence<[Value], StreamError>(sequence: items).eraseToAnyPublisher(), text: "\(value.literal).publisher"))
        case ("publisher", _):
            // An optional's (the type check lets only an optional's through): its value once,
            // or nothing for nil (Combine's `Optional.Publisher`).
            let wrapped: Value? = value == .null ? nil : value
            return .stream(StreamValue(publisher: wrapped.publisher.setFailureType(to: StreamError.self).eraseToAnyPublisher(), text: "\(value.literal).publisher"))
        case ("isNaN", .double(let d)): return .value(.bool(d.isNaN))
        default: return nil
        }
    }

    /// `.milliseconds(300)`, `.max(1)`, `.success(v)`, `.byTime(s, 3)`, …
    static func implicitMemberCall(_ name: String, _ args: [CallArgument], at location: SourceLocation, interpreter: Interpreter) throws(EvalError) -> Runtime {
        let units: [String: Int64] = ["seconds": 1_000_000_000, "milliseconds": 1_000_000, "microseconds": 1_000, "nanoseconds": 1]
        if let unit = units[name] {
            guard args.count == 1, case .value(let amount) = args[0].value else {
                throw EvalError.fault(SpecDiagnostic(".\(name)(_:) takes one number", at: location))
            }
            return .duration(try frames(amount, unit: unit, name: name, at: location, frameNanoseconds: interpreter.frameNanoseconds))
        }
        if name == "max" {
            guard args.count == 1, case .value(.int(let n)) = args[0].value, n >= 0 else {
                throw EvalError.fault(SpecDiagnostic(".max(_:) takes a non-negative Int", at: location))
            }
            return .demand(.max(n))
        }
        return .member(name, args.map(\.value))
    }

    static func frames(_ amount: Value, unit: Int64, name: String, at location: SourceLocation, frameNanoseconds: Int64) throws(EvalError) -> Int {
        let nanoseconds: Double
        switch amount {
        case .int(let n):
            let (product, overflow) = Int64(n).multipliedReportingOverflow(by: unit)
            guard !overflow else { throw tooLong(".\(name)(\(n))", frameNanoseconds, at: location) }
            guard product % frameNanoseconds == 0 else { throw notWhole(".\(name)(\(n))", frameNanoseconds, at: location) }
            return try checkedFrames(Int(product / frameNanoseconds), written: ".\(name)(\(n))", at: location, frameNanoseconds: frameNanoseconds)
        case .double(let d): nanoseconds = d * Double(unit)
        default: throw EvalError.fault(SpecDiagnostic(".\(name)(_:) takes a number, not \(amount.typeName)", at: location))
        }
        let frames = nanoseconds / Double(frameNanoseconds)
        guard !frames.isNaN else { throw notWhole(".\(name)(\(amount.literal))", frameNanoseconds, at: location) }
        // Below 2^53 (`VirtualTimeEnd.last` is), a whole Double converts to Int exactly.
        guard abs(frames) <= Double(VirtualTimeEnd.last) else { throw tooLong(".\(name)(\(amount.literal))", frameNanoseconds, at: location) }
        guard frames.rounded() == frames else { throw notWhole(".\(name)(\(amount.literal))", frameNanoseconds, at: location) }
        return Int(frames)
    }

    /// `frames`, when a duration of that many frames (either way) stays inside virtual time;
    /// `written` is how the file wrote it. Every duration a file gives (`.seconds(_:)` and its
    /// kin, a plain number of frames) is read through here, so that no sum of two frames overflows.
    static func checkedFrames(_ frames: Int, written: String, at location: SourceLocation, frameNanoseconds: Int64) throws(EvalError) -> Int {
        guard frames.magnitude <= UInt(VirtualTimeEnd.last) else { throw tooLong(written, frameNanoseconds, at: location) }
        return frames
    }

    private static func tooLong(_ text: String, _ frameNanoseconds: Int64, at location: SourceLocation) -> EvalError {
        .fault(SpecDiagnostic("\(text) is too long: \(VirtualTimeEnd.sentence) (1 frame = \(durationText(frameNanoseconds)))", at: location,
                              hint: "a duration is at most \(VirtualTimeEnd.last) frames"))
    }

    private static func notWhole(_ text: String, _ frameNanoseconds: Int64, at location: SourceLocation) -> EvalError {
        .fault(SpecDiagnostic("\(text) is not a whole number of frames (1 frame = \(durationText(frameNanoseconds)))", at: location,
                              hint: "change the duration or the test's `frame`"))
    }

    static func durationText(_ nanoseconds: Int64) -> String {
        for (suffix, unit) in [("s", Int64(1_000_000_000)), ("ms", 1_000_000), ("us", 1_000)] where nanoseconds % unit == 0 {
            return "\(nanoseconds / unit)\(suffix)"
        }
        return "\(nanoseconds)ns"
    }

    // MARK: Functions and methods

    static func callFunction(_ name: String, receiver: Runtime?, _ args: [CallArgument], at location: SourceLocation, interpreter: Interpreter) throws(EvalError) -> Runtime {
        func fail(_ message: String, hint: String? = nil) -> EvalError { .fault(SpecDiagnostic(message, at: location, hint: hint)) }
        func values() throws(EvalError) -> [Value] {
            try args.map { (arg) throws(EvalError) -> Value in try interpreter.valueOf(arg.value, at: arg.location, purpose: "an argument of \(name)") }
        }
        switch receiver {
        case nil:
            if let result = try StringFormat.call(name, args, at: location, interpreter: interpreter) { return result }
            if name == "stride" {
                let labels = args.map(\.label)
                guard labels == ["from", "to", "by"] || labels == ["from", "through", "by"] else { throw fail("stride takes (from:to:by:) or (from:through:by:)") }
                let vs = try values()
                let stride = Interpreter.StrideArguments(vs, literals: args.map(\.syntax.isNumberLiteral), through: labels[1] == "through", location: location)
                return .value(try interpreter.strideArray(stride))
            }
            let vs = try values()
            switch (name, vs.count) {
            case ("print", _):
                interpreter.trace(vs.map(\.text).joined(separator: " "))
                return .value(.tuple([]))
            case ("min", 2...), ("max", 2...):
                var best = vs[0]
                for v in vs.dropFirst() {
                    let order = try Arithmetic.compare(v, best, op: name, at: location)
                    if name == "min" ? order < 0 : order > 0 { best = v }
                }
                return .value(best)
            case ("abs", 1):
                switch vs[0] {
                case .int(let x):
                    guard x != .min else { throw fail("arithmetic overflow in abs(\(x))") }
                    return .value(.int(abs(x)))
                case .double(let x): return .value(.double(abs(x)))
                default: throw fail("abs(_:) needs a number, not \(vs[0].typeName)")
                }
            case ("Int", 1):
                switch vs[0] {
                case .int: return .value(vs[0])
                case .double(let d):
                    guard d.isFinite, let i = Int(exactly: d.rounded(.towardZero)) else { throw fail("\(d) cannot be converted to Int") }
                    return .value(.int(i))
                case .string(let s): return .value(Int(s).map(Value.int) ?? .null)
                default: throw fail("Int(_:) cannot convert \(vs[0].typeName)")
                }
            case ("Double", 1), ("TimeInterval", 1):
                switch vs[0] {
                case .int(let i): return .value(.double(Double(i)))
                case .double: return .value(vs[0])
                case .string(let s): return .value(Double(s).map(Value.double) ?? .null)
                default: throw fail("Double(_:) cannot convert \(vs[0].typeName)")
                }
            case ("String", 1):
                return .value(.string(vs[0].text))
            case ("Optional", 1):
                return .value(vs[0])
            case ("Array", 1):
                return .value(.array(try interpreter.elements(of: vs[0], at: args[0].location)))
            case ("Bool", 1):
                if case .string(let s) = vs[0] { return .value(Bool(s).map(Value.bool) ?? .null) }
                if case .bool = vs[0] { return .value(vs[0]) }
                throw fail("Bool(_:) cannot convert \(vs[0].typeName)")
            default:
                throw fail("cannot call '\(name)' with \(vs.count) argument\(vs.count == 1 ? "" : "s")")
            }
        case .value(let value)?:
            return try method(name, on: value, args, at: location, interpreter: interpreter)
        case .scheduler?:
            return try schedule(name, args, at: location, interpreter: interpreter)
        case .stream?:
            throw fail("'\(name)' needs parentheses to be applied", hint: "write .\(name)(…)")
        default:
            throw fail("cannot call '\(name)' on \(receiver?.kindDescription ?? "nothing")")
        }
    }

    /// `asyncAfter(deadline: .now() + d) { … }` and `async { … }` on a scheduler: the closure runs
    /// on the test's virtual clock (how a `Future` is fulfilled later in app code).
    private static func schedule(_ name: String, _ args: [CallArgument], at location: SourceLocation, interpreter: Interpreter) throws(EvalError) -> Runtime {
        guard name == "asyncAfter" || name == "async" else {
            throw EvalError.fault(SpecDiagnostic("'\(name)' on a scheduler is not supported", at: location,
                hint: "run work later with DispatchQueue.main.asyncAfter(deadline: .now() + .milliseconds(300)) { … }"))
        }
        guard let last = args.last, case .closure(let closure) = last.value else {
            throw EvalError.fault(SpecDiagnostic("\(name) needs a closure to run", at: location))
        }
        var time = interpreter.scheduler.currentFrame
        if name == "asyncAfter" {
            guard let deadline = args.first(where: { $0.label == "deadline" }) else {
                throw EvalError.fault(SpecDiagnostic("asyncAfter needs deadline: .now() + a duration", at: location))
            }
            switch deadline.value {
            case .member("deadline", let payload): if case .value(.int(let t))? = payload.first { time = t }
            case .member("now", _): break
            default: throw EvalError.fault(SpecDiagnostic("a deadline is .now() + a duration such as .milliseconds(300)", at: deadline.location))
            }
        }
        interpreter.scheduler.schedule(at: time) {
            if case .failure(let error) = Result(catching: { () throws(EvalError) -> Runtime in try interpreter.call(closure, with: []) }) {
                interpreter.report(error, at: closure.location)
            }
        }
        return .value(.tuple([]))
    }

    private static func method(_ name: String, on value: Value, _ args: [CallArgument], at location: SourceLocation, interpreter: Interpreter) throws(EvalError) -> Runtime {
        func fail(_ message: String) -> EvalError { .fault(SpecDiagnostic(message, at: location)) }
        func argument(_ index: Int) throws(EvalError) -> Value {
            guard args.indices.contains(index) else { throw fail("missing argument for \(name)") }
            return try interpreter.valueOf(args[index].value, at: args[index].location, purpose: "an argument of \(name)")
        }
        func closure(_ index: Int) throws(EvalError) -> ClosureValue {
            // A key path stands for the closure that reads it (`users.map(\.name)`).
            if args.indices.contains(index), case .keyPath(let path) = args[index].value { return interpreter.keyPathClosure(path, at: args[index].location) }
            guard args.indices.contains(index), case .closure(let c) = args[index].value else { throw fail("\(name) needs a closure") }
            return c
        }
        func callValue(_ c: ClosureValue, _ xs: [Value]) throws(EvalError) -> Value {
            try interpreter.valueOf(interpreter.call(c, with: xs.map(Runtime.value)), at: c.location, purpose: "the closure's result")
        }
        if let result = try AppMembers.call(name, on: value, args, at: location, interpreter: interpreter) { return result }
        switch (name, value) {
        case ("uppercased", .string(let s)): return .value(.string(s.uppercased()))
        case ("lowercased", .string(let s)): return .value(.string(s.lowercased()))
        case ("contains", .string(let s)):
            guard case .string(let part) = try argument(0) else { throw fail("String.contains(_:) needs a String") }
            return .value(.bool(s.contains(part)))
        case ("contains", .array(let a)): return .value(.bool(a.contains(try argument(0))))
        case ("hasPrefix", .string(let s)):
            guard case .string(let p) = try argument(0) else { throw fail("hasPrefix(_:) needs a String") }
            return .value(.bool(s.hasPrefix(p)))
        case ("hasSuffix", .string(let s)):
            guard case .string(let p) = try argument(0) else { throw fail("hasSuffix(_:) needs a String") }
            return .value(.bool(s.hasSuffix(p)))
        case ("isMultiple", .int(let i)):
            guard case .int(let d) = try argument(0) else { throw fail("isMultiple(of:) needs an Int") }
            return .value(.bool(d == 0 ? i == 0 : i % d == 0))
        case ("truncatingRemainder", .double(let x)):
            guard case .double(let y) = try argument(0) else { throw fail("truncatingRemainder(dividingBy:) needs a Double") }
            return .value(.double(x.truncatingRemainder(dividingBy: y)))
        case ("reversed", .array(let a)): return .value(.array(a.reversed()))
        case ("reversed", .string(let s)): return .value(.string(String(s.reversed())))
        case ("sorted", .array(let a)):
            var failure: EvalError?
            let sorted = a.sorted { x, y in
                switch Result(catching: { () throws(EvalError) -> Int in try Arithmetic.compare(x, y, op: "<", at: location) }) {
                case .success(let order): return order < 0
                case .failure(let error): failure = error; return false
                }
            }
            if let failure { throw failure }
            return .value(.array(sorted))
        case ("joined", .array(let a)):
            let separator: String
            if args.isEmpty { separator = "" } else if case .string(let s) = try argument(0) { separator = s } else { throw fail("joined(separator:) needs a String") }
            return .value(.string(a.map(\.text).joined(separator: separator)))
        case ("map", .null), ("flatMap", .null):
            // Optional.map / flatMap on nil.
            _ = try closure(0)
            return .value(.null)
        case ("map", .int), ("map", .double), ("map", .bool), ("map", .record), ("map", .tuple),
             ("flatMap", .int), ("flatMap", .double), ("flatMap", .bool), ("flatMap", .record), ("flatMap", .tuple), ("flatMap", .string), ("flatMap", .array):
            // Optional.map / flatMap on a value (the checker has made sure the receiver is an
            // optional, and refuses one of an array or a string, whose own map would differ).
            return .value(try callValue(closure(0), [value]))
        case ("map", .array(let a)):
            let c = try closure(0)
            return .value(.array(try a.map { (x) throws(EvalError) -> Value in try callValue(c, [x]) }))
        case ("filter", .array(let a)):
            let c = try closure(0)
            var kept: [Value] = []
            for x in a where try callValue(c, [x]) == .bool(true) { kept.append(x) }
            return .value(.array(kept))
        case ("reduce", .array(let a)):
            let c = try closure(1)
            var accumulator = try argument(0)
            for x in a { accumulator = try callValue(c, [accumulator, x]) }
            return .value(accumulator)
        case ("min", .array(let a)), ("max", .array(let a)):
            guard var best = a.first else { return .value(.null) }
            for v in a.dropFirst() {
                let order = try Arithmetic.compare(v, best, op: name, at: location)
                if name == "min" ? order < 0 : order > 0 { best = v }
            }
            return .value(best)
        default:
            throw fail("value of type \(value.typeName) has no member '\(name)'")
        }
    }
}
