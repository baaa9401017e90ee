#if canImport(Combine)
import Combine
#else
import Reactive
#endif
import Foundation
import Testing

/// The snippets run, not only typecheck: the ones that need no real time or network, with
/// Combine's answers.
@Suite struct CompatibilitySnippetTests {
    @Test func counterViewModelCombinesIncrementsWithTheLatestStep() {
        #expect(exerciseCounter() == 11)
    }

    @Test func greeterOnTheImmediateSchedulerIsSynchronous() {
        #expect(greetImmediately("Ada") == "Hello, Ada!")
    }

    @Test func settingsRoundTripThroughEncodeAndDecode() throws {
        let settings = Settings(theme: "dark", fontSize: 14)
        var decoded: [Settings] = []
        var completion: Subscribers.Completion<Error>?
        let cancellable = SettingsCodec.roundTrip(settings).sink(receiveCompletion: { completion = $0 }, receiveValue: { decoded.append($0) })
        #expect(decoded == [settings])
        guard case .finished = completion else { Issue.record("expected .finished, got \(String(describing: completion))"); return }
        cancellable.cancel()
    }

    @Test func decodeFailureEndsTheStream() {
        var failed = false
        let cancellable = SettingsCodec.decoded(Data("{".utf8)).sink(receiveCompletion: { if case .failure = $0 { failed = true } }, receiveValue: { _ in })
        #expect(failed)
        cancellable.cancel()
    }

    @Test func resultPublisherFailsTheFlatMap() {
        var values: [Int] = []
        var failure: ParseError?
        let cancellable = parsedNumbers(["1", "2", "x", "4"]).sink(receiveCompletion: {
            if case .failure(let error) = $0 { failure = error }
        }, receiveValue: { values.append($0) })
        #expect(values == [1, 2])
        guard case .notANumber(let text) = failure else { Issue.record("expected notANumber"); return }
        #expect(text == "x")
        cancellable.cancel()
    }

    @Test func customSubscriberAndPublisherHonourDemand() {
        #expect(collectInBatches(CountingPublisher(range: 1...5)) == [1, 2, 3, 4, 5])
    }

    @Test func sinkAndAnySubscriberByHand() {
        #expect(manualSubscription(values: [1, 2, 3]) == [1, 2, 3, 100])
    }

    @Test func valueTypeCancellablesAreCancelledWhenTheirStoreGoes() {
        var cancels = 0
        var bag: Bag? = Bag()
        bag?.keep(CancelToken { cancels += 1 })
        #expect(cancels == 0)
        bag = nil
        #expect(cancels == 2)
    }

    @Test func signUpFormValidatesAsFieldsChange() {
        let form = SignUpForm()
        #expect(!form.isValid)
        form.username = "ada"
        form.password = "lovelace!"
        #expect(!form.isValid)
        form.confirmation = "lovelace!"
        #expect(form.isValid)
    }

    @Test func replaceNilFillsInTheDisplayName() {
        let defaults = UserDefaults(suiteName: "CompatibilitySnippetTests") ?? .standard
        let store = SettingsStore(defaults: defaults)
        #expect(store.displayName == "Anonymous")
        store.nickname = "ada"
        #expect(store.displayName == "ada")
    }

    @Test func parentModelForwardsItsChildsWillChange() {
        let model = AppModel()
        var changes = 0
        let cancellable = model.objectWillChange.sink { changes += 1 }
        model.profile.name = "Grace"
        model.selectedTab = 2
        #expect(changes == 2)
        cancellable.cancel()
    }

    @Test func asyncValuesEndTheWaitAtTheFirstMatchingFraction() async throws {
        let progress = DownloadProgress()
        progress.fraction = 1
        #expect(await waitUntilDone(progress) == 1)
        #expect(try await firstValue(of: [7, 8].publisher) == 7)
        #expect(try await firstValue(of: Empty<Int, Never>()) == nil)
    }

    @Test func optionalPublisherSkipsWhatIsMissing() {
        var names: [String] = []
        var finished = false
        let cancellable = nicknames(of: [Member(nickname: "ada"), Member(nickname: nil), Member(nickname: "grace")])
            .sink(receiveCompletion: { _ in finished = true }, receiveValue: { names.append($0) })
        #expect(names == ["ada", "grace"])
        #expect(finished)
        #expect(tokenStep.output == nil)
        cancellable.cancel()
    }

    @Test func assertNoFailureWithItsDefaultsPassesAHandledStreamThrough() {
        let model = GreetingModel(names: Fail(error: URLError(.notConnectedToInternet)).eraseToAnyPublisher())
        #expect(model.greeting == "Hello, stranger!")
        let greeted = GreetingModel(names: Just("Ada").setFailureType(to: Error.self).eraseToAnyPublisher())
        #expect(greeted.greeting == "Hello, Ada!")
    }

    @Test func aRecordSavedAsJSONReplaysTheSameStream() throws {
        let data = try RecordedFixture.save(Record(output: ["a", "b"], completion: .failure(.offline)))
        var values: [String] = []
        var failure: FetchError?
        let cancellable = try RecordedFixture.replayed(data).sink(receiveCompletion: {
            if case .failure(let error) = $0 { failure = error }
        }, receiveValue: { values.append($0) })
        #expect(values == ["a", "b"])
        #expect(failure == .offline)
        cancellable.cancel()
    }
}
