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
}
