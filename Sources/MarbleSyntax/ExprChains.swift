// The chains a file's text makes as deep as it likes: operator chains (`$0 + 1 + 1 …`, `a ?? b ?? …`),
// ternary chains (`a ? x : b ? y : …`) and postfix chains (`a.map { $0 }.map { $0 } …`, `x!`, `x?.y`).
// Walks that must not recurse once per link collect a chain's spine with these, then work along it
// in a loop.

extension Expr {
    /// The node a left-to-right chain continues into: a binary operator's left side; a member
    /// access's, call's, subscript's, `!`'s, `?`'s, `?.` chain's, generic specialization's or
    /// cast's base. Nil for anything else (a leaf, brackets, a closure, a prefix operator, …).
    public var leftChainChild: Expr? {
        switch kind {
        case .binary(_, let lhs, _): lhs
        case .member(let base?, _): base
        case .call(let callee, _): callee
        case .subscriptAccess(let base, _, _): base
        case .forceUnwrap(let operand), .bindOptional(let operand), .optionalChain(let operand): operand
        case .genericSpecialization(let base, _): base
        case .cast(let operand, _, _): operand
        default: nil
        }
    }

    /// The node a right-associative chain continues into: the right side of `??`, the `else`
    /// of a ternary. Nil for anything else.
    public var rightChainChild: Expr? {
        switch kind {
        case .binary("??", _, let rhs): rhs
        case .ternary(_, _, let otherwise): otherwise
        default: nil
        }
    }

    /// The `else if` of an `if`: the `if` its `else` body holds alone; nil for anything else.
    public var elseIfChild: Expr? {
        guard case .ifExpression(let ifExpression) = kind, let elseBody = ifExpression.elseBody, elseBody.count == 1,
              case .expression(let next) = elseBody[0], case .ifExpression = next.kind else { return nil }
        return next
    }

    /// Walks from this node along `next` while it gives a node: the nodes walked through,
    /// outermost first (this one first, unless `next` gives nil for it), and the innermost node,
    /// the one `next` stops at. In a loop: as long as the chain, whatever its length.
    public func spine(along next: (Expr) -> Expr?) -> (links: [Expr], innermost: Expr) {
        var links: [Expr] = []
        var node = self
        while let child = next(node) {
            links.append(node)
            node = child
        }
        return (links, node)
    }
}
