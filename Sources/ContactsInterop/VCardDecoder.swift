import AppGroupStore
import Foundation

/// Reads a whole vCard file: finds the cards, reports structural problems, decodes each card.
struct VCardDecoder {
    /// The numbered physical lines of the input.
    let lines: [VCardLine]
    let stopOnError: Bool
    /// Problems met before parsing (bytes that are not valid UTF-8), merged in by line.
    var lineProblems: [VCardProblem] = []

    init(text: String, stopOnError: Bool) {
        self.lines = VCardSyntax.numberedLines(text)
        self.stopOnError = stopOnError
    }

    init(data: Data, stopOnError: Bool) {
        (lines, lineProblems) = VCardFileText.lines(data)
        self.stopOnError = stopOnError
    }

    func run() -> VCardDecodeResult {
        var result = decodeCards()
        Self.resolveRelationReferences(&result.contacts)
        if !lineProblems.isEmpty {
            // After an early stop, the problem that stopped decoding stays last and problems about
            // lines after it are left out.
            var problems = result.problems
            let stopper = result.stoppedEarly ? problems.popLast() : nil
            let merged = problems + lineProblems.filter { stopper == nil || $0.line <= stopper!.line }
            result.problems =
                merged.enumerated().sorted {
                    ($0.element.line, $0.offset) < ($1.element.line, $1.offset)
                }.map(\.element) + (stopper.map { [$0] } ?? [])
        }
        return result
    }

    /// A relation whose value is a URI naming another card of the same file by its UID
    /// (`RELATED;TYPE=spouse:urn:uuid:…`, RFC 6350 §6.6.6) gets that card's name: CNContactRelation
    /// holds a name, and the card says which one. References to cards not in the file stay as written.
    static func resolveRelationReferences(_ contacts: inout [ContactRecord]) {
        guard contacts.contains(where: { $0.contactRelations.contains { $0.value.contains(":") } }) else { return }
        var names: [String: String] = [:]
        for contact in contacts where !contact.displayName.isEmpty { names[contact.identifier] = contact.displayName }
        for index in contacts.indices {
            let own = contacts[index].identifier
            let relations = contacts[index].contactRelations.map { relation in
                guard relation.value.contains(":"), relation.value != own, let name = names[relation.value] else {
                    return relation
                }
                return ContactRecord.LabeledString(label: relation.label, value: name)
            }
            if relations != contacts[index].contactRelations { contacts[index].contactRelations = relations }
        }
    }

    /// Whether `line` is an AGENT property whose value is a nested card on the following lines
    /// (`AGENT:` then `BEGIN:VCARD`, as 2.1 writes it).
    private static func opensAgent(_ line: VCardLine) -> Bool {
        guard let property = VCardSyntax.parse(line), property.name == "AGENT" else { return false }
        return property.rawValue.trimmingCharacters(in: .whitespaces).isEmpty
    }

    /// Whether `line` is `AGENT:BEGIN:VCARD`: the nested card starts on the AGENT line itself.
    private static func startsAgentInline(_ line: VCardLine) -> Bool {
        guard let property = VCardSyntax.parse(line), property.name == "AGENT" else { return false }
        return property.rawValue.trimmingCharacters(in: .whitespaces).uppercased() == "BEGIN:VCARD"
    }

    /// The BEGIN:VCARD lines (by index) that start a card nested in another card rather than the
    /// next card of a file whose open card lacks its END: after the nested card's own END:VCARD the
    /// outer card goes on (property lines) and then ends, before any other BEGIN:VCARD. (A nested
    /// card directly followed by two END:VCARD lines cannot be told from a card without END followed
    /// by a complete card and a stray END; it is read as the latter.) One pass.
    private static func nestedBegins(_ markers: [String]) -> Set<Int> {
        var open: [Int] = []
        var matched: [(begin: Int, end: Int)] = []
        for (index, marker) in markers.enumerated() {
            if marker == "BEGIN:VCARD" { open.append(index) }
            if marker == "END:VCARD", let begin = open.popLast() { matched.append((begin, index)) }
        }
        // The index of the next BEGIN:VCARD or END:VCARD line at or after each line.
        var nextMarker = [Int](repeating: markers.count, count: markers.count + 1)
        for index in stride(from: markers.count - 1, through: 0, by: -1) {
            let isMarker = markers[index] == "BEGIN:VCARD" || markers[index] == "END:VCARD"
            nextMarker[index] = isMarker ? index : nextMarker[index + 1]
        }
        return Set(
            matched.filter { card in
                let next = nextMarker[card.end + 1]
                return next < markers.count && markers[next] == "END:VCARD"
                    && markers[(card.end + 1)..<next].contains { !$0.isEmpty }
            }.map(\.begin))
    }

