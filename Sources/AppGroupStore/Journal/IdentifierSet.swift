/// A set of contact identifiers that remembers each one's hash: what a membership-only
/// ``StoreState`` (the system engine's) keeps of a million contacts.
///
/// `Set<String>` keeps no hashes, so each of its growths hashes every identifier again (a full
/// sync of a million contacts grows it twenty times: about as many hashes again as inserts), and
/// each occupied slot a probe passes costs a string comparison, a cache miss into the other
/// string's storage. Here the table holds 8-byte entries, a 32-bit hash and the identifier's place
/// in an array the identifiers are appended to: an insert touches one random slot (the strings'
/// array grows at its end), a probe compares hashes before strings, and a growth moves entries
/// without reading a byte of any string (`perf`: the set was a fifth of the provider's CPU in a
/// full sync).
///
/// The same identity as `Set<String>` (canonical equivalence): identifiers are kept and hashed in
/// NFC (``IdentifierRules/normalized(_:)``, a no-op for ASCII), so equal strings have equal bytes.
/// The hash is the standard library's (`Hasher`, seeded per process), as resistant to chosen
/// collisions as `Set`'s.
struct IdentifierSet: Sendable {
    /// Open-addressed slots, linear probing: `hash << 32 | (index + 1)` of the identifier at
    /// `keys[index]`; 0 marks an empty slot.
    private var table = SlotTable(count: 0)
    /// The identifiers held (NFC), in no particular order: a removal moves the last one into the hole.
    private var keys: [String] = []
    /// `keys[i]`'s hash, so that a removal finds the slot of the identifier it moves.
    private var keyHashes: [UInt32] = []

    /// The number of identifiers held.
    var count: Int { keys.count }

    /// Where the slots' memory starts (a test looks the mapping up in /proc/self/smaps).
    var tableAddress: Int { Int(bitPattern: table.base) }

    init() {}

    /// Room for `minimumCapacity` identifiers without growing.
    mutating func reserveCapacity(_ minimumCapacity: Int) {
        keys.reserveCapacity(minimumCapacity)
        keyHashes.reserveCapacity(minimumCapacity)
        let needed = Self.slots(for: minimumCapacity)
        if needed > table.count { resize(to: needed) }
    }

    /// Whether an identifier canonically equivalent to `identifier` is held.
    func contains(_ identifier: String) -> Bool {
        guard !keys.isEmpty else { return false }
        let key = IdentifierRules.normalized(identifier)
        return find(key, hash: Self.hash(key)).found
    }

    /// Inserts `identifier`; returns false if it (or an equivalent one) was held already.
    @discardableResult
    mutating func insert(_ identifier: String) -> Bool {
        let key = IdentifierRules.normalized(identifier)
        let hash = Self.hash(key)
        ownTable()
        if table.count == 0 || keys.count + 1 > table.count / 4 * 3 {
            // The probe after a growth lands elsewhere, so grow first (if the key is new).
            guard table.count == 0 || !find(key, hash: hash).found else { return false }
            resize(to: Swift.max(Self.slots(for: keys.count + 1), table.count * 2))
        }
        let (slot, found) = find(key, hash: hash)
        if found { return false }
        table[slot] = UInt64(hash) << 32 | UInt64(keys.count + 1)
        keys.append(key)
        keyHashes.append(hash)
        return true
    }

