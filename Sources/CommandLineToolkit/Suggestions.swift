import Foundation

/// "Did you mean …?" for a mistyped command, subcommand or option (`singal`, `--jsn`).
package enum Suggestions {
    /// The candidates closest to `word` by edit distance, if close enough to be a typo: at most
    /// a third of the word's length (at least 1, at most 3), ties kept in the candidates' order.
    package static func closest(to word: String, among candidates: [String]) -> [String] {
        let bare = word.drop { $0 == "-" }.lowercased()
        let limit = min(3, max(1, bare.count / 3))
        var best: [String] = []
        var bestDistance = Int.max
        for candidate in candidates where candidate != word {
            let distance = editDistance(bare, candidate.drop { $0 == "-" }.lowercased())
            guard distance <= limit else { continue }
            if distance < bestDistance {
                best = [candidate]
                bestDistance = distance
            } else if distance == bestDistance, !best.contains(candidate) {
                best.append(candidate)
            }
        }
        return best
    }

    /// `"; did you mean 'signal'?"`, or "" when nothing is close.
    package static func didYouMean(_ word: String, among candidates: [String]) -> String {
        let found = closest(to: word, among: candidates)
        guard !found.isEmpty else { return "" }
        return "; did you mean " + found.map { "'\($0)'" }.joined(separator: " or ") + "?"
    }

    /// Damerau–Levenshtein (optimal string alignment) distance: insertions, deletions,
    /// substitutions and swaps of neighbours each cost 1, so `singal` is 1 away from `signal`.
    package static func editDistance(_ a: String, _ b: String) -> Int {
        let a = Array(a)
        let b = Array(b)
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var table = Array(repeating: Array(repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in 0...a.count { table[i][0] = i }
        for j in 0...b.count { table[0][j] = j }
        for i in 1...a.count {
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                table[i][j] = min(table[i - 1][j] + 1, table[i][j - 1] + 1, table[i - 1][j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    table[i][j] = min(table[i][j], table[i - 2][j - 2] + 1)
                }
            }
        }
        return table[a.count][b.count]
    }
}
