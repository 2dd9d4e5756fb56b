import Foundation
import TestSupport
import Testing

/// Helpers for the interoperability end-to-end tests (vCard import/export, search, watch).
///
/// Everything lives in this namespace so nothing clashes with the target's other helpers
/// (`host`, `jsonObject`, `contactsByID`, `CLIHarness`, …), which are reused where they fit.
enum InteropFixtures {
    /// Writes `text` as UTF-8 to `<group>/<name>` and returns the path.
    static func write(_ text: String, named name: String, in group: TemporaryAppGroup) throws -> String {
        let path = group.path + "/" + name
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// Joins vCard lines with CRLF (as Apple's Contacts writes them), ending with a final CRLF.
    static func crlf(_ lines: [String]) -> String {
        lines.map { $0 + "\r\n" }.joined()
    }

    /// Re-serialises parsed JSON with sorted keys: equal strings mean equal JSON values (key order and
    /// whitespace ignored, array order kept).
    static func canonicalJSON(_ text: String) throws -> String {
        let object = try JSONSerialization.jsonObject(with: Data(text.utf8))
        let data = try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])
        return String(decoding: data, as: UTF8.self)
    }

    /// The identifiers of a JSON array of contacts, in order.
    static func identifiers(_ result: ProcessResult) throws -> [String] {
        try jsonArray(result).map { try #require($0["identifier"] as? String) }
    }

    /// The `import` summary line.
    static func summary(_ total: Int, added: Int, updated: Int, skipped: Int) -> String {
        "imported \(total) \(total == 1 ? "contact" : "contacts") (\(added) added, \(updated) updated, \(skipped) skipped)"
    }

    /// Base64 of `data` folded the way Apple's Contacts folds a PHOTO: the first line carries the
    /// property name, continuation lines start with a space.
    static func foldedPhotoLines(_ data: Data, header: String = "PHOTO;ENCODING=b;TYPE=JPEG:") -> [String] {
        let encoded = Array(data.base64EncodedString())
        var lines: [String] = []
        var index = 0
        let firstWidth = 75 - header.count
        lines.append(header + String(encoded[0..<min(firstWidth, encoded.count)]))
        index = min(firstWidth, encoded.count)
        while index < encoded.count {
            let end = min(index + 74, encoded.count)
            lines.append(" " + String(encoded[index..<end]))
            index = end
        }
        return lines
    }

    /// Bytes that start like a JPEG and are long enough to need several folded lines.
    static let jpegBytes = Data(
        [0xFF, 0xD8, 0xFF, 0xE0] + (0..<300).map { UInt8(($0 * 37 + 11) % 256) } + [0xFF, 0xD9])
}
