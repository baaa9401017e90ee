import Foundation

/// A unique identity for a subscriber or subscription (Combine's `CombineIdentifier`): made
/// fresh, or from an object's identity.
public struct CombineIdentifier: Hashable, Sendable, CustomStringConvertible {
    private enum Identity: Hashable, Sendable {
        case fresh(UInt64)
        case object(ObjectIdentifier)
    }

    private let identity: Identity

    /// A new identifier, different from every other made this way.
    public init() { identity = .fresh(CombineIdentifier.nextFresh()) }
    /// The identifier of `object`: equal for the same (living) object.
    public init(_ object: AnyObject) { identity = .object(ObjectIdentifier(object)) }

    public var description: String {
        switch identity {
        case .fresh(let number): return "0x\(String(number, radix: 16))"
        case .object(let object): return "0x\(String(UInt(bitPattern: object), radix: 16))"
        }
    }

    private static let lock = NSLock()
    nonisolated(unsafe) private static var lastFresh: UInt64 = 0

    private static func nextFresh() -> UInt64 {
        lock.lock()
        defer { lock.unlock() }
        lastFresh &+= 1
        return lastFresh
    }
}

/// Something with a `CombineIdentifier` (Combine's `CustomCombineIdentifierConvertible`);
/// classes get one from their identity.
public protocol CustomCombineIdentifierConvertible {
    var combineIdentifier: CombineIdentifier { get }
}

extension CustomCombineIdentifierConvertible where Self: AnyObject {
    public var combineIdentifier: CombineIdentifier { CombineIdentifier(self) }
}
