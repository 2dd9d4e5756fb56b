import Foundation
import Glibc
import Testing

@testable import ContactProviderSystem

/// Issue 31 items 7 and 8, in process: the resynchronising doorbell reader and the monotonic semaphore.
@Suite("Doorbell resynchronisation and the monotonic semaphore")
struct PipeResynchronizeTests {
    @Test("a doorbell glued after a writer's unfinished bytes is found; the garbage before it is reported")
    func resynchronizesAtTheLastDoorbell() throws {
        let real = try Doorbell(kind: .signal, id: "6B1C5F6E-AAAA", reply: true).line().dropLast()
        for garbage in [
            #"{"v":1,"kind":"sig"#, #"{"v":1,"id":"{"#, "\u{00}\u{FF}xx{\"", #"{"v":1,"kind":"signal","id":"0"#,
        ] {
            let line = Data(garbage.utf8) + real
            #expect(throws: Doorbell.Malformed.self) { try Doorbell.parse(line) }
            let found = try #require(Doorbell.resynchronize(line), "\(garbage)")
            #expect(found.message == (try Doorbell.parse(Data(real))))
            #expect(found.dropped == Data(garbage.utf8))
        }
        #expect(Doorbell.resynchronize(Data(#"{"v":1,"kind":"sig{"nope":1}"#.utf8)) == nil)
        #expect(Doorbell.resynchronize(Data("garbage".utf8)) == nil)
    }

    @Test("the monotonic semaphore times out after the limit, and takes a signal given before or during the wait")
    func monotonicSemaphore() {
        let semaphore = MonotonicSemaphore()
        let start = MonotonicSemaphore.now()
        #expect(!semaphore.wait(seconds: 0.05))
        #expect(MonotonicSemaphore.now() - start >= 0.05)
        semaphore.signal()
        #expect(semaphore.wait(seconds: 0))
        #expect(!semaphore.wait(seconds: 0))
        let later = MonotonicSemaphore()
        Thread.detachNewThread { later.signal() }
        #expect(later.wait(seconds: 30))
    }
}
