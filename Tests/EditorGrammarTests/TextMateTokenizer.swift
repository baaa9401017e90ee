import Foundation

/// A small TextMate tokenizer: the subset of the grammar format that
/// `editors/vscode/syntaxes/marble.tmLanguage.json` uses, read as vscode-textmate reads it, so
/// that the grammar can be tested here without npm.
///
/// Supported: `match` with `name` and `captures`; `begin`/`end` with `name`, `contentName`,
/// `beginCaptures`, `endCaptures` (or `captures` for both) and `patterns`; rules of `patterns`
/// alone; `include` of `#name` (the repository), `$self` and `$base`; `$n` in scope names (the
/// text of capture n). Anything else in a rule (`while`, `applyEndPatternLast`, `injections`,
/// `patterns` inside a capture, a nested `repository`) is refused by `Grammar.init`, so the
/// grammar cannot quietly use what this tokenizer would read otherwise than an editor does.
///
/// The semantics follow vscode-textmate's `_tokenizeString`: each line is matched with a
/// trailing "\n"; at each position every candidate (the open rule's `end` first, then its
/// patterns in order, includes flattened) is searched from that position, and the leftmost match
/// wins, the earlier candidate on a tie. A rule that matches without advancing (an empty match,
/// or a push or pop that changes nothing) ends the line's tokenizing, as in vscode-textmate:
/// `Tokenized.stalledLines` reports it, because it is a mistake in the grammar.
///
/// The regexes run on ICU (`NSRegularExpression`), where editors run Oniguruma. The grammar
/// keeps to the constructs both read alike — character classes, `\s \S \w \d \b`, groups,
/// alternation, lazy and greedy quantifiers, bounded lookahead and lookbehind, `^`/`$` on a
/// single line — and `Grammar.init` refuses the ones they read differently or that this
/// tokenizer does not model: `\G` (the end of the previous match), `\A`, `\z`, `\Z`, `\h`/`\H`
/// (a hex digit in Oniguruma, horizontal space in ICU), POSIX brackets `[:alpha:]`, and
/// backreferences in an `end` pattern (to the `begin` match).
struct Grammar {
    /// A compiled rule; `id` is its position in `Grammar.rules`.
    struct Rule {
        enum Kind {
            case match(String, captures: [Int: String])
            case beginEnd(begin: String, end: String, contentName: String?,
                          beginCaptures: [Int: String], endCaptures: [Int: String])
            case include(String)
            case group
        }
        var kind: Kind
        var name: String?
        var patterns: [Int] = []
        /// Where it is in the grammar file, for messages.
        var path: String
    }

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    let scopeName: String
    private(set) var rules: [Rule] = []
    private(set) var repository: [String: Int] = [:]
    private(set) var rootPatterns: [Int] = []
    /// Each rule's patterns with includes and groups flattened, in order.
    private var flattened: [Int: [Int]] = [:]
    /// The scanner of each begin/end rule's inside, and of the top level (-1).
    private(set) var scanners: [Int: Scanner] = [:]

    static let ruleKeys: Set<String> = ["match", "name", "captures", "begin", "end", "beginCaptures", "endCaptures", "contentName",
                                        "patterns", "include", "comment"]

