import Foundation
import Testing

/// What a test target that depends on MarbleTesting compiles and links, read from the manifest:
/// the notation, the reports and their comparison, the diff and the diagrams, the clock and the
/// engine, never the `.marble` file grammar, interpreter, type checker or catalogue.
@Suite struct PackagingTests {
    /// `Package.swift`, beside `Tests/`.
    static let manifest: String = {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        return (try? String(contentsOf: root.appendingPathComponent("Package.swift"), encoding: .utf8)) ?? ""
    }()

    /// Each library target's direct dependencies, from its `.target(name: "X", dependencies: […])` line.
    static func dependencies() -> [String: Set<String>] {
        var graph: [String: Set<String>] = [:]
        for line in manifest.split(separator: "\n") {
            guard let nameRange = line.range(of: ".target(name: \""), let end = line[nameRange.upperBound...].firstIndex(of: "\"") else { continue }
            let name = String(line[nameRange.upperBound..<end])
            var names: Set<String> = []
            if let open = line.range(of: "dependencies: [") {
                let list = line[open.upperBound...]
                // Quoted names: plain dependencies and `.target(name: "X", condition: …)`.
                var rest = list[...]
                while let quote = rest.firstIndex(of: "\""), let close = rest[rest.index(after: quote)...].firstIndex(of: "\"") {
                    names.insert(String(rest[rest.index(after: quote)..<close]))
                    rest = rest[rest.index(after: close)...]
                }
            }
            graph[name] = names
        }
        return graph
    }

    @Test func aTestTargetCompilesNoInterpreter() throws {
        let graph = Self.dependencies()
        try #require(graph["MarbleTesting"] != nil, "no MarbleTesting target line in Package.swift")
        var reached: Set<String> = [], pending = ["MarbleTesting"]
        while let next = pending.popLast() {
            for dependency in graph[next] ?? [] where reached.insert(dependency).inserted { pending.append(dependency) }
        }
        #expect(reached.isDisjoint(with: ["MarbleSpec", "MarbleSyntax", "MarbleRewrite", "MarblesCLI"]), "MarbleTesting reaches \(reached.sorted())")
        #expect(reached.isSuperset(of: ["MarbleNotation", "MarbleReport", "MarbleDiff", "MarbleDiagram"]))
    }
}
