import AppGroupStore
import Foundation

/// Where one domain's files live inside the App Group.
public struct DomainPaths: Sendable {
    /// The App Group.
    public let appGroup: AppGroup
    /// The domain identifier.
    public let domain: String
    /// `domains/<domain>`.
    package let domainDirectory: String
    /// `run/<domain>`.
    package let runDirectory: String

    /// Paths for `domain` in `appGroup` (the identifier is validated).
    public init(appGroup: AppGroup, domain: String) throws {
        self.appGroup = appGroup
        self.domain = domain
        domainDirectory = try appGroup.domainDirectory(domain)
        runDirectory = try appGroup.runDirectory(domain)
    }

    /// The persisted `DomainConfiguration`.
    package var configuration: String { domainDirectory + "/domain.json" }
    /// The system store of provided contacts.
    package var systemStore: String { domainDirectory + "/store" }
    /// The report of the last sync.
    package var lastSync: String { domainDirectory + "/last-sync.json" }
    /// The provider's request FIFO (host → provider doorbells).
    package var requests: String { runDirectory + "/requests.fifo" }
    /// Held shared by hosts while they ring, exclusive by a provider deciding to exit idle.
    package var doorbellLock: String { runDirectory + "/doorbell.lock" }
    /// Held exclusively by the one running provider (single consumer).
    package var providerLock: String { runDirectory + "/provider.lock" }
    /// Per-request reply FIFOs.
    package var repliesDirectory: String { runDirectory + "/replies" }
    /// Watch FIFOs (one per `contacts-host watch`).
    package var watchersDirectory: String { runDirectory + "/watchers" }
    /// Transcripts of traced syncs.
    package var tracesDirectory: String { runDirectory + "/traces" }
    /// The provider's log when launched by the system.
    package var providerLog: String { runDirectory + "/provider.log" }
    /// The launch attempts of a provider that has not started yet (`LaunchBackoff`); a provider
    /// that starts removes it.
    package var launchAttempts: String { runDirectory + "/launch-attempts.json" }

    /// Creates the directories (mode 0700).
    package func ensureDirectories() throws {
        try appGroup.ensureExists()
        for directory in [domainDirectory, runDirectory, repliesDirectory, watchersDirectory, tracesDirectory] {
            try SecureFile.ensureDirectory(directory)
        }
    }

    /// The reply FIFO for request `id` (ids are generated UUIDs; anything else is refused).
    package func replyPipe(for id: String) throws -> String {
        try Self.validateRequestID(id)
        return repliesDirectory + "/" + id + ".fifo"
    }

    /// Request ids name files, so only UUID-like text is accepted.
    package static func validateRequestID(_ id: String) throws {
        let allowed = Set("0123456789abcdefABCDEF-")
        guard !id.isEmpty, id.count <= 64, id.allSatisfy({ allowed.contains($0) }) else {
            throw StoreError.invalidIdentifier(id, reason: "a request id must be a UUID")
        }
    }
}
