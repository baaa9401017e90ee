import Foundation
@testable import MarbleTesting
import Testing

/// `MARBLES_UPDATE`: a failing `expect` rewrites its marbles literal in the test's source.
///
/// Each test writes a Swift test file to a temporary folder and runs expectations as if they were
/// written at its lines (`line:`/`column:` of its `expect(` calls, the file read in place of
/// this one), with updates on; it then compares the file's bytes, and runs again with the new
/// marbles, which must pass and change nothing.
@Suite struct SwiftUpdateTests {
    /// A temporary Swift file that expectations run "at".
    final class Fixture {
        let path: String
        let original: String

        init(_ text: String) throws {
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("marbles-update-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            path = folder.appendingPathComponent("SearchTests.swift").path
            original = text
            try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        }

        deinit { try? FileManager.default.removeItem(atPath: URL(fileURLWithPath: path).deletingLastPathComponent().path) }

        var bytes: Data { FileManager.default.contents(atPath: path) ?? Data() }
        var text: String { String(decoding: bytes, as: UTF8.self) }

        /// The line and column (of its `(`) of the `occurrence`-th `expect(` on the line holding `marker`.
        func site(_ marker: String, occurrence: Int = 0) -> (line: UInt, column: UInt) {
            // By bytes: "\r\n" is one Character, which a split at "\n" would not cut.
            let lines = original.utf8.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).map { String(decoding: $0, as: UTF8.self) }
            guard let index = lines.firstIndex(where: { $0.contains(marker) }) else { return (0, 0) }
            let bytes = Array(lines[index].utf8)
            let needle = Array("expect(".utf8)
            let starts = (0..<bytes.count).filter { bytes[$0...].starts(with: needle) }
            guard starts.indices.contains(occurrence) else { return (0, 0) }
            return (UInt(index + 1), UInt(starts[occurrence] + needle.count))
        }

