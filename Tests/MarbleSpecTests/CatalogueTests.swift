import Foundation
import Testing
@testable import MarbleSpec

/// The operator catalogue in code (what `marbles operators` prints) and the catalogue files in
/// `marbles/operators/` describe the same operators: every family has its file, every file its
/// family, and every operator's name appears in a test of its file.
@Suite struct CatalogueTests {
    static let folder = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("marbles/operators")

    static func files() throws -> [String: String] {
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".marble") }
        var files: [String: String] = [:]
        for name in names {
            files[String(name.dropLast(".marble".count))] = try String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8)
        }
        return files
    }

    @Test func everyFamilyHasACatalogueFileAndEveryFileAFamily() throws {
        let families = Set(Catalogue.signatures.map(\.family))
        let files = Set(try Self.files().keys)
        #expect(families.subtracting(files).sorted() == [], "families without a file in marbles/operators/")
        #expect(files.subtracting(families).sorted() == [], "files in marbles/operators/ without an operator in the catalogue")
    }

    @Test func everyOperatorIsUsedInItsFamilysFile() throws {
        let files = try Self.files()
        for signature in Catalogue.signatures where signature.kind != .property {
            let name = signature.name.split(separator: ".").last.map(String.init) ?? signature.name
            let text = files[signature.family] ?? ""
            let used = signature.kind == .constructor ? text.contains(name + "(") || text.contains(name + " {") || text.contains(name + "<")
                                                      : text.contains("." + name + "(") || text.contains("." + name + " {")
            #expect(used, "\(signature.selector) is not used in marbles/operators/\(signature.family).marble")
        }
    }

    @Test func everyCatalogueFilePasses() throws {
        for (name, text) in try Self.files() {
            let report = runMarble(text, path: name + ".marble")
            #expect(problems(report) == [], "\(name).marble")
            #expect(!report.tests.isEmpty, "\(name).marble has no tests")
            // The warning on an integer duration Combine would read as seconds is quiet here.
            #expect(report.tests.flatMap(\.warnings).filter { $0.message.contains(" in Combine on ") }.map(\.message) == [], "\(name).marble")
        }
    }

    @Test func signaturesSpellLabelsAsCombineDoes() {
        let selectors = Set(Catalogue.signatures.map(\.selector))
        for expected in ["debounce(for:scheduler:options:)", "throttle(for:scheduler:latest:)", "flatMap(maxPublishers:_:)",
                         "timeout(_:scheduler:options:customError:)", "buffer(size:prefetch:whenFull:)", "retry(_:)", "retry()",
                         "handleEvents(receiveSubscription:receiveOutput:receiveCompletion:receiveCancel:receiveRequest:)",
                         "drop(untilOutputFrom:)", "prefix(untilOutputFrom:)", "output(at:)", "output(in:)", "replaceError(with:)",
                         "measureInterval(using:options:)", "receive(on:options:)", "subscribe(on:options:)", "merge(with:)",
                         "Timer.publish(every:tolerance:on:in:options:)", "multicast(subject:)", "share()", "makeConnectable()"] {
            #expect(selectors.contains(expected), "missing \(expected)")
        }
    }

    // MARK: One naming rule (CONTRIBUTING.md): family ↔ .marble file ↔ engine file ↔ engine tests

    static let root = folder.deletingLastPathComponent().deletingLastPathComponent()

    /// The engine file a family's name gives: `receive-on` → `ReceiveOn`, `tryMap` → `Map` (a `try`
    /// twin lives with its base operator), `PassthroughSubject` → `PassthroughSubject`.
    static func engineFileName(of family: String) -> String {
        var name = family
        if name.hasPrefix("try"), let next = name.dropFirst(3).first, next.isUppercase { name = String(name.dropFirst(3)) }
        return name.split(separator: "-").map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined()
    }

    /// Families served by a publisher another family names: the file is the publisher's.
    static let sharedEngineFiles = [
        "min": "Comparison", "max": "Comparison",  // Combine's Publishers.Comparison
        "append": "Concatenate", "prepend": "Concatenate",  // Publishers.Concatenate
        "prefix": "Output",  // prefix(_:) is Publishers.Output, as output(at:) and output(in:)
        "eraseToAnyPublisher": "AnyPublisher",
    ]

    /// The names of the Swift files below `path` (relative to the package root), without `.swift`.
    static func swiftFiles(under path: String) throws -> Set<String> {
        let base = root.appendingPathComponent(path)
        guard let enumerator = FileManager.default.enumerator(atPath: base.path) else { return [] }
        return Set(enumerator.compactMap { $0 as? String }.filter { $0.hasSuffix(".swift") }
            .map { String(($0 as NSString).lastPathComponent.dropLast(".swift".count)) })
    }

    @Test func everyFamilyHasItsEngineFile() throws {
        let engine = try Self.swiftFiles(under: "Sources/Reactive")
        #expect(engine.count > 50)
        for family in Set(Catalogue.signatures.map(\.family)).sorted() {
            let name = Self.sharedEngineFiles[family] ?? Self.engineFileName(of: family)
            #expect(engine.contains(name), "family '\(family)': no Sources/Reactive/**/\(name).swift")
        }
    }

    /// Every `XTests.swift` of the engine's tests names an engine file `X.swift` (the engine's, or
    /// the virtual clock's it re-exports), or is one of the suites that cut across operators.
    @Test func everyEngineTestFileNamesAnEngineFile() throws {
        let engine = try Self.swiftFiles(under: "Sources/Reactive").union(Self.swiftFiles(under: "Sources/VirtualClock"))
        let crossCutting: Set = ["AfterCancel", "AppSurface", "Core", "GenericScheduler", "OperatorContract", "RealTimeScheduler",
                                 "SchedulerProtocol", "SchedulerRearm", "SchedulerSpellings", "SubjectLifetime"]
        let tests = try Self.swiftFiles(under: "Tests/ReactiveTests").filter { $0.hasSuffix("Tests") }.map { String($0.dropLast("Tests".count)) }
        #expect(!tests.isEmpty)
        for name in tests.sorted() where !crossCutting.contains(name) {
            #expect(engine.contains(name), "Tests/ReactiveTests/\(name)Tests.swift names no engine file \(name).swift")
        }
    }

    @Test func theRuleTurnsFamilyNamesIntoFileNames() {
        #expect(Self.engineFileName(of: "receive-on") == "ReceiveOn")
        #expect(Self.engineFileName(of: "collect-byTime") == "CollectByTime")
        #expect(Self.engineFileName(of: "tryCompactMap") == "CompactMap")
        #expect(Self.engineFileName(of: "PassthroughSubject") == "PassthroughSubject")
        #expect(Self.engineFileName(of: "timer") == "Timer")
    }
}

/// An untraced run binds each named stream through one link that records and guards
/// (`GuardedRecorder`); a traced run keeps the recorder and the guard apart, with the tracer's
/// link between them. Both must report the same: every check, subscription, request, delivery
/// and drop of every catalogue test (only the trace's own events differ).
@Suite struct GuardedRecorderTests {
    @Test func tracedAndUntracedRunsOfTheCatalogueReportTheSame() throws {
        for (name, source) in try CatalogueTests.files().sorted(by: { $0.key < $1.key }) {
            var traced = RunOptions()
            traced.traceEvents = true
            let plain = MarbleRunner.run(source: source, path: name, options: RunOptions())
            let withTrace = MarbleRunner.run(source: source, path: name, options: traced)
            #expect(plain.tests.count == withTrace.tests.count, "\(name)")
            for (a, b) in zip(plain.tests, withTrace.tests) {
                var b = b, a = a
                b.events = []
                a.seconds = 0
                b.seconds = 0
                #expect(a == b, "\(name): \(a.name)")
            }
        }
    }
}
