import Foundation
import Glibc

@_exported import class ContactsHostKit.LoopbackServerProcess

/// A real CardDAV server the tests start: Radicale or Xandikos, both from the Python index
/// (`Scripts/install-test-tools.sh`), each on 127.0.0.1 with a free port and its own storage.
package protocol CardDAVTestServer: AnyObject, Sendable {
    /// `http://127.0.0.1:PORT/`.
    var baseURL: URL { get }
    /// Where a test's address book goes, relative to ``baseURL`` (its parent exists or is created by MKCOL).
    var addressBookPath: String { get }
    /// Kills the server at once (SIGKILL), as a crash would, and waits for it.
    func kill()
    /// Starts the server again on the same port with the same storage.
    func restart() throws
    /// Stops the server and removes its storage.
    func stop()
}

/// Which server a test talks to.
package enum CardDAVServerKind: String, CaseIterable, Sendable, CustomStringConvertible {
    /// Radicale 3 (a file-system store).
    case radicale
    /// Xandikos (a Git-backed store; sync tokens are commit ids).
    case xandikos

    package var description: String { rawValue }

    /// Starts a server of this kind with the venv's `python`.
    package func start(python: String, credentials: (user: String, password: String)? = nil) throws
        -> any CardDAVTestServer
    {
        switch self {
        case .radicale: return try RadicaleServer(python: python, credentials: credentials)
        case .xandikos:
            if credentials != nil { throw RadicaleError("the tests run Xandikos without authentication") }
            return try XandikosServer(python: python)
        }
    }
}

extension RadicaleServer: CardDAVTestServer {
    /// `tester/contacts/` (Radicale creates a user's home collection on MKCOL).
    package var addressBookPath: String { "tester/contacts/" }
}

/// Xandikos (`python -m xandikos serve --defaults`), the second real CardDAV server of the tests.
package final class XandikosServer: CardDAVTestServer, @unchecked Sendable {
    private let server: LoopbackServerProcess

    /// Starts Xandikos with the default principal `/user/` and its `contacts/` home.
    package init(python: String) throws {
        server = try LoopbackServerProcess(name: "Xandikos", executable: python) { port, directory in
            [
                "-m", "xandikos", "serve", "--directory", directory + "/collections", "--defaults",
                "--listen-address", "127.0.0.1", "--port", "\(port)", "--no-detect-systemd",
                "--state-dir", directory + "/state",
            ]
        }
    }

    package var baseURL: URL { server.baseURL }
    /// `user/contacts/tester/`, beside the `addressbook` that `--defaults` creates.
    package var addressBookPath: String { "user/contacts/tester/" }
    /// What Xandikos has logged so far.
    package var log: String { server.log }
    package func kill() { server.kill() }
    package func restart() throws { try server.restart() }
    package func stop() { server.stop() }
}

