import AppGroupStore
import Foundation
import Glibc
import TestSupport
import Testing

/// Modes, symlinks, foreign files and path-like identifiers, through the built executables.
@Suite("Reliability: permissions and paths (end to end)")
struct ReliabilityPathCLITests {
    /// Checks every entry of the App Group: directories 0700, files and FIFOs 0600, all ours, nothing else.
    static func expectPrivateTree(
        _ group: TemporaryAppGroup, _ stage: String, sourceLocation: SourceLocation = #_sourceLocation
    ) -> Int {
        let tree = ReliabilityTree.walk(group.path, readContents: false)
        for (path, entry) in tree.sorted(by: { $0.key < $1.key }) {
            let shown = "\(stage): \(path.isEmpty ? "." : path) is a \(entry)"
            #expect(entry.uid == geteuid(), "\(shown)", sourceLocation: sourceLocation)
            switch entry.type {
            case S_IFDIR: #expect(entry.mode == 0o700, "\(shown)", sourceLocation: sourceLocation)
            case S_IFREG, S_IFIFO: #expect(entry.mode == 0o600, "\(shown)", sourceLocation: sourceLocation)
            default:
                Issue.record(
                    "\(shown): only directories, regular files and FIFOs belong in an App Group",
                    sourceLocation: sourceLocation)
            }
        }
        return tree.count
    }

    @Test(
        "After enable, add, signal --wait (and after the provider stops) every directory is 0700 and every file and FIFO 0600"
    )
    func modes() throws {
        try withTemporaryAppGroup { group in
            try host(["enable"], in: group)
            try host(["add", "--given-name", "Ada", "--phone", "mobile=+44 20 7946 0000"], in: group)
            try host(["signal", "--wait", "--trace"], in: group)
            try host(["step", "--list"], in: group)
            #expect(group.providerPID() != nil)
            let running = Self.expectPrivateTree(group, "provider running")
            let tree = ReliabilityTree.walk(group.path, readContents: false)
            for expected in [
                "contacts/snapshot.jsonl", "contacts/journal.jsonl", "contacts/lock",
                "domains/defaultDomain/domain.json",
                "domains/defaultDomain/store/journal.jsonl", "run/defaultDomain/requests.fifo",
                "run/defaultDomain/provider.lock",
                "run/defaultDomain/provider.log",
            ] {
                #expect(tree[expected] != nil, "\(expected) missing: \(tree.keys.sorted())")
            }
            #expect(tree["run/defaultDomain/requests.fifo"]?.type == S_IFIFO)
            try stopProvider(group)
            let stopped = Self.expectPrivateTree(group, "provider stopped")
            print(
                "permissions: \(running) entries with the provider running, \(stopped) after it stopped: all 0700/0600, all ours"
            )
        }
    }

