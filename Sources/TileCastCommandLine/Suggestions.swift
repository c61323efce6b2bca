/// "Did you mean" for a mistyped name: the known names closest to it by edit distance.
package enum Suggestions {
    /// Up to `limit` names of `known` within a few edits of `name` (a third of its length, at
    /// least 2), those at the smallest distance found only; case and `-`/`_` are ignored.
    package static func closest(to name: String, among known: [String], limit: Int = 3) -> [String] {
        let wanted = normalized(name)
        let allowed = max(2, wanted.count / 3)
        let scored = known.compactMap { candidate -> (String, Int)? in
            let distance = editDistance(wanted, normalized(candidate), atMost: allowed)
            return distance.map { (candidate, $0) }
        }
        guard let best = scored.map(\.1).min() else { return [] }
        return scored.filter { $0.1 == best }.map(\.0).sorted().prefix(limit).map { $0 }
    }

    /// The sentence an error ends with: `; did you mean "a" or "b"?`, or what to run instead.
    package static func sentence(for name: String, among known: [String], listedBy: String) -> String {
        let names = closest(to: name, among: known)
        guard !names.isEmpty else { return "; \(listedBy) lists them" }
        let quoted = names.map { "\"\($0)\"" }
        return "; did you mean " + (quoted.count == 1 ? quoted[0] : quoted.dropLast().joined(separator: ", ") + " or " + (quoted.last ?? "")) + "?"
    }

    private static func normalized(_ text: String) -> [UInt8] {
        Array(text.lowercased().utf8).map { $0 == UInt8(ascii: "-") ? UInt8(ascii: "_") : $0 }
    }

    /// Levenshtein distance, or nil when it is more than `limit` (stops early: names are short,
    /// the catalog has a few hundred).
    private static func editDistance(_ a: [UInt8], _ b: [UInt8], atMost limit: Int) -> Int? {
        guard abs(a.count - b.count) <= limit else { return nil }
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for (i, x) in a.enumerated() {
            current[0] = i + 1
            var rowMinimum = current[0]
            for (j, y) in b.enumerated() {
                current[j + 1] = min(previous[j + 1] + 1, current[j] + 1, previous[j] + (x == y ? 0 : 1))
                rowMinimum = min(rowMinimum, current[j + 1])
            }
            if rowMinimum > limit { return nil }
            swap(&previous, &current)
        }
        return previous[b.count] <= limit ? previous[b.count] : nil
    }
}
