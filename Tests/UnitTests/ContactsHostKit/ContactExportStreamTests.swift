import AppGroupStore
import ContactsInterop
import Foundation
import Testing

@testable import ContactsHostKit

/// Issue 44, item 2: the streamed export writes exactly the bytes of the whole document.
@Suite("ContactExportStream: chunk by chunk, the same bytes as the whole document")
struct ContactExportStreamTests {
    private func contacts(_ count: Int) -> [ContactRecord] {
        (0..<count).map { index in
            var record = index % 3 == 0 ? StoreFixtures.everyField("c\(index)") : ContactRecord(identifier: "c\(index)")
            record.givenName = "Name \(index)"
            if index % 4 == 1 { record.phoneNumbers = [.init(label: "_$!<Mobile>!$_", value: "+1 555 \(index)")] }
            return record
        }
    }

    private func streamed(_ records: [ContactRecord], _ format: ContactExportStream.Format, chunk: Int) throws
        -> String
    {
        let output = CapturedOutput()
        var stream = try ContactExportStream(format: format, output: output, chunkSize: chunk)
        for record in records { try stream.add(record) }
        try stream.finish()
        return output.stdout
    }

    @Test("the JSON document's frame is found in the encoder's own output (no fallback to the whole document)")
    func frameIsFound() throws {
        let frame = try #require(try ContactExportStream.jsonFrame())
        #expect(frame.prefix.hasPrefix("{") && frame.suffix.hasSuffix("}"))
    }

    @Test(
        "JSON and vCard: 0, 1, 2 and many contacts, in chunks smaller, equal and larger, equal the whole document",
        arguments: [0, 1, 2, 3, 7, 25])
    func sameBytes(count: Int) throws {
        let records = contacts(count)
        let whole = try ContactJSON.document(ContactJSON.ExportDocument(contacts: records)) + "\n"
        var cards = VCard.encode(records, version: .v4)
        if cards.hasSuffix("\r\n") { cards.unicodeScalars.removeLast() }
        for chunk in [1, 3, 7, 100] {
            #expect(try streamed(records, .json, chunk: chunk) == whole, "\(count) contacts in chunks of \(chunk)")
            #expect(
                try streamed(records, .vCard(.v4), chunk: chunk) == cards + "\n",
                "\(count) contacts as vCard in chunks of \(chunk)")
        }
    }
}
