import AppGroupStore
import AppStores
import Synchronization

/// The app's stores that live on a server (`enable --backend carddav:URL`), which the contact commands
/// reach through the kit's own backend.
///
/// `contacts-host` links no networking (every command would pay for loading it: docs/startup-profile.md),
/// so it cannot make such a store: a contact command on a domain whose store needs the network runs in
/// `contacts-host-conformance`, which links the kit and registers how to make one at start
/// (``register(_:)``). `contacts-host` forwards the command there (``RunsInNetworkedExecutable``).
package enum NetworkedAppStores {
    /// Makes the backend of a store of `kind` for the App Group `appGroup`.
    package typealias Maker =
        @Sendable (_ kind: ConformanceBackendKind, _ appGroup: AppGroup) throws -> any ConformanceBackend

    private static let maker = Mutex<Maker?>(nil)

    /// Called once by the executable that links networking, before any command runs.
    package static func register(_ make: @escaping Maker) {
        maker.withLock { $0 = make }
    }

    /// The registered maker, if this process has one.
    static var registered: Maker? { maker.withLock { $0 } }
}

/// Thrown by a contact command in a process that cannot reach the domain's store (it needs the
/// network): `HostTool.main` hands the whole command line to `contacts-host-conformance` instead.
/// Nothing was written when it is thrown (the store is chosen before any change).
struct RunsInNetworkedExecutable: Error, CustomStringConvertible {
    let kind: ConformanceBackendKind
    var description: String {
        "the app's store is \(kind), which only \(ForwardedCommands.executable) can reach (it links networking)"
    }
}