/// `Scripts/refusing_carddav_proxy.py` in front of a real server: forwards everything, and refuses
/// what a test asks (a sync token, once; or sync-collection altogether) as other servers do.
package final class CardDAVRefusingProxy: @unchecked Sendable {
    /// How a proxied server behaves.
    package enum Mode: Sendable, Equatable {
        /// Forwards everything; refuses a token once for each ``refuseNextToken(_:)``.
        case refusesTokensOnRequest
        /// Has no sync-collection REPORT: answers every one with this status (403 or 501).
        case withoutSyncCollection(status: Int)
    }

    private let process = Process()
    private let control: String
    /// The proxy's port on 127.0.0.1.
    package let port: Int

    /// `http://127.0.0.1:PORT/`.
    package var baseURL: URL { URL(string: "http://127.0.0.1:\(port)/")! }

    /// Starts the proxy in front of `upstream` and waits for the port it prints.
    package init(python: String, upstream: URL, mode: Mode = .refusesTokensOnRequest) throws {
        let directory = NSTemporaryDirectory() + "/cps-proxy-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        control = directory + "/refuse-next"
        process.executableURL = URL(fileURLWithPath: python)
        var arguments = [
            PythonTestTools.repositoryRoot + "/Scripts/refusing_carddav_proxy.py", upstream.absoluteString, control,
        ]
        if case .withoutSyncCollection(let status) = mode { arguments += ["--without-sync-collection", "\(status)"] }
        process.arguments = arguments
        // The port comes on an anonymous pipe (never a FIFO: opening one in the child before exec
        // blocks posix_spawn while the parent waits).
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        try ProcessRunner.runUnblocked(process)
        var line = Data()
        let reader = output.fileHandleForReading
        while !line.contains(0x0A) {
            let chunk = reader.availableData
            if chunk.isEmpty { break }
            line.append(chunk)
        }
        let text = String(decoding: line, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        guard let port = Int(text) else {
            Glibc.kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            throw RadicaleError("the CardDAV proxy did not print its port (it printed '\(text)')")
        }
        self.port = port
    }

    /// Makes the proxy refuse the next token-bearing sync-collection REPORT with `kind`: `410`,
    /// `403` (bare), `403-token` (with `DAV:valid-sync-token`), `412`, or `410-then-500` (and the fresh
    /// listing after it fails with 500).
    package func refuseNextToken(_ kind: String) throws {
        try kind.write(toFile: control, atomically: true, encoding: .utf8)
    }

    /// Whether a refusal asked for has not happened yet.
    package var refusalPending: Bool { FileManager.default.fileExists(atPath: control) }

    /// Kills the proxy and waits for it.
    package func stop() {
        if process.isRunning { Glibc.kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
        try? FileManager.default.removeItem(atPath: (control as NSString).deletingLastPathComponent)
    }
}

/// vdirsyncer, a real CardDAV client: syncs a local directory of `.vcf` files (a vdir) with an address
/// book, so a test edits the server as a user's other client would.
package struct VdirsyncerClient: Sendable {
    /// The local vdir (one `<name>.vcf` per card).
    package let vdir: String
    private let directory: String
    private let executable: String

    /// A vdir and configuration in a new temporary directory, paired with `collection`.
    package init(python: String, collection: URL) throws {
        directory = NSTemporaryDirectory() + "/cps-vdirsyncer-\(UUID().uuidString)"
        vdir = directory + "/vdir"
        executable = (python as NSString).deletingLastPathComponent + "/vdirsyncer"
        try FileManager.default.createDirectory(atPath: vdir, withIntermediateDirectories: true)
        let configuration = """
            [general]
            status_path = "\(directory)/status/"

            [pair book]
            a = "local"
            b = "server"
            collections = null
            conflict_resolution = "a wins"

            [storage local]
            type = "filesystem"
            path = "\(vdir)/"
            fileext = ".vcf"

            [storage server]
            type = "carddav"
            url = "\(collection.absoluteString)"

            """
        try configuration.write(toFile: directory + "/config", atomically: true, encoding: .utf8)
    }

    /// Writes `vCard` as the local card `name` (e.g. `ada`); ``sync()`` uploads it.
    package func write(_ name: String, vCard: String) throws {
        try vCard.write(toFile: "\(vdir)/\(name).vcf", atomically: true, encoding: .utf8)
    }

    /// Removes the local card `name`; ``sync()`` deletes it on the server.
    package func remove(_ name: String) throws {
        try FileManager.default.removeItem(atPath: "\(vdir)/\(name).vcf")
    }

    /// `vdirsyncer discover` then `vdirsyncer sync`; throws with its output when either fails.
    package func sync() throws {
        for command in ["discover", "sync"] {
            let result = try ProcessRunner.run(executable, ["-c", directory + "/config", command])
            guard result.exitCode == 0 else {
                throw RadicaleError("vdirsyncer \(command) exited \(result.exitCode): \(result.stdout)\(result.stderr)")
            }
        }
    }

    /// Removes the vdir and vdirsyncer's state.
    package func remove() {
        try? FileManager.default.removeItem(atPath: directory)
    }
}
