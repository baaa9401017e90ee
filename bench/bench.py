#!/usr/bin/env python3
"""`make bench`: builds release, runs every contender on every workload, checks that all of them
computed the same output, then prints one table.

Contenders (each run in its own process, so its peak RSS is its own):
  engine  W1–W3, W5 through the engine's Swift API (marbles-bench engine)
  swift API  W1 through MarbleTesting: TestScheduler.hot → operators → a marble expectation
          (marbles-bench swift-api), printed beside the engine row
  e2e     the same workloads from a generated .marble file: read, parse, simulate, compare
          (marbles-bench e2e → MarbleRunner.run(path:))
  RxPY    reactivex from PyPI, in bench/.venv (created here), through its TestScheduler
  floor   a hand-written Swift loop over the same input arrays (marbles-bench floor)
  RxJS    W1 at RXJS_SIZES through RxJS's TestScheduler in run mode (bench/rxjs_workloads.js;
          Debian's nodejs and rxjs: `apt-get install -y nodejs node-inquirer`), beside the
          engine, Swift API and end-to-end rows of the same size; "skipped" when missing
plus W4 (`marbles run marbles/`, process included) and W6 (parsing one long marble line), then
instructions per event by callgrind (when valgrind is installed): each Swift contender run at
two sizes, the difference in instructions over the difference in events (start-up cancels),
and last issue 31's table: each figure beside its goal, with instructions/event and peak RSS.
Times are the CPU time of the measured region (wall time beside it): on a shared machine the
wall clock says as much about the neighbours as about the run.

Environment knobs, for quick or quiet re-runs:
  SIZES=10000,100000,1000000   source events per workload
  RUNS=5                       runs per Swift measurement (the median is reported)
  RXPY_RUNS=3                  runs per RxPY measurement
  WORKLOADS=W1,W2,W3,W4,W5,W6  which workloads
  RXJS_SIZES=30000             W1 sizes run against RxJS (quadratic: 30k takes about 20 s)
  CALLGRIND_SIZES=20000,100000 the two sizes of the instruction counts (CALLGRIND=0: none)
  SKIP_BUILD=1                 use the binaries already in .build/release
"""

import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BENCH = os.path.join(ROOT, "bench")
VENV = os.path.join(BENCH, ".venv")
VENV_PYTHON = os.path.join(VENV, "bin", "python")
BIN = os.path.join(ROOT, ".build", "release")
SWIFT_BENCH = os.path.join(BIN, "marbles-bench")
MARBLES = os.path.join(BIN, "marbles")

SIZES = [int(s) for s in os.environ.get("SIZES", "10000,100000,1000000").split(",")]
RUNS = int(os.environ.get("RUNS", "5"))
RXPY_RUNS = int(os.environ.get("RXPY_RUNS", "3"))
WORKLOADS = os.environ.get("WORKLOADS", "W1,W2,W3,W4,W5,W6").split(",")
W6_SIZES = [100_000, 1_000_000]
W4_RUNS = int(os.environ.get("W4_RUNS", "20"))
RXJS_SIZES = [int(s) for s in os.environ.get("RXJS_SIZES", "30000").split(",") if s]
CALLGRIND_SIZES = [int(s) for s in os.environ.get("CALLGRIND_SIZES", "20000,100000").split(",") if s]
NODE = shutil.which("node") or shutil.which("nodejs")
RXJS_INSTALL = "apt-get install -y nodejs node-inquirer"

DESCRIPTIONS = {
    "W1": "hot source, a value per frame → map(×2) → filter(%3≠0) → scan(+)",
    "W2": "a value every 3rd frame → debounce(2 frames)",
    "W3": "8 hot sources, N/8 values each → merge",
    "W5": "W1 with a `1000000s` idle stretch after every min(10k, N/2) values",
}


def log(message):
    print(message, file=sys.stderr, flush=True)


def sh(command, **kwargs):
    log("$ " + " ".join(command))
    subprocess.run(command, check=True, cwd=ROOT, **kwargs)


