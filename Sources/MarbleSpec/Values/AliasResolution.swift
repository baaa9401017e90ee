import MarbleSyntax

/// The file's `typealias`es, resolved once when they are declared: what each stands for with
/// the aliases it names followed, so that looking a name up costs the same however long the
/// chain (`typealias A2 = A1`, `typealias A1 = A0`, …: 8,000 of them were checked in time
/// quadratic in their number). Written out, an alias is bounded as a written type is: at most
/// `MarbleFileParser.maximumNesting` levels of brackets and generic arguments, and at most
/// `maximumAliasExpansion` type names (`typealias A1 = (A0, A0)`, `typealias A2 = (A1, A1)`, …
/// doubles at each step). An alias that names itself, directly or through others, is Swift's
/// error `type alias 'A' references itself`. Such an alias is reported once, at its
/// declaration, and stands for an unknown type everywhere else (no cascade of errors).
extension UserTypes {
    /// Type names an alias may stand for once written out.
    static let maximumAliasExpansion = 1_000

    /// Resolves the aliases declared (in `order`, the order of their declarations) and returns
    /// the mistakes found.
    mutating func resolveAliases(_ order: [Identifier]) -> [SpecDiagnostic] {
        var diagnostics: [SpecDiagnostic] = []
        /// Written out: brackets nesting, and type names.
        var shapes: [String: (depth: Int, size: Int)] = [:]
        var state: [String: Bool] = [:]    // false: being resolved (on the walk's path); true: done
        var locations: [String: Identifier] = [:]
        for name in order where locations[name.name] == nil { locations[name.name] = name }
        for root in order where state[root.name] == nil && aliases[root.name] != nil {
            // A depth-first walk with an explicit stack: a chain of thousands is no deeper than one.
            var path: [(name: String, references: [(name: String, depth: Int)], next: Int)] = []
            func push(_ name: String) {
                state[name] = false
                path.append((name, Self.references(in: aliases[name]?.text ?? "").filter { aliases[$0.name] != nil }, 0))
            }
            push(root.name)
            while let top = path.last {
                if top.next < top.references.count {
                    path[path.count - 1].next += 1
                    let reference = top.references[top.next].name
                    switch state[reference] {
                    case nil:
                        push(reference)
                    case false?:
                        // Back to an alias on the path: every alias from there on names itself.
                        let cycle = path.drop { $0.name != reference }.map(\.name)
                        let first = cycle.min { (locations[$0]?.location ?? .init(line: 0, column: 0)) < (locations[$1]?.location ?? .init(line: 0, column: 0)) } ?? reference
                        if unusableAliases.insert(first).inserted, let place = locations[first] {
                            let through = cycle.count == 1 ? "" : " (through \((cycle + [reference]).joined(separator: " → ")))"
                            diagnostics.append(SpecDiagnostic("type alias '\(first)' references itself\(through)", at: place.location, length: first.count,
                                                              hint: "give it a type that does not name '\(first)'"))
                        }
                        for member in cycle { unusableAliases.insert(member) }
                    case true?:
                        break
                    }
                    continue
                }
                path.removeLast()
                let name = top.name
                state[name] = true
                guard !unusableAliases.contains(name), let target = aliases[name] else { continue }
                let uses = Self.references(in: target.text)
                // One that names an alias reported as a mistake is unusable too, and not reported again.
                if uses.contains(where: { unusableAliases.contains($0.name) }) {
                    unusableAliases.insert(name)
                    continue
                }
                // Its shape from its target's text and the shapes of the aliases that text names.
                var depth = 0, size = 0
                for use in uses {
                    if let shape = shapes[use.name] {
                        depth = max(depth, use.depth + shape.depth)
                        size += shape.size
                    } else {
                        depth = max(depth, use.depth)
                        size += 1
                    }
                }
                depth = max(depth, Self.nesting(of: target.text))
                let place = locations[name] ?? Identifier(name: name, location: target.location)
                if depth > MarbleFileParser.maximumNesting {
                    unusableAliases.insert(name)
                    diagnostics.append(SpecDiagnostic("'\(name)' is nested too deeply: more than \(MarbleFileParser.maximumNesting) levels of brackets and generic arguments once its typealiases are written out",
                                                      at: place.location, length: name.count, hint: "name an inner part: declare a struct for it"))
                    continue
                }
                if size > Self.maximumAliasExpansion {
                    unusableAliases.insert(name)
                    diagnostics.append(SpecDiagnostic("'\(name)' is too large: more than \(Self.maximumAliasExpansion) type names once its typealiases are written out",
                                                      at: place.location, length: name.count, hint: "name a part of it: declare a struct for it"))
                    continue
                }
                shapes[name] = (depth, size)
                // A chain of plain names ends where its last alias does.
                let text = target.text.trimmingCharacters(in: .whitespaces)
                resolvedAliases[name] = resolvedAliases[text] ?? text
            }
        }
        return diagnostics
    }

    /// The names a written type mentions, each with the brackets around it (`[A: (B, C<D>)]`:
    /// `A` at 1, `B` at 2, `C` at 2, `D` at 3).
    static func references(in written: String) -> [(name: String, depth: Int)] {
        var result: [(name: String, depth: Int)] = []
        var depth = 0
        var current = ""
        func flush() {
            if !current.isEmpty, let first = current.first, first.isLetter || first == "_" { result.append((current, depth)) }
            current = ""
        }
        for c in written {
            if c.isLetter || c.isNumber || c == "_" || c == "." {
                current.append(c)
                continue
            }
            flush()
            if c == "<" || c == "[" || c == "(" { depth += 1 }
            if c == ">" || c == "]" || c == ")" { depth -= 1 }
        }
        flush()
        return result
    }

    /// How deeply the brackets of a written type nest.
    static func nesting(of written: String) -> Int {
        var depth = 0, deepest = 0
        for c in written {
            if c == "<" || c == "[" || c == "(" {
                depth += 1
                deepest = max(deepest, depth)
            }
            if c == ">" || c == "]" || c == ")" { depth -= 1 }
        }
        return deepest
    }
}
