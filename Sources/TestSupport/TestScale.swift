import Foundation

/// How big the randomized and reliability tests run, for every test target: factor 1 in
/// `swift test` (each fuzz test bounded to a couple of seconds), 20 with `CPS_FULL_SIZE=1` (each
/// test prints one summary line, so full-size figures can be collected from the output).
package enum TestScale {
    /// Whether `CPS_FULL_SIZE=1` is set.
    package static var isFullSize: Bool { ProcessInfo.processInfo.environment["CPS_FULL_SIZE"] == "1" }
    /// 1 normally, 20 in full-size mode.
    package static var factor: Int { isFullSize ? 20 : 1 }
    /// `base` scaled by `factor`.
    package static func count(_ base: Int) -> Int { base * factor }
    /// A time budget of `base` seconds scaled by `factor`.
    package static func seconds(_ base: Double) -> Double { base * Double(factor) }
    /// The fixed seed of every fuzz test (`CPS_FUZZ_SEED` replays another one).
    package static var seed: UInt64 {
        ProcessInfo.processInfo.environment["CPS_FUZZ_SEED"].flatMap { UInt64($0) } ?? 0x5EED_C0FF_EE15_600D
    }
}
