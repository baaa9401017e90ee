import AtomicFiles
import Foundation
import MarbleDiagram
import MarbleRewrite
import MarbleSpec
import MarbleSyntax

struct DocArguments: Equatable {
    /// Markdown files and folders (searched for `*.md`), as given.
    var paths: [String] = []
    var check = false
    var update = false
    /// Where the diagrams go; nil: a `diagrams` folder next to each Markdown file.
    var out: String? = nil
    /// `--catalogue DIR`: the one path is a page generated from the catalogue files in DIR (see `OperatorsPage`).
    var catalogue: String? = nil
    var noColor = false
    /// `--quiet`: passing tests are left out of the report, as with `marbles run --quiet`.
    var quiet = false
    /// `--watch`: run, then again for each document saved (see WatchSession.swift).
    var watch = false
    /// Under `--watch`: only these of the documents found run (all of them name the diagrams).
    var only: Set<String>? = nil
}

/// `marbles doc PATH…`: runs the ```` ```marble ```` blocks of Markdown files and DocC articles as
/// tests, reports them as `marbles run` does (locations inside the Markdown file), writes each
/// test's diagram (`NAME.svg` and `NAME~dark.svg`) and puts, right after each block's closing
/// fence, a generated region showing them: a `<picture>` for GitHub, `@Image` for DocC (a file
/// inside a `.docc` folder). Nothing else in the file changes; a second run changes nothing.
struct DocCommand {
    var arguments: DocArguments
    var printer: Printer
    var style: Style

    /// One Markdown file, processed: what to report, and what to write.
    struct Outcome {
        var report: FileReport
        var update: FileUpdate?
        /// The document's new text (equal to the old when nothing changes).
        var text: String
        /// Diagram files by path, with their contents.
        var diagrams: [(path: String, svg: String)]
        /// Where the document's diagrams go and how their names begin (`readme--`): a file there
        /// with that beginning that no block draws any more is stale. Nil: nothing was drawn.
        var diagramNames: (folder: String, prefix: String)? = nil

        /// The diagram files of earlier runs that no block of the document draws now.
        var orphans: [String] {
            guard let (folder, prefix) = diagramNames,
                  let files = try? FileManager.default.contentsOfDirectory(atPath: folder) else { return [] }
            let drawn = Set(diagrams.map(\.path))
            return files.sorted().filter { name in
                // `prefix` ends in `--`; a slug never starts with `-`, so `a--x` is not `a---x`'s.
                name.hasPrefix(prefix) && name.hasSuffix(".svg") && !name.dropFirst(prefix.count).hasPrefix("-")
            }.map { folder + "/" + $0 }.filter { !drawn.contains($0) }
        }
    }

