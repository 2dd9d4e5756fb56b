import ContactProviderTesting
import Foundation
import TestSupport
import Testing

@testable import AppGroupStore

/// The membership-only state's set of identifiers answers as `Set<String>` does, through growths
/// and removals (its backward-shift deletion), and with the same identity (canonical equivalence).
@Suite("IdentifierSet: Set<String>'s answers with remembered hashes")
struct IdentifierSetTests {
    private static func identifier(_ index: Int) -> String {
        switch index % 5 {
        case 3: "é\(index)"  // precomposed
        case 4: "e\u{301}\(index - 1)"  // decomposed: equivalent to case 3's identifier of index - 1
        default: String(format: "id-%04d", index)
        }
    }

    @Test("Random inserts, removals and lookups against Set<String>", arguments: 0..<40)
    func matchesSet(seed: UInt64) {
        var random = SeededRandom(seed: seed)
        var set = IdentifierSet()
        var reference: Set<String> = []
        let universe = 1 + random.below(400)
        if random.below(4) == 0 { set.reserveCapacity(random.below(500)) }
        for step in 0..<random.below(3000) {
            let identifier = Self.identifier(random.below(universe))
            let operation = random.below(10)
            if operation < 5 {
                let inserted = set.insert(identifier)
                let expected = reference.insert(identifier).inserted
                #expect(inserted == expected, "seed \(seed), step \(step): insert \(identifier)")
            } else if operation < 8 {
                let removed = set.remove(identifier)
                let expected = reference.remove(identifier) != nil
                #expect(removed == expected, "seed \(seed), step \(step): remove \(identifier)")
            } else {
                #expect(
                    set.contains(identifier) == reference.contains(identifier),
                    "seed \(seed), step \(step): contains \(identifier)")
            }
            #expect(set.count == reference.count, "seed \(seed), step \(step): count")
        }
        for index in 0..<universe {
            let identifier = Self.identifier(index)
            #expect(
                set.contains(identifier) == reference.contains(identifier), "seed \(seed): \(identifier) at the end")
        }
    }

    @Test(
        "Pages inserted at once (repeats within a page, equivalent forms, removals between pages) as Set<String>",
        arguments: 0..<30)
    func pagesMatchSet(seed: UInt64) {
        var random = SeededRandom(seed: seed)
        var set = IdentifierSet()
        var reference: Set<String> = []
        let universe = 1 + random.below(2000)
        for page in 0..<random.below(40) {
            let identifiers = (0..<random.below(300)).map { _ in Self.identifier(random.below(universe)) }
            var inserted: [Int] = []
            set.insert(identifiers) { inserted.append($0) }
            let expected = identifiers.indices.filter { reference.insert(identifiers[$0]).inserted }
            #expect(inserted == expected, "seed \(seed), page \(page)")
            for _ in 0..<random.below(50) {
                let identifier = Self.identifier(random.below(universe))
                #expect(set.remove(identifier) == (reference.remove(identifier) != nil), "seed \(seed), page \(page)")
            }
            #expect(set.count == reference.count, "seed \(seed), page \(page): count")
        }
        let wrong = (0..<universe).map(Self.identifier).filter { set.contains($0) != reference.contains($0) }
        #expect(wrong.isEmpty, "seed \(seed): \(wrong.prefix(5))")
    }

    @Test("Canonically equivalent identifiers are one member, as in Set<String>")
    func canonicalEquivalence() {
        var set = IdentifierSet()
        let answers = [
            set.insert("caf\u{E9}"), !set.insert("cafe\u{301}"), set.contains("cafe\u{301}"), set.insert("K"),
            !set.insert("\u{212A}"),  // KELVIN SIGN: its NFC is "K"
            set.count == 2, set.remove("\u{212A}"), !set.contains("K"), set.remove("caf\u{E9}"), set.count == 0,
        ]
        #expect(answers.allSatisfy { $0 }, "\(answers)")
    }

    @Test("A hundred thousand inserts through twenty growths, then every other one removed")
    func growthAndRemoval() {
        var set = IdentifierSet()
        var refused = 0
        for index in 0..<100_000 where !set.insert("id-\(index)") { refused += 1 }
        #expect(refused == 0)
        #expect(set.count == 100_000)
        for index in stride(from: 0, to: 100_000, by: 2) { _ = set.remove("id-\(index)") }
        #expect(set.count == 50_000)
        var wrong: [Int] = []
        for index in 0..<100_000 where set.contains("id-\(index)") != (index % 2 == 1) { wrong.append(index) }
        #expect(wrong.isEmpty, "wrong membership: \(wrong.prefix(10))")
    }
}