    private func decodeCards() -> VCardDecodeResult {
        var result = VCardDecodeResult()
        /// The depth of a nested AGENT card being passed over (its lines belong to the AGENT property).
        var agentDepth = 0
        var usedIdentifiers: [String: Int] = [:]
        var card: (begin: Int, lines: [VCardLine])?
        var strayStart: Int?

        /// Records a problem; returns true when decoding must stop.
        func report(_ problem: VCardProblem) -> Bool {
            result.problems.append(problem)
            if problem.skipped, stopOnError {
                result.stoppedEarly = true
                return true
            }
            return false
        }

        func finish(_ begin: Int, _ lines: [VCardLine]) -> Bool {
            var decoder = VCardCardDecoder(begin: begin, lines: lines, declaredCharsets: declared)
            let record = decoder.decode()
            for problem in decoder.problems where report(problem) { return true }
            guard var record else { return false }
            if let count = usedIdentifiers[record.identifier] {
                usedIdentifiers[record.identifier] = count + 1
                if decoder.identifierIsGenerated {
                    record.identifier += "-\(count + 1)"
                } else if report(
                    VCardProblem(
                        line: begin,
                        message: "UID \(record.identifier) is used by more than one card", skipped: false))
                {
                    return true
                }
            } else {
                usedIdentifiers[record.identifier] = 1
            }
            result.contacts.append(record)
            return false
        }

        let logical = VCardSyntax.logicalLines(lines)
        // Each line's trimmed, upper-cased text where it could be BEGIN:VCARD or END:VCARD; a longer
        // line is kept as "-" (not empty, no marker), so a file of photos is not held twice.
        let markers = logical.map { line -> String in
            let trimmed = line.text.trimmingCharacters(in: .whitespaces)
            return trimmed.utf8.count <= 16 ? trimmed.uppercased() : "-"
        }
        let nested = Self.nestedBegins(markers)
        let declared = VCardCharset.declared(
            logical.compactMap { line in
                guard line.text.prefix(while: { $0 != ":" }).uppercased().contains("CHARSET") else { return nil }
                return VCardSyntax.parse(line)?.values(of: "CHARSET").first
            })
        for (index, line) in logical.enumerated() {
            let marker = markers[index]
            if agentDepth > 0 {
                if marker == "BEGIN:VCARD" { agentDepth += 1 }
                if marker == "END:VCARD" { agentDepth -= 1 }
                continue
            }
            if marker == "BEGIN:VCARD", let open = card, let last = open.lines.last, Self.opensAgent(last) {
                agentDepth = 1
                continue
            }
            if marker == "BEGIN:VCARD", card != nil, nested.contains(index) {
                // A card inside a card without an AGENT line (some 2.1 writers nest the agent or a
                // member card bare): the outer card goes on after it, so it is passed over like an
                // AGENT card and the outer card is kept.
                let problem = VCardProblem(
                    line: line.number,
                    message: "a vCard nested in the card at line \(card!.begin) without an AGENT property "
                        + "is not supported and was ignored; the outer card was kept",
                    skipped: false)
                if report(problem) { return result }
                agentDepth = 1
                continue
            }
            if marker == "BEGIN:VCARD" {
                strayStart = nil
                if let open = card {
                    let problem = VCardProblem(
                        line: open.begin,
                        message: "vCard starting at line \(open.begin) has no END:VCARD before the next BEGIN:VCARD "
                            + "at line \(line.number); the card was skipped",
                        skipped: true)
                    if report(problem) { return result }
                }
                card = (line.number, [])
            } else if marker == "END:VCARD" {
                strayStart = nil
                if let open = card {
                    card = nil
                    if finish(open.begin, open.lines) { return result }
                } else {
                    let problem = VCardProblem(
                        line: line.number, message: "END:VCARD without a matching BEGIN:VCARD was ignored",
                        skipped: true)
                    if report(problem) { return result }
                }
            } else if card != nil {
                card!.lines.append(line)
                if Self.startsAgentInline(line) { agentDepth = 1 }
            } else if !marker.isEmpty, strayStart == nil {
                strayStart = line.number
                let problem = VCardProblem(
                    line: line.number, message: "text outside BEGIN:VCARD ... END:VCARD was ignored", skipped: true)
                if report(problem) { return result }
            }
        }
        if let open = card {
            _ = report(
                VCardProblem(
                    line: open.begin,
                    message: "vCard starting at line \(open.begin) has no END:VCARD; the card was skipped",
                    skipped: true))
        }
        return result
    }
}
