import ContactProviderSystem
import Testing

/// Issue 29, item 2: the one poll loop (waits for a state that sends no event).
@Suite("Poll: waiting for a state that sends no event")
struct PollTests {
    struct ServerExited: Error {}

    @Test("a condition that holds at once is not waited for; one that holds later is seen")
    func holds() {
        #expect(Poll.until(seconds: 60, every: 0.001) { true })
        var checks = 0
        #expect(
            Poll.until(seconds: 60, every: 0.001) {
                checks += 1
                return checks == 3
            })
        #expect(checks == 3)
    }

    @Test("a condition that never holds gives false once the time is up, checked once more at the end")
    func neverHolds() {
        var checks = 0
        let held = Poll.until(seconds: 0.02, every: 0.005) {
            checks += 1
            return false
        }
        #expect(!held)
        #expect(checks >= 2, "checked while waiting and at the deadline")
    }

    @Test("an error the condition throws ends the wait")
    func errorEndsTheWait() {
        var checks = 0
        #expect(throws: ServerExited.self) {
            try Poll.until(seconds: 60, every: 0.001) {
                checks += 1
                if checks == 2 { throw ServerExited() }
                return false
            }
        }
        #expect(checks == 2)
    }
}
