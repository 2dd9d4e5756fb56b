import Foundation
import Glibc

/// A busy process per processor (`bench-floor spin`) for the loaded figures: a goals run's loaded
/// variant and `--only P5`'s loaded kit run, the figures a user sees while a build or a test run
/// keeps every core busy.
///
/// Each spinner is pinned to its own processor, so every processor is busy for the whole run. Left
/// to the load balancer, both spinners sometimes shared one processor for many seconds and left the
/// other free: `perf sched timehist` showed a run's thirty `status` commands each running through on
/// the free processor (6.5–7 ms) and another run's each sharing one with a spinner (16–20 ms), so a
/// loaded median was one of two figures by chance, and S2's goal divided a shared-processor figure
/// by a free-processor one (3.72× in a goals run of 2026-12-07). Pinned, six `--only S1` runs
/// measured 17.1–19.9 ms.
///
/// They run in the bench's own session, as a build started from the same terminal would: the load
/// the goals were set against. (In sessions of their own, as another terminal's build would be,
/// each short command waits for a spinner's slice at every wake-up, and `add` measured 1.69–2.23×
/// its floor instead of 1.31–1.50×: docs/benchmarks.md, "Where the floor peer and the spinners run".)
final class BusyProcessors {
    /// What a loaded figure's path ends with (`library-loaded`, `cli-loaded`): the goals read a
    /// loaded variant's figures by it.
    static let pathSuffix = "-loaded"

    /// How many spin: one per processor this process may run on.
    let count: Int
    private let spinners: [Process]
    /// The processor each spinner is pinned to, in the order of `spinners`.
    private let processors: [Int]

    init(products: String) throws {
        processors = Self.allowedProcessors()
        count = processors.count
        var started: [Process] = []
        do {
            for processor in processors {
                let spinner = try Process.run(URL(fileURLWithPath: products + "/bench-floor"), arguments: ["spin"])
                started.append(spinner)
                try Self.pin(spinner.processIdentifier, to: processor)
            }
        } catch {
            for spinner in started { kill(spinner.processIdentifier, SIGKILL) }
            throw error
        }
        spinners = started
    }

    /// Throws unless every spinner is still spinning on its own processor: a figure measured without
    /// its load is no loaded figure.
    func checkStillBusy() throws {
        guard spinners.allSatisfy(\.isRunning) else { throw BenchError("bench-floor spin ended early: no load") }
        for (spinner, processor) in zip(spinners, processors)
        where Self.processors(of: spinner.processIdentifier) != [processor] {
            throw BenchError(
                "bench-floor spin \(spinner.processIdentifier) left processor \(processor): not a busy processor each")
        }
    }

    /// What a loaded figure's note says about its load.
    var note: String {
        "meanwhile \(count) busy processes (bench-floor spin), each pinned to its own processor, in the bench's session"
    }

    /// Ends the spinners. SIGKILL: a bench started by a thread that blocks signals (a test's) passes
    /// the blocked mask on, and a SIGTERM would stay pending while the spinner spins on.
    func stop() {
        for spinner in spinners {
            kill(spinner.processIdentifier, SIGKILL)
            spinner.waitUntilExit()
        }
    }

    /// The processors this process may run on (its affinity), in order; every online one when the
    /// mask cannot be read.
    static func allowedProcessors() -> [Int] {
        let allowed = processors(of: 0)
        return allowed.isEmpty ? Array(0..<max(1, sysconf(Int32(_SC_NPROCESSORS_ONLN)))) : allowed
    }

    /// The processors in `pid`'s affinity mask (0: this process); empty when it cannot be read.
    static func processors(of pid: pid_t) -> [Int] {
        var mask = [UInt64](repeating: 0, count: maskWords)
        let read = mask.withUnsafeMutableBytes { bytes in
            affinity("sched_getaffinity").map { $0(pid, bytes.count, bytes.baseAddress!) } ?? -1
        }
        guard read == 0 else { return [] }
        return (0..<maskWords * 64).filter { mask[$0 / 64] & (1 << UInt64($0 % 64)) != 0 }
    }

    /// Pins `pid` to `processor` alone.
    static func pin(_ pid: pid_t, to processor: Int) throws {
        var mask = [UInt64](repeating: 0, count: maskWords)
        mask[processor / 64] |= 1 << UInt64(processor % 64)
        let set = mask.withUnsafeMutableBytes { bytes in
            affinity("sched_setaffinity").map { $0(pid, bytes.count, bytes.baseAddress!) } ?? -1
        }
        guard set == 0 else {
            throw BenchError(
                "cannot pin bench-floor spin \(pid) to processor \(processor): \(String(cString: strerror(errno)))")
        }
    }

    /// A mask of 1,024 processors, glibc's `cpu_set_t`.
    private static let maskWords = 16

    /// `sched_getaffinity` or `sched_setaffinity` (same shape: pid, mask size, mask), looked up at
    /// run time: Glibc declares them only under `_GNU_SOURCE`, which Swift's Glibc module does not set.
    private static func affinity(_ name: String) -> (@convention(c) (pid_t, Int, UnsafeMutableRawPointer) -> Int32)? {
        // A nil handle is glibc's RTLD_DEFAULT: every library loaded, libc among them.
        guard let symbol = dlsym(nil, name) else { return nil }
        return unsafeBitCast(symbol, to: (@convention(c) (pid_t, Int, UnsafeMutableRawPointer) -> Int32).self)
    }
}