def setup():
    if not os.environ.get("SKIP_BUILD"):
        sh(["swift", "build", "-c", "release", "--product", "marbles-bench"])
        sh(["swift", "build", "-c", "release", "--product", "marbles"])
    if not os.path.exists(VENV_PYTHON):
        sh([sys.executable, "-m", "venv", VENV])
    check = subprocess.run([VENV_PYTHON, "-c", "import reactivex"], capture_output=True)
    if check.returncode != 0:
        sh([VENV_PYTHON, "-m", "pip", "install", "--quiet", "-r", os.path.join(BENCH, "requirements.txt")])
    version = subprocess.run([VENV_PYTHON, "-c", "import importlib.metadata as m; print(m.version('reactivex'))"],
                             capture_output=True, text=True, check=True).stdout.strip()
    return version


def measure(command):
    """Runs one contender process; returns its JSON report with its peak RSS (KiB) added."""
    process = subprocess.Popen(command, cwd=ROOT, stdout=subprocess.PIPE, text=True)
    output = process.stdout.read()
    _, status, usage = os.wait4(process.pid, 0)
    process.returncode = os.waitstatus_to_exitcode(status)
    if process.returncode != 0:
        raise SystemExit(f"failed ({process.returncode}): {' '.join(command)}")
    result = json.loads(output)
    result["rss_kib"] = usage.ru_maxrss
    result["wall"] = statistics.median(result["seconds"])
    # CPU time where the contender reports it (all of them do): the figure ratios are taken of.
    result["median"] = statistics.median(result.get("cpu_seconds") or result["seconds"])
    return result


def rxjs_available():
    """The RxJS row needs node and rxjs (Debian puts it under /usr/share/nodejs)."""
    if not NODE:
        return False
    probe = subprocess.run([NODE, "-e", "module.paths.push('/usr/share/nodejs'); require('rxjs/testing')"], capture_output=True)
    return probe.returncode == 0


def rxjs_rows(workdir):
    """W1 at RXJS_SIZES: RxJS's TestScheduler beside the engine, the Swift API and end to end."""
    if "W1" not in WORKLOADS or not RXJS_SIZES:
        return None
    if not rxjs_available():
        log(f"-- RxJS skipped: needs node and rxjs ({RXJS_INSTALL})")
        return []
    rows = []
    for n in RXJS_SIZES:
        label = f"W1 N={n} (RxJS)"
        log(f"-- {label}")
        path = os.path.join(workdir, f"W1-{n}-rxjs.marble")
        sh([SWIFT_BENCH, "generate", "W1", str(n), path])
        results = {
            "engine": measure([SWIFT_BENCH, "engine", "W1", str(n), str(RUNS)]),
            "swift-api": measure([SWIFT_BENCH, "swift-api", "W1", str(n), str(RUNS)]),
            "e2e": measure([SWIFT_BENCH, "e2e", path, str(RUNS)]),
            "RxJS": measure([NODE, os.path.join(BENCH, "rxjs_workloads.js"), "W1", str(n), "1"]),
            "floor": measure([SWIFT_BENCH, "floor", "W1", str(n), str(RUNS)]),
        }
        verify(label, results)
        os.remove(path)
        rows.append((n, results))
    return rows


