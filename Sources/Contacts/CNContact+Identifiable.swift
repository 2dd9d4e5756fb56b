import Foundation

extension CNContact: Identifiable {
    /// A stable identity for lists (`ForEach(contacts)`), as Apple's `id: UUID`.
    ///
    /// The contact's ``identifier`` when it is a UUID (a new contact's is); otherwise a UUID
    /// derived from the identifier (FNV-1a, the same in every process), so equal identifiers
    /// always give equal ids.
    public var id: UUID {
        if let uuid = UUID(uuidString: String(identifier.prefix(36))) { return uuid }
        var high: UInt64 = 0xcbf2_9ce4_8422_2325
        var low: UInt64 = 0x8422_2325_cbf2_9ce4
        for byte in identifier.utf8 {
            high = (high ^ UInt64(byte)) &* 0x100_0000_01b3
            low = (low ^ UInt64(byte)) &* 0x100_0000_01b3 &+ 1
        }
        var bytes = [UInt8](repeating: 0, count: 16)
        for index in 0..<8 {
            bytes[index] = UInt8(truncatingIfNeeded: high >> (index * 8))
            bytes[index + 8] = UInt8(truncatingIfNeeded: low >> (index * 8))
        }
        bytes[6] = (bytes[6] & 0x0F) | 0x50  // version 5 layout: name-based
        bytes[8] = (bytes[8] & 0x3F) | 0x80  // RFC 4122 variant
        return UUID(
            uuid: (
                bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7],
                bytes[8], bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]
            ))
    }
}
