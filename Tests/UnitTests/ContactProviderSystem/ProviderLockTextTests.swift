import ContactProviderSystem
import Testing

/// The provider's lock file holds its pid; the host reads it by hand (issue 27).
@Suite("Host: the pid in the provider's lock file")
struct ProviderLockTextTests {
    @Test("a pid with surrounding white space is read; anything else is not a pid")
    func pid() {
        #expect(SystemClient.pid(fromLockText: "12345\n") == 12345)
        #expect(SystemClient.pid(fromLockText: " 7 \r\n") == 7)
        #expect(SystemClient.pid(fromLockText: "2147483647") == Int32.max)
        for text in ["", "\n", "12 34", "12a", "-5", "2147483648", "99999999999999999999", "1.5"] {
            #expect(SystemClient.pid(fromLockText: text) == nil, "\(text.debugDescription)")
        }
    }
}
