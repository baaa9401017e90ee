"""The RxPY side of `make bench`: W1, W2, W3, W5 driven through reactivex's TestScheduler
(hot observables built from recorded messages, a MockObserver recording the output), and W6
through reactivex's marble parser. Prints one JSON object like marbles-bench does.

    python rxpy_workloads.py W1 1000000 3
    python rxpy_workloads.py parse LINE_FILE 3

The timelines are the ones marbles-bench builds (Sources/marbles-bench/Workloads.swift), and the
output checksum is the same FNV-style fold, so the driver can check that every contender
computed the same answer.
"""

import json
import sys
import time

import reactivex
from reactivex import operators as ops
from reactivex.observable.marbles import parse
from reactivex.testing import ReactiveTest, TestScheduler

MASK = (1 << 64) - 1
PRIME = 1_099_511_628_211
COMPLETION_MARK = 0xC0FFEE
IDLE_FRAMES = 1_000_000_000  # W5: `1000000s` at 1ms a frame


def idle_stride(n):
    return min(10_000, max(1, n // 2))


class Checksum:
    def __init__(self):
        self.count = 0
        self.hash = 14_695_981_039_346_656_037

    def value(self, value, at):
        self.hash = (((self.hash ^ (at & MASK)) * PRIME) + (value & MASK)) & MASK
        self.count += 1

    def finished(self, at):
        self.hash = (((self.hash ^ (at & MASK)) * PRIME) + COMPLETION_MARK) & MASK
        self.count += 1


def sources(workload, n):
    """[(events [(time, value)], completion time)] — the same timelines as Workload.make."""
    if workload == "W1":
        return [([(i, i) for i in range(1, n + 1)], n + 1)]
    if workload == "W5":
        stride = idle_stride(n)
        events = [(i + (i - 1) // stride * IDLE_FRAMES, i) for i in range(1, n + 1)]
        return [(events, events[-1][0] + 1)]
    if workload == "W2":
        return [([(3 * i, i) for i in range(1, n + 1)], 3 * n + 3)]
    if workload == "W3":
        per = n // 8
        return [([(8 * j + k + 1, 8 * j + k) for j in range(per)], 8 * per + 1) for k in range(8)]
    raise SystemExit(f"unknown workload {workload}")


def messages(timeline):
    events, completion = timeline
    recorded = [ReactiveTest.on_next(t, v) for t, v in events]
    recorded.append(ReactiveTest.on_completed(completion))
    return recorded


def run(workload, inputs):
    """One run: hot observables (every message queued up front, as RxPY does), the pipeline,
    and TestScheduler.start. Returns the MockObserver's messages."""
    scheduler = TestScheduler()
    hots = [scheduler.create_hot_observable(m) for m in inputs]

    def create():
        if workload in ("W1", "W5"):
            return hots[0].pipe(
                ops.map(lambda x: x * 2),
                ops.filter(lambda x: x % 3 != 0),
                ops.scan(lambda acc, x: acc + x, 0),
            )
        if workload == "W2":
            return hots[0].pipe(ops.debounce(2, scheduler=scheduler))
        return reactivex.merge(*hots)

    # Frame 0 is the test's start: create and subscribe before the first event (at frame 1).
    # (start() treats 0 as "use the default", hence the fractions.)
    end = max(completion for _, completion in inputs_end(inputs)) + 1
    observer = scheduler.start(create, created=0.25, subscribed=0.5, disposed=float(end))
    return observer.messages


def inputs_end(inputs):
    for recorded in inputs:
        yield None, max(int(message.time) for message in recorded)


def checksum_of(recorded):
    checksum = Checksum()
    for message in recorded:
        kind = message.value.kind
        at = int(message.time)
        if kind == "N":
            checksum.value(message.value.value, at)
        elif kind == "C":
            checksum.finished(at)
        else:
            raise SystemExit(f"unexpected error notification: {message}")
    return checksum


def parse_checksum(parsed):
    checksum = Checksum()
    for at, notification in parsed:
        if notification.kind == "N":
            checksum.value(1, int(at))
        elif notification.kind == "C":
            checksum.finished(int(at))
    return checksum


def main():
    if len(sys.argv) != 4:
        raise SystemExit(__doc__)
    seconds = []
    cpu = []
    checksum = Checksum()
    if sys.argv[1] == "parse":
        with open(sys.argv[2], encoding="utf-8") as handle:
            line = handle.read()
        for _ in range(int(sys.argv[3])):
            start = time.perf_counter()
            cpu_start = time.process_time()
            parsed = parse(line, timespan=1)
            cpu.append(time.process_time() - cpu_start)
            seconds.append(time.perf_counter() - start)
            checksum = parse_checksum(parsed)
    else:
        workload, n, runs = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
        timelines = sources(workload, n)
        for _ in range(runs):
            inputs = [messages(t) for t in timelines]  # building the input lists is not timed
            start = time.perf_counter()
            cpu_start = time.process_time()
            recorded = run(workload, inputs)
            cpu.append(time.process_time() - cpu_start)
            seconds.append(time.perf_counter() - start)
            checksum = checksum_of(recorded)
            del recorded, inputs
    print(json.dumps({"seconds": seconds, "cpu_seconds": cpu, "count": checksum.count, "hash": format(checksum.hash, "x"), "ok": True}))


if __name__ == "__main__":
    main()
