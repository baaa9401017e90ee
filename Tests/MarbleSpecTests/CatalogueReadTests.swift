import Testing
import Reactive
import MarbleSyntax
@testable import MarbleSpec

/// Every catalogue entry reads its arguments by name through `BoundCall.argument(_:as:)`, which
/// checks the read against the parameter's declared `ParameterType`. This audit builds every
/// entry from arguments of its declared types — once with every defaulted parameter given, once
/// with none — so that a read the declaration does not allow cannot ship: it fails here even on
/// a path no `.marble` file takes.
@Suite struct CatalogueReadTests {
    static let location = SourceLocation(line: 1, column: 1)

    /// A `.strategy` argument the entry accepts, by selector and parameter name (a strategy's
    /// cases are the entry's own).
    static var strategies: [String: Runtime] { [
        "collect(_:options:) strategy": .member("byTime", [.scheduler, .duration(2)]),
        "buffer(size:prefetch:whenFull:) prefetch": .member("keepFull", []),
        "buffer(size:prefetch:whenFull:) whenFull": .member("dropNewest", []),
        "Record(output:completion:) completion": .member("finished", []),
    ] }

    static func closure(_ source: String) throws -> Runtime {
        let expr = try MarbleFileParser.parseExpression(source, at: location)
        guard case .closure(let syntax) = expr.kind else { throw Failure("\(source) is not a closure") }
        return .closure(ClosureValue(syntax: syntax, environment: Environment(), location: expr.location))
    }

