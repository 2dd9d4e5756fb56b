import AppGroupStore
import CommandLineToolkit
import Foundation
import Glibc

// The device's own state (`<App Group>/device`): the user's contacts and groups, which apps write
// through CNContactStore, and the app's access setting.
extension AppGroupDoctor {
    /// The device's own contacts.
    var device: DeviceContacts { DeviceContacts(appGroup: appGroup) }

    /// The store of the device's own contacts and groups (`device/contacts`), checked as the app
    /// database is (every line, as a read would decode it), its temp files, and `authorization.json`.
    func deviceProblems() throws -> [StoreProblem] {
        var problems: [StoreProblem] = []
        let store = device.store
        if FileManager.default.fileExists(atPath: store.directory) {
            problems += try store.check()
        }
        problems += [device.directory, store.directory].flatMap(temporaryFileProblems)
        if let problem = authorizationProblem() { problems.append(problem) }
        return problems
    }

    /// `device/authorization.json` when it exists but is not a setting (every app's read would throw).
    private func authorizationProblem() -> StoreProblem? {
        do {
            _ = try DeviceAuthorization.read(in: appGroup)
            return nil
        } catch let error as StoreError {
            return Self.problem(error, path: DeviceAuthorization.path(in: appGroup))
        } catch {
            return StoreProblem(path: DeviceAuthorization.path(in: appGroup), message: "\(error)")
        }
    }

    /// Repairs what `deviceProblems()` finds, deleting nothing:
    ///
    /// - a damaged contacts store is rebuilt from every readable line, as the app database is (they
    ///   are the user's own contacts: nothing else holds them), with the groups of the last readable
    ///   line; the damaged files are kept aside, and the change history starts over (apps get a
    ///   drop-everything event);
    /// - an unreadable `authorization.json` is moved aside: access reads as authorized, the setting
    ///   without one, until `contacts-host device authorization` sets it again;
    /// - temp files of interrupted writes are removed.
    func repairDevice(timestamp: String) throws -> [String] {
        var lines: [String] = []
        let store = device.store
        if FileManager.default.fileExists(atPath: store.directory), !(try store.check()).isEmpty {
            let result = try store.repair(timestamp: timestamp)
            let salvage = result.salvage
            lines.append(
                "\(store.directory): rebuilt with \(counted(salvage.contacts.count, "contact")) and "
                    + "\(counted(salvage.meta?.groups.count ?? 0, "group")) "
                    + "(kept \(salvage.snapshotLinesKept) snapshot lines and \(salvage.journalEntriesKept) journal entries; "
                    + "lost \(salvage.lostLines.count) unreadable lines; apps' change history starts over)")
            for lost in salvage.lostLines { lines.append("lost \(lost)") }
            for path in result.movedAside { lines.append("moved aside: \(path)") }
        }
        if authorizationProblem() != nil {
            let aside = try SecureFile.moveAside(DeviceAuthorization.path(in: appGroup), timestamp: timestamp)
            lines.append(
                "moved aside: \(aside) (access reads as authorized until `contacts-host device authorization` sets it)")
        }
        lines += [device.directory, store.directory].flatMap(removeTemporaryFiles)
        return lines
    }
}
