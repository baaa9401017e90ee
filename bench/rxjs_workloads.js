// The RxJS side of `make bench`: W1 through RxJS's TestScheduler in run mode, as an RxJS marble
// test writes it: `hot(marbles, values)` → map → filter → scan → `expectObservable(out).toBe(
// expected, values)`. Prints one JSON object like marbles-bench does.
//
//     node rxjs_workloads.js W1 30000 3
//
// RxJS marbles have no literals, so each value gets a character of its own (a distinct Unicode
// code point, which RxJS's parser reads as one character), and the values map gives its number.
// The marble strings and maps are built before the clock starts, as a test's source holds them;
// parsing them, the run and the comparison are timed. The comparison is a plain loop over both
// message arrays (frame, kind, value), so RxJS is not charged for a slow deep-equal. The output
// checksum is the same FNV-style fold as marbles-bench's (Sources/marbles-bench/Workloads.swift).
//
// Debian: `apt-get install -y node-inquirer` installs rxjs 7.5.7 under /usr/share/nodejs.
"use strict";

const path = require("path");
// Where Debian's packages put Node modules (node-inquirer brings rxjs), after the usual places.
module.paths.push("/usr/share/nodejs");
const testing = require("rxjs/testing");
const { map, filter, scan } = require("rxjs/operators");

const MASK = (1n << 64n) - 1n;
const PRIME = 1099511628211n;
const COMPLETION_MARK = 0xc0ffeen;

class Checksum {
  constructor() {
    this.count = 0;
    this.hash = 14695981039346656037n;
  }
  value(value, at) {
    this.hash = (((this.hash ^ (BigInt(at) & MASK)) * PRIME) + (BigInt(value) & MASK)) & MASK;
    this.count += 1;
  }
  finished(at) {
    this.hash = (((this.hash ^ (BigInt(at) & MASK)) * PRIME) + COMPLETION_MARK) & MASK;
    this.count += 1;
  }
}

// The k-th value character: code points from U+00C0 on, past the surrogates, so that none is a
// marble symbol (`-`, `|`, `#`, `^`, `(`, `)`, `!`, a space or a digit).
function character(k) {
  let code = 0xc0 + k;
  if (code >= 0xd800) code += 0x800;
  return String.fromCodePoint(code);
}

// W1: the value i at frame i (1…n), completion at n + 1; the same timeline as Workload.make.
function lines(n) {
  const source = ["-"];
  const sourceValues = {};
  const expected = ["-"];
  const expectedValues = {};
  let sum = 0;
  let emitted = 0;
  for (let i = 1; i <= n; i++) {
    const c = character(i);
    source.push(c);
    sourceValues[c] = i;
    const doubled = i * 2;
    if (doubled % 3 !== 0) {
      sum += doubled;
      const e = character(emitted++);
      expected.push(e);
      expectedValues[e] = sum;
    } else {
      expected.push("-");
    }
  }
  source.push("|");
  expected.push("|");
  return { source: source.join(""), sourceValues, expected: expected.join(""), expectedValues };
}

function sameMessages(actual, expected) {
  if (actual.length !== expected.length) return false;
  for (let i = 0; i < actual.length; i++) {
    const a = actual[i];
    const b = expected[i];
    if (a.frame !== b.frame || a.notification.kind !== b.notification.kind || a.notification.value !== b.notification.value) return false;
  }
  return true;
}

function run(input) {
  let recorded = null;
  let ok = false;
  const scheduler = new testing.TestScheduler((actual, expected) => {
    recorded = actual;
    ok = sameMessages(actual, expected);
  });
  scheduler.run(({ hot, expectObservable }) => {
    const out = hot(input.source, input.sourceValues).pipe(
      map((x) => x * 2),
      filter((x) => x % 3 !== 0),
      scan((acc, x) => acc + x, 0),
    );
    expectObservable(out).toBe(input.expected, input.expectedValues);
  });
  return { recorded, ok };
}

function cpuSeconds() {
  const usage = process.cpuUsage();
  return (usage.user + usage.system) / 1e6;
}

function main() {
  const [workload, nText, runsText] = process.argv.slice(2);
  if (workload !== "W1" || !nText || !runsText) {
    process.stderr.write("usage: node rxjs_workloads.js W1 N RUNS\n");
    process.exit(2);
  }
  const n = parseInt(nText, 10);
  const runs = parseInt(runsText, 10);
  const input = lines(n);
  const seconds = [];
  const cpu = [];
  let checksum = new Checksum();
  let ok = true;
  for (let r = 0; r < runs; r++) {
    const wallStart = process.hrtime.bigint();
    const cpuStart = cpuSeconds();
    const result = run(input);
    cpu.push(cpuSeconds() - cpuStart);
    seconds.push(Number(process.hrtime.bigint() - wallStart) / 1e9);
    ok = ok && result.ok && result.recorded !== null;
    checksum = new Checksum();
    for (const message of result.recorded || []) {
      if (message.notification.kind === "N") checksum.value(message.notification.value, message.frame);
      else if (message.notification.kind === "C") checksum.finished(message.frame);
      else ok = false;
    }
  }
  const version = require("rxjs/package.json").version;
  process.stdout.write(JSON.stringify({ seconds, cpu_seconds: cpu, count: checksum.count, hash: checksum.hash.toString(16), ok, version }) + "\n");
}

main();