    init(json data: Data) throws {
        guard let object = try JSONSerialization.jsonObject(with: data) as? [String: Any] else {
            throw Failure(description: "the grammar is not a JSON object")
        }
        guard let scopeName = object["scopeName"] as? String else { throw Failure(description: "the grammar has no scopeName") }
        self.scopeName = scopeName
        for key in object.keys where !["$schema", "name", "scopeName", "fileTypes", "comment", "patterns", "repository"].contains(key) {
            throw Failure(description: "top-level key '\(key)' is not supported by this tokenizer")
        }
        let repositoryObject = object["repository"] as? [String: Any] ?? [:]
        // Rules are compiled first, includes resolved after, so that order does not matter.
        for (key, value) in repositoryObject.sorted(by: { $0.key < $1.key }) {
            guard let rule = value as? [String: Any] else { throw Failure(description: "repository.\(key) is not an object") }
            repository[key] = try compile(rule, path: "repository.\(key)")
        }
        guard let patterns = object["patterns"] as? [Any] else { throw Failure(description: "the grammar has no patterns") }
        rootPatterns = try patterns.enumerated().map { index, value in
            guard let rule = value as? [String: Any] else { throw Failure(description: "patterns[\(index)] is not an object") }
            return try compile(rule, path: "patterns[\(index)]")
        }
        for id in rules.indices {
            if case .include(let reference) = rules[id].kind, reference != "$self", reference != "$base" {
                guard reference.hasPrefix("#"), repository[String(reference.dropFirst())] != nil else {
                    throw Failure(description: "\(rules[id].path): include '\(reference)' names no rule of the repository")
                }
            }
        }
        for id in rules.indices { flattened[id] = try flatten(rules[id].patterns, seen: []) }
        flattened[-1] = try flatten(rootPatterns, seen: [])
        scanners[-1] = try scanner(for: nil)
        for id in rules.indices {
            if case .beginEnd = rules[id].kind { scanners[id] = try scanner(for: id) }
        }
    }

    private mutating func compile(_ object: [String: Any], path: String) throws -> Int {
        for key in object.keys where !Self.ruleKeys.contains(key) {
            throw Failure(description: "\(path): key '\(key)' is not supported by this tokenizer")
        }
        let name = object["name"] as? String
        let kind: Rule.Kind
        if let include = object["include"] as? String {
            kind = .include(include)
        } else if let match = object["match"] as? String {
            kind = .match(try Self.checked(match, path: "\(path).match"), captures: try Self.captures(object["captures"], path: path))
        } else if let begin = object["begin"] as? String {
            guard let end = object["end"] as? String else { throw Failure(description: "\(path): 'begin' without 'end'") }
            let both = try Self.captures(object["captures"], path: path)
            kind = .beginEnd(begin: try Self.checked(begin, path: "\(path).begin"), end: try Self.checked(end, path: "\(path).end"),
                             contentName: object["contentName"] as? String,
                             beginCaptures: object["beginCaptures"] == nil ? both : try Self.captures(object["beginCaptures"], path: path),
                             endCaptures: object["endCaptures"] == nil ? both : try Self.captures(object["endCaptures"], path: path))
        } else if object["patterns"] != nil {
            kind = .group
        } else {
            throw Failure(description: "\(path): a rule needs 'match', 'begin', 'include' or 'patterns'")
        }
        let id = rules.count
        rules.append(Rule(kind: kind, name: name, path: path))
        if let patterns = object["patterns"] {
            guard let list = patterns as? [Any] else { throw Failure(description: "\(path).patterns is not an array") }
            var ids: [Int] = []
            for (index, value) in list.enumerated() {
                guard let rule = value as? [String: Any] else { throw Failure(description: "\(path).patterns[\(index)] is not an object") }
                ids.append(try compile(rule, path: "\(path).patterns[\(index)]"))
            }
            rules[id].patterns = ids
        }
        return id
    }

    private static func captures(_ value: Any?, path: String) throws -> [Int: String] {
        guard let value else { return [:] }
        guard let object = value as? [String: Any] else { throw Failure(description: "\(path): captures must be an object") }
        var result: [Int: String] = [:]
        for (key, capture) in object {
            guard let index = Int(key), let capture = capture as? [String: Any] else {
                throw Failure(description: "\(path): capture '\(key)' must be a number with an object")
            }
            for captureKey in capture.keys where captureKey != "name" {
                throw Failure(description: "\(path): capture \(key) has '\(captureKey)', which this tokenizer does not support")
            }
            if let name = capture["name"] as? String { result[index] = name }
        }
        return result
    }

