#!/usr/bin/env python3
"""`make mutants`: measures the catalogue as an oracle. Each mutant in mutants/mutants.txt is a
plausible wrong reading of Combine, written as a source rewrite of the engine (Sources/Reactive).
For each one this script rewrites a scratch copy of the package (.build/mutants/tree, never the
real tree, so the engine carries no mutation switches), rebuilds `marbles` there incrementally
(debug: one mutant's rebuild is a few seconds, a release rebuild recompiles the whole module
optimised), runs the catalogue in marbles/ with `--reporter json`, and records which catalogue
tests failed: the mutant's killers. A mutant that does not compile is "stillborn" and counts
neither way; one whose snippet no longer occurs exactly once is "stale" (the list has rotted:
fix it). Prints each mutant's fate and the score, and writes the table to docs/mutation.md.

  python3 mutants/mutate.py              every mutant (what `make mutants` runs)
  python3 mutants/mutate.py NAME…        only these mutants (the table is not written)
  python3 mutants/mutate.py --check      only check that every snippet applies exactly once
                                         (part of `make test`; builds and runs nothing)
"""

import json
import os
import re
import shutil
import subprocess
import sys
import time
from dataclasses import dataclass, field

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
LIST = os.path.join(ROOT, "mutants", "mutants.txt")
SCRATCH = os.path.join(ROOT, ".build", "mutants", "tree")
REPORT = os.path.join(ROOT, "docs", "mutation.md")
# What the scratch copy needs to build `marbles` (the test targets must exist for the manifest).
COPIED = ["Package.swift", "Sources", "Tests"]
FIELDS = ("family", "file", "wrong", "equivalent")


@dataclass
class Edit:
    original: list  # the snippet's lines, without their common indentation
    replacement: list


@dataclass
class Mutant:
    name: str
    line: int  # where it starts in mutants.txt
    family: str = ""
    file: str = ""
    wrong: str = ""
    equivalent: str = ""  # why it cannot be killed, if it cannot
    edits: list = field(default_factory=list)


class ListError(Exception):
    pass


def dedent(lines):
    while lines and not lines[-1].strip():
        lines.pop()
    indents = [len(line) - len(line.lstrip()) for line in lines if line.strip()]
    cut = min(indents, default=0)
    return [line[cut:] if line.strip() else "" for line in lines]


def parse(text):
    """mutants.txt → [Mutant]. A mutant starts with `== name`, has `key: value` fields, then one
    or more `--- original` / `+++ mutant` pairs of snippet lines (indentation is free: snippets
    match whole lines whatever their indentation). A line starting with `# ` is a comment, also
    between snippet lines (no Swift line starts so)."""
    mutants, current, block, lines, last_key = [], None, None, [], None

    def close_block():
        nonlocal block, lines
        if block == "original":
            current.edits.append(Edit(dedent(lines), []))
        elif block == "mutant":
            current.edits[-1].replacement = dedent(lines)
        block, lines = None, []

    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.rstrip()
        if line.startswith("== "):
            if current:
                close_block()
            current = Mutant(name=line[3:].strip(), line=number)
            mutants.append(current)
            last_key = None
        elif line in ("--- original", "+++ mutant"):
            if current is None:
                raise ListError(f"mutants.txt:{number}: '{line}' before any '== name' line")
            wanted = "original" if line == "--- original" else "mutant"
            if wanted == "mutant" and block != "original":
                raise ListError(f"mutants.txt:{number}: '+++ mutant' must follow a '--- original' snippet")
            close_block()
            block, last_key = wanted, None
        elif line.startswith("# ") or line == "#":
            continue
        elif block:
            lines.append(line)
        elif not line.strip():
            continue
        elif current and re.match(r"^(\w+):\s", line + " "):
            key, value = line.split(":", 1)
            if key not in FIELDS:
                raise ListError(f"mutants.txt:{number}: unknown field '{key}' (one of: {', '.join(FIELDS)})")
            setattr(current, key, value.strip())
            last_key = key
        elif current and last_key and line[:1].isspace():
            # An indented line continues the field above it.
            setattr(current, last_key, getattr(current, last_key) + " " + line.strip())
        else:
            raise ListError(f"mutants.txt:{number}: expected '== name', a field or a snippet, got: {line}")
    if current:
        close_block()
    names = set()
    for mutant in mutants:
        where = f"mutants.txt:{mutant.line}: {mutant.name}"
        if mutant.name in names:
            raise ListError(f"{where}: a second mutant with this name")
        names.add(mutant.name)
        if not (mutant.family and mutant.file and mutant.wrong):
            raise ListError(f"{where}: needs family:, file: and wrong:")
        if not mutant.edits or any(not edit.original for edit in mutant.edits):
            raise ListError(f"{where}: needs at least one non-empty '--- original' snippet")
        if any(edit.original == edit.replacement for edit in mutant.edits):
            raise ListError(f"{where}: a replacement equal to its original")
    return mutants


