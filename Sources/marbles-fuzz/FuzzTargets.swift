import Foundation
import MarbleNotation
import MarbleSyntax
import MarbleSpec

// Fuzz targets for libFuzzer (`make fuzz`): each takes arbitrary bytes through one parser, or
// through a whole run, and must return — never trap, never hang past the limits. The target is
// chosen by MARBLES_FUZZ_TARGET: `notation` (marble strings, every line kind), `file` (the
// .marble file parser), `expression` (the expression parser), `run` (parse, prepare, run).
//
// Built with `-sanitize=fuzzer,address -D FUZZING`, `main` runs libFuzzer's driver. Built
// normally (as `swift build` does), `main` replays the files given as arguments through the
// same target, so a corpus or a crash found by the fuzzer is a plain regression run.

enum FuzzTarget: String {
    case notation, file, expression, run

    static var selected: FuzzTarget {
        ProcessInfo.processInfo.environment["MARBLES_FUZZ_TARGET"].flatMap(FuzzTarget.init(rawValue:)) ?? .run
    }

    func run(_ data: Data) {
        // Inputs that are not UTF-8 are reported as such by the CLI before any parser sees them.
        guard let text = String(data: data, encoding: .utf8) else { return }
        switch self {
        case .notation:
            let parser = MarbleParser(frameNanoseconds: 1_000_000)
            for kind in [MarbleLineKind.hot, .cold, .expect, .subscription, .demand] {
                _ = try? parser.parse(text, as: kind)
            }
        case .file:
            _ = MarbleFileParser.parse(text)
        case .expression:
            _ = try? MarbleFileParser.parseExpression(text, at: SourceLocation(line: 1, column: 1))
        case .run:
            _ = MarbleRunner.run(source: text, path: "fuzz.marble")
        }
    }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    FuzzTarget.selected.run(Data(bytes: bytes, count: count))
    return 0
}

#if FUZZING
/// libFuzzer's driver, called from `main` (SwiftPM names an executable's entry point itself, so
/// libFuzzer's own `main` is not the one linked).
@_silgen_name("LLVMFuzzerRunDriver")
func LLVMFuzzerRunDriver(_ argc: UnsafeMutablePointer<CInt>,
                         _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>>,
                         _ callback: @convention(c) (UnsafePointer<UInt8>, Int) -> CInt) -> CInt
#endif

/// Fuzzing: hands control to libFuzzer. Otherwise replays the files (or folders of files)
/// given as arguments through the selected target, and prints how many.
@main
struct Replay {
    static func main() {
        #if FUZZING
        var argc = CommandLine.argc
        var argv = CommandLine.unsafeArgv
        exit(LLVMFuzzerRunDriver(&argc, &argv) { bytes, count in fuzzOneInput(bytes, count) })
        #else
        let target = FuzzTarget.selected
        var replayed = 0
        for path in CommandLine.arguments.dropFirst() {
            let files = (try? FileManager.default.contentsOfDirectory(atPath: path))?.sorted().map { path + "/" + $0 } ?? [path]
            for file in files {
                guard let data = FileManager.default.contents(atPath: file) else { continue }
                target.run(data)
                replayed += 1
            }
        }
        print("replayed \(replayed) inputs through the \(target.rawValue) target")
        #endif
    }
}
