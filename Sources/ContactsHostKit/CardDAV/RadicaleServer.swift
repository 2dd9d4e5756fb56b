import Foundation
import Glibc

/// A real CardDAV server for a test or the demo: Radicale (installed by `Scripts/install-test-tools.sh`)
/// on 127.0.0.1 with a free port and its own temporary storage, stopped and waited for by ``stop()``.
///
/// ```swift
/// let server = try RadicaleServer(python: try PythonTestTools.python())
/// defer { server.stop() }
/// let book = try await server.createAddressBook("alice/contacts")
/// ```
public final class RadicaleServer: @unchecked Sendable {
    /// The port it listens on (kept across ``restart()``).
    public private(set) var port: Int
    /// The temporary directory holding its storage, configuration and log.
    public let directory: String
    /// The user and password of basic authentication, when started with one.
    public let credentials: (user: String, password: String)?
    private let python: String
    private var process: Process?

    /// `http://127.0.0.1:PORT/`.
    public var baseURL: URL { URL(string: "http://127.0.0.1:\(port)/")! }

    /// Starts Radicale; with `credentials`, it requires HTTP basic authentication (htpasswd, plain).
    public init(python: String, credentials: (user: String, password: String)? = nil) throws {
        self.python = python
        self.credentials = credentials
        var template = Array((NSTemporaryDirectory() + "/cps-radicale-XXXXXX").utf8CString)
        guard template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) != nil else {
            throw RadicaleError("cannot create a temporary directory: errno \(errno)")
        }
        directory = String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
        port = 0
        if let credentials {
            try "\(credentials.user):\(credentials.password)\n".write(
                toFile: directory + "/htpasswd", atomically: true, encoding: .utf8)
        }
        // A port picked by binding port 0 can be taken by someone else before Radicale binds it: retry.
        var lastError: Error?
        for _ in 0..<5 {
            do {
                port = try Self.freePort()
                try start()
                return
            } catch {
                lastError = error
            }
        }
        try? FileManager.default.removeItem(atPath: directory)
        throw lastError ?? RadicaleError("Radicale did not start")
    }

    /// The arguments that start Radicale on `port` with this server's storage.
    private var arguments: [String] {
        var arguments = [
            "-m", "radicale", "--config", "", "--server-hosts", "127.0.0.1:\(port)",
            "--storage-filesystem-folder", directory + "/collections", "--logging-level", "warning",
        ]
        if credentials != nil {
            arguments += [
                "--auth-type", "htpasswd", "--auth-htpasswd-filename", directory + "/htpasswd",
                "--auth-htpasswd-encryption", "plain",
            ]
        } else {
            arguments += ["--auth-type", "none"]
        }
        return arguments
    }

    private func start() throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: python)
        process.arguments = arguments
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
        // Ready when the port accepts a connection; bounded, and failing early if Radicale exits.
        let clock = ContinuousClock()
        let deadline = clock.now + .seconds(30)
        while clock.now < deadline {
            if !process.isRunning {
                self.process = nil
                throw RadicaleError(
                    "Radicale exited with status \(process.terminationStatus) on port \(port): \(self.log)")
            }
            if Self.accepts(port: port) { return }
            usleep(20_000)
        }
        Glibc.kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        self.process = nil
        throw RadicaleError("Radicale did not accept connections on port \(port) within 30 s: \(self.log)")
    }

    /// Radicale's log file.
    public var logPath: String { directory + "/radicale.log" }
    /// What Radicale has logged so far.
    public var log: String { (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? "" }

    /// Kills Radicale at once (SIGKILL), as a crash would, and waits for it.
    public func kill() {
        guard let process else { return }
        Glibc.kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        self.process = nil
    }

    /// Starts Radicale again on the same port with the same storage.
    public func restart() throws {
        kill()
        try start()
    }

    /// Stops Radicale (SIGKILL, waited for) and removes its storage.
    ///
    /// SIGKILL, because a child started by Foundation's `Process` on Linux inherits a signal mask
    /// that blocks SIGTERM (measured: Radicale ignored it), and the storage is discarded anyway.
    public func stop() {
        kill()
        try? FileManager.default.removeItem(atPath: directory)
    }

    /// Binds port 0 on 127.0.0.1 and returns the port the kernel chose.
    private static func freePort() throws -> Int {
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
    public static func accepts(port: Int) -> Bool {
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

/// Radicale could not be started.
public struct RadicaleError: Error, CustomStringConvertible {
    /// What went wrong, with Radicale's log where it helps.
    public let description: String
    /// An error saying `description`.
    public init(_ description: String) { self.description = description }
}
