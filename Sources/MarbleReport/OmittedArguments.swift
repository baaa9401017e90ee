/// The arguments a diagram leaves out of an operator's text, by the callee's name: those that
/// name the virtual clock (a scheduler, its options, a timer's run loop and mode), which say
/// nothing when every scheduler of a test is its one virtual scheduler. The runner fills it
/// from the operator catalogue, which declares the parameters' types.
public struct OmittedArguments: Sendable, Hashable {
    /// Labels by callee: `debounce` → `scheduler`, `options`; `Timer.publish` → `on`, `in`, `options`.
    public var labels: [String: Set<String>]

    public init(labels: [String: Set<String>] = [:]) {
        self.labels = labels
    }

    /// Whether a call of `callee` as written (`typing.debounce`, `Timer.publish`) leaves out its
    /// argument labelled `label`: the callee's name, or a dotted tail of it, lists the label.
    public func omits(label: String, callee: String) -> Bool {
        var name = Substring(callee)
        while true {
            if labels[String(name)]?.contains(label) == true { return true }
            guard let dot = name.firstIndex(of: ".") else { return false }
            name = name[name.index(after: dot)...]
        }
    }
}
