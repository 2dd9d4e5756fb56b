import Foundation
import TestSupport
import Testing

/// Issue 44, item 2: `export` and `list` stream. Its peak memory is bounded by a chunk of contacts (plus the
/// snapshot the kernel maps, whose pages are the file's, and one identifier per contact), not by the
/// decoded address book and its text: before, 1,000,000 contacts took 4.76 GB, 11.6× the store.
@Suite("export and list stream: peak memory bounded by a chunk, not by the address book")
struct ExportMemoryCLITests {
    /// Runs `contacts-host ARGUMENTS` with standard output to `file` under a Python parent that
    /// reports the child's peak resident memory (`getrusage(RUSAGE_CHILDREN).ru_maxrss`: that parent
    /// has no other child).
    private func peakMemory(_ arguments: [String], in group: TemporaryAppGroup, output file: String) throws -> Int {
        let script = """
            import resource, subprocess, sys
            with open(sys.argv[1], "w") as out:
                subprocess.run(sys.argv[2:], stdout=out, check=True)
            print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss * 1024)
            """
        let result = try ProcessRunner.run(
            try PythonTestTools.python(),
            ["-c", script, file, BuiltProducts.path("contacts-host"), "--app-group", group.path] + arguments,
            environment: group.environment)
        #expect(result.exitCode == 0, "\(result)")
        return try #require(Int(result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)), "\(result)")
    }

    @Test(
        "export (JSON and vCard) and list (lines and JSON) of 50,000 contacts stay within the 1-contact export's memory + the mapped snapshot + 16 MiB",
        .enabled(if: PythonTestTools.shouldRun, Comment(rawValue: PythonTestTools.skipReason)))
    func exportIsBounded() throws {
        try withTemporaryAppGroup { small in
            try HostRunner.process.succeed(["add", "--id", "one", "--given-name", "One"], in: small)
            let baseline = try peakMemory(["export"], in: small, output: small.path + "/../cps-export-small.json")
            try withTemporaryAppGroup { group in
                try HostRunner.process.succeed(["generate", "50000", "--seed", "3"], in: group)
                let snapshot = try #require(
                    try FileManager.default.attributesOfItem(atPath: group.path + "/contacts/snapshot.jsonl")[.size]
                        as? Int)
                let bound = baseline + snapshot + 16 << 20
                for (arguments, name) in [
                    (["export"], "json"), (["export", "--vcard"], "vcf"), (["list", "--json"], "list"),
                    (["list"], "lines"),
                ] {
                    let file = group.path + "/../cps-export-\(UUID().uuidString).\(name)"
                    defer { try? FileManager.default.removeItem(atPath: file) }
                    let peak = try peakMemory(arguments, in: group, output: file)
                    #expect(
                        peak <= bound,
                        "\(arguments.joined(separator: " ")): peak \(peak >> 20) MiB > bound \(bound >> 20) MiB (1-contact export \(baseline >> 20) MiB, snapshot \(snapshot >> 20) MiB)"
                    )
                    let text = try String(contentsOfFile: file, encoding: .utf8)
                    switch name {
                    case "json":
                        let document = try #require(
                            try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
                        #expect((document["contacts"] as? [Any])?.count == 50_000)
                    case "list":
                        #expect((try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [Any])?.count == 50_000)
                    case "lines":
                        #expect(text.split(separator: "\n").count == 50_000)
                    default:
                        #expect(text.components(separatedBy: "BEGIN:VCARD").count - 1 == 50_000)
                    }
                }
            }
        }
    }
}
