import MarbleRewrite

extension LanguageServer {
    /// `textDocument/formatting`: the document laid out as `marbles fmt` lays it out, as the
    /// edits that turn the text into that (none when it is formatted already).
    func formatting(_ params: JSON?) throws(ResponseError) -> JSON {
        let document = try document(params)
        switch MarbleFormatter.format(document.text.text) {
        case .success(let formatted):
            return .array(TextEdits.between(document.text, and: formatted).map(\.json))
        case .failure(let problem):
            let place = problem.place.map { "line \($0.line), column \($0.column): " } ?? ""
            throw ResponseError(code: ErrorCode.requestFailed, message: "fmt leaves the file unchanged: " + place + problem.message)
        }
    }
}

/// A replacement of a range of a document.
struct TextEdit: Equatable {
    var range: Range
    var newText: String

    var json: JSON { ["range": range.json, "newText": .string(newText)] }
}

enum TextEdits {
    /// The edit turning `old` into `new`: the whole lines between their common first and last
    /// lines (none when they are equal), so that the editor keeps the cursor and marks elsewhere.
    static func between(_ old: DocumentText, and new: String) -> [TextEdit] {
        guard old.text != new else { return [] }
        let before = old.text.split(separator: "\n", omittingEmptySubsequences: false)
        let after = new.split(separator: "\n", omittingEmptySubsequences: false)
        var prefix = 0
        while prefix < min(before.count, after.count) - 1, before[prefix] == after[prefix] { prefix += 1 }
        var suffix = 0
        while suffix < min(before.count, after.count) - prefix - 1, before[before.count - 1 - suffix] == after[after.count - 1 - suffix] { suffix += 1 }
        // UTF-16 offsets of the changed stretch in the old text: after `prefix` lines, up to the
        // start of the last `suffix` lines (their line breaks are `\n`, one unit each).
        let start = before[..<prefix].reduce(0) { $0 + $1.utf16.count + 1 }
        let end = old.text.utf16.count - before[(before.count - suffix)...].reduce(0) { $0 + $1.utf16.count + 1 }
        let newStart = after[..<prefix].reduce(0) { $0 + $1.utf16.count + 1 }
        let newEnd = new.utf16.count - after[(after.count - suffix)...].reduce(0) { $0 + $1.utf16.count + 1 }
        let utf16 = new.utf16
        let replacement = String(Substring(utf16[utf16.index(utf16.startIndex, offsetBy: newStart)..<utf16.index(utf16.startIndex, offsetBy: max(newStart, newEnd))]))
        return [TextEdit(range: Range(start: old.position(ofOffset: start), end: old.position(ofOffset: max(start, end))), newText: replacement)]
    }
}