def find(source, snippet):
    """Where the snippet's lines occur in `source`: each line matched whole, whatever its
    indentation; `…` in a snippet line stands for any text within that line."""
    def line_pattern(line):
        return r"[ \t]*" + r"[^\n]*?".join(re.escape(part) for part in line.strip().split("…")) + r"[ \t]*"
    pattern = "\n".join(line_pattern(line) for line in snippet)
    return list(re.finditer(r"(?m)^" + pattern + r"$", source))


def apply(source, mutant):
    """The mutated source, or raises ListError saying why the mutant is stale."""
    for edit in mutant.edits:
        matches = find(source, edit.original)
        if len(matches) != 1:
            first = edit.original[0].strip()
            if not matches:
                raise ListError(f"stale: '{first}…' is no longer in {mutant.file}")
            lines = ", ".join(str(source.count("\n", 0, m.start()) + 1) for m in matches)
            raise ListError(f"stale: '{first}…' occurs {len(matches)} times in {mutant.file} (lines {lines}); make the snippet longer")
        match = matches[0]
        # The indentation the snippet's least indented lines have in the file.
        found = re.match(r"[ \t]*", match.group(0)).group(0)
        relative = len(edit.original[0]) - len(edit.original[0].lstrip())
        indent = found[:max(0, len(found) - relative)]
        replacement = "\n".join(indent + line if line else "" for line in edit.replacement)
        source = source[:match.start()] + replacement + source[match.end():]
    return source


def load():
    with open(LIST, encoding="utf-8") as handle:
        return parse(handle.read())


def check(mutants):
    """Every mutant must still apply to the real tree, and name a catalogue file as its family."""
    problems = []
    for mutant in mutants:
        path = os.path.join(ROOT, mutant.file)
        if not os.path.exists(path):
            problems.append(f"{mutant.name}: stale: {mutant.file} does not exist")
            continue
        if not os.path.exists(os.path.join(ROOT, "marbles", "operators", mutant.family + ".marble")):
            problems.append(f"{mutant.name}: family '{mutant.family}' is not a file in marbles/operators/")
        try:
            with open(path, encoding="utf-8") as handle:
                apply(handle.read(), mutant)
        except ListError as error:
            problems.append(f"{mutant.name}: {error}")
    return problems


# MARK: Running

def log(message=""):
    print(message, flush=True)


def sync_scratch():
    """Copies the package into the scratch tree, writing only files whose content changed (so
    the build there stays incremental across runs) and removing files that are gone."""
    wanted = set()
    for top in COPIED:
        source = os.path.join(ROOT, top)
        paths = [source] if os.path.isfile(source) else [os.path.join(d, f) for d, _, fs in os.walk(source) for f in fs]
        for path in paths:
            relative = os.path.relpath(path, ROOT)
            wanted.add(relative)
            write_if_changed(os.path.join(SCRATCH, relative), read_bytes(path))
    for top in COPIED[1:]:
        for directory, _, files in os.walk(os.path.join(SCRATCH, top)):
            for name in files:
                path = os.path.join(directory, name)
                if os.path.relpath(path, SCRATCH) not in wanted:
                    os.remove(path)


