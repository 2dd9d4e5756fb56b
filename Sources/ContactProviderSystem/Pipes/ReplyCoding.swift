import AppGroupStore
import Foundation

/// The provider's reply line (``DoorbellReply``), written and read without Foundation's coders.
///
/// An idle signal's round trip (P4) spent about a tenth of the provider's time in `JSONEncoder`
/// and a tenth of the host's in `JSONDecoder`, for one small object each way. The bytes are the
/// ones Foundation's encoder writes with `.sortedKeys` and `.withoutEscapingSlashes` (docs/pipe-messages.md's
/// pipe messages); reading takes a strict fast path (`StrictJSONReader`) and hands anything else to
/// `JSONDecoder`, so every value and every error is Foundation's. `ReplyCodingTests` checks both
/// directions against Foundation on seeded random replies.
package enum ReplyCoding {
    // MARK: Writing

    /// One reply as JSON, without its newline.
    package static func encode(_ reply: DoorbellReply) throws -> Data {
        // A value Foundation refuses to write (a non-finite duration) gets Foundation's error.
        guard reply.report.map({ $0.durationMs.isFinite && ($0.callMilliseconds ?? []).allSatisfy(\.isFinite) }) ?? true
        else { return try foundationEncoder().encode(reply) }
        var writer = JSONWriter(capacity: 384)
        writer.open()
        if let callsFile = reply.callsFile { writer.field("callsFile", callsFile, always: true) }
        if let error = reply.error { write(error, key: "error", into: &writer) }
        writer.field("id", reply.id, always: true)
        writer.field("ok", reply.ok)
        if let report = reply.report { write(report, into: &writer) }
        if let trace = reply.trace { writer.field("trace", trace, always: true) }
        writer.field("v", reply.v)
        writer.close()
        return writer.data
    }

    /// The encoder whose output ``encode(_:)`` reproduces.
    package static func foundationEncoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }

    private static func write(_ report: SyncReport, into writer: inout JSONWriter) {
        writer.key("report")
        writer.open()
        for field in reportFieldsSorted {
            // Every field of SyncReport.CodingKeys, so a new one does not compile until it is written.
            switch field {
            case .anchor: if let anchor = report.anchor { write(anchor, key: "anchor", into: &writer) }
            case .batches: writer.field("batches", report.batches)
            case .callMilliseconds:
                if let calls = report.callMilliseconds {
                    writer.array("callMilliseconds", calls) { writer, call in
                        writer.raw(number(call))
                    }
                }
            case .deleted: writer.field("deleted", report.deleted)
            case .durationMs:
                writer.key("durationMs")
                writer.raw(number(report.durationMs))
            case .enumeration: writer.field("enumeration", report.enumeration, always: true)
            case .error: if let error = report.error { write(error, key: "error", into: &writer) }
            case .nextPage: if let nextPage = report.nextPage { write(nextPage, key: "nextPage", into: &writer) }
            case .pages: writer.field("pages", report.pages)
            case .restarted: writer.field("restarted", report.restarted)
            case .systemCount: writer.field("systemCount", report.systemCount)
            case .updated: writer.field("updated", report.updated)
            case .warnings: writer.array("warnings", report.warnings) { writer, warning in writer.string(warning) }
            }
        }
        writer.close()
    }

    private static func write(_ position: SyncPosition, key: StaticString, into writer: inout JSONWriter) {
        writer.key(key)
        writer.open()
        writer.field("generationMarker", position.generationMarker.base64EncodedString(), always: true)
        writer.field("offset", position.offset)
        writer.close()
    }

    private static func write(_ error: SyncReport.ReportedError, key: StaticString, into writer: inout JSONWriter) {
        writer.key(key)
        writer.open()
        if let code = error.code { writer.field("code", code, always: true) }
        writer.field("message", error.message, always: true)
        if let rule = error.rule { writer.field("rule", rule, always: true) }
        writer.close()
    }

    /// A finite `Double` as Foundation's encoder writes it: the shortest text that reads back as
    /// the same value, without a trailing `.0` (`1`, `0.153`, `1e-07`, `1e+21`).
    static func number(_ value: Double) -> String {
        let text = value.description
        return text.hasSuffix(".0") ? String(text.dropLast(2)) : text
    }

    /// Writes a report's call times to `path`, one number a line as the reply writes them: a
    /// reply's ``DoorbellReply/callsFile``.
    package static func writeCalls(_ calls: [Double], to path: String) throws {
        let text = calls.map { number($0) }.joined(separator: "\n")
        try SecureFile.replace(path, with: Data(text.utf8), durable: false)  // read at once, then removed
    }

    /// The call times in a ``DoorbellReply/callsFile``'s bytes; nil when a line is not a number.
    package static func readCalls(_ data: Data) -> [Double]? {
        var calls: [Double] = []
        for line in String(decoding: data, as: UTF8.self).split(separator: "\n") {
            guard let value = Double(String(line)), value.isFinite else { return nil }
            calls.append(value)
        }
        return calls
    }

    // MARK: Reading

    /// The reply in `line` (without its newline).
    package static func decode(_ line: Data) throws -> DoorbellReply {
        if let reply = line.withUnsafeBytes({ fastDecode($0) }) { return reply }
        return try JSONDecoder().decode(DoorbellReply.self, from: line)
    }

    /// The fast path alone: the reply, or nil when Foundation must decide.
    static func fastDecode(_ bytes: UnsafeRawBufferPointer) -> DoorbellReply? {
        StrictJSONReader.readWhole(bytes, readReply)
    }

    private static let replyKeys = JSONKeyTable(["v", "id", "ok", "report", "error", "trace", "callsFile"])
    /// The report's fields, declared once in ``SyncReport/CodingKeys``, as the fast reader numbers them.
    static let reportFields = SyncReport.CodingKeys.allCases
    /// The same fields in the order Foundation's `.sortedKeys` writes them.
    static let reportFieldsSorted = reportFields.sorted { $0.stringValue < $1.stringValue }
    /// The report's keys, as the fast reader numbers them (`ReplyCodingTests` checks they are the
    /// keys Foundation writes for a report with every field set).
    package static let reportKeyNames = reportFields.map(\.stringValue)
    private static let reportKeys = JSONKeyTable(reportKeyNames)
    private static let positionKeys = JSONKeyTable(["generationMarker", "offset"])
    private static let errorKeys = JSONKeyTable(["code", "rule", "message"])

    private typealias GiveUp = StrictJSONReader.GiveUp

    private static func readReply(_ reader: inout StrictJSONReader) throws -> DoorbellReply {
        var version: Int?
        var id: String?
        var ok: Bool?
        var reply = DoorbellReply(id: "", ok: false)
        try reader.readObject(keys: replyKeys) { reader, index in
            // Optional values may be null; required ones never are (Foundation refuses those).
            if index >= 3, try reader.consumeNull() { return }
            switch index {
            case 0: version = try reader.readInt()
            case 1: id = try reader.readString()
            case 2: ok = try reader.readBool()
            case 3: reply.report = try readReport(&reader)
            case 4: reply.error = try readError(&reader)
            case 5: reply.trace = try reader.readString()
            default: reply.callsFile = try reader.readString()
            }
        }
        guard let version, let id, let ok else { throw GiveUp() }
        reply.v = version
        reply.id = id
        reply.ok = ok
        return reply
    }

    /// Whether Foundation's synthesized decoding lets the field be null or absent (an optional).
    private static func isOptional(_ field: SyncReport.CodingKeys) -> Bool {
        switch field {
        case .anchor, .nextPage, .error, .callMilliseconds: return true
        case .enumeration, .pages, .batches, .updated, .deleted, .systemCount, .durationMs, .restarted, .warnings:
            return false
        }
    }

    /// How many fields a report must have, as Foundation's synthesized decoding requires them.
    private static let requiredFieldCount = reportFields.filter { !isOptional($0) }.count

    private static func readReport(_ reader: inout StrictJSONReader) throws -> SyncReport {
        var seen = 0
        var report = SyncReport(enumeration: "")
        try reader.readObject(keys: reportKeys) { reader, index in
            let field = reportFields[index]
            let optional = isOptional(field)
            if optional, try reader.consumeNull() { return }
            // Every field of SyncReport.CodingKeys, so a new one does not compile until it is read.
            switch field {
            case .enumeration: report.enumeration = try reader.readString()
            case .pages: report.pages = try reader.readInt()
            case .batches: report.batches = try reader.readInt()
            case .updated: report.updated = try reader.readInt()
            case .deleted: report.deleted = try reader.readInt()
            case .systemCount: report.systemCount = try reader.readInt()
            case .anchor: report.anchor = try readPosition(&reader)
            case .nextPage: report.nextPage = try readPosition(&reader)
            case .durationMs: report.durationMs = try reader.readDouble()
            case .restarted: report.restarted = try reader.readBool()
            case .error: report.error = try readError(&reader)
            case .warnings:
                var warnings: [String] = []
                try reader.readArray { warnings.append(try $0.readString()) }
                report.warnings = warnings
            case .callMilliseconds:
                var calls: [Double] = []
                try reader.readArray { calls.append(try $0.readDouble()) }
                report.callMilliseconds = calls
            }
            if !optional { seen += 1 }
        }
        // Every non-optional field is required, as Foundation's synthesized decoding requires it.
        guard seen == requiredFieldCount else { throw GiveUp() }
        return report
    }

    private static func readPosition(_ reader: inout StrictJSONReader) throws -> SyncPosition {
        var marker: Data?
        var offset: Int?
        try reader.readObject(keys: positionKeys) { reader, index in
            if index == 0 {
                // Foundation reads base64 strictly too; anything it would not decode is left to it.
                guard let decoded = Data(base64Encoded: try reader.readString()) else { throw GiveUp() }
                marker = decoded
            } else {
                offset = try reader.readInt()
            }
        }
        guard let marker, let offset else { throw GiveUp() }
        return SyncPosition(generationMarker: marker, offset: offset)
    }

    private static func readError(_ reader: inout StrictJSONReader) throws -> SyncReport.ReportedError {
        var code: String?
        var rule: String?
        var message: String?
        try reader.readObject(keys: errorKeys) { reader, index in
            if index < 2, try reader.consumeNull() { return }
            switch index {
            case 0: code = try reader.readString()
            case 1: rule = try reader.readString()
            default: message = try reader.readString()
            }
        }
        guard let message else { throw GiveUp() }
        return SyncReport.ReportedError(code: code, rule: rule, message: message)
    }
}
