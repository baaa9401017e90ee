import MarbleDiff

/// The texts of `--help`, `--version` and usage errors.
enum Help {
    static let runUsage = "usage: marbles run [PATH…] [OPTIONS]"
    static let operatorsUsage = "usage: marbles operators"
    static let evalUsage = "usage: marbles eval [--hot NAME=MARBLES]… [--cold NAME=MARBLES]… [OPTIONS] [NAME = EXPRESSION]… EXPRESSION"
    static let traceUsage = "usage: marbles trace FILE [--test NAME] [--no-color]"
    static let fmtUsage = "usage: marbles fmt [--check] [--native] [PATH…]"
    static let docUsage = "usage: marbles doc [--check | --update] [--out DIR] [--quiet] PATH… | marbles doc [--check] [--out DIR] --catalogue DIR FILE.md"
    static let compareUsage = "usage: marbles compare [--seed N] [--cases N] PIPELINE PIPELINE"
    static let completionUsage = "usage: marbles completion bash|zsh|fish"
    static let lspUsage = "usage: marbles lsp"

    static let usage = """
        usage: marbles run [PATH…] [OPTIONS]
               marbles eval [--hot NAME=MARBLES]… [--cold NAME=MARBLES]… EXPRESSION
               marbles compare [--seed N] [--cases N] PIPELINE PIPELINE
               marbles trace FILE [--test NAME]
               marbles fmt [--check] [--native] [PATH…]
               marbles doc [--check | --update] [--out DIR] [--quiet] PATH…
               marbles doc [--check] [--out DIR] --catalogue DIR FILE.md
               marbles operators
               marbles completion bash|zsh|fish
               marbles lsp
               marbles --help | --version
        """

    static func usage(for topic: HelpTopic) -> String {
        switch topic {
        case .general: return usage
        case .run: return runUsage
        case .operators: return operatorsUsage
        case .eval: return evalUsage
        case .trace: return traceUsage
        case .fmt: return fmtUsage
        case .doc: return docUsage
        case .compare: return compareUsage
        case .completion: return completionUsage
        case .lsp: return lspUsage
        }
    }

    /// The command whose help explains a usage error.
    static func command(for topic: HelpTopic) -> String {
        topic.command.map { "marbles \($0) --help" } ?? "marbles --help"
    }

    static func text(for topic: HelpTopic) -> String {
        switch topic {
        case .general: return general
        case .run: return run
        case .operators: return operators
        case .eval: return eval
        case .trace: return trace
        case .fmt: return fmt
        case .doc: return doc
        case .compare: return compare
        case .completion: return completion
        case .lsp: return lsp
        }
    }

    static let general = """
        marbles — a marble-diagram simulator and test oracle for Combine-style streams

        \(usage)

        Commands:
        \(CommandList.helpText)

        Options:
          -h, --help     show this help
          --version      print the version

        Run 'marbles run --help' for the reports, the options and the exit codes.
        """

    static let run = """
        \(runUsage)

        Runs every test in the given .marble files and folders (folders recursively: every
        *.marble file below them, in sorted order; default \(CLI.defaultFolder)) and prints, per
        file, a line per test. A failing expectation is drawn as marbles: the test's hot
        sources, then the expected and the actual line, aligned frame by frame, a caret under
        each differing frame and one sentence explaining it. When a diagram would be wider
        than \(TextDiagramLayout.maximumWidth) columns, its longest stretches of frames that are
        empty in every line are drawn as ' …N… ' (N empty frames). What print() operators
        write appears under the test's line, each line with its frame.

        \(CommandOptions.run.help)

        The last line reads 'N passed, N failed', with ', N errors' when a path is missing,
        a file cannot be read or parsed (nothing in it runs; other files still run), or a
        test stops with a runtime error or never settles (such a test counts as an error,
        not as failed); ', N warnings' counts streams that no expect line checks.
        With --update, the report is that of the updated files.

        Exit status:
          0  every test passed
          1  a test failed or stopped with a runtime error
          2  a path, a file or the command line is bad, --filter/--shard chose no test
             (unless --pass-with-no-tests), or a report could not be written (takes precedence)
        """

    static let operators = """
        \(operatorsUsage)

        Lists every operator and publisher constructor the .marble language knows, grouped by
        family, with its argument labels and a one-line summary.

        \(CommandOptions.operators.help)
        """

    static let compare = """
        \(compareUsage)

        Searches generated input marbles — values, gaps, completion, failure, and demand — for
        one on which the two pipelines send different events, shrinks it to the smallest it
        finds, and prints both outputs aligned frame by frame, with the case as a test to paste:

          marbles compare 'taps.flatMap(maxPublishers: .max(1)) { _ in request }' \\
                          'taps.map { _ in request }.switchToLatest()'

        The inputs are the names the pipelines read: hot, or cold when a closure reads them
        (an inner publisher); their values are digits, or letters where the type check
        rejects Ints. Equal pipelines report "no difference in N cases".

        \(CommandOptions.compare.help)

        Exit status: 0 no difference found, 1 a difference, 2 a mistake in a pipeline or the
        command line.
        """

