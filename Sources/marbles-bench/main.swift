import Foundation

// The Swift side of `make bench` (bench/bench.py drives it). Each command runs one workload
// at one size `runs` times and prints one JSON object: the wall time of each run, and the
// output's event count and checksum, which the driver compares across contenders.
//
//   marbles-bench engine   W1|W2|W3|W5 N RUNS     the engine's Swift API
//   marbles-bench swift-api W1 N RUNS             MarbleTesting: TestScheduler.hot → operators → expect
//   marbles-bench floor    W1|W2|W3|W5 N RUNS     a hand-written loop (materialises the output timeline)
//   marbles-bench arithmetic-floor W1|W2|W3|W5 N RUNS   the same loop, checksumming on the fly
//   marbles-bench generate W1|W2|W3|W5 N PATH     writes the workload as a .marble test
//   marbles-bench e2e      PATH RUNS              MarbleRunner.run(path:) on such a file
//   marbles-bench tests    N PATH                 writes W7: a file of N small tests
//   marbles-bench line     simple|rich BYTES PATH writes a W6 marble line
//   marbles-bench parse    PATH RUNS              W6 with the engine's MarbleParser
//   marbles-bench parse-floor PATH RUNS           W6 with a hand-written byte loop

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("marbles-bench: \(message)\n".utf8))
    exit(2)
}

/// The CPU time of each run (`timed` notes it beside the wall time it returns): on a shared
/// machine the wall clock says as much about the neighbours as about the run.
nonisolated(unsafe) var cpuSeconds: [Double] = []

func report(_ seconds: [Double], _ checksum: Checksum, ok: Bool = true) {
    let times = seconds.map { String(format: "%.9f", $0) }.joined(separator: ", ")
    let cpu = cpuSeconds.map { String(format: "%.9f", $0) }.joined(separator: ", ")
    print("{\"seconds\": [\(times)], \"cpu_seconds\": [\(cpu)], \"count\": \(checksum.count), \"hash\": \"\(checksum.hex)\", \"ok\": \(ok)}")
}

/// The process's CPU time so far (every thread: `MarbleRunner` runs a file on a thread of its own).
func processCPUSeconds() -> Double {
    var now = timespec()
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &now)
    return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
}

func timed<T>(_ body: () -> T) -> (Double, T) {
    let clock = ContinuousClock()
    let start = clock.now
    let cpuStart = processCPUSeconds()
    let result = measuredRegion(body)
    cpuSeconds.append(processCPUSeconds() - cpuStart)
    let elapsed = clock.now - start
    let (seconds, attoseconds) = elapsed.components
    return (Double(seconds) + Double(attoseconds) / 1e18, result)
}

/// The measured work and nothing else, in a function of its own so that callgrind can count
/// only it: `valgrind --tool=callgrind --collect-atstart=no --toggle-collect='*measuredRegion*'`.
@inline(never)
func measuredRegion<T>(_ body: () -> T) -> T { body() }

func workload(_ arguments: [String]) -> Workload {
    guard arguments.count >= 4, let n = Int(arguments[3]), n >= 8, let workload = Workload.make(arguments[2], n: n) else {
        fail("expected a workload (W1, W2, W3, W5) and a size of at least 8")
    }
    return workload
}

func runs(_ text: String) -> Int {
    guard let runs = Int(text), runs > 0 else { fail("expected a positive number of runs, not \(text)") }
    return runs
}

func contents(_ path: String) -> String {
    guard let data = FileManager.default.contents(atPath: path), let text = String(data: data, encoding: .utf8) else { fail("cannot read \(path)") }
    return text
}

let arguments = CommandLine.arguments
guard arguments.count >= 2 else { fail("expected a command: engine, floor, generate, tests, e2e, line, parse, parse-floor") }

switch arguments[1] {
case "engine" where arguments.count == 5:
    let work = workload(arguments)
    let timelines = EngineContender.prepare(work)
    var seconds: [Double] = []
    var last = Checksum()
    for _ in 0..<runs(arguments[4]) {
        let (time, checksum) = timed { EngineContender.run(work, timelines: timelines) }
        seconds.append(time)
        last = checksum
    }
    report(seconds, last)
case "swift-api" where arguments.count == 5:
    let work = workload(arguments)
    guard let lines = SwiftAPIContender.prepare(work) else { fail("swift-api runs W1 only") }
    var seconds: [Double] = []
    var last = Checksum()
    var passed = true
    for _ in 0..<runs(arguments[4]) {
        let (time, result) = timed { SwiftAPIContender.run(lines) }
        seconds.append(time)
        last = result.checksum
        passed = passed && result.passed
    }
    report(seconds, last, ok: passed)
case "floor" where arguments.count == 5, "arithmetic-floor" where arguments.count == 5:
    let work = workload(arguments)
    let arithmetic = arguments[1] == "arithmetic-floor"
    var seconds: [Double] = []
    var last = Checksum()
    for _ in 0..<runs(arguments[4]) {
        let (time, checksum) = timed { FloorContender.run(work, arithmetic: arithmetic) }
        seconds.append(time)
        last = checksum
    }
    report(seconds, last)
case "generate" where arguments.count == 5:
    let work = workload(arguments)
    let text = MarbleFile.text(for: work)
    guard FileManager.default.createFile(atPath: arguments[4], contents: Data(text.utf8)) else { fail("cannot write \(arguments[4])") }
case "tests" where arguments.count == 4:
    guard let count = Int(arguments[2]), count > 0 else { fail("expected a positive number of tests, not \(arguments[2])") }
    guard FileManager.default.createFile(atPath: arguments[3], contents: Data(ManyTests.text(count: count).utf8)) else { fail("cannot write \(arguments[3])") }
case "e2e" where arguments.count == 4:
    var seconds: [Double] = []
    var last = Checksum()
    var passed = true
    for _ in 0..<runs(arguments[3]) {
        let (time, result) = timed { EndToEndContender.run(path: arguments[2]) }
        seconds.append(time)
        last = result.checksum
        passed = passed && result.passed
    }
    report(seconds, last, ok: passed)
case "line" where arguments.count == 5:
    guard let bytes = Int(arguments[3]), let line = ParseWorkload.line(flavor: arguments[2], bytes: bytes) else { fail("expected simple|rich and a size in bytes") }
    guard FileManager.default.createFile(atPath: arguments[4], contents: Data(line.utf8)) else { fail("cannot write \(arguments[4])") }
case "parse" where arguments.count == 4, "parse-floor" where arguments.count == 4:
    let line = contents(arguments[2])
    var seconds: [Double] = []
    var last = Checksum()
    var ok = true
    for _ in 0..<runs(arguments[3]) {
        let (time, checksum) = timed { arguments[1] == "parse" ? ParseWorkload.parse(line) : ParseWorkload.floor(line) }
        seconds.append(time)
        ok = ok && checksum != nil
        last = checksum ?? Checksum()
    }
    report(seconds, last, ok: ok)
default:
    fail("unknown command or wrong arguments: \(arguments.dropFirst().joined(separator: " "))")
}
