import Foundation
import TestSupport
import Testing

/// Issue 39: the published seed demo project keeps its contacts in `ContactItems.json`; with
/// `enable --backend seed-json` the host's contact commands write that file, and without it
/// `signal` says why nothing arrives.
@Suite("End to end: the seed demo Xcode project and the app's store")
struct XcodeProjectStoreCLITests {
    @Test(
        "the seed demo project: without --backend signal warns naming --backend; with seed-json an added contact arrives after signal --relaunch"
    )
    func seedDemoStore() throws {
        try XcodeHarness.withCopy(of: XcodeFixtures.contactProviderDemo) { project in
            try withTemporaryAppGroup { group in
                let xcodeproj = project + "/ContactProviderDemo.xcodeproj"
                try XcodeHarness.host(["enable", "--xcode-project", xcodeproj], in: group)

                // The App Group database, which this provider never reads: one warning naming the fix.
                try XcodeHarness.host(["add", "--given-name", "Ada", "--family-name", "Lovelace"], in: group)
                let ignored = try XcodeHarness.host(["signal", "--wait", "--json"], in: group)
                #expect(try jsonObject(ignored)["systemCount"] as? Int == 0, "\(ignored)")
                let warnings = ignored.stderrLines.filter { $0.hasPrefix("warning:") }
                #expect(warnings.count == 1, "\(ignored)")
                #expect(warnings.first?.contains("delivered none") == true, "\(ignored)")
                #expect(warnings.first?.contains("enable --backend seed-json") == true, "\(ignored)")
                #expect(warnings.first?.contains("contacts-host log") == true, "\(ignored)")

                // The seed's own file; the registered (built) extension stays.
                let enabled = try XcodeHarness.host(["enable", "--backend", "seed-json"], in: group)
                #expect(enabled.stdout.contains("app store seed-json:ContactItems.json"), "\(enabled)")
                let added = try XcodeHarness.host(
                    ["add", "--given-name", "Grace", "--family-name", "Hopper", "--phone", "+1 555 0100"], in: group)
                let identifier = added.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
                let file = try #require(FileManager.default.contents(atPath: group.path + "/ContactItems.json"))
                #expect(String(decoding: file, as: UTF8.self).contains(identifier))

                // The running provider read its file once, at launch (before the file existed): the
                // warning now names --relaunch, and --relaunch serves the new contact.
                let cached = try XcodeHarness.host(["signal", "--wait"], in: group)
                #expect(cached.stderr.contains("signal --relaunch"), "\(cached)")
                let relaunched = try jsonObject(
                    try XcodeHarness.host(["signal", "--relaunch", "--wait", "--json"], in: group))
                #expect(relaunched["systemCount"] as? Int == 1, "\(relaunched)")
                let system = try jsonArray(try XcodeHarness.host(["system", "list", "--json"], in: group))
                #expect(system.map { $0["identifier"] as? String } == [identifier], "\(system)")
                #expect(system.first?["givenName"] as? String == "Grace")

                let status = try XcodeHarness.host(["status"], in: group)
                #expect(status.stdout.contains("app store (seed-json:ContactItems.json): 1 contact\n"), "\(status)")
                #expect(!status.stdout.contains("stores differ"), "\(status)")
                try XcodeHarness.host(["invalidate"], in: group)
            }
        }
    }
}
