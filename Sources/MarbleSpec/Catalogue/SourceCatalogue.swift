import Reactive

/// Publishers that start a pipeline: `Just`, `Empty`, `Fail`, `Deferred`, subjects, …
enum SourceCatalogue {
    static let entries: [CatalogueEntry] = [
        CatalogueEntry("Just", [Parameter("_ output", .value)], kind: .constructor, family: "Just",
                       "emits its value on the first request, then finishes") { call throws(EvalError) in
            call.result(Just(try call.value("output")))
        },
        CatalogueEntry("Empty", [Parameter("completeImmediately", .bool, default: true)], kind: .constructor, family: "Empty",
                       "finishes at once on subscription (or never, with completeImmediately: false)") { call throws(EvalError) in
            call.result(Empty<Value, StreamError>(completeImmediately: try call.has("completeImmediately") ? call.bool("completeImmediately") : true))
        },
        CatalogueEntry("Fail", [Parameter("error", .value)], kind: .constructor, family: "Fail",
                       "fails at once on subscription, without waiting for demand") { call throws(EvalError) in
            call.result(Fail<Value, StreamError>(error: StreamError(try call.value("error"))))
        },
        CatalogueEntry("Deferred", [Parameter("createPublisher", .closure)], kind: .constructor, family: "Deferred",
                       "runs its closure on every subscription and subscribes to the publisher it returns") { call throws(EvalError) in
            let create = try call.publisherFunction("createPublisher")
            return call.result(Deferred { create([]) })
        },
        CatalogueEntry("PassthroughSubject", [], kind: .constructor, family: "PassthroughSubject",
                       "a subject that drops values for subscribers without demand") { call throws(EvalError) in
            let subject = PassthroughSubject<Value, StreamError>()
            return .stream(StreamValue(publisher: subject.eraseToAnyPublisher(), text: call.text, subject: SubjectHandle(subject)))
        },
        CatalogueEntry("CurrentValueSubject", [Parameter("_ value", .value)], kind: .constructor, family: "CurrentValueSubject",
                       "a subject that keeps its latest value and hands it to each new subscriber") { call throws(EvalError) in
            let subject = CurrentValueSubject<Value, StreamError>(try call.value("value"))
            return .stream(StreamValue(publisher: subject.eraseToAnyPublisher(), text: call.text, subject: SubjectHandle(subject)))
        },
    ]
}

extension Subject {
    /// Sends a timeline event: a value or a completion.
    func send(event: TimelineEvent<Output, Failure>) {
        switch event {
        case .value(let value): send(value)
        case .completion(let completion): send(completion: completion)
        }
    }
}