def read_bytes(path):
    with open(path, "rb") as handle:
        return handle.read()


def write_if_changed(path, data):
    if os.path.exists(path) and read_bytes(path) == data:
        return
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "wb") as handle:
        handle.write(data)


def build():
    """Builds `marbles` in the scratch tree; returns None, or the first compiler error."""
    result = subprocess.run(["swift", "build", "--product", "marbles"], cwd=SCRATCH, capture_output=True, text=True)
    if result.returncode == 0:
        return None
    output = result.stdout + result.stderr
    errors = [line for line in output.splitlines() if ": error: " in line]
    return (errors[0] if errors else output.strip().splitlines()[-1]).replace(SCRATCH + "/", "")


def run_catalogue(timeout):
    """Runs the catalogue with the scratch binary: ('ok', failing tests) or ('crashed'|'timed out', detail)."""
    binary = os.path.join(SCRATCH, ".build", "debug", "marbles")
    command = [binary, "run", "marbles/", "--reporter", "json", "--no-color"]
    try:
        result = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return "timed out", f"after {timeout:.0f} s"
    try:
        report = json.loads(result.stdout)
    except json.JSONDecodeError:
        return "crashed", crash_site(binary, timeout) or f"exit status {result.returncode}"
    failing = [f"{file['path']}:{test['line']} \"{test['name']}\""
               for file in report["files"] for test in file["tests"] if test["outcome"] != "passed"]
    failing += [f"{file['path']}: {diagnostic['message']}" for file in report["files"] for diagnostic in file["diagnostics"]]
    return "ok", failing


def crash_site(binary, timeout):
    """The catalogue file whose run crashes the binary (each file run alone)."""
    for directory, _, files in sorted(os.walk(os.path.join(ROOT, "marbles"))):
        for name in sorted(files):
            if not name.endswith(".marble"):
                continue
            path = os.path.relpath(os.path.join(directory, name), ROOT)
            try:
                result = subprocess.run([binary, "run", path, "--no-color"], cwd=ROOT, capture_output=True, text=True, timeout=timeout)
            except subprocess.TimeoutExpired:
                return f"{path} (timed out)"
            if result.returncode not in (0, 1, 2):
                return f"{path} (exit status {result.returncode})"
    return None


def run_mutant(mutant, timeout):
    """Applies one mutant in the scratch tree, builds, runs, and restores the file."""
    path = os.path.join(SCRATCH, mutant.file)
    if not os.path.exists(os.path.join(ROOT, mutant.file)):
        return {"fate": "stale", "detail": f"stale: {mutant.file} does not exist"}
    original = read_bytes(os.path.join(ROOT, mutant.file))
    try:
        mutated = apply(original.decode("utf-8"), mutant)
    except ListError as error:
        return {"fate": "stale", "detail": str(error)}
    write_if_changed(path, mutated.encode("utf-8"))
    try:
        started = time.monotonic()
        error = build()
        build_seconds = time.monotonic() - started
        if error:
            return {"fate": "stillborn", "detail": error, "build": build_seconds}
        status, detail = run_catalogue(timeout)
    finally:
        write_if_changed(path, original)
    if status != "ok":
        return {"fate": "killed", "killers": [f"{status}: {detail}"], "build": build_seconds}
    if detail:
        return {"fate": "killed", "killers": detail, "build": build_seconds}
    return {"fate": "equivalent" if mutant.equivalent else "survived", "build": build_seconds}


def describe(mutant, outcome):
    fate = outcome["fate"]
    if fate == "killed":
        killers = outcome["killers"]
        more = f" (+{len(killers) - 1} more)" if len(killers) > 1 else ""
        text = f"killed by {killers[0]}{more}"
        if mutant.equivalent:
            text += " — but listed as equivalent: drop its 'equivalent:'"
        return text
    if fate == "equivalent":
        return f"survived, equivalent: {mutant.equivalent}"
    if fate == "survived":
        return "SURVIVED: no catalogue test notices it"
    return f"{fate}: {outcome['detail']}"


