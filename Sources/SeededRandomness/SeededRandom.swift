/// The one seeded generator of the simulator, its kit and its tests: SplitMix64 (Steele, Lea, Flood
/// 2014), tiny, with the same sequence on every platform, so a failing randomized run (a kit run, a
/// fuzz case, `contacts-host generate --seed`) is reproduced from the seed it prints.
public struct SeededRandom: RandomNumberGenerator, Sendable {
    /// The generator's whole state: a generator made with this as its seed continues the sequence.
    public private(set) var state: UInt64

    /// A generator whose sequence is a function of `seed` alone.
    public init(seed: UInt64) {
        state = seed
    }

    /// The next 64 random bits.
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// An independent generator for case `index` of a run seeded with `seed`.
    public static func forCase(_ index: Int, seed: UInt64) -> SeededRandom {
        var mixer = SeededRandom(seed: seed &+ UInt64(index) &* 0x1000_0000_01B3)
        return SeededRandom(seed: mixer.next())
    }

    /// A number in `0..<bound` (0 when the bound is not positive).
    public mutating func below(_ bound: Int) -> Int { Int(next() % UInt64(max(bound, 1))) }
    /// A number in `range`.
    public mutating func int(_ range: Range<Int>) -> Int { Int.random(in: range, using: &self) }
    /// A number in `range`.
    public mutating func int(_ range: ClosedRange<Int>) -> Int { Int.random(in: range, using: &self) }
    /// True with `probability`.
    public mutating func chance(_ probability: Double) -> Bool { Double.random(in: 0..<1, using: &self) < probability }
    /// A random byte.
    public mutating func byte() -> UInt8 { UInt8.random(in: 0...255, using: &self) }
    /// `count` random bytes.
    public mutating func bytes(_ count: Int) -> [UInt8] { (0..<count).map { _ in byte() } }
    /// One of `values` (which must not be empty).
    public mutating func pick<T>(_ values: [T]) -> T { values[int(0..<values.count)] }
}
