import CommandLineToolkit
import Foundation
import Glibc

/// A busy process per processor (`bench-floor spin`) for the loaded figures: a goals run's loaded
/// variant and `--only P5`'s loaded kit run, the figures a user sees while a build or a test run
/// keeps every core busy. Each leads a session of its own (``SessionProcess``), as another
/// program's load would: inside the bench's session it shared a scheduling group with the floor
/// peer, whose wake-ups then came sooner than the provider's.
final class BusyProcessors {
    /// What a loaded figure's path ends with (`library-loaded`, `cli-loaded`): the goals read a
    /// loaded variant's figures by it.
    static let pathSuffix = "-loaded"

    /// How many spin (the processors online).
    let count: Int
    private let spinners: [SessionProcess]

    init(products: String) throws {
        count = max(1, sysconf(Int32(_SC_NPROCESSORS_ONLN)))
        spinners = try (0..<count).map { _ in
            try SessionProcess([products + "/bench-floor", "spin"])
        }
    }

    /// Throws unless every spinner is still spinning: a figure measured without its load is no loaded figure.
    func checkStillBusy() throws {
        guard spinners.allSatisfy(\.isRunning) else { throw BenchError("bench-floor spin ended early: no load") }
    }

    /// What a loaded figure's note says about its load.
    var note: String {
        "meanwhile \(count) busy processes (bench-floor spin), one per processor, each in a session of its own"
    }

    /// Ends the spinners (SIGKILL: a spinner has nothing to clean up).
    func stop() {
        for spinner in spinners {
            spinner.send(SIGKILL)
            spinner.waitUntilExit()
        }
    }
}
