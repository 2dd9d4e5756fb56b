import AppGroupStore
import ContactProviderSystem
import Foundation
import Glibc

/// A backend that is a separate program, in any language, speaking the kit's adapter protocol:
/// one JSON object per line on its stdin (requests) and stdout (replies). See docs/conformance-kit.md,
/// "Adapter protocol", for the full text; in short, every request carries `"protocol": 1` and an
/// `op` (`hello`, `reset`, `add`, `update`, `delete`, `list`, and `break-store` / `repair-store` when
/// the `hello` reply lists the `break-store` capability, for rule T1); every reply is `{"ok": true, …}`
/// or `{"ok": false, "error": {"message": "…"}}`. Contacts are the JSON of `contacts-host list --json`.
///
/// The program is started with `/bin/sh -c 'COMMAND "$@"' sh --app-group PATH`, with
/// `CONTACT_PROVIDER_APP_GROUP=PATH` in its environment, so it writes into the run's App Group.
public final class ExecBackend: ConformanceBackend {
    /// The version of the line protocol this kit speaks.
    public static let protocolVersion = 1

    /// The command line, as given.
    public let command: String
    private let process = Process()
    private let input: FileHandle
    private var reader: LineReader
    private let timeoutSeconds: Double
    /// What the adapter's `hello` reply says it can do beyond the basic operations (`break-store`).
    public private(set) var capabilities: Set<String> = []
    /// What the adapter's `hello` reply says its store keeps (`"fields"`, `"labels"`): contacts are
    /// compared through it (``comparable(_:)``).
    public private(set) var declaration = StoreDeclaration.everything

    /// Starts `command` for `appGroup` and greets it (`hello`); throws if it does not answer.
    public init(command: String, appGroup: AppGroup, timeoutSeconds: Double = 30) throws {
        self.command = command
        self.timeoutSeconds = timeoutSeconds
        let stdin = Pipe()
        let stdout = Pipe()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", command + " \"$@\"", "sh", "--app-group", appGroup.path]
        var environment = ProcessInfo.processInfo.environment
        environment[AppGroup.environmentVariable] = appGroup.path
        process.environment = environment
        process.standardInput = stdin
        process.standardOutput = stdout
        do {
            try process.run()
        } catch {
            throw ConformanceBackendError("exec:\(command): could not start /bin/sh (\(error))")
        }
        input = stdin.fileHandleForWriting
        reader = LineReader(fd: stdout.fileHandleForReading.fileDescriptor)
        let hello: [String: Any]
        do {
            hello = try request(["op": "hello", "appGroup": appGroup.path])
        } catch {
            throw startFailure() ?? error
        }
        capabilities = Set(hello["capabilities"] as? [String] ?? [])
        // It answered: a declaration it got wrong is its own error (no start failure to look for).
        declaration = try StoreDeclaration(hello: hello, adapter: "exec:\(command)")
    }

    /// Why the adapter did not answer its first request, when the shell could not run it (exit
    /// status 127: not found, 126: not executable) — clearer than the broken pipe that follows.
    private func startFailure() -> ConformanceBackendError? {
        // The shell exits at once when it cannot run the command; poll briefly (Process has no timed wait).
        Poll.until(seconds: 2, every: 0.005) { !process.isRunning }
        guard !process.isRunning, process.terminationReason == .exit else { return nil }
        let program = command.split(separator: " ").first.map(String.init) ?? command
        switch process.terminationStatus {
        case 127:
            return ConformanceBackendError(
                "exec:\(command): adapter command not found: '\(program)' (give its path, or a command on PATH)")
        case 126:
            return ConformanceBackendError(
                "exec:\(command): the adapter '\(program)' is not executable (chmod +x it, or name its interpreter: exec:python3 \(program))"
            )
        default:
            return nil
        }
    }

    deinit {
        try? input.close()
        // The adapter's grace period to exit after its input closes.
        Poll.until(seconds: 5, every: 0.01) { !process.isRunning }
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
    }

    public func reset() throws { _ = try request(["op": "reset"]) }
    public func add(_ contact: ConformanceContact) throws {
        _ = try request(["op": "add", "contact": try Self.object(contact)])
    }
    public func update(_ contact: ConformanceContact) throws {
        _ = try request(["op": "update", "contact": try Self.object(contact)])
    }
    public func delete(identifier: String) throws { _ = try request(["op": "delete", "identifier": identifier]) }

    /// The part of `contact` the adapter's store keeps, as its `hello` declared it.
    public func comparable(_ contact: ConformanceContact) -> ConformanceContact {
        declaration.comparable(contact)
    }

    public func contacts() throws -> [ConformanceContact] {
        let reply = try request(["op": "list"])
        guard let contacts = reply["contacts"] else {
            throw ConformanceBackendError("exec:\(command): the reply to list has no \"contacts\" array")
        }
        do {
            let data = try JSONSerialization.data(withJSONObject: contacts)
            return try JSONDecoder().decode([ConformanceContact].self, from: data)
        } catch {
            throw ConformanceBackendError(
                "exec:\(command): the contacts of the list reply are not contact JSON (\(error))")
        }
    }

    /// Sends one request and returns its successful reply; adapter errors become thrown errors.
    package func request(_ body: [String: Any]) throws -> [String: Any] {
        var body = body
        body["protocol"] = Self.protocolVersion
        let op = body["op"] as? String ?? "?"
        let line =
            try JSONSerialization.data(withJSONObject: body, options: [.sortedKeys, .withoutEscapingSlashes])
            + Data("\n".utf8)
        var writeError: (any Error)?
        do {
            try input.write(contentsOf: line)
        } catch {
            writeError = error
        }
        let what = "exec:\(command) reply to \(op)"
        let replyLine: Data
        if let writeError {
            // The adapter stopped reading; what it wrote before (a protocol mismatch, say) says more.
            guard let line = (try? reader.readLine(timeoutSeconds: 1, what: what)) ?? nil else {
                throw ConformanceBackendError(
                    "exec:\(command): the adapter is gone (writing the \(op) request failed: \(writeError))")
            }
            replyLine = line
        } else {
            guard let line = try reader.readLine(timeoutSeconds: timeoutSeconds, what: what) else {
                throw ConformanceBackendError(
                    "exec:\(command): the adapter closed its stdout instead of answering \(op)")
            }
            replyLine = line
        }
        guard let reply = (try? JSONSerialization.jsonObject(with: replyLine)) as? [String: Any] else {
            throw ConformanceBackendError(
                "exec:\(command): the reply to \(op) is not one JSON object: \(String(decoding: replyLine.prefix(200), as: UTF8.self))"
            )
        }
        if let version = reply["protocol"] as? Int, version != Self.protocolVersion {
            throw ConformanceBackendError(
                "exec:\(command): the adapter speaks protocol \(version); this kit speaks \(Self.protocolVersion)")
        }
        guard reply["ok"] as? Bool == true else {
            let message = (reply["error"] as? [String: Any])?["message"] as? String ?? "no message"
            throw ConformanceBackendError("exec:\(command): \(op) failed: \(message)")
        }
        return reply
    }

    private static func object(_ contact: ConformanceContact) throws -> Any {
        try JSONSerialization.jsonObject(with: JSONEncoder().encode(contact))
    }
}

