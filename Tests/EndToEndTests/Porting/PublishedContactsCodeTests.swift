import Foundation
import TestSupport
import Testing

/// Issue 41: code from a published Contacts-framework package (SwiftyContacts) and from a published
/// Contacts app (EasyDelete), both vendored unchanged in Tests/Fixtures/PublishedCode (see their
/// PROVENANCE files), compiles against the simulator's `Contacts` and runs
/// against the simulated device: the user's own contacts beside a provider's read-only ones, groups,
/// vCards, authorization, through its async, throwing and closure APIs.
@Suite("Porting: a published Contacts package and a published Contacts app run against the simulated device")
struct PublishedContactsCodeTests {
    private func app(_ scenario: String, in group: TemporaryAppGroup) throws -> [String] {
        let result = try ProcessRunner.run(
            BuiltProducts.path("swiftycontacts-app"), [scenario], environment: group.environment)
        #expect(result.exitCode == 0, "swiftycontacts-app \(scenario): \(result)")
        return result.stdout.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init)
    }

    @Test(
        "adds, finds, sorts, groups, updates, encodes and deletes the user's contacts; a provided one is listed in its container and refused as Apple refuses it"
    )
    func tour() throws {
        try withTemporaryAppGroup { group in
            try HostRunner.process.succeed(
                ["device", "add", "--given-name", "Grace", "--family-name", "Hopper"], in: group)
            try HostRunner.process.succeed(["enable"], in: group)
            defer { _ = try? HostRunner.process.run(["disable"], in: group) }
            try HostRunner.process.succeed(
                ["add", "--id", "alan", "--given-name", "Alan", "--family-name", "Turing"], in: group)
            try HostRunner.process.succeed(["signal", "--wait"], in: group)
            try HostRunner.process.succeed(["device", "authorization", "not-determined"], in: group)

            let lines = try app("tour", in: group)
            let refusal = try #require(lines.first { $0.hasPrefix("provided contact ") })
            #expect(
                lines.filter { $0 != refusal } == [
                    "status 0", "access true", "matching name Ada Lovelace",
                    "by given name Ada Lovelace, Alan Turing, Grace Hopper", "groups Pioneers", "in group Ada Lovelace",
                    "in group after removal ", "updated Ada King", "closure by email Ada King",
                    "vCard round trip Ada King",
                    "container CNContainer.local: Ada King, Grace Hopper",
                    "container ContactProvider.defaultDomain: Alan Turing", "after delete ", "groups after delete 0",
                ])
            // CNError.recordNotWritable (206): provided contacts are read-only to apps.
            #expect(refusal.hasPrefix("provided contact refused: CNErrorDomain 206 "), "\(refusal)")
            // What the app did is the device's: the user's contacts as contacts-host sees them.
            let listed = try HostRunner.process.succeed(["device", "list"], in: group)
            #expect(listed.contains("Grace Hopper") && !listed.contains("Ada"), "\(listed)")
            #expect(try HostRunner.process.succeed(["device", "authorization"], in: group) == "authorized")
        }
    }

    @Test("with access denied, requestAccess and every fetch throw Apple's authorizationDenied")
    func denied() throws {
        try withTemporaryAppGroup { group in
            try HostRunner.process.succeed(["device", "add", "--given-name", "Grace"], in: group)
            try HostRunner.process.succeed(["device", "authorization", "denied"], in: group)
            #expect(
                try app("denied", in: group) == [
                    "status 2", "requestAccess threw CNErrorDomain 100 Access Denied",
                    "fetchContacts threw CNErrorDomain 100 Access Denied",
                ])
        }
    }

    private func easyDelete(_ scenario: String, in group: TemporaryAppGroup) throws -> [String] {
        let result = try ProcessRunner.run(
            BuiltProducts.path("easydelete-app"), [scenario], environment: group.environment)
        #expect(result.exitCode == 0, "easydelete-app \(scenario): \(result)")
        return result.stdout.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init)
    }

    @Test(
        "a published app's contact store (EasyDelete) fetches the device's contacts, deletes the user's, recovers them from its archived copies, and is refused a provided one"
    )
    func easyDeleteTour() throws {
        try withTemporaryAppGroup { group in
            try HostRunner.process.succeed(
                ["device", "add", "--given-name", "Ada", "--family-name", "Lovelace", "--phone", "+44 20 7946 0000"],
                in: group)
            try HostRunner.process.succeed(
                ["device", "add", "--given-name", "Grace", "--family-name", "Hopper"], in: group)
            try HostRunner.process.succeed(["enable"], in: group)
            defer { _ = try? HostRunner.process.run(["disable"], in: group) }
            try HostRunner.process.succeed(
                ["add", "--id", "alan", "--given-name", "Alan", "--family-name", "Turing"], in: group)
            try HostRunner.process.succeed(["signal", "--wait"], in: group)
            try HostRunner.process.succeed(["device", "authorization", "not-determined"], in: group)

            let lines = try easyDelete("tour", in: group)
            let refusal = try #require(lines.first { $0.hasPrefix("delete provided ") })
            #expect(
                lines.filter { $0 != refusal } == [
                    "fetched Ada Lovelace, Alan Turing, Grace Hopper", "phones +44 20 7946 0000", "archived 3 of 3",
                    "delete delete", "after delete Alan Turing, Grace Hopper", "recover add",
                    "after recover Ada Lovelace, Alan Turing, Grace Hopper", "recovered phones +44 20 7946 0000",
                ])
            // CNError.recordNotWritable (206): provided contacts are read-only to apps.
            #expect(refusal.hasPrefix("delete provided refused: CNErrorDomain 206 "), "\(refusal)")
            // The recovered contact is the device's again, with its phone number, as contacts-host sees it.
            let listed = try HostRunner.process.succeed(["device", "list"], in: group)
            #expect(listed.contains("Ada Lovelace\t+44 20 7946 0000") && listed.contains("Grace Hopper"), "\(listed)")
        }
    }

    @Test("a published app's contact store (EasyDelete) gets Apple's authorizationDenied when access is denied")
    func easyDeleteDenied() throws {
        try withTemporaryAppGroup { group in
            try HostRunner.process.succeed(["device", "add", "--given-name", "Grace"], in: group)
            try HostRunner.process.succeed(["device", "authorization", "denied"], in: group)
            #expect(try easyDelete("denied", in: group) == ["fetched access denied: CNErrorDomain 100 Access Denied"])
        }
    }
}
