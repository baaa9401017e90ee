import Foundation
import Testing
@testable import MarbleLanguageServer
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A JSON-RPC client talking to a `LanguageServer` running on a thread of its own, over two
/// pipes, as an editor does over the server's standard input and output. Every wait is bounded
/// and fails with what arrived so far; nothing here times how fast the server answers.
final class LanguageClient: @unchecked Sendable {
    /// How long a wait for a message may last before the test fails (a bound, not a timing).
    static let patience: Int32 = 60_000
    private let toServer: (read: Int32, write: Int32)
    private let fromServer: (read: Int32, write: Int32)
    /// What the server's thread shares with the client: the thread holds this, not the client,
    /// so that a client a failing test drops is deinitialised (and stops its server).
    private final class Outcome: @unchecked Sendable {
        let finished = DispatchSemaphore(value: 0)
        private let lock = NSLock()
        private var value: Int32?
        var status: Int32? {
            get { lock.withLock { value } }
            set { lock.withLock { value = newValue } }
        }
    }
    private let outcome = Outcome()
    private var buffer: [UInt8] = []
    private var nextId = 1
    /// Every message received, in order (notifications and requests from the server too).
    private(set) var received: [JSON] = []
    private var unread: [JSON] = []
    private var closedInput = false
    private var stopped = false

    init() {
        // A write to a closed pipe is an error to the writer, not a signal that ends the tests.
        signal(SIGPIPE, SIG_IGN)
        var a: [Int32] = [0, 0]
        var b: [Int32] = [0, 0]
        _ = pipe(&a)
        _ = pipe(&b)
        toServer = (a[0], a[1])
        fromServer = (b[0], b[1])
        let (input, output, outcome) = (toServer.read, fromServer.write, outcome)
        let thread = Thread {
            outcome.status = LanguageServer(input: input, output: output, version: "test").run()
            outcome.finished.signal()
        }
        thread.stackSize = 64 << 20
        thread.start()
    }

    /// Sends raw bytes (for framing tests).
    func sendRaw(_ text: String) {
        let bytes = Array(text.utf8)
        var sent = 0
        while sent < bytes.count {
            let count = bytes.withUnsafeBytes { write(toServer.write, $0.baseAddress! + sent, bytes.count - sent) }
            guard count > 0 else { Issue.record("cannot write to the server"); return }
            sent += count
        }
    }

    func send(_ message: JSON) {
        let body = message.text
        sendRaw("Content-Length: \(body.utf8.count)\r\n\r\n" + body)
    }

    /// Sends a request; its id.
    @discardableResult
    func request(_ method: String, _ params: JSON = .object([:])) -> Int {
        let id = nextId
        nextId += 1
        send(["jsonrpc": "2.0", "id": .int(id), "method": .string(method), "params": params])
        return id
    }

    func notify(_ method: String, _ params: JSON = .object([:])) {
        send(["jsonrpc": "2.0", "method": .string(method), "params": params])
    }

    /// Sends a request and waits for its answer's `result` (failing on an error answer).
    func call(_ method: String, _ params: JSON = .object([:]), sourceLocation: SourceLocation = #_sourceLocation) -> JSON? {
        let id = request(method, params)
        guard let response = response(to: .int(id), sourceLocation: sourceLocation) else { return nil }
        if let error = response["error"] { Issue.record("\(method) answered an error: \(error.text)", sourceLocation: sourceLocation) }
        return response["result"]
    }

    /// The next message that satisfies `matching`, waiting at most `patience` for it; messages
    /// before it stay unread for later waits.
    func next(_ what: String, sourceLocation: SourceLocation = #_sourceLocation, where matching: (JSON) -> Bool) -> JSON? {
        if let index = unread.firstIndex(where: matching) { return unread.remove(at: index) }
        while let message = readMessage() {
            received.append(message)
            if matching(message) { return message }
            unread.append(message)
        }
        Issue.record("no \(what) arrived; received: \(received.map(\.text).joined(separator: "\n"))", sourceLocation: sourceLocation)
        return nil
    }

    func response(to id: JSON, sourceLocation: SourceLocation = #_sourceLocation) -> JSON? {
        next("answer to request \(id.text)", sourceLocation: sourceLocation) { $0["id"] == id && $0["method"] == nil }
    }

