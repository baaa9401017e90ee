import Foundation
import Testing
@testable import MarblesCLI

@Suite("marbles run: --filter, --shard, --list, --jobs, --fail-fast, --slowest, --quiet")
struct SelectionTests {
    /// The `file › test` lines of a `--list` output.
    func listed(_ outcome: Outcome) -> [String] {
        outcome.lines.filter { $0.contains(" › ") }
    }

    // MARK: --list and --filter

    @Test func listPrintsTheTestsThatWouldRunWithoutRunningThem() throws {
        let sandbox = try Sandbox(["a.marble": Samples.passing, "b.marble": Samples.mixed["c/two.marble"] ?? ""])
        let run = marbles("run", sandbox.path(), "--list")
        #expect(run.code == 0)
        #expect(run.stdout == """
            \(sandbox.path("a.marble")) › map doubles
            \(sandbox.path("b.marble")) › first
            \(sandbox.path("b.marble")) › second fails
            \(sandbox.path("b.marble")) › third

            4 tests in 2 files

            """)
    }

    @Test func listReportsFilesThatCannotRun() throws {
        let sandbox = try Sandbox(["bad.marble": "test x\n  hot y -a-|\n", "good.marble": Samples.passing])
        let run = marbles("run", sandbox.path(), sandbox.path("missing"), "--list")
        #expect(run.code == 2)
        #expect(run.lines.contains("\(sandbox.path("bad.marble")): error: the file cannot run as it is (run it to see why)"))
        #expect(run.lines.contains("\(sandbox.path("missing")): error: no such file or directory"))
        #expect(listed(run) == ["\(sandbox.path("good.marble")) › map doubles"])
        // A mistake inside a test costs that test when it runs, not the listing.
        let mistaken = try Sandbox(["m.marble": "test \"x\"\n  frobnicate y -a-|\n"])
        #expect(listed(marbles("run", mistaken.path(), "--list")) == ["\(mistaken.path("m.marble")) › x"])
    }

    @Test func filterBySubstringOfFileAndTest() throws {
        let sandbox = try Sandbox(Samples.mixed)
        #expect(listed(marbles("run", sandbox.path(), "--list", "--filter", "second")) == ["\(sandbox.path("c/two.marble")) › second fails"])
        #expect(listed(marbles("run", sandbox.path(), "--list", "--filter", "two.marble › t")) == ["\(sandbox.path("c/two.marble")) › third"])
        #expect(listed(marbles("run", sandbox.path(), "--list", "--filter", "a/")).count == 2)
        let run = marbles("run", sandbox.path(), "--filter", "second")
        #expect(run.code == 1)
        #expect(run.stdout.contains("  ✗ second fails"))
        #expect(!run.stdout.contains("first"))
        #expect(run.lastLine == "0 passed, 1 failed")
    }

    @Test func filterByRegularExpression() throws {
        let sandbox = try Sandbox(Samples.mixed)
        #expect(listed(marbles("run", sandbox.path(), "--list", "--filter", "/› (first|third)$/")).count == 2)
        #expect(listed(marbles("run", sandbox.path(), "--list", "--filter", "/› FIRST/")).isEmpty)
        #expect(listed(marbles("run", sandbox.path(), "--list", "--filter", "/› FIRST/i")).count == 1)
        #expect(listed(marbles("run", sandbox.path(), "--list", "--filter", "first", "--filter", "third")).count == 2, "several filters: any")
        let bad = marbles("run", sandbox.path(), "--filter", "/(/")
        #expect(bad.code == 2)
        #expect(bad.stderr.hasPrefix("marbles: error: --filter /(/: not a regular expression"))
    }

    @Test func aFilteredRunOnlyRunsTheChosenTests() throws {
        let sandbox = try Sandbox(["two.marble": Samples.mixed["c/two.marble"] ?? ""])
        let run = marbles("run", sandbox.path(), "--filter", "third", "--reporter", "json")
        let report = try JSONDecoder().decode(JSONReport.self, from: Data(run.stdout.utf8))
        #expect(report.files.first?.tests.map(\.name) == ["third"])
    }

    @Test func aBrokenFileRunsWhenItsPathMatches() throws {
        let sandbox = try Sandbox(Samples.mixed)
        let run = marbles("run", sandbox.path(), "--filter", "malformed")
        #expect(run.code == 2)
        #expect(run.lastLine == "0 passed, 0 failed, 1 error")
    }

    // MARK: --shard

    @Test func shardsAreDisjointCompleteAndEven() throws {
        let all = listed(marbles("run", catalogueFolder, "--list"))
        #expect(all.count > 100)
        for count in [1, 2, 3, 5] {
            var union: [String] = []
            var sizes: [Int] = []
            for index in 1...count {
                let shard = listed(marbles("run", catalogueFolder, "--list", "--shard", "\(index)/\(count)"))
                #expect(Set(shard).isDisjoint(with: union), "shard \(index)/\(count) overlaps an earlier one")
                union += shard
                sizes.append(shard.count)
            }
            #expect(Set(union) == Set(all), "the \(count) shards together are the whole suite")
            #expect(union.count == all.count)
            #expect((sizes.max() ?? 0) - (sizes.min() ?? 0) <= 1)
        }
    }

    @Test func shardedRunsAddUpToTheWholeRun() throws {
        let sandbox = try Sandbox(Samples.mixed)
        var passed = 0
        var failed = 0
        for index in 1...3 {
            let report = try JSONDecoder().decode(JSONReport.self, from: Data(marbles("run", sandbox.path(), "--shard", "\(index)/3", "--reporter", "json").stdout.utf8))
            passed += report.summary.passed
            failed += report.summary.failed
        }
        let whole = try JSONDecoder().decode(JSONReport.self, from: Data(marbles("run", sandbox.path(), "--reporter", "json").stdout.utf8))
        #expect(passed == whole.summary.passed)
        #expect(failed == whole.summary.failed)
    }

    @Test func shardsCombineWithFilters() throws {
        let filtered = listed(marbles("run", catalogueFolder, "--list", "--filter", "debounce"))
        let first = listed(marbles("run", catalogueFolder, "--list", "--filter", "debounce", "--shard", "1/2"))
        let second = listed(marbles("run", catalogueFolder, "--list", "--filter", "debounce", "--shard", "2/2"))
        #expect(Set(first + second) == Set(filtered))
        #expect(Set(first).isDisjoint(with: second))
    }

    @Test(arguments: ["0/3", "4/3", "1/0", "a/b", "1", "1/2/3"])
    func badShards(_ shard: String) {
        let run = marbles("run", "--shard", shard)
        #expect(run.code == 2)
        #expect(run.stderr.hasPrefix("marbles: error: --shard takes I/N with 1 ≤ I ≤ N (e.g. --shard 2/4), not '\(shard)'\n"))
    }

    // MARK: --jobs

    @Test func jobsTwoAndJobsOneGiveTheSameReport() throws {
        let sandbox = try Sandbox(Samples.mixed)
        for arguments in [[catalogueFolder], [sandbox.path()]] {
            let one = marbles(["run"] + arguments + ["--jobs", "1"])
            let two = marbles(["run"] + arguments + ["--jobs", "2"])
            let many = marbles(["run"] + arguments + ["-j", "8"])
            #expect(one.code == two.code)
            #expect(one.report == two.report)
            #expect(one.report == many.report)
            func untimedJSON(_ jobs: String) throws -> JSONReport {
                var report = try JSONDecoder().decode(JSONReport.self, from: Data(marbles(["run"] + arguments + ["--jobs", jobs, "--reporter", "json"]).stdout.utf8))
                report.summary.milliseconds = 0
                for file in report.files.indices {
                    report.files[file].seconds = 0
                    for test in report.files[file].tests.indices { report.files[file].tests[test].seconds = 0 }
                }
                return report
            }
            #expect(try untimedJSON("1") == untimedJSON("2"))
        }
    }

    @Test(arguments: ["0", "-1", "x", ""])
    func badJobs(_ jobs: String) {
        let run = marbles("run", "--jobs", jobs)
        #expect(run.code == 2)
        #expect(run.stderr.hasPrefix("marbles: error: --jobs takes a whole number of at least 1, not '\(jobs)'\n"))
    }

    @Test func parallelDeliversInOrderAndStopsWhenAsked() {
        let items = Array(0..<50)
        var delivered: [Int] = []
        Parallel.forEach(items, jobs: 4, work: { $0 * 2 }) { index, output in
            #expect(output == index * 2)
            delivered.append(index)
            return index < 20
        }
        #expect(delivered == Array(0...20))
        #expect(Parallel.map(items, jobs: 3) { $0 + 1 } == items.map { $0 + 1 })
        #expect(Parallel.map([Int](), jobs: 3) { $0 }.isEmpty)
    }

    // MARK: --fail-fast

    @Test func failFastStopsAtTheFirstFailingTest() throws {
        let sandbox = try Sandbox(["1.marble": Samples.passing, "2.marble": Samples.mixed["c/two.marble"] ?? "", "3.marble": Samples.failing])
        for jobs in ["1", "3"] {
            let run = marbles("run", sandbox.path(), "--fail-fast", "--jobs", jobs)
            #expect(run.code == 1)
            #expect(run.stdout.contains("  ✓ first\n  ✗ second fails"))
            #expect(!run.stdout.contains("third"), "the report stops at the failure")
            #expect(!run.stdout.contains("3.marble"), "later files are not reported")
            #expect(run.stdout.contains("stopped at the first failure (--fail-fast)"))
            #expect(run.lastLine == "2 passed, 1 failed")
        }
        let all = marbles("run", sandbox.path())
        #expect(all.lastLine == "3 passed, 2 failed")
    }

    // MARK: --slowest

    @Test func slowestListsTheSlowestTestsSlowestFirst() throws {
        let sandbox = try Sandbox(Samples.mixed)
        let run = marbles("run", sandbox.path(), "--slowest", "3")
        let start = try #require(run.lines.firstIndex(of: "slowest 3 tests:"))
        let entries = run.lines[(start + 1)...(start + 3)]
        let times = entries.compactMap { line in
            line.firstMatch(of: /^ +(\d+(?:\.\d+)?) ms {2}/).flatMap { Double($0.1) }
        }
        #expect(times.count == 3)
        #expect(times == times.sorted(by: >))
        #expect(entries.allSatisfy { $0.contains(" › ") })
        #expect(run.lines[start + 4] == "")

        let one = marbles("run", sandbox.path("a/pass.marble"), "--slowest", "5")
        #expect(one.stdout.contains("slowest test:\n"))
        #expect(one.untimed.contains("slowest test:\n  T ms  \(sandbox.path("a/pass.marble")) › map doubles\n"))
    }

    // MARK: --quiet

    @Test func quietLeavesOutPassingTestsAndFilesWithNothingElseToSay() throws {
        let sandbox = try Sandbox(Samples.mixed)
        let full = marbles("run", sandbox.path())
        let quiet = marbles("run", sandbox.path(), "--quiet")
        #expect(quiet.code == full.code)
        #expect(full.stdout.contains("✓ first"))
        #expect(!quiet.stdout.contains("✓"))
        // A file where every test passed has no block; the others keep their failures and errors.
        #expect(full.stdout.contains(sandbox.path("a/pass.marble") + "\n"))
        #expect(!quiet.stdout.contains(sandbox.path("a/pass.marble")))
        #expect(quiet.stdout.contains(sandbox.path("c/two.marble") + "\n  ✗ second fails"))
        #expect(quiet.stdout.contains(sandbox.path("b/malformed.marble")))
        // The same totals, and every line of the quiet report is in the full one.
        let untimedLines = { (outcome: Outcome) in outcome.untimed.split(separator: "\n", omittingEmptySubsequences: false) }
        #expect(untimedLines(quiet).suffix(3) == untimedLines(full).suffix(3))
        #expect(untimedLines(quiet).allSatisfy(Set(untimedLines(full)).contains))

        let allPass = marbles("run", sandbox.path("a/pass.marble"), "-q")
        #expect(allPass.code == 0)
        #expect(allPass.untimed == "1 test in 1 file, T ms\n1 passed, 0 failed\n")
    }

    @Test func quietNeedsTheHumanReport() {
        let run = marbles("run", "--reporter", "json", "--quiet")
        #expect(run.code == 2)
        #expect(run.stderr.contains("--quiet shortens the human report; add --reporter human"))
    }

    @Test func everyTestIsTimed() throws {
        let sandbox = try Sandbox(Samples.mixed)
        let report = try JSONDecoder().decode(JSONReport.self, from: Data(marbles("run", sandbox.path(), "--reporter", "json").stdout.utf8))
        for file in report.files {
            #expect(file.seconds >= 0)
            for test in file.tests { #expect(test.seconds >= 0) }
        }
    }

    // MARK: Options

    @Test func runOptionsParse() throws {
        let parsed = ArgumentParser.parse(["run", "x", "--reporter", "human", "--reporter=junit", "--output", "r.xml", "-u", "--filter", "/a/i",
                                           "--jobs=3", "--shard", "2/5", "--fail-fast", "--slowest", "4"])
        guard case .success(.run(let run)) = parsed else {
            Issue.record("not parsed: \(parsed)")
            return
        }
        #expect(run.paths == ["x"])
        #expect(run.reporters == [ReporterRequest(kind: .human, output: nil), ReporterRequest(kind: .junit, output: "r.xml")])
        #expect(run.update)
        #expect(run.filters == [try TestFilter("/a/i")])
        #expect(run.jobs == 3)
        #expect(run.shard == Shard(index: 2, count: 5))
        #expect(run.failFast)
        #expect(run.slowest == 4)
        #expect(!run.list)
    }

    @Test(arguments: ["--update", "--fail-fast", "--reporter"])
    func listCannotBeCombinedWith(_ option: String) {
        let arguments = option == "--reporter" ? ["run", "--list", option, "json"] : ["run", "--list", option]
        let run = marbles(arguments)
        #expect(run.code == 2)
        #expect(run.stderr.hasPrefix("marbles: error: --list only prints the tests that would run; it cannot be combined with \(option)\n"))
    }
}
