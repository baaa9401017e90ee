// What an assignment or a mutating method changes: a `var` and a path into it — properties,
// tuple elements and subscripts (`next.count`, `state.items[0]`, `groups[key, default: []]`).

/// One step from a value into a part of it.
public enum PathStep: Sendable {
    /// `.name` (a stored property) or `.0` (a tuple element); the location is the name's.
    case member(String, SourceLocation)
    /// `[index]` or `[key, default: fallback]`; the location is the `[`.
    case element(index: Expr, default: Expr?, SourceLocation)
}

/// A `var` and the steps into it: `next.items[0]` is `next`, then `.items`, then `[0]`.
public struct AssignmentPath: Sendable {
    public var root: String
    public var rootLocation: SourceLocation
    public var steps: [PathStep]

    public init(root: String, rootLocation: SourceLocation, steps: [PathStep]) {
        self.root = root
        self.rootLocation = rootLocation
        self.steps = steps
    }
}

extension Expr {
    /// The path this expression names when it is assigned to or mutated: a name followed by
    /// properties, tuple elements and subscripts; nil for anything else (a call's result, a literal).
    public var assignmentPath: AssignmentPath? {
        var steps: [PathStep] = []
        var node = self
        while true {
            switch node.kind {
            case .identifier(let name):
                return AssignmentPath(root: name, rootLocation: node.location, steps: steps.reversed())
            case .member(let base?, let name):
                steps.append(.member(name, node.location))
                node = base
            case .subscriptAccess(let base, let index, let fallback):
                steps.append(.element(index: index, default: fallback, node.location))
                node = base
            default:
                return nil
            }
        }
    }
}
