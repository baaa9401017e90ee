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
        let width = signatures.map(\.usage.count).max() ?? 0
        var output: [String] = []
        for family in families {
            if !output.isEmpty { output.append("") }
            output.append(family)
            for signature in members[family] ?? [] {
                let gap = String(repeating: " ", count: width - signature.usage.count + 3)
                output.append("  " + signature.usage + gap + signature.summary)
            }
        }
        output.append("")
        output.append("\(signatures.count) operators and publishers in \(families.count) families")
        return output
    }
}
