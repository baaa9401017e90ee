import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import MarbleDiagram
import MarbleSpec
import Testing

/// Runs a `.marble` source and returns the report of the test named `name` (the first test without a name).
func report(_ source: String, test name: String? = nil, path: String = "diagram.marble") throws -> TestReport {
    let file = MarbleRunner.run(source: source, path: path)
    try #require(file.allDiagnostics.isEmpty, "the source has errors: \(file.allDiagnostics.map(\.message))")
    let test = name.flatMap { name in file.tests.first { $0.name == name } } ?? file.tests.first
    return try #require(test)
}

/// The SVG of the first test (or the test named `name`) of a source.
func svg(_ source: String, test name: String? = nil, values: [NamedValue] = [], options: DiagramOptions = DiagramOptions(),
         path: String = "diagram.marble") throws -> String {
    MarbleDiagram.svg(for: try report(source, test: name, path: path), path: path, values: values, options: options)
}

/// An element of a parsed SVG document.
final class Node {
    let name: String
    let attributes: [String: String]
    var children: [Node] = []
    var text = ""
    weak var parent: Node?

    init(name: String, attributes: [String: String]) {
        self.name = name
        self.attributes = attributes
    }

    /// This node and every node below it, in document order.
    var all: [Node] { [self] + children.flatMap(\.all) }

    func elements(_ name: String) -> [Node] { all.filter { $0.name == name } }

    /// Elements whose `class` attribute is `name`.
    func classed(_ name: String) -> [Node] { all.filter { $0.attributes["class"] == name } }

    /// The text of this element and its descendants.
    var allText: String { text + children.map(\.allText).joined() }

    /// The `<title>` child's text.
    var title: String? { children.first { $0.name == "title" }?.text }

    func number(_ attribute: String) -> Double? { attributes[attribute].flatMap(Double.init) }
}

/// Parses XML with Foundation's parser; fails the test when it is not well-formed.
final class TreeBuilder: NSObject, XMLParserDelegate {
    var root: Node?
    private var stack: [Node] = []
    var error: Error?

    func parser(_ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?, qualifiedName qName: String?,
                attributes attributeDict: [String: String] = [:]) {
        let node = Node(name: elementName, attributes: attributeDict)
        node.parent = stack.last
        stack.last?.children.append(node)
        if root == nil { root = node }
        stack.append(node)
    }

    func parser(_ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName qName: String?) {
        stack.removeLast()
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) {
        stack.last?.text += string
    }

    func parser(_ parser: XMLParser, parseErrorOccurred parseError: Error) {
        error = parseError
    }
}

func parseXML(_ text: String) throws -> Node {
    let parser = XMLParser(data: Data(text.utf8))
    let builder = TreeBuilder()
    parser.delegate = builder
    let ok = parser.parse()
    try #require(ok, "not well-formed XML: \(String(describing: builder.error ?? parser.parserError))")
    return try #require(builder.root)
}

/// Checks what every diagram must be: well-formed, an `<svg>` with a viewBox and size, a title
/// and a description first, no scripts, no external references, no event handlers.
func checkStandalone(_ text: String, sourceLocation: Testing.SourceLocation = #_sourceLocation) throws {
    let root = try parseXML(text)
    #expect(root.name == "svg", sourceLocation: sourceLocation)
    #expect(root.attributes["xmlns"] == "http://www.w3.org/2000/svg", sourceLocation: sourceLocation)
    let viewBox = try #require(root.attributes["viewBox"], sourceLocation: sourceLocation)
    let box = viewBox.split(separator: " ").compactMap { Double($0) }
    #expect(box.count == 4 && box[2] > 0 && box[3] > 0, sourceLocation: sourceLocation)
    #expect(root.attributes["width"] == SVGNumber.format(box[2]) && root.attributes["height"] == SVGNumber.format(box[3]), sourceLocation: sourceLocation)
    #expect(root.children.first?.name == "title", sourceLocation: sourceLocation)
    #expect(root.children.dropFirst().first?.name == "desc", sourceLocation: sourceLocation)
    // The rules below are checked for every node and attribute of every diagram drawn: the
    // faults are gathered and reported by one expectation (an expectation per attribute made the
    // catalogue's check cost minutes in a debug build).
    var problems: [String] = []
    for node in root.all {
        if ["script", "foreignObject", "image", "use", "a", "iframe"].contains(node.name) { problems.append("\(node.name) element") }
        if node.name == "style" {
            // Only the dark-scheme rules of an adaptive diagram, right after the description.
            if !(node.parent === root && root.children.firstIndex { $0 === node } == 2) { problems.append("a style element not right after the description") }
            _ = darkSchemeRules(text, sourceLocation: sourceLocation)
        }
        for (name, value) in node.attributes {
            if name.lowercased().hasPrefix("on") { problems.append("event handler \(name)") }
            if name.hasSuffix("href") { problems.append("reference \(name)") }
            if value.contains("url(") { problems.append("url() in \(name)") }
        }
        if let family = node.attributes["font-family"], !(family.hasSuffix("monospace") || family.hasSuffix("sans-serif")) {
            problems.append("a font list that does not end in a generic family: \(family)")
        }
    }
    #expect(problems.isEmpty, Comment(rawValue: problems.joined(separator: "\n")), sourceLocation: sourceLocation)
}

