import Foundation

/// Whether apps may read the device's contacts, as the user set it in Settings (Apple's
/// `CNAuthorizationStatus`), kept in `<App Group>/device/authorization.json`.
///
/// Without the file access is authorized: the simulated user has granted it, as every app read
/// the device before this setting existed. `contacts-host device authorization` writes it.
package struct DeviceAuthorization: Codable, Equatable, Sendable {
    /// The user's decision, spelled as `contacts-host device authorization` takes it.
    package enum Status: String, Codable, CaseIterable, Sendable {
        /// Not asked yet: `requestAccess` asks, and the simulated user gives ``answer``.
        case notDetermined = "not-determined"
        /// Access is restricted (parental controls, device management); the user cannot change it.
        case restricted
        /// The user denied access: reads throw `CNError.authorizationDenied`.
        case denied
        /// Full access.
        case authorized
        /// Access to the contacts in ``granted`` only (iOS 18).
        case limited
    }

    /// What the simulated user answers when `requestAccess` asks while ``Status/notDetermined``.
    package enum Answer: String, Codable, CaseIterable, Sendable {
        /// Full access (the status becomes `authorized`).
        case allow
        /// No access (the status becomes `denied`).
        case deny
    }

    /// The user's decision.
    package var status: Status
    /// With ``Status/limited``: the identifiers of the contacts the user chose to share (their
    /// `CNContact.identifier`s, provided or the device's own).
    package var granted: [String]
    /// What the user answers when asked.
    package var answer: Answer

    /// A setting.
    package init(status: Status, granted: [String] = [], answer: Answer = .allow) {
        self.status = status
        self.granted = granted
        self.answer = answer
    }

    /// The setting when nobody wrote one.
    package static let `default` = DeviceAuthorization(status: .authorized)

    /// `<App Group>/device/authorization.json`.
    package static func path(in appGroup: AppGroup) -> String {
        DeviceContacts(appGroup: appGroup).directory + "/authorization.json"
    }

    /// The setting of `appGroup`'s device (``default`` when none was written).
    ///
    /// - Throws: `StoreError.malformed` naming the file when it is not a setting.
    package static func read(in appGroup: AppGroup) throws -> DeviceAuthorization {
        let path = path(in: appGroup)
        guard let data = try SecureFile.readIfPresent(path) else { return .default }
        do {
            return try JSONDecoder().decode(DeviceAuthorization.self, from: data)
        } catch {
            throw StoreError.malformed(
                path: path, line: 1,
                reason:
                    "not an authorization setting (\(error)); write it again with contacts-host device authorization")
        }
    }

    /// Writes this setting for `appGroup`'s device, atomically and durably.
    package func write(in appGroup: AppGroup) throws {
        try appGroup.ensureExists()
        let device = DeviceContacts(appGroup: appGroup)
        try SecureFile.ensureDirectories([device.directory], under: appGroup.path)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        try SecureFile.replace(Self.path(in: appGroup), with: try encoder.encode(self) + Data("\n".utf8))
    }
}
