import Reactive

/// Sharing one subscription among several subscribers, and connectable publishers.
enum MulticastCatalogue {
    static let entries: [CatalogueEntry] = [
        CatalogueEntry("share", [], family: "share",
                       "one upstream subscription for all subscribers; late subscribers miss earlier values; never restarts after completion") { call throws(EvalError) in
            // What share's subject broadcasts is watched, so that a run can tell which of its
            // subscribers had no demand for a value (see `BroadcastWatch`).
            let watch = BroadcastWatch()
            guard case .stream(var shared) = call.result(BroadcastWitness(upstream: try call.upstream, watch: watch).share()) else {
                return call.result(try call.upstream.share())
            }
            shared.broadcast = watch
            return .stream(shared)
        },
        CatalogueEntry("makeConnectable", [], family: "makeConnectable",
                       "a connectable publisher: subscribes upstream only when connect() is called") { call throws(EvalError) in
            // Combine's makeConnectable() is multicast through a PassthroughSubject; the engine keeps
            // Combine's `Failure == Never` constraint on it, and streams here can fail.
            let watch = BroadcastWatch()
            let connectable = BroadcastWitness(upstream: try call.upstream, watch: watch).multicast(subject: PassthroughSubject<Value, StreamError>())
            return .stream(StreamValue(publisher: connectable.eraseToAnyPublisher(), text: call.text, connect: connectable.connect, broadcast: watch))
        },
        CatalogueEntry("multicast", [Parameter("subject", .publisher)], family: "multicast",
                       "a connectable publisher that broadcasts upstream through the given subject") { call throws(EvalError) in
            let subject = try call.subject("subject")
            let watch = BroadcastWatch()
            watch.subject = subject.handle
            // `multicast(subject: s)`: s's own subscribers are offered each value too.
            if case .identifier(let name) = try call.argument("subject", as: .publisher).syntax.kind { watch.subjectName = name }
            let connectable = BroadcastWitness(upstream: try call.upstream, watch: watch).multicast(subject: subject)
            return .stream(StreamValue(publisher: connectable.eraseToAnyPublisher(), text: call.text, connect: connectable.connect, broadcast: watch))
        },
        CatalogueEntry("multicast", [Parameter("_ createSubject", .closure)], family: "multicast",
                       "a connectable publisher that broadcasts through a subject created (once) by the closure") { call throws(EvalError) in
            let create = try call.subjectFactory("createSubject")
            let watch = BroadcastWatch()
            let connectable = BroadcastWitness(upstream: try call.upstream, watch: watch).multicast { () -> ErasedSubject in
                let subject = create()
                watch.subject = subject.handle
                return subject
            }
            return .stream(StreamValue(publisher: connectable.eraseToAnyPublisher(), text: call.text, connect: connectable.connect, broadcast: watch))
        },
        CatalogueEntry("autoconnect", [], family: "autoconnect",
                       "connects a connectable publisher on its first subscription") { call throws(EvalError) in
            guard let receiver = call.receiver, let connect = receiver.connect else {
                throw .fault(SpecDiagnostic("autoconnect() needs a connectable publisher (makeConnectable(), multicast, Timer.publish)", at: call.location))
            }
            // A timer's ticks without demand are still its own to tell.
            return call.result(ErasedConnectable(publisher: receiver.publisher, connectBody: connect).autoconnect())
        },
    ]
}

/// Where a multicasting operator's subject is about to broadcast a value: the runner sets
/// `around` for a stream bound to it, to see which subscriptions the value reaches.
final class BroadcastWatch {
    var around: ((Value, () -> Void) -> Void)?
    /// Called just before the subject passes on upstream's completion.
    var beforeCompletion: (() -> Void)?
    /// The subject broadcasting (nil: share's PassthroughSubject; a CurrentValueSubject conflates
    /// rather than drops).
    var subject: SubjectHandle?
    /// `multicast(subject: s)`: the name of s, whose own subscribers are offered each value too.
    var subjectName: String?
}

/// Passes everything through unchanged; each value is delivered inside the watch's `around`,
/// which brackets the subject's broadcast. Once the connection is cancelled, what upstream still
/// sends (a `delay` that had already scheduled it) passes without the watch: it reaches no
/// subscriber because the subject's subscriber has forgotten the subject, and that is no drop for
/// lack of demand. (It still passes, so that the engine alone decides what the subject gets.)
struct BroadcastWitness: Publisher {
    typealias Output = Value
    typealias Failure = StreamError
    let upstream: Stream
    let watch: BroadcastWatch

