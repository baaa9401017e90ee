import MarbleSyntax

/// Value types that hold themselves. A struct stores its properties and an enum its associated
/// values inline (an optional, a tuple and a `Result` too), so a type that holds itself that way
/// would be infinitely large, and Swift rejects it: `value type 'S' cannot have a stored property
/// that recursively contains it`, `recursive enum 'E' is not marked 'indirect'`. An array, a
/// dictionary or a set holds its elements out of line, and so does an `indirect` enum or case.
extension UserTypes {
    /// One place where a declared type holds another inline: `S.s holds a T`.
    private struct Edge {
        var from: String
        var member: String
        var to: String
    }

    /// Every value type on a cycle of inline storage, reported once per cycle, at the type of it
    /// declared first, with the cycle and the fix.
    func recursiveValueTypes(in statements: [Statement]) -> [SpecDiagnostic] {
        var order: [Identifier] = []
        var declared: Set<String> = []
        var edges: [String: [Edge]] = [:]
        for statement in statements {
            guard case .declaration(let declaration) = statement.kind else { continue }
            let name = declaration.name.name
            switch declaration.kind {
            case .structure(let fields) where structs[name] != nil && declared.insert(name).inserted:
                order.append(declaration.name)
                for field in fields {
                    guard let type = field.type else { continue }
                    edges[name, default: []] += inlineTypes(of: type.text).map { Edge(from: name, member: field.name.name, to: $0) }
                }
            case .enumeration(let cases) where enums[name] != nil && declared.insert(name).inserted:
                order.append(declaration.name)
                for item in cases where !declaration.isIndirect && !item.isIndirect {
                    let held = item.payload.flatMap { inlineTypes(of: $0.type.text) }
                    edges[name, default: []] += held.map { Edge(from: name, member: item.name.name, to: $0) }
                }
            default:
                break
            }
        }
        var diagnostics: [SpecDiagnostic] = []
        let components = Self.cycles(order.map(\.name), edges: edges)
        var componentOf: [String: Int] = [:]
        for (number, component) in components.enumerated() {
            for name in component { componentOf[name] = number }
        }
        var reported: Set<Int> = []
        for first in order {
            guard let number = componentOf[first.name], reported.insert(number).inserted else { continue }
            let component = components[number]
            let path = Self.cycle(from: first.name, within: component, edges: edges)
            let cycle = "cycle: " + path.map { "\($0.from).\($0.member) → " }.joined() + first.name
            if structs[first.name] != nil {
                diagnostics.append(SpecDiagnostic("value type '\(first.name)' cannot have a stored property that recursively contains it",
                                                  at: first.location, length: first.name.count,
                                                  hint: "\(cycle); hold \(first.name) in an array ([\(first.name)]) or an indirect enum instead"))
            } else {
                let member = path.first?.member ?? "…"
                diagnostics.append(SpecDiagnostic("recursive enum '\(first.name)' is not marked 'indirect'", at: first.location, length: first.name.count,
                                                  hint: "\(cycle); mark it: indirect enum \(first.name) { … } (or only the case: indirect case \(member)(…))"))
            }
        }
        return diagnostics
    }

    /// The declared structs and enums a written type holds inline: itself, an optional's or a
    /// tuple's elements, `Optional<T>` and `Result<T, E>`'s arguments, an alias's target; not
    /// an array's, a dictionary's or another generic type's.
    func inlineTypes(of written: String) -> [String] {
        var found: [String] = []
        var pending = [written]
        var seenAliases: Set<String> = []
        while let next = pending.popLast() {
            var text = next.trimmingCharacters(in: .whitespaces)
            while text.hasSuffix("?") || text.hasSuffix("!") { text = text.dropLast().trimmingCharacters(in: .whitespaces) }
            if text.hasPrefix("[") { continue }
            if text.hasPrefix("("), text.hasSuffix(")") {
                let parts = Self.topLevelParts(String(text.dropFirst().dropLast()), separators: [","])
                pending += parts.reversed().map(Self.droppingLabel)
                continue
            }
            if let open = text.firstIndex(of: "<"), text.hasSuffix(">") {
                let base = text[..<open].trimmingCharacters(in: .whitespaces)
                guard base == "Optional" || base == "Result" else { continue }
                pending += Self.topLevelParts(String(text[text.index(after: open)..<text.index(before: text.endIndex)]), separators: [","]).reversed()
                continue
            }
            if let target = aliases[text] {
                if seenAliases.insert(text).inserted { pending.append(target.text) }
                continue
            }
            if structs[text] != nil || enums[text] != nil { found.append(text) }
        }
        return found
    }

    /// The strongly connected components of the graph that hold a cycle (more than one type, or
    /// a type holding itself), each as a set of names (Tarjan's algorithm, iterative: a chain of
    /// thousands of declarations is walked without recursion).
    private static func cycles(_ nodes: [String], edges: [String: [Edge]]) -> [Set<String>] {
        var index: [String: Int] = [:]
        var low: [String: Int] = [:]
        var onStack: Set<String> = []
        var stack: [String] = []
        var result: [Set<String>] = []
        var counter = 0
        for root in nodes where index[root] == nil {
            // Each frame: a node and how many of its edges were followed.
            var work: [(node: String, next: Int)] = [(root, 0)]
            index[root] = counter
            low[root] = counter
            counter += 1
            stack.append(root)
            onStack.insert(root)
            while let (node, next) = work.last {
                let out = edges[node] ?? []
                if next < out.count {
                    work[work.count - 1].next += 1
                    let target = out[next].to
                    if index[target] == nil {
                        index[target] = counter
                        low[target] = counter
                        counter += 1
                        stack.append(target)
                        onStack.insert(target)
                        work.append((target, 0))
                    } else if onStack.contains(target) {
                        low[node] = min(low[node] ?? 0, index[target] ?? 0)
                    }
                    continue
                }
                work.removeLast()
                if let parent = work.last?.node { low[parent] = min(low[parent] ?? 0, low[node] ?? 0) }
                guard low[node] == index[node] else { continue }
                var component: Set<String> = []
                while let member = stack.popLast() {
                    onStack.remove(member)
                    component.insert(member)
                    if member == node { break }
                }
                if component.count > 1 || out.contains(where: { $0.to == node }) { result.append(component) }
            }
        }
        return result
    }

    /// The shortest way from `start` back to itself through `component` (breadth first).
    private static func cycle(from start: String, within component: Set<String>, edges: [String: [Edge]]) -> [Edge] {
        var cameBy: [String: Edge] = [:]
        var queue = [start]
        var head = 0
        while head < queue.count {
            let node = queue[head]
            head += 1
            for edge in edges[node] ?? [] where component.contains(edge.to) {
                if edge.to == start {
                    var path = [edge]
                    var at = node
                    while at != start, let previous = cameBy[at] {
                        path.append(previous)
                        at = previous.from
                    }
                    return path.reversed()
                }
                if cameBy[edge.to] == nil {
                    cameBy[edge.to] = edge
                    queue.append(edge.to)
                }
            }
        }
        return []
    }
}
