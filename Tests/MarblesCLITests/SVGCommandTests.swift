import Foundation
import Testing
@testable import MarblesCLI

/// Runs `marbles-svg` in-process.
func marblesSVG(_ arguments: String..., environment: [String: String] = [:]) -> Outcome {
    marblesSVG(arguments, environment: environment)
}

func marblesSVG(_ arguments: [String], environment: [String: String] = [:],
                workingDirectory: String = FileManager.default.currentDirectoryPath) -> Outcome {
    let output = CapturedOutput()
    let code = SVGCLI.run(arguments: arguments, environment: environment, isTerminal: false, output: output, workingDirectory: workingDirectory)
    return Outcome(code: code, stdout: output.stdout, stderr: output.stderr)
}

@Suite("marbles-svg and marbles run --svg")
struct SVGCommandTests {
    static let twoTests = """
        values A = ("a", 1)
        test "map doubles"
          hot    input   -1-2-3-|
          let    doubled = input.map { $0 * 2 }
          expect doubled -2-4-6-|

        test "pairs"
          hot    input   -a-|
          let    pairs = input.map { _ in ("a", 1) }
          expect pairs   -A-|

        """

    func contents(_ path: String) -> String? {
        FileManager.default.contents(atPath: path).map { String(decoding: $0, as: UTF8.self) }
    }

