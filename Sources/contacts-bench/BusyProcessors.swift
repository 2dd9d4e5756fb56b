import Foundation
import Glibc

/// A busy process per processor (`bench-floor spin`) for the loaded figures: a goals run's loaded
/// variant and `--only P5`'s loaded kit run, the figures a user sees while a build or a test run
/// keeps every core busy. They run in the bench's own session, as a build started from the same
/// terminal would: the load the goals were set against. (In sessions of their own, as another
/// terminal's build would be, each short command waits for a spinner's slice at every wake-up,
/// and `add` measured 1.69–2.23× its floor instead of 1.31–1.50×: docs/benchmarks.md, "Where the
/// floor peer and the spinners run".)
final class BusyProcessors {
    /// What a loaded figure's path ends with (`library-loaded`, `cli-loaded`): the goals read a
    /// loaded variant's figures by it.
    static let pathSuffix = "-loaded"

    /// How many spin (the processors online).
    let count: Int
    private let spinners: [Process]

    init(products: String) throws {
        count = max(1, sysconf(Int32(_SC_NPROCESSORS_ONLN)))
        spinners = try (0..<count).map { _ in
            try Process.run(URL(fileURLWithPath: products + "/bench-floor"), arguments: ["spin"])
        }
    }

    /// Throws unless every spinner is still spinning: a figure measured without its load is no loaded figure.
    func checkStillBusy() throws {
        guard spinners.allSatisfy(\.isRunning) else { throw BenchError("bench-floor spin ended early: no load") }
    }

    /// What a loaded figure's note says about its load.
    var note: String {
        "meanwhile \(count) busy processes (bench-floor spin), one per processor, in the bench's session"
    }

    /// Ends the spinners. SIGKILL: a bench started by a thread that blocks signals (a test's) passes
    /// the blocked mask on, and a SIGTERM would stay pending while the spinner spins on.
    func stop() {
        for spinner in spinners {
            kill(spinner.processIdentifier, SIGKILL)
            spinner.waitUntilExit()
        }
    }
}
