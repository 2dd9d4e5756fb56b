import SeededRandomness
import Testing

@testable import AppGroupStore

/// `BirthdayFormat.parse` answers the common shapes from their bytes (`parseDigits`, for a debug
/// build's import) and everything else by splitting (`parseSplitting`): the two must agree wherever
/// the fast one answers, and `parse` must be exactly the splitting path.
@Suite("BirthdayFormat: the byte path agrees with the splitting path")
struct BirthdayParsingTests {
    @Test("On seeded texts near the two shapes (digits, signs, dashes, lengths), both paths give the same answer")
    func pathsAgree() {
        var random = SeededRandom(seed: 4_417)
        let alphabet = Array("0123456789-+ 0x".utf8)
        var checked = 0
        var fastAnswered = 0
        for _ in 0..<20_000 {
            var bytes = Array(random.below(2) == 0 ? "2024-02-29".utf8 : "--12-31".utf8)
            for _ in 0..<random.below(3) {
                let position = random.below(bytes.count + 1)
                switch random.below(3) {
                case 0 where position < bytes.count: bytes[position] = alphabet[random.below(alphabet.count)]
                case 1: bytes.insert(alphabet[random.below(alphabet.count)], at: position)
                default: if position < bytes.count { bytes.remove(at: position) }
                }
            }
            let text = String(decoding: bytes, as: UTF8.self)
            let general = BirthdayFormat.parseSplitting(text)
            let parsed = BirthdayFormat.parse(text)
            #expect(
                parsed?.year == general?.year && parsed?.month == general?.month && parsed?.day == general?.day,
                "\(text)")
            #expect((parsed == nil) == (general == nil), "\(text)")
            if let fast = BirthdayFormat.parseDigits(text) {
                fastAnswered += 1
                #expect(
                    fast.year == general?.year && fast.month == general?.month && fast.day == general?.day, "\(text)")
            }
            checked += 1
        }
        #expect(fastAnswered > 1_000, "the seeded texts reach the byte path (\(fastAnswered) of \(checked))")
    }
}
