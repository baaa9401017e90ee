import Foundation
import Testing
@testable import Reactive

private final class Form: ObservableObject {
    @Published var name = "a"
    @Published var count = 0
}

private final class DerivedForm: ObservableObject {
    @Published var source = 1
    @Published var doubled = 0
    init() { $source.map { $0 * 2 }.assign(to: &$doubled) }
}

private class BaseModel: ObservableObject {
    @Published var base = 0
}

private final class SubModel: BaseModel {
    @Published var sub = 0
}

@Suite struct PublishedTests {
    @Test func changesArePublishedInWillSet() {
        let form = Form()
        var log: [String] = []
        let willChange = form.objectWillChange.sink { log.append("will change, name is \(form.name)") }
        let names = form.$name.sink { log.append("$name \($0), name is \(form.name)") }
        form.name = "b"
        #expect(log == ["$name a, name is a", "will change, name is a", "$name b, name is a"])
        #expect(form.name == "b")
        willChange.cancel()
        names.cancel()
    }

    @Test func oneWillChangePublisherForAllPropertiesAndSuperclasses() {
        let form = Form()
        #expect(form.objectWillChange === form.objectWillChange)
        var changes = 0
        let cancellable = form.objectWillChange.sink { changes += 1 }
        form.name = "x"
        form.count += 1
        #expect(changes == 2)
        cancellable.cancel()
        form.name = "y"
        #expect(changes == 2)

        let model = SubModel()
        var modelChanges = 0
        let modelCancellable = model.objectWillChange.sink { modelChanges += 1 }
        model.base = 1
        model.sub = 1
        #expect(modelChanges == 2)
        modelCancellable.cancel()
    }

    @Test func assignToPublishedRepublishesAndEndsWithTheObject() {
        var form: DerivedForm? = DerivedForm()
        #expect(form?.doubled == 2)
        var seen: [Int] = []
        let cancellable = form?.$doubled.sink { seen.append($0) }
        form?.source = 5
        #expect(seen == [2, 10])
        weak let weakForm = form
        cancellable?.cancel()
        form = nil
        #expect(weakForm == nil)
    }

    @Test func assignOnWritesThePropertyAndHoldsTheObjectUntilCancelled() {
        let subject = PassthroughSubject<String, Never>()
        var form: Form? = Form()
        weak let weakForm = form
        let cancellable = subject.assign(to: \.name, on: form!)
        subject.send("q")
        #expect(form?.name == "q")
        form = nil
        #expect(weakForm != nil)
        cancellable.cancel()
        #expect(weakForm == nil)
    }

    @Test func publishedPublisherStartsWithTheCurrentValue() {
        let form = Form()
        form.count = 7
        var first: Int?
        let cancellable = form.$count.first().sink { first = $0 }
        #expect(first == 7)
        cancellable.cancel()
    }
}

@Suite struct FoundationPublisherTests {
    @Test func resultPublisher() {
        var log: [String] = []
        let ok = Result<Int, StreamTestError>.success(3).publisher.sink(receiveCompletion: { log.append("\($0)") }, receiveValue: { log.append("\($0)") })
        let bad = Result<Int, StreamTestError>.failure(.boom).publisher.sink(receiveCompletion: {
            if case .failure(.boom) = $0 { log.append("boom") }
        }, receiveValue: { log.append("\($0)") })
        #expect(log == ["3", "finished", "boom"])
        ok.cancel()
        bad.cancel()
    }

    @Test func printWritesCombinesLinesToTheStream() {
        var output = ""
        let cancellable = Just(1).print("p", to: StringStream(append: { output += $0 })).sink { _ in }
        #expect(output == "p: receive subscription: (Just)\np: request unlimited\np: receive value: (1)\np: receive finished\n")
        cancellable.cancel()
    }

    @Test func notificationCenterPublishesPostedNotificationsUntilCancelled() {
        let center = NotificationCenter()
        let name = Notification.Name("FoundationPublisherTests")
        var received: [String] = []
        let cancellable = center.publisher(for: name).sink { received.append(($0.object as? String) ?? "?") }
        center.post(name: name, object: "one" as NSString)
        center.post(name: Notification.Name("other"), object: nil)
        cancellable.cancel()
        center.post(name: name, object: "two" as NSString)
        #expect(received == ["one"])
    }

    @Test func codableRoundTrip() {
        var decoded: [[Int]] = []
        let cancellable = Just([1, 2]).encode(encoder: JSONEncoder()).decode(type: [Int].self, decoder: JSONDecoder())
            .sink(receiveCompletion: { _ in }, receiveValue: { decoded.append($0) })
        #expect(decoded == [[1, 2]])
        cancellable.cancel()
    }
}

enum StreamTestError: Error { case boom }

private struct StringStream: TextOutputStream {
    let append: (String) -> Void
    mutating func write(_ string: String) { append(string) }
}
