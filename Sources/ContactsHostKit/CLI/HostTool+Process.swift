import AppGroupStore
import CommandLineToolkit
import Foundation
import Glibc

extension HostTool {
    /// What an executable that runs `HostTool.main` does first, on its main thread and before its
    /// first `await`: `contacts-host` and `contacts-host-conformance` (their `main.swift`).
    ///
    /// Synchronous on purpose: at the process limit the work pool cannot start and would wait for
    /// ever, so the check speaks before any async code could need it.
    package static func startProcess(program: String) {
        signal(SIGPIPE, SIG_IGN)
        ThreadCapacity.exitIfNoThreads(program: program)
        // Before any argument is decoded: bytes that are not UTF-8 would silently name another path.
        if let problem = RawCommandLine.nonUTF8Problem(variables: [AppGroup.environmentVariable]) {
            StandardError.write("error: \(problem)\n")
            exit(ExitCode.usage)
        }
    }

    /// ``main(arguments:output:commands:)`` run to its end on the calling thread (the main thread)
    /// rather than on the work pool a top-level `await` hands it to: no thread switch between the
    /// start, the command and the exit, which a busy machine makes cost milliseconds each
    /// (``CallingThread``; issue 44). The host's commands need no parallelism of their own.
    package static func mainOnThisThread(arguments: [String], commands: [Command]) -> Int32 {
        CallingThread.run { await main(arguments: arguments, commands: commands) }
    }

    /// What such an executable does last: exits with `code`.
    package static func endProcess(_ code: Int32) -> Never {
        // Diagnostics for contacts-bench: this process's own peak memory (VmHWM; a spawned child's
        // getrusage figure would include its parent's memory at spawn time).
        if let path = EnvironmentVariable.value("CONTACTS_HOST_PEAK_RSS_FILE"),
            let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") })
        {
            try? String(line).write(toFile: path, atomically: false, encoding: .utf8)
        }
        exit(code)
    }
}
