import Foundation
import MarblesCLI

let status = SVGCLI.run(arguments: Array(CommandLine.arguments.dropFirst()),
                        environment: ProcessInfo.processInfo.environment,
                        isTerminal: isatty(STDOUT_FILENO) == 1,
                        output: ProcessOutput())
exit(status)
