import CommandLineToolkit
import Dispatch
import Glibc
import Testing

/// `contacts-host` runs its command on the main thread (issue 44: every thread switch costs a time
/// slice on a busy machine); `CallingThread` must keep the whole async chain on the calling thread,
/// including after a continuation resumed elsewhere, and return the chain's result.
@Suite struct CallingThreadTests {
    /// An identifier of the running thread that a `@Sendable` closure can carry.
    private static func threadNumber() -> UInt {
        UInt(bitPattern: Int(bitPattern: UnsafeRawPointer(bitPattern: pthread_self())))
    }

    private static func stepAway() async {}

    @Test func runsTheChainOnTheCallingThreadAndReturnsItsResult() {
        let caller = Self.threadNumber()
        let seen = CallingThread.run { () -> [UInt] in
            var threads = [Self.threadNumber()]
            await Self.stepAway()
            threads.append(Self.threadNumber())
            // Resumed from a dispatch thread: the rest must come back to the calling thread.
            let resumer = await withCheckedContinuation { (continuation: CheckedContinuation<UInt, Never>) in
                DispatchQueue.global().async { continuation.resume(returning: Self.threadNumber()) }
            }
            threads.append(Self.threadNumber())
            threads.append(resumer)
            return threads
        }
        #expect(seen.count == 4)
        #expect(Array(seen.prefix(3)) == [caller, caller, caller], "part of the chain left the calling thread")
        #expect(seen[3] != caller, "the continuation was meant to be resumed on another thread")
    }

    @Test func runsOneChainAfterAnotherOnTheSameThread() {
        for round in 0..<20 {
            let value = CallingThread.run { () -> Int in
                await Self.stepAway()
                return round * 2
            }
            #expect(value == round * 2)
        }
    }
}
