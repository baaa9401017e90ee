/// `--filter TEXT`: a substring of "file › test", or a regular expression written `/…/`
/// (`/…/i` ignores case).
struct TestFilter: Equatable, Sendable {
    enum Form: Equatable, Sendable {
        case substring(String)
        case regex(pattern: String, ignoresCase: Bool)
    }

    struct Problem: Error {
        var message: String
    }

    let form: Form
    /// As given on the command line.
    let text: String

    init(_ text: String) throws(Problem) {
        self.text = text
        if text.count >= 2, text.hasPrefix("/"), text.hasSuffix("/") || text.hasSuffix("/i"), text != "/i" {
            let ignoresCase = text.hasSuffix("/i") && text.count >= 3
            let pattern = String(text.dropFirst().dropLast(ignoresCase ? 2 : 1))
            guard !pattern.isEmpty else { throw Problem(message: "an empty regular expression matches every test") }
            do {
                _ = try Regex(pattern)
            } catch {
                throw Problem(message: "not a regular expression: \(error)")
            }
            form = .regex(pattern: pattern, ignoresCase: ignoresCase)
        } else {
            form = .substring(text)
        }
    }

    /// A matcher for "file › test" strings (a regular expression compiled once).
    func matcher() -> (String) -> Bool {
        switch form {
        case .substring(let text):
            return { $0.contains(text) }
        case .regex(let pattern, let ignoresCase):
            guard let compiled = try? Regex(pattern) else { return { _ in false } }
            let regex = ignoresCase ? compiled.ignoresCase() : compiled
            return { $0.contains(regex) }
        }
    }

    /// What `--filter` matches: `path › test name`.
    static func subject(path: String, test: String) -> String { "\(path) › \(test)" }
}

/// The tests of one file chosen by `--filter` and `--shard`.
struct FileSelection: Sendable {
    var path: String
    /// Every test of the file, in order (as far as the file could be parsed).
    var allTests: [(name: String, line: Int)]
    /// The chosen ones; nil when the file is run whole (no selection asked for).
    var selected: Set<String>?
    /// A mistake breaks the file's structure: it is reported as an error (when selected at all).
    var hasErrors: Bool

    var selectedTests: [(name: String, line: Int)] {
        guard let selected else { return allTests }
        return allTests.filter { selected.contains($0.name) }
    }
}

/// Chooses tests for `--filter` and `--shard`.
///
/// A shard is a deterministic split of the selected tests in discovery order: test k (counting
/// from 0 over every selected test of every file, a file with syntax errors counting as one
/// item) belongs to shard k mod N + 1. Shards are disjoint, together complete, and differ in
/// size by at most one test. A path that cannot be run is reported by every shard.
enum Selection {
    static func choose(_ files: [FileSelection], filters: [TestFilter], shard: Shard?) -> [FileSelection] {
        let matchers = filters.map { $0.matcher() }
        func matches(_ subject: String) -> Bool { matchers.isEmpty || matchers.contains { $0(subject) } }

        var chosen: [FileSelection] = []
        var position = 0
        for var file in files {
            var names: Set<String> = []
            if file.hasErrors {
                // Matched by its path or by a test name it declares; runs (and fails) as one item.
                let hit = matchers.isEmpty || matches(file.path + " › ") || file.allTests.contains { matches(TestFilter.subject(path: file.path, test: $0.name)) }
                guard hit else { continue }
                defer { position += 1 }
                if let shard, position % shard.count != shard.index - 1 { continue }
                file.selected = nil
                chosen.append(file)
                continue
            }
            for test in file.allTests where matches(TestFilter.subject(path: file.path, test: test.name)) {
                defer { position += 1 }
                if let shard, position % shard.count != shard.index - 1 { continue }
                names.insert(test.name)
            }
            guard !names.isEmpty else { continue }
            file.selected = names.count == file.allTests.count ? nil : names
            chosen.append(file)
        }
        return chosen
    }
}
