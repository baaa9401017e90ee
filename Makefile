# marbles — build, test and install the `marbles` command.
SWIFT  ?= swift
PREFIX ?= /usr/local
DEBUG_BIN   := .build/debug/marbles
RELEASE_BIN := .build/release/marbles

.PHONY: build test run install clean bench

build:
	$(SWIFT) build

# The Swift tests, then the catalogue in marbles/ with the freshly built binary.
test: build
	$(SWIFT) test
	$(DEBUG_BIN) run marbles/

run: build
	$(DEBUG_BIN) run marbles/

install:
	$(SWIFT) build -c release --product marbles
	install -d "$(DESTDIR)$(PREFIX)/bin"
	install -m 755 $(RELEASE_BIN) "$(DESTDIR)$(PREFIX)/bin/marbles"

# Release build, then every workload against RxPY (installed into bench/.venv) and a hand-written
# floor; prints one table (see docs/performance.md). Takes minutes; not part of `make test`.
bench:
	python3 bench/bench.py

clean:
	rm -rf .build