/// Reads newline-terminated lines from a file descriptor, with a timeout per line.
struct LineReader {
    let fd: Int32
    private var buffer = Data()

    init(fd: Int32) { self.fd = fd }

    /// The next line without its newline; nil at end of file.
    mutating func readLine(timeoutSeconds: Double, what: String) throws -> Data? {
        let deadline = ContinuousSystemClock().now() + timeoutSeconds
        while true {
            if let newline = buffer.firstIndex(of: 0x0A) {
                let line = buffer[buffer.startIndex..<newline]
                buffer = Data(buffer[(newline + 1)...])
                return Data(line)
            }
            let remaining = deadline - ContinuousSystemClock().now()
            guard remaining > 0 else {
                throw ConformanceBackendError("\(what): no answer within \(Int(timeoutSeconds)) s")
            }
            var pollFD = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let ready = poll(&pollFD, 1, Int32(min(remaining, 1) * 1000))
            if ready < 0 {
                if errno == EINTR { continue }
                throw ConformanceBackendError("\(what): poll failed (errno \(errno))")
            }
            if ready == 0 { continue }
            var chunk = [UInt8](repeating: 0, count: 65536)
            let count = read(fd, &chunk, chunk.count)
            if count < 0 {
                if errno == EINTR { continue }
                throw ConformanceBackendError("\(what): read failed (errno \(errno))")
            }
            if count == 0 {
                return buffer.isEmpty
                    ? nil
                    : {
                        let rest = buffer
                        buffer = Data()
                        return rest
                    }()
            }
            buffer.append(contentsOf: chunk[0..<count])
        }
    }
}
