import MarbleDiagram
import MarbleNotation

// The option table of each command (see OptionTable.swift). A row's help is what `--help`
// prints; its first line is what a completion script shows beside it.

extension RunArguments: ColourOption, QuietOption, WatchOption {}
extension EvalArguments: ColourOption {}
extension CompareArguments: ColourOption {}
extension TraceArguments: ColourOption {}
extension DocArguments: ColourOption, QuietOption, WatchOption {}
extension SVGArguments: ColourOption, QuietOption, WatchOption {}

enum CommandOptions {
    static let run = OptionTable<RunArguments>(command: "marbles run", topic: .run, options: [
        .value("--reporter", takes: .choice("NAME", ReporterKind.allCases.map(\.rawValue)), section: "Reports", help: """
            human (the default), junit, tap, json or github; repeat for
            several at once (--reporter human --reporter junit --output r.xml)
            """) { run, option in
            // The table checked the word against the reporters' names.
            guard let kind = ReporterKind(rawValue: option.text) else { return }
            run.reporters.append(ReporterRequest(kind: kind, output: nil))
        },
        .value("--output", "-o", takes: .file("FILE"), section: "Reports", help: """
            write the report of the --reporter just before to FILE (written
            whole at the end; '-' is standard output); junit, tap and json
            need standard output to themselves, human and github can share it
            """) { run, option throws(OptionError) in
            guard let last = run.reporters.indices.last else {
                throw OptionError("--output names the file of the reporter before it; write --reporter NAME --output FILE")
            }
            guard run.reporters[last].output == nil else {
                throw OptionError("the \(run.reporters[last].kind.rawValue) reporter already writes to '\(run.reporters[last].output ?? "")'")
            }
            // `-` is standard output, as if no --output were given.
            run.reporters[last].output = option.text == "-" ? nil : option.text
        },
        .value("--slowest", takes: .text("N"), section: "Reports", help: "end the human report with the N slowest tests and their times") { run, option throws(OptionError) in
            run.slowest = try option.positiveInteger()
        },
        .flag("-q", "--quiet", section: "Reports", help: """
            leave passing tests (and their print() output) out of the
            human report: failures, errors, warnings and the totals remain
            """) { $0.quiet = true },
        .value("--svg", takes: .folder("DIR"), section: "Reports", needs: "a folder", help: """
            also write an SVG diagram of every failing test into DIR (created
            if missing), expected events ghosted beside the actual ones
            """) { run, option throws(OptionError) in
            let folder = try option.nonEmpty("a folder")
            guard folder != "--" else { throw OptionError("option '--svg' needs a folder") }
            run.svgDirectory = folder
        },
        .value("--filter", takes: .text("TEXT"), section: "Choosing tests", help: """
            run the tests whose "FILE › TEST" contains TEXT; /REGEX/ (or
            /REGEX/i, ignoring case) for a regular expression; repeat to
            run the tests any of them matches
            """) { run, option throws(OptionError) in
            do throws(TestFilter.Problem) {
                run.filters.append(try TestFilter(option.text))
            } catch {
                throw OptionError("--filter \(option.text): \(error.message)")
            }
        },
        .value("--shard", takes: .text("I/N"), section: "Choosing tests", help: """
            run part I of N: the chosen tests, counted in order across the
            files, go round-robin to the N parts (disjoint, complete, even)
            """) { run, option throws(OptionError) in
            run.shard = try Shard(parsing: option.text)
        },
        .flag("--list", section: "Choosing tests", help: "print the tests that would run, without running them") { $0.list = true },
        .flag("--pass-with-no-tests", section: "Choosing tests", help: """
            exit 0 when --filter or --shard chooses no test (without it,
            that is an error: exit 2, as jest and pytest do)
            """) { $0.passWithNoTests = true },
        .value("-j", "--jobs", takes: .text("N"), section: "Running", help: """
            run N files at once (default: one per core); the report is the
            same, in the same order, for any N
            """) { run, option throws(OptionError) in
            run.jobs = try option.positiveInteger()
        },
        .flag("--fail-fast", section: "Running", help: "stop at the first test that fails (or file that cannot run)") { $0.failFast = true },
        .flag("-u", "--update", section: "Running", help: """
            rewrite each failing expect line with what happened; only the
            marbles change, byte for byte; files with errors are untouched
            """) { $0.update = true },
        .watch(section: "Running", "re-run the tests of each file saved"),
        .noColor(section: "Running"),
    ])

