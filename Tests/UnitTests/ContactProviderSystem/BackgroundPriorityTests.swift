import Glibc
import Testing

@testable import ContactProviderSystem

/// The provider's compaction runs at background priority on a thread of its own (issue 44: readers
/// first on a busy machine), and the thread that asked for it keeps its own priority.
@Suite struct BackgroundPriorityTests {
    /// The nice value of the calling thread (Linux keeps one per thread; who 0 is the caller).
    private static func niceValueOfThisThread() -> Int32 {
        errno = 0
        let value = getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0)
        #expect(errno == 0, "getpriority failed: \(String(cString: strerror(errno)))")
        return value
    }

    @Test func runsTheWorkNicerOnAnotherThreadAndReturnsItsResult() {
        let callerNice = Self.niceValueOfThisThread()
        let callerThread = pthread_self()
        var ranOnCaller = true
        let workNice = BackgroundPriority.run { () -> Int32 in
            ranOnCaller = pthread_equal(pthread_self(), callerThread) != 0
            return Self.niceValueOfThisThread()
        }
        #expect(!ranOnCaller, "the work ran on the calling thread, whose nice value it would have kept")
        // The kernel caps nice values at 19: a caller already near it gets 19.
        #expect(workNice == min(19, max(callerNice, BackgroundPriority.niceValue)))
        #expect(Self.niceValueOfThisThread() == callerNice, "the caller's priority changed")
    }

    @Test func theCallerWaitsForTheWork() {
        var steps: [String] = []
        let result = BackgroundPriority.run { () -> String in
            steps.append("work")
            return "done"
        }
        steps.append("caller")
        #expect(result == "done")
        #expect(steps == ["work", "caller"])
    }
}
