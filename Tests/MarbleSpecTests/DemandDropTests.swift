import Testing
import MarbleNotation
@testable import MarbleSpec

/// Issue 29, item 17: what debounce, throttle or a timer drops for lack of demand is recorded
/// for the subscription that lost it, wherever the operator stands in its `let` line, and only
/// for that subscription.
@Suite struct DemandDropTests {
    /// The values each subscription of `stream` lost, as `frame:token`.
    func dropped(_ report: FileReport, _ stream: String) -> [[String]] {
        let streams = report.tests.first?.streams ?? []
        return (streams.first { $0.name == stream }?.subscriptions ?? []).map { record in
            record.dropped.map { "\($0.frame):\(MarblePrinter.cells([($0.frame, $0.event)], frames: $0.frame..<($0.frame + 1)).first ?? "")" }
        }
    }

    @Test(arguments: [
        // The operator as the last step, as before, and followed by another.
        "typing.debounce(for: .milliseconds(2), scheduler: RunLoop.main)",
        "typing.debounce(for: .milliseconds(2), scheduler: RunLoop.main).map { $0 }",
        "typing.debounce(for: .milliseconds(2), scheduler: RunLoop.main).filter { _ in true }.map { $0 }",
    ])
    func aDebounceDropIsRecordedWhereverItStandsInTheLine(_ pipeline: String) {
        let report = runMarble("""
            test "t"
              hot    typing  -a-b------c----|
              let    query = \(pipeline)
              demand query   1---------------
              expect query   -----b---------|

            """)
        #expect(problems(report) == [])
        #expect(dropped(report, "query") == [["12:c"]])
    }

    @Test func aThrottleDropBeforeAnotherOperatorIsRecorded() {
        let report = runMarble("""
            test "t"
              hot    taps  -a-----b-----|
              let    once = taps.throttle(for: .milliseconds(3), scheduler: RunLoop.main, latest: false).map { $0 }
              demand once  1-------------
              expect once  -a-----------|

            """)
        #expect(problems(report) == [])
        #expect(dropped(report, "once") == [["7:b"]])
    }

    /// `let slow = query` subscribes to query (through its own subscription of query), and
    /// query's own test subscriber subscribes too, in the same frame: each subscription is
    /// credited with what its own debounce subscription dropped, never with the other's.
    @Test(arguments: [true, false])
    func anAliasIsNotCreditedWithItsOriginalsDrops(_ aliasFirst: Bool) {
        let lines = [
            "  demand slow    *--------",
            "  demand query   ---------",
        ]
        let report = runMarble("""
            test "t"
              hot    typing  -a-------|
              let    query = typing.debounce(for: .milliseconds(2), scheduler: RunLoop.main)
              let    slow  = query
            \((aliasFirst ? lines : lines.reversed()).joined(separator: "\n"))
              expect slow    ---a-----|
              expect query   ---------|

            """)
        #expect(problems(report) == [])
        // slow got `a`: it lost nothing. query's own subscription lost it; its subscription
        // for slow did not.
        #expect(dropped(report, "slow") == [[]])
        #expect(dropped(report, "query").sorted { $0.count < $1.count } == [[], ["3:a"]])
    }
}
