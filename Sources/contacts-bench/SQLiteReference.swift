import Foundation
import Glibc

/// P3's second reference (issue 44, item 4): SQLite's durable copy of the same rows, what a user
/// would pick instead of the simulator's store. Debian's `sqlite3` reads the app's snapshot (the
/// contacts as the app holds them, one JSON line each) and writes one row per contact, keyed by its
/// identifier, into a new database in WAL mode with `synchronous=FULL`, in one transaction. Its CPU
/// time (user and system of the child, from `wait4`) is what the full sync's own CPU time is
/// compared with; its wall time is recorded beside it.
struct SQLiteReference {
    /// The `sqlite3` executable.
    let executable: String
    /// `sqlite3 --version`'s first word (`3.40.1`), for the figure's note.
    let version: String

    /// Finds `sqlite3` on `PATH`; when it is missing, installs it as the tests' Debian tools are
    /// (`Scripts/install-debian-test-tools.sh sqlite3`, found above `products` in a checkout). Throws
    /// with the reason when neither works.
    static func locate(products: String) throws -> SQLiteReference {
        let onPath = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
            .map { String($0) + "/sqlite3" }.first { access($0, X_OK) == 0 }
        guard let executable = try onPath ?? installed(products: products) else {
            throw BenchError(
                "sqlite3 (P3's SQLite reference) is not on PATH, and no Scripts/install-debian-test-tools.sh above \(products) to install it; install the Debian package 'sqlite3'"
            )
        }
        let version = try output(of: [executable, "--version"]).split(separator: " ").first.map(String.init) ?? "?"
        return SQLiteReference(executable: executable, version: version)
    }

    /// The path the repository's installer prints for `sqlite3`, or nil when there is no installer.
    private static func installed(products: String) throws -> String? {
        var directory = products
        while directory != "/" && !directory.isEmpty {
            let script = directory + "/Scripts/install-debian-test-tools.sh"
            if access(script, X_OK) == 0 {
                let printed = try output(of: ["/bin/bash", script, "sqlite3"])
                return printed.split(separator: "\n").last.map(String.init)
            }
            directory = (directory as NSString).deletingLastPathComponent
        }
        return nil
    }

    /// What `arguments` print on stdout; throws when they fail.
    private static func output(of arguments: [String]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: arguments[0])
        process.arguments = Array(arguments.dropFirst())
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationReason == .exit, process.terminationStatus == 0 else {
            throw BenchError("\(arguments.joined(separator: " ")) failed (status \(process.terminationStatus))")
        }
        return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// The script `sqlite3` runs: the snapshot's lines (its header skipped) go into a table in memory
    /// through `.import` (ASCII mode, a line a row: a JSON line has no raw control characters), and
    /// from there into the keyed table, each row's identifier read from its JSON; one transaction.
    func script(snapshot: String) -> String {
        """
        PRAGMA journal_mode=WAL;
        PRAGMA synchronous=FULL;
        PRAGMA temp_store=MEMORY;
        CREATE TABLE contacts(identifier TEXT PRIMARY KEY, contact TEXT NOT NULL);
        BEGIN;
        CREATE TEMP TABLE lines(contact TEXT);
        .mode ascii
        .separator "\\037" "\\n"
        .import --skip 1 --schema temp "\(snapshot)" lines
        INSERT INTO contacts SELECT contact->>'identifier', contact FROM temp.lines;
        DROP TABLE temp.lines;
        COMMIT;

        """
    }

    /// What a figure's note says of this reference.
    var description: String {
        "SQLite \(version)'s durable copy of the same rows (sqlite3: the app's snapshot imported, one row per contact keyed by identifier, WAL, synchronous=FULL, one transaction; the close's checkpoint included); cpuMs = the sqlite3 process's user+system time (wait4)"
    }

    /// One durable copy of `snapshot`'s `count` contacts into a new database at `database` (removed
    /// first, with its WAL): the run, its CPU time included. Throws unless every row arrived.
    func copy(snapshot: String, count: Int, database: String) throws -> Measure.Run {
        for suffix in ["", "-wal", "-shm"] { unlink(database + suffix) }
        let scriptPath = database + ".sql"
        try script(snapshot: snapshot).write(toFile: scriptPath, atomically: true, encoding: .utf8)
        defer { unlink(scriptPath) }
        let run = try Measure.spawn(
            [executable, "-bail", database], environment: ProcessInfo.processInfo.environment, input: scriptPath)
        guard run.exitCode == 0 else { throw BenchError("sqlite3 failed to copy \(snapshot) (exit \(run.exitCode))") }
        let rows = try Self.output(of: [executable, database, "SELECT count(*) FROM contacts"])
        guard Int(rows) == count else {
            throw BenchError("sqlite3 copied \(rows) rows of \(snapshot), not its \(count) contacts")
        }
        return run
    }
}
