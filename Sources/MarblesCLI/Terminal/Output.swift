import Foundation

/// Where the CLI writes: standard output (the report) and standard error (usage problems).
public protocol OutputSink {
    func standardOutput(_ text: String)
    func standardError(_ text: String)
}

/// Writes to the process's own standard output and standard error.
public struct ProcessOutput: OutputSink {
    public init() {}

    public func standardOutput(_ text: String) {
        FileHandle.standardOutput.write(Data(text.utf8))
    }

    public func standardError(_ text: String) {
        FileHandle.standardError.write(Data(text.utf8))
    }
}

/// Keeps everything written, for tests and for callers that want the report as text.
public final class CapturedOutput: OutputSink {
    public private(set) var stdout = ""
    public private(set) var stderr = ""

    public init() {}

    public func standardOutput(_ text: String) { stdout += text }
    public func standardError(_ text: String) { stderr += text }
}

/// Writes whole lines to a sink: the report to standard output, usage errors to standard error.
struct Printer {
    let sink: any OutputSink

    func line(_ text: String = "") { sink.standardOutput(text + "\n") }
    func error(_ text: String) { sink.standardError(text + "\n") }
}
