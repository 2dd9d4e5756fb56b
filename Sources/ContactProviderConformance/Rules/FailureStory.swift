import Foundation

/// A failed or warned rule read back as a story the HTML report can draw (issue 45): the steps of its
/// shrunk reproduction on the app, system and provider lanes, the step where the stores diverged, and
/// the contacts that differ, expected beside got.
///
/// The report keeps a rule's result as sentences (the text and JUnit print them as they are), so the
/// story is read from their fixed shapes: V1's "Shrunk from N to M operations: 1. …; 2. …", its step
/// "operation K of M: …", the system's trace lines (`→ call` from the system, indented observer calls
/// back), and the comparison's "contact ID (Name): field: expected X, got Y". What does not match a
/// shape is still shown, as text, beside the drawing.
struct FailureStory: Equatable, Sendable {
    /// The three lanes of the sequence diagram.
    enum Lane: Int, CaseIterable, Sendable {
        case app, system, provider

        var title: String {
            switch self {
            case .app: return "app (contacts-host)"
            case .system: return "system"
            case .provider: return "provider"
            }
        }
    }

    /// One arrow (or, from a lane to itself, a box) of the diagram.
    struct Step: Equatable, Sendable {
        var from: Lane
        var to: Lane
        var label: String
    }

    /// One contact the stores disagree on: the fields that differ, the data's value and the system's.
    struct ContactDifference: Equatable, Sendable {
        var identifier: String
        var name: String
        var fields: [FieldDifference]
    }

    var steps: [Step]
    /// The index in ``steps`` where the stores were found to differ (the last step when unknown).
    var divergence: Int?
    var contacts: [ContactDifference]

    /// The steps drawn at most: a longer transcript keeps its end, where the failure is.
    static let maximumSteps = 40

    init(_ result: RuleResult) {
        var steps: [Step] = []
        var divergence: Int?
        let explanation = result.explanation ?? ""
        let operations = Self.operations(in: explanation)
        if !operations.isEmpty {
            let failing = Self.operationNumber(in: result.step ?? "")
            for (number, operation) in operations {
                let index = Self.append(operation: operation, to: &steps)
                if number == failing { divergence = index }
            }
        } else {
            let calls = (result.transcript ?? []).suffix(Self.maximumSteps)
            steps = calls.map(Self.step(call:))
            if !steps.isEmpty { divergence = steps.count - 1 }
        }
        if steps.isEmpty, let step = result.step {
            // No trace kept (F1 compares after whole enumerations): the step itself, between the lanes.
            steps = [
                Step(from: .app, to: .app, label: "the kit writes the app's data"),
                Step(from: .system, to: .provider, label: step),
                Step(from: .provider, to: .system, label: "pages / batches"),
                Step(from: .system, to: .system, label: "compare with the app's store"),
            ]
            divergence = steps.count - 1
        }
        self.steps = steps
        self.divergence = divergence
        // V1 appends its operations to the comparison's words: the contacts are read from before them.
        let comparison = explanation.components(separatedBy: ". Shrunk from ").first ?? explanation
        self.contacts = Self.contactDifferences(in: comparison)
    }

    /// V1's numbered operations (`1. add contact #1; 2. signal and wait`), by number.
    static func operations(in explanation: String) -> [(Int, String)] {
        guard let start = explanation.range(of: " operations: ", options: .backwards),
            explanation.contains("Shrunk from ")
        else { return [] }
        var result: [(Int, String)] = []
        for part in explanation[start.upperBound...].components(separatedBy: "; ") {
            let words = part.split(separator: " ", maxSplits: 1)
            guard words.count == 2, words[0].hasSuffix("."), let number = Int(words[0].dropLast()) else {
                // A "; " inside an operation's words: it belongs to the one before.
                if let last = result.popLast() { result.append((last.0, last.1 + "; " + part)) }
                continue
            }
            result.append((number, String(words[1])))
        }
        return result
    }

