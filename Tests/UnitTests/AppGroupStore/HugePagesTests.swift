import Foundation
import Testing

@testable import AppGroupStore

/// `HugePages`: the identifier set's slots, probed at random, sit on 2 MB pages where the kernel
/// gives them on request (transparent huge pages "always" or "madvise").
@Suite("Store: large random-access tables on huge pages")
struct HugePagesTests {
    /// Whether this kernel gives huge pages to memory that asks (the bracketed mode is the current one).
    static let kernelGivesThem: Bool = {
        let mode = (try? String(contentsOfFile: "/sys/kernel/mm/transparent_hugepage/enabled", encoding: .utf8)) ?? ""
        return mode.contains("[always]") || mode.contains("[madvise]")
    }()

    @Test(
        "An 8 MB slot table is zero at first, backed by huge pages, and its copy holds the same slots",
        .enabled(if: kernelGivesThem, "this kernel's transparent huge pages are off (never)"))
    func slotTable() throws {
        let table = SlotTable(count: 1 << 20)
        #expect((0..<table.count).allSatisfy { table[$0] == 0 })
        for slot in Swift.stride(from: 0, to: table.count, by: 7) { table[slot] = UInt64(slot) + 1 }
        let huge = try #require(
            try ProcessMappings.bytes(of: "AnonHugePages", ofMappingHolding: Int(bitPattern: table.base)))
        #expect(huge >= HugePages.size, "\(huge) bytes of the table's mapping on huge pages")
        let copy = table.copy()
        copy[0] = 99
        #expect(table[0] == 1 && copy[7] == 8 && copy[8] == 0)
        // A small table is allocated (no mapping of its own), zero too.
        let small = SlotTable(count: 64)
        #expect((0..<64).allSatisfy { small[$0] == 0 })
    }

    @Test("A copied identifier set keeps its slots when the other copy inserts or removes")
    func copiesAreIndependent() throws {
        var original = IdentifierSet()
        var inserted = 0
        original.insert((0..<300_000).map { "c\($0)" }) { _ in inserted += 1 }
        var copy = original
        #expect(copy.insert("new") && copy.remove("c1") && copy.remove("c2"))
        #expect(original.contains("c1") && original.contains("c2") && !original.contains("new"))
        #expect(!copy.contains("c1") && copy.contains("new") && copy.count == original.count - 1)
        #expect(original.remove("c3") && copy.contains("c3"))
    }

    @Test(
        "The identifier set of 400,000 contacts keeps its slots on huge pages",
        .enabled(if: kernelGivesThem, "this kernel's transparent huge pages are off (never)"))
    func identifierSetTable() throws {
        var set = IdentifierSet()
        let identifiers = (0..<400_000).map { "c\($0)" }
        var inserted = 0
        set.insert(identifiers) { _ in inserted += 1 }
        #expect(inserted == identifiers.count && set.count == identifiers.count)
        let huge = try #require(try ProcessMappings.bytes(of: "AnonHugePages", ofMappingHolding: set.tableAddress))
        #expect(huge >= HugePages.size, "\(huge) bytes of the slots' mapping on huge pages")
    }
}
