import MarbleSyntax

extension LanguageServer {
    /// `textDocument/definition`: where a stream of the test, or a type or function of the file
    /// or the test, is declared (its name on that line).
    func definition(_ params: JSON?) throws(ResponseError) -> JSON {
        let (document, position) = try documentPosition(params)
        let syntax = DocumentSyntax(document.text)
        guard let word = syntax.word(at: position) else { return .null }
        let test = syntax.test(atLine: word.line)
        var target: SourceLocation?
        if word.before != ".", let test, let stream = syntax.streams(of: test).first(where: { $0.name == word.text }) {
            target = stream.location
        } else if let declaration = syntax.declarations(visibleIn: test).last(where: { $0.name.name == word.text || $0.name.name.hasSuffix("." + word.text) }) {
            target = declaration.name.location
        }
        guard let target else { return .null }
        let range = document.text.range(line: target.line, column: target.column, length: word.text.count)
        return ["uri": .string(document.uri), "range": range.json]
    }
}