    static let eval = OptionTable<EvalArguments>(command: "marbles eval", topic: .eval, options: [
        .value("--hot", takes: .text("NAME=MARBLES"), help: "a hot source (repeatable)") { eval, option throws(OptionError) in
            eval.sources.append(try .init(parsing: option, kind: .hot))
        },
        .value("--cold", takes: .text("NAME=MARBLES"), help: "a cold source, played from each subscription (repeatable)") { eval, option throws(OptionError) in
            eval.sources.append(try .init(parsing: option, kind: .cold))
        },
        .value("--values", takes: .text("'A = 1, B = \"x\"'"), help: "names for values, as on a `values` line (repeatable)") { eval, option in
            eval.values.append(option.text)
        },
        .value("--frame", takes: .text("DURATION"), help: """
            the length of a frame (default 1ms), for durations such as
            .milliseconds(300) and time progressions
            """) { eval, option in eval.frame = option.text },
        .value("--subscribe", takes: .text("MARBLES"), help: "when the result is subscribed (^) and cancelled (!)") { eval, option in
            eval.subscribe = option.text
        },
        .value("--demand", takes: .text("MARBLES"), help: "what the subscriber requests, as on a `demand` line") { eval, option in
            eval.demand = option.text
        },
        .value("--until", takes: .text("FRAMES"), help: """
            cancel the result's subscription at this frame (default: it
            stays subscribed, and the run goes on until nothing is left
            to do; a pipeline that never settles, such as a Timer, needs it)
            """) { eval, option throws(OptionError) in
            let frame = try option.positiveInteger()
            guard frame < VirtualTimeEnd.last else {
                throw OptionError("--until takes a frame below \(VirtualTimeEnd.last), where virtual time ends, not \(frame)")
            }
            eval.until = frame
        },
        .value("--svg", takes: .file("FILE"), needs: "a file, or '-' for standard output", help: """
            also draw it as an SVG marble diagram into FILE ('-': write
            only the SVG, to standard output)
            """) { eval, option throws(OptionError) in
            eval.svg = try option.nonEmpty("a file, or '-' for standard output")
        },
        .noColor(),
    ])

    static let compare = OptionTable<CompareArguments>(command: "marbles compare", topic: .compare, options: [
        .value("--seed", takes: .text("N"), help: "the generator's seed (default 1): the same seed tries the same cases") { compare, option throws(OptionError) in
            guard let seed = UInt64(option.text) else {
                throw OptionError("--seed takes a whole number of at least 0, not '\(option.text)'")
            }
            compare.seed = seed
        },
        .value("--cases", takes: .text("N"), help: "how many cases to try at most (default 500)") { compare, option throws(OptionError) in
            compare.cases = try option.positiveInteger()
        },
        .noColor(),
    ])

    static let trace = OptionTable<TraceArguments>(command: "marbles trace", topic: .trace, options: [
        .value("--test", takes: .text("NAME"), help: "only the test named NAME, or the only one whose name contains it") { trace, option in
            trace.test = option.text
        },
        .noColor(),
    ])

    static let fmt = OptionTable<FormatArguments>(command: "marbles fmt", topic: .fmt, options: [
        .flag("--check", help: "write nothing; list the files that would change and exit 1 if any") { $0.check = true },
        .flag("--native", help: """
            rewrite files written under `notation rxjs`/`rxjs-legacy` into the
            native notation, every event on its frame, and drop the notation line
            (only the marble strings and that line change; native files are left alone)
            """) { $0.native = true },
    ])

    static let doc = OptionTable<DocArguments>(command: "marbles doc", topic: .doc, options: [
        .flag("--check", help: "write nothing; exit 1 if a document or a diagram is not up to date") { $0.check = true },
        .flag("-u", "--update", help: """
            rewrite each failing expect line with what happened, as marbles run
            --update does
            """) { $0.update = true },
        .value("--out", takes: .folder("DIR"), needs: "a folder", help: "write the diagrams into DIR (the documents link to them relatively)") { doc, option throws(OptionError) in
            doc.out = try option.nonEmpty("a folder")
        },
        .value("--catalogue", takes: .folder("DIR"), needs: "a folder of catalogue files", help: """
            FILE.md is generated from the catalogue files in DIR (one section
            per operator family: its comment, signatures, first test as a marble
            block) and then treated as above; --check says when it is stale
            """) { doc, option throws(OptionError) in
            doc.catalogue = try option.nonEmpty("a folder of catalogue files")
        },
        .flag("-q", "--quiet", help: "leave passing tests out of the report") { $0.quiet = true },
        .watch("run the blocks of each document saved again, and redraw them"),
        .noColor(),
    ])

    static let completion = OptionTable<CompletionArguments>(command: "marbles completion", topic: .completion, options: [])
    static let operators = OptionTable<OperatorsArguments>(command: "marbles operators", topic: .operators, options: [])
    static let lsp = OptionTable<LanguageServerArguments>(command: "marbles lsp", topic: .lsp, options: [])

