import MarbleSyntax

/// How the arguments of a call meet the parameters of a `func` or `init` of the file, as Swift
/// matches them: in order, each with its parameter's label, a parameter with a default left out.
enum FunctionCalls {
    /// For each parameter, the index of its argument, or nil where the default applies; or Swift's
    /// complaint about the labels.
    static func match(_ labels: [String?], to function: FunctionDeclaration, typeName: String? = nil)
        -> Result<[Int?], LabelMismatch> {
        var slots: [Int?] = []
        var index = 0
        let expected = function.parameters.map { ($0.label ?? "_") + ":" }.joined()
        let called = typeName.map { function.name.name == "init" ? $0 : "\($0).\(function.name.name)" } ?? function.name.name
        let hint = "\(called)(\(expected))"
        // As many arguments as parameters, with other labels: Swift names the labels.
        func incorrectLabels() -> LabelMismatch? {
            guard labels.count == function.parameters.count else { return nil }
            let wrong = zip(labels, function.parameters).filter { $0 != $1.label }.count
            let have = labels.map { ($0 ?? "_") + ":" }.joined()
            return LabelMismatch(message: "incorrect argument label\(wrong == 1 ? "" : "s") in call (have '\(have)', expected '\(expected)')", hint: hint)
        }
        for (position, parameter) in function.parameters.enumerated() {
            if index < labels.count, labels[index] == parameter.label {
                slots.append(index)
                index += 1
            } else if parameter.defaultValue != nil {
                slots.append(nil)
            } else {
                let name = parameter.label.map { "'\($0)'" } ?? "#\(position + 1)"
                return .failure(incorrectLabels() ?? LabelMismatch(message: "missing argument for parameter \(name) in call", hint: hint))
            }
        }
        if index < labels.count {
            return .failure(incorrectLabels() ?? LabelMismatch(message: "extra argument\(labels[index].map { " '\($0)'" } ?? "") in call", hint: hint))
        }
        return .success(slots)
    }

    struct LabelMismatch: Error {
        var message: String
        var hint: String
    }
}