    /// The constructs Oniguruma and ICU read differently, or that this tokenizer does not model.
    static let unsupported: [(pattern: String, why: String)] = [
        (#"\\[GAzZ]"#, "\\G, \\A, \\z and \\Z anchor to the previous match or the whole text"),
        (#"\\[hH]"#, "\\h is a hex digit in Oniguruma and horizontal space in ICU"),
        (#"\[:[a-z]+:\]"#, "POSIX brackets are read differently"),
        (#"\\[1-9]|\\k<"#, "a backreference (to the begin match, in an end pattern) is not modelled"),
        (#"\(\?[imsx-]+\)"#, "an inline option changes the rest of the pattern, which the scanner joins with others"),
    ]

    /// `source`, checked: a valid regex of the common subset.
    static func checked(_ source: String, path: String) throws -> String {
        // An escaped backslash cannot start an escape: look at the text with `\\` removed.
        let unescaped = source.replacingOccurrences(of: #"\\"#, with: "")
        for (pattern, why) in unsupported where unescaped.range(of: pattern, options: .regularExpression) != nil {
            throw Failure(description: "\(path): /\(source)/ uses what this tokenizer does not support: \(why)")
        }
        guard source.utf16.count + 2 <= longestPattern else {
            throw Failure(description: "\(path): /\(source)/ is longer than \(longestPattern - 2) characters, which NSRegularExpression leaks on Linux; split the rule")
        }
        do {
            _ = try NSRegularExpression(pattern: source)
            return source
        } catch {
            throw Failure(description: "\(path): /\(source)/ is not a valid regular expression: \(error)")
        }
    }

    private func flatten(_ patterns: [Int], seen: Set<String>) throws -> [Int] {
        var result: [Int] = []
        for id in patterns {
            switch rules[id].kind {
            case .include(let reference):
                if reference == "$self" || reference == "$base" {
                    guard !seen.contains(reference) else { continue }
                    result += try flatten(rootPatterns, seen: seen.union([reference]))
                } else {
                    let key = String(reference.dropFirst())
                    guard !seen.contains(key), let target = repository[key] else { continue }
                    result += try flatten([target], seen: seen.union([key]))
                }
            case .group:
                result += try flatten(rules[id].patterns, seen: seen)
            case .match, .beginEnd:
                result.append(id)
            }
        }
        return result
    }

    /// What is tried at each position inside `rule` (nil: at the top level): its end, then its
    /// patterns, joined into regexes `(END)|(P1)|(P2)…`. An alternation finds the leftmost
    /// position where any alternative matches and, there, the first alternative in order: the
    /// rule TextMate applies to separate regexes (the leftmost match wins, the earlier on a tie),
    /// in one search instead of one per pattern. Each joined regex stays within 256 UTF-16 units:
    /// swift-corelibs-foundation (Swift 6.3.1) never frees the copy of a longer pattern that
    /// `NSRegularExpression` makes (1542 bytes lost for three 257-character patterns under
    /// LeakSanitizer), so longer ones are split into chunks, searched in order.
    struct Scanner {
        struct Chunk {
            var regex: NSRegularExpression
            /// Per alternative: its rule (nil for the end), the group that wraps it, its own groups.
            var alternatives: [(rule: Int?, group: Int, groups: Int)]
        }
        var chunks: [Chunk]
    }

    /// The longest pattern `NSRegularExpression` takes without leaking its copy (see `Scanner`).
    static let longestPattern = 256

    func scanner(for rule: Int?) throws -> Scanner {
        var chunks: [Scanner.Chunk] = []
        var sources: [String] = []
        var alternatives: [(rule: Int?, group: Int, groups: Int)] = []
        var group = 1
        func close() throws {
            guard !sources.isEmpty else { return }
            chunks.append(.init(regex: try NSRegularExpression(pattern: sources.joined(separator: "|")), alternatives: alternatives))
            sources = []
            alternatives = []
            group = 1
        }
        func add(_ source: String, rule: Int?) throws {
            let wrapped = "(" + source + ")"
            if !sources.isEmpty, (sources + [wrapped]).joined(separator: "|").utf16.count > Self.longestPattern { try close() }
            let groups = try NSRegularExpression(pattern: source).numberOfCaptureGroups
            sources.append(wrapped)
            alternatives.append((rule, group, groups))
            group += groups + 1
        }
        if let rule, case .beginEnd(_, let end, _, _, _) = rules[rule].kind { try add(end, rule: nil) }
        for candidate in flattened[rule ?? -1] ?? [] {
            switch rules[candidate].kind {
            case .match(let source, _), .beginEnd(let source, _, _, _, _): try add(source, rule: candidate)
            case .include, .group: break
            }
        }
        try close()
        return Scanner(chunks: chunks)
    }
}

/// One token of a line: a range of UTF-16 offsets and its scopes, outermost first.
struct Token: Equatable {
    var start: Int
    var end: Int
    var scopes: [String]
}

struct TokenizedLine {
    var text: String
    var tokens: [Token]
    /// The grammar stopped advancing on this line (the rest of it has the scopes it had).
    var stalled: Bool

    /// The scopes of the character at UTF-16 offset `offset`.
    func scopes(at offset: Int) -> [String] {
        tokens.first { $0.start <= offset && offset < $0.end }?.scopes ?? []
    }

    /// The scopes of the first occurrence of `text` at or after `from` (its first character).
    func scopes(of text: String, from: Int = 0) -> [String] {
        let line = self.text as NSString
        let found = line.range(of: text, range: NSRange(location: from, length: line.length - from))
        guard found.location != NSNotFound else { return ["<'\(text)' not on the line>"] }
        return scopes(at: found.location)
    }

    /// The scopes of the first occurrence of `word` that is a word of its own (no letter, digit
    /// or `_` on either side).
    func scopes(ofWord word: String) -> [String] {
        let pattern = "(?<![A-Za-z0-9_])" + NSRegularExpression.escapedPattern(for: word) + "(?![A-Za-z0-9_])"
        guard let regex = try? NSRegularExpression(pattern: pattern),
              let found = regex.firstMatch(in: text, range: NSRange(location: 0, length: (text as NSString).length)) else {
            return ["<word '\(word)' not on the line>"]
        }
        return scopes(at: found.range.location)
    }
}

/// Tokenizes lines one after another, keeping the open rules between them.
struct Tokenizer {
    private struct Frame {
        var rule: Int
        /// The scopes of the rule's begin and end (its name included).
        var scopes: [String]
        /// The scopes of what is between them (its contentName included).
        var contentScopes: [String]
        var enterLine: Int
        /// Where the search that found its begin started (vscode-textmate's enterPos).
        var enterPosition: Int
    }

    let grammar: Grammar
    private var stack: [Frame] = []
    private var lineNumber = 0

    init(grammar: Grammar) {
        self.grammar = grammar
    }

    /// Whether a rule is still open (a string, a block or a statement not ended).
    var openRules: [String] { stack.map { grammar.rules[$0.rule].path } }

    static func tokenize(_ text: String, grammar: Grammar) -> [TokenizedLine] {
        var tokenizer = Tokenizer(grammar: grammar)
        var lines = text.components(separatedBy: "\n")
        if lines.last == "" { lines.removeLast() }
        return lines.map { tokenizer.tokenize(line: $0) }
    }

    /// A match of one alternative of a scanner: its groups, 0 the whole match.
    struct Match {
        var ranges: [NSRange]
        var location: Int { ranges[0].location }
        var end: Int { ranges[0].location + ranges[0].length }
        var isEmpty: Bool { ranges[0].length == 0 }
    }

    mutating func tokenize(line: String) -> TokenizedLine {
        lineNumber += 1
        let string = line + "\n"
        let text = string as NSString
        let lineLength = line.utf16.count
        let length = lineLength + 1
        var tokens: [Token] = []
        // The last search of each regex on this line: a match at or after the position searched
        // from is still the first one from any later position up to it (no \\G in the grammar).
        var cache: [ObjectIdentifier: (from: Int, match: NSTextCheckingResult?)] = [:]
        func search(_ regex: NSRegularExpression, from position: Int) -> NSTextCheckingResult? {
            let key = ObjectIdentifier(regex)
            if let cached = cache[key], cached.from <= position {
                guard let match = cached.match else { return nil }
                if match.range.location >= position { return match }
            }
            let match = regex.firstMatch(in: string, options: [.withTransparentBounds, .withoutAnchoringBounds],
                                         range: NSRange(location: position, length: length - position))
            cache[key] = (position, match)
            return match
        }
        func emit(_ start: Int, _ end: Int, _ scopes: [String]) {
            let end = min(end, lineLength)
            guard start < end else { return }
            if let last = tokens.last, last.end == start, last.scopes == scopes {
                tokens[tokens.count - 1].end = end
            } else {
                tokens.append(Token(start: start, end: end, scopes: scopes))
            }
        }
        /// The match's tokens: `base`, and inside each capture its scopes (captures nest by index).
        func apply(_ match: Match, base: [String], captures: [Int: String]) {
            var named: [(range: NSRange, scopes: [String])] = []
            for index in captures.keys.sorted() where index < match.ranges.count {
                let range = match.ranges[index]
                guard range.location != NSNotFound, range.length > 0, let name = captures[index] else { continue }
                named.append((range, Self.scopes(name, match: match, in: text)))
            }
            var bounds = Set([match.location, match.end])
            for capture in named { bounds.insert(capture.range.location); bounds.insert(capture.range.location + capture.range.length) }
            let sorted = bounds.sorted()
            for (from, to) in zip(sorted, sorted.dropFirst()) {
                var scopes = base
                for capture in named where capture.range.location <= from && to <= capture.range.location + capture.range.length {
                    scopes += capture.scopes
                }
                emit(from, to, scopes)
            }
        }

        var position = 0
        var stalled = false
        while position < length {
            let top = stack.last
            let current = top?.contentScopes ?? [grammar.scopeName]
            var found: (result: NSTextCheckingResult, chunk: Grammar.Scanner.Chunk)?
            for chunk in grammar.scanners[top?.rule ?? -1]?.chunks ?? [] {
                guard let result = search(chunk.regex, from: position) else { continue }
                if found == nil || result.range.location < found!.result.range.location { found = (result, chunk) }
            }
            guard let (result, chunk) = found,
                  let alternative = chunk.alternatives.first(where: { result.range(at: $0.group).location != NSNotFound })
            else { break }
            let match = Match(ranges: (0...alternative.groups).map { result.range(at: alternative.group + $0) })
            emit(position, match.location, current)
            guard let rule = alternative.rule else {
                // The open rule ends.
                let frame = stack.removeLast()
                if case .beginEnd(_, _, _, _, let endCaptures) = grammar.rules[frame.rule].kind {
                    apply(match, base: frame.scopes, captures: endCaptures)
                }
                if match.isEmpty && frame.enterLine == lineNumber && frame.enterPosition == position {
                    stack.append(frame)
                    stalled = true
                    break
                }
                position = match.end
                continue
            }
            let ruleScopes = current + (grammar.rules[rule].name.map { Self.scopes($0, match: match, in: text) } ?? [])
            switch grammar.rules[rule].kind {
            case .match(_, let captures):
                apply(match, base: ruleScopes, captures: captures)
                if match.isEmpty { stalled = true }
            case .beginEnd(_, _, let contentName, let beginCaptures, _):
                apply(match, base: ruleScopes, captures: beginCaptures)
                if match.isEmpty, let top, top.rule == rule, top.enterPosition == position, top.enterLine == lineNumber {
                    stalled = true
                }
                let content = ruleScopes + (contentName.map { Self.scopes($0, match: match, in: text) } ?? [])
                stack.append(Frame(rule: rule, scopes: ruleScopes, contentScopes: content, enterLine: lineNumber, enterPosition: position))
            case .include, .group:
                break
            }
            if stalled { break }
            position = match.end
        }
        emit(position, length, stack.last?.contentScopes ?? [grammar.scopeName])
        return TokenizedLine(text: line, tokens: tokens, stalled: stalled)
    }

    /// A scope name with `$n` replaced by the text of capture n; a name may hold several scopes.
    static func scopes(_ name: String, match: Match, in text: NSString) -> [String] {
        var resolved = name
        if name.contains("$") {
            for index in (1..<max(match.ranges.count, 1)).reversed() {
                let range = match.ranges[index]
                let value = range.location == NSNotFound ? "" : text.substring(with: range)
                resolved = resolved.replacingOccurrences(of: "$\(index)", with: value)
            }
        }
        return resolved.split(separator: " ").map(String.init)
    }
}
