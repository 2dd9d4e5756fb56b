import Foundation
import TestSupport
import Testing

/// Issue 42, item 4: a path that is not UTF-8 is refused, never rewritten with U+FFFD into another path.
@Suite("Reliability: a non-UTF-8 --app-group or $CONTACT_PROVIDER_APP_GROUP is refused, never rewritten")
struct NonUTF8PathCLITests {
    /// Runs `executable ARGS…` through `sh`, where `printf` puts the byte 0xE9 (Latin-1 "é", not UTF-8)
    /// after `$APP_GROUP_PREFIX` in the place of `@`.
    private func run(_ executable: String, _ arguments: [String], prefix: String, environmentByte: Bool) throws
        -> ProcessResult
    {
        var environment = ProcessInfo.processInfo.environment
        environment["APP_GROUP_PREFIX"] = prefix
        environment.removeValue(forKey: "CONTACT_PROVIDER_APP_GROUP")
        let words = arguments.map { $0 == "@" ? "\"$(printf '%s\\351' \"$APP_GROUP_PREFIX\")\"" : "'\($0)'" }
        let assignment =
            environmentByte ? "CONTACT_PROVIDER_APP_GROUP=\"$(printf '%s\\351' \"$APP_GROUP_PREFIX\")\" " : ""
        let script = "\(assignment)exec '\(executable)' \(words.joined(separator: " "))"
        return try ProcessRunner.run("/bin/sh", ["-c", script], environment: environment)
    }

    @Test("contacts-host --app-group with a Latin-1 byte: exit 2 naming the argument, no directory created")
    func hostFlag() throws {
        try withTemporaryAppGroup { group in
            let prefix = group.path + "/caf"
            let result = try run(
                BuiltProducts.path("contacts-host"), ["--app-group", "@", "add", "--given-name", "Ada"], prefix: prefix,
                environmentByte: false)
            #expect(result.exitCode == 2, "\(result)")
            #expect(result.stderr.contains("argument 2 is not valid UTF-8"), "\(result)")
            #expect(result.stderr.contains("caf\\xE9"), "\(result)")
            let created = try FileManager.default.contentsOfDirectory(atPath: group.path).filter { $0.hasPrefix("caf") }
            #expect(created.isEmpty, "a directory was created: \(created)")
        }
    }

    @Test("$CONTACT_PROVIDER_APP_GROUP with a Latin-1 byte: the host and a provider refuse it, naming the variable")
    func environmentVariable() throws {
        try withTemporaryAppGroup { group in
            let prefix = group.path + "/caf"
            for executable in [BuiltProducts.path("contacts-host"), BuiltProducts.path("demo-provider")] {
                let arguments = executable.hasSuffix("contacts-host") ? ["status"] : ["--foreground"]
                let result = try run(executable, arguments, prefix: prefix, environmentByte: true)
                #expect(result.exitCode == 2, "\(executable): \(result)")
                #expect(result.stderr.contains("$CONTACT_PROVIDER_APP_GROUP is not valid UTF-8"), "\(result)")
            }
            let created = try FileManager.default.contentsOfDirectory(atPath: group.path).filter { $0.hasPrefix("caf") }
            #expect(created.isEmpty, "a directory was created: \(created)")
        }
    }
}
