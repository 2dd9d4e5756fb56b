import AppGroupStore
import ContactProviderSystem
import Foundation
import Glibc
import TestSupport
import Testing

/// Symlinks, non-FIFOs, foreign owners and escaping identifiers, at the library level.
@Suite("Reliability: unsafe paths and identifiers (library)")
struct ReliabilityPathTests {
    static func write(_ text: String, to path: String) throws {
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
    }

    static func bytes(_ path: String) -> Data? { FileManager.default.contents(atPath: path) }

    static func exists(_ path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) == 0
    }

    /// Expects `body` to throw a `StoreError` whose description names `path` and contains `reason`.
    static func expectRefused(
        _ path: String, _ reason: String, sourceLocation: SourceLocation = #_sourceLocation, _ body: () throws -> Void
    ) {
        do {
            try body()
            Issue.record("\(path) was not refused (expected '\(reason)')", sourceLocation: sourceLocation)
        } catch {
            // The store's files refuse with StoreError, the FIFOs with their own PipeError.
            guard let described = (error as? StoreError)?.description ?? (error as? PipeError)?.description else {
                Issue.record("not a StoreError or PipeError: \(error)", sourceLocation: sourceLocation)
                return
            }
            #expect(described.contains(path), "\(error)", sourceLocation: sourceLocation)
            #expect(described.contains(reason), "\(error)", sourceLocation: sourceLocation)
        }
    }

    @Test(
        "journal.jsonl, snapshot.jsonl or lock as a symlink (to a file outside, or dangling) is refused and the target is untouched",
        arguments: ["journal.jsonl", "snapshot.jsonl", "lock"], [false, true])
    func storeFileSymlink(file: String, dangling: Bool) throws {
        try withTemporaryAppGroups { group, outside in
            try AppDatabase(appGroup: group.appGroup).add(ContactRecord(identifier: "a"))
            let path = group.appGroup.contactsDirectory + "/" + file
            let target = outside.path + "/target-" + file
            if !dangling { try Self.write("outside file: do not touch\n", to: target) }
            let targetBefore = Self.bytes(target)
            #expect(unlink(path) == 0)
            #expect(symlink(target, path) == 0)

            // A fresh handle, as the next process would have (an open store keeps its lock descriptor).
            let database = AppDatabase(appGroup: group.appGroup)
            Self.expectRefused(path, "symbolic link") { _ = try database.store.load() }
            Self.expectRefused(path, "symbolic link") { try database.add(ContactRecord(identifier: "b")) }
            Self.expectRefused(path, "symbolic link") { try database.update("a") { $0.note = "x" } }
            Self.expectRefused(path, "symbolic link") { try database.reset() }
            if file != "lock" {
                Self.expectRefused(path, "symbolic link") { _ = try database.get("a") }
            }
            #expect(Self.bytes(target) == targetBefore, "the symlink's target was modified")
            #expect(dangling ? !Self.exists(target) : true, "a dangling symlink's target was created")
            var info = stat()
            #expect(lstat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFLNK, "the symlink was replaced")
        }
    }

    @Test(
        "A FIFO path that is a symlink, a regular file, loosely permitted or foreign is refused by every NamedPipe entry point"
    )
    func fifoPaths() throws {
        try withTemporaryAppGroups { group, outside in
            let paths = try DomainPaths(appGroup: group.appGroup, domain: "defaultDomain")
            try paths.ensureDirectories()
            let fifo = paths.requests

            // A symlink to a regular file outside the App Group.
            let target = outside.path + "/outside.txt"
            try Self.write("outside\n", to: target)
            #expect(symlink(target, fifo) == 0)
            Self.expectRefused(fifo, "symbolic link") { try NamedPipe.ensure(fifo) }
            Self.expectRefused(fifo, "symbolic link") { _ = try NamedPipe.openForReading(fifo) }
            Self.expectRefused(fifo, "symbolic link") { _ = try NamedPipe.openForWriting(fifo) }
            #expect(Self.bytes(target) == Data("outside\n".utf8))

            // A symlink to a FIFO outside (a reader is pointless to follow, as the path is what is checked).
            #expect(unlink(fifo) == 0)
            let outsideFIFO = outside.path + "/outside.fifo"
            #expect(mkfifo(outsideFIFO, 0o600) == 0)
            #expect(symlink(outsideFIFO, fifo) == 0)
            Self.expectRefused(fifo, "symbolic link") { _ = try NamedPipe.openForWriting(fifo) }
            Self.expectRefused(fifo, "symbolic link") { _ = try NamedPipe.openForReading(fifo) }

            // A regular file where the FIFO should be.
            #expect(unlink(fifo) == 0)
            try Self.write("not a fifo\n", to: fifo)
            #expect(chmod(fifo, 0o600) == 0)
            Self.expectRefused(fifo, "is not a FIFO") { try NamedPipe.ensure(fifo) }
            Self.expectRefused(fifo, "is not a FIFO") { _ = try NamedPipe.openForWriting(fifo) }
            Self.expectRefused(fifo, "is not a FIFO") { _ = try HeldPipe.createHeld(at: fifo) }
            #expect(Self.bytes(fifo) == Data("not a fifo\n".utf8))

            // A FIFO others may open.
            #expect(unlink(fifo) == 0)
            #expect(mkfifo(fifo, 0o600) == 0)
            #expect(chmod(fifo, 0o666) == 0)
            Self.expectRefused(fifo, "accessible to other users") { _ = try NamedPipe.openForWriting(fifo) }
        }
    }

    /// Whether this process can give files away (root in CI). Without it, the foreign-owner branch
    /// cannot be set up; the tests then only check that `chown` really failed.
    static func canChown(_ path: String, sourceLocation: SourceLocation = #_sourceLocation) -> Bool {
        if chown(path, 12345, 12345) == 0 {
            if geteuid() != 0 {
                Issue.record("chown to another uid succeeded without root", sourceLocation: sourceLocation)
            }
            return true
        }
        #expect(geteuid() != 0, "chown failed as root: errno \(errno)", sourceLocation: sourceLocation)
        return false
    }

    @Test(
        "A journal, snapshot, lock, FIFO or directory owned by another uid is refused naming 'owned by uid'",
        arguments: ["journal.jsonl", "snapshot.jsonl", "lock", "requests.fifo", "contacts"])
    func foreignOwner(file: String) throws {
        try withTemporaryAppGroup { group in
            try AppDatabase(appGroup: group.appGroup).add(ContactRecord(identifier: "a"))
            let paths = try DomainPaths(appGroup: group.appGroup, domain: "defaultDomain")
            try paths.ensureDirectories()
            try NamedPipe.ensure(paths.requests)
            let path: String
            switch file {
            case "requests.fifo": path = paths.requests
            case "contacts": path = group.appGroup.contactsDirectory
            default: path = group.appGroup.contactsDirectory + "/" + file
            }
            let before = Self.bytes(path)
            // A fresh handle, as the next process would have (an open store keeps its lock descriptor).
            let database = AppDatabase(appGroup: group.appGroup)
            guard Self.canChown(path) else {
                // Not root: a foreign file cannot be made here, so check the symlink refusal on the same path.
                guard file != "contacts" else { return }
                #expect(unlink(path) == 0)
                #expect(symlink("/nonexistent", path) == 0)
                if file == "requests.fifo" {
                    Self.expectRefused(path, "symbolic link") { _ = try NamedPipe.openForWriting(path) }
                } else {
                    Self.expectRefused(path, "symbolic link") { try database.add(ContactRecord(identifier: "b")) }
                }
                return
            }
            if file == "requests.fifo" {
                Self.expectRefused(path, "owned by uid 12345") { try NamedPipe.ensure(path) }
                Self.expectRefused(path, "owned by uid 12345") { _ = try NamedPipe.openForWriting(path) }
                Self.expectRefused(path, "owned by uid 12345") { _ = try NamedPipe.openForReading(path) }
            } else {
                Self.expectRefused(path, "owned by uid 12345") { try database.add(ContactRecord(identifier: "b")) }
                if file != "contacts" {
                    Self.expectRefused(path, "owned by uid 12345") { _ = try database.store.load() }
                    #expect(Self.bytes(path) == before, "a foreign file was modified")
                }
            }
            var info = stat()
            #expect(lstat(path, &info) == 0 && info.st_uid == 12345, "the foreign file was replaced")
        }
    }

    @Test(
        "Domain identifiers that would escape the App Group are rejected",
        arguments: [
            "../x", "/etc", "a/b", "..", ".", "", "a\0b", "x/../..", "a b", "é", "a\nb",
            String(repeating: "a", count: 129),
        ])
    func escapingDomain(domain: String) throws {
        try withTemporaryAppGroup { group throws in
            #expect(throws: StoreError.self) { _ = try group.appGroup.domainDirectory(domain) }
            #expect(throws: StoreError.self) { _ = try group.appGroup.runDirectory(domain) }
            #expect(throws: StoreError.self) { _ = try DomainPaths(appGroup: group.appGroup, domain: domain) }
            #expect(try FileManager.default.contentsOfDirectory(atPath: group.path).isEmpty)
        }
    }

    @Test("Valid domain identifiers stay directly under domains/ and run/")
    func validDomains() throws {
        try withTemporaryAppGroup { group in
            for domain in ["defaultDomain", "a.b-c_D9", "...", String(repeating: "z", count: 128)] {
                let paths = try DomainPaths(appGroup: group.appGroup, domain: domain)
                #expect(paths.domainDirectory == group.path + "/domains/" + domain)
                #expect(paths.runDirectory == group.path + "/run/" + domain)
                #expect((paths.domainDirectory as NSString).standardizingPath.hasPrefix(group.path + "/domains/"))
            }
        }
    }

    @Test(
        "Reply pipes accept only UUID-like request ids",
        arguments: [
            "../../x", "", "a/b", "x.fifo", "..", "0123-ZZ", "6B1C\0", String(repeating: "a", count: 65), "6b1c 5f",
        ])
    func replyPipeRejects(id: String) throws {
        try withTemporaryAppGroup { group in
            let paths = try DomainPaths(appGroup: group.appGroup, domain: "defaultDomain")
            #expect(throws: StoreError.self) { _ = try paths.replyPipe(for: id) }
            #expect(throws: Doorbell.Malformed.self) {
                try Doorbell.parse(
                    Data(#"{"v":1,"kind":"signal","reply":true,"id":"#.utf8) + (try JSONEncoder().encode(id))
                        + Data("}".utf8))
            }
            let uuid = UUID().uuidString
            #expect(try paths.replyPipe(for: uuid) == paths.repliesDirectory + "/" + uuid + ".fifo")
        }
    }

    @Test(
        "Contact identifiers with NUL or control characters are rejected; path-like ones are plain data",
        arguments: ["a\0b", "\0", "a\nb", "tab\there", "\u{7F}", "\u{1B}[31m"])
    func controlCharacterIdentifiers(identifier: String) throws {
        try withTemporaryAppGroup { group in
            let database = AppDatabase(appGroup: group.appGroup)
            #expect(throws: StoreError.self) { try database.add(ContactRecord(identifier: identifier)) }
            #expect(throws: StoreError.self) { try database.upsert([ContactRecord(identifier: identifier)]) }
            #expect(throws: StoreError.self) { try database.replaceAll(with: [ContactRecord(identifier: identifier)]) }
            #expect(try database.all().isEmpty)

            for pathLike in ["../../etc/passwd", "/abs/path", "..", "contacts/../../x"] {
                try database.add(ContactRecord(identifier: pathLike))
                #expect(try database.get(pathLike)?.identifier == pathLike)
            }
            #expect(
                try FileManager.default.contentsOfDirectory(atPath: group.appGroup.contactsDirectory).sorted()
                    == ["journal.jsonl", "lock", "snapshot.jsonl"])
        }
    }
}