    struct Failure: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }

    /// A subject, so that `multicast(subject:)` accepts it as well as any publisher parameter.
    static func subjectStream() -> StreamValue {
        let subject = PassthroughSubject<Value, StreamError>()
        return StreamValue(publisher: subject.eraseToAnyPublisher(), text: "subject", connect: { AnyCancellable {} }, subject: SubjectHandle(subject))
    }

    /// An argument of the parameter's declared type that the entry's build accepts.
    static func sample(_ parameter: Parameter, of signature: OperatorSignature) throws -> Runtime {
        switch parameter.type {
        case .publisher: return .stream(subjectStream())
        case .closure: return try closure("{ _ in Just(1) }")
        // Also a range of indices (`output(in:)`) and an array (`Record(output:)`).
        case .value: return .value(.array([.int(1), .int(2)]))
        case .int: return .value(.int(1))
        case .duration: return .duration(1)
        case .demand: return .demand(.unlimited)
        case .bool: return .value(.bool(true))
        case .scheduler, .runLoop: return .scheduler
        case .runLoopMode: return .member("common", [])
        case .schedulerOptions, .any: return .value(.null)
        case .strategy:
            guard let strategy = strategies[signature.selector + " " + parameter.name] else {
                throw Failure("\(signature.selector): add a sample '\(parameter.name)' to CatalogueReadTests.strategies")
            }
            return strategy
        }
    }

    /// Builds `entry` from samples (defaulted parameters given or not); the names it read.
    static func build(_ entry: CatalogueEntry, givingDefaulted: Bool) throws -> Set<String> {
        let interpreter = Interpreter(scheduler: VirtualTimeScheduler(), frameNanoseconds: 1_000_000, lines: LineTable(""))
        let syntax = try MarbleFileParser.parseExpression("x", at: location)
        var arguments: [CallArgument?] = []
        var variadic: [CallArgument] = []
        for parameter in entry.signature.parameters {
            guard givingDefaulted || !parameter.hasDefault else {
                arguments.append(nil)
                continue
            }
            let argument = CallArgument(label: parameter.label, value: try sample(parameter, of: entry.signature), location: location, syntax: syntax)
            arguments.append(argument)
            if parameter.variadic { variadic.append(argument) }
        }
        let receiver = entry.signature.kind == .method ? subjectStream() : nil
        var call = BoundCall(signature: entry.signature, receiver: receiver, arguments: arguments, variadic: variadic,
                             location: location, text: CodeText("x"), interpreter: interpreter)
        let log = ReadLog()
        call.reads = log
        defer { interpreter.tearDown() }
        do throws(EvalError) {
            try call.checkDeclaredTypes()
            _ = try entry.build(call)
        } catch .fault(let diagnostic) {
            throw Failure(diagnostic.message)
        } catch {
            throw Failure("\(error)")
        }
        return log.names
    }

    @Test(arguments: [true, false])
    func everyEntryReadsItsArgumentsAsDeclared(givingDefaulted: Bool) {
        #expect(Catalogue.entries.count > 90)
        for entry in Catalogue.entries {
            do {
                let read = try Self.build(entry, givingDefaulted: givingDefaulted)
                guard givingDefaulted else { continue }
                // What the dispatcher alone checks (a scheduler) or nothing reads (options, `file:`).
                let unread = entry.signature.parameters.filter { !read.contains($0.name) && !$0.type.isTheVirtualClock && $0.type != .any }
                #expect(unread.map(\.name) == [], "\(entry.signature.selector) declares parameters it never reads")
            } catch {
                Issue.record("\(entry.signature.selector): \(error)")
            }
        }
    }

    @Test func parameterNamesAreSwiftNamesUniqueInTheirSignature() {
        for signature in Catalogue.signatures {
            let names = signature.parameters.map(\.name)
            #expect(Set(names).count == names.count, "\(signature.selector): two parameters named alike")
            for name in names {
                #expect(!name.isEmpty && name != "_" && name.allSatisfy { $0.isLetter || $0.isNumber }, "\(signature.selector): '\(name)'")
            }
        }
        let timeout = Catalogue.signatures.first { $0.selector == "timeout(_:scheduler:options:customError:)" }
        #expect(timeout?.parameters.map(\.name) == ["interval", "scheduler", "options", "customError"])
        #expect(timeout?.parameters.map(\.label) == [nil, "scheduler", "options", "customError"])
    }

    // MARK: The check can fail

    /// An entry that reads its one parameter, declared `declared`, through `read`.
    static func misread(declared: Parameter, _ read: @escaping @Sendable (BoundCall) throws(EvalError) -> Runtime) throws -> String {
        let entry = CatalogueEntry("f", [declared], family: "map", "a test entry", build: read)
        do {
            _ = try build(entry, givingDefaulted: true)
            return "built"
        } catch let failure as Failure {
            return failure.description
        }
    }

    @Test func aReadOfAnotherTypeThanDeclaredIsACatalogueError() throws {
        #expect(try Self.misread(declared: Parameter("_ count", .int)) { call throws(EvalError) in .duration(try call.duration("count")) }
                == "catalogue error: f(_:) reads 'count' as Duration, but declares it Int")
        #expect(try Self.misread(declared: Parameter("every", .duration)) { call throws(EvalError) in .value(.int(try call.int("every"))) }
                == "catalogue error: f(every:) reads 'every' as Int, but declares it Duration")
        #expect(try Self.misread(declared: Parameter("_ count", .int)) { call throws(EvalError) in .value(.int(try call.int("count"))) } == "built")
    }

    @Test func aReadByANameTheSignatureLacksIsACatalogueError() throws {
        #expect(try Self.misread(declared: Parameter("_ count", .int)) { call throws(EvalError) in .value(.int(try call.int("n"))) }
                == "catalogue error: f(_:) has no parameter 'n'")
        #expect(try Self.misread(declared: Parameter("_ count", .int, default: true)) { call throws(EvalError) in .value(.bool(try call.has("counts"))) }
                == "catalogue error: f(_:) has no parameter 'counts'")
    }

    @Test func aVariadicParameterIsReadAsAListAndOnlySo() throws {
        #expect(try Self.misread(declared: Parameter("_ others", .publisher, variadic: true)) { call throws(EvalError) in
            .stream(StreamValue(publisher: try call.stream("others"), text: "x"))
        } == "catalogue error: f(_:) reads 'others' as Publisher, but declares it Publisher...")
        #expect(try Self.misread(declared: Parameter("_ other", .publisher)) { call throws(EvalError) in
            .value(.int(try call.variadicStreams("other").count))
        } == "catalogue error: f(_:) reads 'other' as Publisher..., but declares it Publisher")
    }
}