def score(results):
    counted = [(m, o) for m, o in results if o["fate"] in ("killed", "survived")]
    killed = sum(1 for _, o in counted if o["fate"] == "killed")
    return killed, len(counted)


def write_report(results, minutes, build_seconds):
    killed, counted = score(results)
    by_fate = {fate: sum(1 for _, o in results if o["fate"] == fate) for fate in ("killed", "survived", "equivalent", "stillborn", "stale")}
    families = sorted({m.family for m, _ in results})
    lines = [
        "# Mutation testing: how much the catalogue notices",
        "",
        "Written by `make mutants` (`mutants/mutate.py`); do not edit by hand. Each mutant is a plausible",
        "wrong reading of Combine applied to the engine (`Sources/Reactive`) in a scratch copy of the",
        "package; the catalogue (`marbles run marbles/`) kills it when at least one of its tests fails.",
        "The mutants, with the reading each one gets wrong, are in `mutants/mutants.txt`.",
        "",
        f"**Score: {killed} of {counted} non-equivalent mutants killed ({100 * killed / max(counted, 1):.0f} %).** "
        f"{len(results)} mutants over {len(families)} operator families: {by_fate['killed']} killed, "
        f"{by_fate['survived']} survived, {by_fate['equivalent']} equivalent, {by_fate['stillborn']} stillborn "
        f"(did not compile), {by_fate['stale']} stale. The run took {minutes:.1f} min "
        f"(one mutant's incremental debug build: median {build_seconds:.1f} s).",
        "",
        "How it works. The engine carries no mutation switches: each mutant is an exact snippet of an",
        "engine file and its replacement, applied to a copy of the package in `.build/mutants/tree`,",
        "which is then rebuilt incrementally (`swift build --product marbles`, debug: only the changed",
        "file recompiles, a few seconds; a release rebuild recompiles the whole `Reactive` module",
        "optimised, about 20 s for that module alone, which the faster catalogue run (0.3 s instead of",
        "1 s) does not pay back). The catalogue then runs with `--reporter json`; the tests that fail are",
        "the mutant's killers. A mutant that does not compile is *stillborn* and counts neither way; one",
        "whose snippet no longer occurs exactly once is *stale* (the engine changed under it: `make test`",
        "checks every snippet, so the list cannot silently rot). An *equivalent* mutant survives because",
        "no marble test can tell it apart; its line in `mutants/mutants.txt` says why, and where the",
        "behaviour is pinned instead. The score counts killed and survived mutants only.",
        "",
    ]
    lines += family_table(results)
    lines += [
        "",
        "## Every mutant",
        "",
        "| mutant | family | the wrong reading | fate | killed by (first of the failing tests) |",
        "|---|---|---|---|---|",
    ]
    for mutant, outcome in results:
        fate = outcome["fate"]
        killers = outcome.get("killers", [])
        first = killers[0].replace("|", "\\|") if killers else ""
        if len(killers) > 1:
            first += f" (+{len(killers) - 1})"
        if fate == "equivalent":
            first = "equivalent: " + mutant.equivalent
        elif fate in ("stillborn", "stale"):
            first = outcome["detail"].replace("|", "\\|")
        wrong = mutant.wrong.replace("|", "\\|")
        lines.append(f"| `{mutant.name}` | {mutant.family} | {wrong} | {fate} | {first} |")
    with open(REPORT, "w", encoding="utf-8") as handle:
        handle.write("\n".join(lines) + "\n")


