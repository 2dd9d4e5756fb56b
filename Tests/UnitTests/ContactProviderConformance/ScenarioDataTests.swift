import AppGroupStore
import Testing

@testable import ContactProviderConformance

/// Issue 43, "the checker's structure": a scenario's data generator is a value of its own, and a
/// fresh one per scenario makes the scenario's data from the seed and the scenario alone (what
/// makes a reproduce line's `--rules D2` make the very contacts and edits of the full run's D2).
@Suite("Conformance: a scenario's data is a value of its own")
struct ScenarioDataTests {
    /// `count` contacts, then `count` edits' salts and starting fields, from `data`.
    static func draws(_ data: inout ScenarioData, count: Int) -> [String] {
        let contacts = (0..<count).map { _ in data.makeContact() }.map { "\($0.record) \($0.shape)" }
        let edits = (0..<count).map { _ in data.nextEdit() }.map { "\($0.salt)@\($0.start)" }
        return contacts + edits + ["\(data.randomInt(0...1_000_000))"]
    }

    @Test("the same seed and rule make the same contacts and edits, whatever the run did before")
    func freshValueStartsOver() {
        var first = ScenarioData(seed: 42, for: .d2)
        let expected = Self.draws(&first, count: 12)
        // A run that drew from another scenario's generator first: a fresh value for D2 starts over.
        var other = ScenarioData(seed: 42, for: .c1)
        _ = Self.draws(&other, count: 5)
        var again = ScenarioData(seed: 42, for: .d2)
        #expect(Self.draws(&again, count: 12) == expected)
        // Another seed makes other data.
        var reseeded = ScenarioData(seed: 43, for: .d2)
        #expect(Self.draws(&reseeded, count: 12) != expected)
    }

    @Test("each scenario's identifiers carry its rule, so no two scenarios share one")
    func identifiersCarryTheRule() {
        var d2 = ScenarioData(seed: 42, for: .d2)
        var d3 = ScenarioData(seed: 42, for: .d3)
        let d2IDs = (0..<10).map { _ in d2.makeContact().record.identifier }
        let d3IDs = (0..<10).map { _ in d3.makeContact().record.identifier }
        #expect(Set(d2IDs).count == 10)
        #expect(Set(d2IDs).isDisjoint(with: d3IDs))
        #expect(d2.identifierPrefix == "kit-42-d2")
        // A scenario that is not its rule's first adds a suffix: identifiers of its own.
        var farBehind = ScenarioData(seed: 42, for: .d2)
        farBehind.identifierPrefix += "-far-behind"
        #expect(!d2IDs.contains(farBehind.makeContact().record.identifier))
    }

    @Test("a new data set starts the natural-key collisions again; identifiers keep counting")
    func dataSetStartsCollisionsAgain() {
        var data = ScenarioData(seed: 42, for: .d2)
        let first = (0..<NaturalKeyCollision.allCases.count).map { _ in data.makeContact() }
        data.startDataSet()
        #expect(data.positionInDataSet == 0)
        let next = data.makeContact()
        #expect(data.positionInDataSet == 1)
        #expect(!first.map(\.record.identifier).contains(next.record.identifier))
        #expect(data.nextIdentifier == first.count + 1)
    }
}