    func execute() -> Int32 {
        let reporter = HumanReporter(target: .standardOutput(printer), style: style, quiet: arguments.quiet)
        var summary = RunSummary(tally: Tally(), milliseconds: 0)
        var stale: [String] = []
        /// A document was left as it is for a mistake in one of its blocks.
        var leftForMistakes = false
        var written: [String] = []
        var removed: [String] = []
        /// With `--check`: diagrams of earlier runs that no block draws now.
        var orphaned: [String] = []
        let items = discover(arguments.paths)
        let prefixes = Self.diagramPrefixes(items.compactMap { if case .file(let path) = $0 { path } else { nil } }, out: arguments.out)
        for item in items {
            switch item {
            case .problem(let path, let message):
                summary.tally.inputErrors += 1
                reporter.problem(path: path, message: message)
            case .file(let path):
                if let only = arguments.only, !only.contains(path) { continue }
                // A generated page is compared with the file as it is (which may not exist yet).
                let data = FileManager.default.contents(atPath: path) ?? (arguments.catalogue == nil ? nil : Data())
                guard let data, let onDisk = String(data: data, encoding: .utf8), Data(onDisk.utf8) == data else {
                    summary.tally.inputErrors += 1
                    reporter.problem(path: path, message: "cannot read the file as UTF-8 text")
                    continue
                }
                var source = onDisk
                var page: OperatorsPage.Page?
                if let catalogue = arguments.catalogue {
                    do {
                        page = try OperatorsPage.generate(catalogue: catalogue, page: path)
                        source = page?.text ?? ""
                    } catch {
                        summary.tally.inputErrors += 1
                        reporter.problem(path: catalogue, message: error.description)
                        continue
                    }
                }
                var outcome = Self.process(source: source, path: path, update: arguments.update && !arguments.check, out: arguments.out,
                                           prefix: prefixes[Self.identity(path)])
                var unplaced: [FileDiagnostic] = []
                if let page, !outcome.report.allDiagnostics.isEmpty {
                    // The page is not written: each mistake is shown where it is, in its catalogue file.
                    (outcome.report.diagnostics, unplaced) = Self.relocate(outcome.report.diagnostics, to: page)
                    for index in outcome.report.tests.indices where !outcome.report.tests[index].diagnostics.isEmpty {
                        let (located, lost) = Self.relocate(outcome.report.tests[index].diagnostics, to: page)
                        outcome.report.tests[index].diagnostics = located + lost
                        outcome.report.tests[index].error = (located + lost).first
                        unplaced += lost
                    }
                }
                for diagnostic in unplaced {
                    summary.tally.inputErrors += 1
                    reporter.problem(path: arguments.catalogue ?? path,
                                     message: "the page generated from it is not valid (its line \(diagnostic.line): \(diagnostic.message))")
                }
                summary.tally.count(outcome.report)
                if case .updated(let changes)? = outcome.update {
                    summary.updatedFiles += 1
                    summary.updatedLines += changes.count
                }
                reporter.file(FileResult(report: outcome.report, seconds: 0, update: outcome.update))
                // A block with a mistake (in a test too) leaves the document and its diagrams as they are.
                guard outcome.report.allDiagnostics.isEmpty else {
                    leftForMistakes = true
                    continue
                }
                guard unplaced.isEmpty else { continue }
                // Something other than a regular file at a diagram's path is not read (a FIFO would
                // wait for a writer): it is stale, and writing refuses it.
                var changed = outcome.diagrams.filter {
                    AtomicFile.rewriteRefusal($0.path) != nil || FileManager.default.contents(atPath: $0.path) != Data($0.svg.utf8)
                }.map(\.path)
                if outcome.text != onDisk { changed.insert(path, at: 0) }
                let orphans = outcome.orphans
                if arguments.check {
                    stale += changed
                    orphaned += orphans
                    continue
                }
                do {
                    // A document is rewritten only as a regular file; asked before any diagram is written.
                    if outcome.text != onDisk, let refusal = AtomicFile.rewriteRefusal(path) { throw refusal }
                    for diagram in outcome.diagrams where changed.contains(diagram.path) {
                        let folder = URL(fileURLWithPath: diagram.path).deletingLastPathComponent().path
                        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
                        try AtomicFile.write(Data(diagram.svg.utf8), to: diagram.path, nonRegular: .refuse)
                    }
                    if outcome.text != onDisk {
                        guard FileManager.default.contents(atPath: path) ?? Data() == data else {
                            throw AtomicFile.Failure(description: "'\(path)' changed while its blocks ran; left unchanged")
                        }
                        try AtomicFile.write(Data(outcome.text.utf8), to: path, nonRegular: .refuse)
                    }
                    written += changed
                    for orphan in orphans {
                        try FileManager.default.removeItem(atPath: orphan)
                        removed.append(orphan)
                    }
                } catch {
                    summary.tally.inputErrors += 1
                    reporter.problem(path: path, message: "\(error)")
                }
            }
        }
        reporter.finish(summary)
        if summary.tally.inputErrors > 0 || leftForMistakes {
            printer.line("a document with an error is left unchanged, its diagrams unwritten")
        }
        if arguments.check {
            for path in stale { printer.line("stale: \(path) (run 'marbles doc' to refresh it)") }
            for path in orphaned { printer.line("stale: \(path) (no block draws it any more; 'marbles doc' removes it)") }
            let count = stale.count + orphaned.count
            printer.line(count == 0 ? "docs up to date" : "\(count) file\(count == 1 ? "" : "s") stale")
        } else {
            for path in written { printer.line("wrote \(path)") }
            for path in removed { printer.line("removed \(path) (no block draws it any more)") }
            var counts: [String] = []
            if !written.isEmpty { counts.append("\(written.count) file\(written.count == 1 ? "" : "s") written") }
            if !removed.isEmpty { counts.append("\(removed.count) removed") }
            printer.line(counts.isEmpty ? "docs up to date" : counts.joined(separator: ", "))
        }
        let status = summary.tally.exitCode
        if status == CLI.ExitCode.success, !stale.isEmpty || !orphaned.isEmpty { return CLI.ExitCode.failure }
        return status
    }

