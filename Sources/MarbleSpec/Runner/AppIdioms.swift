import Reactive
import MarbleSyntax

// What a test prepares for the app's own types and idioms: the declared types (`UserTypes`)
// and `@Published var` properties.

extension SubjectHandle {
    /// A handle with its own way of sending (a `@Published` property sets its value after the send).
    init(send: @escaping (TimelineEvent<Value, StreamError>) -> Void, attach: @escaping (any Subscription) -> Void, current: @escaping () -> Value) {
        self.send = send
        self.attach = attach
        // A `@Published` property is a CurrentValueSubject: it keeps its value until asked.
        dropsWithoutDemand = false
        self.current = current
    }
}

enum AppIdioms {
    /// The publisher of `@Published var NAME`.
    static func publisherName(_ property: String) -> String { "$" + property }

    /// `@Published var query = ""`: a `CurrentValueSubject` behind `$query`, and `query` the
    /// property's value. As in Combine (`willSet`), `$query` tells its subscribers first and the
    /// property holds the new value only after they return.
    static func publishedProperty(_ name: String, initial: Value, interpreter: Interpreter) -> StreamValue {
        let subject = CurrentValueSubject<Value, StreamError>(initial)
        interpreter.globals[name] = .value(initial)
        let handle = SubjectHandle(send: { [weak interpreter] event in
            guard case .value(let value) = event else { return }
            subject.send(value)
            interpreter?.globals[name] = .value(value)
        }, attach: subject.send(subscription:), current: { subject.value })
        return StreamValue(publisher: subject.eraseToAnyPublisher(), text: publisherName(name), subject: handle)
    }

    /// What to write instead of an idiom that has no meaning in a test, for a name the test does
    /// not define (`URLSession`), or nil.
    static func unavailableName(_ name: String) -> (message: String, hint: String)? {
        switch name {
        case "URLSession":
            return ("a .marble test has no network: 'URLSession' cannot run here",
                    "stand for the response with a source: cold response  ---{\"body\"}|  (or Just(…), Fail(error: …)), and build the pipeline on it")
        case "JSONDecoder", "JSONEncoder":
            return ("a .marble stream carries Swift values, not JSON: '\(name)' has nothing to decode or encode here",
                    "write the decoded values in the marbles ({User(name: \"Ann\")} with `struct User` declared) and drop .decode/.encode")
        case "cancellables":
            return ("a .marble test keeps its own subscriptions: there is no 'cancellables' set",
                    "drop '.store(in: &cancellables)'; the 'expect' line is the subscriber")
        default:
            return nil
        }
    }

    /// The first `sink`, `assign` or `store` call along the method chain of `expr` (reported
    /// before the names in its arguments, which mean nothing in a test: `on: label`).
    static func subscriberCall(in expr: Expr) -> SpecDiagnostic? {
        var current: Expr? = expr
        var found: SpecDiagnostic?
        while let next = current {
            switch next.kind {
            case .call(let callee, _):
                if case .member(_, let name) = callee.kind, let idiom = subscriberOperator(name, at: callee.location) { found = idiom }
                current = callee
            case .member(let base, _):
                current = base
            case .genericSpecialization(let base, _):
                current = base
            default:
                current = nil
            }
        }
        return found
    }

    /// The message for an operator an app ends its pipeline with, naming the `.marble` equivalent.
    static func subscriberOperator(_ name: String, at location: SourceLocation) -> SpecDiagnostic? {
        switch name {
        case "sink":
            return SpecDiagnostic("'sink' has no place in a .marble pipeline: the 'expect' line is the sink", at: location, length: name.count,
                                  hint: "name the pipeline without it (let result = …) and write the events it must receive: expect result  -a-b-|")
        case "assign":
            return SpecDiagnostic("'assign' writes into an app's object, which a .marble test has none of", at: location, length: name.count,
                                  hint: "check the values it would assign with an expect line (expect result  -a-b-|); to feed a property, declare @Published var NAME = … and send into it")
        case "decode", "encode":
            return SpecDiagnostic("'\(name)' turns JSON into values, and a .marble stream already carries values", at: location, length: name.count,
                                  hint: "write the decoded values in the marbles ({User(name: \"Ann\")} with `struct User` declared) and drop it")
        case "store":
            return SpecDiagnostic("'store(in:)' keeps an app's subscription alive; a .marble test holds its own subscriptions", at: location, length: name.count,
                                  hint: "drop it; the 'expect' line is the subscriber")
        default:
            return nil
        }
    }
}
