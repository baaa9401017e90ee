# marbles — build, test and install the `marbles` and `marbles-svg` commands.
SWIFT  ?= swift
PREFIX ?= /usr/local
DEBUG_BIN   := .build/debug/marbles
RELEASE_BIN := .build/release/marbles

SVG_BIN     := .build/debug/marbles-svg
DIAGRAMS    := docs/diagrams

.PHONY: build test test-slow run install clean diagrams diagrams-check diagrams-compare docs golden bench mutants

# What SwiftPM prints while it builds, shortened to a line per module it starts compiling (and
# each link), with every error and warning: minutes of a first build are not silent, and an
# incremental one says which modules it rebuilt.
define BUILD_PROGRESS
/^\[[0-9]+\/[0-9]+\] Compiling / { if ($$3 != module) { module = $$3; print "  " $$0; fflush() } next }
/^\[[0-9]+\/[0-9]+\] Linking / { print "  " $$0; fflush(); next }
/^\[[0-9]+\/[0-9]+\] / || /^Building for / || /^Write / { next }
{ print; fflush() }
endef
export BUILD_PROGRESS
build:
	@echo "== building marbles and marbles-svg (debug; the first build takes a few minutes)"
	@set -o pipefail; $(SWIFT) build 2>&1 | awk "$$BUILD_PROGRESS"

# The Swift tests, then the catalogue in marbles/ with the freshly built binary, a check that
# the catalogue is laid out as `marbles fmt` lays it out (marbles/examples keeps the format
# brief's worked examples exactly as the brief writes them), a check that the committed
# diagrams in docs/diagrams are what the catalogue draws now, a check that every mutant of
# `make mutants` still applies to the engine (its tests; nothing is built), then the worked
# example package (Examples/SearchFeature, built into .build/examples so that later runs are
# incremental). Each step says what
# it is; the build shows a line per module it compiles (BUILD_PROGRESS), each other step prints
# its summary. `make test-slow` has the rest (CI runs both).
# What `make test` shows of `swift test` (an awk program): failures, unexpected issues and the
# summaries; not a line per passing test, nor what the tests of failure messages record on
# purpose inside `withKnownIssue`. Swift Testing writes a record per event: a line starting with
# a symbol (◇ started, ✔ passed, ✘ failed, ━ passed with known issues, ⎙ attachment), then lines
# that belong to it (a multi-line argument, a message, ↳ details); a record is shown or hidden
# whole. XCTest writes "Test Suite/Case …" lines and, per suite, "Executed N tests".
define TEST_SUMMARY
/^Test (Suite|Case) / || /: error: / || /^(◇|✔|━|✘|⎙) / { hide = 0 }
/^(◇|✔) (Test|Suite|Passing) / && !/^✔ Test run with/ { hide = 1 }
/^◇ Test run started/ || /^⎙ / { hide = 1 }
/^━ (Test|Suite) / && !/^━ Test run with/ && !/unexpected/ { hide = 1 }
/^Test (Suite|Case) .* (started|passed)/ || /^\[[0-9]+\/[0-9]+\] Planning build/ { next }
/^[ \t]*Executed [0-9]+ tests?,/ { if (executed++ || /Executed 0 tests/) next }
hide { next }
{ print }
endef
export TEST_SUMMARY
test:
	@echo "== building marbles and its tests (debug; the first build takes a few minutes)"
	@set -o pipefail; $(SWIFT) build --build-tests 2>&1 | awk "$$BUILD_PROGRESS"
	@echo "== swift test (the 100,000-link walks are in make test-slow)"
	@set -o pipefail; $(SWIFT) test --skip-build 2>&1 | awk "$$TEST_SUMMARY"
	@echo "== the catalogue: marbles run --quiet marbles/"
	@$(DEBUG_BIN) run --quiet marbles/
	@echo "== marbles fmt --check"
	@$(DEBUG_BIN) fmt --check marbles/operators marbles/guides
	@echo "== the marble blocks of README.md and docs/, and docs/operators.md, are current"
	@$(DOC_CHECK)
	@echo "== docs/diagrams are current"
	@$(MAKE) --no-print-directory diagrams-compare
	@echo "== mutants/mutants.txt applies to the engine"
	@python3 -m unittest discover -s mutants -q
	@echo "== Examples/SearchFeature, a package of its own that depends on this one (into .build/examples)"
	@set -o pipefail; $(SWIFT) build --package-path Examples/SearchFeature --scratch-path .build/examples --build-tests 2>&1 | awk "$$BUILD_PROGRESS"
	@set -o pipefail; $(SWIFT) test --skip-build --package-path Examples/SearchFeature --scratch-path .build/examples 2>&1 | awk "$$TEST_SUMMARY"

