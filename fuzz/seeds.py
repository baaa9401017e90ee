#!/usr/bin/env python3
"""Seed corpora for `make fuzz`, from the catalogue, the documents and a grammar of valid tests.

    fuzz/seeds.py OUT_DIR [GENERATED_COUNT]

writes OUT_DIR/TARGET/ for each target of Sources/marbles-fuzz: every catalogue file (run, file,
svg, fmt, update — for update also with an expect line emptied, so that it has something to
rewrite), every marble string of the catalogue (notation), every `let` expression (expression),
the Markdown documents of the repository that hold marble blocks (doc), command lines over the argv target's scratch
files (argv), an editor's session with `marbles lsp` over each catalogue file, and framing mistakes (lsp), and GENERATED_COUNT tests from `generate` (run, file; a fifth of them for svg, fmt,
update, and as Markdown blocks for doc). Deterministic (fixed seed).
"""
import json
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


# Counts and durations: mostly small, sometimes at the ends of Int and of virtual time (10^15
# frames), where arithmetic on them must give an error, never a trap.
EXTREMES = [0, -1, 9223372036854775807, -9223372036854775808, 1000000000000000, 999999999999999, 4294967296]


def number(rng):
    return rng.choice(EXTREMES) if rng.random() < 0.1 else rng.randint(1, 3)


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
        chain += rng.choice(OPERATORS).format(n=number(rng), other=rng.choice(sources))
    lines.append("  let r = " + chain)
    if rng.random() < 0.3:
        lines.append("  demand r " + rng.choice(["1", "1--1", "*", "{2}-1"]))
    lines.append("  expect r " + timeline(rng, rng.randint(0, 12)))
    return "\n".join(lines) + "\n"


TARGETS = ("run", "file", "notation", "expression", "svg", "doc", "fmt", "update", "argv", "lsp")
# Targets that run, draw or rewrite whole files get a fifth of the generated tests: libFuzzer
# reads every seed before its time limit counts, and these cost tens of milliseconds an input.
WHOLE_FILE = ("svg", "doc", "fmt", "update")

# Command lines of the argv target (arguments joined by NUL), over the files its scratch folder
# holds: a.marble (a failing test), dir/b.marble, doc.md (one marble block).
COMMAND_LINES = [
    ["run", "a.marble"], ["run", "dir", "--reporter", "junit", "--output", "r.xml"], ["run", "-u", "a.marble"],
    ["run", "a.marble", "--svg", "out", "--reporter", "tap"], ["run", "--list", "dir"], ["run", "--filter", "map", "--jobs", "2", "a.marble", "dir"],
    ["run", "--shard", "1/2", "--slowest", "3", "--quiet", "a.marble"], ["run", "--reporter", "json", "--reporter", "github", "a.marble"],
    ["trace", "a.marble"], ["trace", "dir", "--test", "debounce"], ["fmt", "a.marble"], ["fmt", "--check", "dir"],
    ["doc", "doc.md"], ["doc", "--check", "doc.md"], ["doc", "--update", "--out", "pictures", "doc.md"],
    ["eval", "--hot", "x=-a-b-|", "x.map { $0 }"], ["eval", "--cold", "x=-1-2|", "--until", "5", "x.delay(for: 2, scheduler: RunLoop.main)"],
    ["eval", "--frame", "10ms", "--values", "A = 1", "--subscribe", "-^--!", "--demand", "1--1", "--hot", "x=-A-A-|", "y = x.map { $0 + 1 }", "y"],
    ["eval", "--svg", "e.svg", "--hot", "t=-a-b-|", "t.debounce(for: 2, scheduler: RunLoop.main)"],
    ["compare", "--cases", "20", "--seed", "7", "x.map { $0 + 1 }", "x.map { 1 + $0 }"], ["operators"], ["help", "run"], ["--version"],
    ["marbles-svg", "a.marble", "-o", "-"], ["marbles-svg", "dir", "-o", "svg", "--index", "--theme", "both"],
    ["marbles-svg", "a.marble", "-o", "-", "--bare", "--scale", "2", "--frame-width", "30", "--background", "transparent"],
]


def marble_block(test, rng):
    """A Markdown document holding `test` as a ```marble block, with prose around it."""
    end = rng.choice(["", "\nMore text.\n", "\n"])
    return "# Title %d\n\nSome prose.\n\n```marble\n%s```%s" % (rng.randint(0, 9), test, end)


def framed(message):
    body = json.dumps(message, ensure_ascii=False).encode("utf-8")
    return b"Content-Length: %d\r\n\r\n" % len(body) + body