    /// Inserts `identifiers` (a page of them), calling `inserted` with the index of each one that
    /// was not held yet.
    ///
    /// Three passes: the first hashes every identifier; the second only reads each one's home slot,
    /// a loop of loads that do not wait on one another, so the processor has many cache misses in
    /// flight at once (with the hashing in the same loop it had two or three: `perf` put four fifths
    /// of a full sync's inserts on that load); the third inserts into slots by then in cache,
    /// straight into a home slot still empty (an identifier whose home slot is empty is not held:
    /// it would sit in the run that starts there).
    mutating func insert(_ identifiers: [String], inserted: (Int) -> Void) {
        guard !identifiers.isEmpty else { return }
        ownTable()
        let needed = Self.slots(for: keys.count + identifiers.count)
        if needed > table.count { resize(to: Swift.max(needed, table.count * 2)) }
        var normalized: [String] = []
        normalized.reserveCapacity(identifiers.count)
        var hashes: [UInt32] = []
        hashes.reserveCapacity(identifiers.count)
        let mask = table.count - 1
        for identifier in identifiers {
            let key = IdentifierRules.normalized(identifier)
            normalized.append(key)
            hashes.append(Self.hash(key))
        }
        let slots = table.base
        let homeWasEmpty = hashes.map { slots[Int($0) & mask] == 0 }
        for index in normalized.indices {
            let hash = hashes[index]
            var slot = Int(hash) & mask
            if !(homeWasEmpty[index] && table[slot] == 0) {
                let probe = find(normalized[index], hash: hash)
                if probe.found { continue }
                slot = probe.slot
            }
            table[slot] = UInt64(hash) << 32 | UInt64(keys.count + 1)
            keys.append(normalized[index])
            keyHashes.append(hash)
            inserted(index)
        }
    }

    /// Makes the slots this set's own before it writes them (copy-on-write).
    private mutating func ownTable() {
        if !isKnownUniquelyReferenced(&table) { table = table.copy() }
    }

    /// Removes `identifier` (or an equivalent one); returns whether it was held.
    @discardableResult
    mutating func remove(_ identifier: String) -> Bool {
        guard !keys.isEmpty else { return false }
        let key = IdentifierRules.normalized(identifier)
        let (slot, found) = find(key, hash: Self.hash(key))
        guard found else { return false }
        ownTable()
        let index = Int(table[slot] & 0xFFFF_FFFF) - 1
        removeSlot(slot)
        // The last identifier moves into the hole in `keys`; its slot is told its new place.
        let last = keys.count - 1
        if index != last {
            let lastSlot = slotOfIndex(last, hash: keyHashes[last])
            table[lastSlot] = UInt64(keyHashes[last]) << 32 | UInt64(index + 1)
            keys.swapAt(index, last)
            keyHashes[index] = keyHashes[last]
        }
        keys.removeLast()
        keyHashes.removeLast()
        return true
    }

    /// Empties `slot` by backward-shift deletion: later entries of the run move up into the hole
    /// when their home slot allows it, so lookups never need tombstones.
    private mutating func removeSlot(_ slot: Int) {
        let mask = table.count - 1
        var hole = slot
        var next = (hole + 1) & mask
        while table[next] != 0 {
            let home = Int(truncatingIfNeeded: table[next] >> 32) & mask
            // The entry may move to the hole unless its home lies cyclically in (hole, next].
            if (hole - home) & mask < (next - home) & mask {
                table[hole] = table[next]
                hole = next
            }
            next = (next + 1) & mask
        }
        table[hole] = 0
    }

    /// The slot whose entry points at `keys[index]`.
    private func slotOfIndex(_ index: Int, hash: UInt32) -> Int {
        let mask = table.count - 1
        var slot = Int(hash) & mask
        while table[slot] & 0xFFFF_FFFF != UInt64(index + 1) { slot = (slot + 1) & mask }
        return slot
    }

    /// The slot holding `key` (found) or the empty slot that ends its probe (not found).
    private func find(_ key: String, hash: UInt32) -> (slot: Int, found: Bool) {
        let mask = table.count - 1
        var slot = Int(hash) & mask
        while true {
            let entry = table[slot]
            if entry == 0 { return (slot, false) }
            if UInt32(truncatingIfNeeded: entry >> 32) == hash, keys[Int(entry & 0xFFFF_FFFF) - 1] == key {
                return (slot, true)
            }
            slot = (slot + 1) & mask
        }
    }

    private mutating func resize(to slots: Int) {
        let old = table
        // Probed at random: on huge pages where the kernel allows (see `SlotTable`).
        table = SlotTable(count: slots)
        let mask = slots - 1
        for index in 0..<old.count {
            let entry = old.base[index]
            if entry == 0 { continue }
            var slot = Int(truncatingIfNeeded: entry >> 32) & mask
            while table[slot] != 0 { slot = (slot + 1) & mask }
            table[slot] = entry
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