# What `make test` leaves out because it takes minutes, not because it matters less; CI runs it:
# the Swift tests that walk chains of 100,000 links (MARBLES_SLOW_TESTS=1 enables them; see
# Tests/TestSupport/SlowTests.swift).
test-slow:
	@echo "== building marbles and its tests (debug)"
	@set -o pipefail; $(SWIFT) build --build-tests 2>&1 | awk "$$BUILD_PROGRESS"
	@echo "== swift test: the 100,000-link walks"
	@set -o pipefail; MARBLES_SLOW_TESTS=1 $(SWIFT) test --skip-build --filter 'WalkTests' 2>&1 | awk "$$TEST_SUMMARY"

run: build
	@echo "== marbles run marbles/"
	@$(DEBUG_BIN) run marbles/

# The marble blocks of the README and docs/ run as tests and drawn beside them, and
# docs/operators.md generated from the catalogue (see docs/doc-blocks.md). `make test` checks
# that nothing of it is stale (a few seconds).
DOC_DIAGRAMS := docs/doc-diagrams
DOC_CHECK = $(DEBUG_BIN) doc --check --quiet --out $(DOC_DIAGRAMS) README.md docs/ && \
	$(DEBUG_BIN) doc --check --quiet --out $(DOC_DIAGRAMS) --catalogue marbles/operators docs/operators.md
docs: build
	$(DEBUG_BIN) doc --out $(DOC_DIAGRAMS) --catalogue marbles/operators docs/operators.md
	$(DEBUG_BIN) doc --out $(DOC_DIAGRAMS) README.md docs/

# Every test of the catalogue drawn as SVG into docs/diagrams/, with an index.html gallery.
# A failing test is still drawn (with its mismatch) and only warned about; a bad file stops it.
diagrams: build
	rm -rf $(DIAGRAMS)
	$(SVG_BIN) marbles/ -o $(DIAGRAMS) --index --quiet; status=$$?; \
	  if [ $$status -eq 1 ]; then echo "make diagrams: some tests fail; their diagrams show the mismatch"; fi; \
	  [ $$status -le 1 ]

# Draws the catalogue into a scratch folder and compares it with the committed docs/diagrams:
# a change to the catalogue or to the drawing that was not followed by `make diagrams` fails.
DIAGRAMS_CHECK := .build/diagrams-check
diagrams-check: build
	@$(MAKE) --no-print-directory diagrams-compare
diagrams-compare:
	@rm -rf $(DIAGRAMS_CHECK)
	@$(SVG_BIN) marbles/ -o $(DIAGRAMS_CHECK) --index --quiet; [ $$? -le 1 ]
	@if diff -rq $(DIAGRAMS) $(DIAGRAMS_CHECK) > $(DIAGRAMS_CHECK).diff; then \
	  echo "$$(ls $(DIAGRAMS) | wc -l | tr -d ' ') files, all current"; \
	else \
	  sed -e 's|$(DIAGRAMS_CHECK)|now|' $(DIAGRAMS_CHECK).diff | head -10; \
	  echo "docs/diagrams is stale: run make diagrams and commit it"; exit 1; \
	fi

# Rewrites the golden SVGs of Tests/MarbleDiagramTests/Golden after a deliberate layout change.
golden:
	UPDATE_GOLDEN=1 $(SWIFT) test --filter GoldenTests

