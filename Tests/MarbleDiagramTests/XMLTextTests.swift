import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import MarbleDiagram
import Testing

/// The one escaper behind the SVG writer, the JUnit reporter and the diagram gallery.
@Suite("XMLText.escape: the rules every XML and HTML writer shares")
struct XMLTextTests {
    @Test func markupCharactersBecomeReferencesInBothContexts() {
        for context in [XMLText.Context.content, .attribute] {
            #expect(XMLText.escape(#"a<b>&"c"'d'"#, in: context) == "a&lt;b&gt;&amp;&quot;c&quot;&#39;d&#39;")
        }
    }

    @Test func lineBreaksAndTabsStayInContentAndAreReferencesInAttributes() {
        #expect(XMLText.escape("a\tb\nc\rd") == "a\tb\nc\rd")
        #expect(XMLText.escape("a\tb\nc\rd", in: .attribute) == "a&#9;b&#10;c&#13;d")
    }

    @Test func charactersXMLCannotHoldAreWrittenVisibly() {
        #expect(XMLText.escape("a\u{1B}[0m\u{0}b\u{FFFE}") == "a\\u{1b}[0m\\u{0}b\\u{fffe}")
    }

    @Test func everythingElsePassesThrough() {
        let text = "ümlaut → 🟢 \u{7F} \u{FFFD}"
        #expect(XMLText.escape(text) == text)
        #expect(XMLText.escape(text, in: .attribute) == text)
    }

    /// What the escaper writes, a parser reads back as the original text.
    @Test func aParserReadsBackTheOriginalText() throws {
        let original = "x < y & \"q\" 'r'\nline\ttab"
        let document = try XMLDocument(xmlString: "<e a=\"\(XMLText.escape(original, in: .attribute))\">\(XMLText.escape(original))</e>", options: [])
        let root = try #require(document.rootElement())
        #expect(root.attribute(forName: "a")?.stringValue == original)
        #expect(root.stringValue == original)
    }
}
