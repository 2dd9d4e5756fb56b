/// SplitMix64 (Steele, Lea, Flood 2014): a tiny seeded generator with the same sequence on every
/// platform, so a failing randomized test is reproduced from the seed it prints.
public struct SplitMix64: RandomNumberGenerator, Sendable {
    public private(set) var state: UInt64

    public init(seed: UInt64) {
        state = seed
    }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// An independent generator for case `index` of a run seeded with `seed`.
    public static func forCase(_ index: Int, seed: UInt64) -> SplitMix64 {
        var mixer = SplitMix64(seed: seed &+ UInt64(index) &* 0x1000_0000_01B3)
        return SplitMix64(seed: mixer.next())
    }

    /// A number in `0..<bound` (0 when the bound is not positive).
    public mutating func below(_ bound: Int) -> Int { Int(next() % UInt64(max(bound, 1))) }
    public mutating func int(_ range: Range<Int>) -> Int { Int.random(in: range, using: &self) }
    public mutating func int(_ range: ClosedRange<Int>) -> Int { Int.random(in: range, using: &self) }
    public mutating func chance(_ probability: Double) -> Bool { Double.random(in: 0..<1, using: &self) < probability }
    public mutating func byte() -> UInt8 { UInt8.random(in: 0...255, using: &self) }
    public mutating func bytes(_ count: Int) -> [UInt8] { (0..<count).map { _ in byte() } }
    public mutating func pick<T>(_ values: [T]) -> T { values[int(0..<values.count)] }
}
