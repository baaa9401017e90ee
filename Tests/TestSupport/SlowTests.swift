import Foundation

/// The tests `make test` leaves to `make test-slow` (which CI runs too): the walks of chains of
/// 100,000 links, about a minute of a debug build's time between them. They run when the
/// environment sets `MARBLES_SLOW_TESTS` (to anything); `swift test` alone skips them.
public enum SlowTests {
    public static let enabled = ProcessInfo.processInfo.environment["MARBLES_SLOW_TESTS"] != nil
    public static let reason = "a 100,000-link walk: make test-slow runs it (MARBLES_SLOW_TESTS=1)"
}