    /// The next `textDocument/publishDiagnostics` for `uri`: its diagnostics.
    func diagnostics(_ uri: String, sourceLocation: SourceLocation = #_sourceLocation) -> [JSON] {
        next("diagnostics for \(uri)", sourceLocation: sourceLocation) {
            $0["method"] == "textDocument/publishDiagnostics" && $0["params"]?["uri"]?.string == uri
        }?["params"]?["diagnostics"]?.array ?? []
    }

    /// Messages not yet taken by a wait.
    var pending: [JSON] { unread }

    /// One framed message, or nil when the server closed its output or the wait ran out.
    private func readMessage() -> JSON? {
        while true {
            if let headerEnd = find([13, 10, 13, 10]) {
                let header = String(decoding: buffer[0..<headerEnd], as: UTF8.self)
                guard header.hasPrefix("Content-Length: "), let length = Int(header.dropFirst("Content-Length: ".count)) else {
                    Issue.record("the server wrote a bad header: \(header)")
                    return nil
                }
                if buffer.count >= headerEnd + 4 + length {
                    let body = Array(buffer[(headerEnd + 4)..<(headerEnd + 4 + length)])
                    buffer.removeFirst(headerEnd + 4 + length)
                    do {
                        return try JSON.parse(body)
                    } catch {
                        Issue.record("the server wrote a body that is not JSON: \(String(decoding: body, as: UTF8.self))")
                        return nil
                    }
                }
            }
            var descriptor = pollfd(fd: fromServer.read, events: Int16(POLLIN), revents: 0)
            guard poll(&descriptor, 1, Self.patience) > 0 else { return nil }
            var chunk = [UInt8](repeating: 0, count: 65536)
            let count = chunk.withUnsafeMutableBytes { read(fromServer.read, $0.baseAddress, $0.count) }
            guard count > 0 else { return nil }
            buffer += chunk[0..<count]
        }
    }

    private func find(_ needle: [UInt8]) -> Int? {
        guard buffer.count >= needle.count else { return nil }
        for start in 0...(buffer.count - needle.count) where Array(buffer[start..<start + needle.count]) == needle { return start }
        return nil
    }

    /// Closes the server's input (end of file).
    func closeInput() {
        guard !closedInput else { return }
        closedInput = true
        close(toServer.write)
    }

    /// Waits for the server to stop; its exit status (nil: it did not stop within the bound).
    func waitForExit(sourceLocation: SourceLocation = #_sourceLocation) -> Int32? {
        guard outcome.finished.wait(timeout: .now() + .seconds(Int(Self.patience / 1000))) == .success else {
            Issue.record("the server did not stop", sourceLocation: sourceLocation)
            return nil
        }
        stopped = true
        return outcome.status
    }

    /// `initialize` and `initialized`: the server's capabilities.
    @discardableResult
    func initialize(markdown: Bool = true) -> JSON? {
        let result = call("initialize", ["processId": nil, "rootUri": nil,
                                         "capabilities": ["textDocument": ["hover": ["contentFormat": markdown ? ["markdown", "plaintext"] : ["plaintext"]]]]])
        notify("initialized")
        return result?["capabilities"]
    }

    /// `shutdown`, `exit`, and the exit status.
    func shutDown(sourceLocation: SourceLocation = #_sourceLocation) -> Int32? {
        let id = request("shutdown", nil)
        let answer = response(to: .int(id), sourceLocation: sourceLocation)
        #expect(answer?["result"] == .null, sourceLocation: sourceLocation)
        notify("exit", nil)
        return waitForExit(sourceLocation: sourceLocation)
    }

    func open(_ uri: String, _ text: String, version: Int = 1) {
        notify("textDocument/didOpen", ["textDocument": ["uri": .string(uri), "languageId": "marble", "version": .int(version), "text": .string(text)]])
    }

    /// A whole-text change.
    func change(_ uri: String, _ text: String, version: Int) {
        notify("textDocument/didChange", ["textDocument": ["uri": .string(uri), "version": .int(version)],
                                          "contentChanges": [["text": .string(text)]]])
    }

    deinit {
        // A test that failed before stopping the server: end its input so that its thread ends.
        // Closing its output's reading end first: a server blocked writing gets EPIPE and goes on.
        closeInput()
        close(fromServer.read)
        if !stopped { _ = outcome.finished.wait(timeout: .now() + .seconds(Int(Self.patience / 1000))) }
        close(toServer.read)
        close(fromServer.write)
    }
}