    @Test func writesOneDiagramPerTestNamedAfterFileAndTest() throws {
        let sandbox = try Sandbox(["maps.marble": Self.twoTests])
        let out = sandbox.path("out")
        let run = marblesSVG(sandbox.path("maps.marble"), "-o", out)
        #expect(run.code == 0)
        let files = try FileManager.default.contentsOfDirectory(atPath: out).sorted()
        #expect(files == ["maps--map-doubles.svg", "maps--pairs.svg"])
        #expect(run.stdout == """
            ✓ \(out)/maps--map-doubles.svg
            ✓ \(out)/maps--pairs.svg
            2 diagrams: 2 passed, 0 failed

            """)
        let svg = try #require(contents(out + "/maps--map-doubles.svg"))
        #expect(svg.hasPrefix("<svg xmlns=\"http://www.w3.org/2000/svg\""))
        #expect(svg.contains(">map { $0 * 2 }</text>"))
        // The file-level `values` line reaches the diagram: the short literal is drawn in its marble.
        let pairs = try #require(contents(out + "/maps--pairs.svg"))
        #expect(pairs.contains(">(&quot;a&quot;, 1)</text>"))
    }

    @Test func writesToStandardOutputForOneTest() throws {
        let sandbox = try Sandbox(["maps.marble": Self.twoTests])
        let run = marblesSVG(sandbox.path("maps.marble"), "-o", "-", "--test", "map doubles")
        #expect(run.code == 0)
        #expect(run.stdout.hasPrefix("<svg "))
        #expect(run.stdout.hasSuffix("</svg>\n"))
        #expect(run.stderr == "1 diagram: 1 passed, 0 failed\n")

        let ambiguous = marblesSVG(sandbox.path("maps.marble"), "-o", "-")
        #expect(ambiguous.code == 2)
        #expect(ambiguous.stdout.isEmpty)
        #expect(ambiguous.stderr.contains("-o - writes one diagram, but 2 tests were selected; choose one with --test NAME"))
    }

    @Test func anUnknownTestNameIsAnErrorWithASuggestion() throws {
        let sandbox = try Sandbox(["maps.marble": Self.twoTests])
        let run = marblesSVG(sandbox.path("maps.marble"), "-o", "-", "--test", "map double")
        #expect(run.code == 2)
        #expect(run.stderr == "marbles-svg: error: no test named \"map double\"; did you mean \"map doubles\"?\n")
    }

    @Test func aFailingTestIsDrawnWithItsMismatchAndExitsOne() throws {
        let sandbox = try Sandbox(["fail.marble": Samples.failing])
        let out = sandbox.path("out")
        let run = marblesSVG(sandbox.path("fail.marble"), "-o", out)
        #expect(run.code == 1)
        #expect(run.stdout.contains("✗ \(out)/fail--map-doubles.svg  (expectation not met: expected events ghosted)"))
        let svg = try #require(contents(out + "/fail--map-doubles.svg"))
        #expect(svg.contains("expected 7, got 6"))
        #expect(svg.contains("class=\"expected\""))
        #expect(run.stdout.hasSuffix("1 diagram: 0 passed, 1 failed\n"))
    }

    /// Issue 17: the run stops at its limit as `marbles run` does, but the diagram then laid out
    /// every one of its 100,000 resubscriptions (a quadratic layout: past 60 s). Only the first
    /// `Scene.maximumInstances` are drawn, and the lane says how many there were.
    @Test func aRunStoppedAtItsLimitIsDrawnWithItsFirstSubscriptions() throws {
        let sandbox = try Sandbox(["loop.marble": """
            test "retry loop"
              cold c  #
              let r = Publishers.CombineLatest(c, c).retry().retry()
              expect r -

            """])
        let out = sandbox.path("out")
        let run = marblesSVG(sandbox.path("loop.marble"), "-o", out)
        #expect(run.code == marbles("run", sandbox.path("loop.marble")).code)
        #expect(run.code == 1)
        #expect(run.stdout.contains("(stopped with an error)"))
        let svg = try #require(contents(out + "/loop--retry-loop.svg"))
        #expect(svg.contains("cold, the first 50 of 100000 subscriptions"))
        #expect(svg.contains("error: the run never settles"))
    }

    /// Issue 17: 100,000 values at one frame took minutes to draw (and nested flatMaps 400 MB of
    /// SVG). A diagram draws at most `DrawingBounds.maximumEvents` of a stream and says so.
    @Test func aStreamOfManyEventsIsDrawnWithItsFirstOnesAndSaysSo() throws {
        let sandbox = try Sandbox(["many.marble": """
            test "many"
              let t = (0..<5000).publisher
              expect t -

            """])
        let out = sandbox.path("out")
        let run = marblesSVG(sandbox.path("many.marble"), "-o", out)
        #expect(run.code == 1)
        let svg = try #require(contents(out + "/many--many.svg"))
        #expect(svg.contains("not drawn: t: the first 1000 of its 5001 events are drawn"))
        #expect(svg.contains("the first 1 of 1 differences"))
        #expect(svg.contains("{29} then {30} the …"), "a difference's sentence is cut at 300 characters")
        #expect(svg.components(separatedBy: "<circle").count - 1 <= 1_001)
        #expect(svg.utf8.count < 1_000_000)
    }

    @Test func aMalformedFileGetsThePreciseErrorAndExitsTwo() throws {
        let sandbox = try Sandbox(["bad.marble": Samples.malformed, "good.marble": Samples.passing])
        let out = sandbox.path("out")
        let run = marblesSVG(sandbox.path("bad.marble"), sandbox.path("good.marble"), "-o", out)
        #expect(run.code == 2)
        #expect(run.stdout.hasPrefix("\(sandbox.path("bad.marble")):2:"))
        #expect(run.stdout.contains(": error: a group cannot contain '-'\n"))
        #expect(run.stdout.contains("✓ \(out)/good--map-doubles.svg"))
        let missing = marblesSVG(sandbox.path("nope.marble"), "-o", out)
        #expect(missing.code == 2)
        #expect(missing.stdout.contains("nope.marble: error: no such file or directory"))
    }

    @Test func indexWritesAGalleryWithOneCaptionedFigurePerTest() throws {
        let sandbox = try Sandbox(["maps.marble": Self.twoTests, "sub/fail.marble": Samples.failing])
        let out = sandbox.path("gallery")
        let run = marblesSVG(sandbox.path(), "-o", out, "--index")
        #expect(run.code == 1)
        let html = try #require(contents(out + "/index.html"))
        #expect(html.hasPrefix("<!DOCTYPE html>"))
        #expect(html.components(separatedBy: "<figure").count - 1 == 3)
        #expect(html.contains("<img src=\"maps--map-doubles.svg\" width=\""))
        // The sandbox is outside the working directory: files are named by their names alone.
        #expect(html.contains("<figcaption><strong>map doubles</strong> — <code>maps.marble:2</code></figcaption>"))
        #expect(html.contains("(expectation not met)"))
        // Same input, same bytes.
        let again = sandbox.path("again")
        _ = marblesSVG(sandbox.path(), "-o", again, "--index")
        for name in try FileManager.default.contentsOfDirectory(atPath: out) where name.hasSuffix(".svg") {
            #expect(contents(out + "/" + name) == contents(again + "/" + name))
        }
    }

    @Test func optionsAreChecked() {
        #expect(marblesSVG("--theme", "blue").stderr.hasPrefix("marbles-svg: error: unknown theme 'blue' (known: auto, light, dark, both)\nusage: marbles-svg"))
        #expect(marblesSVG("--frame-width", "3").code == 2)
        #expect(marblesSVG("--background", "red\"/><script>").stderr.contains("is not a colour"))
        #expect(marblesSVG("--index", "-o", "-").stderr.contains("--index needs an output folder"))
        #expect(marblesSVG("--frame-widht", "30").stderr.contains("did you mean '--frame-width'?"))
        #expect(marblesSVG("-o").stderr.contains("option '-o' needs a folder, or '-' for standard output"))
        #expect(marblesSVG("--help").stdout.contains("usage: marbles-svg [PATH…] [-o DIR | -o -]"))
        #expect(marblesSVG("--version").stdout == "marbles-svg \(CLI.version)\n")
        #expect(SVGArgumentParser.isColour("#fafafa") && SVGArgumentParser.isColour("ivory") && SVGArgumentParser.isColour("rgb(1, 2, 3)"))
        #expect(!SVGArgumentParser.isColour("#ggg") && !SVGArgumentParser.isColour("url(#x)"))
    }

    @Test func optionsReachTheDiagram() throws {
        let sandbox = try Sandbox(["pass.marble": Samples.passing])
        let run = marblesSVG(sandbox.path("pass.marble"), "-o", "-", "--theme=dark", "--background", "transparent", "--frame-width", "50")
        #expect(run.code == 0)
        #expect(!run.stdout.contains("<rect width=\"100%\""))
        #expect(run.stdout.contains("fill=\"#e6edf3\""))
    }

    @Test func runWritesADiagramOfEveryFailingTest() throws {
        let sandbox = try Sandbox(["fail.marble": Samples.failing, "pass.marble": Samples.passing, "error.marble": Samples.runtimeError])
        let out = sandbox.path("artifacts")
        let run = marbles("run", "--svg", out, sandbox.path())
        #expect(run.code == 1)
        let files = try FileManager.default.contentsOfDirectory(atPath: out).sorted()
        #expect(files == ["error--division-by-zero.svg", "fail--map-doubles.svg"])
        #expect(contents(out + "/error--division-by-zero.svg")?.contains("error: division by zero") == true)
        #expect(marbles("run", "--svg=\(sandbox.path("eq"))", sandbox.path("fail.marble")).code == 1)
        #expect(FileManager.default.fileExists(atPath: sandbox.path("eq/fail--map-doubles.svg")))
        #expect(marbles("run", "--svg").stderr.hasPrefix("marbles: error: option '--svg' needs a folder\n"))
        // After `--`, `--svg` is a path like any other.
        #expect(marbles("run", "--", "--svg").stdout.contains("--svg: error: no such file or directory"))
    }

    @Test func runWithoutFailuresWritesNothing() throws {
        let sandbox = try Sandbox(["pass.marble": Samples.passing])
        let out = sandbox.path("artifacts")
        #expect(marbles("run", sandbox.path("pass.marble"), "--svg", out).code == 0)
        #expect(!FileManager.default.fileExists(atPath: out))
    }

    // MARK: The executable

    /// The `marbles-svg` binary next to the test bundle, else in `.build/debug`.
    static func executable() throws -> URL { try EndToEndTests.executable("marbles-svg") }

    @Test func theExecutableExitsOneAfterWritingAMismatch() throws {
        let sandbox = try Sandbox(["fail.marble": Samples.failing])
        let process = Process()
        process.executableURL = try Self.executable()
        process.arguments = [sandbox.path("fail.marble"), "-o", sandbox.path("out")]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        #expect(process.terminationStatus == 1)
        #expect(FileManager.default.fileExists(atPath: sandbox.path("out/fail--map-doubles.svg")))
    }
}
