import MarbleSpec

/// `marbles lsp`: a language server for `.marble` files, speaking JSON-RPC 2.0 with the Language
/// Server Protocol's framing (https://microsoft.github.io/language-server-protocol/specifications/lsp/3.17/specification/)
/// over a pair of file descriptors (standard input and output for an editor).
///
/// One thread reads a message, handles it and writes what it answers, in order. The server keeps
/// each open document's text in memory and reports on it: the mistakes the runner finds as the
/// user types, the test results when the file is saved. It never writes a file: an edit (a
/// formatting, an updated `expect` line) is sent to the client, which applies it.
public final class LanguageServer {
    /// The JSON-RPC and LSP error codes the server answers with.
    public enum ErrorCode {
        public static let parseError = -32700
        public static let invalidRequest = -32600
        public static let methodNotFound = -32601
        public static let invalidParams = -32602
        public static let internalError = -32603
        public static let serverNotInitialized = -32002
        public static let requestFailed = -32803
    }

    /// An error answer to a request.
    struct ResponseError: Error {
        var code: Int
        var message: String

        static func invalidParams(_ message: String) -> ResponseError { ResponseError(code: ErrorCode.invalidParams, message: message) }
    }

    private enum Lifecycle { case starting, running, shutDown }

    private let reader: MessageReader
    private let writer: MessageWriter
    private var lifecycle = Lifecycle.starting
    var documents: [String: OpenDocument] = [:]
    /// The documents changed since their last check, checked once the input is quiet.
    private var stale: Set<String> = []
    /// Ids of the requests this server sent (`workspace/applyEdit`), awaiting the client's answer.
    private var pendingRequests: Set<Int> = []
    private var nextRequestId = 1
    /// Whether the client takes markdown in hovers.
    var hoverMarkdown = false
    /// Whether the client takes snippets (`${1:Duration}`) in completions.
    var snippets = false

    /// The version `initialize` reports (`marbles --version`'s).
    private let version: String

    /// A server reading framed messages from `input` and writing to `output`.
    public init(input: Int32, output: Int32, version: String) {
        self.version = version
        reader = MessageReader(descriptor: input)
        writer = MessageWriter(descriptor: output)
    }

    /// Serves until the client sends `exit` or the input ends; the process's exit status: 0 when
    /// `shutdown` came first, 1 otherwise (as the protocol says).
    public func run() -> Int32 {
        while true {
            // A burst of changes (typing) is checked once, when no more input is waiting.
            if !stale.isEmpty, !reader.hasPendingInput { checkStale() }
            switch reader.next() {
            case .end:
                return lifecycle == .shutDown ? 0 : 1
            case .malformed(let problem):
                respond(id: .null, error: ResponseError(code: ErrorCode.parseError, message: "malformed message: \(problem)"))
            case .message(let body):
                let message: JSON
                do throws(JSONError) {
                    message = try JSON.parse(body)
                } catch {
                    respond(id: .null, error: ResponseError(code: ErrorCode.parseError, message: "the message is not JSON: \(error.message) (at byte \(error.offset + 1))"))
                    continue
                }
                if let status = handle(message) { return status }
            }
        }
    }

    // MARK: messages

    /// Handles one message; the exit status when it was `exit`.
    private func handle(_ message: JSON) -> Int32? {
        guard case .object(let members) = message else {
            let what = message.array != nil ? "a batch (LSP sends one message at a time)" : "not an object"
            respond(id: .null, error: ResponseError(code: ErrorCode.invalidRequest, message: "the message is \(what)"))
            return nil
        }
        let id = members["id"]
        if let id, !Self.isValidId(id) {
            respond(id: .null, error: ResponseError(code: ErrorCode.invalidRequest, message: "an id is a number or a string"))
            return nil
        }
        guard members["jsonrpc"] == "2.0" else {
            respond(id: id ?? .null, error: ResponseError(code: ErrorCode.invalidRequest, message: "the message lacks \"jsonrpc\": \"2.0\""))
            return nil
        }
        guard let methodValue = members["method"] else {
            // A response to a request of ours.
            if let number = id?.int, members["result"] != nil || members["error"] != nil, pendingRequests.remove(number) != nil { return nil }
            respond(id: id ?? .null, error: ResponseError(code: ErrorCode.invalidRequest, message: "the message has no method"))
            return nil
        }
        guard let method = methodValue.string else {
            respond(id: id ?? .null, error: ResponseError(code: ErrorCode.invalidRequest, message: "the method is not a string"))
            return nil
        }
        let params = members["params"]
        switch params {
        case nil, .null?, .object?, .array?: break
        default:
            respond(id: id ?? .null, error: ResponseError(code: ErrorCode.invalidRequest, message: "params are an object or an array"))
            return nil
        }
        if let id {
            request(method, params: params, id: id)
            return nil
        }
        return notification(method, params: params)
    }

