import Foundation
import TestSupport
import Testing

/// Issue 39: `enable --backend KIND` makes a provider's own store the app's store, and the contact
/// commands edit it through the kit's backends; `signal` says when nothing arrives.
@Suite("End to end: the app's store chosen with enable --backend")
struct AppStoreCLITests {
    @Test(
        "the vdir example through its exec: adapter: add, import, update and delete reach the provider's own store and the system"
    )
    func vdirThroughExecAdapter() throws {
        try withTemporaryAppGroup { group in
            let adapter = "exec:" + BuiltProducts.path("vdir-adapter")
            let enabled = try host(
                ["enable", "--extension", BuiltProducts.path("vdir-provider"), "--backend", adapter], in: group)
            #expect(enabled.stdout.contains("app store \(adapter)"), "\(enabled)")
            let added = try host(["add", "--given-name", "Ada", "--family-name", "Lovelace", "--id", "ada"], in: group)
            #expect(added.stdout == "ada\n", "\(added)")
            // Written where the provider reads (a .vcf file in its directory), not in the App Group database.
            #expect(
                try jsonArray(try host(["list", "--json"], in: group)).map { $0["identifier"] as? String } == ["ada"])
            #expect(try CLIHarness.database(group).store.summary().count == 0)

            let file = group.path + "/import.json"
            try Data(#"[{"identifier": "grace", "givenName": "Grace", "familyName": "Hopper"}]"#.utf8).write(
                to: URL(fileURLWithPath: file))
            let imported = try jsonObject(try host(["import", file, "--json"], in: group))
            #expect(imported["added"] as? Int == 1 && imported["updated"] as? Int == 0, "\(imported)")
            try host(["update", "ada", "--job-title", "Mathematician"], in: group)

            let sync = try jsonObject(try host(["signal", "--wait", "--json"], in: group))
            #expect(sync["systemCount"] as? Int == 2, "\(sync)")
            let system = try jsonArray(try host(["system", "list", "--json"], in: group))
            #expect(Set(system.compactMap { $0["givenName"] as? String }) == ["Ada", "Grace"])
            #expect(system.first { $0["identifier"] as? String == "ada" }?["jobTitle"] as? String == "Mathematician")

            try host(["delete", "grace"], in: group)
            let afterDelete = try host(["signal", "--wait", "--json"], in: group)
            #expect(try jsonObject(afterDelete)["systemCount"] as? Int == 1, "\(afterDelete)")
            #expect(!afterDelete.stderr.contains("warning:"), "the stores agree: \(afterDelete)")

            let status = try jsonObject(try host(["status", "--json"], in: group))
            #expect(status["store"] as? String == adapter, "\(status)")
            #expect(status["appCount"] as? Int == 1 && status["systemCount"] as? Int == 1, "\(status)")
            try host(["invalidate"], in: group)
        }
    }

    @Test("an adapter that cannot start is refused by enable, naming it, and the domain keeps its store")
    func adapterThatFails() throws {
        try withTemporaryAppGroup { group in
            let missing = "exec:" + group.path + "/no-such-adapter"
            let refused = try host(["enable", "--backend", missing], in: group, expect: 1)
            #expect(refused.stdout.isEmpty, "\(refused)")
            #expect(refused.stderr.contains("adapter command not found"), "\(refused)")
            #expect(refused.stderr.contains("no-such-adapter"), "\(refused)")
            #expect(try jsonObject(try host(["status", "--json"], in: group))["store"] as? String == "app-database")
            // An unknown kind is a usage error that lists the kinds.
            let unknown = try host(["enable", "--backend", "sqlite"], in: group, expect: 2)
            #expect(unknown.stderr.contains("known: app-database, seed-json[:FILE], exec:COMMAND"), "\(unknown)")
        }
    }

    @Test("a CardDAV store is remembered and named by status; a contact command that cannot reach it names it")
    func cardDAVStoreUnreachable() throws {
        try withTemporaryAppGroup { group in
            let store = "carddav:http://127.0.0.1:9/dav/book/"
            try host(["enable", "--backend", store], in: group)
            #expect(try jsonObject(try host(["status", "--json"], in: group))["store"] as? String == store)
            // Run by contacts-host-conformance (it links networking); nothing listens on port 9.
            let refused = try host(["add", "--given-name", "Ada"], in: group, expect: 1)
            CLIHarness.expectFailure(
                refused, mentioning: ["the app's store could not", "127.0.0.1:9", "enable --backend"])
            try host(["enable", "--backend", "app-database"], in: group)
            try host(["add", "--given-name", "Ada"], in: group)
            #expect(try CLIHarness.database(group).store.summary().count == 1)
        }
    }

    @Test(
        "the seed demo (built here) with seed-json: generate, import, get, search, export and reset edit ContactItems.json; status shows a difference"
    )
    func seedJSONCommands() throws {
        try withTemporaryAppGroup { group in
            try host(
                ["enable", "--extension", BuiltProducts.path("seed-demo-provider"), "--backend", "seed-json"],
                in: group)
            try host(["generate", "5", "--seed", "3"], in: group)
            let vcard = group.path + "/one.vcf"
            try "BEGIN:VCARD\r\nVERSION:3.0\r\nUID:lin\r\nN:Clark;Lin;;;\r\nFN:Lin Clark\r\nEND:VCARD\r\n".write(
                toFile: vcard, atomically: true, encoding: .utf8)
            let imported = try host(["import", vcard], in: group)
            #expect(imported.stdout.contains("imported 1 contact (1 added, 0 updated, 0 skipped)"), "\(imported)")
            let file = try #require(FileManager.default.contents(atPath: group.path + "/ContactItems.json"))
            let items = try #require(try JSONSerialization.jsonObject(with: file) as? [[String: Any]])
            #expect(items.count == 6, "\(items)")
            #expect(try host(["get", "lin"], in: group).stdout.contains("name: Lin Clark"))
            #expect(try jsonArray(try host(["search", "--name", "lin", "--json"], in: group)).count >= 1)
            let export = try jsonObject(try host(["export"], in: group))
            #expect((export["contacts"] as? [Any])?.count == 6, "\(export)")
            #expect(try CLIHarness.database(group).store.summary().count == 0, "the App Group database is untouched")

            let sync = try host(["signal", "--wait", "--json"], in: group)
            #expect(try jsonObject(sync)["systemCount"] as? Int == 6, "\(sync)")
            #expect(!sync.stderr.contains("warning:"), "\(sync)")
            try host(["add", "--given-name", "Late", "--id", "late"], in: group)
            let status = try host(["status"], in: group)
            #expect(status.stdout.contains("app store (seed-json:ContactItems.json): 7 contacts\n"), "\(status)")
            #expect(status.stdout.contains("stores differ: app store 7 contacts vs system 6"), "\(status)")
            // The running seed demo read its file at launch: the next sync serves the old list, and
            // says so; --relaunch ends it first, so the new launch reads the file again.
            let cached = try host(["signal", "--wait", "--json"], in: group)
            #expect(try jsonObject(cached)["systemCount"] as? Int == 6, "\(cached)")
            #expect(cached.stderrLines.filter { $0.hasPrefix("warning:") }.count == 1, "\(cached)")
            #expect(cached.stderr.contains("'contacts-host signal --relaunch --wait'"), "\(cached)")
            let relaunched = try host(["signal", "--relaunch", "--wait", "--json"], in: group)
            #expect(try jsonObject(relaunched)["systemCount"] as? Int == 7, "\(relaunched)")
            #expect(!relaunched.stderr.contains("warning:"), "\(relaunched)")

            let salvage = try host(["export", "--salvage"], in: group, expect: 1)
            CLIHarness.expectFailure(salvage, mentioning: ["--salvage reads a damaged App Group database"])
            try host(["reset"], in: group)
            #expect(try host(["list"], in: group).stdout.isEmpty)
            let emptied = try #require(FileManager.default.contents(atPath: group.path + "/ContactItems.json"))
            #expect(
                try JSONSerialization.jsonObject(with: emptied) as? [Any] == nil
                    || (try JSONSerialization.jsonObject(with: emptied) as? [Any])?.isEmpty == true)
            try host(["invalidate"], in: group)
        }
    }

    @Test(
        "a seed-json file that is not the seed's array: enable and add fail naming the file, and it is left as it was")
    func malformedSeedFile() throws {
        try withTemporaryAppGroup { group in
            let path = group.path + "/ContactItems.json"
            let damaged = Data(#"{"not": "an array"}"#.utf8)
            try damaged.write(to: URL(fileURLWithPath: path))
            let refused = try host(["enable", "--backend", "seed-json"], in: group, expect: 1)
            CLIHarness.expectFailure(refused, mentioning: [path, "not a seed-demo ContactItems.json array"])
            #expect(try jsonObject(try host(["status", "--json"], in: group))["store"] as? String == "app-database")

            // Damaged after it was chosen: the contact commands say so and write nothing.
            try FileManager.default.removeItem(atPath: path)
            try host(["enable", "--backend", "seed-json"], in: group)
            try damaged.write(to: URL(fileURLWithPath: path))
            let add = try host(["add", "--given-name", "Ada"], in: group, expect: 1)
            CLIHarness.expectFailure(add, mentioning: [path, "enable --backend"])
            #expect(FileManager.default.contents(atPath: path) == damaged)
        }
    }
}
