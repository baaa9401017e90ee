import Foundation
import Testing
@testable import MarbleLanguageServer

/// The server through its JSON-RPC client: the lifecycle, documents and diagnostics.
@Suite("marbles lsp: lifecycle and diagnostics")
struct LanguageServerTests {
    static let uri = "file:///work/specs/caf%C3%A9.marble"

    static let passing = """
        frame 100ms

        test "a mapped value, «café» ☕️"
          hot    prices  -a-b-|
          let    labels = prices.map { "🎉 " + $0 }
          values a = "1", b = "2"
          expect labels  -x-y-|
          values x = "🎉 1", y = "🎉 2"

        """

    @Test("initialize answers the capabilities; a request before it is refused; shutdown then exit ends with 0")
    func lifecycle() {
        let client = LanguageClient()
        let early = client.request("textDocument/hover", ["textDocument": ["uri": "file:///x.marble"], "position": ["line": 0, "character": 0]])
        #expect(client.response(to: .int(early))?["error"]?["code"] == .int(LanguageServer.ErrorCode.serverNotInitialized))
        let capabilities = client.initialize()
        #expect(capabilities?["textDocumentSync"]?["change"] == 2)
        #expect(capabilities?["textDocumentSync"]?["save"]?["includeText"] == true)
        let again = client.request("initialize", ["capabilities": [:]])
        #expect(client.response(to: .int(again))?["error"]?["code"] == .int(LanguageServer.ErrorCode.invalidRequest))
        #expect(client.shutDown() == 0)
    }

    @Test("exit without shutdown ends with 1; so does the end of input; after shutdown only exit is accepted")
    func exitStatus() {
        let abrupt = LanguageClient()
        abrupt.initialize()
        abrupt.notify("exit")
        #expect(abrupt.waitForExit() == 1)

        let ended = LanguageClient()
        ended.initialize()
        ended.closeInput()
        #expect(ended.waitForExit() == 1)

        let late = LanguageClient()
        late.initialize()
        #expect(late.call("shutdown", nil) == .null)
        let refused = late.request("textDocument/hover", ["textDocument": ["uri": "file:///x.marble"], "position": ["line": 0, "character": 0]])
        #expect(late.response(to: .int(refused))?["error"]?["code"] == .int(LanguageServer.ErrorCode.invalidRequest))
        late.closeInput()
        #expect(late.waitForExit() == 0)
    }

    @Test("didOpen of a good file publishes no diagnostics; a mistake typed on a line with non-ASCII text is underlined in UTF-16 units")
    func diagnosticsAsTheUserTypes() throws {
        let client = LanguageClient()
        client.initialize()
        client.open(Self.uri, Self.passing)
        #expect(client.diagnostics(Self.uri) == [])
        // The operator's name misspelt after an emoji (two UTF-16 units, one character).
        let mistaken = Self.passing.replacingOccurrences(of: "prices.map { \"🎉 \" + $0 }", with: "prices.mapp { \"🎉 \" + $0 }")
        client.change(Self.uri, mistaken, version: 2)
        let diagnostics = client.diagnostics(Self.uri)
        try #require(diagnostics.count == 1)
        let diagnostic = diagnostics[0]
        // `  let    labels = prices.mapp`: 'mapp' starts at UTF-16 offset 25 of line 4 (0-based).
        #expect(diagnostic["range"] == ["start": ["line": 4, "character": 25], "end": ["line": 4, "character": 29]])
        #expect(diagnostic["severity"] == 1)
        #expect(diagnostic["message"]?.string?.contains("mapp") == true)
        #expect(diagnostic["message"]?.string?.contains("hint: did you mean 'map(_:)'?") == true, "\(diagnostic.text)")
        #expect(client.shutDown() == 0)
    }

    @Test("a mistake after an emoji on its own line: the range counts the emoji as two UTF-16 units")
    func utf16Columns() throws {
        let client = LanguageClient()
        client.initialize()
        let text = Self.passing.replacingOccurrences(of: "values x = \"🎉 1\", y = \"🎉 2\"", with: "values x = \"🎉 1\", y = \"🎉 2\", z = nope")
        client.open(Self.uri, text)
        let diagnostics = client.diagnostics(Self.uri)
        try #require(diagnostics.count >= 1, "\(diagnostics)")
        let line = "  values x = \"🎉 1\", y = \"🎉 2\", z = "
        #expect(diagnostics[0]["range"]?["start"] == ["line": 7, "character": .int(line.utf16.count)], "\(diagnostics[0].text)")
        #expect(diagnostics[0]["range"]?["end"] == ["line": 7, "character": .int(line.utf16.count + 4)], "\(diagnostics[0].text)")
        #expect(client.shutDown() == 0)
    }