    static func isValidId(_ id: JSON) -> Bool {
        switch id {
        case .number, .string, .null: return true
        default: return false
        }
    }

    private func request(_ method: String, params: JSON?, id: JSON) {
        // A request is answered about the text as it is now, its run included.
        checkStale()
        switch lifecycle {
        case .starting where method != "initialize":
            respond(id: id, error: ResponseError(code: ErrorCode.serverNotInitialized, message: "the server is not initialized: send 'initialize' first"))
            return
        case .running where method == "initialize":
            respond(id: id, error: ResponseError(code: ErrorCode.invalidRequest, message: "the server is already initialized"))
            return
        case .shutDown:
            respond(id: id, error: ResponseError(code: ErrorCode.invalidRequest, message: "the server is shut down: only 'exit' is accepted"))
            return
        default:
            break
        }
        do throws(ResponseError) {
            let result = try answer(method, params: params)
            writer.send(["jsonrpc": "2.0", "id": id, "result": result])
        } catch {
            respond(id: id, error: error)
        }
    }

    private func answer(_ method: String, params: JSON?) throws(ResponseError) -> JSON {
        switch method {
        case "initialize": return initialize(params)
        case "shutdown":
            lifecycle = .shutDown
            return .null
        case "textDocument/formatting": return try formatting(params)
        case "textDocument/hover": return try hover(params)
        case "textDocument/completion": return try completion(params)
        case "textDocument/definition": return try definition(params)
        case "textDocument/codeLens": return try codeLenses(params)
        case "workspace/executeCommand": return try executeCommand(params)
        default:
            throw ResponseError(code: ErrorCode.methodNotFound, message: "unknown method '\(method)'")
        }
    }

    /// Handles a notification; the exit status for `exit`. Notifications are never answered, and
    /// those the server does not know (`$/…` among them) are ignored, as the protocol says.
    private func notification(_ method: String, params: JSON?) -> Int32? {
        if method == "exit" { return lifecycle == .shutDown ? 0 : 1 }
        guard lifecycle == .running else { return nil }
        switch method {
        case "textDocument/didOpen":
            guard let item = params?["textDocument"], let uri = item["uri"]?.string, let text = item["text"]?.string else { return nil }
            let document = OpenDocument(uri: uri, version: item["version"]?.int ?? 0, text: text)
            documents[uri] = document
            stale.remove(uri)
            check(document, withResults: true)
        case "textDocument/didChange":
            guard let uri = params?["textDocument"]?["uri"]?.string, let document = documents[uri],
                  let changes = params?["contentChanges"]?.array else { return nil }
            for change in changes {
                guard let text = change["text"]?.string else { continue }
                if let range = Range(change["range"]) {
                    document.text = DocumentText(document.text.replacing(range, with: text))
                } else {
                    document.text = DocumentText(text)
                }
            }
            if let version = params?["textDocument"]?["version"]?.int { document.version = version }
            stale.insert(uri)
        case "textDocument/didSave":
            guard let uri = params?["textDocument"]?["uri"]?.string, let document = documents[uri] else { return nil }
            if let text = params?["text"]?.string, text != document.text.text { document.text = DocumentText(text) }
            stale.remove(uri)
            check(document, withResults: true)
        case "textDocument/didClose":
            guard let uri = params?["textDocument"]?["uri"]?.string, documents.removeValue(forKey: uri) != nil else { return nil }
            stale.remove(uri)
            // The problems of a closed file are no longer shown.
            publishDiagnostics(uri: uri, version: nil, [])
        case "initialized":
            break
        default:
            break
        }
        return nil
    }

    // MARK: lifecycle

    private func initialize(_ params: JSON?) -> JSON {
        lifecycle = .running
        let formats = params?["capabilities"]?["textDocument"]?["hover"]?["contentFormat"]?.array ?? []
        hoverMarkdown = formats.contains("markdown")
        snippets = params?["capabilities"]?["textDocument"]?["completion"]?["completionItem"]?["snippetSupport"]?.bool ?? false
        return [
            "capabilities": [
                // Incremental: a change sends its range and text.
                "textDocumentSync": ["openClose": true, "change": 2, "save": ["includeText": true]],
                "documentFormattingProvider": true,
                "hoverProvider": true,
                "completionProvider": ["triggerCharacters": [".", "-"]],
                "definitionProvider": true,
                "codeLensProvider": ["resolveProvider": false],
                "executeCommandProvider": ["commands": .array(ServerCommand.allCases.map { .string($0.rawValue) })],
            ],
            "serverInfo": ["name": "marbles", "version": .string(version)],
        ]
    }


