/// A set of contact identifiers that remembers each one's hash: what a membership-only
/// ``StoreState`` (the system engine's) keeps of a million contacts.
///
/// `Set<String>` keeps no hashes, so each of its growths hashes every identifier again (a full
/// sync of a million contacts grows it twenty times: about as many hashes again as inserts), and
/// each occupied slot a probe passes costs a string comparison, a cache miss into the other
/// string's storage. Here a probe compares the 32-bit hashes first, in their own array, and a
/// growth moves hashes and strings without reading a byte of either (`perf`: the set was a fifth of
/// the provider's CPU in a full sync).
///
/// The same identity as `Set<String>` (canonical equivalence): identifiers are kept and hashed in
/// NFC (``IdentifierRules/normalized(_:)``, a no-op for ASCII), so equal strings have equal bytes.
/// The hash is the standard library's (`Hasher`, seeded per process), as resistant to chosen
/// collisions as `Set`'s.
struct IdentifierSet: Sendable {
    /// Each slot's hash, never 0; 0 marks an empty slot.
    private var hashes: [UInt32] = []
    /// Each slot's identifier (NFC), "" in an empty slot.
    private var keys: [String] = []
    /// The number of identifiers held.
    private(set) var count = 0

    init() {}

    /// Room for `minimumCapacity` identifiers without growing.
    mutating func reserveCapacity(_ minimumCapacity: Int) {
        let needed = Self.slots(for: minimumCapacity)
        if needed > hashes.count { resize(to: needed) }
    }

    /// Whether an identifier canonically equivalent to `identifier` is held.
    func contains(_ identifier: String) -> Bool {
        guard count > 0 else { return false }
        let key = IdentifierRules.normalized(identifier)
        return find(key, hash: Self.hash(key)).found
    }

    /// Inserts `identifier`; returns false if it (or an equivalent one) was held already.
    @discardableResult
    mutating func insert(_ identifier: String) -> Bool {
        let key = IdentifierRules.normalized(identifier)
        let hash = Self.hash(key)
        if hashes.isEmpty || (count + 1) > hashes.count / 4 * 3 {
            // The probe after a growth lands elsewhere, so grow first (if the key is new).
            if hashes.isEmpty || !find(key, hash: hash).found {
                resize(to: Swift.max(Self.slots(for: count + 1), hashes.count * 2))
            } else {
                return false
            }
        }
        let (slot, found) = find(key, hash: hash)
        if found { return false }
        hashes[slot] = hash
        keys[slot] = key
        count += 1
        return true
    }

    /// Removes `identifier` (or an equivalent one); returns whether it was held.
    @discardableResult
    mutating func remove(_ identifier: String) -> Bool {
        guard count > 0 else { return false }
        let key = IdentifierRules.normalized(identifier)
        var (slot, found) = find(key, hash: Self.hash(key))
        guard found else { return false }
        // Backward-shift deletion: later slots of the run move up into the hole when their home
        // slot allows it, so lookups never need tombstones.
        let mask = hashes.count - 1
        var next = (slot + 1) & mask
        while hashes[next] != 0 {
            let home = Int(hashes[next]) & mask
            // Whether `home` lies cyclically outside (slot, next]: then the entry may move to `slot`.
            let distanceToNext = (next - home) & mask
            let distanceToSlot = (slot - home) & mask
            if distanceToSlot < distanceToNext {
                hashes[slot] = hashes[next]
                keys.swapAt(slot, next)
                slot = next
            }
            next = (next + 1) & mask
        }
        hashes[slot] = 0
        keys[slot] = ""
        count -= 1
        return true
    }

    /// The slot holding `key` (found) or the empty slot that ends its probe (not found).
    private func find(_ key: String, hash: UInt32) -> (slot: Int, found: Bool) {
        let mask = hashes.count - 1
        var slot = Int(hash) & mask
        while true {
            let stored = hashes[slot]
            if stored == 0 { return (slot, false) }
            if stored == hash, keys[slot] == key { return (slot, true) }
            slot = (slot + 1) & mask
        }
    }

    private mutating func resize(to slots: Int) {
        let oldHashes = hashes
        var oldKeys = keys
        hashes = Array(repeating: 0, count: slots)
        keys = Array(repeating: "", count: slots)
        let mask = slots - 1
        for index in oldHashes.indices where oldHashes[index] != 0 {
            let hash = oldHashes[index]
            var slot = Int(hash) & mask
            while hashes[slot] != 0 { slot = (slot + 1) & mask }
            hashes[slot] = hash
            // Swapped out, not copied: no retain and release per identifier.
            swap(&keys[slot], &oldKeys[index])
        }
    }

    /// The smallest power of two that holds `count` identifiers at most three quarters full.
    private static func slots(for count: Int) -> Int {
        var slots = 8
        while slots / 4 * 3 < count { slots *= 2 }
        return slots
    }

    /// `key`'s UTF-8 bytes through the standard library's seeded hasher, never 0.
    private static func hash(_ key: String) -> UInt32 {
        var key = key
        let full = key.withUTF8 { bytes in
            var hasher = Hasher()
            hasher.combine(bytes: UnsafeRawBufferPointer(bytes))
            return hasher.finalize()
        }
        let folded = UInt32(truncatingIfNeeded: full ^ (full >> 32))
        return folded == 0 ? 1 : folded
    }
}