    static let svg = OptionTable<SVGArguments>(command: "marbles-svg", topic: .general, options: [
        .value("-o", "--output", takes: .folder("DIR"), needs: "a folder, or '-' for standard output", help: """
            write one SVG per test into DIR (created if missing; default .),
            named FILE--TEST.svg, e.g. debounce--drops-pending-on-finish.svg;
            '-o -' writes the SVG to standard output (exactly one test: use --test)
            """) { svg, option throws(OptionError) in
            let text = try option.nonEmpty("a folder, or '-' for standard output")
            svg.destination = text == "-" ? .standardOutput : .directory(text)
        },
        .value("--test", takes: .text("NAME"), help: "only the test with this name") { svg, option in svg.test = option.text },
        .value("--theme", takes: .choice("auto|light|dark|both", ["auto", "light", "dark", "both"]), help: """
            auto (the default): one SVG that follows the reader's light or dark
            mode by itself (CSS prefers-color-scheme inside it; light where CSS
            is not read); light or dark: fixed colours; both: NAME.svg light
            and NAME~dark.svg dark (the pair DocC uses)
            """) { svg, option in
            svg.bothThemes = option.text == "both"
            svg.options.theme = svg.bothThemes ? .light : DiagramOptions.Theme(rawValue: option.text) ?? .auto
        },
        .value("--background", takes: .text("COLOR"), help: "a CSS colour, or 'transparent' (default: the theme's)") { svg, option throws(OptionError) in
            if option.text == "transparent" || option.text == "none" {
                svg.options.background = .transparent
            } else if SVGArgumentParser.isColour(option.text) {
                svg.options.background = .color(option.text)
            } else {
                throw OptionError("'\(option.text)' is not a colour; use a name (white), #rgb, #rrggbb, rgb(…), hsl(…) or 'transparent'")
            }
        },
        .value("--frame-width", takes: .text("N"), help: """
            pixels per frame, 8…200 (default 32, narrowed so that a test of
            20 frames fits 800 px, widened for long labels)
            """) { svg, option throws(OptionError) in
            guard let width = Int(option.text), (8...200).contains(width) else {
                throw OptionError("the frame width must be a whole number of pixels from 8 to 200, not '\(option.text)'")
            }
            svg.options.frameWidth = Double(width)
        },
        .flag("--bare", help: "no title, subtitle or time ruler (for a caption of your own)") { $0.options.bare = true },
        .value("--scale", takes: .text("N"), help: "width and height times N, 0.25…8 (the drawing is the same)") { svg, option throws(OptionError) in
            guard let scale = Double(option.text), scale.isFinite, (0.25...8).contains(scale) else {
                throw OptionError("the scale must be a number from 0.25 to 8 (2 doubles the size), not '\(option.text)'")
            }
            svg.options.scale = scale
        },
        .flag("--png", help: """
            also NAME.png beside each SVG, drawn by rsvg-convert (librsvg),
            which must be on PATH
            """) { $0.png = true },
        .flag("--index", help: "also write DIR/index.html, a gallery of the diagrams written") { $0.index = true },
        .flag("-q", "--quiet", help: "list only problems and the summary, not every file written") { $0.quiet = true },
        .watch("redraw the tests of each file saved"),
        .noColor(),
    ], version: true)
}

extension Shard {
    /// `I/N` with 1 ≤ I ≤ N.
    init(parsing text: String) throws(OptionError) {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let index = Int(parts[0]), let count = Int(parts[1]), count >= 1, (1...count).contains(index) else {
            throw OptionError("--shard takes I/N with 1 ≤ I ≤ N (e.g. --shard 2/4), not '\(text)'")
        }
        self.init(index: index, count: count)
    }
}

extension EvalArguments.Source {
    /// `NAME=MARBLES` after `--hot` or `--cold`.
    init(parsing option: OptionArgument, kind: EvalArguments.SourceKind) throws(OptionError) {
        let value = option.text
        guard let equals = value.firstIndex(of: "=") else {
            throw OptionError("\(option.name) takes NAME=MARBLES (e.g. \(option.name) 'a=-a-b-|'), not '\(value)'")
        }
        let name = value[..<equals].trimmingCharacters(in: " ")
        guard ArgumentParser.isIdentifier(name) else {
            throw OptionError("'\(name)' is not a stream name; \(option.name) takes NAME=MARBLES")
        }
        self.init(kind: kind, name: name, marbles: String(value[value.index(after: equals)...]).trimmingCharacters(in: " "))
    }
}