    static let eval = """
        \(evalUsage)

        Runs EXPRESSION (Combine code over the sources, as on a `let` line) and prints the
        sources and the result as marbles, aligned frame by frame:

          marbles eval --hot 'a=-a-b-----c-|' 'a.debounce(for: 3, scheduler: RunLoop.main)'

        \(CommandOptions.eval.help)

        Earlier arguments of the form NAME = EXPRESSION define helper streams. Exit status: 0,
        1 when the run stopped with a runtime error, 2 when the sources or the expression are
        wrong.
        """

    static let trace = """
        \(traceUsage)

        Runs the tests of FILE (or only the test named NAME, or the only one whose name
        contains it) with every named stream and every operator traced, and prints, per test:

        - a timeline per stream and operator — per subscription when there were several —
          aligned by frame: ^ where it was subscribed, its values, | or #, and ! where its
          subscriber cancelled; the first line to go quiet is where a pipeline went silent;
        - every event in the order it happened, in the words of Combine's print():
          receive subscription, request unlimited / request max: (n), receive value: (a),
          receive finished, receive error: (…), receive cancel; and what the test's own
          print operators wrote, in its place.

        \(CommandOptions.trace.help)

        Exit status: 0 when the file ran (whatever its tests' outcome), 2 when it could not.
        """

    static let fmt = """
        \(fmtUsage)

        Lays out each test of the given files and folders (default \(CLI.defaultFolder)) so
        that equal frames stand in the same column on every marble line: keywords padded to
        the longest, marbles starting in one column (with the expressions of let lines),
        spaces inside marbles only where a wide token such as {42} makes a frame wider on
        another line, or around time progressions. Comments are kept; trailing spaces go.
        Every result is checked to mean exactly what the original meant before it is written.
        A file under `notation rxjs` or `rxjs-legacy` keeps its notation: its marble strings
        keep their characters (a space can be a frame there) and only move as a block.

        \(CommandOptions.fmt.help)

        Exit status: 0, 1 (with --check: a file would change), 2 (a path or a file is bad).
        """

    static let doc = """
        \(docUsage)

        Runs every fenced block tagged `marble` (``` or ~~~, indented up to three spaces,
        attributes allowed: ```marble title="x") in the given Markdown files and folders
        (folders: every *.md below them, DocC catalogues included) as a .marble file, and
        reports like marbles run, with lines and columns inside the Markdown file.

        Each test's diagram is written as NAME.svg and NAME~dark.svg (NAME: the document's
        name, two hyphens, the test's name; into a diagrams folder next to the document, or
        --out DIR), and right after the block's closing fence a region between
        <!-- marbles:begin --> and <!-- marbles:end --> shows them: a <picture> that follows
        the reader's colour scheme (GitHub), or @Image(source: "NAME.svg") in a file inside a
        .docc folder (DocC picks NAME~dark.svg by itself). The region is replaced on each run;
        nothing else in the document changes, and a second run changes nothing. A diagram
        file of the document that no block draws any more (a test renamed or removed) is
        deleted.

        \(CommandOptions.doc.help)

        Exit status: 0; 1 a test failed (or, with --check, something is stale); 2 a path, a
        document or a block is bad.
        """

    static let completion = """
        \(completionUsage)

        Prints a script that completes the commands, options, option values (--reporter,
        --theme) and .marble paths of marbles and marbles-svg. Load it from your shell's
        startup file:

          bash   source <(marbles completion bash)             (~/.bashrc)
          zsh    source <(marbles completion zsh)              (~/.zshrc, after compinit)
          fish   marbles completion fish > ~/.config/fish/completions/marbles.fish

        \(CommandOptions.completion.help)
        """

    static let lsp = """
        \(lspUsage)

        A language server for .marble files (the Language Server Protocol, JSON-RPC over
        standard input and output): an editor starts it and talks to it. It underlines the
        mistakes marbles run finds as you type, the failing expect lines when you save, shows
        a stream's marbles and an operator's signature on hover, completes operators, stream
        names and value names, goes to definitions, formats as marbles fmt does, and offers
        "run this test" and "update this expect" above the tests. It writes no file: edits go
        to the editor, which applies them. Wiring it into Neovim and VS Code: docs/lsp.md.

        \(CommandOptions.lsp.help)

        Exit status: 0 after the editor's shutdown and exit; 1 when the input ends (or exit
        comes) without a shutdown.
        """
}