    /// K of V1's step `operation K of M: …`.
    static func operationNumber(in step: String) -> Int? {
        guard step.hasPrefix("operation ") else { return nil }
        return Int(step.dropFirst("operation ".count).prefix { $0.isNumber })
    }

    /// Appends the arrows of one V1 operation; returns the index of the one where it is checked.
    static func append(operation: String, to steps: inout [Step]) -> Int {
        if operation.hasPrefix("signal") {
            steps.append(Step(from: .app, to: .system, label: "signalEnumerator()"))
            steps.append(Step(from: .system, to: .provider, label: "enumerate, until caught up"))
            steps.append(Step(from: .provider, to: .system, label: "pages / batches"))
            steps.append(Step(from: .system, to: .system, label: "compare with the app's store"))
        } else if operation.hasPrefix("run one page/batch") {
            steps.append(Step(from: .system, to: .provider, label: "one page or batch"))
            steps.append(Step(from: .app, to: .app, label: String(operation.drop { $0 != "," }.dropFirst(2))))
        } else if operation.hasPrefix("kill and relaunch") {
            steps.append(Step(from: .system, to: .provider, label: operation))
        } else if operation.hasPrefix("reset the system") {
            steps.append(Step(from: .app, to: .system, label: "ContactProviderManager.reset()"))
        } else {
            steps.append(Step(from: .app, to: .app, label: operation))
        }
        return steps.count - 1
    }

    /// A line of the system's trace: `→ call` goes to the provider, an indented observer call comes back.
    static func step(call line: String) -> Step {
        let text = line.trimmingCharacters(in: .whitespaces)
        if text.hasPrefix("→") {
            return Step(
                from: .system, to: .provider, label: String(text.dropFirst()).trimmingCharacters(in: .whitespaces))
        }
        if text.hasPrefix("←") || line.hasPrefix(" ") || text.hasPrefix("did") || text.hasPrefix("finish") {
            let label = text.hasPrefix("←") ? String(text.dropFirst()).trimmingCharacters(in: .whitespaces) : text
            return Step(from: .provider, to: .system, label: label)
        }
        return Step(from: .system, to: .system, label: text)
    }

    /// The comparison's `contact ID (Name[; shape]): field: expected X, got Y; …` parts.
    static func contactDifferences(in explanation: String) -> [ContactDifference] {
        var contacts: [ContactDifference] = []
        var rest = Substring(explanation)
        while let start = rest.range(of: "contact ") {
            rest = rest[start.upperBound...]
            guard let open = rest.range(of: " ("), let close = rest.range(of: "): "),
                open.lowerBound < close.lowerBound,
                !rest[..<open.lowerBound].contains(" ")
            else { continue }
            let identifier = String(rest[..<open.lowerBound])
            let name = String(rest[open.upperBound..<close.lowerBound].split(separator: ";").first ?? "")
            let body = rest[close.upperBound...]
            let end = body.range(of: " | ")?.lowerBound ?? body.endIndex
            let fields = Self.fields(in: String(body[..<end]))
            guard !fields.isEmpty else { continue }
            contacts.append(ContactDifference(identifier: identifier, name: name, fields: fields))
            rest = body[end...]
        }
        return contacts
    }

    /// `field: expected X, got Y` parts, split where the next field's name starts.
    static func fields(in text: String) -> [FieldDifference] {
        var fields: [FieldDifference] = []
        for part in text.components(separatedBy: "; ") {
            if let colon = part.range(of: ": expected "), !part[..<colon.lowerBound].contains(" "),
                let got = part.range(of: ", got ", options: .backwards)
            {
                fields.append(
                    FieldDifference(
                        field: String(part[..<colon.lowerBound]),
                        expected: String(part[colon.upperBound..<got.lowerBound]),
                        got: String(part[got.upperBound...])))
            } else if var last = fields.popLast() {
                // A value holding "; " (a JSON array's text, for one) goes on.
                last.got += "; " + part
                fields.append(last)
            }
        }
        return fields
    }
}
