#if canImport(FoundationNetworking)
import Foundation
import Testing

/// Where URLSession is in FoundationNetworking, its publisher is in ReactiveNetworking, apart from
/// Reactive. App code that forgets that import gets one error per use that names the module
/// (not "no member 'dataTaskPublisher'", nor a follow-on error, nor a compiler crash): the
/// fixture in MissingImport/ is typechecked with `swiftc` against this build's modules.
@Suite struct MissingImportTests {
    @Test func everyUseOfTheDataTaskPublisherNamesReactiveNetworking() throws {
        let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("MissingImport/NetworkingWithoutItsModule.swift")
        let source = try String(contentsOf: fixture, encoding: .utf8)
        let marked = source.split(separator: "\n", omittingEmptySubsequences: false).enumerated()
            .filter { $0.element.hasSuffix("// missing import") }.map { $0.offset + 1 }
        #expect(marked.count == 3)

        let (status, output) = try typecheck(fixture)
        #expect(status != 0)
        let errors = output.split(separator: "\n").filter { $0.hasPrefix(fixture.path + ":") && $0.contains(": error: ") }
        let lines = errors.compactMap { Int($0.dropFirst(fixture.path.count + 1).prefix { $0 != ":" }) }
        #expect(lines == marked, "\(output)")
        for error in errors {
            #expect(error.contains("is unavailable: ") && error.contains("add 'import ReactiveNetworking' beside 'import FoundationNetworking'"), "\(error)")
        }
    }

    /// `swiftc -typecheck` of `file` against the modules built beside this test bundle.
    private func typecheck(_ file: URL) throws -> (Int32, String) {
        let bundle = URL(fileURLWithPath: CommandLine.arguments.first ?? "")
        let folders = [bundle.deletingLastPathComponent(), bundle.deletingLastPathComponent().deletingLastPathComponent()]
        let modules = try #require(folders.map { $0.appendingPathComponent("Modules") }.first { FileManager.default.fileExists(atPath: $0.appendingPathComponent("Reactive.swiftmodule").path) },
                                   "no Modules folder with Reactive beside \(bundle.path)")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["swiftc", "-typecheck", "-swift-version", "5", "-I", modules.path, file.path]
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }
}
#endif
