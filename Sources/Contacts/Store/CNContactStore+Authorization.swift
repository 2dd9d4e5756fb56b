import AppGroupStore
import Foundation

// Access to the device's contacts, as the user set it (`contacts-host device authorization`).
extension CNContactStore {
    /// The current App Group's setting, as Apple's status.
    static func currentAuthorizationStatus() -> CNAuthorizationStatus {
        let setting = (try? DeviceAuthorization.read(in: .current)) ?? .default
        return authorizationStatus(setting.status)
    }

    /// `requestAccess(for:completionHandler:)`.
    func requestAccess(completionHandler: @escaping @Sendable (Bool, (any Error)?) -> Void) {
        do {
            let granted = try requestAccessNow()
            completionHandler(granted, granted ? nil : accessDenied())
        } catch {
            completionHandler(false, error)
        }
    }

    /// `requestAccess(for:)`.
    func requestAccessOrThrow() throws -> Bool {
        guard try requestAccessNow() else { throw accessDenied() }
        return true
    }

    /// Applies the user's answer when the status is not determined, and says whether access is given.
    private func requestAccessNow() throws -> Bool {
        var setting = try DeviceAuthorization.read(in: appGroup)
        if setting.status == .notDetermined {
            setting.status = setting.answer == .allow ? .authorized : .denied
            try setting.write(in: appGroup)
        }
        return setting.status == .authorized || setting.status == .limited
    }

    static func authorizationStatus(_ status: DeviceAuthorization.Status) -> CNAuthorizationStatus {
        switch status {
        case .notDetermined: .notDetermined
        case .restricted: .restricted
        case .denied: .denied
        case .authorized: .authorized
        case .limited: .limited
        }
    }

    /// The contact identifiers the app may read: nil for all of them.
    ///
    /// - Throws: `CNError.authorizationDenied` when it may read none (denied, restricted, or not
    ///   asked yet: an app calls `requestAccess` first, as on iOS).
    func readableContactIdentifiers() throws -> Set<String>? {
        let setting = try DeviceAuthorization.read(in: appGroup)
        switch setting.status {
        case .authorized: return nil
        case .limited: return Set(setting.granted)
        case .denied, .restricted, .notDetermined: throw accessDenied()
        }
    }

    /// Apple's error when the app has no access ("Access Denied", and why), with where the
    /// simulated device keeps the setting and how to change it.
    func accessDenied() -> CNError {
        CNError(
            .authorizationDenied,
            userInfo: [
                NSLocalizedDescriptionKey: "Access Denied",
                NSLocalizedFailureReasonErrorKey:
                    "This application has not been granted permission to access Contacts.",
                NSLocalizedRecoverySuggestionErrorKey:
                    "The simulated device's setting is \(DeviceAuthorization.path(in: appGroup)); "
                    + "grant access with: contacts-host device authorization authorized",
            ])
    }
}
