extension Publisher {
    /// Replaces every `nil` value with `output` (Combine's `replaceNil(with:)`).
    public func replaceNil<T>(with output: T) -> Publishers.Map<Self, T> where Output == T? {
        map { $0 ?? output }
    }
}
