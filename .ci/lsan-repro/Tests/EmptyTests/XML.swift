import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import Testing

@Test func parseXML() throws {
    let document = try XMLDocument(data: Data("<a><b x=\"1\"/></a>".utf8), options: [])
    #expect(document.rootElement()?.elements(forName: "b").first?.attribute(forName: "x")?.stringValue == "1")
}
