import MarbleSpec

extension LanguageServer {
    /// `textDocument/completion`: after a `.`, the operators with their argument labels; inside
    /// the marbles of a line, the value names in force (`values`); elsewhere the test's streams
    /// and the publishers that start a pipeline.
    func completion(_ params: JSON?) throws(ResponseError) -> JSON {
        let (document, position) = try documentPosition(params)
        let syntax = DocumentSyntax(document.text)
        let (line, column) = document.text.projectLocation(of: position)
        let characters = syntax.characters(ofLine: line)
        // The word being typed, and what is before it.
        var start = min(column - 1, characters.count)
        while start > 0, DocumentSyntax.isWordCharacter(characters[start - 1]) { start -= 1 }
        let before = start > 0 ? characters[start - 1] : nil
        let test = syntax.test(atLine: line)
        let items: [JSON]
        if syntax.isInMarbles(position) {
            items = syntax.valueBindings(in: test).map { binding in
                ["label": .string(String(binding.name)), "kind": .int(CompletionKind.value), "detail": .string(syntax.source(of: binding.value))]
            }
        } else if before == "." {
            items = Completions.operators(kind: .method, snippets: snippets)
        } else {
            let streams = test.map(syntax.streams(of:)) ?? []
            items = streams.map { ["label": .string($0.name), "kind": .int(CompletionKind.variable), "detail": "stream"] }
                + Completions.operators(kind: .constructor, snippets: snippets)
        }
        return ["isIncomplete": false, "items": .array(items)]
    }
}

/// LSP's `CompletionItemKind` numbers the server uses.
enum CompletionKind {
    static let method = 2
    static let constructor = 4
    static let variable = 6
    static let value = 12
}

enum Completions {
    /// Every catalogue signature of `kind`: labelled with its selector (`debounce(for:scheduler:options:)`),
    /// inserting the call with the labels of the parameters that have no default.
    static func operators(kind: OperatorSignature.Kind, snippets: Bool) -> [JSON] {
        Catalogue.signatures.filter { $0.kind == kind }.map { signature in
            let required = signature.parameters.filter { !$0.hasDefault }
            var placeholder = 0
            let arguments = required.map { parameter -> String in
                placeholder += 1
                let label = parameter.label.map { $0 + ": " } ?? ""
                return label + (snippets ? "${\(placeholder):\(parameter.type.name)}" : "")
            }
            let insert = signature.name + "(" + arguments.joined(separator: ", ") + ")"
            return [
                "label": .string(signature.selector),
                "kind": .int(kind == .method ? CompletionKind.method : CompletionKind.constructor),
                "detail": .string(signature.usage),
                "documentation": .string(signature.summary),
                "filterText": .string(signature.name),
                "insertText": .string(insert),
                "insertTextFormat": .int(snippets ? 2 : 1),
            ]
        }
    }
}