    // MARK: Finding the files

    func discover(_ paths: [String]) -> [DiscoveredPath] {
        // A generated page need not exist yet.
        if arguments.catalogue != nil { return paths.map { .file($0) } }
        return Self.discover(paths)
    }

    static func discover(_ paths: [String]) -> [DiscoveredPath] {
        var result: [DiscoveredPath] = []
        var seen: Set<String> = []
        for path in paths {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
                result.append(.problem(path: path, message: "no such file or directory"))
                continue
            }
            let walk = isDirectory.boolValue ? Discovery.walk(path, withExtension: "md") : Discovery.Walk(files: [path])
            if let problem = walk.problem {
                result.append(.problem(path: path, message: problem))
            } else if walk.files.isEmpty {
                result.append(.problem(path: path, message: "no .md files in this folder"))
            }
            for file in walk.files where seen.insert(URL(fileURLWithPath: file).standardizedFileURL.path).inserted {
                result.append(.file(file))
            }
        }
        return result
    }

    /// Diagnostics of a generated page moved to the catalogue lines its blocks were taken from
    /// (the text is the same, so the column is too); those of other lines are returned apart.
    static func relocate(_ diagnostics: [FileDiagnostic], to page: OperatorsPage.Page) -> (located: [FileDiagnostic], unplaced: [FileDiagnostic]) {
        var located: [FileDiagnostic] = [], unplaced: [FileDiagnostic] = []
        for diagnostic in diagnostics {
            guard let origin = page.origins[diagnostic.line] else {
                unplaced.append(diagnostic)
                continue
            }
            var moved = diagnostic
            moved.path = origin.path
            moved.line = origin.line
            located.append(moved)
        }
        return (located, unplaced)
    }

    /// A file inside a `.docc` catalogue is a DocC article.
    static func isDocC(_ path: String) -> Bool {
        URL(fileURLWithPath: path).standardizedFileURL.pathComponents.dropLast().contains { $0.hasSuffix(".docc") }
    }

    // MARK: Naming the diagrams

    /// A document as a key: its path resolved against the working directory.
    static func identity(_ path: String) -> String { URL(fileURLWithPath: path).standardizedFileURL.path }

    /// Where a document's diagrams go: `--out`, or a `diagrams` folder beside it.
    static func diagramFolder(of path: String, out: String?) -> String {
        let directory = (path as NSString).deletingLastPathComponent
        return out ?? (directory.isEmpty ? "diagrams" : directory + "/diagrams")
    }

    /// The document's name as its diagrams begin (`README.md` → `readme`).
    static func slug(ofDocument path: String) -> (slug: String, exact: Bool) {
        let stem = URL(fileURLWithPath: path).deletingPathExtension().lastPathComponent
        let slug = MarbleDiagram.slug(stem).nonEmpty(or: "doc")
        return (slug, slug == stem)
    }

    /// How each document's diagram names begin (by `identity`): its name as a slug
    /// (`README.md` → `readme`), unique among the documents whose diagrams can share a folder —
    /// those of the run, and the Markdown files beside each of them, which share `diagrams/`
    /// (a DocC catalogue is one folder: DocC finds an image by its name anywhere in it). Where
    /// several slug alike (`x y.md` and `x-y.md`, `README.md` and `readme.md`, or two
    /// `notes.md` drawn into one `--out`), the one whose name is its slug keeps it (else the
    /// first by path), and each other gets `_` and a hash of its path from the folder
    /// (`x-y_1c63ec52`): a function of the files, the same on every run. A slug holds no `_`,
    /// so such a name is no other document's.
    static func diagramPrefixes(_ documents: [String], out: String?) -> [String: String] {
        var candidates = documents
        for document in documents {
            let directory = (document as NSString).deletingLastPathComponent
            let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.isEmpty ? "." : directory)) ?? []
            candidates += names.filter { $0.hasSuffix(".md") && !$0.hasPrefix(".") }.sorted().map { directory.isEmpty ? $0 : directory + "/" + $0 }
        }
        struct Member { var identity: String; var slug: String; var exact: Bool; var fromFolder: String }
        var groups: [String: [Member]] = [:]
        var seen: Set<String> = []
        for path in candidates where seen.insert(identity(path)).inserted {
            let folder = diagramFolder(of: path, out: out)
            let (slug, exact) = slug(ofDocument: path)
            let fromFolder = relativePath(from: folder, to: path)
            let shared = isDocC(path) ? doccCatalogue(of: path) : identity(folder)
            groups[shared + "\u{0}" + slug, default: []].append(Member(identity: identity(path), slug: slug, exact: exact, fromFolder: fromFolder))
        }
        var prefixes: [String: String] = [:]
        for members in groups.values {
            let ranked = members.sorted { ($0.exact ? 0 : 1, $0.fromFolder) < ($1.exact ? 0 : 1, $1.fromFolder) }
            for (rank, member) in ranked.enumerated() {
                prefixes[member.identity] = rank == 0 ? member.slug : member.slug + "_" + hash(member.fromFolder)
            }
        }
        return prefixes
    }

    /// The `.docc` folder a DocC article is in (the outermost, as DocC sees one catalogue).
    private static func doccCatalogue(of path: String) -> String {
        let components = URL(fileURLWithPath: path).standardizedFileURL.pathComponents
        guard let index = components.firstIndex(where: { $0.hasSuffix(".docc") }) else { return identity(path) }
        return NSString.path(withComponents: Array(components[...index]))
    }

    /// FNV-1a (64 bits) of the text's UTF-8, its low 32 bits in hex: short, and the same on every
    /// machine and run (Swift's `Hasher` is seeded per process).
    static func hash(_ text: String) -> String {
        var value: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 {
            value ^= UInt64(byte)
            value = value &* 0x0000_0100_0000_01b3
        }
        let hex = String(value & 0xffff_ffff, radix: 16)
        return String(repeating: "0", count: 8 - hex.count) + hex
    }

    // MARK: One file

    /// Runs the blocks of one document and computes its new text and diagrams (writes nothing);
    /// its diagrams' names begin with `prefix` (by default its name as a slug, `readme`).
    static func process(source: String, path: String, update: Bool, out: String?, prefix: String? = nil) -> Outcome {
        var lines = SourceLines(source)
        var blocks: [MarkdownBlock]
        switch MarkdownBlocks.scan(lines) {
        case .failure(let problem):
            return failed(path: path, problem: problem, lines: lines, source: source)
        case .success(let found):
            blocks = found
        }
        var reports = blocks.map { run($0, lines: lines, path: path) }
        var fileUpdate: FileUpdate?
        if update {
            var changes: [LineChange] = []
            var refusals: [String] = []
            // Bottom up, so that the lines of earlier blocks keep their numbers.
            for (block, report) in zip(blocks, reports).reversed() {
                switch updatedContent(of: block, report: report, lines: lines, path: path) {
                case .failure(let refusal): refusals.append(refusal.reason)
                case .success(nil): break
                case .success(let content?):
                    let old = Array(lines.lines[block.contentLines.lowerBound - 1..<block.contentLines.upperBound - 1])
                    lines.lines.replaceSubrange(block.contentLines.lowerBound - 1..<block.contentLines.upperBound - 1, with: content)
                    changes += SnapshotWriter.changes(from: old.map { $0.text + $0.terminator }.joined(), to: content.map { $0.text + $0.terminator }.joined())
                        .map { var change = $0; change.line += block.openLine; return change }
                }
            }
            if !changes.isEmpty {
                fileUpdate = .updated(changes.sorted { $0.line < $1.line })
                // The blocks below an updated one may have moved: find and run them again.
                if case .success(let found) = MarkdownBlocks.scan(lines) { blocks = found }
                reports = blocks.map { run($0, lines: lines, path: path) }
            } else if let refusal = refusals.last {
                fileUpdate = .refused(refusal)
            } else {
                fileUpdate = .unchanged
            }
        }
        let report = FileReport(path: path, diagnostics: reports.flatMap(\.diagnostics), tests: reports.flatMap(\.tests))
        guard report.allDiagnostics.isEmpty else { return Outcome(report: report, update: fileUpdate, text: source, diagrams: []) }

        let directory = (path as NSString).deletingLastPathComponent
        let folder = diagramFolder(of: path, out: out)
        let reference = relativePath(from: directory.isEmpty ? "." : directory, to: folder)
        let docc = isDocC(path)
        let prefix = prefix ?? slug(ofDocument: path).slug
        func names(_ reports: [FileReport]) -> [[String]] {
            var used: Set<String> = []
            return reports.map { report in
                report.tests.map { test in
                    uniqueName(prefix + "--" + MarbleDiagram.slug(test.name).nonEmpty(or: "test"), used: &used)
                }
            }
        }
        let regions = zip(blocks, zip(reports, names(reports))).map { block, named in
            (block: block, lines: DocRegion.lines(zip(named.0.tests, named.1).map { DiagramImage(name: $1, folder: reference, alt: $0.name) },
                                                  docC: docc, indent: block.indent))
        }
        // From the bottom up, so that the line numbers of the blocks above stay valid.
        for (block, region) in regions.reversed() {
            let terminator = lines[block.closeLine].map { $0.terminator.isEmpty ? (lines.lines.first?.terminator.nonEmpty(or: "\n") ?? "\n") : $0.terminator } ?? "\n"
            var new = region.map { SourceLines.Line(content: Array($0), terminator: terminator) }
            if let existing = block.region {
                // A region that ended the file without a line break still does: the bytes after
                // it (none) are the document's, and a second run must write what the first did.
                if lines[existing.upperBound]?.terminator.isEmpty == true { new[new.count - 1].terminator = "" }
                lines.lines.replaceSubrange(existing.lowerBound - 1..<existing.upperBound, with: new)
            } else {
                if lines.lines[block.closeLine - 1].terminator.isEmpty {
                    // The fence ended the file without a line break: the region does, after one.
                    lines.lines[block.closeLine - 1].terminator = terminator
                    new[new.count - 1].terminator = ""
                }
                // An HTML block runs to the next blank line: keep the text after it out of it.
                if let next = lines[block.closeLine + 1], !next.content.allSatisfy({ $0 == " " || $0 == "\t" }) {
                    new.append(SourceLines.Line(content: [], terminator: terminator))
                }
                lines.lines.insert(contentsOf: new, at: block.closeLine)
            }
        }
        // The diagrams show the tests' lines as they are in the document written, so that the
        // next run draws the same ones.
        var drawn = reports
        if lines.text != source, case .success(let found) = MarkdownBlocks.scan(lines) {
            drawn = found.map { run($0, lines: lines, path: path) }
        }
        let shownPath = URL(fileURLWithPath: path).lastPathComponent
        var diagrams: [(path: String, svg: String)] = []
        for (report, names) in zip(drawn, names(drawn)) {
            for (test, name) in zip(report.tests, names) {
                for theme in [DiagramOptions.Theme.light, .dark] {
                    let svg = MarbleDiagram.svg(for: test, path: shownPath, values: test.namedValues, options: DiagramOptions(theme: theme))
                    diagrams.append((folder + "/" + name + (theme == .dark ? "~dark" : "") + ".svg", svg))
                }
            }
        }
        return Outcome(report: report, update: fileUpdate, text: lines.text, diagrams: diagrams,
                       diagramNames: (folder, prefix + "--"))
    }

    /// One block run as a `.marble` file whose lines are the document's.
    static func run(_ block: MarkdownBlock, lines: SourceLines, path: String) -> FileReport {
        MarbleRunner.run(source: MarkdownBlocks.marbleSource(of: block, in: lines), path: path)
    }

    /// A block's content lines with its failing `expect` lines rewritten (nil: nothing to rewrite).
    static func updatedContent(of block: MarkdownBlock, report: FileReport, lines: SourceLines, path: String) -> Result<[SourceLines.Line]?, SnapshotWriter.Refusal> {
        // A published block is rewritten only when every test in it ran.
        guard report.allDiagnostics.isEmpty else { return .failure(SnapshotWriter.Refusal("the file has errors; --update leaves it unchanged")) }
        var current = (source: MarkdownBlocks.marbleSource(of: block, in: lines), report: report)
        let original = current.source
        rounds: for _ in 0..<SnapshotWriter.maximumRounds {
            switch SnapshotWriter.plan(source: current.source, report: current.report) {
            case .failure(let refusal):
                if current.source == original { return .failure(refusal) }
                break rounds
            case .success(nil):
                break rounds
            case .success(let plan?):
                let rerun = MarbleRunner.run(source: plan.source, path: path)
                guard rerun.allDiagnostics.isEmpty else { break rounds }
                current = (plan.source, rerun)
                if !rerun.tests.contains(where: { $0.outcome == .failed }) { break rounds }
            }
        }
        guard current.source != original else { return .success(nil) }
        return .success(Array(SourceLines(current.source).lines.dropFirst(block.openLine)))
    }

    private static func failed(path: String, problem: MarkdownBlocks.Problem, lines: SourceLines, source: String) -> Outcome {
        let diagnostic = FileDiagnostic(path: path, line: problem.line, column: problem.column, length: 3, message: problem.message,
                                        hint: nil, lineText: lines[problem.line]?.text ?? "")
        return Outcome(report: FileReport(path: path, diagnostics: [diagnostic], tests: []), update: nil, text: source, diagrams: [])
    }

    static func uniqueName(_ name: String, used: inout Set<String>) -> String {
        var candidate = name
        var number = 2
        while !used.insert(candidate).inserted {
            candidate = "\(name)-\(number)"
            number += 1
        }
        return candidate
    }

    /// `to` relative to the folder `from` (both resolved against the working directory).
    static func relativePath(from: String, to: String) -> String {
        let base = URL(fileURLWithPath: from).standardizedFileURL.pathComponents
        let target = URL(fileURLWithPath: to).standardizedFileURL.pathComponents
        let common = zip(base, target).prefix { $0 == $1 }.count
        let parts = Array(repeating: "..", count: base.count - common) + target.dropFirst(common)
        return parts.isEmpty ? "." : parts.joined(separator: "/")
    }
}

