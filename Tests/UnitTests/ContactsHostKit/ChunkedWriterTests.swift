import Foundation
import Testing

@testable import ContactsHostKit

/// Issue 46: `list --json` and `export` write through one chunked writer; its bytes are the whole
/// document's, and its writes are the chunks.
@Suite("ChunkedWriter: the host's one chunked writer")
struct ChunkedWriterTests {
    private func written(_ elements: [String], open: String, separator: String, close: String, chunk: Int)
        -> (text: String, counts: [Int])
    {
        let output = CapturedOutput()
        var counts: [Int] = []
        var writer = ChunkedWriter(
            output: output, open: open, separator: separator, close: close, chunkSize: chunk,
            willWrite: { counts.append($0) })
        for element in elements { writer.add(element) }
        writer.finish()
        return (output.stdout, counts)
    }

    @Test("a JSON array is written a chunk a line, and its text is the array", arguments: [0, 1, 2, 3, 5, 6, 7])
    func arrayChunkALine(count: Int) throws {
        let elements = (0..<count).map { "{\"n\":\($0)}" }
        let result = written(elements, open: "[", separator: ",", close: "]", chunk: 3)
        let lines = result.text.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
        // Every chunk of three but the one the last element ends; that one holds what is left.
        #expect(lines.count == max(1, (count + 2) / 3))
        let joined = lines.joined()
        #expect(joined == "[" + elements.joined(separator: ",") + "]")
        let decoded = try JSONSerialization.jsonObject(with: Data(joined.utf8)) as? [[String: Int]]
        #expect(decoded?.map { $0["n"] } == (0..<count).map { $0 })
        #expect(result.counts.last == count)
    }

    @Test("each write ends where the text's own newline was: a separator's or a CRLF's LF is not doubled")
    func newlineOfTheText() {
        let cards = ["A\r\n", "B\r\n", "C\r\n"]
        #expect(written(cards, open: "", separator: "", close: "", chunk: 1).text == "A\r\nB\r\nC\r\n")
        let lines = written(["a", "b", "c"], open: "{\n", separator: ",\n", close: "\n}", chunk: 1)
        #expect(lines.text == "{\na,\nb,\nc\n}\n")
        #expect(lines.counts == [1, 2, 3])
    }
}
