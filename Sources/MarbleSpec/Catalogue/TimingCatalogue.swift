import Reactive

/// Operators that work with time. Every `scheduler:` is the test's virtual scheduler; durations
/// are `.milliseconds(n)`-style values converted through the test's `frame`, or frame counts.
enum TimingCatalogue {
    static let entries: [CatalogueEntry] = [
        CatalogueEntry("debounce", [Parameter("for", .duration), Parameter("scheduler", .scheduler), Parameter("options", .schedulerOptions, optional: true)], family: "debounce",
                       "publishes a value once no newer one arrived for the due time; drops the pending value when upstream finishes") { call throws(EvalError) in
            var debounced = try call.upstream.debounce(for: call.frames("for"), scheduler: call.scheduler)
            let drops = DemandDrops<Value>()
            debounced.demandDrops = drops
            return call.result(debounced).droppingWithoutDemand(drops)
        },
        CatalogueEntry("throttle", [Parameter("for", .duration), Parameter("scheduler", .scheduler), Parameter("latest", .bool)], family: "throttle",
                       "publishes at most one value per interval: the first at once (by a hop), then the latest or the first received in each interval") { call throws(EvalError) in
            var throttled = try call.upstream.throttle(for: call.frames("for"), scheduler: call.scheduler, latest: call.bool("latest"))
            let drops = DemandDrops<Value>()
            throttled.demandDrops = drops
            return call.result(throttled).droppingWithoutDemand(drops)
        },
        CatalogueEntry("delay", [Parameter("for", .duration), Parameter("tolerance", .any, optional: true), Parameter("scheduler", .scheduler), Parameter("options", .schedulerOptions, optional: true)], family: "delay",
                       "shifts every value and the completion (failure included) later by the interval") { call throws(EvalError) in
            return call.result(try call.upstream.delay(for: call.frames("for"), scheduler: call.scheduler))
        },
        CatalogueEntry("timeout", [Parameter("_ interval", .duration), Parameter("scheduler", .scheduler), Parameter("options", .schedulerOptions, optional: true), Parameter("customError", .closure, optional: true)], family: "timeout",
                       "finishes (or fails with customError) when no value arrives within the interval; values pass by a hop") { call throws(EvalError) in
            var customError: (() -> StreamError)?
            if try call.has("customError") {
                let makeError = try call.function("customError")
                customError = { StreamError(makeError([])) }
            }
            return call.result(try call.upstream.timeout(call.frames("interval"), scheduler: call.scheduler, customError: customError))
        },
        CatalogueEntry("measureInterval", [Parameter("using", .scheduler), Parameter("options", .schedulerOptions, optional: true)], family: "measureInterval",
                       "replaces each value with the frames since the previous one (the first: since subscription), as an Int") { call throws(EvalError) in
            return call.result(try call.upstream.measureInterval(using: call.scheduler), converting: { Value.int($0.frames) })
        },
        CatalogueEntry("receive", [Parameter("on", .scheduler, drawn: true), Parameter("options", .schedulerOptions, optional: true)], family: "receive-on",
                       "delivers values and the completion by a hop on the scheduler (same frame, after queued work)") { call throws(EvalError) in
            return call.result(try call.upstream.receive(on: call.scheduler))
        },
        CatalogueEntry("subscribe", [Parameter("on", .scheduler, drawn: true), Parameter("options", .schedulerOptions, optional: true)], family: "subscribe-on",
                       "subscribes, requests and cancels by a hop on the scheduler; values pass synchronously") { call throws(EvalError) in
            return call.result(try call.upstream.subscribe(on: call.scheduler))
        },
        CatalogueEntry("collect", [Parameter("_ strategy", .strategy), Parameter("options", .schedulerOptions, optional: true)], family: "collect-byTime",
                       "collects values into arrays per time window (.byTime) or per window or count (.byTimeOrCount); empty windows emit nothing") { call throws(EvalError) in
            let strategy = try call.member("strategy")
            let fail = { (message: String) -> EvalError in .fault(SpecDiagnostic(message, at: strategy.location)) }
            func frames(_ runtime: Runtime) throws(EvalError) -> Int {
                switch runtime {
                case .duration(let frames) where frames > 0: return frames
                case .value(.int(let frames)) where frames > 0: return try call.frameCount(frames, at: strategy.location)
                default: throw fail("a collect window must be a positive duration")
                }
            }
            switch (strategy.name, strategy.payload.count) {
            case ("byTime", 2):
                return call.result(try call.upstream.collect(.byTime(call.scheduler, .init(frames: frames(strategy.payload[1])))), converting: { Value.array($0) })
            case ("byTimeOrCount", 3):
                guard case .value(.int(let count)) = strategy.payload[2], count > 0 else { throw fail("byTimeOrCount needs a positive count") }
                return call.result(try call.upstream.collect(.byTimeOrCount(call.scheduler, .init(frames: frames(strategy.payload[1])), count)), converting: { Value.array($0) })
            default:
                throw fail("collect's strategy is .byTime(scheduler, interval) or .byTimeOrCount(scheduler, interval, count)")
            }
        },
        CatalogueEntry("Timer.publish", [Parameter("every", .duration), Parameter("tolerance", .any, optional: true), Parameter("on", .runLoop), Parameter("in", .runLoopMode), Parameter("options", .schedulerOptions, optional: true)], kind: .constructor, family: "timer",
                       "a connectable timer: after connect(), ticks every interval (the first one interval after connecting), emitting the frame; never finishes") { call throws(EvalError) in
            let interval = try call.timerInterval("every")
            let timer = call.scheduler.timerPublisher(every: .init(frames: interval))
            let drops = DemandDrops<Value>()
            let ticks = DemandDrops<VirtualTimeScheduler.SchedulerTimeType>()
            ticks.subscribed = {
                guard let report = drops.subscription() else { return nil }
                return { time in report(.int(time.frame)) }
            }
            timer.demandDrops = ticks
            var stream = StreamValue(publisher: Bridge(upstream: timer, value: { Value.int($0.frame) }, failure: neverFails).eraseToAnyPublisher(),
                                     text: call.text, connect: timer.connect)
            stream.demandDrops = [drops]
            return .stream(stream)
        },
    ]
}

extension BoundCall {
    /// The duration argument `name` as an interval on the virtual clock (the `.marble`
    /// language counts frames; `measureInterval` and `Timer` show frames as `Int`s).
    func frames(_ name: String) throws(EvalError) -> VirtualTimeScheduler.SchedulerTimeType.Stride {
        .init(frames: try duration(name))
    }
}

extension Value {
    var isNumber: Bool {
        switch self {
        case .int, .double: return true
        default: return false
        }
    }
}

extension Runtime {
    /// A stream whose operator tells `drops` what it discards without demand (debounce, throttle,
    /// a timer), for the run to note (see `DemandDrops`).
    func droppingWithoutDemand(_ drops: DemandDrops<Value>) -> Runtime {
        guard case .stream(var stream) = self else { return self }
        stream.demandDrops.append(drops)
        return .stream(stream)
    }
}
