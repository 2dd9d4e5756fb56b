import AppGroupStore
import Foundation

/// Reads the contact files `import` accepts.
///
/// - this tool's export document `{"format":1,"kind":"contacts","contacts":[…]}`;
/// - a JSON array of contacts with Contacts key names (`list --json`);
/// - the seed demo's `ContactItems.json`: `[{"identifier","firstName","lastName","phoneNumber"?,"emailAddress"?}]`.
package enum ContactImport {
    /// The seed demo's record.
    struct SeedRecord: Decodable {
        var identifier: String
        var firstName: String
        var lastName: String
        var phoneNumber: String?
        var emailAddress: String?
    }

    /// Why a file could not be imported; names the file and, where known, the line.
    package struct ImportError: Error, CustomStringConvertible {
        package let description: String
    }

    /// Whether a file is vCard (by extension, or by its first line).
    package static func isVCard(_ data: Data, path: String) -> Bool {
        let lower = path.lowercased()
        if lower.hasSuffix(".vcf") || lower.hasSuffix(".vcard") { return true }
        let head = String(decoding: data.prefix(64), as: UTF8.self)
            .trimmingCharacters(in: CharacterSet.whitespacesAndNewlines.union(CharacterSet(charactersIn: "\u{FEFF}")))
        return head.uppercased().hasPrefix("BEGIN:VCARD")
    }

    /// Decodes `data` read from `source`.
    ///
    /// A leading UTF-8 byte order mark (as Windows editors write) is skipped. A key given twice in
    /// one object is an error naming the key and its line: JSON leaves it undefined, and keeping
    /// either value silently could drop what the user meant.
    package static func decode(_ data: Data, source: String) throws -> [ContactRecord] {
        var data = data
        if data.starts(with: [0xEF, 0xBB, 0xBF]) { data = Data(data.dropFirst(3)) }
        let records = try decodeJSON(data, source: source)
        if let duplicate = JSONDuplicateKeys.first(in: data) {
            throw ImportError(
                description:
                    "\(source): line \(duplicate.line): the key '\(duplicate.key)' appears twice in one object; "
                    + "remove one of them (nothing was imported)")
        }
        return records
    }

    private static func decodeJSON(_ data: Data, source: String) throws -> [ContactRecord] {
        let trimmed = data.drop { $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }
        guard let first = trimmed.first else { throw ImportError(description: "\(source): the file is empty") }
        let decoder = JSONDecoder()
        do {
            if first == UInt8(ascii: "{") {
                let document = try decoder.decode(ContactJSON.ExportDocument.self, from: data)
                guard document.format == StoreFormat.version else {
                    throw ImportError(description: "\(source): unsupported format version \(document.format)")
                }
                return document.contacts
            }
            if first == UInt8(ascii: "[") {
                if looksLikeSeedFormat(data) {
                    return try decoder.decode([SeedRecord].self, from: data).map(convert)
                }
                return try decoder.decode([ContactRecord].self, from: data)
            }
            throw ImportError(description: "\(source):1: expected a JSON array or object of contacts")
        } catch let error as ImportError {
            throw error
        } catch {
            throw ImportError(description: "\(source): \(location(of: error, in: data))")
        }
    }

    private static func looksLikeSeedFormat(_ data: Data) -> Bool {
        guard let array = try? JSONSerialization.jsonObject(with: data) as? [[String: Any]], let first = array.first
        else {
            return false
        }
        return first["firstName"] != nil || first["lastName"] != nil
    }

    /// A seed record as a contact (its phone number labelled mobile, as the seed app shows it).
    static func convert(_ seed: SeedRecord) -> ContactRecord {
        var record = ContactRecord(identifier: seed.identifier)
        record.givenName = seed.firstName
        record.familyName = seed.lastName
        if let phone = seed.phoneNumber { record.phoneNumbers = [.init(label: Labels.stored("mobile"), value: phone)] }
        if let email = seed.emailAddress { record.emailAddresses = [.init(label: nil, value: email)] }
        return record
    }

    /// "line N: reason" for a decoding error (the line of the offending array element).
    static func location(of error: Error, in data: Data) -> String {
        var reason = LineReason.describe(error)
        if case DecodingError.dataCorrupted(let context) = error, context.codingPath.isEmpty {
            // A syntax error. Foundation on Linux gives no position in the decoding error (only
            // "The given data was not valid JSON."), so ask its parser where it stopped.
            guard let syntax = syntaxError(in: data) else { return reason }
            let message = "\(reason) (\(syntax.detail))"
            return syntax.location.map { "\($0): \(message)" } ?? message
        }
        let path: [CodingKey]
        switch error {
        case DecodingError.keyNotFound(_, let context), DecodingError.typeMismatch(_, let context),
            DecodingError.valueNotFound(_, let context), DecodingError.dataCorrupted(let context):
            path = context.codingPath
        default:
            path = []
        }
        if let index = path.first(where: { $0.intValue != nil })?.intValue, let line = lineOfElement(index, in: data) {
            reason = "line \(line): contact #\(index + 1): " + reason
        }
        return reason
    }

    /// Where Foundation's JSON parser stops in `data` ("line L, column C", when it says) and its own
    /// message; nil when it accepts `data`.
    static func syntaxError(in data: Data) -> (location: String?, detail: String)? {
        let detail: String
        do {
            _ = try JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])
            return nil
        } catch {
            detail = (error as NSError).userInfo[NSDebugDescriptionErrorKey] as? String ?? "\(error)"
        }
        // Foundation on Linux reports "… around character N." (a byte offset); the line and column come from it.
        let offset: Int
        if let range = detail.range(of: "around character "),
            let value = Int(detail[range.upperBound...].prefix(while: \.isNumber))
        {
            offset = min(max(value, 0), data.count)
        } else if detail.contains("end of file") {
            offset = data.count
        } else {
            return (nil, detail)
        }
        let bytes = data[data.startIndex..<(data.startIndex + offset)]
        let line = bytes.reduce(1) { $1 == 0x0A ? $0 + 1 : $0 }
        let lineStart = bytes.lastIndex(of: 0x0A).map { $0 + 1 } ?? bytes.startIndex
        let column = String(decoding: data[lineStart..<bytes.endIndex], as: UTF8.self).count + 1
        return ("line \(line), column \(column)", detail)
    }

    /// The line on which the `index`-th element of the top-level array (or `contacts` array) starts.
    private static func lineOfElement(_ index: Int, in data: Data) -> Int? {
        var depth = 0
        var inString = false
        var escaped = false
        var line = 1
        var element = -1
        var arrayDepth: Int?
        var expectingElement = false
        for byte in data {
            if byte == 0x0A { line += 1 }
            if inString {
                if escaped {
                    escaped = false
                } else if byte == 0x5C {
                    escaped = true
                } else if byte == 0x22 {
                    inString = false
                }
                continue
            }
            // Any value (object, string, number, …) starts an element, not only an object.
            if expectingElement, byte != 0x20, byte != 0x0A, byte != 0x0D, byte != 0x09, byte != 0x5D {
                expectingElement = false
                element += 1
                if element == index { return line }
            }
            switch byte {
            case 0x22: inString = true
            case 0x5B:
                depth += 1
                if arrayDepth == nil {
                    arrayDepth = depth
                    expectingElement = true
                }
            case 0x7B: depth += 1
            case 0x5D, 0x7D: depth -= 1
            case 0x2C: if depth == arrayDepth { expectingElement = true }
            default: break
            }
        }
        return nil
    }
}

/// Readable reasons from decoding errors.
enum LineReason {
    static func describe(_ error: Error) -> String {
        switch error {
        case DecodingError.dataCorrupted(let context):
            let underlying = (context.underlyingError as NSError?)?.userInfo[NSDebugDescriptionErrorKey] as? String
            return [context.debugDescription, underlying].compactMap { $0 }.joined(separator: ": ")
                + path(context.codingPath)
        case DecodingError.keyNotFound(let key, let context):
            return "missing key '\(key.stringValue)'" + path(context.codingPath)
        case DecodingError.typeMismatch(let type, let context):
            return "expected \(type)" + path(context.codingPath)
        case DecodingError.valueNotFound(let type, let context):
            return "missing \(type) value" + path(context.codingPath)
        default:
            return "\(error)"
        }
    }

    private static func path(_ codingPath: [CodingKey]) -> String {
        let keys = codingPath.filter { $0.intValue == nil }.map(\.stringValue)
        return keys.isEmpty ? "" : " (at '\(keys.joined(separator: "."))')"
    }
}
