import Foundation
import Testing

@testable import ContactsHostKit

/// The hand-made pieces of `signal --wait`'s text (issue 27): they print what `String(format:)` did.
@Suite("Host: a sync report's text")
struct ReportTextTests {
    @Test("one decimal, as %.1f prints it, from 0 to 100,000 ms in thousandths, and past")
    func oneDecimal() {
        var values: [Double] = [0, 0.04, 0.06, 9.95, 99.99, 1234.5678, 1e9 + 0.4, 1e15 + 0.5]
        values += stride(from: 0, to: 100_000_000, by: 997).map { Double($0) / 1000 }
        for value in values where String(format: "%.1f", value) != ReportJSON.oneDecimal(value) {
            // A decimal tie (x.x5) is rounded by printf from its exact binary value; either way is right.
            let tenths = value * 10
            let tie = abs(tenths.rounded(.down) + 0.5 - tenths) < 1e-6 * max(1, tenths)
            #expect(tie, "\(value): \(ReportJSON.oneDecimal(value)), %.1f gives \(String(format: "%.1f", value))")
        }
    }
}
