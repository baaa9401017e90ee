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
    try #require(file.diagnostics.isEmpty, "the source has errors: \(file.diagnostics.map(\.message))")
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
    for node in root.all {
        #expect(!["script", "foreignObject", "image", "use", "a", "iframe", "style"].contains(node.name), "\(node.name) element", sourceLocation: sourceLocation)
        for (name, value) in node.attributes {
            #expect(!name.lowercased().hasPrefix("on"), "event handler \(name)", sourceLocation: sourceLocation)
            #expect(!name.hasSuffix("href"), "reference \(name)", sourceLocation: sourceLocation)
            #expect(!value.contains("url("), "url() in \(name)", sourceLocation: sourceLocation)
        }
        if node.attributes["font-family"] != nil {
            #expect(node.attributes["font-family"]?.hasSuffix("monospace") == true || node.attributes["font-family"]?.hasSuffix("sans-serif") == true,
                    "a font list ends in a generic family", sourceLocation: sourceLocation)
        }
    }
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
