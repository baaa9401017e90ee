import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import Testing
@testable import MarblesCLI

/// `marbles-svg` for embedding: themes, `--bare`, `--scale`, relative paths, PNG, the gallery.
@Suite("marbles-svg embedding kit")
struct EmbeddingKitTests {
    func contents(_ path: String) -> String? {
        FileManager.default.contents(atPath: path).map { String(decoding: $0, as: UTF8.self) }
    }

    func files(_ folder: String) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder).sorted()
    }

    @Test func theDefaultIsOneAdaptiveDiagram() throws {
        let sandbox = try Sandbox(["pass.marble": Samples.passing])
        let run = marblesSVG(sandbox.path("pass.marble"), "-o", "-")
        #expect(run.code == 0)
        #expect(run.stdout.contains("<style>\n    @media (prefers-color-scheme: dark) {\n"))
        #expect(run.stdout.contains("[fill=\"#ffffff\"] { fill: #0d1117 }"))
        // The attributes are the light theme's, for viewers that read no CSS.
        #expect(run.stdout.contains("<rect width=\"100%\" height=\"100%\" fill=\"#ffffff\"/>"))
        for theme in ["light", "dark"] {
            #expect(!marblesSVG(sandbox.path("pass.marble"), "-o", "-", "--theme", theme).stdout.contains("<style>"))
        }
    }

    @Test func themeBothWritesTheLightAndTheDarkFile() throws {
        let sandbox = try Sandbox(["pass.marble": Samples.passing])
        let out = sandbox.path("out")
        let run = marblesSVG(sandbox.path("pass.marble"), "-o", out, "--theme", "both")
        #expect(run.code == 0)
        #expect(try files(out) == ["pass--map-doubles.svg", "pass--map-doubles~dark.svg"])
        #expect(run.stdout.hasPrefix("✓ \(out)/pass--map-doubles.svg \(out)/pass--map-doubles~dark.svg\n"))
        let light = try #require(contents(out + "/pass--map-doubles.svg"))
        let dark = try #require(contents(out + "/pass--map-doubles~dark.svg"))
        #expect(light.contains("fill=\"#ffffff\"") && !light.contains("<style>"))
        #expect(dark.contains("fill=\"#0d1117\"") && !dark.contains("fill=\"#ffffff\""))
        let toStandardOutput = marblesSVG(sandbox.path("pass.marble"), "-o", "-", "--theme", "both")
        #expect(toStandardOutput.code == 2)
        #expect(toStandardOutput.stderr.hasPrefix("marbles-svg: error: --theme both needs an output folder, not standard output\n"))
        #expect(marblesSVG("--theme", "bothh").stderr.hasPrefix("marbles-svg: error: unknown theme 'bothh'; did you mean 'both'? (known: auto, light, dark, both)\n"))
    }

    @Test func theSubtitleNamesTheFileRelativeToTheWorkingDirectory() throws {
        let sandbox = try Sandbox(["specs/maps/pass.marble": Samples.passing])
        let inside = marblesSVG([sandbox.path("specs/maps/pass.marble"), "-o", "-"], workingDirectory: sandbox.path())
        #expect(inside.stdout.contains(">specs/maps/pass.marble:1 · 1 frame = 1ms</text>"))
        #expect(inside.stdout.contains(" in specs/maps/pass.marble, "), "the description too")
        #expect(!inside.stdout.contains(sandbox.path()))
        // Outside the working directory: the file's name alone.
        let outside = marblesSVG([sandbox.path("specs/maps/pass.marble"), "-o", "-"], workingDirectory: sandbox.path("specs/other"))
        #expect(outside.stdout.contains(">pass.marble:1 · 1 frame = 1ms</text>"))
        #expect(!outside.stdout.contains(sandbox.path()))
        #expect(DiagramFiles.shownPath("/a/b/c.marble", workingDirectory: "/a") == "b/c.marble")
        #expect(DiagramFiles.shownPath("/a/b/c.marble", workingDirectory: "/a/") == "b/c.marble")
        #expect(DiagramFiles.shownPath("/ab/c.marble", workingDirectory: "/a") == "c.marble")
        #expect(DiagramFiles.shownPath("b/./c.marble", workingDirectory: "/a") == "b/c.marble")
    }

    @Test func runSVGFoldersNameFilesWithoutTheirAbsolutePath() throws {
        let sandbox = try Sandbox(["fail.marble": Samples.failing])
        let out = sandbox.path("out")
        _ = marbles("run", sandbox.path("fail.marble"), "--svg", out)
        let svg = try #require(contents(out + "/fail--map-doubles.svg"))
        #expect(svg.contains(">fail.marble:1 · "))
        #expect(!svg.contains(sandbox.path()))
    }

    @Test func bareAndScaleReachTheDiagram() throws {
        let sandbox = try Sandbox(["pass.marble": Samples.passing])
        let full = marblesSVG(sandbox.path("pass.marble"), "-o", "-").stdout
        let bare = marblesSVG(sandbox.path("pass.marble"), "-o", "-", "--bare").stdout
        #expect(full.contains(">map doubles</text>") && full.contains("class=\"time\""))
        #expect(!bare.contains(">map doubles</text>") && !bare.contains("class=\"time\"") && !bare.contains("pass.marble:1"))
        #expect(bare.contains("<title>map doubles</title>"))
        let scaled = marblesSVG(sandbox.path("pass.marble"), "-o", "-", "--scale=2").stdout
        let size = DiagramFiles.size(of: full), doubled = DiagramFiles.size(of: scaled)
        #expect(size.width > 0 && doubled.width == 2 * size.width && doubled.height == 2 * size.height)
        #expect(scaled.contains("viewBox=\"0 0 \(size.width) \(size.height)\""))
        for bad in ["0", "9", "x", "nan", "-1"] {
            let run = marblesSVG("--scale", bad)
            #expect(run.code == 2)
            #expect(run.stderr.hasPrefix("marbles-svg: error: the scale must be a number from 0.25 to 8 (2 doubles the size), not '\(bad)'\n"))
        }
        #expect(marblesSVG("--bare=yes").stderr.hasPrefix("marbles-svg: error: option '--bare' takes no value\n"))
    }

    @Test func pngWithoutRsvgConvertSaysSoAndWritesNothing() throws {
        let sandbox = try Sandbox(["pass.marble": Samples.passing])
        let out = sandbox.path("out")
        let run = marblesSVG([sandbox.path("pass.marble"), "-o", out, "--png"], environment: ["PATH": sandbox.path("no-such-folder")])
        #expect(run.code == 2)
        #expect(run.stderr == "marbles-svg: error: --png needs rsvg-convert (librsvg), which is not on PATH; "
                + "install it (apt-get install librsvg2-bin, brew install librsvg) or leave out --png\n")
        #expect(!FileManager.default.fileExists(atPath: out))
        #expect(marblesSVG("--png", "-o", "-").stderr.hasPrefix("marbles-svg: error: --png needs an output folder, not standard output\n"))
    }

    static let converter = PNGConverter.find(environment: ProcessInfo.processInfo.environment)

    @Test(.enabled(if: converter != nil, "rsvg-convert is not installed (apt-get install librsvg2-bin); the PNG output is untested here"))
    func pngIsDrawnAtTheScaledSize() throws {
        let sandbox = try Sandbox(["pass.marble": Samples.passing])
        let out = sandbox.path("out")
        let run = marblesSVG([sandbox.path("pass.marble"), "-o", out, "--png", "--scale", "2", "--theme", "both"], environment: ProcessInfo.processInfo.environment)
        #expect(run.code == 0, "\(run.stderr)")
        #expect(try files(out) == ["pass--map-doubles.png", "pass--map-doubles.svg", "pass--map-doubles~dark.png", "pass--map-doubles~dark.svg"])
        let svg = try #require(contents(out + "/pass--map-doubles.svg"))
        let png = try #require(FileManager.default.contents(atPath: out + "/pass--map-doubles.png"))
        // The PNG signature, then the IHDR chunk: width and height, big-endian.
        #expect(png.prefix(8) == Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]))
        let bytes = [UInt8](png)
        func big(_ at: Int) -> Int { bytes[at..<(at + 4)].reduce(0) { $0 << 8 | Int($1) } }
        let size = DiagramFiles.size(of: svg)
        #expect((big(16), big(20)) == (size.width, size.height))
        // The light and the dark PNG differ (the adaptive one is drawn light: rsvg-convert reads no media query).
        #expect(FileManager.default.contents(atPath: out + "/pass--map-doubles~dark.png") != png)
    }

    @Test func theGalleryHasContentsSearchFailuresFirstAndEachDiagramOnceWithItsSource() throws {
        let sandbox = try Sandbox(["operators/debounce.marble": Samples.passing, "operators/merge.marble": Samples.failing,
                                   "guides/notes.marble": "frame 100ms\n\n" + Samples.passing])
        let out = sandbox.path("gallery")
        let run = marblesSVG([sandbox.path(), "-o", out, "--index", "--theme", "both"], workingDirectory: sandbox.path())
        #expect(run.code == 1)
        let html = try #require(contents(out + "/index.html"))
        try checkWellFormedHTML(html)
        // Contents: failing first, then the catalogue's parts in order, then the other files.
        let failingLink = try #require(html.range(of: "<a href=\"#failing\" class=\"failed\">Failing</a> (1)"))
        let combining = try #require(html.range(of: "<li>Combining publishers\n"))
        let timing = try #require(html.range(of: "<li>Timing\n"))
        let others = try #require(html.range(of: "<li>Other files\n"))
        #expect(failingLink.lowerBound < combining.lowerBound && combining.lowerBound < timing.lowerBound && timing.lowerBound < others.lowerBound)
        #expect(html.contains("<li><a href=\"#file-operators-debounce-marble\">debounce</a> (1)</li>"))
        #expect(html.contains("<section class=\"file\" id=\"file-operators-debounce-marble\">"))
        #expect(html.contains("<input type=\"search\" id=\"search\""))
        #expect(html.contains("@media (prefers-color-scheme: dark)"))
        // The failing diagram comes before every other one, and each diagram is shown once.
        let figures = html.components(separatedBy: "<figure id=\"").dropFirst().map { String($0.prefix { $0 != "\"" }) }
        #expect(figures == ["merge--map-doubles", "debounce--map-doubles", "notes--map-doubles"])
        #expect(html.contains("1 failing test of this file shown under <a href=\"#failing\">Failing</a>."))
        // Light and dark sources, the size of the file, its source beside it.
        let size = DiagramFiles.size(of: try #require(contents(out + "/notes--map-doubles.svg")))
        #expect(html.contains("<picture><source media=\"(prefers-color-scheme: dark)\" srcset=\"notes--map-doubles~dark.svg\"><img src=\"notes--map-doubles.svg\" width=\"\(size.width)\" height=\"\(size.height)\" alt=\"Marble diagram: map doubles\" loading=\"lazy\"></picture>"))
        #expect(html.contains("<pre><code>frame 100ms\n\ntest &quot;map doubles&quot;\n  hot    input   -1-2-3-|\n  let    doubled = input.map { $0 * 2 }\n  expect doubled -2-4-6-|</code></pre>"))
        #expect(html.contains("data-search=\"map doubles guides/notes.marble notes\""))
        // An adaptive gallery needs no picture element.
        let adaptive = sandbox.path("adaptive")
        _ = marblesSVG([sandbox.path("guides"), "-o", adaptive, "--index"], workingDirectory: sandbox.path())
        let plain = try #require(contents(adaptive + "/index.html"))
        #expect(!plain.contains("<picture>") && plain.contains("<img src=\"notes--map-doubles.svg\" width=\"\(size.width)\""))
    }

    /// The gallery is XHTML-clean enough for an XML parser once its doctype and void elements are closed.
    func checkWellFormedHTML(_ html: String) throws {
        var xml = html.replacingOccurrences(of: "<!DOCTYPE html>\n", with: "")
        xml = xml.replacing(/<(meta|img|source|input)([^>]*)>/) { "<\($0.1)\($0.2)/>" }
        let parser = XMLParser(data: Data(xml.utf8))
        #expect(parser.parse(), "the gallery does not parse: \(String(describing: parser.parserError))")
    }

    @Test func testExcerptsIncludeTheFileLevelLines() {
        let source = "// notes\nframe 10ms\nvalues A = 1\n\ntest \"one\"\n  hot a -A-|\n  expect a -A-|\n\n// between\ntest \"two\"\n  hot b -|\n  expect b -|\n"
        let excerpts = TestExcerpt.excerpts(of: source)
        #expect(excerpts[5] == "frame 10ms\nvalues A = 1\n\ntest \"one\"\n  hot a -A-|\n  expect a -A-|")
        #expect(excerpts[10] == "frame 10ms\nvalues A = 1\n\ntest \"two\"\n  hot b -|\n  expect b -|")
        #expect(TestExcerpt.excerpts(of: "test \"x\n").isEmpty)
    }
}
