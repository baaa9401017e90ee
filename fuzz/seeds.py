#!/usr/bin/env python3
"""Seed corpora for `make fuzz`, from the catalogue and from a grammar of valid tests.

    fuzz/seeds.py OUT_DIR [GENERATED_COUNT]

writes OUT_DIR/{run,file,notation,expression}/: every catalogue file (run, file), every
marble string of the catalogue (notation), every `let` expression (expression), and
GENERATED_COUNT tests from `generate` (run, file). Deterministic (fixed seed).
"""
import os
import random
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MARBLE_LINE = re.compile(r"^\s*(hot|cold|send|expect|subscribe|demand|connect)\s+\S+\s+(.*?)\s*(//.*)?$")
LET_LINE = re.compile(r"^\s*let\s+\w+\s*=\s*(.+?)\s*$")

# A small grammar of valid tests: sources, an operator chain over them, an expectation line.
VALUES = ["a", "b", "c", "1", "2", "3", "{42}", "{\"x\"}", "{-1.5}", "{true}"]
OPERATORS = [
    ".map {{ $0 }}", ".filter {{ _ in true }}", ".scan(0) {{ acc, _ in acc + 1 }}", ".dropFirst({n})",
    ".prefix({n})", ".removeDuplicates()", ".collect({n})", ".count()", ".last()", ".first()",
    ".delay(for: {n}, scheduler: RunLoop.main)", ".debounce(for: {n}, scheduler: RunLoop.main)",
    ".buffer(size: {n}, prefetch: .keepFull, whenFull: .dropOldest)", ".flatMap(maxPublishers: .max({n})) {{ _ in {other} }}",
    ".merge(with: {other})", ".zip({other})", ".combineLatest({other})", ".catch {{ _ in Just(0) }}",
    ".retry({n})", ".replaceError(with: 0)", ".map {{ _ in {other} }}.switchToLatest()",
    ".prepend(0)", ".append(9)", ".output(at: {n})", ".ignoreOutput()", ".share()",
    # Closures with loops and pattern bindings (their rounds count against a frame's work).
    ".map {{ _ -> Int in var t = 0; for i in 0..<{n} where i != 1 {{ if i > 5 {{ break }}; t += i }}; return t }}",
    ".filter {{ _ in var k = 0; repeat {{ k += 1; if k == 1 {{ continue }} }} while k < {n}; let (p, q) = (k, {n}); return p == q }}",
]


def timeline(rng, length):
    events = []
    for _ in range(length):
        events.append(rng.choice(["-", "-", "-"] + VALUES + ["(ab)", " 5ms "]))
    end = rng.choice(["|", "#", "", "-|"])
    return ("".join(events) + end) or "-"


def generate(rng, index):
    sources = ["s%d" % i for i in range(rng.randint(1, 3))]
    lines = ['test "generated %d"' % index]
    for name in sources:
        kind = rng.choice(["hot", "cold"])
        lines.append("  %s %s %s" % (kind, name, timeline(rng, rng.randint(0, 12))))
    chain = rng.choice(sources)
    for _ in range(rng.randint(0, 4)):
        chain += rng.choice(OPERATORS).format(n=rng.randint(1, 3), other=rng.choice(sources))
    lines.append("  let r = " + chain)
    if rng.random() < 0.3:
        lines.append("  demand r " + rng.choice(["1", "1--1", "*", "{2}-1"]))
    lines.append("  expect r " + timeline(rng, rng.randint(0, 12)))
    return "\n".join(lines) + "\n"


def main():
    out = sys.argv[1]
    count = int(sys.argv[2]) if len(sys.argv) > 2 else 200
    for target in ("run", "file", "notation", "expression"):
        os.makedirs(os.path.join(out, target), exist_ok=True)
    seen = 0
    for folder, _, names in sorted(os.walk(os.path.join(ROOT, "marbles"))):
        for name in sorted(names):
            if not name.endswith(".marble"):
                continue
            text = open(os.path.join(folder, name), encoding="utf-8").read()
            for target in ("run", "file"):
                open(os.path.join(out, target, "catalogue-%s" % name), "w").write(text)
            for number, line in enumerate(text.splitlines()):
                marbles = MARBLE_LINE.match(line)
                if marbles:
                    open(os.path.join(out, "notation", "%s-%d" % (name, number)), "w").write(marbles.group(2))
                let = LET_LINE.match(line)
                if let:
                    open(os.path.join(out, "expression", "%s-%d" % (name, number)), "w").write(let.group(1))
            seen += 1
    rng = random.Random(20261201)
    for index in range(count):
        test = generate(rng, index)
        for target in ("run", "file"):
            open(os.path.join(out, target, "generated-%d.marble" % index), "w").write(test)
    print("fuzz/seeds.py: %d catalogue files and %d generated tests into %s" % (seen, count, out))


if __name__ == "__main__":
    main()
