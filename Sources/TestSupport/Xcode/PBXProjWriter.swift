import Foundation

/// Writes a `project.pbxproj` the way Xcode writes it: objects sorted by id inside one
/// `/* Begin ISA section */` per class, build files and file references on one line, everything
/// else one key per line, a `/* name */` comment after each reference, strings quoted only when
/// Xcode quotes them. Tests build fixture projects of every shape with it.
package struct PBXProjWriter {
    /// A value in an object.
    package indirect enum Value {
        /// A string (quoted when needed).
        case string(String)
        /// A reference to another object (written with its comment).
        case reference(String)
        /// A list of strings.
        case strings([String])
        /// A list of references.
        case references([String])
        /// A dictionary.
        case dictionary([(String, Value)])
    }

    private struct Object {
        let id: String
        let isa: String
        let comment: String?
        let fields: [(String, Value)]
    }

    private var objects: [Object] = []
    private var counter = 0
    /// The object version written at the top (54 to 100 are what Xcode 12 to 26 write).
    package var objectVersion = 77
    /// The id of the `PBXProject` once `project(…)` is added.
    package private(set) var rootID: String?

    package init(objectVersion: Int = 77) { self.objectVersion = objectVersion }

    /// A new id (24 hex digits, as Xcode makes them), for an object added later with `add(id:…)`
    /// (an exception set names its target before the target exists).
    package mutating func reserve() -> String {
        counter += 1
        return String(format: "5EED%020X", counter)
    }

    /// Adds an object of class `isa` (with the reserved `id`, or a new one) and returns its id.
    @discardableResult
    package mutating func add(
        id reserved: String? = nil, _ isa: String, comment: String? = nil, _ fields: [(String, Value)]
    ) -> String {
        let id = reserved ?? reserve()
        objects.append(Object(id: id, isa: isa, comment: comment, fields: fields))
        if isa == "PBXProject" { rootID = id }
        return id
    }

    /// The comment Xcode writes after a reference to `id`.
    private func comment(for id: String) -> String {
        guard let object = objects.first(where: { $0.id == id }) else { return "" }
        return object.comment.map { " /* \($0) */" } ?? ""
    }

    /// Xcode's quoting: bare when only letters, digits and `_$./` (and not empty), quoted otherwise.
    package static func quote(_ text: String) -> String {
        let bare =
            !text.isEmpty
            && text.unicodeScalars.allSatisfy { scalar in
                scalar.isASCII
                    && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar)
                        || "_$./".unicodeScalars.contains(scalar))
            }
        if bare && !text.hasPrefix("//") { return text }
        var escaped = ""
        for character in text {
            switch character {
            case "\"": escaped += "\\\""
            case "\\": escaped += "\\\\"
            case "\n": escaped += "\\n"
            case "\t": escaped += "\\t"
            default: escaped.append(character)
            }
        }
        return "\"\(escaped)\""
    }

    private func render(_ value: Value, indent: String, oneLine: Bool) -> String {
        let inner = indent + "\t"
        switch value {
        case .string(let text): return Self.quote(text)
        case .reference(let id): return id + comment(for: id)
        case .strings(let items):
            if oneLine { return "(" + items.map { Self.quote($0) + ", " }.joined() + ")" }
            return "(\n" + items.map { inner + Self.quote($0) + ",\n" }.joined() + indent + ")"
        case .references(let ids):
            if oneLine { return "(" + ids.map { $0 + comment(for: $0) + ", " }.joined() + ")" }
            return "(\n" + ids.map { inner + $0 + comment(for: $0) + ",\n" }.joined() + indent + ")"
        case .dictionary(let entries):
            if oneLine {
                return "{"
                    + entries.map { "\(Self.quote($0.0)) = \(render($0.1, indent: "", oneLine: true)); " }.joined()
                    + "}"
            }
            return "{\n"
                + entries.map { "\(inner)\(Self.quote($0.0)) = \(render($0.1, indent: inner, oneLine: false));\n" }
                .joined() + indent + "}"
        }
    }

    /// The file's text.
    package var text: String {
        var lines =
            "// !$*UTF8*$!\n{\n\tarchiveVersion = 1;\n\tclasses = {\n\t};\n\tobjectVersion = \(objectVersion);\n\tobjects = {\n"
        let classes = Set(objects.map(\.isa)).sorted()
        for isa in classes {
            lines += "\n/* Begin \(isa) section */\n"
            for object in objects.filter({ $0.isa == isa }).sorted(by: { $0.id < $1.id }) {
                let oneLine = isa == "PBXBuildFile" || isa == "PBXFileReference"
                let fields = [("isa", Value.string(isa))] + object.fields
                let head = "\t\t\(object.id)\(object.comment.map { " /* \($0) */" } ?? "") = "
                lines += head + render(.dictionary(fields), indent: "\t\t", oneLine: oneLine) + ";\n"
            }
            lines += "/* End \(isa) section */\n"
        }
        lines += "\t};\n\trootObject = \(rootID ?? "0")\(rootID.map { comment(for: $0) } ?? "");\n}\n"
        return lines
    }
}
