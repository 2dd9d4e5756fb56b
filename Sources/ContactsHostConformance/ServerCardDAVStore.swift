import AppGroupStore
import ContactProviderConformance
import ContactsHostKit
import Foundation

/// The app's store when it is a CardDAV address book (`enable --backend carddav:URL`), as the contact
/// commands reach it: the kit's ``CardDAVBackend`` writes (`PUT`, `DELETE`, the reset's `MKCOL`),
/// and every read asks the server (``CardDAVBackend/serverContacts()``), since a command is a fresh
/// process that wrote nothing before. Errors are the store's (`ConformanceBackendError`), so the
/// commands name the store and where it was chosen.
final class ServerCardDAVStore: ConformanceBackend {
    private let backend: CardDAVBackend

    /// The address book `kind` names; the user name and password file come from the App Group's
    /// `carddav.json` (`contacts-host carddav configure`) when it names the same address book.
    init(url: String, appGroup: AppGroup) throws {
        let settings = Self.credentials(for: url, in: appGroup)
        backend = try Self.mapped {
            try CardDAVBackend(argument: url, username: settings.username, passwordFile: settings.passwordFile)
        }
    }

    /// Registers how `contacts-host-conformance` makes a server's store (`NetworkedAppStores`).
    static func register() {
        NetworkedAppStores.register { kind, appGroup in
            guard case .carddav(let url) = kind else {
                throw ConformanceBackendError("\(kind) is not a store on a server")
            }
            return try ServerCardDAVStore(url: url, appGroup: appGroup)
        }
    }

    func reset() throws { try Self.mapped { try backend.reset() } }
    func add(_ contact: ConformanceContact) throws { try Self.mapped { try backend.add(contact) } }
    func update(_ contact: ConformanceContact) throws { try Self.mapped { try backend.update(contact) } }
    func delete(identifier: String) throws { try Self.mapped { try backend.delete(identifier: identifier) } }
    func contacts() throws -> [ConformanceContact] { try Self.mapped { try backend.serverContacts() } }

    /// `body`, with a CardDAV failure turned into the store's error.
    private static func mapped<T>(_ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as CardDAVBackendError {
            throw ConformanceBackendError(error.description)
        }
    }

    /// The user name and password file of `carddav.json`, when it points at `url`.
    private static func credentials(for url: String, in appGroup: AppGroup) -> (
        username: String?, passwordFile: String?
    ) {
        guard let data = try? SecureFile.readIfPresent(appGroup.path + "/carddav.json"),
            let object = try? JSONSerialization.jsonObject(with: data) as? [String: String],
            let configured = object["url"],
            ConformanceBackendKind.cardDAVCollection(configured)
                == ConformanceBackendKind.cardDAVCollection(url)
        else { return (nil, nil) }
        return (object["username"], object["passwordFile"])
    }
}
