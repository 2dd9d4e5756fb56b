// Reading a WebDAV multistatus (RFC 4918 §13) with XMLParser: only what a sync needs.

import Foundation

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// One `DAV:response` of a multistatus.
struct MultistatusResponse: Sendable {
    /// The member's `DAV:href`, as the server wrote it.
    var href: String
    /// The response-level `DAV:status` code (a sync-collection's removed member has 404), if any.
    var status: Int?
    /// The `DAV:getetag` of a successful propstat, if any.
    var etag: String?
    /// The vCard text (`CARDDAV:address-data`) of a successful propstat, if any.
    var addressData: String?
}

/// A parsed multistatus: its responses and the collection's new `DAV:sync-token`, if sent.
struct Multistatus: Sendable {
    var responses: [MultistatusResponse] = []
    var syncToken: String?

    /// Parses `data`; throws a description of what is wrong.
    static func parse(_ data: Data) throws -> Multistatus {
        let delegate = MultistatusReader()
        let parser = XMLParser(data: data)
        parser.shouldProcessNamespaces = true
        parser.delegate = delegate
        guard parser.parse() else {
            let reason = parser.parserError.map { "\($0.localizedDescription)" } ?? "not well-formed XML"
            throw MultistatusParseError(reason: "\(reason) (line \(parser.lineNumber))")
        }
        guard delegate.sawMultistatus else { throw MultistatusParseError(reason: "no DAV:multistatus element") }
        return delegate.result
    }
}

/// Why a multistatus could not be read.
struct MultistatusParseError: Error, CustomStringConvertible {
    var reason: String
    var description: String { reason }
}

/// The XMLParser delegate: tracks the element path by local name (namespace prefixes vary by server).
private final class MultistatusReader: NSObject, XMLParserDelegate {
    var result = Multistatus()
    var sawMultistatus = false
    private var path: [String] = []
    private var text = ""
    private var current: MultistatusResponse?
    private var propstatStatus: Int?
    private var propstatEtag: String?
    private var propstatData: String?

    private static func localName(_ name: String) -> String {
        name.split(separator: ":").last.map(String.init) ?? name
    }

    /// The numeric code of an HTTP status line (`HTTP/1.1 404 Not Found` → 404).
    private static func statusCode(_ line: String) -> Int? {
        let parts = line.split(separator: " ")
        return parts.count >= 2 ? Int(parts[1]) : nil
    }

    func parser(
        _ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?,
        qualifiedName: String?, attributes: [String: String] = [:]
    ) {
        let name = Self.localName(elementName)
        path.append(name)
        text = ""
        switch name {
        case "multistatus": sawMultistatus = true
        case "response" where path.count == 2: current = MultistatusResponse(href: "")
        case "propstat":
            propstatStatus = nil
            propstatEtag = nil
            propstatData = nil
        default: break
        }
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) {
        text += string
    }

    func parser(_ parser: XMLParser, foundCDATA cdataBlock: Data) {
        text += String(decoding: cdataBlock, as: UTF8.self)
    }

    func parser(_ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName: String?) {
        let name = Self.localName(elementName)
        let parent = path.count >= 2 ? path[path.count - 2] : ""
        let value = text
        switch name {
        case "href" where parent == "response":
            current?.href = value.trimmingCharacters(in: .whitespacesAndNewlines)
        case "status" where parent == "response":
            current?.status = Self.statusCode(value.trimmingCharacters(in: .whitespacesAndNewlines))
        case "status" where parent == "propstat":
            propstatStatus = Self.statusCode(value.trimmingCharacters(in: .whitespacesAndNewlines))
        case "getetag":
            propstatEtag = value.trimmingCharacters(in: .whitespacesAndNewlines)
        case "address-data":
            propstatData = value
        case "propstat":
            // Only a successful propstat's values are the member's.
            if propstatStatus == nil || propstatStatus == 200 {
                if let propstatEtag, !propstatEtag.isEmpty { current?.etag = propstatEtag }
                if let propstatData, !propstatData.isEmpty { current?.addressData = propstatData }
            }
        case "response" where path.count == 2:
            if let current, !current.href.isEmpty { result.responses.append(current) }
            current = nil
        case "sync-token" where parent == "multistatus":
            result.syncToken = value.trimmingCharacters(in: .whitespacesAndNewlines)
        default: break
        }
        path.removeLast()
        text = ""
    }
}