    /// Expects an operational failure (exit 1) whose single stderr line names `path` and `reason`.
    static func expectRefusal(
        _ result: ProcessResult, _ path: String, _ reason: String, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        #expect(result.exitCode == 1, "\(result)", sourceLocation: sourceLocation)
        #expect(result.stdout.isEmpty, "\(result)", sourceLocation: sourceLocation)
        let lines = result.stderrLines
        #expect(lines.count == 1, "\(result)", sourceLocation: sourceLocation)
        #expect(lines.first?.contains(path) == true, "should name \(path): \(result)", sourceLocation: sourceLocation)
        #expect(
            lines.first?.contains(reason) == true, "should say \(reason): \(result)", sourceLocation: sourceLocation)
    }

    @Test(
        "journal.jsonl, snapshot.jsonl or the lock as a symlink to a file outside the App Group: list, get, add and delete refuse, the target is untouched",
        arguments: [
            "contacts/journal.jsonl", "contacts/snapshot.jsonl", "contacts/lock",
            "domains/defaultDomain/store/journal.jsonl",
        ])
    func storeSymlink(relative: String) throws {
        try withTemporaryAppGroups { group, outside in
            try host(["enable"], in: group)
            try host(["add", "--given-name", "Ada", "--id", "ada"], in: group)
            try host(["signal", "--wait"], in: group)
            try stopProvider(group)
            let path = group.path + "/" + relative
            let target = outside.path + "/precious.txt"
            try Data("outside the App Group\n".utf8).write(to: URL(fileURLWithPath: target))
            #expect(unlink(path) == 0)
            #expect(symlink(target, path) == 0)

            let commands: [[String]] =
                relative.hasPrefix("domains/")
                ? [["system", "list"], ["status"], ["system", "search", "--name", "Ada"]]
                : [
                    ["list"], ["get", "ada"], ["add", "--given-name", "Eve"], ["delete", "ada"],
                    ["update", "ada", "--note", "x"],
                ]
            for command in commands {
                let result = try HostRunner.process.run(command, in: group)
                Self.expectRefusal(result, path, "symbolic link")
            }
            #expect(
                FileManager.default.contents(atPath: target) == Data("outside the App Group\n".utf8),
                "the symlink's target was modified")
            var info = stat()
            #expect(lstat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFLNK, "the symlink was replaced")
            group.cleanUp()
            #expect(
                FileManager.default.contents(atPath: target) != nil, "cleaning up the App Group followed the symlink")
            print("symlink: \(relative) refused by \(commands.count) commands, target untouched")
        }
    }

    @Test(
        "requests.fifo as a symlink or a regular file: signal refuses naming the path, no provider starts, and a provider started by hand refuses too",
        arguments: ["symlink", "regular file"])
    func requestFIFOReplaced(kind: String) throws {
        try withTemporaryAppGroups { group, outside in
            try host(["enable"], in: group)
            try host(["add", "--given-name", "Ada"], in: group)
            try host(["signal", "--wait"], in: group)
            try stopProvider(group)
            let fifo = group.path + "/run/defaultDomain/requests.fifo"
            let target = outside.path + "/not-a-pipe.txt"
            let original = Data("do not write here\n".utf8)
            try original.write(to: URL(fileURLWithPath: target))
            #expect(unlink(fifo) == 0)
            let reason: String
            if kind == "symlink" {
                #expect(symlink(target, fifo) == 0)
                reason = "symbolic link"
            } else {
                try original.write(to: URL(fileURLWithPath: fifo))
                #expect(chmod(fifo, 0o600) == 0)
                reason = "is not a FIFO"
            }

            Self.expectRefusal(
                try HostRunner.process.run(["signal", "--wait", "--timeout", "20"], in: group), fifo, reason)
            Self.expectRefusal(try HostRunner.process.run(["signal"], in: group), fifo, reason)
            #expect(group.providerPID() == nil, "a provider was started on a refused FIFO")

            // The provider itself refuses the path too (bounded by its idle timeout should it not).
            let provider = try ProcessRunner.run(
                BuiltProducts.path("demo-provider"),
                ["--app-group", group.path, "--domain", "defaultDomain", "--idle-timeout", "1"],
                environment: group.environment)
            #expect(provider.exitCode == 1, "\(provider)")
            #expect(provider.stderr.contains(fifo) && provider.stderr.contains(reason), "\(provider)")
            #expect(group.providerPID() == nil)

            #expect(FileManager.default.contents(atPath: target) == original)
            #expect(FileManager.default.contents(atPath: kind == "symlink" ? target : fifo) == original)
            print("fifo: requests.fifo as a \(kind) refused by signal and by the provider")
        }
    }

    @Test(
        "Files and the contacts directory owned by another uid are refused naming 'owned by uid' (root only)",
        arguments: [
            "contacts/journal.jsonl", "contacts/snapshot.jsonl", "contacts/lock", "contacts",
            "run/defaultDomain/requests.fifo",
        ])
    func foreignOwner(relative: String) throws {
        try withTemporaryAppGroup { group in
            try host(["enable"], in: group)
            try host(["add", "--given-name", "Ada", "--id", "ada"], in: group)
            try host(["signal", "--wait"], in: group)
            try stopProvider(group)
            let path = group.path + "/" + relative
            let before = FileManager.default.contents(atPath: path)
            guard chown(path, 12345, 12345) == 0 else {
                // Not root (CI runs as root): a foreign file cannot be made, so the refusal of a symlink
                // at the same path stands in for it; chown succeeding without root would be a surprise.
                #expect(geteuid() != 0, "chown failed as root: errno \(errno)")
                if relative != "contacts" {
                    #expect(unlink(path) == 0 && symlink("/nonexistent", path) == 0)
                    let command = relative.hasSuffix(".fifo") ? ["signal"] : ["list"]
                    Self.expectRefusal(try HostRunner.process.run(command, in: group), path, "symbolic link")
                }
                return
            }
            if geteuid() != 0 { Issue.record("chown to another uid succeeded without root") }
            let commands: [[String]] =
                relative.hasSuffix(".fifo")
                ? [["signal"], ["signal", "--wait", "--timeout", "20"]] : [["list"], ["add", "--given-name", "Eve"]]
            for command in commands {
                Self.expectRefusal(try HostRunner.process.run(command, in: group), path, "owned by uid 12345")
            }
            #expect(group.providerPID() == nil)
            var info = stat()
            #expect(lstat(path, &info) == 0 && info.st_uid == 12345, "the foreign file was replaced")
            if relative != "contacts", !relative.hasSuffix(".fifo") {
                #expect(FileManager.default.contents(atPath: path) == before, "a foreign file was modified")
            }
            print("foreign owner: \(relative) refused by \(commands.count) commands")
        }
    }

    @Test(
        "Path-like contact identifiers are plain data: nothing appears outside the App Group; control characters are usage errors"
    )
    func pathLikeIdentifiers() throws {
        // The App Group is a subdirectory of a private directory, so everything around it can be compared.
        try withTemporaryAppGroup { outer in
            let appGroup = outer.path + "/group"
            let parentOfOuter = (outer.path as NSString).deletingLastPathComponent
            func run(_ arguments: [String]) throws -> ProcessResult {
                try HostRunner.process.run(["--app-group", appGroup] + arguments, in: outer)
            }
            #expect(try run(["add", "--given-name", "Seed", "--id", "seed"]).exitCode == 0)
            func outside() -> [String: ReliabilityTreeEntry] {
                ReliabilityTree.walk(outer.path).filter { $0.key != "group" && !$0.key.hasPrefix("group/") }
            }
            let before = outside()
            let passwd = FileManager.default.contents(atPath: "/etc/passwd")
            let absExisted = FileManager.default.fileExists(atPath: "/abs")
            let tmpXExisted = FileManager.default.fileExists(atPath: "/tmp/x")
            let siblingsBefore = Set((try? FileManager.default.contentsOfDirectory(atPath: parentOfOuter)) ?? []).filter
            { $0.hasPrefix("etc") || $0 == "abs" }

            let identifiers = [
                "../../etc/passwd", "/abs/path", "..", "../../../../../../tmp/x", "a/../../b", "./.", "~root",
                "$(touch x)",
            ]
            for identifier in identifiers {
                let added = try run(["add", "--given-name", "Path", "--id", identifier])
                #expect(added.exitCode == 0 && added.output == identifier, "\(identifier): \(added)")
                let got = try run(["get", identifier, "--json"])
                #expect(got.exitCode == 0, "\(identifier): \(got)")
                let object = try JSONSerialization.jsonObject(with: Data(got.stdout.utf8)) as? [String: Any]
                #expect(object?["identifier"] as? String == identifier, "\(identifier): \(got)")
            }
            let listed = try contactsByID(try run(["list", "--json"]))
            #expect(Set(listed.keys) == Set(identifiers + ["seed"]))
            #expect(try run(["update", "../../etc/passwd", "--note", "still data"]).exitCode == 0)
            #expect(try run(["delete", "/abs/path", ".."]).exitCode == 0)
            #expect(try run(["get", "/abs/path"]).exitCode == 1)

            #expect(
                outside() == before,
                "something changed outside the App Group: \(ReliabilityTree.difference(before, outside()))")
            #expect(FileManager.default.contents(atPath: "/etc/passwd") == passwd)
            #expect(FileManager.default.fileExists(atPath: "/abs") == absExisted)
            #expect(FileManager.default.fileExists(atPath: "/tmp/x") == tmpXExisted)
            let siblingsAfter = Set((try? FileManager.default.contentsOfDirectory(atPath: parentOfOuter)) ?? []).filter
            { $0.hasPrefix("etc") || $0 == "abs" }
            #expect(siblingsAfter == siblingsBefore)
            let names = try FileManager.default.contentsOfDirectory(atPath: appGroup + "/contacts").sorted()
            // The store's own files (the name index is written with every snapshot), nothing named after a contact.
            #expect(names == ["journal.jsonl", "lock", "name-index", "snapshot.jsonl"], "\(names)")

            // Control characters cannot be identifiers (a NUL cannot even be passed in argv; the library
            // rejects it, see ReliabilityPathTests in UnitTests).
            for bad in ["a\u{1}b", "tab\tid", "new\nline", "esc\u{1B}[0m", "del\u{7F}", "cr\r"] {
                let result = try run(["add", "--given-name", "Bad", "--id", bad])
                #expect(result.exitCode == 2, "\(bad.debugDescription): \(result)")
                #expect(result.stdout.isEmpty)
                #expect(result.stderrLines.count == 1 && result.stderr.contains("--id"), "\(result)")
            }
            #expect(try AppDatabase(appGroup: AppGroup(path: appGroup)).all().count == identifiers.count + 1 - 2)
            #expect(throws: StoreError.self) {
                try AppDatabase(appGroup: AppGroup(path: appGroup)).add(ContactRecord(identifier: "nul\0byte"))
            }
            print(
                "identifiers: \(identifiers.count) path-like identifiers stored as data, nothing outside the App Group changed; 6 control-character ids refused"
            )
        }
    }
}
