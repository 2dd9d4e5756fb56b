import Foundation

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// The vCards of a CardDAV multistatus: the text of every `CARDDAV:address-data` element (RFC 6352
/// §10.4), whatever prefixes the server chose for its namespaces.
enum AddressDataReader {
    /// The cards in `data`, in the server's order; throws a description of malformed XML.
    static func cards(in data: Data) throws -> [String] {
        let delegate = Collector()
        let parser = XMLParser(data: data)
        parser.shouldProcessNamespaces = true
        parser.delegate = delegate
        guard parser.parse() else {
            let reason = parser.parserError.map { "\($0.localizedDescription)" } ?? "not well-formed XML"
            throw CardDAVBackendError("\(reason) (line \(parser.lineNumber))")
        }
        return delegate.cards
    }

    private final class Collector: NSObject, XMLParserDelegate {
        var cards: [String] = []
        private var text: String?

        func parser(
            _ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?,
            qualifiedName: String?, attributes: [String: String] = [:]
        ) {
            if Self.isAddressData(elementName, namespaceURI) { text = "" }
        }

        func parser(_ parser: XMLParser, foundCharacters string: String) {
            text? += string
        }

        func parser(_ parser: XMLParser, foundCDATA block: Data) {
            text? += String(decoding: block, as: UTF8.self)
        }

        func parser(
            _ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName: String?
        ) {
            guard Self.isAddressData(elementName, namespaceURI), let card = text else { return }
            if !card.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty { cards.append(card) }
            text = nil
        }

        private static func isAddressData(_ name: String, _ namespace: String?) -> Bool {
            (name.split(separator: ":").last.map(String.init) ?? name) == "address-data"
                && (namespace == nil || namespace == "urn:ietf:params:xml:ns:carddav")
        }
    }
}
