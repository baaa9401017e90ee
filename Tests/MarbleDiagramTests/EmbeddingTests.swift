import Foundation
import MarbleDiagram
import MarbleSpec
import Testing

/// The options for embedding a diagram: the adaptive theme, `bare` and `scale`.
@Suite("embedding options")
struct EmbeddingTests {
    static let sources = [DiagramTests.debounce, DiagramTests.switchToLatest, """
        test "expected too early, with a cancelled subscriber and a failure"
          hot    input   -1-2-3-#
          let    tens  = input.map { $0 * 10 }
          subscribe tens ^-----!
          expect tens    -{10}---
        """]

    @Test(arguments: sources)
    func theAdaptiveDiagramIsTheLightOneThatTurnsIntoTheDarkOne(_ source: String) throws {
        let adaptive = try svg(source, options: DiagramOptions(theme: .auto))
        try checkStandalone(adaptive)
        let rules = darkSchemeRules(adaptive)
        #expect(!rules.isEmpty)
        #expect(withoutStyle(adaptive) == (try svg(source, options: DiagramOptions(theme: .light))))
        #expect(applyingDarkScheme(adaptive) == (try svg(source, options: DiagramOptions(theme: .dark))))
        // A rule for each colour used, and no rule for a colour the document does not use.
        for rule in rules { #expect(withoutStyle(adaptive).contains(" \(rule.property)=\"\(rule.light)\"")) }
    }

    @Test func aFixedThemeHasNoStyle() throws {
        for theme in [DiagramOptions.Theme.light, .dark] {
            #expect(!(try svg(DiagramTests.debounce, options: DiagramOptions(theme: theme))).contains("<style>"))
        }
    }

    @Test func aColourGivenForTheBackgroundStaysInDarkMode() throws {
        let adaptive = try svg(DiagramTests.debounce, options: DiagramOptions(theme: .auto, background: .color("ivory")))
        #expect(applyingDarkScheme(adaptive).contains("<rect width=\"100%\" height=\"100%\" fill=\"ivory\"/>"))
    }

    @Test func bareLeavesOutTitleSubtitleAndRuler() throws {
        let full = try parseXML(try svg(DiagramTests.debounce))
        let bareText = try svg(DiagramTests.debounce, options: DiagramOptions(bare: true))
        try checkStandalone(bareText)
        let bare = try parseXML(bareText)
        #expect(!full.classed("time").isEmpty)
        #expect(bare.classed("time").isEmpty)
        let name = try #require(full.title)
        #expect(bare.title == name, "the accessible title stays")
        #expect(full.elements("text").contains { $0.allText == name })
        #expect(!bare.elements("text").contains { $0.allText == name || $0.allText.contains("diagram.marble") })
        // The lanes are the same, moved up by the header.
        #expect(bare.classed("stream").count == full.classed("stream").count)
        let fullHeight = try #require(full.number("height")), bareHeight = try #require(bare.number("height"))
        #expect(bareHeight < fullHeight - 40)
    }

    @Test func scaleSizesTheDocumentNotTheDrawing() throws {
        let normal = try parseXML(try svg(DiagramTests.debounce))
        let double = try parseXML(try svg(DiagramTests.debounce, options: DiagramOptions(scale: 2)))
        #expect(double.attributes["viewBox"] == normal.attributes["viewBox"])
        #expect(double.number("width") == (normal.number("width") ?? 0) * 2)
        #expect(double.number("height") == (normal.number("height") ?? 0) * 2)
        #expect(try svg(DiagramTests.debounce, options: DiagramOptions(scale: 1.5)).contains(" width=\"\(SVGNumber.format((normal.number("width") ?? 0) * 1.5))\""))
    }
}
