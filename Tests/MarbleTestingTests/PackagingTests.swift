import Foundation
import Testing

/// What a test target that depends on MarbleTesting compiles and links, read from the manifest:
/// the notation, the reports and their comparison, the diff and the diagrams, the clock and the
/// engine, never the `.marble` file grammar, interpreter, type checker or catalogue.
@Suite struct PackagingTests {
    /// The package's root, above `Tests/` (through the link `scripts/opencombine-check` makes to this folder).
    static let root = URL(fileURLWithPath: #filePath).resolvingSymlinksInPath().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    /// `Package.swift`.
    static let manifest = (try? String(contentsOf: root.appendingPathComponent("Package.swift"), encoding: .utf8)) ?? ""

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

    /// The Swift files below `folder` of the package, with their text.
    static func sources(under folder: String) -> [(name: String, text: String)] {
        let base = root.appendingPathComponent(folder)
        let names = (FileManager.default.enumerator(atPath: base.path)?.compactMap { $0 as? String } ?? []).filter { $0.hasSuffix(".swift") }
        return names.sorted().compactMap { name in
            (try? String(contentsOf: base.appendingPathComponent(name), encoding: .utf8)).map { (folder + "/" + name, $0) }
        }
    }

    /// One source, two engines: MarbleTesting names `Reactive` only in the `#else` of an
    /// `#if canImport(Combine)` whose other branch imports Combine, never as a qualifier
    /// (`Reactive.Publisher`); its own tests and the example's tests never name it, so they read
    /// the same on both engines. (CI builds only the Reactive branch; this keeps the other one
    /// from being broken unseen. `scripts/opencombine-check` builds it.)
    @Test func marbleTestingNamesReactiveOnlyWhereCombineCannotBeImported() throws {
        let library = Self.sources(under: "Sources/MarbleTesting")
        try #require(library.count > 10, "Sources/MarbleTesting not found beside \(Self.root.path)")
        for (name, text) in library {
            let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
            for (index, line) in lines.enumerated() where line.hasSuffix("import Reactive") {
                let block = lines[max(0, index - 3)..<index]
                #expect(block.elementsEqual(["#if canImport(Combine)", line.replacingOccurrences(of: "Reactive", with: "Combine"), "#else"]),
                        "\(name):\(index + 1) imports Reactive outside #if canImport(Combine) … #else")
            }
            #expect(!Self.qualifiesWithReactive(lines), "\(name) qualifies a name with Reactive")
        }
        let tests = Self.sources(under: "Tests/MarbleTestingTests") + Self.sources(under: "Examples/SearchFeature/Tests")
        try #require(tests.count > 5)
        for (name, text) in tests {
            let lines = text.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
            #expect(!lines.contains { $0.hasSuffix("import Reactive") } && !Self.qualifiesWithReactive(lines),
                    "\(name) names Reactive: a test of MarbleTesting imports MarbleTesting alone")
        }
    }

    /// Whether a line of code (not a comment) writes `Reactive.` before a name.
    static func qualifiesWithReactive(_ lines: [String]) -> Bool {
        lines.contains { line in
            guard !line.hasPrefix("//"), let range = line.range(of: "Reactive.") else { return false }
            return line[range.upperBound...].first.map { $0.isLetter || $0 == "_" } ?? false
        }
    }
}
