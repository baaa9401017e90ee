/// What `marbles-fuzz` (Sources/marbles-fuzz) checks of a command that it cannot see through
/// the command line alone, without touching the file system.
public enum FuzzProbes {
    /// `marbles doc` over `text` as the document `path`, then again over what the first run
    /// would write (the document and its diagrams): nil when the second run changes nothing,
    /// which is what `marbles doc --check` then verifies; otherwise what changed. Nil too for a
    /// document with an error (nothing of it is written).
    public static func docRoundTrip(_ text: String, path: String = "fuzz.md") -> String? {
        let first = DocCommand.process(source: text, path: path, update: false, out: nil)
        guard !first.report.isError else { return nil }
        let second = DocCommand.process(source: first.text, path: path, update: false, out: nil)
        if second.report.isError {
            return "the document as written does not run: \(second.report.diagnostics.first.map { "line \($0.line): \($0.message)" } ?? "an error")"
        }
        if second.text != first.text { return "a second run rewrites the document" }
        if second.diagrams.map(\.path) != first.diagrams.map(\.path) { return "a second run draws other diagrams" }
        if let changed = zip(first.diagrams, second.diagrams).first(where: { $0.0.svg != $0.1.svg }) {
            return "a second run draws \(changed.0.path) otherwise"
        }
        return nil
    }
}
