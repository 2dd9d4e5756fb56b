import AppGroupStore
import ContactsInterop
import Foundation

/// `export`'s output written a chunk of contacts at a time (issue 44, item 2): the bytes are those
/// of the whole document (`ContactJSON.document` of an `ExportDocument`, or the vCards of every
/// contact), but memory holds one chunk, not the address book and its text.
///
/// The JSON document's frame (what comes before the first contact and after the last) is taken from
/// the encoder itself, by encoding a document of one contact and finding that contact's own text in
/// it, indented as the document indents it; so the stream cannot drift from Foundation's formatting.
/// When the frame cannot be found that way, the stream gathers the contacts and encodes them whole.
struct ContactExportStream {
    enum Format {
        case json
        case vCard(VCardVersion)
    }

    private let format: Format
    private let output: CommandOutput
    /// How many contacts one write carries.
    private let chunkSize: Int
    private let frame: (prefix: String, indent: String, suffix: String)?
    /// The contacts (JSON: their encoded text) not yet written; a JSON element is written only once
    /// the next one is known, as the last one takes no comma.
    private var pendingJSON: [String] = []
    private var pendingRecords: [ContactRecord] = []
    private var started = false
    /// How many contacts were given so far.
    private(set) var count = 0
    /// How many contacts have been handed to `output`.
    private var written = 0
    /// Told, before each write, how many contacts will have been written once it returns (a write
    /// blocks while a slow reader lags: the progress line says so).
    private let willWrite: (Int) -> Void

    init(format: Format, output: CommandOutput, chunkSize: Int = 1000, willWrite: @escaping (Int) -> Void = { _ in })
        throws
    {
        self.format = format
        self.output = output
        self.willWrite = willWrite
        self.chunkSize = max(chunkSize, 1)
        frame = if case .json = format { try Self.jsonFrame() } else { nil }
    }

    /// The text before the first contact, the indentation of each contact's lines, and the text after
    /// the last, of the JSON export document.
    static func jsonFrame() throws -> (prefix: String, indent: String, suffix: String)? {
        var probe = ContactRecord(identifier: "frame-probe")
        probe.givenName = "Frame"
        let document = try ContactJSON.document(ContactJSON.ExportDocument(contacts: [probe]))
        let element = try ContactJSON.document(probe)
        for indent in ["    ", "  ", "\t\t", "\t"] {
            let indented = element.split(separator: "\n", omittingEmptySubsequences: false)
                .map { indent + $0 }.joined(separator: "\n")
            if let range = document.range(of: indented) {
                let prefix = String(document[..<range.lowerBound])
                let suffix = String(document[range.upperBound...])
                guard prefix.hasSuffix("\n"), suffix.hasPrefix("\n") else { return nil }
                return (prefix, indent, suffix)
            }
        }
        return nil
    }

    /// Adds `record` after the ones given before.
    mutating func add(_ record: ContactRecord) throws {
        count += 1
        switch format {
        case .json:
            guard let frame else {
                pendingRecords.append(record)
                return
            }
            let element = try ContactJSON.document(record)
            pendingJSON.append(
                element.split(separator: "\n", omittingEmptySubsequences: false)
                    .map { frame.indent + $0 }.joined(separator: "\n"))
            if pendingJSON.count > chunkSize { writeJSONChunk() }
        case .vCard(let version):
            pendingRecords.append(record)
            if pendingRecords.count >= chunkSize { writeVCards(version) }
        }
    }

    /// Writes what is left, and the document's end.
    mutating func finish() throws {
        switch format {
        case .json:
            guard let frame else {
                output.out(try ContactJSON.document(ContactJSON.ExportDocument(contacts: pendingRecords)))
                return
            }
            guard !pendingJSON.isEmpty else {
                // No contact: the empty document, as the encoder writes it.
                output.out(try ContactJSON.document(ContactJSON.ExportDocument(contacts: [])))
                return
            }
            writeJSONChunk()
            if !started {
                output.out(String(frame.prefix.dropLast()))
                started = true
            }
            // The last contact takes no comma; `out`'s newline ends the document, as it ended the whole one.
            willWrite(count)
            output.out(pendingJSON.removeLast() + frame.suffix)
        case .vCard(let version):
            writeVCards(version)
            if !started { output.out("") }
        }
    }

    /// Writes every pending JSON element but the last, each followed by its comma.
    private mutating func writeJSONChunk() {
        guard let frame, pendingJSON.count > 1 else { return }
        if !started {
            // `out` ends each write with the newline the text before it ended with.
            output.out(String(frame.prefix.dropLast()))
            started = true
        }
        let last = pendingJSON.removeLast()
        written += pendingJSON.count
        willWrite(written)
        output.out(pendingJSON.joined(separator: ",\n") + ",")
        pendingJSON = [last]
    }

    /// Writes the pending contacts as vCards: the cards end with CRLF, whose LF `out` writes.
    private mutating func writeVCards(_ version: VCardVersion) {
        guard !pendingRecords.isEmpty else { return }
        var cards = VCard.encode(pendingRecords, version: version)
        if cards.hasSuffix("\r\n") { cards.unicodeScalars.removeLast() }
        written += pendingRecords.count
        willWrite(written)
        output.out(cards)
        started = true
        pendingRecords.removeAll(keepingCapacity: true)
    }
}
