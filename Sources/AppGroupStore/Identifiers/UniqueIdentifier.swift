import Foundation
import Synchronization

/// Fresh identifiers for new contacts and labeled values, and for the requests a host sends the
/// provider: UUID-shaped strings (version 4 layout, uppercase, as `UUID().uuidString`), made
/// without a system call.
///
/// Foundation's `UUID()` on Linux opens, reads and closes `/dev/urandom` and formats with
/// `sprintf` for every call: three identifiers per bridged contact were most of a full sync's
/// system calls. These identifiers need to be unique, not secret: a process-wide counter goes
/// through two bijective 64-bit mixers keyed by a random seed drawn once, so no two identifiers of
/// one process are equal, and processes differ by their seeds (128 random bits, as likely to
/// collide as two `UUID()`s).
package enum UniqueIdentifier {
    private static let keys: (UInt64, UInt64) = {
        var generator = SystemRandomNumberGenerator()
        return (generator.next(), generator.next())
    }()
    private static let counter = Atomic<UInt64>(0)

    /// A new identifier such as `"1F0C1B6E-3A4D-4F2B-9C61-0D2E5A7B8C9F"`.
    package static func make() -> String {
        let (high, low) = next()
        return String(unsafeUninitializedCapacity: 36) { buffer in
            var index = 0
            func put(_ value: UInt64, nibbles: Int) {
                var shift = (nibbles - 1) * 4
                while shift >= 0 {
                    let nibble = UInt8(truncatingIfNeeded: value >> UInt64(shift)) & 0xF
                    buffer[index] = nibble < 10 ? 0x30 + nibble : 0x37 + nibble  // 0-9, A-F
                    index += 1
                    shift -= 4
                }
            }
            func dash() {
                buffer[index] = UInt8(ascii: "-")
                index += 1
            }
            put(high >> 32, nibbles: 8)
            dash()
            put(high >> 16, nibbles: 4)
            dash()
            put(high, nibbles: 4)
            dash()
            put(low >> 48, nibbles: 4)
            dash()
            put(low, nibbles: 12)
            return index
        }
    }

    /// 128 bits with the version (4) and variant (10) bits of a random UUID.
    package static func next() -> (UInt64, UInt64) {
        let n = counter.wrappingAdd(1, ordering: .relaxed).oldValue
        var high = mix(n ^ keys.0)
        var low = mix(n &+ keys.1)
        high = (high & ~0xF000) | 0x4000
        low = (low & ~(0xC000 << 48)) | (0x8000 << 48)
        return (high, low)
    }

    /// SplitMix64's finaliser: a bijection on 64-bit values.
    private static func mix(_ value: UInt64) -> UInt64 {
        var z = value &+ 0x9E37_79B9_7F4A_7C15
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
