import Foundation
import TestSupport
import Testing

/// Runs `contacts-host` in `group` and requires exit code `code`.
@discardableResult
func host(
    _ arguments: [String], in group: TemporaryAppGroup, expect code: Int32 = 0, stdin: Data? = nil,
    sourceLocation: SourceLocation = #_sourceLocation
) throws -> ProcessResult {
    let result = try HostRunner.process.run(arguments, in: group, stdin: stdin)
    #expect(
        result.exitCode == code, "contacts-host \(arguments.joined(separator: " ")) → \(result)",
        sourceLocation: sourceLocation)
    return result
}

/// Parses a JSON object printed on stdout.
func jsonObject(_ result: ProcessResult, sourceLocation: SourceLocation = #_sourceLocation) throws -> [String: Any] {
    let object = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8))
    return try #require(object as? [String: Any], "not a JSON object: \(result.stdout)", sourceLocation: sourceLocation)
}

/// Parses a JSON array of objects (contacts) printed on stdout.
func jsonArray(_ result: ProcessResult, sourceLocation: SourceLocation = #_sourceLocation) throws -> [[String: Any]] {
    let object = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8))
    return try #require(
        object as? [[String: Any]], "not a JSON array of objects: \(result.stdout)", sourceLocation: sourceLocation)
}

/// Parses a JSON array of contacts and returns them keyed by identifier, as canonical JSON strings.
func contactsByID(_ result: ProcessResult) throws -> [String: String] {
    let array = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]])
    var byID: [String: String] = [:]
    for contact in array {
        let id = try #require(contact["identifier"] as? String)
        #expect(byID[id] == nil, "duplicate identifier \(id)")
        let data = try JSONSerialization.data(withJSONObject: contact, options: [.sortedKeys])
        byID[id] = String(decoding: data, as: UTF8.self)
    }
    return byID
}

/// Asserts the system store equals the app database, contact for contact.
func expectSystemMatchesApp(
    _ group: TemporaryAppGroup, count: Int? = nil, sourceLocation: SourceLocation = #_sourceLocation
) throws {
    let app = try contactsByID(try host(["list", "--json"], in: group))
    let system = try contactsByID(try host(["system", "list", "--json"], in: group))
    expectSameContacts(app: app, system: system, sourceLocation: sourceLocation)
    if let count { #expect(app.count == count, sourceLocation: sourceLocation) }
}

/// Writes an import file of `count` generated contacts and returns its path.
func makeImportFile(_ group: TemporaryAppGroup, count: Int, prefix: String = "bulk") throws -> String {
    var contacts: [[String: Any]] = []
    for index in 0..<count {
        contacts.append([
            "identifier": "\(prefix)-\(String(format: "%05d", index))",
            "givenName": "Given\(index)", "familyName": "Family\(index % 97)",
            "phoneNumbers": [["label": "_$!<Mobile>!$_", "value": "+1 555 \(String(format: "%07d", index))"]],
        ])
    }
    let path = group.path + "/import-\(prefix).json"
    try JSONSerialization.data(withJSONObject: ["format": 1, "kind": "contacts", "contacts": contacts]).write(
        to: URL(fileURLWithPath: path))
    return path
}

/// Stops the provider through the CLI and checks nothing is left running.
func stopProvider(_ group: TemporaryAppGroup, sourceLocation: SourceLocation = #_sourceLocation) throws {
    try host(["invalidate"], in: group)
    #expect(group.providerPID() == nil, "a provider is still running", sourceLocation: sourceLocation)
}

/// The app database as the CLI sees it, by identifier (parsed `list --json`).
func appContacts(_ group: TemporaryAppGroup, sourceLocation: SourceLocation = #_sourceLocation) throws -> [String:
    [String: Any]]
{
    let result = try HostRunner.process.run(["list", "--json"], in: group)
    #expect(result.exitCode == 0, "the database must open after a crash: \(result)", sourceLocation: sourceLocation)
    let array = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]])
    var byID: [String: [String: Any]] = [:]
    for contact in array {
        let id = try #require(contact["identifier"] as? String)
        #expect(byID[id] == nil, "duplicate identifier \(id)", sourceLocation: sourceLocation)
        byID[id] = contact
    }
    return byID
}
