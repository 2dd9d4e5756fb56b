import ContactProviderSystem
import Foundation
import Testing

/// `Doorbell.line()` writes most messages by hand (issue 27): every combination reads back as the
/// same message, and as the same JSON object `JSONEncoder` writes.
@Suite("Pipes: a doorbell's line")
struct DoorbellLineTests {
    static let kinds: [Doorbell.Kind] = [.signal, .invalidate, .shutdown, .step, .probe]
    static let ids: [String?] = [nil, "6B1C0F0E-1A2B-4C3D-9E8F-0123456789AB", "a\"b\\c"]

    @Test("every kind, id, reply and trace: one line, parsed back equal, the object JSONEncoder writes")
    func roundTrips() throws {
        for kind in Self.kinds {
            for id in Self.ids {
                for reply in [false, true] where !(reply && id == nil) {
                    for trace in [false, true] {
                        let message = Doorbell(kind: kind, id: id, reply: reply, trace: trace)
                        let line = try message.line()
                        let combination = "\(kind) id \(id ?? "nil") reply \(reply) trace \(trace)"
                        #expect(
                            line.last == UInt8(ascii: "\n") && line.filter { $0 == 0x0A }.count == 1, "\(combination)")
                        let object = try JSONSerialization.jsonObject(with: line) as? NSDictionary
                        let encoded =
                            try JSONSerialization.jsonObject(with: JSONEncoder().encode(message)) as? NSDictionary
                        #expect(object != nil && object == encoded, "\(combination)")
                        // A probe parses only with its request (below).
                        if kind != .probe, id == nil || (try? DomainPaths.validateRequestID(id!)) != nil {
                            #expect(try Doorbell.parse(line) == message, "\(combination)")
                        }
                    }
                }
            }
        }
    }

    @Test("a probe's request travels in the line")
    func probe() throws {
        let request = ProbeRequest(kind: .content, position: .initial, size: 4)
        let message = Doorbell(kind: .probe, id: "6B1C0F0E-1A2B-4C3D-9E8F-0123456789AB", reply: true, probe: request)
        #expect(try Doorbell.parse(message.line()) == message)
    }
}
