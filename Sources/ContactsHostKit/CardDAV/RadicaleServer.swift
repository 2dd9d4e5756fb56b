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
package final class RadicaleServer: @unchecked Sendable {
    private let server: LoopbackServerProcess
    /// The user and password of basic authentication, when started with one.
    package let credentials: (user: String, password: String)?

    /// The port it listens on (kept across ``restart()``).
    package var port: Int { server.port }
    /// The temporary directory holding its storage, configuration and log.
    package var directory: String { server.directory }
    /// `http://127.0.0.1:PORT/`.
    package var baseURL: URL { server.baseURL }

    /// Starts Radicale; with `credentials`, it requires HTTP basic authentication (htpasswd, plain).
    package init(python: String, credentials: (user: String, password: String)? = nil) throws {
        self.credentials = credentials
        server = try LoopbackServerProcess(
            name: "Radicale", executable: python,
            prepare: { directory in
                if let credentials {
                    try "\(credentials.user):\(credentials.password)\n".write(
                        toFile: directory + "/htpasswd", atomically: true, encoding: .utf8)
                }
            },
            arguments: { port, directory in
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
            })
    }

    /// Radicale's log file.
    package var logPath: String { server.logPath }
    /// What Radicale has logged so far.
    package var log: String { server.log }

    /// Kills Radicale at once (SIGKILL), as a crash would, and waits for it.
    package func kill() { server.kill() }

    /// Starts Radicale again on the same port with the same storage.
    package func restart() throws { try server.restart() }

    /// Stops Radicale (SIGKILL, waited for) and removes its storage.
    package func stop() { server.stop() }
}

/// A test server (Radicale, Xandikos) could not be started.
package struct RadicaleError: Error, CustomStringConvertible {
    /// What went wrong, with the server's log where it helps.
    package let description: String
    /// An error saying `description`.
    package init(_ description: String) { self.description = description }
}
