/// Walks the complete lines of a mapped store file and reports damage at the line it is on, so every
/// "read the lines, decode each, refuse a bad one with `path:line`" loop of the store is the same
/// few lines.
///
/// A last line without its newline is not a line. In a journal that is a torn append (a crash
/// mid-write) that was never committed, so readers stop before it and the next writer cuts it off;
/// a snapshot is written whole and renamed into place, so there it is damage, which ``finish()``
/// refuses (``TornTail``).
struct LineCursor {
    /// What a last line without its newline means.
    enum TornTail {
        /// The end of the data: a journal's torn append.
        case endOfData
        /// Damage: a file written whole (a snapshot) that was cut short.
        case damage
    }

    /// The file walked.
    let file: MappedFile
    /// Its path, for errors.
    let path: String
    /// Where the next line starts (after the last line walked: where a reader stopped).
    private(set) var offset: Int
    /// The start of the line `next()` returned last.
    private(set) var lineStart: Int
    /// The 1-based number of the line `next()` returned last; nil when the walk started at an
    /// offset whose line number is unknown (counted only if an error needs it, so a walk of new
    /// lines stays O(new lines)).
    private var knownLine: Int?
    /// What a last line without its newline means here.
    let tornTail: TornTail

    /// `file.bytes`, taken once: ``next()`` runs once per line of a store file, and a debug build
    /// retains and releases `file` around each call of one of its methods.
    private let bytes: UnsafeRawBufferPointer

    /// A cursor at `offset`, whose line is number `lineNumber` (nil: unknown).
    init(_ file: MappedFile, path: String, from offset: Int, lineNumber: Int?, tornTail: TornTail = .endOfData) {
        self.file = file
        bytes = file.bytes
        self.path = path
        self.offset = offset
        lineStart = offset
        knownLine = lineNumber.map { $0 - 1 }
        self.tornTail = tornTail
    }

    /// After the walk: in a file written whole, bytes after the last newline are a line cut short,
    /// refused at its line; in a journal they are a torn append, which is not an error.
    func finish() throws {
        guard tornTail == .damage, offset < file.size else { return }
        let line = knownLine.map { $0 + 1 } ?? file.countLines(upTo: offset) + 1
        throw StoreError.malformed(path: path, line: line, reason: "truncated line (no newline)")
    }

    /// The byte range of the next complete line (without its newline), or nil at the end.
    mutating func next() -> Range<Int>? {
        // On `bytes`, not through `file`, and no `Optional.map` closure: a debug build makes both
        // calls for every line.
        guard let end = MappedFile.newline(in: bytes, from: offset) else { return nil }
        lineStart = offset
        offset = end + 1
        if let line = knownLine { knownLine = line + 1 }
        return lineStart..<end
    }

    /// The 1-based number of the line `next()` returned last.
    var lineNumber: Int {
        knownLine ?? file.countLines(upTo: lineStart) + 1
    }

    /// "`path`:`line`: `reason`" for the line `next()` returned last.
    func malformed(_ reason: String) -> StoreError {
        StoreError.malformed(path: path, line: lineNumber, reason: reason)
    }

    /// Runs `decode`, turning its failure into `malformed` at the current line.
    func decoding<T>(_ decode: () throws -> T) throws -> T {
        do {
            return try decode()
        } catch {
            throw malformed(LineCoding.reason(error))
        }
    }
}

extension MappedFile {
    /// How many complete lines end before `offset`.
    func countLines(upTo offset: Int) -> Int {
        var count = 0
        var index = 0
        while index < offset, let end = newline(from: index), end < offset {
            count += 1
            index = end + 1
        }
        return count
    }
}
