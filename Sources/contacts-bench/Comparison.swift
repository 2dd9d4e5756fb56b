import Foundation

/// The "vs baseline" cell: how the measured median compares with the naive baseline's. Says
/// "slower" when it is slower (never "1× faster"), and "about the same" within 5 %.
func baselineComparison(baselineMs: Double, measuredMs: Double) -> String {
    guard baselineMs > 0, measuredMs > 0, baselineMs.isFinite, measuredMs.isFinite else { return "-" }
    let ratio = baselineMs / measuredMs
    func times(_ value: Double) -> String {
        value < 10 ? String(format: "%.1f×", value) : String(format: "%.0f×", value)
    }
    if ratio >= 1.05 { return times(ratio) + " faster" }
    if ratio <= 1 / 1.05 { return times(1 / ratio) + " slower" }
    return "about the same"
}