def family_table(results):
    """Mutants per operator family, every family of the catalogue listed (none: a blind spot
    nothing measures), fewest first, so that thin coverage shows."""
    directory = os.path.join(ROOT, "marbles", "operators")
    families = sorted(name[:-len(".marble")] for name in os.listdir(directory) if name.endswith(".marble"))
    counts = {family: {"killed": 0, "equivalent": 0, "other": 0} for family in families}
    for mutant, outcome in results:
        fate = outcome["fate"]
        entry = counts.setdefault(mutant.family, {"killed": 0, "equivalent": 0, "other": 0})
        entry[fate if fate in ("killed", "equivalent") else "other"] += 1
    rows = sorted(counts.items(), key=lambda item: (sum(item[1].values()), item[0].lower()))
    lines = [
        "",
        "## Mutants per operator family",
        "",
        "How many wrong readings each family of the catalogue (`marbles/operators/FAMILY.marble`) is",
        "measured against, fewest first: a family with none or one is where the catalogue's blind",
        "spots are most likely. A mutant counts for the family its `family:` names, though other",
        "families' tests may kill it too.",
        "",
        "| family | mutants | killed | equivalent | survived, stillborn or stale |",
        "|---|---:|---:|---:|---:|",
    ]
    for family, entry in rows:
        total = sum(entry.values())
        lines.append(f"| {family} | {total} | {entry['killed']} | {entry['equivalent']} | {entry['other']} |")
    return lines


def main(arguments):
    try:
        mutants = load()
    except ListError as error:
        sys.exit(f"error: {error}")
    if arguments[:1] == ["--check"]:
        problems = check(mutants)
        for problem in problems:
            print(f"mutants.txt: {problem}", file=sys.stderr)
        if problems:
            sys.exit(f"{len(problems)} of {len(mutants)} mutants do not apply to the tree; fix mutants/mutants.txt")
        print(f"mutants: all {len(mutants)} mutants apply exactly once")
        return
    selected = mutants
    if arguments:
        known = {m.name for m in mutants}
        unknown = [name for name in arguments if name not in known]
        if unknown:
            sys.exit(f"error: no mutant named {', '.join(unknown)}")
        selected = [m for m in mutants if m.name in arguments]

    started = time.monotonic()
    log(f"mutants: copying the package to {os.path.relpath(SCRATCH, ROOT)} and building it unmutated")
    sync_scratch()
    error = build()
    if error:
        sys.exit(f"error: the unmutated scratch copy does not build: {error}")
    baseline_started = time.monotonic()
    status, failing = run_catalogue(timeout=600)
    baseline = time.monotonic() - baseline_started
    if status != "ok" or failing:
        sys.exit(f"error: the catalogue does not pass unmutated ({status}): {failing[:3]}")
    timeout = max(60.0, 20 * baseline)

    results = []
    for index, mutant in enumerate(selected, 1):
        outcome = run_mutant(mutant, timeout)
        results.append((mutant, outcome))
        log(f"[{index}/{len(selected)}] {mutant.name} ({mutant.family}): {mutant.wrong}")
        log(f"    {describe(mutant, outcome)}")
        if selected is not mutants:
            # Run by name (while writing a mutant or its tests): every killer, not only the first.
            for killer in outcome.get("killers", [])[1:]:
                log(f"      also killed by {killer}")
    # Leave the scratch tree unmutated and built, so that the next run starts incrementally.
    build()

    minutes = (time.monotonic() - started) / 60
    killed, counted = score(results)
    survivors = [m for m, o in results if o["fate"] == "survived"]
    log()
    log(f"score: {killed} of {counted} non-equivalent mutants killed ({100 * killed / max(counted, 1):.0f} %), "
        f"{sum(1 for _, o in results if o['fate'] == 'equivalent')} equivalent, "
        f"{sum(1 for _, o in results if o['fate'] == 'stillborn')} stillborn, "
        f"{sum(1 for _, o in results if o['fate'] == 'stale')} stale; {minutes:.1f} min")
    for mutant, outcome in results:
        if outcome["fate"] == "equivalent":
            log(f"  equivalent {mutant.name}: {mutant.equivalent}")
    for mutant in survivors:
        log(f"  SURVIVED {mutant.name}: {mutant.wrong}")
    if selected is mutants:
        builds = sorted(o["build"] for _, o in results if "build" in o)
        write_report(results, minutes, builds[len(builds) // 2] if builds else 0)
        log(f"table written to {os.path.relpath(REPORT, ROOT)}")
    bad = [m for m, o in results if o["fate"] in ("survived", "stale")
           or (o["fate"] == "killed" and m.equivalent)]
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main(sys.argv[1:])
