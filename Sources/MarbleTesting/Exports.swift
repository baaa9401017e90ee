// A test target depends on MarbleTesting alone, and `import MarbleTesting` is the one import a
// marble test needs: it brings the engine the test's publishers are made of — Combine where it
// can be imported (Apple platforms), else this package's `Reactive` — and the virtual clock.
// Only one of the two is ever re-exported, so `Publisher`, `Just` or `AnyCancellable` always
// mean one thing.
#if canImport(Combine)
@_exported import Combine
#else
@_exported import Reactive
#endif
@_exported import VirtualClock