    // MARK: sending

    func respond(id: JSON, error: ResponseError) {
        writer.send(["jsonrpc": "2.0", "id": id, "error": ["code": .int(error.code), "message": .string(error.message)]])
    }

    func notify(_ method: String, _ params: JSON) {
        writer.send(["jsonrpc": "2.0", "method": .string(method), "params": params])
    }

    /// Sends a request to the client (its answer is read with the other messages and dropped).
    func sendRequest(_ method: String, _ params: JSON) {
        let id = nextRequestId
        nextRequestId += 1
        pendingRequests.insert(id)
        writer.send(["jsonrpc": "2.0", "id": .int(id), "method": .string(method), "params": params])
    }

    // MARK: documents

    /// The open document a request's `textDocument` names.
    func document(_ params: JSON?) throws(ResponseError) -> OpenDocument {
        guard let uri = params?["textDocument"]?["uri"]?.string else { throw .invalidParams("the request names no textDocument.uri") }
        guard let document = documents[uri] else { throw .invalidParams("the document \(uri) is not open") }
        return document
    }

    /// The position a request names, with its document.
    func documentPosition(_ params: JSON?) throws(ResponseError) -> (OpenDocument, Position) {
        let document = try document(params)
        guard let position = Position(params?["position"]) else { throw .invalidParams("the request has no valid position") }
        return (document, position)
    }

    /// Checks the documents changed since their last check (mistakes only: their text is not
    /// the saved one).
    private func checkStale() {
        for uri in stale.sorted() {
            if let document = documents[uri] { check(document, withResults: false) }
        }
        stale.removeAll()
    }

    /// Runs the document as it is and publishes what the run found: its mistakes, and with
    /// `withResults` (the text is the saved one) the failing expectations and runtime errors.
    func check(_ document: OpenDocument, withResults: Bool) {
        let report = MarbleRunner.run(source: document.text.text, path: document.path, options: Self.runOptions)
        document.run = DocumentRun(text: document.text, report: report)
        publishDiagnostics(uri: document.uri, version: document.version,
                           Diagnostics.of(report, in: document.text, uri: document.uri, withResults: withResults))
    }

    /// Every passing test's whole report is kept: hovers show what each stream did.
    static var runOptions: RunOptions {
        var options = RunOptions()
        options.keepsPassingReports = true
        return options
    }

    private func publishDiagnostics(uri: String, version: Int?, _ diagnostics: [JSON]) {
        var params: [String: JSON] = ["uri": .string(uri), "diagnostics": .array(diagnostics)]
        if let version { params["version"] = .int(version) }
        notify("textDocument/publishDiagnostics", .object(params))
    }
}

/// A document the client has open: its text as the client last sent it, and the last run of it.
final class OpenDocument {
    let uri: String
    var version: Int
    var text: DocumentText
    var run: DocumentRun?

    init(uri: String, version: Int, text: String) {
        self.uri = uri
        self.version = version
        self.text = DocumentText(text)
    }

    /// The file's path, for messages: the URI's path, percent-decoded.
    var path: String { FileURI.path(uri) }
}

/// A run of a document, with the text it ran (which may be older than the document's now).
struct DocumentRun {
    var text: DocumentText
    var report: FileReport
}

/// `file:` URIs (RFC 8089) as paths.
enum FileURI {
    static func path(_ uri: String) -> String {
        guard uri.hasPrefix("file://") else { return uri }
        var rest = Substring(uri.dropFirst("file://".count))
        // `file://host/path`: the path starts at its first slash.
        if !rest.hasPrefix("/"), let slash = rest.firstIndex(of: "/") { rest = rest[slash...] }
        return percentDecoded(rest)
    }

    static func percentDecoded(_ text: Substring) -> String {
        var bytes: [UInt8] = []
        var utf8 = text.utf8[...]
        while let byte = utf8.popFirst() {
            if byte == UInt8(ascii: "%"), utf8.count >= 2,
               let high = hexValue(utf8[utf8.startIndex]), let low = hexValue(utf8[utf8.index(after: utf8.startIndex)]) {
                bytes.append(high << 4 | low)
                utf8 = utf8.dropFirst(2)
            } else {
                bytes.append(byte)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte - UInt8(ascii: "A") + 10
        default: return nil
        }
    }
}