install:
	@echo "== building marbles and marbles-svg for release (optimised: a few minutes the first time)"
	@set -o pipefail; $(SWIFT) build -c release --product marbles 2>&1 | awk "$$BUILD_PROGRESS"
	@set -o pipefail; $(SWIFT) build -c release --product marbles-svg 2>&1 | awk "$$BUILD_PROGRESS"
	@echo "== installing into $(DESTDIR)$(PREFIX)/bin"
	install -d "$(DESTDIR)$(PREFIX)/bin"
	install -m 755 $(RELEASE_BIN) "$(DESTDIR)$(PREFIX)/bin/marbles"
	install -m 755 $(RELEASE_BIN)-svg "$(DESTDIR)$(PREFIX)/bin/marbles-svg"

# Release build, then every workload against RxPY (installed into bench/.venv), RxJS (W1 at 30k,
# when node and rxjs are installed) and a hand-written floor, CPU and wall time and peak RSS, then
# instructions per event by callgrind (when valgrind is installed); prints the tables (see
# docs/performance.md). Takes many minutes; not part of `make test`.
bench:
	python3 bench/bench.py

# Runs the catalogue against every mutant of the engine in mutants/mutants.txt (each one rebuilt
# incrementally in a scratch copy under .build/mutants) and writes docs/mutation.md. About
# 15-20 minutes on 2 shared cores; not part of `make test`. `python3 mutants/mutate.py NAME…`
# runs only some.
mutants:
	python3 mutants/mutate.py

clean:
	rm -rf .build

# libFuzzer over each parser, whole-file runs, the diagrams, doc, fmt, --update and command lines
# (Sources/marbles-fuzz says what each target checks), seeded from the catalogue, the documents
# and a grammar of valid tests (fuzz/seeds.py). FUZZ_SECONDS per target; findings (crashes,
# broken properties, timeouts, out-of-memory inputs) land in .build/fuzz/findings/TARGET/ and stop
# the run. Paths are absolute: the argv target works in a scratch folder of its own. Minutes, not
# part of `make test`. A finding replays with a normal build:
#   MARBLES_FUZZ_TARGET=run .build/debug/marbles-fuzz FILE
SHELL        := /bin/bash
FUZZ_BUILD   := $(abspath .build/fuzz)
FUZZ_SECONDS ?= 60
# The process's memory ceiling. Under ASan the whole-file targets (svg first) grow by about 1 MB
# per input while the live heap stays near 50 MB (measured on a 60-second svg run: 1,805 inputs,
# 2,122 MB peak, largest live allocations 24 MB): the growth is the sanitizer's allocator and
# quarantine, or cycles left uncollected with leak detection off — not yet diagnosed, so the
# ceiling is raised rather than the finding hidden; a single input over it is still reported.
FUZZ_RSS_MB  ?= 8192
FUZZ_TARGETS ?= notation file expression run svg doc fmt update argv lsp

.PHONY: fuzz
fuzz:
	$(SWIFT) build --product marbles-fuzz --scratch-path $(FUZZ_BUILD) -Xswiftc -sanitize=fuzzer,address -Xswiftc -DFUZZING
	python3 fuzz/seeds.py $(FUZZ_BUILD)/corpus 500
	for target in $(FUZZ_TARGETS); do \
	  mkdir -p $(FUZZ_BUILD)/findings/$$target; \
	  MARBLES_FUZZ_TARGET=$$target ASAN_OPTIONS=detect_leaks=0 $(FUZZ_BUILD)/debug/marbles-fuzz $(FUZZ_BUILD)/corpus/$$target \
	    -max_total_time=$(FUZZ_SECONDS) -timeout=10 -rss_limit_mb=$(FUZZ_RSS_MB) -max_len=65536 \
	    -artifact_prefix=$(FUZZ_BUILD)/findings/$$target/ -print_final_stats=1 2>&1 | tee $(FUZZ_BUILD)/$$target.log | grep -E "^(Done|stat::|==|SUMMARY)"; \
	  [ $${PIPESTATUS[0]} -eq 0 ] || exit 1; \
	done
