import AppGroupStore
import Foundation

/// A message on `run/<domain>/requests.fifo`: a doorbell, never a payload.
///
/// One JSON object per line, well under `PIPE_BUF`:
///
/// ```json
/// {"v":1,"kind":"signal","id":"6B1C…","reply":true,"trace":false}
/// {"v":1,"kind":"invalidate","id":"…","reply":true}
/// {"v":1,"kind":"shutdown"}
/// ```
///
/// The provider always re-reads state from files, so a lost or coalesced doorbell is harmless.
package struct Doorbell: Codable, Equatable, Sendable {
    /// The message format version.
    package static let version = 1

    /// What the host asks for.
    package enum Kind: String, Codable, Sendable {
        /// `signalEnumerator()`: sync now.
        case signal
        /// `invalidate()`: call the enumerator's and extension's `invalidate()` and exit.
        case invalidate
        /// Exit after the current work (SIGTERM, tests).
        case shutdown
        /// Step mode: run at most one page or batch.
        case step
        /// Testing operation: one enumerator call, nothing committed; the result goes to
        /// `run/<domain>/traces/<id>.json`.
        case probe
    }

    package var v: Int
    package var kind: Kind
    /// The request id; with `reply`, the answer goes to `run/<domain>/replies/<id>.fifo`.
    package var id: String?
    /// Whether a host waits for the answer.
    package var reply: Bool?
    /// Whether to write the transcript to `run/<domain>/traces/<id>.log`.
    package var trace: Bool?
    /// For `probe`: which call to make.
    package var probe: ProbeRequest?

    package init(kind: Kind, id: String? = nil, reply: Bool = false, trace: Bool = false, probe: ProbeRequest? = nil) {
        v = Self.version
        self.kind = kind
        self.id = id
        self.reply = reply ? true : nil
        self.trace = trace ? true : nil
        self.probe = probe
    }

    /// Encodes the message as one line.
    ///
    /// Written by hand when nothing needs escaping (every message but a probe, whose id is a UUID):
    /// `JSONEncoder`'s first use was a few hundredths of a millisecond of every signal (issue 27).
    /// ``parse(_:)`` reads both the same way.
    package func line() throws -> Data {
        guard probe == nil, id.map({ (try? DomainPaths.validateRequestID($0)) != nil }) ?? true else {
            var data = try JSONEncoder().encode(self)
            data.append(UInt8(ascii: "\n"))
            return data
        }
        var text = "{\"v\":" + String(v) + ",\"kind\":\"" + kind.rawValue + "\""
        if let id { text += ",\"id\":\"" + id + "\"" }
        if let reply { text += ",\"reply\":" + (reply ? "true" : "false") }
        if let trace { text += ",\"trace\":" + (trace ? "true" : "false") }
        text += "}\n"
        return Data(text.utf8)
    }

    /// Why a line is not a doorbell.
    package struct Malformed: Error, CustomStringConvertible {
        package let reason: String
        package var description: String { reason }
    }

    /// Decodes and validates one line.
    package static func parse(_ line: Data) throws -> Doorbell {
        let message: Doorbell
        do {
            message = try JSONDecoder().decode(Doorbell.self, from: line)
        } catch {
            let preview = String(decoding: line.prefix(80), as: UTF8.self)
            throw Malformed(reason: "not a doorbell message (\(error)): \(preview.debugDescription)")
        }
        guard message.v == version else { throw Malformed(reason: "unsupported message version \(message.v)") }
        if let id = message.id {
            do { try DomainPaths.validateRequestID(id) } catch { throw Malformed(reason: "\(error)") }
        }
        if message.reply == true, message.id == nil { throw Malformed(reason: "a reply was requested without an id") }
        if message.kind == .probe, message.probe == nil || message.id == nil || message.reply != true {
            throw Malformed(reason: "a probe needs an id, a reply and a probe request")
        }
        return message
    }
}

extension Doorbell {
    /// The doorbell at the end of a line that does not parse as a whole, and the garbage before it.
    ///
    /// Every host writes a doorbell as one atomic `write(2)` of one JSON object and its newline, so
    /// a line that does not parse is a real doorbell glued to the bytes of a writer that stopped
    /// half-way (no newline): those bytes end where some doorbell object begins. Each `{"` is tried
    /// from left to right and the first suffix that parses wins, so one bad writer cannot cost the
    /// next host its request. Nil when no suffix is a doorbell (the whole line is garbage).
    package static func resynchronize(_ line: Data) -> (message: Doorbell, dropped: Data)? {
        let bytes = [UInt8](line)
        guard bytes.count > 2 else { return nil }
        for start in 1..<(bytes.count - 1)
        where bytes[start] == UInt8(ascii: "{") && bytes[start + 1] == UInt8(ascii: "\"") {
            if let message = try? parse(Data(bytes[start...])) {
                return (message, Data(bytes[..<start]))
            }
        }
        return nil
    }
}

/// The answer on a reply FIFO: one line.
///
/// ```json
/// {"v":1,"id":"6B1C…","ok":true,"report":{…SyncReport…},"trace":"run/<domain>/traces/<id>.log"}
/// ```
package struct DoorbellReply: Codable, Equatable, Sendable {
    package var v: Int = Doorbell.version
    package var id: String
    package var ok: Bool
    /// The sync report (for `signal` and `step`).
    package var report: SyncReport?
    /// A failure that is not a sync report (e.g. `extensionInvalidateTimeout`).
    package var error: SyncReport.ReportedError?
    /// Path of the transcript file, when tracing (or of the probe result for `probe`).
    package var trace: String?
    /// Path of a file holding the report's `callMilliseconds`, one number a line, when they do not
    /// fit in the one atomic pipe write a reply is (a traced sync of more than about 400 pages).
    /// ``SystemClient`` reads it back into the report and removes it: its callers never see it.
    package var callsFile: String?

    package init(
        id: String, ok: Bool, report: SyncReport? = nil, error: SyncReport.ReportedError? = nil, trace: String? = nil
    ) {
        self.id = id
        self.ok = ok
        self.report = report
        self.error = error
        self.trace = trace
    }
}
