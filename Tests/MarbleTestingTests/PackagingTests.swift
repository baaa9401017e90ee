import Foundation
import Testing

/// What a test target that depends on MarbleTesting compiles and links, read from the manifest:
/// the notation, the reports and their comparison, the diff and the diagrams, the clock and the
/// engine, never the `.marble` file grammar, interpreter, type checker or catalogue.
@Suite struct PackagingTests {
    /// `Package.swift`, beside `Tests/` (through the link `scripts/opencombine-check` makes to this folder).
    static let manifest: String = {
        let root = URL(fileURLWithPath: #filePath).resolvingSymlinksInPath().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        return (try? String(contentsOf: root.appendingPathComponent("Package.swift"), encoding: .utf8)) ?? ""
    }()

    /// Each library target's direct dependencies: the quoted names in its `.target(name: "X", …)`
    /// call (plain names, and `.target(name: "Y", condition: …)`), however many lines it spans.
    static func dependencies() -> [String: Set<String>] {
        var graph: [String: Set<String>] = [:]
        var rest = manifest[...]
        while let call = rest.range(of: ".target(name: \"") {
            var depth = 1, index = call.upperBound
            while index < rest.endIndex, depth > 0 {
                if rest[index] == "(" { depth += 1 } else if rest[index] == ")" { depth -= 1 }
                index = rest.index(after: index)
            }
            let names = rest[call.upperBound..<index].split(separator: "\"", omittingEmptySubsequences: false).enumerated()
                .filter { $0.offset % 2 == 0 }.map { String($0.element) }
            if let name = names.first { graph[name] = Set(names.dropFirst()) }
            rest = rest[index...]
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

    /// An app's test target on any Apple platform can add the package, at the versions where
    /// MarbleTesting's runtime needs exist, and there MarbleTesting does not build Reactive.
    @Test func appleProjectsCanAddThePackage() throws {
        for platform in [".macOS(.v13)", ".iOS(.v16)", ".tvOS(.v16)", ".watchOS(.v9)", ".visionOS(.v1)"] {
            #expect(Self.manifest.contains(platform), "Package.swift does not declare \(platform)")
        }
        #expect(Self.manifest.contains(#".target(name: "Reactive", condition: .when(platforms: withoutCombine))"#))
        let list = try #require(Self.manifest.range(of: "let withoutCombine: [Platform] = [").map { Self.manifest[$0.upperBound...].prefix { $0 != "]" } })
        for apple in [".macOS", ".iOS", ".tvOS", ".watchOS", ".visionOS", ".macCatalyst"] {
            #expect(!list.contains(apple), "\(apple) has Combine")
        }
        #expect(list.contains(".linux"))
    }
}