def callgrind_instructions(command):
    """The instructions callgrind counts for a whole process (start-up included)."""
    with tempfile.NamedTemporaryFile(prefix="callgrind-", delete=False) as handle:
        out = handle.name
    try:
        log("$ valgrind --tool=callgrind " + " ".join(command))
        process = subprocess.run(["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}"] + command, cwd=ROOT,
                                 stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        match = re.search(r"Collected\s*:\s*(\d+)", process.stderr)
        if process.returncode != 0 or not match:
            raise SystemExit(f"callgrind failed: {' '.join(command)}\n{process.stderr[-2000:]}")
        return int(match.group(1))
    finally:
        os.remove(out)


def callgrind_rows(workdir):
    """Instructions per event: each contender at two sizes; the slope cancels start-up."""
    if os.environ.get("CALLGRIND") == "0" or len(CALLGRIND_SIZES) < 2:
        return None
    if not shutil.which("valgrind"):
        log("-- callgrind skipped: valgrind is not installed (apt-get install -y valgrind)")
        return []
    small, large = CALLGRIND_SIZES[0], CALLGRIND_SIZES[-1]
    rows = []
    contenders = [("W1", "engine API"), ("W2", "engine API"), ("W3", "engine API"), ("W1", "Swift API (MarbleTesting)"),
                  ("W1", "end to end (.marble)"), ("W1", "Swift floor")]
    for workload, name in contenders:
        if workload not in WORKLOADS:
            continue
        counts = []
        for n in (small, large):
            if name == "end to end (.marble)":
                path = os.path.join(workdir, f"{workload}-{n}-callgrind.marble")
                sh([SWIFT_BENCH, "generate", workload, str(n), path])
                command = [SWIFT_BENCH, "e2e", path, "1"]
            else:
                verb = {"engine API": "engine", "Swift API (MarbleTesting)": "swift-api", "Swift floor": "floor"}[name]
                command = [SWIFT_BENCH, verb, workload, str(n), "1"]
            counts.append(callgrind_instructions(command))
            if name == "end to end (.marble)":
                os.remove(path)
        per_event = (counts[1] - counts[0]) / (large - small)
        rows.append((workload, name, counts, per_event, counts[1] - per_event * large))
    return rows


def verify(label, results):
    """Every contender must report the same output before any figure is printed."""
    reference = None
    for name, result in results.items():
        if not result.get("ok", True):
            raise SystemExit(f"{label}: {name} did not pass (its expectation did not match)")
        signature = (result["count"], result["hash"])
        if reference is None:
            reference = (name, signature)
        elif signature != reference[1]:
            raise SystemExit(f"{label}: {name} computed {signature}, {reference[0]} computed {reference[1]}")


def pipeline_rows(workdir):
    rows = []
    for workload in [w for w in ("W1", "W2", "W3", "W5") if w in WORKLOADS]:
        for n in SIZES:
            label = f"{workload} N={n}"
            log(f"-- {label}")
            path = os.path.join(workdir, f"{workload}-{n}.marble")
            sh([SWIFT_BENCH, "generate", workload, str(n), path])
            results = {
                "engine": measure([SWIFT_BENCH, "engine", workload, str(n), str(RUNS)]),
                **({"swift-api": measure([SWIFT_BENCH, "swift-api", workload, str(n), str(RUNS)])} if workload == "W1" else {}),
                "e2e": measure([SWIFT_BENCH, "e2e", path, str(RUNS)]),
                "RxPY": measure([VENV_PYTHON, os.path.join(BENCH, "rxpy_workloads.py"), workload, str(n), str(RXPY_RUNS)]),
                "floor": measure([SWIFT_BENCH, "floor", workload, str(n), str(RUNS)]),
            }
            verify(label, results)
            os.remove(path)
            rows.append((workload, n, results))
    return rows


def w4_row():
    """The whole catalogue through `marbles run`, process included."""
    log("-- W4")
    seconds = []
    rss = 0
    tests = 0
    for _ in range(W4_RUNS):
        start = time.perf_counter()
        process = subprocess.Popen([MARBLES, "run", "marbles/", "--no-color"], cwd=ROOT, stdout=subprocess.PIPE, text=True)
        output = process.stdout.read()
        _, status, usage = os.wait4(process.pid, 0)
        seconds.append(time.perf_counter() - start)
        if os.waitstatus_to_exitcode(status) != 0:
            raise SystemExit("W4: `marbles run marbles/` reported failures:\n" + output)
        rss = max(rss, usage.ru_maxrss)
        match = re.search(r"(\d+) tests? in (\d+) files?", output)
        tests = int(match.group(1)) if match else 0
        files = int(match.group(2)) if match else 0
    return {"tests": tests, "files": files, "median": statistics.median(seconds), "rss_kib": rss}


def w6_rows(workdir):
    rows = []
    for flavor, sizes in (("simple", W6_SIZES), ("rich", [1_000_000])):
        for size in sizes:
            label = f"W6 {flavor} {size} B"
            log(f"-- {label}")
            path = os.path.join(workdir, f"line-{flavor}-{size}.txt")
            sh([SWIFT_BENCH, "line", flavor, str(size), path])
            results = {
                "parser": measure([SWIFT_BENCH, "parse", path, str(RUNS)]),
                "floor": measure([SWIFT_BENCH, "parse-floor", path, str(RUNS)]),
            }
            if flavor == "simple":
                # RxPY's marble parser reads this subset (`-`, one-letter values, `|`) the same way.
                results["RxPY"] = measure([VENV_PYTHON, os.path.join(BENCH, "rxpy_workloads.py"), "parse", path, str(RXPY_RUNS)])
            verify(label, results)
            rows.append((flavor, os.path.getsize(path), results))
            os.remove(path)
    return rows


def rate(value):
    for unit, scale in (("G", 1e9), ("M", 1e6), ("k", 1e3)):
        if value >= scale:
            return f"{value / scale:.3g} {unit}"
    return f"{value:.3g}"


def mib(kib):
    return f"{kib / 1024:.0f} MiB"


def ratio(value):
    return f"{value:.3g}×" if value >= 0.1 else f"{value:.2g}×"


def machine():
    cpu = "unknown CPU"
    try:
        with open("/proc/cpuinfo") as handle:
            for line in handle:
                if line.startswith("model name"):
                    cpu = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    swift = subprocess.run(["swift", "--version"], capture_output=True, text=True).stdout.splitlines()
    load = os.getloadavg()
    return f"{cpu}, {os.cpu_count()} cores; {swift[0] if swift else 'swift ?'}; Python {sys.version.split()[0]}; load average at the end {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}"


def goal_rows(rows, rxjs, instructions):
    """Issue 31's table, every row side by side: the figure measured in this run, its goal, and
    instructions per event (callgrind) and peak RSS where the row has them. Rows whose workload
    or size this run left out say so."""
    by_key = {(w, n): r for w, n, r in rows}
    per_event = {(w, name): slope for w, name, _, slope, _ in (instructions or [])}
    largest = max(SIZES)
    out = []

    def instr(workload, name):
        slope = per_event.get((workload, name))
        return f"{slope:,.0f}" if slope is not None else "—"

    def cell(workload, n, name):
        return by_key.get((workload, n), {}).get(name)

    e2e = cell("W1", largest, "e2e")
    if e2e:
        seconds = e2e["median"]
        out.append((f"end to end W1, {largest:,} events, CPU", f"{rate(largest / seconds)} events/s",
                    "≥ 3 M events/s", largest / seconds >= 3e6, instr("W1", "end to end (.marble)"), mib(e2e["rss_kib"])))
        out.append((f"end to end W1, {largest:,} events, max RSS", mib(e2e["rss_kib"]), "≤ 120 MiB",
                    e2e["rss_kib"] <= 120 * 1024, instr("W1", "end to end (.marble)"), mib(e2e["rss_kib"])))
    api = cell("W1", largest, "swift-api")
    if api:
        out.append((f"Swift API W1, {largest:,} events", f"{rate(largest / api['median'])} events/s", "≥ 5 M events/s",
                     largest / api["median"] >= 5e6, instr("W1", "Swift API (MarbleTesting)"), mib(api["rss_kib"])))
    for workload in ("W1", "W2", "W3"):
        engine, floor = cell(workload, largest, "engine"), cell(workload, largest, "floor")
        if engine and floor:
            times = engine["median"] / floor["median"]
            out.append((f"engine vs the hand-written loop, {workload} {largest:,}", ratio(times), "≤ 4×", times <= 4,
                        instr(workload, "engine API"), mib(engine["rss_kib"])))
    for n, results in rxjs or []:
        for name, shown in (("e2e", "end to end"), ("swift-api", "Swift API")):
            times = results["RxJS"]["median"] / results[name]["median"]
            out.append((f"vs RxJS TestScheduler, W1 {n:,} (CPU), {shown}", ratio(times), "≥ 500×", times >= 500,
                        "", mib(results[name]["rss_kib"])))
    rxpy_n = 100_000 if ("W1", 100_000) in by_key else largest
    e2e_rxpy = cell("W1", rxpy_n, "e2e")
    if e2e_rxpy:
        times = by_key[("W1", rxpy_n)]["RxPY"]["median"] / e2e_rxpy["median"]
        out.append((f"vs RxPY, W1 {rxpy_n:,} end to end (CPU)", ratio(times), "≥ 40×", times >= 40, "", mib(e2e_rxpy["rss_kib"])))
    return out


def main():
    started = time.time()
    rxpy_version = setup()
    workdir = tempfile.mkdtemp(prefix="marbles-bench-")
    try:
        rows = pipeline_rows(workdir)
        w4 = w4_row() if "W4" in WORKLOADS else None
        w6 = w6_rows(workdir) if "W6" in WORKLOADS else []
        rxjs = rxjs_rows(workdir)
        instructions = callgrind_rows(workdir)
    finally:
        shutil.rmtree(workdir, ignore_errors=True)

    print(f"\nmarbles bench — {time.strftime('%Y-%m-%d %H:%M')}, {machine()}")
    print(f"Medians of {RUNS} runs (RxPY: {RXPY_RUNS}); every contender's output checked equal (count and checksum) before printing.")
    print(f"RxPY = reactivex {rxpy_version} with its TestScheduler; floor = a hand-written Swift loop over the same input arrays.")
    print("events/s and ns/event are CPU time (the measured region); wall ns/event beside them.")
    print("× RxPY = RxPY's CPU time / this row's (higher is better); × floor = this row's CPU time / the floor's (lower is better).\n")
    print("| workload | N | contender | events/s | ns/event | wall ns/event | peak RSS | × RxPY | × floor |")
    print("|---|---:|---|---:|---:|---:|---:|---:|---:|")
    for workload, n, results in rows:
        rxpy = results["RxPY"]["median"]
        floor = results["floor"]["median"]
        for name in ("engine", "swift-api", "e2e", "RxPY", "floor"):
            if name not in results:
                continue
            result = results[name]
            seconds = result["median"]
            shown = {"engine": "engine API", "swift-api": "Swift API (MarbleTesting)", "e2e": "end to end (.marble)", "RxPY": "RxPY",
                     "floor": "Swift floor"}[name]
            print(f"| {workload} | {n:,} | {shown} | {rate(n / seconds)} | {seconds / n * 1e9:,.0f} | {result['wall'] / n * 1e9:,.0f} "
                  f"| {mib(result['rss_kib'])} | {ratio(rxpy / seconds)} | {ratio(seconds / floor)} |")
    if w4:
        print(f"| W4 | {w4['tests']} tests, {w4['files']} files | `marbles run marbles/` | {w4['tests'] / w4['median']:,.0f} tests/s "
              f"| | {w4['median'] * 1e3:.1f} ms wall | {mib(w4['rss_kib'])} | | |")
    for flavor, size, results in w6:
        floor = results["floor"]["median"]
        rxpy = results.get("RxPY", {}).get("median")
        events = results["parser"]["count"]
        for name in ("parser", "RxPY", "floor"):
            if name not in results:
                continue
            seconds = results[name]["median"]
            shown = {"parser": "MarbleParser", "RxPY": "RxPY marbles.parse", "floor": "Swift floor"}[name]
            print(f"| W6 {flavor} | {size / 1e6:.1f} MB, {events:,} events | {shown} | {rate(events / seconds)} "
                  f"({size / seconds / 1e6:.0f} MB/s) | {seconds / events * 1e9:,.0f} | {results[name]['wall'] / events * 1e9:,.0f} "
                  f"| {mib(results[name]['rss_kib'])} "
                  f"| {ratio(rxpy / seconds) if rxpy else '—'} | {ratio(seconds / floor)} |")

    # Flatness and idle time, from the same run.
    print()
    by_key = {(w, n): r for w, n, r in rows}
    for name in ("engine", "e2e"):
        for workload in ("W1", "W2", "W3", "W5"):
            per_event = [by_key[(workload, n)][name]["median"] / n * 1e9 for n in SIZES if (workload, n) in by_key]
            if len(per_event) > 1:
                print(f"flatness {name} {workload}: ns/event {' → '.join(f'{x:,.0f}' for x in per_event)} "
                      f"(largest N / smallest N = {per_event[-1] / per_event[0]:.2f})")
        for n in SIZES:
            if ("W1", n) in by_key and ("W5", n) in by_key:
                w1 = by_key[("W1", n)][name]["median"]
                w5 = by_key[("W5", n)][name]["median"]
                print(f"idle time {name} N={n:,}: W5 / W1 = {w5 / w1:.2f}")
    if rxjs is not None:
        print("\nW1 against RxJS's TestScheduler (run mode, marble strings: rxjs "
              f"{rxjs[0][1]['RxJS'].get('version', '?') if rxjs else 'skipped'}); CPU time; × RxJS = RxJS's CPU time / this row's.\n")
        if not rxjs:
            print(f"RxJS: skipped (needs node and rxjs: {RXJS_INSTALL})")
        else:
            print("| N | contender | events/s | ns/event | wall ns/event | peak RSS | × RxJS |")
            print("|---:|---|---:|---:|---:|---:|---:|")
            for n, results in rxjs:
                for name in ("engine", "swift-api", "e2e", "RxJS", "floor"):
                    result = results[name]
                    shown = {"engine": "engine API", "swift-api": "Swift API (MarbleTesting)", "e2e": "end to end (.marble)",
                             "RxJS": "RxJS TestScheduler", "floor": "Swift floor"}[name]
                    print(f"| {n:,} | {shown} | {rate(n / result['median'])} | {result['median'] / n * 1e9:,.0f} "
                          f"| {result['wall'] / n * 1e9:,.0f} | {mib(result['rss_kib'])} | {ratio(results['RxJS']['median'] / result['median'])} |")
    if instructions is not None:
        print(f"\nInstructions (callgrind, whole process) at {CALLGRIND_SIZES[0]:,} and {CALLGRIND_SIZES[-1]:,} source events; "
              "per event = the difference over the difference in events.\n")
        if not instructions:
            print("callgrind: skipped (apt-get install -y valgrind)")
        else:
            print("| workload | contender | instructions, small | instructions, large | instructions/event | fixed part |")
            print("|---|---|---:|---:|---:|---:|")
            for workload, name, counts, per_event, fixed in instructions:
                print(f"| {workload} | {name} | {counts[0] / 1e6:,.1f} M | {counts[1] / 1e6:,.1f} M | {per_event:,.0f} | {fixed / 1e6:,.1f} M |")
    goals = goal_rows(rows, rxjs, instructions)
    if goals:
        print("\nIssue 31's figures, this run (instructions/event: callgrind's slope above; peak RSS of the row's process):\n")
        print("| figure | measured | goal | met | instructions/event | peak RSS |")
        print("|---|---:|---|---|---:|---:|")
        for figure, measured, goal, met, per_event, rss in goals:
            print(f"| {figure} | {measured} | {goal} | {'yes' if met else 'no'} | {per_event} | {rss} |")
    print(f"\n(bench took {time.time() - started:.0f} s)")


if __name__ == "__main__":
    main()
