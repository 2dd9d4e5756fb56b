/// A document of many elements written a chunk of elements at a time (issue 44): the bytes are
/// `open`, the elements joined by `separator`, then `close`, but memory holds one chunk, not the
/// document. The one chunked writer of the host (issue 46): `list`, `search` and `system list`
/// (`ContactCommands.ListStream`) and `export` (`ContactExportStream`) write through it.
///
/// Each write is one `out`, which ends it with a newline: that newline stands for the one a chunk's
/// last separator or the document's end ends with (`export`'s `,\n`, a vCard's CRLF), or is added
/// where it ends with none (`list --json` writes its array a chunk a line: `[{…},{…},` … `{…}]`).
struct ChunkedWriter {
    /// How many elements one write carries: the one place that decides it.
    static let chunkSize = 1000

    private let output: CommandOutput
    private let open: String
    private let separator: String
    private let close: String
    private let chunkSize: Int
    /// The elements not yet written. A chunk keeps its last element back: whether a separator or
    /// `close` follows it is known only when the next one comes or the document ends.
    private var pending: [String] = []
    private var started = false
    /// How many elements have been handed to `output`.
    private var written = 0
    /// Told, before each write, how many elements will have been written once it returns (a write
    /// blocks while a slow reader lags).
    private let willWrite: (Int) -> Void

    init(
        output: CommandOutput, open: String, separator: String, close: String, chunkSize: Int = Self.chunkSize,
        willWrite: @escaping (Int) -> Void = { _ in }
    ) {
        self.output = output
        self.open = open
        self.separator = separator
        self.close = close
        self.chunkSize = max(chunkSize, 1)
        self.willWrite = willWrite
    }

    /// Adds `element` after the ones given before; writes a chunk once more than a chunk waits.
    mutating func add(_ element: String) {
        pending.append(element)
        guard pending.count > chunkSize else { return }
        let last = pending.removeLast()
        write(pending.joined(separator: separator) + separator, elements: pending.count)
        pending = [last]
    }

    /// Writes what is left and `close` (with no element: `open` and `close`).
    mutating func finish() {
        write(pending.joined(separator: separator) + close, elements: pending.count)
        pending = []
    }

    private mutating func write(_ body: String, elements: Int) {
        var text = started ? body : open + body
        started = true
        // By scalars: "\r\n" is one Character, so `hasSuffix("\n")` would not see a CRLF's LF.
        if text.unicodeScalars.last == "\n" { text.unicodeScalars.removeLast() }
        written += elements
        willWrite(written)
        output.out(text)
    }
}
