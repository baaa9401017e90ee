// swift-tools-version:6.0
import PackageDescription

// Layering (each arrow is the only direction an import may go):
//   VirtualClock    — the virtual clock: a queue of actions by (frame, order), timeline playback,
//                     subscription spans (knows no engine and no text)
//   Reactive        — the Combine-semantics engine (knows no text): publishers, operators, subjects,
//                     Combine's Scheduler API over the virtual clock and Dispatch/RunLoop/
//                     OperationQueue, @Published (imports VirtualClock and re-exports it)
//   ReactiveNetworking — URLSession.dataTaskPublisher (imports Reactive; FoundationNetworking on Linux)
//   MarbleNotation  — marble strings ⇄ timelines (knows no engine)
//   AtomicFiles     — writing a user's file so that it is never seen half-written (imports Foundation only)
//   SwiftCallSite   — the Swift call that made an expectation, read from its source: the names it
//                     wrote, its marble string literals, and rewriting them in place (imports AtomicFiles)
//   MarbleSyntax    — the .marble file and expression grammar → syntax tree (imports MarbleNotation)
//   MarbleReport    — what a run produces: file, test, check and stream reports, diagnostics, trace
//                     events, and the comparison of recorded events, subscriptions and requests with
//                     expected ones, in sentences (imports MarbleNotation; knows no engine,
//                     interpreter or file grammar)
//   MarbleSpec      — values, interpreter, operator catalogue, test runner; writes MarbleReport's
//                     types and re-exports them (imports Reactive, MarbleNotation, MarbleSyntax,
//                     MarbleReport)
//   MarbleDiagram   — SVG marble diagrams drawn from a test's report (imports MarbleReport, MarbleNotation)
//   MarbleDiff      — the human diff of a failing check: aligned marbles, carets, sentences
//                     (imports MarbleReport, MarbleNotation)
//   MarbleTesting   — marble tests for Swift code: TestScheduler, hot/cold, expectations reported
//                     to Swift Testing or XCTest, named and updated from the test's source, on the
//                     engine of the platform: Combine where it can be imported, Reactive elsewhere;
//                     one source for both (imports Combine or Reactive and re-exports it,
//                     VirtualClock, MarbleNotation, MarbleReport, MarbleDiff, MarbleDiagram,
//                     SwiftCallSite: not the interpreter, type checker or catalogue;
//                     nothing imports it but tests and the bench)
//   MarbleRewrite   — the text rewriting behind `fmt` and `run --update`: layout in columns, snapshot
//                     edits, line diffs (imports MarbleSpec, MarbleSyntax, MarbleNotation, AtomicFiles)
//   MarbleLanguageServer — `marbles lsp`: JSON-RPC over LSP's framing, open documents, diagnostics,
//                     hover, completion, definition, formatting and code lenses, over the runner,
//                     the catalogue, the diff and the rewrites (imports MarbleSpec, MarbleSyntax,
//                     MarbleNotation, MarbleDiff, MarbleRewrite)
//   MarblesCLI      — `marbles` and `marbles-svg` commands and reporters, thin over MarbleRewrite for
//                     `fmt` and `--update`, and over MarbleLanguageServer for `lsp` (imports the above
//                     but MarbleTesting)
//   marbles, marbles-svg — thin mains over MarblesCLI
// The platforms without Combine, where MarbleTesting runs on Reactive.
let withoutCombine: [Platform] = [.linux, .windows, .android, .wasi, .openbsd]