/// One rule of an adaptive diagram's `<style>`: `[fill="#ffffff"] { fill: #0d1117 }`.
struct DarkSchemeRule: Equatable {
    var property: String
    var light: String
    var dark: String
}

/// The rules of an adaptive diagram's `<style>`, checked line by line against the only shape
/// they may have: the media query, then one `[P="#rrggbb"] { P: #rrggbb }` per line, `P` being
/// `fill` or `stroke` on both sides, each selector once. No style: no rules.
func darkSchemeRules(_ svg: String, sourceLocation: Testing.SourceLocation = #_sourceLocation) -> [DarkSchemeRule] {
    let lines = svg.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
    guard let open = lines.firstIndex(of: "<style>") else { return [] }
    guard let close = lines.firstIndex(of: "</style>"), close > open + 2 else {
        Issue.record("a <style> without its end", sourceLocation: sourceLocation)
        return []
    }
    #expect(lines[open + 1] == "@media (prefers-color-scheme: dark) {", sourceLocation: sourceLocation)
    #expect(lines[close - 1] == "}", sourceLocation: sourceLocation)
    let shape = /\[(fill|stroke)="(#[0-9a-f]{6})"\] \{ (fill|stroke): (#[0-9a-f]{6}) \}/
    var rules: [DarkSchemeRule] = []
    for line in lines[(open + 2)..<(close - 1)] {
        guard let match = line.wholeMatch(of: shape), match.1 == match.3 else {
            Issue.record("not a dark-scheme rule: \(line)", sourceLocation: sourceLocation)
            continue
        }
        let rule = DarkSchemeRule(property: String(match.1), light: String(match.2), dark: String(match.4))
        #expect(!rules.contains { $0.property == rule.property && $0.light == rule.light }, "\(line) twice", sourceLocation: sourceLocation)
        rules.append(rule)
    }
    return rules
}

/// What a browser in dark mode draws from an adaptive diagram, as the document it would be:
/// every `fill` or `stroke` attribute that a rule matches gets the rule's colour, and the
/// `<style>` is gone.
func applyingDarkScheme(_ svg: String) -> String {
    let rules = darkSchemeRules(svg)
    let text = withoutStyle(svg)
    guard !rules.isEmpty else { return text }
    var dark: [String: String] = [:]
    for rule in rules { dark[rule.property + "=" + rule.light] = rule.dark }
    // One pass over the attributes (` NAME="VALUE"`), each one changed at most once, so that a
    // dark colour that is also a light one is not changed again. (Replacing each rule's text in
    // turn cost a third of the catalogue's drawing check.)
    let bytes = Array(text.utf8)
    let quote = UInt8(ascii: "\""), equals = UInt8(ascii: "="), space = UInt8(ascii: " ")
    func isNameByte(_ byte: UInt8) -> Bool { (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || byte == UInt8(ascii: "-") }
    var result: [UInt8] = []
    result.reserveCapacity(bytes.count)
    var index = 0
    while index < bytes.count {
        if bytes[index] == equals, index + 1 < bytes.count, bytes[index + 1] == quote {
            var start = index
            while start > 0, isNameByte(bytes[start - 1]) { start -= 1 }
            if start > 0, start < index, bytes[start - 1] == space, let close = bytes[(index + 2)...].firstIndex(of: quote),
               let colour = dark[String(decoding: bytes[start..<index], as: UTF8.self) + "=" + String(decoding: bytes[(index + 2)..<close], as: UTF8.self)] {
                result += [equals, quote] + Array(colour.utf8) + [quote]
                index = close + 1
                continue
            }
        }
        result.append(bytes[index])
        index += 1
    }
    return String(decoding: result, as: UTF8.self)
}

/// An adaptive diagram without its `<style>`.
func withoutStyle(_ svg: String) -> String {
    var lines = svg.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    if let open = lines.firstIndex(of: "  <style>"), let close = lines.firstIndex(of: "  </style>") { lines.removeSubrange(open...close) }
    return lines.joined(separator: "\n")
}

/// How the writer prints numbers (hundredths, no trailing zeros), for comparing attributes.
enum SVGNumber {
    static func format(_ value: Double) -> String {
        let hundredths = Int((value * 100).rounded())
        if hundredths % 100 == 0 { return String(hundredths / 100) }
        return String(Double(hundredths) / 100)
    }
}

/// The package's root folder.
let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
