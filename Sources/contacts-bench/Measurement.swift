import CommandLineToolkit
import Foundation
import Glibc

/// Timing and process helpers for the benchmark.
enum Measure {
    /// Monotonic seconds.
    static func now() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }

    /// CPU seconds (user and system) of this process and of the children it has reaped.
    static func cpuSeconds() -> Double {
        func seconds(_ who: Int32) -> Double {
            var usage = rusage()
            getrusage(who, &usage)
            return Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec)
                + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6
        }
        return seconds(RUSAGE_SELF.rawValue) + seconds(RUSAGE_CHILDREN.rawValue)
    }

    /// Milliseconds taken by `body`.
    static func milliseconds(_ body: () throws -> Void) rethrows -> Double {
        let start = now()
        try body()
        return (now() - start) * 1000
    }

    /// The median of `samples`.
    static func median(_ samples: [Double]) -> Double {
        let sorted = samples.sorted()
        guard !sorted.isEmpty else { return .nan }
        let middle = sorted.count / 2
        return sorted.count % 2 == 0 ? (sorted[middle - 1] + sorted[middle]) / 2 : sorted[middle]
    }

    /// The outcome of one spawned process.
    struct Run {
        var milliseconds: Double
        var exitCode: Int32
        /// The child's own CPU time, user and system, from `wait4`'s resource usage.
        var cpuMilliseconds: Double = 0
    }

    /// Spawns `arguments` with `environment`, stdin from `input` (default /dev/null), stdout/stderr
    /// to /dev/null, and waits.
    static func spawn(_ arguments: [String], environment: [String: String], input: String = "/dev/null") throws
        -> Run
    {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, input, O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        let start = now()
        let pid: pid_t
        switch ProcessSpawn.spawn(
            arguments[0], arguments: arguments, environment: environment, fileActions: &actions, attributes: nil)
        {
        case .success(let started): pid = started
        case .failure(let error): throw BenchError("cannot run \(arguments[0]): \(error)")
        }
        var status: Int32 = 0
        var usage = rusage()
        while wait4(pid, &status, 0, &usage) < 0, errno == EINTR {}
        let elapsed = (now() - start) * 1000
        let exitCode = (status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
        return Run(milliseconds: elapsed, exitCode: exitCode, cpuMilliseconds: milliseconds(of: usage))
    }

    /// User and system time of `usage`, in milliseconds.
    static func milliseconds(of usage: rusage) -> Double {
        Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) * 1000
            + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1000
    }

    /// This process's own CPU time (user and system, every thread), in milliseconds.
    static func ownCPUMilliseconds() -> Double {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        return milliseconds(of: usage)
    }

    /// The CPU time (user and system, every thread) a running process has used so far, from
    /// `/proc/<pid>/stat` (clock ticks, 10 ms here); nil when it is gone.
    static func cpuMilliseconds(pid: Int32) -> Double? {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let commandEnd = text.lastIndex(of: ")")
        else { return nil }
        // After the command's closing parenthesis: state (field 3), …, utime (14), stime (15).
        let fields = text[text.index(after: commandEnd)...].split(separator: " ")
        guard fields.count > 12, let user = Double(fields[11]), let system = Double(fields[12]) else { return nil }
        return (user + system) * 1000 / Double(sysconf(Int32(_SC_CLK_TCK)))
    }

    /// Reads `source` whole and writes the same bytes to `destination` with one `fdatasync`: the
    /// raw floor of a full sync, which must read the address book and write it to another store.
    static func copyDurably(_ source: String, to destination: String) throws {
        let data = try Data(contentsOf: URL(fileURLWithPath: source))
        let fd = open(destination, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw BenchError("cannot create \(destination)") }
        defer { close(fd) }
        try data.withUnsafeBytes { (buffer: UnsafeRawBufferPointer) in
            var written = 0
            while written < buffer.count {
                let n = write(fd, buffer.baseAddress! + written, buffer.count - written)
                if n < 0, errno == EINTR { continue }
                guard n > 0 else { throw BenchError("cannot write \(destination)") }
                written += n
            }
        }
        guard fdatasync(fd) == 0 else { throw BenchError("cannot sync \(destination)") }
    }

    /// Peak resident memory (VmHWM) of a running process, from /proc.
    static func peakRSS(pid: Int32) -> Int? {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return nil }
        for line in status.split(separator: "\n") where line.hasPrefix("VmHWM:") {
            let number = line.split(separator: " ").compactMap { Int($0) }.first
            return number.map { $0 * 1024 }
        }
        return nil
    }

    /// This process's own peak resident memory.
    static func ownPeakRSS() -> Int {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        return Int(usage.ru_maxrss) * 1024
    }
}

struct BenchError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// A `bench-floor serve` process: the provider's stand-in in the signal floors. It waits on its
/// FIFO as the provider does, makes `steps`' durable writes per request, and replies. It leads a
/// session of its own, as a launched provider does (``SessionProcess``).
final class FloorPeer: CustomStringConvertible {
    /// The durable writes per request, one letter each: `a` an append and its fdatasync, `r` a
    /// file replaced (temporary file, fsync, rename, directory fsync), as `bench-floor serve` takes them.
    let steps: String
    private let process: SessionProcess
    private let requests: String
    private let tool: String
    private let directory: String

    init(tool: String, steps: String, directory: String) throws {
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        self.tool = tool
        self.steps = steps
        self.directory = directory
        requests = directory + "/requests.fifo"
        guard mkfifo(requests, 0o600) == 0 else { throw BenchError("cannot make \(requests)") }
        process = try SessionProcess([tool, "serve", requests, steps, directory])
    }

    /// What a figure's note says of this floor.
    var description: String {
        let appends = steps.filter { $0 == "a" }.count
        let replaces = steps.filter { $0 == "r" }.count
        var writes: [String] = []
        if appends > 0 { writes.append("\(appends) durable append\(appends == 1 ? "" : "s") (fdatasync)") }
        if replaces > 0 {
            writes.append(
                "\(replaces) durable replace\(replaces == 1 ? "" : "s") (temporary file, fsync, rename, directory fsync)"
            )
        }
        return
            "bench-floor ring (FIFO round trip to a peer in a session of its own, as a launched provider is, that makes \(writes.joined(separator: " and ")))"
    }

    /// One `bench-floor ring` to this peer, timed as the commands are.
    func ring(environment: [String: String]) throws -> Double {
        let run = try Measure.spawn([tool, "ring", requests, directory], environment: environment)
        guard run.exitCode == 0 else { throw BenchError("bench-floor ring failed (exit \(run.exitCode))") }
        return run.milliseconds
    }

    /// Ends the peer and waits for it.
    func stop() {
        let fd = open(requests, O_WRONLY | O_NONBLOCK | O_CLOEXEC)
        if fd >= 0 {
            _ = "stop\n".withCString { write(fd, $0, 5) }
            close(fd)
        } else {
            process.send(SIGTERM)
        }
        process.waitUntilExit()
    }
}
