import AppGroupStore
import Foundation

/// The system's persisted settings for one domain (`domains/<domain>/domain.json`).
///
/// Written atomically by the host (`enable`, `disable`), read by the provider runtime at the
/// start of every sync, so `isEnabled` and the limits are the same in every process.
package struct DomainConfiguration: Codable, Equatable, Sendable {
    /// The file format version.
    package var format: Int = StoreFormat.version
    /// Whether the user enabled the domain (rule R5); a disabled domain is never enumerated (R7).
    package var enabled: Bool = false
    /// The provider executable the system launches on demand.
    package var extensionPath: String?
    /// `ContactItemContentObserver.suggestedPageSize` (R21).
    package var pageSize: Int = DomainConfiguration.defaultPageSize
    /// `ContactItemChangeObserver.suggestedBatchSize` (R31).
    package var batchSize: Int = DomainConfiguration.defaultBatchSize
    /// A page or batch larger than this many times the suggestion fails the sync (R21, after FileProvider's 100×).
    package var hardCapMultiplier: Int = 100
    /// Seconds one page or batch may take before `enumerationTimeout` (R41).
    package var pageTimeoutSeconds: Double = 10
    /// Seconds the extension's `invalidate()` may take before `extensionInvalidateTimeout` (R11).
    package var invalidateTimeoutSeconds: Double = 5
    /// Seconds an idle provider process stays alive waiting for the next signal.
    package var idleTimeoutSeconds: Double = 30
    /// Most contacts the domain may provide before `itemsLimitReached` (R42).
    package var itemsLimit: Int = 1_000_000
    /// After each saved page or batch the system pauses one second per this many items saved, whole
    /// seconds, as iOS does ("didSave() - sleeping %u seconds for %ld items", ``SavePacing``); 0 is off
    /// (the default: Apple's numbers are not public, and tests and demos want no pause).
    package var paceItemsPerSecond: Int = 0
    /// The device's settings the provider process starts with, as environment variables (`TZ`,
    /// `LANG`, `LC_ALL`): a device's time zone and region are the user's, not the developer's, and
    /// the conformance kit runs the field rules on both sides of UTC and in another language.
    package var deviceEnvironment: [String: String] = [:]
    /// The app's store, as `enable --backend KIND[:ARG]` named it (`seed-json:ContactItems.json`,
    /// `exec:COMMAND`): what the host's contact commands edit. Nil (and in files written before it
    /// existed) is the App Group database.
    package var backend: String?

    /// The default suggested page size.
    package static let defaultPageSize = 1000
    /// The default suggested batch size.
    package static let defaultBatchSize = 500

    package init() {}

    enum CodingKeys: String, CodingKey, CaseIterable {
        case format, enabled, extensionPath, pageSize, batchSize, hardCapMultiplier, pageTimeoutSeconds
        case invalidateTimeoutSeconds, idleTimeoutSeconds, itemsLimit, deviceEnvironment, backend
        case paceItemsPerSecond
    }

    package init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let defaults = DomainConfiguration()
        format = try c.decodeIfPresent(Int.self, forKey: .format) ?? defaults.format
        enabled = try c.decodeIfPresent(Bool.self, forKey: .enabled) ?? defaults.enabled
        extensionPath = try c.decodeIfPresent(String.self, forKey: .extensionPath)
        pageSize = try c.decodeIfPresent(Int.self, forKey: .pageSize) ?? defaults.pageSize
        batchSize = try c.decodeIfPresent(Int.self, forKey: .batchSize) ?? defaults.batchSize
        hardCapMultiplier = try c.decodeIfPresent(Int.self, forKey: .hardCapMultiplier) ?? defaults.hardCapMultiplier
        pageTimeoutSeconds =
            try c.decodeIfPresent(Double.self, forKey: .pageTimeoutSeconds) ?? defaults.pageTimeoutSeconds
        invalidateTimeoutSeconds =
            try c.decodeIfPresent(Double.self, forKey: .invalidateTimeoutSeconds) ?? defaults.invalidateTimeoutSeconds
        idleTimeoutSeconds =
            try c.decodeIfPresent(Double.self, forKey: .idleTimeoutSeconds) ?? defaults.idleTimeoutSeconds
        itemsLimit = try c.decodeIfPresent(Int.self, forKey: .itemsLimit) ?? defaults.itemsLimit
        deviceEnvironment = try c.decodeIfPresent([String: String].self, forKey: .deviceEnvironment) ?? [:]
        backend = try c.decodeIfPresent(String.self, forKey: .backend)
        paceItemsPerSecond =
            try c.decodeIfPresent(Int.self, forKey: .paceItemsPerSecond) ?? defaults.paceItemsPerSecond
    }

    /// Reads the configuration at `path`; a missing file is the default (disabled) configuration.
    package static func load(from path: String) throws -> DomainConfiguration {
        guard let data = try SecureFile.readIfPresent(path) else { return DomainConfiguration() }
        do {
            let configuration = try fastDecode(data) ?? JSONDecoder().decode(DomainConfiguration.self, from: data)
            guard configuration.format == StoreFormat.version else {
                throw StoreError.unsupportedFormat(path: path, version: configuration.format)
            }
            return configuration
        } catch let error as StoreError {
            throw error
        } catch {
            throw StoreError.malformed(path: path, line: 1, reason: "\(error)")
        }
    }

    /// Atomically replaces the file at `path`.
    package func save(to path: String) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        var data = try encoder.encode(self)
        data.append(UInt8(ascii: "\n"))
        try SecureFile.replace(path, with: data)
    }
}
