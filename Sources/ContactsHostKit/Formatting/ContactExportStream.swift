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
    private let frame: (prefix: String, indent: String, suffix: String)?
    /// The contacts, when the JSON frame was not found: encoded whole at the end.
    private var gathered: [ContactRecord] = []
    /// Writes the contacts' text a chunk at a time (the host's one `ChunkedWriter`): JSON elements
    /// between the frame's prefix and suffix, or vCards one after another.
    private var writer: ChunkedWriter
    /// How many contacts were given so far.
    private(set) var count = 0

    /// `willWrite` is told, before each write, how many contacts will have been written once it
    /// returns (a write blocks while a slow reader lags: the progress line says so).
    init(
        format: Format, output: CommandOutput, chunkSize: Int = ChunkedWriter.chunkSize,
        willWrite: @escaping (Int) -> Void = { _ in }
    ) throws {
        self.format = format
        self.output = output
        let frame: (prefix: String, indent: String, suffix: String)? =
            if case .json = format { try Self.jsonFrame() } else { nil }
        self.frame = frame
        writer =
            if let frame {
                ChunkedWriter(
                    output: output, open: frame.prefix, separator: ",\n", close: frame.suffix, chunkSize: chunkSize,
                    willWrite: willWrite)
            } else {
                // vCards: each ends with its CRLF, so nothing goes between or around them.
                ChunkedWriter(
                    output: output, open: "", separator: "", close: "", chunkSize: chunkSize, willWrite: willWrite)
            }
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
                gathered.append(record)
                return
            }
            let element = try ContactJSON.document(record)
            writer.add(
                element.split(separator: "\n", omittingEmptySubsequences: false)
                    .map { frame.indent + $0 }.joined(separator: "\n"))
        case .vCard(let version):
            // A card is written alone as it is among others: `VCard.encode` keeps no state between cards.
            writer.add(VCard.encode([record], version: version))
        }
    }

    /// Writes what is left, and the document's end.
    mutating func finish() throws {
        if case .json = format {
            guard frame != nil else {
                output.out(try ContactJSON.document(ContactJSON.ExportDocument(contacts: gathered)))
                return
            }
            guard count > 0 else {
                // No contact: the empty document, as the encoder writes it.
                output.out(try ContactJSON.document(ContactJSON.ExportDocument(contacts: [])))
                return
            }
        }
        writer.finish()
    }
}
