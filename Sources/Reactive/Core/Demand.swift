extension Subscribers {
    /// How many more values a subscriber is willing to receive.
    ///
    /// Arithmetic follows Combine: anything added to `.unlimited` stays unlimited, a sum or
    /// product that overflows becomes unlimited, and subtraction never goes below `.none`
    /// (Combine's documentation says it clamps; Apple's binary traps — the engine clamps so that
    /// a bookkeeping slip in an operator shows up as a wrong marble, not as a crash).
    public struct Demand: Hashable, Comparable, Sendable, CustomStringConvertible {
        /// `nil` means unlimited.
        public let max: Int?

        @usableFromInline init(_ max: Int?) { self.max = max }

        @inlinable public static var unlimited: Demand { Demand(nil) }
        @inlinable public static var none: Demand { Demand(0) }

        /// A bounded demand; negative counts are clamped to zero.
        @inlinable public static func max(_ value: Int) -> Demand { Demand(Swift.max(0, value)) }

        @inlinable public var isUnlimited: Bool { max == nil }

        public var description: String {
            guard let max else { return "unlimited" }
            return "max(\(max))"
        }

        @inlinable public static func + (lhs: Demand, rhs: Demand) -> Demand {
            guard let l = lhs.max, let r = rhs.max else { return .unlimited }
            let (sum, overflow) = l.addingReportingOverflow(r)
            return overflow ? .unlimited : Demand(sum)
        }

        @inlinable public static func + (lhs: Demand, rhs: Int) -> Demand { lhs + .max(rhs) }

        @inlinable public static func - (lhs: Demand, rhs: Demand) -> Demand {
            guard let l = lhs.max else { return .unlimited }
            guard let r = rhs.max else { return .none }
            return Demand(Swift.max(0, l - r))
        }

        @inlinable public static func - (lhs: Demand, rhs: Int) -> Demand {
            guard let l = lhs.max else { return .unlimited }
            return Demand(Swift.max(0, l - rhs))
        }

        @inlinable public static func * (lhs: Demand, rhs: Int) -> Demand {
            guard let l = lhs.max else { return .unlimited }
            let (product, overflow) = l.multipliedReportingOverflow(by: Swift.max(0, rhs))
            return overflow ? .unlimited : Demand(product)
        }

        @inlinable public static func += (lhs: inout Demand, rhs: Demand) { lhs = lhs + rhs }
        @inlinable public static func += (lhs: inout Demand, rhs: Int) { lhs = lhs + rhs }
        @inlinable public static func -= (lhs: inout Demand, rhs: Demand) { lhs = lhs - rhs }
        @inlinable public static func -= (lhs: inout Demand, rhs: Int) { lhs = lhs - rhs }

        @inlinable public static func < (lhs: Demand, rhs: Demand) -> Bool {
            switch (lhs.max, rhs.max) {
            case (nil, _): return false
            case (_, nil): return true
            case let (l?, r?): return l < r
            }
        }

        @inlinable public static func == (lhs: Demand, rhs: Int) -> Bool { lhs.max == rhs }
        @inlinable public static func > (lhs: Demand, rhs: Int) -> Bool { lhs.max.map { $0 > rhs } ?? true }
        @inlinable public static func < (lhs: Demand, rhs: Int) -> Bool { lhs.max.map { $0 < rhs } ?? false }
    }
}