    func receive<S: Subscriber>(subscriber: S) where S.Input == Value, S.Failure == StreamError {
        upstream.receive(subscriber: BroadcastWitnessLink(downstream: subscriber, watch: watch))
    }
}

private final class BroadcastWitnessLink<Downstream: Subscriber>: Subscriber, Subscription
where Downstream.Input == Value, Downstream.Failure == StreamError {
    typealias Input = Value
    typealias Failure = StreamError
    private let downstream: Downstream
    private let watch: BroadcastWatch
    private var upstream: (any Subscription)?
    private var isCancelled = false

    init(downstream: Downstream, watch: BroadcastWatch) {
        self.downstream = downstream
        self.watch = watch
    }

    func receive(subscription: any Subscription) {
        upstream = subscription
        downstream.receive(subscription: self)
    }

    func receive(_ input: Value) -> Subscribers.Demand {
        guard !isCancelled, let around = watch.around else { return downstream.receive(input) }
        var demand = Subscribers.Demand.none
        around(input) { demand = downstream.receive(input) }
        return demand
    }

    func receive(completion: Subscribers.Completion<StreamError>) {
        if !isCancelled { watch.beforeCompletion?() }
        upstream = nil
        downstream.receive(completion: completion)
    }

    func request(_ demand: Subscribers.Demand) { upstream?.request(demand) }

    func cancel() {
        isCancelled = true
        let upstream = self.upstream
        self.upstream = nil
        upstream?.cancel()
    }
}

/// A connectable publisher held as a publisher plus a connect function.
struct ErasedConnectable: ConnectablePublisher {
    typealias Output = Value
    typealias Failure = StreamError
    let publisher: Stream
    let connectBody: () -> any Cancellable

    func receive<S: Subscriber>(subscriber: S) where S.Input == Value, S.Failure == StreamError {
        publisher.receive(subscriber: subscriber)
    }

    func connect() -> any Cancellable { connectBody() }
}

/// A subject declared in the file (a stream that can be sent to), as an engine `Subject`.
final class ErasedSubject: Subject {
    typealias Output = Value
    typealias Failure = StreamError
    private let publisher: Stream
    let handle: SubjectHandle

    init(publisher: Stream, handle: SubjectHandle) {
        self.publisher = publisher
        self.handle = handle
    }

    func receive<S: Subscriber>(subscriber: S) where S.Input == Value, S.Failure == StreamError {
        publisher.receive(subscriber: subscriber)
    }

    func send(_ value: Value) { handle.send(.value(value)) }
    func send(completion: Subscribers.Completion<StreamError>) { handle.send(.completion(completion)) }
    func send(subscription: any Subscription) { handle.attach(subscription) }
}

extension BoundCall {
    func subject(_ name: String) throws(EvalError) -> ErasedSubject {
        let argument = try argument(name, as: .publisher)
        guard case .stream(let stream) = argument.value, let handle = stream.subject else {
            throw .fault(SpecDiagnostic("\(signature.selector) needs a subject here (PassthroughSubject() or CurrentValueSubject(v))", at: argument.location))
        }
        return ErasedSubject(publisher: stream.publisher, handle: handle)
    }

    /// `multicast { PassthroughSubject() }`: the closure creating the subject.
    func subjectFactory(_ name: String) throws(EvalError) -> () -> ErasedSubject {
        let closure = try closure(name)
        let interpreter = self.interpreter
        return {
            switch Result(catching: { () throws(EvalError) -> Runtime in try interpreter.call(closure, with: []) }) {
            case .success(.stream(let stream)) where stream.subject != nil:
                return ErasedSubject(publisher: stream.publisher, handle: stream.subject ?? SubjectHandle())
            case .success:
                interpreter.report(SpecDiagnostic("multicast's closure must return a subject", at: closure.location))
            case .failure(let error):
                interpreter.report(error, at: closure.location)
            }
            let fallback = PassthroughSubject<Value, StreamError>()
            return ErasedSubject(publisher: fallback.eraseToAnyPublisher(), handle: SubjectHandle(fallback))
        }
    }
}