/// The typing rules (`OperatorTypes.rules`) read arguments by name too, through
/// `TypedCall.argument(_:as:)`, with the same check against the declared types.
@Suite struct TypingRuleReadTests {
    static let location = SourceLocation(line: 1, column: 1)

    /// Runs `rule` on a call of `signature` whose arguments are all left out, or all of unknown
    /// type; the checker's messages.
    static func messages(_ signature: OperatorSignature, _ rule: OperatorTypes.Rule, given: Bool) throws -> [String] {
        let checker = ExpressionChecker()
        let syntax = try MarbleFileParser.parseExpression("x", at: location)
        let arguments = signature.parameters.map { parameter in
            given ? TypedArgument(label: parameter.label, checked: .unknown, location: location, syntax: syntax) : nil
        }
        let variadic = zip(signature.parameters, arguments).compactMap { $0.variadic ? $1 : nil }
        let call = TypedCall(signature: signature, receiver: signature.kind == .method ? .unknown : nil, arguments: arguments,
                             variadic: variadic, location: location, checker: checker)
        _ = rule(call)
        return checker.diagnostics.map(\.message)
    }

    @Test(arguments: [true, false])
    func everyRuleReadsItsArgumentsAsDeclared(given: Bool) throws {
        for entry in Catalogue.entries {
            guard let rule = OperatorTypes.rules[entry.signature.selector] else { continue }
            // Other messages are the rule's own about arguments of no known type (or none).
            #expect(try Self.messages(entry.signature, rule, given: given).filter { $0.hasPrefix("catalogue error") } == [], "\(entry.signature.selector)")
        }
    }

    @Test func aMisreadIsReportedAsTheCataloguesMistake() throws {
        let signature = OperatorSignature(name: "f", parameters: [Parameter("_ count", .int), Parameter("others", .publisher, variadic: true)],
                                          summary: "", kind: .method, family: "map")
        #expect(try Self.messages(signature, { call in StreamType(output: call.value("count"), failure: .never) }, given: true)
                == ["catalogue error: f(_:others:) reads 'count' as Value, but declares it Int"])
        #expect(try Self.messages(signature, { call in call.publisher("others") }, given: true)
                == ["catalogue error: f(_:others:) reads 'others' as Publisher, but declares it Publisher..."])
        #expect(try Self.messages(signature, { call in call.has("n") ? .unknown : call.same }, given: true)
                == ["catalogue error: f(_:others:) has no parameter 'n'"])
        #expect(try Self.messages(signature, { call in call.variadicPublishers("others").first ?? .unknown }, given: true) == [])
    }
}

/// What a diagram leaves out of an operator's text comes from the parameters' declared types.
@Suite struct OmittedArgumentsTests {
    @Test func theVirtualClocksParametersAreLeftOutPerCallee() {
        #expect(Catalogue.omittedArguments.labels == [
            "debounce": ["scheduler", "options"], "throttle": ["scheduler"], "delay": ["scheduler", "options"],
            "timeout": ["scheduler", "options"], "measureInterval": ["using", "options"],
            "receive": ["options"], "subscribe": ["options"], "collect": ["options"],
            "Timer.publish": ["on", "in", "options"],
        ])
    }

    @Test func receiveAndSubscribeKeepTheirSchedulerBecauseTheCatalogueSaysSo() {
        for name in ["receive", "subscribe"] {
            let on = Catalogue.signatures.first { $0.name == name }?.parameters.first
            #expect(on?.type == .scheduler && on?.drawn == true, "\(name)(on:)")
            #expect(Catalogue.omittedArguments.omits(label: "on", callee: "t." + name) == false)
        }
        #expect(Catalogue.omittedArguments.omits(label: "scheduler", callee: "typing.debounce"))
        #expect(Catalogue.omittedArguments.omits(label: "tolerance", callee: "Timer.publish") == false)
    }

    @Test func theRunnerPutsItInEveryTestReport() {
        let report = runMarble("""
        test "t"
          hot    a  -1-|
          let    b = a.delay(for: 1, scheduler: RunLoop.main)
          expect b  --1-|
        """)
        #expect(problems(report) == [])
        #expect(report.tests.map(\.omittedArguments) == [Catalogue.omittedArguments])
    }
}
