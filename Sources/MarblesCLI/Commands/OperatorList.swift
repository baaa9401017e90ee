import MarbleSpec

/// `marbles operators`: every signature's usage and summary, grouped by family in catalogue order.
enum OperatorList {
    static func lines(_ signatures: [OperatorSignature]) -> [String] {
        var families: [String] = []
        var members: [String: [OperatorSignature]] = [:]
        for signature in signatures {
            if members[signature.family] == nil { families.append(signature.family) }
            members[signature.family, default: []].append(signature)
        }
        // Usage and summary on separate lines: one long signature (handleEvents) must not push
        // every summary off the screen.
        var output: [String] = []
        for family in families {
            if !output.isEmpty { output.append("") }
            output.append(family + "  (marbles/operators/\(family).marble)")
            for signature in members[family] ?? [] {
                output.append("  " + signature.usage)
                output.append("      " + signature.summary)
            }
        }
        output.append("")
        output.append("\(signatures.count) operators and publishers in \(families.count) families")
        return output
    }
}
