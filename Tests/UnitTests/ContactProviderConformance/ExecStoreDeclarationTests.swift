import AppGroupStore
import ContactProviderConformance
import Foundation
import TestSupport
import Testing

/// Issue 39: an exec adapter's `hello` declares the fields its store keeps and that labels are
/// the provider's, and the kit compares contacts through that declaration.
@Suite("Exec adapters: the store declaration of hello")
struct ExecStoreDeclarationTests {
    /// A one-line adapter whose `hello` reply carries `helloExtra`; every other request succeeds empty.
    static func adapter(_ helloExtra: String, in group: TemporaryAppGroup) throws -> String {
        let path = group.path + "/declaring-adapter.sh"
        let script = """
            #!/bin/sh
            while read -r line; do
              case "$line" in
                *'"hello"'*) echo '{"protocol":1,"ok":true\(helloExtra)}' ;;
                *) echo '{"protocol":1,"ok":true,"contacts":[]}' ;;
              esac
            done
            """
        try script.write(toFile: path, atomically: true, encoding: .utf8)
        // Read by sh rather than executed: a script just written can be "Text file busy" to exec while
        // a process another test spawns at that moment still holds the writer's descriptor (seen once
        // in a full UnitTests run); what these tests check is the declaration, not the exec bit.
        return "/bin/sh '\(path)'"
    }

    static var ada: ContactRecord {
        var record = ContactRecord(identifier: "ada")
        record.givenName = "Ada"
        record.familyName = "Lovelace"
        record.jobTitle = "Mathematician"
        record.phoneNumbers = [.init(label: "_$!<Home>!$_", value: "+44 20 7946 0000")]
        return record
    }

    @Test("fields and provider labels: only the declared fields count, without their labels")
    func declaredFieldsAndLabels() throws {
        try withTemporaryAppGroup { group in
            let command = try Self.adapter(
                #","capabilities":["break-store"],"fields":["givenName","phoneNumbers"],"labels":"provider""#, in: group
            )
            let backend = try ExecBackend(command: command, appGroup: group.appGroup)
            #expect(backend.canInjectTransientFailure, "the capabilities are read beside the declaration")
            #expect(
                backend.declaration
                    == StoreDeclaration(fields: ["givenName", "phoneNumbers"], labelsAreProviders: true))
            var expected = ContactRecord(identifier: "ada")
            expected.givenName = "Ada"
            expected.phoneNumbers = [.init(label: nil, value: "+44 20 7946 0000")]
            #expect(backend.comparable(Self.ada) == expected)
        }
    }

    @Test("a hello without a declaration compares every field, labels included")
    func noDeclaration() throws {
        try withTemporaryAppGroup { group in
            let backend = try ExecBackend(command: try Self.adapter("", in: group), appGroup: group.appGroup)
            #expect(backend.declaration == .everything)
            #expect(backend.comparable(Self.ada) == Self.ada)
        }
    }

    @Test("an unknown field or labels value is an error naming the adapter, the value and what is allowed")
    func badDeclaration() throws {
        try withTemporaryAppGroup { group in
            let unknownField = try Self.adapter(#","fields":["givenName","shoeSize"]"#, in: group)
            let fieldError = #expect(throws: ConformanceBackendError.self) {
                _ = try ExecBackend(command: unknownField, appGroup: group.appGroup)
            }
            #expect(fieldError?.message.contains("exec:\(unknownField)") == true, "\(String(describing: fieldError))")
            #expect(fieldError?.message.contains("shoeSize (known: identifier, namePrefix") == true)
            let badLabels = try Self.adapter(#","labels":"mine""#, in: group)
            let labelsError = #expect(throws: ConformanceBackendError.self) {
                _ = try ExecBackend(command: badLabels, appGroup: group.appGroup)
            }
            #expect(labelsError?.message.contains("\"labels\" must be \"provider\"") == true)
        }
    }
}
