import Foundation
import MarbleDiagram
import MarbleRewrite
import MarbleSpec
import MarbleSyntax

/// `marbles doc --catalogue DIR FILE.md`: the Markdown of an operator reference drawn from the
/// catalogue, one section per family (`DIR/FAMILY.marble`) in the catalogue's order: what the
/// file's opening comment says, the family's signatures, its first test as a ```` ```marble ````
/// block (which `marbles doc` then runs and draws like any other), and the names of its
/// other tests. The page is a function of the catalogue, so `--check` finds it stale as soon
/// as the catalogue changes.
enum OperatorsPage {
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// A generated page: its text, and where each line of its `marble` blocks comes from (a
    /// catalogue file and line, by the page's line), so that a mistake in one is reported in
    /// the file that has it, not in a page that is never written.
    struct Page {
        var text: String
        var origins: [Int: (path: String, line: Int)]
    }

    /// The page for the catalogue in `folder`, linked from the page at `page` (for relative links).
    static func markdown(catalogue folder: String, page: String) throws(Failure) -> String {
        try generate(catalogue: folder, page: page).text
    }

    /// The page for the catalogue in `folder` with the origins of its blocks' lines.
    static func generate(catalogue folder: String, page: String) throws(Failure) -> Page {
        let pageFolder = (page as NSString).deletingLastPathComponent
        let link = DocCommand.relativePath(from: pageFolder.isEmpty ? "." : pageFolder, to: folder)
        var families: [(part: String, name: String, path: String, source: String)] = []
        for part in Catalogue.parts {
            for name in part.families {
                let path = DiagramFiles.join(folder, name + ".marble")
                guard let data = FileManager.default.contents(atPath: path), let source = String(data: data, encoding: .utf8) else { continue }
                families.append((part.title, name, path, source))
            }
        }
        guard !families.isEmpty else {
            throw Failure(description: "no catalogue files in '\(folder)' (FAMILY.marble for the families of 'marbles operators')")
        }
        let signatures = Dictionary(grouping: Catalogue.signatures, by: \.family)
        var text = """
            # Operators

            <!-- Generated from the catalogue by `marbles doc --catalogue` (make docs); edit the .marble files, not this page. -->

            Every operator and publisher of the `.marble` language, one section per family of
            [`\(link)/`](\(link)/), in the catalogue's order: what it does, its signatures, and the
            family's first test, run by `marbles doc` (the diagram under it is drawn from the
            simulation, and `make test` fails when the page no longer matches the catalogue).
            The family's other tests are named under it; `make diagrams` draws them all.

            ## Contents


            """
        var currentPart = ""
        for family in families where family.part != currentPart {
            currentPart = family.part
            let members = families.filter { $0.part == family.part }.map { "[\($0.name)](#\(anchor($0.name)))" }
            text += "- **\(family.part)**: " + members.joined(separator: " · ") + "\n"
        }
        currentPart = ""
        var origins: [Int: (path: String, line: Int)] = [:]
        // The line at the end of the text so far, counting only what was added since the last call.
        var counted = (bytes: 0, line: 1)
        func lineNumber(ofEndOf text: String) -> Int {
            counted.line += text.utf8.dropFirst(counted.bytes).lazy.filter { $0 == UInt8(ascii: "\n") }.count
            counted.bytes = text.utf8.count
            return counted.line
        }
        for family in families {
            if family.part != currentPart {
                currentPart = family.part
                text += "\n## \(family.part)\n"
            }
            text += "\n### \(family.name)\n\n"
            for paragraph in openingComment(family.source) { text += paragraph + "\n\n" }
            for signature in signatures[family.name] ?? [] {
                text += "- `\(signature.usage)` — \(markdownText(signature.summary))\n"
            }
            let excerpts = TestExcerpt.excerptLines(of: family.source)
            let tests = MarbleFileParser.parse(family.source).file.tests.map { (name: $0.name, line: $0.location.line) }
            let file = "[`\(family.name).marble`](\(link)/\(family.name).marble)"
            if let first = tests.first, let excerpt = excerpts[first.line] {
                // A fence longer than any run of backticks in the excerpt, so that no line of it closes the block.
                let longest = excerpt.map { Self.longestRun(of: "`", in: $0.text) }.max() ?? 0
                let fence = String(repeating: "`", count: max(3, longest + 1))
                text += "\n" + fence + "marble\n"
                var line = lineNumber(ofEndOf: text)
                for excerptLine in excerpt {
                    if let origin = excerptLine.line { origins[line] = (family.path, origin) }
                    text += excerptLine.text + "\n"
                    line += 1
                }
                text += fence + "\n"
                let others = tests.dropFirst().map { "“" + markdownText($0.name) + "”" }
                text += others.isEmpty ? "\nThe only test of \(file).\n" : "\nThe other tests of \(file): " + others.joined(separator: ", ") + ".\n"
            }
        }
        return Page(text: text, origins: origins)
    }

    /// The length of the longest run of `character` in `text`.
    static func longestRun(of character: Character, in text: String) -> Int {
        var longest = 0, current = 0
        for c in text {
            current = c == character ? current + 1 : 0
            longest = max(longest, current)
        }
        return longest
    }

    /// GitHub's anchor of a heading that is one word: lowercase, nothing but letters, digits,
    /// hyphens and underscores.
    static func anchor(_ heading: String) -> String {
        String(heading.lowercased().filter { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" })
    }

    /// The `//` lines that open a file, as paragraphs (a `//` line alone separates them), each
    /// joined into one line, Markdown's special characters escaped outside code spans, and the
    /// project's notes to its internal reference (`reference §3`) left out.
    static func openingComment(_ source: String) -> [String] {
        var paragraphs: [[String]] = [[]]
        for line in SourceLines(source).lines.map(\.text) {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            guard trimmed.hasPrefix("//") else { break }
            let text = trimmed.dropFirst(2).trimmingCharacters(in: .whitespaces)
            if text.isEmpty {
                if !(paragraphs.last ?? []).isEmpty { paragraphs.append([]) }
            } else {
                paragraphs[paragraphs.count - 1].append(text)
            }
        }
        return paragraphs.filter { !$0.isEmpty }.map { lines in
            let paragraph = markdownText(withoutInternalReferences(lines.joined(separator: " ")))
            // A paragraph that starts as a fence would open a code block (```` // ```marble ````): escape its first character.
            return paragraph.hasPrefix("```") || paragraph.hasPrefix("~~~") ? "\\" + paragraph : paragraph
        }
    }

    /// `(source: X; reference §3, §10.1)` → `(source: X)`; `(reference §8)` → nothing.
    static func withoutInternalReferences(_ text: String) -> String {
        var result = text.replacing(/[;,]?\s*(—\s*)?reference §[0-9.]+(,\s*§[0-9.]+)*\.?/, with: "")
        result = result.replacing(/\((source:\s*)?[;,]\s*/) { $0.1 == nil ? "(" : "(source: " }
        result = result.replacing(/\s*\((source:)?\s*\)/, with: "")
        return result.replacing(/\s{2,}/, with: " ")
    }

    /// Text as Markdown shows it literally: `\`, `*`, `_`, `[`, `]`, `<` and `>` escaped,
    /// except inside `code spans`, which show it as it is.
    static func markdownText(_ text: String) -> String {
        var result = ""
        var inCode = false
        for character in text {
            if character == "`" { inCode.toggle() }
            if !inCode, "\\*_[]<>".contains(character) { result.append("\\") }
            result.append(character)
        }
        return result
    }
}
