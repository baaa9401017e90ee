import Foundation
import MarbleRewrite
import Testing
@testable import MarbleLanguageServer

/// Hover, completion, definition, formatting and code lenses, through the JSON-RPC client.
@Suite("marbles lsp: hover, completion, definition, formatting, code lenses")
struct FeatureTests {
    static let uri = LanguageServerTests.uri
    static let text = LanguageServerTests.passing

    /// A client with `text` open and its first diagnostics read.
    static func opened(_ text: String = FeatureTests.text, markdown: Bool = true, snippets: Bool = false) -> LanguageClient {
        let client = LanguageClient()
        _ = client.call("initialize", ["capabilities": ["textDocument": [
            "hover": ["contentFormat": markdown ? ["markdown"] : ["plaintext"]],
            "completion": ["completionItem": ["snippetSupport": .bool(snippets)]]]]])
        client.notify("initialized")
        client.open(uri, text)
        _ = client.diagnostics(uri)
        return client
    }

    static func at(_ line: Int, _ character: Int) -> JSON {
        ["textDocument": ["uri": .string(uri)], "position": ["line": .int(line), "character": .int(character)]]
    }

    @Test("hover on a stream shows its marbles of the last run under its sources; on an operator its signature and behaviour")
    func hover() {
        let client = Self.opened()
        // `labels` on `  let    labels = prices.map …` (line 4).
        let stream = client.call("textDocument/hover", Self.at(4, 11))
        #expect(stream?["range"] == ["start": ["line": 4, "character": 9], "end": ["line": 4, "character": 15]])
        #expect(stream?["contents"]?["value"]?.string == """
            **labels** = `prices.map { "🎉 " + $0 }`

            ```marble
            prices   -a-b-|
            labels   -x-y-|
            ```
            subscribed frame 0 to 5
            """)
        let source = client.call("textDocument/hover", Self.at(3, 10))
        #expect(source?["contents"]?["value"]?.string?.contains("prices   -a-b-|") == true, "\(source?.text ?? "")")
        // `map` after the '.'.
        let map = client.call("textDocument/hover", Self.at(4, 26))
        let text = map?["contents"]?["value"]?.string ?? ""
        #expect(text == "```swift\n.map(Closure)\n```\ntransforms each value\n\n(marbles/operators/map.marble)", "\(text)")
        #expect(text.contains("(marbles/operators/map.marble)"), "\(text)")
        // Nothing to say on a keyword or between words.
        #expect(client.call("textDocument/hover", Self.at(4, 3)) == .null)
        #expect(client.call("textDocument/hover", Self.at(1, 0)) == .null)
        #expect(client.shutDown() == 0)
    }

    @Test("a plain-text client gets the hover without markdown")
    func plainHover() {
        let client = Self.opened(markdown: false)
        let stream = client.call("textDocument/hover", Self.at(4, 11))
        #expect(stream?["contents"]?["kind"] == "plaintext")
        #expect(stream?["contents"]?["value"]?.string?.hasPrefix("labels = `prices.map") == true, "\(stream?.text ?? "")")
        #expect(stream?["contents"]?["value"]?.string?.contains("```") == false)
        #expect(client.shutDown() == 0)
    }

    @Test("completion: operators with their labels after '.', value names inside marbles, streams elsewhere")
    func completion() throws {
        let client = Self.opened()
        // Just after the '.' of `prices.`.
        let operators = client.call("textDocument/completion", Self.at(4, 25))?["items"]?.array ?? []
        let debounce = try #require(operators.first { $0["label"] == "debounce(for:scheduler:options:)" })
        #expect(debounce["insertText"] == "debounce(for: , scheduler: )")
        #expect(debounce["detail"] == ".debounce(for: Duration, scheduler: Scheduler, options: Any = …)")
        #expect(debounce["documentation"]?.string?.isEmpty == false)
        #expect(operators.allSatisfy { $0["kind"] == .int(CompletionKind.method) })
        // Inside `-a-b-|` of the hot line: the test's value names.
        let values = client.call("textDocument/completion", Self.at(3, 18))?["items"]?.array ?? []
        #expect(values.map { $0["label"]?.string ?? "" } == ["a", "b", "x", "y"])
        #expect(values.first?["detail"] == "\"1\"")
        // At the start of the expect line's name: the streams, then the publishers.
        let names = client.call("textDocument/completion", Self.at(6, 9))?["items"]?.array ?? []
        #expect(Array(names.prefix(2).map { $0["label"]?.string ?? "" }) == ["prices", "labels"])
        #expect(names.contains { $0["label"] == "Just(_:)" })
        #expect(client.shutDown() == 0)
    }

    @Test("completion with snippets: placeholders typed as the catalogue declares")
    func snippets() throws {
        let client = Self.opened(snippets: true)
        let operators = client.call("textDocument/completion", Self.at(4, 25))?["items"]?.array ?? []
        let debounce = try #require(operators.first { $0["label"] == "debounce(for:scheduler:options:)" })
        #expect(debounce["insertText"] == "debounce(for: ${1:Duration}, scheduler: ${2:Scheduler})")
        #expect(debounce["insertTextFormat"] == 2)
        #expect(client.shutDown() == 0)
    }

    @Test("completion on a line that does not parse yet still offers the operators")
    func completionWhileTyping() throws {
        let client = Self.opened()
        let typing = Self.text.replacingOccurrences(of: "prices.map { \"🎉 \" + $0 }", with: "prices.")
        client.change(Self.uri, typing, version: 2)
        #expect(client.diagnostics(Self.uri).isEmpty == false)
        let operators = client.call("textDocument/completion", Self.at(4, 25))?["items"]?.array ?? []
        #expect(operators.contains { $0["label"] == "map(_:)" })
        #expect(client.shutDown() == 0)
    }

    static let declarations = """
        struct Price: Equatable {
          let cents: Int
        }

        test "a type and a stream"
          hot    prices  -a-|
          values a = Price(cents: 1)
          let    cents  = prices.map { (price: Price) in price.cents }
          expect cents   -b-|
          values b = 1

        """

    @Test("go to definition of a stream and of a declared type")
    func definition() {
        let client = Self.opened(Self.declarations)
        // `prices` in `prices.map` (line 7) → its hot line (line 5).
        #expect(client.call("textDocument/definition", Self.at(7, 19)) == ["uri": .string(Self.uri), "range": ["start": ["line": 5, "character": 9], "end": ["line": 5, "character": 15]]])
        // `Price` in `Price(cents: 1)` (line 6) → the struct's name (line 0).
        #expect(client.call("textDocument/definition", Self.at(6, 14)) == ["uri": .string(Self.uri), "range": ["start": ["line": 0, "character": 7], "end": ["line": 0, "character": 12]]])
        // `cents` after a '.' is a member, not the stream.
        #expect(client.call("textDocument/definition", Self.at(7, 58)) == .null)
        #expect(client.call("textDocument/definition", Self.at(1, 0)) == .null)
        #expect(client.shutDown() == 0)
    }

    @Test("formatting returns the edits that make the text what marbles fmt writes; none for a formatted text")
    func formatting() throws {
        let messy = Self.text.replacingOccurrences(of: "  hot    prices  -a-b-|", with: "  hot prices -a-b-|")
        let client = Self.opened(messy)
        let edits = client.call("textDocument/formatting", ["textDocument": ["uri": .string(Self.uri)], "options": ["tabSize": 2, "insertSpaces": true]])?.array ?? []
        try #require(edits.count == 1)
        let range = try #require(Range(edits[0]["range"]))
        let applied = DocumentText(messy).replacing(range, with: edits[0]["newText"]?.string ?? "")
        #expect(applied == (try MarbleFormatter.format(messy).get()))
        #expect(range.start.line >= 2 && range.end.line <= 7, "only the test's lines change: \(edits[0].text)")
        client.change(Self.uri, applied, version: 2)
        _ = client.diagnostics(Self.uri)
        #expect(client.call("textDocument/formatting", ["textDocument": ["uri": .string(Self.uri)], "options": ["tabSize": 2, "insertSpaces": true]]) == [])
        // A text fmt refuses is an error answer, and nothing changes.
        client.change(Self.uri, "test \"x\n", version: 3)
        _ = client.diagnostics(Self.uri)
        let id = client.request("textDocument/formatting", ["textDocument": ["uri": .string(Self.uri)], "options": [:]])
        #expect(client.response(to: .int(id))?["error"]?["code"] == .int(LanguageServer.ErrorCode.requestFailed))
        #expect(client.shutDown() == 0)
    }

    @Test("code lenses: run this test, and update this expect once a save shows it failing; the update is an applyEdit the client applies")
    func codeLenses() throws {
        let failing = Self.text.replacingOccurrences(of: "expect labels  -x-y-|", with: "expect labels  -x--y|")
        let client = Self.opened(failing)
        let lenses = client.call("textDocument/codeLens", ["textDocument": ["uri": .string(Self.uri)]])?.array ?? []
        try #require(lenses.count == 2)
        #expect(lenses[0]["command"]?["title"] == "▶ run this test")
        #expect(lenses[0]["command"]?["command"] == "marbles.runTest")
        #expect(lenses[0]["range"]?["start"] == ["line": 2, "character": 0])
        #expect(lenses[1]["command"]?["title"] == "update this expect")
        #expect(lenses[1]["command"]?["arguments"] == [.string(Self.uri), "a mapped value, «café» ☕️", 7])
        #expect(lenses[1]["range"]?["start"] == ["line": 6, "character": 2])

        // Run this test: the outcome, shown and answered.
        let run = client.call("workspace/executeCommand", ["command": "marbles.runTest", "arguments": [.string(Self.uri), "a mapped value, «café» ☕️"]])
        #expect(run?["outcome"] == "failed")
        let shown = client.next("showMessage") { $0["method"] == "window/showMessage" }
        #expect(shown?["params"]?["message"]?.string?.hasPrefix("✗ a mapped value") == true)
        #expect(client.diagnostics(Self.uri).count == 1)

        // Update this expect: the server asks the client to apply the edit, and writes nothing.
        let update = client.request("workspace/executeCommand", ["command": "marbles.updateExpect", "arguments": lenses[1]["command"]?["arguments"] ?? []])
        let apply = try #require(client.next("applyEdit") { $0["method"] == "workspace/applyEdit" })
        let edits = apply["params"]?["edit"]?["changes"]?[Self.uri]?.array ?? []
        #expect(edits == [["range": ["start": ["line": 6, "character": 0], "end": ["line": 6, "character": 23]], "newText": "  expect labels  -x-y-|"]])
        client.send(["jsonrpc": "2.0", "id": apply["id"] ?? .null, "result": ["applied": true]])
        #expect(client.response(to: .int(update))?["result"] == ["edits": 1])
        #expect(!FileManager.default.fileExists(atPath: "/work/specs/café.marble"))

        // A command for a test that is not there, or unknown: InvalidParams.
        let missing = client.request("workspace/executeCommand", ["command": "marbles.runTest", "arguments": [.string(Self.uri), "nope"]])
        #expect(client.response(to: .int(missing))?["error"]?["code"] == .int(LanguageServer.ErrorCode.invalidParams))
        let unknown = client.request("workspace/executeCommand", ["command": "marbles.format", "arguments": []])
        #expect(client.response(to: .int(unknown))?["error"]?["code"] == .int(LanguageServer.ErrorCode.invalidParams))
        // The client's answer to applyEdit was taken as an answer, not as a bad request.
        #expect(!client.pending.contains { $0["error"] != nil }, "\(client.pending)")
        #expect(client.shutDown() == 0)
    }
}
