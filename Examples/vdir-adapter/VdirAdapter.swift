// vdir-adapter: the conformance kit's adapter for the vdir example, in Swift. It speaks the kit's
// line protocol (docs/conformance-kit.md, "Adapter protocol"): one JSON request per line on stdin, one JSON reply
// per line on stdout. Run by the kit as `vdir-adapter --app-group PATH`.

import AppGroupStore
import Foundation
import VdirStore

/// The App Group from `--app-group PATH`, else `CONTACT_PROVIDER_APP_GROUP`.
func appGroupPath() -> String? {
    let arguments = CommandLine.arguments
    if let index = arguments.firstIndex(of: "--app-group"), index + 1 < arguments.count { return arguments[index + 1] }
    return ProcessInfo.processInfo.environment[AppGroup.environmentVariable]
}

func reply(_ object: [String: Any]) {
    var object = object
    object["protocol"] = 1
    let data =
        (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data("{\"ok\":false}".utf8)
    FileHandle.standardOutput.write(data + Data("\n".utf8))
}

func failure(_ message: String) -> [String: Any] { ["ok": false, "error": ["message": message]] }

func contact(from request: [String: Any]) throws -> ContactRecord {
    guard let object = request["contact"] else { throw VdirError("the request has no \"contact\"") }
    return try JSONDecoder().decode(ContactRecord.self, from: JSONSerialization.data(withJSONObject: object))
}

/// The cards `break-store` cut in half, whole, until `repair-store` puts them back.
nonisolated(unsafe) var brokenCards: [String: Data] = [:]

func handle(_ request: [String: Any], layout: VdirLayout) throws -> [String: Any] {
    guard request["protocol"] as? Int == 1 else { return failure("protocol \(request["protocol"] ?? "none") is not 1") }
    let writer = VdirWriter(layout: layout)
    let reader = VdirReader(layout: layout)
    switch request["op"] as? String {
    case "hello":
        return ["ok": true, "adapter": "vdir-adapter (Swift)", "capabilities": ["break-store"]]
    case "break-store":
        // Every card half written, as a writer that saves in place leaves it for a moment (rule T1).
        let names = (try? FileManager.default.contentsOfDirectory(atPath: layout.cards)) ?? []
        for name in names where name.hasSuffix(".vcf") {
            let path = layout.cards + "/" + name
            guard let data = FileManager.default.contents(atPath: path) else { continue }
            brokenCards[path] = data
            try data.prefix(data.count / 2).write(to: URL(fileURLWithPath: path))
        }
        return ["ok": true, "how": "every card of the vdir half written"]
    case "repair-store":
        for (path, data) in brokenCards { try data.write(to: URL(fileURLWithPath: path), options: .atomic) }
        brokenCards = [:]
    case "reset":
        try writer.reset()
    case "add":
        let record = try contact(from: request)
        if try reader.contact(name: VdirLayout.name(of: record.identifier)) != nil {
            return failure("contact \(record.identifier) already exists")
        }
        try writer.put(record)
    case "update":
        let record = try contact(from: request)
        if try reader.contact(name: VdirLayout.name(of: record.identifier)) == nil {
            return failure("no contact \(record.identifier) to update")
        }
        try writer.put(record)
    case "delete":
        guard let identifier = request["identifier"] as? String else { return failure("delete needs \"identifier\"") }
        try writer.delete(identifier: identifier)
    case "list":
        let data = try JSONEncoder().encode(try reader.allContacts())
        return ["ok": true, "contacts": try JSONSerialization.jsonObject(with: data)]
    case let op:
        return failure("unknown op \(op ?? "none")")
    }
    return ["ok": true]
}

guard let path = appGroupPath() else {
    FileHandle.standardError.write(Data("vdir-adapter: no App Group (pass --app-group PATH)\n".utf8))
    exit(2)
}
let layout = VdirLayout(appGroup: AppGroup(path: path))
while let line = readLine(strippingNewline: true) {
    guard let request = (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any] else {
        reply(failure("not one JSON object: \(line.prefix(100))"))
        continue
    }
    do {
        reply(try handle(request, layout: layout))
    } catch {
        reply(failure("\(error)"))
    }
}
