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
    /// The bounded history of finished syncs, resets and disables (``SyncHistoryFile``).
    package var syncHistory: String { domainDirectory + "/sync-history.jsonl" }
    /// Taken by every writer of ``syncHistory`` (the engine and the host's markers).
    package var syncHistoryLock: String { domainDirectory + "/sync-history.lock" }
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

    /// Creates the directories (mode 0700), each checked: ours, never a symbolic link.
    package func ensureDirectories() throws {
        try appGroup.ensureExists()
        try SecureFile.ensureDirectories(
            [domainDirectory, runDirectory, repliesDirectory, watchersDirectory, tracesDirectory], under: appGroup.path)
    }

    /// The reply FIFO for request `id` (ids are generated UUIDs; anything else is refused).
    package func replyPipe(for id: String) throws -> String {
        try Self.validateRequestID(id)
        return repliesDirectory + "/" + id + ".fifo"
    }

    /// Where a reply's call times go when too many for the pipe (``DoorbellReply/callsFile``).
    package func callsFile(for id: String) throws -> String {
        try Self.validateRequestID(id)
        return tracesDirectory + "/" + id + ".calls"
    }

    /// Request ids name files, so only UUID-like text is accepted.
    package static func validateRequestID(_ id: String) throws {
        // Bytes, not a `Set<Character>`: its first use cost every signal a conformance lookup (issue 27).
        let allowed = id.utf8.allSatisfy { byte in
            switch byte {
            case 0x30...0x39, 0x41...0x46, 0x61...0x66, 0x2D: true  // 0-9 A-F a-f -
            default: false
            }
        }
        guard !id.isEmpty, id.utf8.count <= 64, allowed else {
            throw StoreError.invalidIdentifier(id, reason: "a request id must be a UUID")
        }
    }
}
