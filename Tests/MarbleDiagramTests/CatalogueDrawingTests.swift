import Foundation
import MarbleDiagram
import MarbleSpec
import Testing

/// Every test of the catalogue in `marbles/` draws, and every drawing is a standalone SVG.
@Suite("the catalogue draws")
struct CatalogueDrawingTests {
    static func files() -> [String] {
        let root = packageRoot.appendingPathComponent("marbles", isDirectory: true)
        guard let enumerator = FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil) else { return [] }
        return enumerator.compactMap { ($0 as? URL)?.path }.filter { $0.hasSuffix(".marble") }.sorted()
    }

    /// The catalogue run once, for every test that draws it (each used to run it again).
    static let reports: [FileReport] = files().map { MarbleRunner.run(path: $0) }

    @Test func everyTestOfTheCatalogueRendersAsWellFormedSVG() throws {
        let reports = Self.reports
        #expect(!reports.isEmpty, "no .marble files found under \(packageRoot.path)/marbles")
        var count = 0
        for report in reports {
            let path = report.path
            #expect(report.allDiagnostics.isEmpty, "\(path): \(report.allDiagnostics.map(\.message))")
            for test in report.tests {
                let text = MarbleDiagram.svg(for: test, path: path)
                try checkStandalone(text)
                #expect(text == MarbleDiagram.svg(for: test, path: path), "\(path): \(test.name) is not deterministic")
                // The adaptive diagram is the light one plus a style that, in dark mode, makes it the dark one.
                let adaptive = MarbleDiagram.svg(for: test, path: path, options: DiagramOptions(theme: .auto))
                try checkStandalone(adaptive)
                #expect(withoutStyle(adaptive) == text, "\(path): \(test.name): the adaptive diagram is not the light one")
                #expect(applyingDarkScheme(adaptive) == MarbleDiagram.svg(for: test, path: path, options: DiagramOptions(theme: .dark)),
                        "\(path): \(test.name): the adaptive diagram in dark mode is not the dark one")
                count += 1
            }
        }
        #expect(count > 0)
    }
}