    @Test("on save, a failing expect is a diagnostic on its line with the diff in the message; while typing it is not shown")
    func testResultsOnSave() throws {
        let client = LanguageClient()
        client.initialize()
        client.open(Self.uri, Self.passing)
        #expect(client.diagnostics(Self.uri) == [])
        let failing = Self.passing.replacingOccurrences(of: "expect labels  -x-y-|", with: "expect labels  -x--y|")
        client.change(Self.uri, failing, version: 2)
        #expect(client.diagnostics(Self.uri) == [])
        client.notify("textDocument/didSave", ["textDocument": ["uri": .string(Self.uri)], "text": .string(failing)])
        let diagnostics = client.diagnostics(Self.uri)
        try #require(diagnostics.count == 1)
        #expect(diagnostics[0]["range"]?["start"] == ["line": 6, "character": 2])
        #expect(diagnostics[0]["range"]?["end"] == ["line": 6, "character": 23])
        let message = diagnostics[0]["message"]?.string ?? ""
        #expect(message.hasPrefix("test \"a mapped value, «café» ☕️\" failed: expect labels\n"), "\(message)")
        #expect(message.contains("expected   -x--y|"), "\(message)")
        #expect(message.contains("actual     -x-y-|"), "\(message)")
        #expect(message.contains("prices     -a-b-|"), "\(message)")
        #expect(client.shutDown() == 0)
    }

    @Test("a burst of changes already waiting is checked once, for the last text")
    func burstOfChanges() {
        let client = LanguageClient()
        client.initialize()
        client.open(Self.uri, Self.passing)
        #expect(client.diagnostics(Self.uri) == [])
        func change(_ text: String, _ version: Int) -> String {
            let body = JSON.object(["jsonrpc": "2.0", "method": "textDocument/didChange",
                                    "params": ["textDocument": ["uri": .string(Self.uri), "version": .int(version)], "contentChanges": [["text": .string(text)]]]]).text
            return "Content-Length: \(body.utf8.count)\r\n\r\n" + body
        }
        // One write (under PIPE_BUF bytes, so one read): both changes are there before either is handled.
        let mistaken = Self.passing.replacingOccurrences(of: "prices.map", with: "prices.mapp")
        client.sendRaw(change(mistaken, 2) + change(Self.passing, 3))
        let published = client.next("diagnostics") { $0["method"] == "textDocument/publishDiagnostics" }
        #expect(published?["params"]?["version"] == 3)
        #expect(published?["params"]?["diagnostics"] == [])
        #expect(client.shutDown() == 0)
        #expect(!client.received.contains { $0["params"]?["version"] == 2 })
    }

    @Test("incremental changes edit the text in place, positions in UTF-16 units")
    func incrementalChange() throws {
        let client = LanguageClient()
        client.initialize()
        client.open(Self.uri, Self.passing)
        #expect(client.diagnostics(Self.uri) == [])
        // `  let    labels = prices.map { "🎉 " + $0 }`: '$0' is UTF-16 39..<41, after the
        // emoji's two units (characters 38..<40).
        client.notify("textDocument/didChange", ["textDocument": ["uri": .string(Self.uri), "version": 2],
                                                 "contentChanges": [["range": ["start": ["line": 4, "character": 39], "end": ["line": 4, "character": 41]],
                                                                     "text": "nope"]]])
        let diagnostics = client.diagnostics(Self.uri)
        try #require(diagnostics.count == 1)
        #expect(diagnostics[0]["range"] == ["start": ["line": 4, "character": 39], "end": ["line": 4, "character": 43]], "\(diagnostics[0].text)")
        #expect(diagnostics[0]["message"]?.string?.contains("'nope'") == true, "\(diagnostics[0].text)")
        // Two changes in one notification, applied in order.
        client.notify("textDocument/didChange", ["textDocument": ["uri": .string(Self.uri), "version": 3],
                                                 "contentChanges": [["range": ["start": ["line": 4, "character": 39], "end": ["line": 4, "character": 43]], "text": "$"],
                                                                    ["range": ["start": ["line": 4, "character": 40], "end": ["line": 4, "character": 40]], "text": "0"]]])
        #expect(client.diagnostics(Self.uri) == [])
        client.notify("textDocument/didClose", ["textDocument": ["uri": .string(Self.uri)]])
        #expect(client.diagnostics(Self.uri) == [])
        #expect(client.shutDown() == 0)
    }
}

