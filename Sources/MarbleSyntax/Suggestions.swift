/// "Did you mean …?" for the whole project.
public enum Suggestions {
    /// The candidate nearest to `word`, or nil when nothing is close enough.
    ///
    /// Distance is the optimal-string-alignment edit distance (insertions,
    /// deletions, substitutions and swaps of neighbours each cost 1) between the
    /// lowercased spellings; among equally near candidates, the one nearer with
    /// case respected wins, then the first in alphabetical (`String`) order: the answer never depends on
    /// the order of `candidates` (a set's or a dictionary's keys may come in any order,
    /// different on every run). A candidate is close enough when its
    /// distance is at most a third of `word`'s length (at least 1) and smaller than
    /// that length, so a one-letter word only matches a different-case spelling.
    /// A candidate spelled exactly like `word` is returned as is.
    public static func nearest(to word: String, in candidates: some Sequence<String>) -> String? {
        let lowerWord = Array(word.lowercased())
        let exactWord = Array(word)
        let limit = max(1, exactWord.count / 3)
        var best: (candidate: String, folded: Int, exact: Int)?
        for candidate in candidates {
            let folded = distance(lowerWord, Array(candidate.lowercased()), limit: limit)
            guard folded <= limit, folded < max(1, exactWord.count) || folded == 0 else { continue }
            let exact = distance(exactWord, Array(candidate), limit: Int.max)
            if let current = best {
                if (current.folded, current.exact) < (folded, exact) { continue }
                if (current.folded, current.exact) == (folded, exact), current.candidate <= candidate { continue }
            }
            best = (candidate, folded, exact)
        }
        return best?.candidate
    }

    /// Optimal-string-alignment distance; returns `limit + 1` early once the
    /// distance is known to exceed `limit`.
    static func distance(_ a: [Character], _ b: [Character], limit: Int) -> Int {
        if a == b { return 0 }
        if abs(a.count - b.count) > limit { return limit == Int.max ? Int.max : limit + 1 }
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var previousPrevious = [Int](repeating: 0, count: b.count + 1)
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            var rowMinimum = current[0]
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                var value = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    value = min(value, previousPrevious[j - 2] + 1)
                }
                current[j] = value
                rowMinimum = min(rowMinimum, value)
            }
            if limit != Int.max && rowMinimum > limit { return limit + 1 }
            (previousPrevious, previous, current) = (previous, current, previousPrevious)
        }
        return previous[b.count]
    }
}
