import Foundation
import Glibc
import TestSupport
import Testing

/// A process started now and killed with SIGKILL after `delayMicroseconds` (fault injection, not
/// synchronisation: the test then waits for the process's real exit).
struct KilledRun {
    /// Exited normally with status 0 before the kill landed: the write was acknowledged.
    var acknowledged: Bool
    var stdout: String

    static func run(_ executable: String, _ arguments: [String], environment: [String: String], delayMicroseconds: Int)
        throws -> KilledRun
    {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.environment = environment
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        try ProcessRunner.runUnblocked(process)
        usleep(useconds_t(delayMicroseconds))
        kill(process.processIdentifier, SIGKILL)
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let acknowledged = process.terminationReason == .exit && process.terminationStatus == 0
        return KilledRun(acknowledged: acknowledged, stdout: String(decoding: data, as: UTF8.self))
    }
}