/// Bad input on the wire: every problem is a JSON-RPC error answer and the server goes on.
@Suite("marbles lsp: framing and JSON-RPC errors")
struct FramingTests {
    static func errorCode(_ message: JSON?) -> Int? { message?["error"]?["code"]?.int }

    @Test("a body that is not JSON is a parse error with id null; the next message is answered")
    func badJSON() {
        let client = LanguageClient()
        client.sendRaw("Content-Length: 9\r\n\r\n{\"id\": 1,")
        let error = client.next("parse error") { $0["error"] != nil }
        #expect(Self.errorCode(error) == LanguageServer.ErrorCode.parseError)
        #expect(error?["id"] == .null)
        #expect(client.initialize() != nil)
        #expect(client.shutDown() == 0)
    }

    @Test("a header block without Content-Length, a line that is no header, a bad length: errors, then the server reads on")
    func badHeaders() {
        let client = LanguageClient()
        client.sendRaw("Content-Type: application/vscode-jsonrpc; charset=utf-8\r\n\r\n")
        #expect(Self.errorCode(client.next("no length") { $0["error"] != nil }) == LanguageServer.ErrorCode.parseError)
        client.sendRaw("Content-Length: twelve\r\n\r\n")
        let bad = client.next("bad length") { $0["error"] != nil }
        #expect(bad?["error"]?["message"]?.string?.contains("'twelve'") == true, "\(bad?.text ?? "")")
        // An unframed body runs into the next header: the server finds the header after it.
        client.sendRaw("garbage\r\n\r\n{\"jsonrpc\":\"2.0\"}")
        #expect(Self.errorCode(client.next("garbage") { $0["error"] != nil }) == LanguageServer.ErrorCode.parseError)
        #expect(client.initialize() != nil)
        #expect(client.shutDown() == 0)
    }

    @Test("a message cut off by the end of input is reported, and the server exits with 1")
    func truncatedBody() {
        let client = LanguageClient()
        client.sendRaw("Content-Length: 100\r\n\r\n{\"jsonrpc\":")
        client.closeInput()
        #expect(Self.errorCode(client.next("truncation") { $0["error"] != nil }) == LanguageServer.ErrorCode.parseError)
        #expect(client.waitForExit() == 1)
    }

    @Test("an unknown method is MethodNotFound with its id; an unknown notification is not answered")
    func unknownMethods() {
        let client = LanguageClient()
        client.initialize()
        client.notify("$/setTrace", ["value": "off"])
        client.notify("workspace/didChangeConfiguration", ["settings": [:]])
        let id = client.request("textDocument/prepareTypeHierarchy", [:])
        let answer = client.response(to: .int(id))
        #expect(Self.errorCode(answer) == LanguageServer.ErrorCode.methodNotFound)
        #expect(client.pending.isEmpty, "\(client.pending)")
        #expect(client.shutDown() == 0)
    }

    @Test("a batch, a message without jsonrpc 2.0, a method that is no string, params that are a number: InvalidRequest")
    func invalidRequests() {
        let client = LanguageClient()
        client.initialize()
        for (body, id) in [("[{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"shutdown\"}]", JSON.null),
                           ("{\"id\":8,\"method\":\"shutdown\"}", 8),
                           ("{\"jsonrpc\":\"2.0\",\"id\":9,\"method\":3}", 9),
                           ("{\"jsonrpc\":\"2.0\",\"id\":10,\"method\":\"shutdown\",\"params\":3}", 10),
                           ("{\"jsonrpc\":\"2.0\",\"id\":{},\"method\":\"shutdown\"}", .null),
                           ("{\"jsonrpc\":\"2.0\",\"id\":11}", 11)] {
            client.sendRaw("Content-Length: \(body.utf8.count)\r\n\r\n" + body)
            let answer = client.next("an answer to \(body)") { $0["error"] != nil }
            #expect(Self.errorCode(answer) == LanguageServer.ErrorCode.invalidRequest, "\(body)")
            #expect(answer?["id"] == id, "\(body)")
        }
        #expect(client.shutDown() == 0)
    }

    @Test("a request with bad params is InvalidParams, not a crash")
    func invalidParams() {
        let client = LanguageClient()
        client.initialize()
        let id = client.request("textDocument/formatting", ["textDocument": ["uri": "file:///not-open.marble"]])
        #expect(Self.errorCode(client.response(to: .int(id))) == LanguageServer.ErrorCode.invalidParams)
        #expect(client.shutDown() == 0)
    }
}