        /// The issues `body` records with updates on and this file read in place of this test file.
        func run(_ body: () -> Void) -> [Issue] {
            CallSites.$redirectedPaths.withValue([#filePath: path]) {
                ExpectationUpdate.$enabledOverride.withValue(true) { recordedIssues(body) }
            }
        }

        /// The same for an asynchronous body (its child tasks inherit both switches).
        func run(_ body: @Sendable () async -> Void) async -> [Issue] {
            await CallSites.$redirectedPaths.withValue([#filePath: path]) {
                await ExpectationUpdate.$enabledOverride.withValue(true) { await recordedIssues(body) }
            }
        }
    }

    /// The last paragraph of an issue: what the update did.
    func updateNote(_ issue: Issue?) -> String {
        (issue?.message ?? "").components(separatedBy: "\n\n").last ?? ""
    }

    @Test func anEventsLiteralIsRewrittenInPlaceAndTheNextRunPasses() throws {
        // CRLF line ends, a tab, a comment with a non-ASCII character before the call and one after it: kept.
        let fixture = try Fixture("import MarbleTesting\r\n\r\n@Test func search() {\r\n"
            + "\tlet typing = scheduler.hot(\"-a-b-c|\")\r\n"
            + "\t/* é */ scheduler.expect(typing, \"-a-b-x|\") // events ✓\r\n"
            + "}\r\n")
        let site = fixture.site("// events")
        func play(_ marbles: String) -> [Issue] {
            fixture.run {
                let scheduler = TestScheduler()
                let typing = scheduler.hot("-a-b-c|")
                scheduler.expect(typing, marbles, line: site.line, column: site.column)
                scheduler.run()
            }
        }
        let issues = play("-a-b-x|")
        #expect(fixture.text == fixture.original.replacingOccurrences(of: "\"-a-b-x|\"", with: "\"-a-b-c|\""))
        #expect(issues.count == 1)
        #expect(issues.first?.message.hasPrefix("typing did not emit the expected marbles:") == true)  // named from the copy
        #expect(updateNote(issues.first) == "MARBLES_UPDATE: updated MarbleTestingTests/SwiftUpdateTests.swift:5: \"-a-b-x|\" → \"-a-b-c|\"")
        let updated = fixture.bytes
        #expect(play("-a-b-c|").isEmpty)
        #expect(fixture.bytes == updated)
    }

    @Test func valuesAreWrittenByTheirNamesOrInBraces() throws {
        let fixture = try Fixture("""
            scheduler.expect(numbers, "-a-a-a|", values: ["a": 1, "b": 2]) // numbers
            scheduler.expect(strings, "-x|") // strings
            scheduler.expect(numbers, "-a-b-b-", values: ["a": 1, "b": 2]) // trailing dashes

            """)
        let numbers = fixture.site("// numbers"), strings = fixture.site("// strings"), dashes = fixture.site("// trailing dashes")
        func play(_ first: String, _ second: String, _ third: String) -> [Issue] {
            fixture.run {
                let scheduler = TestScheduler()
                let source = scheduler.hot("-a-b-c|", values: ["a": 1, "b": 2, "c": 42])
                scheduler.expect(source, first, values: ["a": 1, "b": 2], line: numbers.line, column: numbers.column)
                scheduler.expect(scheduler.hot("-{\"two words\"}|"), second, line: strings.line, column: strings.column)
                scheduler.expect(scheduler.hot("-a", values: ["a": 1]), third, values: ["a": 1, "b": 2], line: dashes.line, column: dashes.column)
                scheduler.run()
            }
        }
        #expect(play("-a-a-a|", "-x|", "-a-b-b-").count == 3)
        #expect(fixture.text == """
            scheduler.expect(numbers, "-a-b-{42}|", values: ["a": 1, "b": 2]) // numbers
            scheduler.expect(strings, "-{\\"two words\\"}|") // strings
            scheduler.expect(numbers, "-a-----", values: ["a": 1, "b": 2]) // trailing dashes

            """)
        #expect(play("-a-b-{42}|", "-{\"two words\"}|", "-a-----").isEmpty)
    }

    struct Item: Equatable {
        var id: Int
    }

    @Test func aValueTheMarblesCannotNameIsRefused() throws {
        let fixture = try Fixture("scheduler.expect(items, \"-a|\", values: [\"a\": Item(id: 1)])\n")
        let site = fixture.site("items")
        let issues = fixture.run {
            let scheduler = TestScheduler()
            scheduler.expect(scheduler.hot("-a|", values: ["a": Item(id: 2)]), "-a|", values: ["a": Item(id: 1)], line: site.line, column: site.column)
            scheduler.run()
        }
        #expect(fixture.text == fixture.original)
        #expect(updateNote(issues.first) == "MARBLES_UPDATE: cannot update MarbleTestingTests/SwiftUpdateTests.swift:1: "
            + "\"-{Item(id: 2)}|\" would not read back as what happened: name its values in values: (and errors: for #{…})")
    }

    @Test func inOrderKeepsItsSpacingAndTimeProgressionsStay() throws {
        let fixture = try Fixture("""
            scheduler.expect(typing, inOrder: "a b x |") // in order
            scheduler.expect(slow, "-a|") // slow

            """)
        let inOrder = fixture.site("// in order"), slow = fixture.site("// slow")
        func play(_ first: String, _ second: String) -> [Issue] {
            fixture.run {
                let scheduler = TestScheduler(frame: .milliseconds(1))
                scheduler.expect(scheduler.hot("-a--b-c|"), inOrder: first, line: inOrder.line, column: inOrder.column)
                // The source finishes: a stream still open that schedules on the TestScheduler itself would hold it.
                scheduler.expect(scheduler.hot("-a|").delay(for: .milliseconds(100), scheduler: scheduler), second, line: slow.line, column: slow.column)
                scheduler.run()
            }
        }
        #expect(play("a b x |", "-a|").count == 2)
        #expect(fixture.text == """
            scheduler.expect(typing, inOrder: "a b c |") // in order
            scheduler.expect(slow, "101ms a|") // slow

            """)
        #expect(play("a b c |", "101ms a|").isEmpty)
    }

    @Test func subscriptionLinesFollowTheSubscriptions() throws {
        let fixture = try Fixture("""
            scheduler.expect(request.subscriptions, "-^-!", "---^---!") // one more
            scheduler.expect(request.subscriptions, "-^-!", "---^---!", "^", "^") // fewer
            scheduler.expect(request.subscriptions) // none expected
            scheduler.expect(unused.subscriptions, "^--!", "-^") // none happened
            scheduler.expect(request.subscriptions, #"-^-!"#, "---^---!", "------------^---!") // right
            scheduler.expect(request.subscriptions, "-^-!", "---^---!", "------------^---!", // on two lines
                             "-^")

            """)
        let sites = ["// one more", "// fewer", "// none expected", "// none happened", "// right", "// on two lines"].map { fixture.site($0) }
        func play(_ lines: [[String]]) -> [Issue] {
            fixture.run {
                let scheduler = TestScheduler()
                let taps = scheduler.hot("-a-b--------c---|")
                let request = scheduler.cold("---x|")
                let unused = scheduler.cold("x|")
                scheduler.expect(taps.map { _ in request }.switchToLatest(), "------x--------x|")
                for (index, site) in sites.dropLast().enumerated() {
                    let source = index == 3 ? unused : request
                    switch lines[index].count {
                    case 0: scheduler.expect(source.subscriptions, line: site.line, column: site.column)
                    case 2: scheduler.expect(source.subscriptions, lines[index][0], lines[index][1], line: site.line, column: site.column)
                    case 3: scheduler.expect(source.subscriptions, lines[index][0], lines[index][1], lines[index][2], line: site.line, column: site.column)
                    default: scheduler.expect(source.subscriptions, lines[index][0], lines[index][1], lines[index][2], lines[index][3],
                                              line: site.line, column: site.column)
                    }
                }
                scheduler.run()
            }
        }
        let right = ["-^-!", "---^---!", "------------^---!"]
        #expect(play([["-^-!", "---^---!"], ["-^-!", "---^---!", "^", "^"], [], ["^--!", "-^"], right]).count == 4)
        #expect(fixture.text == """
            scheduler.expect(request.subscriptions, "-^-!", "---^---!", "------------^---!") // one more
            scheduler.expect(request.subscriptions, "-^-!", "---^---!", "------------^---!") // fewer
            scheduler.expect(request.subscriptions, "-^-!", "---^---!", "------------^---!") // none expected
            scheduler.expect(unused.subscriptions) // none happened
            scheduler.expect(request.subscriptions, #"-^-!"#, "---^---!", "------------^---!") // right
            scheduler.expect(request.subscriptions, "-^-!", "---^---!", "------------^---!", // on two lines
                             "-^")

            """)
        #expect(play([right, right, right, [], right]).isEmpty)
        // A surplus line on another line than the call's `(` is not removed: that would join lines.
        let twoLines = sites[5]
        #expect(twoLines.line == 6)
        let issues = fixture.run {
            let scheduler = TestScheduler()
            let taps = scheduler.hot("-a-b--------c---|")
            let request = scheduler.cold("---x|")
            scheduler.expect(taps.map { _ in request }.switchToLatest(), "------x--------x|")
            scheduler.expect(request.subscriptions, "-^-!", "---^---!", "------------^---!", "-^", line: twoLines.line, column: twoLines.column)
            scheduler.run()
        }
        #expect(updateNote(issues.first).hasSuffix("the 1 surplus literal(s) are on other lines; remove them by hand; "
            + "what happened: \"-^-!\", \"---^---!\", \"------------^---!\""))
    }

    @Test func requestsAreRewrittenAndTheDemandScriptIsLeftAlone() throws {
        let fixture = try Fixture("""
            scheduler.expect(query, "ab|", demand: "1---1-*") // output
            scheduler.expect(source.requests, "1---2-*") // requests

            """)
        let output = fixture.site("// output"), requests = fixture.site("// requests")
        func play(_ first: String, _ second: String) -> [Issue] {
            fixture.run {
                let scheduler = TestScheduler()
                let source = scheduler.cold("abcd|")
                scheduler.expect(source, first, demand: "1---1-*", line: output.line, column: output.column)
                scheduler.expect(source.requests, second, line: requests.line, column: requests.column)
                scheduler.run()
            }
        }
        #expect(play("ab|", "1---2-*").count == 2)
        #expect(fixture.text == """
            scheduler.expect(query, "a---b-(cd|)", demand: "1---1-*") // output
            scheduler.expect(source.requests, "1---1-*") // requests

            """)
        #expect(play("a---b-(cd|)", "1---1-*").isEmpty)
    }

    @Test func whatIsNotOnePlainLiteralIsRefusedWithTheReason() throws {
        let fixture = try Fixture(#"""
            scheduler.expect(query, marbles) // variable
            scheduler.expect(query, "-\(value)|") // interpolation
            scheduler.expect(query, """
                -x|
                """) // multi-line
            scheduler.expect(query, "-" + "x|") // concatenation
            scheduler.expect(query, "-y|") // edited since
            wrapper(query, "-x|") // a helper

            """#)
        let reasons = [
            "variable": "the marbles are a variable (`marbles`), not a string literal",
            "interpolation": "the marbles are an interpolated string; write them as one \"…\" literal",
            "multi-line": "the marbles are a multi-line string literal; write them as one \"…\" literal",
            "concatenation": "the marbles are an expression (`\"-\" + \"x|\"`), not a single string literal",
            "edited since": "the call no longer passes the marbles that ran (the file changed since it was compiled)",
        ]
        for (marker, reason) in reasons {
            let site = fixture.site(marker == "multi-line" ? "\"\"\"" : "// " + marker)
            let issues = fixture.run {
                let scheduler = TestScheduler()
                scheduler.expect(scheduler.hot("-a|"), "-x|", line: site.line, column: site.column)
                scheduler.run()
            }
            #expect(updateNote(issues.first) == "MARBLES_UPDATE: cannot update MarbleTestingTests/SwiftUpdateTests.swift:\(site.line): "
                + reason + "; what happened: \"-a|\"", "\(marker)")
        }
        // A helper that passes its caller's line and column on: no `expect(` there.
        let helperLine = UInt(fixture.original.split(separator: "\n", omittingEmptySubsequences: false).firstIndex { $0.contains("wrapper") }! + 1)
        let issues = fixture.run {
            let scheduler = TestScheduler()
            scheduler.expect(scheduler.hot("-a|"), "-x|", line: helperLine, column: 8)
            scheduler.run()
        }
        #expect(updateNote(issues.first).hasPrefix("MARBLES_UPDATE: cannot update MarbleTestingTests/SwiftUpdateTests.swift:\(helperLine): "
            + "found no `expect(` call there"))
        #expect(fixture.text == fixture.original)
    }

    @Test func withoutTheSwitchNothingIsWritten() throws {
        let fixture = try Fixture("scheduler.expect(query, \"-x|\")\n")
        let site = fixture.site("query")
        let issues = CallSites.$redirectedPaths.withValue([#filePath: fixture.path]) {
            ExpectationUpdate.$enabledOverride.withValue(false) {
                recordedIssues {
                    let scheduler = TestScheduler()
                    scheduler.expect(scheduler.hot("-a|"), "-x|", line: site.line, column: site.column)
                    scheduler.run()
                }
            }
        }
        #expect(issues.count == 1)
        #expect(issues.first?.message.contains("MARBLES_UPDATE") == false)
        #expect(fixture.text == fixture.original)
    }

    /// Swift Testing runs tests in parallel: failing expectations of one file, in concurrent
    /// tasks (two of them on one line), are all written.
    @Test func concurrentUpdatesOfOneFileAreAllApplied() async throws {
        let count = 16
        var text = (0..<count).map { "    scheduler.expect(stream\($0), \"-x|\") // line \($0)\n" }.joined()
        text += "    scheduler.expect(a, \"-x-x|\"); scheduler.expect(b, \"-y|\") // shared\n"
        let fixture = try Fixture(text)
        let sites = (0..<count).map { fixture.site("// line \($0)") }
        let shared = [fixture.site("// shared", occurrence: 0), fixture.site("// shared", occurrence: 1)]
        let issues = await fixture.run {
            await withTaskGroup(of: Void.self) { group in
                for (index, site) in sites.enumerated() {
                    group.addTask {
                        let scheduler = TestScheduler()
                        scheduler.expect(scheduler.hot(String(repeating: "-", count: index + 1) + "a|"), "-x|", line: site.line, column: site.column)
                        scheduler.run()
                    }
                }
                for (marbles, site) in zip(["-x-x|", "-y|"], shared) {
                    group.addTask {
                        let scheduler = TestScheduler()
                        scheduler.expect(scheduler.hot("-abcdefghij|"), marbles, line: site.line, column: site.column)
                        scheduler.run()
                    }
                }
            }
        }
        #expect(issues.count == count + 2)
        var expected = (0..<count).map { "    scheduler.expect(stream\($0), \"\(String(repeating: "-", count: $0 + 1))a|\") // line \($0)\n" }.joined()
        expected += "    scheduler.expect(a, \"-abcdefghij|\"); scheduler.expect(b, \"-abcdefghij|\") // shared\n"
        #expect(fixture.text == expected)
    }
}
