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

    static let usage = """
        usage: marbles run [PATH…] [OPTIONS]
               marbles eval [--hot NAME=MARBLES]… [--cold NAME=MARBLES]… EXPRESSION
               marbles compare [--seed N] [--cases N] PIPELINE PIPELINE
               marbles trace FILE [--test NAME]
               marbles fmt [--check] [--native] [PATH…]
               marbles doc [--check | --update] [--out DIR] [--quiet] PATH…
               marbles doc [--check] [--out DIR] --catalogue DIR FILE.md
               marbles operators
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
        }
    }

    static let general = """
        marbles — a marble-diagram simulator and test oracle for Combine-style streams

        \(usage)

        Commands:
          run [PATH…]    run the tests in .marble files; folders are searched recursively
                         (default: \(CLI.defaultFolder))
          eval EXPR      run one expression over sources given on the command line
          compare P Q    search generated inputs for one on which two pipelines differ
          trace FILE     every subscription, request, value, completion and cancel of a run
          fmt [PATH…]    align the marbles of each test frame by frame
          doc PATH…      run the ```marble blocks of Markdown files and DocC articles, and
                         draw their diagrams into the documents
          operators      list the operators and publishers the .marble language knows
          help [COMMAND] show this help, or a command's

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

        Reports:
          --reporter NAME    human (the default), junit, tap, json or github; repeat for
                             several at once (--reporter human --reporter junit --output r.xml)
          --output FILE      write the report of the --reporter just before to FILE (written
                             whole at the end; '-' is standard output); junit, tap and json
                             need standard output to themselves, human and github can share it
          --slowest N        end the human report with the N slowest tests and their times
          -q, --quiet        leave passing tests (and their print() output) out of the
                             human report: failures, errors, warnings and the totals remain
          --svg DIR          also write an SVG diagram of every failing test into DIR (created
                             if missing), expected events ghosted beside the actual ones

        Choosing tests:
          --filter TEXT      run the tests whose "FILE › TEST" contains TEXT; /REGEX/ (or
                             /REGEX/i, ignoring case) for a regular expression; repeat to
                             run the tests any of them matches
          --shard I/N        run part I of N: the chosen tests, counted in order across the
                             files, go round-robin to the N parts (disjoint, complete, even)
          --list             print the tests that would run, without running them
          --pass-with-no-tests
                             exit 0 when --filter or --shard chooses no test (without it,
                             that is an error: exit 2, as jest and pytest do)

        Running:
          -j, --jobs N       run N files at once (default: one per core); the report is the
                             same, in the same order, for any N
          --fail-fast        stop at the first test that fails (or file that cannot run)
          -u, --update       rewrite each failing expect line with what happened; only the
                             marbles change, byte for byte; files with errors are untouched
          --no-color         no colour (also off when NO_COLOR is set or stdout is not a terminal)
          -h, --help         show this help
          --                 treat every later argument as a path

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

        Options:
          --seed N     the generator's seed (default 1): the same seed tries the same cases
          --cases N    how many cases to try at most (default 500)
          --no-color   no colour, even on a terminal

        Exit status: 0 no difference found, 1 a difference, 2 a mistake in a pipeline or the
        command line.
        """

    static let eval = """
        \(evalUsage)

        Runs EXPRESSION (Combine code over the sources, as on a `let` line) and prints the
        sources and the result as marbles, aligned frame by frame:

          marbles eval --hot 'a=-a-b-----c-|' 'a.debounce(for: 3, scheduler: RunLoop.main)'

        Options:
          --hot NAME=MARBLES    a hot source (repeatable)
          --cold NAME=MARBLES   a cold source, played from each subscription (repeatable)
          --values 'A = 1, B = "x"'
                                names for values, as on a `values` line (repeatable)
          --frame DURATION      the length of a frame (default 1ms), for durations such as
                                .milliseconds(300) and time progressions
          --subscribe MARBLES   when the result is subscribed (^) and cancelled (!)
          --demand MARBLES      what the subscriber requests, as on a `demand` line
          --until FRAMES        cancel the result's subscription at this frame (default: it
                                stays subscribed, and the run goes on until nothing is left
                                to do; a pipeline that never settles, such as a Timer, needs it)
          --svg FILE            also draw it as an SVG marble diagram into FILE ('-': write
                                only the SVG, to standard output)
          --no-color            no colour

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

        Options:
          --check        write nothing; list the files that would change and exit 1 if any
          --native       rewrite files written under `notation rxjs`/`rxjs-legacy` into the
                         native notation, every event on its frame, and drop the notation line
                         (only the marble strings and that line change; native files are left alone)
          -h, --help     show this help

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

        Options:
          --check        write nothing; exit 1 if a document or a diagram is not up to date
          -u, --update   rewrite each failing expect line with what happened, as marbles run
                         --update does
          --out DIR      write the diagrams into DIR (the documents link to them relatively)
          --catalogue DIR
                         FILE.md is generated from the catalogue files in DIR (one section
                         per operator family: its comment, signatures, first test as a marble
                         block) and then treated as above; --check says when it is stale
          -q, --quiet    leave passing tests out of the report
          --no-color     no colour
          -h, --help     show this help

        Exit status: 0; 1 a test failed (or, with --check, something is stale); 2 a path, a
        document or a block is bad.
        """
}