/// One diagram shown in a generated region.
struct DiagramImage: Equatable {
    /// The file name without `.svg`; the dark variant is `NAME~dark.svg`.
    var name: String
    /// The diagrams' folder relative to the document.
    var folder: String
    var alt: String
}

/// The generated region after a block: HTML comments around the images, which GitHub and DocC
/// both leave unrendered.
enum DocRegion {
    static let begin = MarkdownBlocks.regionBegin + " generated by `marbles doc` from the block above; edits here are overwritten -->"

    static func lines(_ images: [DiagramImage], docC: Bool, indent: Int) -> [String] {
        let lead = String(repeating: " ", count: indent)
        var lines = [begin]
        for image in images {
            if docC {
                // DocC finds a resource by its name anywhere in the catalogue, and `NAME~dark.svg` by itself.
                lines.append("@Image(source: \"\(image.name).svg\", alt: \"\(image.alt.replacingOccurrences(of: "\"", with: "'"))\")")
            } else {
                let path = image.folder == "." ? image.name : image.folder + "/" + image.name
                lines.append("<picture>")
                lines.append("  <source media=\"(prefers-color-scheme: dark)\" srcset=\"\(html(path))~dark.svg\">")
                lines.append("  <img src=\"\(html(path)).svg\" alt=\"\(html(image.alt))\">")
                lines.append("</picture>")
            }
        }
        lines.append(MarkdownBlocks.regionEnd)
        return lines.map { lead + $0 }
    }

    static func html(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
    }
}

extension String {
    fileprivate func nonEmpty(or fallback: String) -> String { isEmpty ? fallback : self }
}
