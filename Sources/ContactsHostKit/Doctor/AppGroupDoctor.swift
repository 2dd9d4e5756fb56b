import AppGroupStore
import CommandLineToolkit
import ContactProviderSystem
import ContactsInterop
import Foundation
import Glibc

/// Checks every file of an App Group and repairs what can be repaired without losing data.
///
/// It is the way out of a damaged App Group: the stores refuse damage (so that nothing is read as
/// empty and overwritten); the doctor says where it is and rebuilds what is readable, moving the
/// damaged files aside (`<name>.damaged-<timestamp>`) instead of deleting them.
package struct AppGroupDoctor {
    /// The App Group examined.
    package let appGroup: AppGroup

    /// A doctor for `appGroup`.
    package init(appGroup: AppGroup) {
        self.appGroup = appGroup
    }

    /// The app database's store.
    var appStore: JournaledStore<NoMetadata> { AppDatabase.searchable(appGroup: appGroup).store }

    /// Every domain with files in the App Group (`domains/*` and `run/*`).
    func domains() -> [DomainPaths] {
        var names = Set<String>()
        for parent in ["/domains", "/run"] {
            for name in (try? FileManager.default.contentsOfDirectory(atPath: appGroup.path + parent)) ?? [] {
                names.insert(name)
            }
        }
        return names.sorted().compactMap { try? DomainPaths(appGroup: appGroup, domain: $0) }
    }

    /// One line per problem, each naming the file (and line). Empty: the App Group is sound.
    package func check() throws -> [StoreProblem] {
        var problems = try appStore.check()
        problems += [appGroup.path, appStore.directory].flatMap(temporaryFileProblems)
        problems += nameIndexProblems()
        problems += try deviceProblems()
        for paths in domains() {
            problems += try domainProblems(paths)
        }
        return problems
    }

    /// The app database's name index (`contacts/name-index`), when it is damaged for the current
    /// snapshot (a stale one is rebuilt by the next search, and is no problem). Unreadable stores
    /// are reported by `check()` itself.
    private func nameIndexProblems() -> [StoreProblem] {
        guard let problem = (try? appStore.indexProblem(ContactSearch.nameIndex)) ?? nil else { return [] }
        return [
            StoreProblem(
                path: appStore.path(of: ContactSearch.nameIndex),
                message: problem
                    + "; it holds no contact data (`doctor --repair` removes it, the next search rebuilds it)")
        ]
    }

    private func domainProblems(_ paths: DomainPaths) throws -> [StoreProblem] {
        var problems: [StoreProblem] = []
        do {
            _ = try DomainConfiguration.load(from: paths.configuration)
        } catch let error as StoreError {
            problems.append(Self.problem(error, path: paths.configuration))
        }
        let system = SystemStore(directory: paths.systemStore)
        if FileManager.default.fileExists(atPath: paths.systemStore) {
            problems += try system.check()
        }
        if let problem = Self.lastSyncProblem(paths) { problems.append(problem) }
        if let problem = Self.syncHistoryProblem(paths) { problems.append(problem) }
        problems += Self.temporaryFileDirectories(paths).flatMap(temporaryFileProblems)
        if let kind = Self.fileType(paths.requests), kind != S_IFIFO {
            problems.append(
                StoreProblem(
                    path: paths.requests,
                    message: "not a named pipe (\(Self.describe(kind))); providers cannot be signalled"))
        } else if let problem = Self.pipeProblem(paths.requests) {
            problems.append(
                StoreProblem(
                    path: paths.requests, message: "a named pipe that \(problem.reason); every signal refuses it"))
        }
        for directory in [paths.repliesDirectory, paths.watchersDirectory] {
            let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
            let held = names.isEmpty ? [] : HeldPipe.heldFiles()
            for name in names.sorted() {
                let path = directory + "/" + name
                if Self.fileType(path) != S_IFIFO {
                    problems.append(StoreProblem(path: path, message: "not a named pipe"))
                } else if let problem = Self.pipeProblem(path) {
                    problems.append(StoreProblem(path: path, message: "a named pipe that \(problem.reason)"))
                } else if HeldPipe.isStale(name: name, in: directory, held: held) {
                    problems.append(
                        StoreProblem(
                            path: path, message: "a stale pipe: no process has it open (left by an interrupted command)"
                        ))
                }
            }
        }
        return problems
    }

    /// What `repair()` did, line by line.
    package struct RepairReport {
        /// Human-readable lines: what was kept, what was lost, what was moved aside.
        package var lines: [String] = []
        /// Problems that remain (none when the repair worked).
        package var remaining: [StoreProblem] = []
    }

    /// Repairs every problem `check()` finds, deleting no data.
    ///
    /// - The app database is rebuilt from every readable line (`JournaledStore.repair`); the damaged
    ///   files are kept aside before anything is rewritten (so an interrupted repair loses nothing), and
    ///   the report lists every line that could not be read.
    /// - The device's own contacts store is rebuilt the same way, and an unreadable access setting is
    ///   moved aside (`repairDevice(timestamp:)`).
    /// - A damaged system store is kept aside and replaced by an empty one: the next sync is a full content enumeration,
    ///   which rebuilds it from the app database (R9), so nothing the user owns is lost.
    /// - A damaged `domain.json` is moved aside (the domain then reads as disabled, and is re-enabled with `enable`).
    /// - Stale pipes and temp files are removed: they never hold committed data.
    package func repair(now: Date = Date()) throws -> RepairReport {
        let timestamp = Self.timestamp(now)
        var report = RepairReport()
        let store = appStore
        if !(try store.check()).isEmpty {
            let result = try store.repair(timestamp: timestamp)
            let salvage = result.salvage
            report.lines.append(
                "\(store.directory): rebuilt with \(counted(salvage.contacts.count, "contact")) "
                    + "(kept \(salvage.snapshotLinesKept) snapshot lines and \(salvage.journalEntriesKept) journal entries; "
                    + "lost \(salvage.lostLines.count) unreadable lines)")
            for lost in salvage.lostLines { report.lines.append("lost \(lost)") }
            for path in result.movedAside { report.lines.append("moved aside: \(path)") }
        }
        report.lines += [appGroup.path, store.directory].flatMap(removeTemporaryFiles)
        // The name index is derived from the snapshot: a damaged one is removed (the next search rebuilds it).
        for problem in nameIndexProblems() where unlink(problem.path) == 0 {
            report.lines.append("removed damaged search index: \(problem.path) (the next search rebuilds it)")
        }
        report.lines += try repairDevice(timestamp: timestamp)
        for paths in domains() {
            report.lines += try repairDomain(paths, timestamp: timestamp)
        }
        report.remaining = try check()
        return report
    }

    private func repairDomain(_ paths: DomainPaths, timestamp: String) throws -> [String] {
        var lines: [String] = []
        if (try? DomainConfiguration.load(from: paths.configuration)) == nil {
            let aside = try SecureFile.moveAside(paths.configuration, timestamp: timestamp)
            lines.append("moved aside: \(aside) (the domain is disabled until `contacts-host enable`)")
        }
        let system = SystemStore(directory: paths.systemStore)
        if FileManager.default.fileExists(atPath: paths.systemStore), !(try system.check()).isEmpty {
            let moved = try system.replaceDamagedWithEmpty(meta: .initial, timestamp: timestamp)
            lines.append("\(paths.systemStore): dropped (rebuilt by the next sync, a full content enumeration)")
            for path in moved { lines.append("moved aside: \(path)") }
        }
        if Self.lastSyncProblem(paths) != nil {
            let aside = try SecureFile.moveAside(paths.lastSync, timestamp: timestamp)
            lines.append("moved aside: \(aside) (a report, not state: the next sync writes a new one)")
        }
        if Self.syncHistoryProblem(paths) != nil {
            let aside = try SecureFile.moveAside(paths.syncHistory, timestamp: timestamp)
            lines.append("moved aside: \(aside) (a history, not state: the next sync starts a new one)")
        }
        lines += Self.temporaryFileDirectories(paths).flatMap(removeTemporaryFiles)
        for directory in [paths.repliesDirectory, paths.watchersDirectory] {
            let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
            let held = names.isEmpty ? [] : HeldPipe.heldFiles()
            for name in names.sorted() {
                let path = directory + "/" + name
                if Self.fileType(path) == S_IFIFO, HeldPipe.isStale(name: name, in: directory, held: held),
                    unlink(path) == 0
                {
                    lines.append("removed stale pipe: \(path)")
                } else if Self.fileType(path) == S_IFIFO, let problem = Self.pipeProblem(path) {
                    lines.append(try Self.repairPipe(path, problem, timestamp: timestamp))
                } else if Self.fileType(path) != S_IFIFO {
                    let aside = try SecureFile.moveAside(path, timestamp: timestamp)
                    lines.append("moved aside: \(aside)")
                }
            }
        }
        if let kind = Self.fileType(paths.requests), kind != S_IFIFO {
            let aside = try SecureFile.moveAside(paths.requests, timestamp: timestamp)
            lines.append("moved aside: \(aside) (the next signal creates the pipe again)")
        } else if let problem = Self.pipeProblem(paths.requests) {
            lines.append(try Self.repairPipe(paths.requests, problem, timestamp: timestamp))
        }
        return lines
    }

    // MARK: Helpers

    /// What `NamedPipe` would refuse in the FIFO at `path` (nil: usable, or absent).
    private static func pipeProblem(_ path: String) -> NamedPipe.Problem? {
        var info = stat()
        guard lstat(path, &info) == 0 else { return nil }
        return NamedPipe.problem(info)
    }

    /// This user's FIFO with a loose mode is set to 0600 (it is the live pipe: a running provider keeps
    /// reading it); another user's is moved aside, and the next signal makes a new one.
    private static func repairPipe(_ path: String, _ problem: NamedPipe.Problem, timestamp: String) throws -> String {
        if case .looseMode(let mode) = problem {
            guard chmod(path, 0o600) == 0 else { throw StoreError.io(path: path, operation: "chmod", errno: errno) }
            return "set to mode 600: \(path) (was \(String(mode & 0o777, radix: 8)); signals can use it again)"
        }
        let aside = try SecureFile.moveAside(path, timestamp: timestamp)
        return "moved aside: \(aside) (it \(problem.reason); the next signal creates the pipe again)"
    }

    /// `last-sync.json` when it exists but cannot be read (`status` would fail on it).
    private static func lastSyncProblem(_ paths: DomainPaths) -> StoreProblem? {
        do {
            _ = try SyncEngine.lastReport(paths: paths)
            return nil
        } catch let error as StoreError {
            return problem(error, path: paths.lastSync)
        } catch {
            return StoreProblem(path: paths.lastSync, message: "\(error)")
        }
    }

    /// `sync-history.jsonl` when a whole line of it is not an entry (`report --html` would fail on
    /// it); a torn line a crash left is not a problem, readers skip it.
    private static func syncHistoryProblem(_ paths: DomainPaths) -> StoreProblem? {
        do {
            _ = try SyncHistoryFile.read(paths.syncHistory)
            return nil
        } catch let error as StoreError {
            return problem(error, path: paths.syncHistory)
        } catch {
            return StoreProblem(path: paths.syncHistory, message: "\(error)")
        }
    }

    /// The directories of a domain where `SecureFile.replace` writes temp files.
    private static func temporaryFileDirectories(_ paths: DomainPaths) -> [String] {
        [paths.domainDirectory, paths.systemStore, paths.runDirectory, paths.tracesDirectory]
    }

    func temporaryFileProblems(in directory: String) -> [StoreProblem] {
        temporaryFiles(in: directory).map {
            StoreProblem(
                path: $0,
                message: "a temp file left by an interrupted write (never renamed in; holds no committed data)")
        }
    }

    /// Temp files of `SecureFile.replace` whose writer is gone (`TemporaryName`: another boot, or a
    /// pid that no longer runs).
    private func temporaryFiles(in directory: String) -> [String] {
        TemporaryName.abandoned(in: directory)
    }

    func removeTemporaryFiles(in directory: String) -> [String] {
        temporaryFiles(in: directory).compactMap { unlink($0) == 0 ? "removed temp file: \($0)" : nil }
    }

    static func problem(_ error: StoreError, path: String) -> StoreProblem {
        if case .malformed(let path, let line, let reason) = error {
            return StoreProblem(path: path, line: line, message: reason)
        }
        return StoreProblem(path: path, message: "\(error)")
    }

    /// The file type bits (`S_IFIFO`, `S_IFREG`, …) of `path`, not following a link; nil when absent.
    static func fileType(_ path: String) -> mode_t? {
        var info = stat()
        guard lstat(path, &info) == 0 else { return nil }
        return info.st_mode & S_IFMT
    }

    private static func describe(_ kind: mode_t) -> String {
        switch kind {
        case S_IFREG: return "a regular file"
        case S_IFDIR: return "a directory"
        case S_IFLNK: return "a symbolic link"
        default: return "another kind of file"
        }
    }

    /// `20261201T041500Z`: sorts by time and contains no characters a shell or a path treats specially.
    static func timestamp(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyyMMdd'T'HHmmss'Z'"
        return formatter.string(from: date)
    }
}
