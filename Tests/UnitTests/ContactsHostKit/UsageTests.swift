import AppGroupStore
import ContactsHostKit
import Foundation
import TestSupport
import Testing

/// Usage errors, run in process through `HostTool.main(arguments:output:)` with the test's own App
/// Group given as `--app-group`: the App Group travels in the command's context, never as process-wide
/// state, so these run side by side without starting a process each.
@Suite("contacts-host usage errors, in process")
struct UsageTests {
    @Test("Running with no command prints the help on stderr and exits 2")
    func noCommand() async {
        let result = await HostRunner.inProcess.run([])
        #expect(result.exitCode == 2)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.hasPrefix("USAGE: contacts-host"))
    }

    @Test(
        "Bad command-line input exits 2 with one line on stderr, nothing on stdout and the database untouched",
        arguments: [
            (["frobnicate"], "unknown command 'frobnicate'"),
            (["add", "--given-name", "X", "--bogus"], "unknown option '--bogus'"),
            (["add", "-x", "--given-name", "X"], "unknown option '-x'"),
            (["list", "--verbose"], "unknown option '--verbose'"),
            (["add", "--given-name"], "option '--given-name' needs a value"),
            (["add", "--given-name", "--family-name", "F"], "option '--given-name' needs a value"),
            (["add", "--given-name", "A", "--given-name", "B"], "given more than once"),
            (
                ["add", "--given-name", "X", "--birthday", "1990-13-01"],
                "option '--birthday' expects YYYY-MM-DD or --MM-DD"
            ),
            (["add", "--given-name", "X", "--birthday", "May 17"], "option '--birthday'"),
            (["update", "seed", "--birthday", "--5-17"], "option '--birthday'"),
            (["add", "--phone", "1"], "a contact needs --given-name, --family-name or --organization"),
            (["add", "--given-name", "X", "--phone", "work="], "option '--phone' needs a non-empty value"),
            (["add", "--given-name", "X", "--id", ""], "option '--id'"),
            (["update", "seed"], "nothing to change"),
            (["get"], "missing argument ID"),
            (["update", "--given-name", "X"], "missing argument ID"),
            (["delete"], "expected at least 1 ID argument(s)"),
            (["import"], "missing argument FILE"),
            (["get", "seed", "extra"], "unexpected argument 'extra'"),
            (["add", "positional", "--given-name", "X"], "unexpected argument 'positional'"),
            (["list", "extra"], "unexpected argument 'extra'"),
            (["reset", "now"], "unexpected argument 'now'"),
            (["export", "out.json"], "unexpected argument 'out.json'"),
            (["import", "a.json", "b.json"], "unexpected argument 'b.json'"),
            (["list", "--json=yes"], "takes no value"),
            (["--app-group"], "option '--app-group' needs a value"),
            (
                ["add", "--given-name", "X", "--phone", "call me"],
                "option '--phone' needs a number with at least one digit"
            ),
            (
                ["add", "--given-name", "X", "--phone", "work=n/a"],
                "option '--phone' needs a number with at least one digit"
            ),
            (
                ["update", "seed", "--email", "ada.example.com"],
                "option '--email' needs an address like name@example.com"
            ),
            (["add", "--given-name", "X", "--email", "work=ada@"], "option '--email' needs an address"),
            (
                ["add", "--given-name", "X", "--phone", "moblie=+1 555"],
                "label 'moblie' looks like a misspelt 'mobile'"
            ),
            (["add", "--given-name", "X", "--email", "wrok=a@b.c"], "label 'wrok' looks like a misspelt 'work'"),
            (["update", "seed", "--url", "homepgae=https://example.com"], "looks like a misspelt 'homepage'"),
        ])
    func usageError(arguments: [String], message: String) async throws {
        try await withTemporaryAppGroup { group async throws in
            // `--app-group=PATH` goes last (HostRunner.inProcess), so the case `--app-group` without a value stays intact.
            await HostRunner.inProcess.succeed(["add", "--id", "seed", "--given-name", "Seed"], in: group)
            let before = CLIHarness.databaseFiles(group)
            let result = await HostRunner.inProcess.run(arguments, in: group)
            CLIHarness.expectUsageError(result, mentioning: message)
            #expect(CLIHarness.databaseFiles(group) == before)
            #expect(try AppDatabase(appGroup: group.appGroup).all().map(\.identifier) == ["seed"])
        }
    }
}
