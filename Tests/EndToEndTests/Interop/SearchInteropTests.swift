import Foundation
import TestSupport
import Testing

/// `contacts-host search` and `contacts-host system search`, run as the built binary.
@Suite("Interop: search and system search through the built contacts-host")
struct SearchInteropTests {
    /// Four contacts; each query below matches a known subset.
    private func seed(_ group: TemporaryAppGroup) throws {
        try host(
            [
                "add", "--id", "john", "--given-name", "John", "--family-name", "Appleseed",
                "--phone", "mobile=+1 408 555 0101", "--email", "work=john@example.com",
            ], in: group)
        try host(
            ["add", "--id", "zoe", "--given-name", "Zoë", "--family-name", "Žižek", "--email", "zoe@example.org"],
            in: group)
        try host(
            [
                "add", "--id", "joanna", "--given-name", "Joanna", "--family-name", "Smith", "--organization",
                "Apple Orchards",
            ],
            in: group)
        try host(
            ["add", "--id", "jim", "--given-name", "Jim", "--family-name", "Appleby", "--phone", "+44 20 7946 0958"],
            in: group)
    }

    /// Queries and the identifiers they must find, in database order.
    static let queries: [(arguments: [String], expected: [String])] = [
        (["--name", "jo app"], ["john", "joanna"]),  // every word a prefix of some name; order of words free
        (["--name", "APPLESEED"], ["john"]),
        (["--name", "ZOE"], ["zoe"]),  // diacritics and case ignored
        (["--name", "zize"], ["zoe"]),
        (["--name", "app"], ["john", "joanna", "jim"]),
        (["--email", "JOHN@EXAMPLE.COM"], ["john"]),
        (["--phone", "(408) 555-0101"], ["john"]),
        (["--phone", "4085550101"], ["john"]),
        (["--phone", "020 7946 0958"], []),  // a trunk prefix is not understood (documented)
        (["--phone", "7946 0958"], ["jim"]),
    ]

    @Test("search --name/--email/--phone finds the expected contacts; --json prints a JSON array")
    func searchFinds() throws {
        try withTemporaryAppGroup { group in
            try seed(group)
            for (arguments, expected) in Self.queries {
                let json = try host(["search"] + arguments + ["--json"], in: group)
                #expect(try InteropFixtures.identifiers(json) == expected, "search \(arguments)")
                #expect(json.stderr.isEmpty, "\(json)")

                // The text form prints one line per match, identifier first.
                let text = try host(["search"] + arguments, in: group)
                let ids = text.stdout.split(separator: "\n").map { String($0.split(separator: "\t").first ?? "") }
                #expect(ids == expected, "search \(arguments) (text)")
            }
        }
    }

    @Test("search --json prints the same objects as get --json")
    func searchJSONShape() throws {
        try withTemporaryAppGroup { group in
            try seed(group)
            let found = try jsonArray(try host(["search", "--name", "ZOE", "--json"], in: group))
            #expect(found.count == 1)
            let single = try jsonObject(try host(["get", "zoe", "--json"], in: group))
            let lhs = try JSONSerialization.data(withJSONObject: try #require(found.first), options: [.sortedKeys])
            let rhs = try JSONSerialization.data(withJSONObject: single, options: [.sortedKeys])
            #expect(lhs == rhs)
            #expect(single["givenName"] as? String == "Zoë")
        }
    }

    @Test("search with no match exits 0 with empty stdout (and [] with --json)")
    func searchNoMatch() throws {
        try withTemporaryAppGroup { group in
            try seed(group)
            for arguments in [
                ["--name", "nobody"], ["--email", "nobody@example.com"], ["--phone", "+1 999 999 9999"],
            ] {
                let result = try host(["search"] + arguments, in: group)
                #expect(result.stdout.isEmpty, "\(result)")
                #expect(result.stderr.isEmpty, "\(result)")
                let json = try host(["search"] + arguments + ["--json"], in: group)
                #expect(try jsonArray(json).isEmpty, "\(json)")
            }
            // An empty database is not an error either.
            try withTemporaryAppGroup { empty throws in
                #expect(try host(["search", "--name", "john"], in: empty).stdout.isEmpty)
            }
        }
    }

    @Test(
        "search needs exactly one of --name, --email, --phone (exit 2)",
        arguments: [
            ["search"], ["search", "--json"], ["search", "--name", "jo", "--email", "john@example.com"],
            ["search", "--email", "a@b.c", "--phone", "555"], ["search", "--name", "  "],
            ["system", "search"], ["system", "search", "--name", "jo", "--phone", "555"],
        ])
    func searchUsage(_ arguments: [String]) throws {
        try withTemporaryAppGroup { group in
            try seed(group)
            CLIHarness.expectUsageError(try HostRunner.process.run(arguments, in: group))
        }
    }

    @Test("system search finds nothing before a sync and the same contacts as search after one")
    func systemSearch() throws {
        try withTemporaryAppGroup { group in
            try seed(group)
            // Before the domain exists at all, and after enable but before any sync: nothing.
            #expect(try host(["system", "search", "--name", "jo"], in: group).stdout.isEmpty)
            try host(["enable"], in: group)
            for (arguments, _) in Self.queries {
                #expect(
                    try host(["system", "search"] + arguments, in: group).stdout.isEmpty, "system search \(arguments)")
            }
            #expect(try jsonArray(try host(["system", "search", "--name", "jo", "--json"], in: group)).isEmpty)

            let report = try jsonObject(try host(["signal", "--wait", "--json"], in: group))
            #expect(report["systemCount"] as? Int == 4)
            #expect(group.providerPID() != nil, "signal should have launched the provider")
            for (arguments, expected) in Self.queries {
                let app = try host(["search"] + arguments + ["--json"], in: group)
                let system = try host(["system", "search"] + arguments + ["--json"], in: group)
                #expect(try InteropFixtures.identifiers(system) == expected, "system search \(arguments)")
                #expect(
                    try InteropFixtures.canonicalJSON(system.stdout) == InteropFixtures.canonicalJSON(app.stdout),
                    "system search \(arguments) differs from search")
            }

            // A change is visible to system search only after the next sync.
            try host(["delete", "john"], in: group)
            #expect(
                try InteropFixtures.identifiers(try host(["system", "search", "--name", "john", "--json"], in: group))
                    == ["john"])
            try host(["signal", "--wait"], in: group)
            #expect(try host(["system", "search", "--name", "john"], in: group).stdout.isEmpty)

            try stopProvider(group)
            #expect(group.providerPID() == nil)
        }
    }
}
