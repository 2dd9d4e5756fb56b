import ContactProviderSystem
import Foundation
import Glibc

/// A real server process (Radicale, Xandikos) on 127.0.0.1 with a free port and its own temporary
/// directory: started and ready (it accepts connections) once `init` returns, killed and waited for
/// by ``kill()``, started again on the same port by ``restart()``, removed by ``stop()``.
package final class LoopbackServerProcess: @unchecked Sendable {
    /// The server's name in messages ("Radicale").
    package let name: String
    /// The port it listens on (kept across ``restart()``).
    package private(set) var port: Int
    /// The temporary directory holding its storage, configuration and log.
    package let directory: String
    private let executable: String
    private let arguments: (_ port: Int, _ directory: String) -> [String]
    private var process: Process?

    /// `http://127.0.0.1:PORT/`.
    package var baseURL: URL { URL(string: "http://127.0.0.1:\(port)/")! }

    /// Creates the directory, lets `prepare` fill it, and starts `executable` with
    /// `arguments(port, directory)` on a free port (retried: a port picked by binding port 0 can be
    /// taken by someone else before the server binds it).
    package init(
        name: String, executable: String, prepare: (_ directory: String) throws -> Void = { _ in },
        arguments: @escaping (_ port: Int, _ directory: String) -> [String]
    ) throws {
        self.name = name
        self.executable = executable
        self.arguments = arguments
        let prefix = "cps-" + name.lowercased().filter { $0.isLetter }
        var template = Array((NSTemporaryDirectory() + "/\(prefix)-XXXXXX").utf8CString)
        guard template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) != nil else {
            throw RadicaleError("cannot create a temporary directory for \(name): errno \(errno)")
        }
        directory = String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
        port = 0
        var lastError: Error?
        do {
            try prepare(directory)
            for _ in 0..<5 {
                do {
                    port = try Self.freePort()
                    try start()
                    return
                } catch {
                    lastError = error
                }
            }
        } catch {
            lastError = error
        }
        try? FileManager.default.removeItem(atPath: directory)
        throw lastError ?? RadicaleError("\(name) did not start")
    }

    private func start() throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments(port, directory)
        let log =
            FileHandle(forWritingAtPath: logPath)
            ?? {
                _ = FileManager.default.createFile(atPath: logPath, contents: nil)
                return FileHandle(forWritingAtPath: logPath)!
            }()
        log.seekToEndOfFile()
        process.standardOutput = log
        process.standardError = log
        process.standardInput = FileHandle.nullDevice
        try process.run()
        self.process = process
        // Ready when the port accepts a connection; bounded, and failing early if the server exits.
        let ready = try Poll.until(seconds: 30, every: 0.02) {
            guard process.isRunning else {
                self.process = nil
                throw RadicaleError(
                    "\(name) exited with status \(process.terminationStatus) on port \(port): \(self.log)")
            }
            return Self.accepts(port: port)
        }
        if ready { return }
        Glibc.kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        self.process = nil
        throw RadicaleError("\(name) did not accept connections on port \(port) within 30 s: \(self.log)")
    }

    /// The server's log file (its standard output and error).
    package var logPath: String { directory + "/server.log" }
    /// What the server has logged so far.
    package var log: String { (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? "" }

    /// Kills the server at once (SIGKILL), as a crash would, and waits for it.
    package func kill() {
        guard let process else { return }
        Glibc.kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        self.process = nil
    }

    /// Starts the server again on the same port with the same storage.
    package func restart() throws {
        kill()
        try start()
    }

    /// Stops the server (SIGKILL, waited for) and removes its directory.
    ///
    /// SIGKILL, because a child started by Foundation's `Process` on Linux inherits a signal mask
    /// that blocks SIGTERM (measured: Radicale ignored it), and the storage is discarded anyway.
    package func stop() {
        kill()
        try? FileManager.default.removeItem(atPath: directory)
    }

    /// Binds port 0 on 127.0.0.1 and returns the port the kernel chose.
    package static func freePort() throws -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw RadicaleError("socket() failed: errno \(errno)") }
        defer { close(fd) }
        var address = loopback(port: 0)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard bound == 0 else { throw RadicaleError("bind() failed: errno \(errno)") }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let named = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        guard named == 0 else { throw RadicaleError("getsockname() failed: errno \(errno)") }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    /// Whether something accepts TCP connections on 127.0.0.1:`port`.
    package static func accepts(port: Int) -> Bool {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var address = loopback(port: port)
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        } == 0
    }

    private static func loopback(port: Int) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(port).bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        return address
    }
}