let package = Package(
    name: "marbles",
    // Where MarbleTesting's runtime needs exist: `Duration` and constrained existential types
    // (`any MarbleRecorder<Output, Failure>`) are macOS 13, iOS 16, tvOS 16, watchOS 9, visionOS 1.
    platforms: [.macOS(.v13), .iOS(.v16), .tvOS(.v16), .watchOS(.v9), .visionOS(.v1)],
    products: [
        .executable(name: "marbles", targets: ["marbles"]),
        .executable(name: "marbles-svg", targets: ["marbles-svg"]),
        .library(name: "Reactive", targets: ["Reactive"]),
        .library(name: "ReactiveNetworking", targets: ["ReactiveNetworking"]),
        .library(name: "MarbleSpec", targets: ["MarbleSpec"]),
        .library(name: "MarbleTesting", targets: ["MarbleTesting"]),
    ],
    targets: [
        .target(name: "VirtualClock"),
        .target(name: "Reactive", dependencies: ["VirtualClock"]),
        .target(name: "ReactiveNetworking", dependencies: ["Reactive"]),
        .target(name: "MarbleNotation"),
        .target(name: "AtomicFiles"),
        .target(name: "SwiftCallSite", dependencies: ["AtomicFiles"]),
        .target(name: "MarbleSyntax", dependencies: ["MarbleNotation"]),
        .target(name: "MarbleReport", dependencies: ["MarbleNotation"]),
        .target(name: "MarbleSpec", dependencies: ["Reactive", "MarbleNotation", "MarbleSyntax", "MarbleReport"]),
        .target(name: "MarbleDiagram", dependencies: ["MarbleReport", "MarbleNotation"]),
        .target(name: "MarbleDiff", dependencies: ["MarbleReport", "MarbleNotation"]),
        // Where Combine can be imported, MarbleTesting drives Combine's types and Reactive is not built for it.
        .target(name: "MarbleTesting", dependencies: [.target(name: "Reactive", condition: .when(platforms: withoutCombine)), "VirtualClock",
                                                      "MarbleNotation", "MarbleReport", "MarbleDiff", "MarbleDiagram", "SwiftCallSite"]),
        .target(name: "MarbleRewrite", dependencies: ["MarbleSpec", "MarbleSyntax", "MarbleNotation", "AtomicFiles"]),
        .target(name: "MarbleLanguageServer", dependencies: ["MarbleSpec", "MarbleSyntax", "MarbleNotation", "MarbleDiff", "MarbleRewrite"]),
        .target(name: "MarblesCLI", dependencies: ["MarbleSpec", "MarbleSyntax", "MarbleNotation", "MarbleDiagram", "MarbleDiff", "MarbleRewrite", "AtomicFiles",
                                                   "MarbleLanguageServer"]),
        .executableTarget(name: "marbles", dependencies: ["MarblesCLI"]),
        .executableTarget(name: "marbles-svg", dependencies: ["MarblesCLI"]),
        // The Swift side of `make bench` (engine API, MarbleTesting, end-to-end runs, the hand-written floor).
        .executableTarget(name: "marbles-bench", dependencies: ["Reactive", "MarbleSpec", "MarbleNotation", "MarbleTesting"]),
        // libFuzzer targets (`make fuzz`): the parsers, runs, diagrams, doc, fmt, --update,
        // command lines and the language server; built normally, a replayer of corpus files.
        .executableTarget(name: "marbles-fuzz", dependencies: ["MarbleNotation", "MarbleSyntax", "MarbleSpec", "MarbleDiagram", "MarbleDiff",
                                                               "MarbleRewrite", "MarblesCLI", "MarbleLanguageServer"]),
        // What several test targets share (a seeded random generator); only tests import it.
        .target(name: "TestSupport", path: "Tests/TestSupport"),
        .testTarget(name: "ReactiveTests", dependencies: ["Reactive", "MarbleNotation", "MarbleTesting"]),
        // MarbleTesting's own suite depends on it alone, as a user's test target does
        // (scripts/opencombine-check builds the suite so against "Combine").
        .testTarget(name: "MarbleTestingTests", dependencies: ["MarbleTesting"]),
        .testTarget(name: "SwiftCallSiteTests", dependencies: ["SwiftCallSite"]),
        // Combine app code (view models, forms, networking, timers, custom publishers) that must
        // typecheck against Reactive with only its import changed.
        // Swift 5 mode, as the app code it models: 3 of the files (global caches, a shared singleton,
        // a callback captured by Dispatch) are Swift 6 concurrency errors with Combine too.
        .testTarget(name: "CombineCompatibilityTests", dependencies: ["Reactive", "ReactiveNetworking"], path: "Tests/CombineCompatibility",
                    exclude: ["Unsupported", "MissingImport", "check.sh"], swiftSettings: [.swiftLanguageMode(.v5)]),
        .testTarget(name: "MarbleNotationTests", dependencies: ["MarbleNotation", "TestSupport"]),
        .testTarget(name: "MarbleSyntaxTests", dependencies: ["MarbleSyntax", "TestSupport"]),
        .testTarget(name: "MarbleSpecTests", dependencies: ["MarbleSpec", "Reactive", "TestSupport"]),
        .testTarget(name: "MarbleDiagramTests", dependencies: ["MarbleDiagram", "MarbleSpec"], exclude: ["Golden"]),
        .testTarget(name: "MarbleRewriteTests", dependencies: ["MarbleRewrite", "MarbleSyntax"]),
        .testTarget(name: "MarbleLanguageServerTests", dependencies: ["MarbleLanguageServer", "MarbleSpec"]),
        .testTarget(name: "MarblesCLITests", dependencies: ["MarblesCLI", "MarbleDiff", "MarbleRewrite", "AtomicFiles", "marbles", "marbles-svg"]),
        // The TextMate grammar of editors/ tokenized over the catalogue by a small tokenizer of its own
        // (no dependency: it reads files of the repository only).
        .testTarget(name: "EditorGrammarTests"),
    ],
    swiftLanguageModes: [.v6]
)
