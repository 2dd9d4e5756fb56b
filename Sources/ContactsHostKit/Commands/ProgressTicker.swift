import AppGroupStore
import ContactProviderSystem
import Foundation
import Glibc
import Synchronization

/// Whether progress lines go to stderr: `CONTACTS_HOST_PROGRESS=1` always, `=0` never, otherwise only
/// when stderr is a terminal (so scripts and tests that read stderr see only diagnostics).
enum ProgressPolicy {
    /// The environment variable that forces progress lines on (1) or off (0).
    static let variable = "CONTACTS_HOST_PROGRESS"

    /// Whether `output` gets progress lines (by default only the process's own stderr, if a terminal;
    /// never a captured output of an in-process run).
    static func enabled(for output: CommandOutput) -> Bool {
        switch EnvironmentVariable.value(variable) {
        case "1": true
        case "0": false
        default: output is StandardOutput && isatty(STDERR_FILENO) == 1
        }
    }
}

/// Prints `<what>… (T s)` on stderr once a second, starting one second in, while a long command
/// runs: `import` and `generate` say what they are doing (reading, writing N/M, compacting) instead
/// of staying silent. A quick command prints nothing.
package final class ProgressTicker: Sendable {
    /// The output, used from the timer's queue (`StandardOutput.err` is a single `write`).
    private nonisolated(unsafe) let output: CommandOutput
    private let phase: Mutex<String>
    /// Monotonic: the elapsed seconds shown must not jump with the wall clock.
    private let started = ContinuousSystemClock().now()
    /// Dispatch sources are thread-safe; the type is not marked Sendable. Nil when progress is off.
    private nonisolated(unsafe) let timer: DispatchSourceTimer?

    package init(output: CommandOutput, prefix: String, phase: String) {
        self.output = output
        self.phase = Mutex(phase)
        guard ProgressPolicy.enabled(for: output) else {
            timer = nil
            return
        }
        let timer = DispatchSource.makeTimerSource(queue: .global())
        self.timer = timer
        timer.schedule(deadline: .now() + 1, repeating: 1)
        timer.setEventHandler { [weak self] in
            guard let self else { return }
            let text = self.phase.withLock { $0 }
            self.output.err(
                String(format: "%@: %@… (%.0f s)", prefix, text, ContinuousSystemClock().now() - self.started))
        }
        timer.resume()
    }

    /// What the command is doing now.
    package func set(_ text: String) { phase.withLock { $0 = text } }

    /// No more lines (call before printing the result).
    package func stop() { timer?.cancel() }

    deinit { timer?.cancel() }
}