def lsp_session(text, name):
    """What an editor sends `marbles lsp` for one file: open, a change, a request of each kind at
    a few places, the lenses' commands, a save, shutdown and exit."""
    uri = "file:///fuzz/" + name
    document = {"uri": uri}
    lines = text.split("\n")
    messages = [
        {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"capabilities": {"textDocument": {
            "hover": {"contentFormat": ["markdown"]}, "completion": {"completionItem": {"snippetSupport": True}}}}}},
        {"jsonrpc": "2.0", "method": "initialized", "params": {}},
        {"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {"textDocument": dict(document, languageId="marble", version=1, text=text)}},
    ]
    tests = [line.split('"')[1] for line in lines if line.startswith('test "') and line.count('"') >= 2]
    request = 2
    # A few places of the first lines: each input must stay well under libFuzzer's -timeout under ASan.
    for number, line in enumerate(lines[:8]):
        for character in sorted({line.find("."), len(line) // 2} - {-1}):
            for method in ("textDocument/hover", "textDocument/completion", "textDocument/definition"):
                messages.append({"jsonrpc": "2.0", "id": request, "method": method,
                                 "params": {"textDocument": document, "position": {"line": number, "character": character}}})
                request += 1
    for method in ("textDocument/formatting", "textDocument/codeLens"):
        messages.append({"jsonrpc": "2.0", "id": request, "method": method, "params": {"textDocument": document, "options": {"tabSize": 2}}})
        request += 1
    if tests:
        for command in ("marbles.runTest", "marbles.updateExpect"):
            messages.append({"jsonrpc": "2.0", "id": request, "method": "workspace/executeCommand",
                             "params": {"command": command, "arguments": [uri, tests[0]]}})
            request += 1
    messages += [
        {"jsonrpc": "2.0", "method": "textDocument/didChange", "params": {"textDocument": dict(document, version=2), "contentChanges": [
            {"range": {"start": {"line": 2, "character": 0}, "end": {"line": 3, "character": 4}}, "text": "  é🎉"}]}},
        {"jsonrpc": "2.0", "method": "textDocument/didSave", "params": {"textDocument": document}},
        {"jsonrpc": "2.0", "method": "textDocument/didClose", "params": {"textDocument": document}},
        {"jsonrpc": "2.0", "id": request, "method": "shutdown"},
        {"jsonrpc": "2.0", "method": "exit"},
    ]
    return b"".join(framed(message) for message in messages)


# Framing and JSON-RPC mistakes, each followed by a good request.
LSP_MISTAKES = [
    b"Content-Length: 5\r\n\r\n{\"a\":",
    b"Content-Type: application/vscode-jsonrpc; charset=utf-8\r\n\r\n{}",
    b"Content-Length: -3\r\n\r\n",
    b"garbage\r\n\r\n[1,2]",
    b"Content-Length: 2\r\n\r\n[]",
    b"Content-Length: 99999999999\r\n\r\n",
]


def main():
    out = sys.argv[1]
    count = int(sys.argv[2]) if len(sys.argv) > 2 else 200
    for target in TARGETS:
        os.makedirs(os.path.join(out, target), exist_ok=True)

    def put(targets, name, text):
        for target in targets:
            open(os.path.join(out, target, name), "w").write(text)

    seen = 0
    for folder, _, names in sorted(os.walk(os.path.join(ROOT, "marbles"))):
        for name in sorted(names):
            if not name.endswith(".marble"):
                continue
            text = open(os.path.join(folder, name), encoding="utf-8").read()
            put(("run", "file", "svg", "fmt", "update"), "catalogue-%s" % name, text)
            lines = text.splitlines(keepends=True)
            expects = [n for n, line in enumerate(lines) if line.lstrip().startswith("expect ") and "==" not in line]
            for which, number in enumerate(expects[:1]):
                emptied = lines[:]
                words = emptied[number].split(None, 2)
                emptied[number] = emptied[number][:len(emptied[number]) - len(emptied[number].lstrip())] + "expect %s -\n" % words[1]
                put(("update",), "emptied-%d-%s" % (which, name), "".join(emptied))
            for number, line in enumerate(text.splitlines()):
                marbles = MARBLE_LINE.match(line)
                if marbles:
                    put(("notation",), "%s-%d" % (name, number), marbles.group(2))
                let = LET_LINE.match(line)
                if let:
                    put(("expression",), "%s-%d" % (name, number), let.group(1))
            seen += 1
    # The documents with marble blocks, up to libFuzzer's -max_len (docs/operators.md, larger, is
    # drawn by `make test` already).
    documents = [path for path in [os.path.join(ROOT, "README.md")] + sorted(
        os.path.join(ROOT, "docs", name) for name in os.listdir(os.path.join(ROOT, "docs")) if name.endswith(".md"))
        if "```marble" in open(path, encoding="utf-8").read() and os.path.getsize(path) <= 65536]
    for path in documents:
        put(("doc",), "document-%s" % os.path.basename(path), open(path, encoding="utf-8").read())
    for number, arguments in enumerate(COMMAND_LINES):
        put(("argv",), "command-%d" % number, "\0".join(arguments))
    sessions = 0
    for folder, _, names in sorted(os.walk(os.path.join(ROOT, "marbles"))):
        for name in sorted(names):
            if name.endswith(".marble"):
                session = lsp_session(open(os.path.join(folder, name), encoding="utf-8").read(), name)
                if len(session) <= 65536:
                    open(os.path.join(out, "lsp", "session-" + name), "wb").write(session)
                    sessions += 1
    good = framed({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"capabilities": {}}})
    for number, mistake in enumerate(LSP_MISTAKES):
        open(os.path.join(out, "lsp", "mistake-%d" % number), "wb").write(mistake + good)
    rng = random.Random(20261201)
    for index in range(count):
        test = generate(rng, index)
        put(("run", "file"), "generated-%d.marble" % index, test)
        block = marble_block(test, rng)
        if index < count // 5:
            put(("svg", "fmt", "update"), "generated-%d.marble" % index, test)
            put(("doc",), "generated-%d.md" % index, block)
    print("fuzz/seeds.py: %d catalogue files, %d documents, %d command lines, %d editor sessions and %d generated tests into %s"
          % (seen, len(documents), len(COMMAND_LINES), sessions, count, out))


if __name__ == "__main__":
    main()
