/// The texts of `--help`, `--version` and usage errors.
enum Help {
    static let usage = """
        usage: marbles run [PATH…] [--no-color]
               marbles operators
               marbles --help | --version
        """

    static let runUsage = "usage: marbles run [PATH…] [--no-color]"
    static let operatorsUsage = "usage: marbles operators"

    static func usage(for topic: HelpTopic) -> String {
        switch topic {
        case .general: return usage
        case .run: return runUsage
        case .operators: return operatorsUsage
        }
    }

    /// The command whose help explains a usage error.
    static func command(for topic: HelpTopic) -> String {
        switch topic {
        case .general: return "marbles --help"
        case .run: return "marbles run --help"
        case .operators: return "marbles operators --help"
        }
    }

    static func text(for topic: HelpTopic) -> String {
        switch topic {
        case .general: return general
        case .run: return run
        case .operators: return operators
        }
    }

    static let general = """
        marbles — a marble-diagram simulator and test oracle for Combine-style streams

        \(usage)

        Commands:
          run [PATH…]    run the tests in .marble files; folders are searched recursively
                         (default: \(CLI.defaultFolder))
          operators      list the operators and publishers the .marble language knows
          help [COMMAND] show this help, or a command's

        Options:
          -h, --help     show this help
          --version      print the version

        Run 'marbles run --help' for the report and the exit codes.
        """

    static let run = """
        \(runUsage)

        Runs every test in the given .marble files and folders (folders recursively: every
        *.marble file below them, in sorted order; default \(CLI.defaultFolder)) and prints, per
        file, a line per test. A failing expectation is drawn as marbles: the test's hot
        sources, then the expected and the actual line, aligned frame by frame, a caret under
        each differing frame and one sentence explaining it. When a diagram would be wider
        than \(DiagramLayout.maximumWidth) columns, its longest stretches of frames that are
        empty in every line are drawn as ' …N… ' (N empty frames). What print() operators
        write appears under the test's line, each line with its frame.

        Options:
          --no-color     no colour (also off when NO_COLOR is set or stdout is not a terminal)
          --svg DIR      also write an SVG diagram of every failing test into DIR (created if
                         missing), expected events ghosted beside the actual ones — for CI
          -h, --help     show this help
          --             treat every later argument as a path

        The last line reads 'N passed, N failed', with ', N errors' when a path is missing,
        a file cannot be read or parsed (nothing in it runs; other files still run), or a
        test stops with a runtime error (such a test counts as an error, not as failed).

        Exit status:
          0  every test passed
          1  a test failed or stopped with a runtime error
          2  a path, a file or the command line is bad (takes precedence)
        """

    static let operators = """
        \(operatorsUsage)

        Lists every operator and publisher constructor the .marble language knows, grouped by
        family, with its argument labels and a one-line summary.
        """
}
