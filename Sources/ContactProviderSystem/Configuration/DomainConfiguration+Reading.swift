import AppGroupStore
import Foundation

extension DomainConfiguration {
    /// The coding keys, numbered as the fast reader reads them (declared once, in `CodingKeys`).
    private static let cases = CodingKeys.allCases
    private static let keys = JSONKeyTable(cases.map { $0.rawValue })

    /// The fast path of ``load(from:)``: the configuration in `data`, or nil when Foundation must
    /// decide (anything outside ``StrictJSONReader``'s subset, which then gets `JSONDecoder`'s value
    /// or error).
    ///
    /// Every `contacts-host` command that touches the domain reads `domain.json`, and `JSONDecoder`'s
    /// first use was about a fifth of a millisecond of each (issue 27). `DomainConfigurationReadingTests`
    /// checks it against `JSONDecoder` on seeded random files.
    package static func fastDecode(_ data: Data) -> DomainConfiguration? {
        data.withUnsafeBytes { bytes in
            StrictJSONReader.readWhole(bytes) { reader in
                var configuration = DomainConfiguration()
                try reader.readObject(keys: keys) { reader, index in
                    // `decodeIfPresent` everywhere: null is the default.
                    if try reader.consumeNull() { return }
                    switch cases[index] {
                    case .format: configuration.format = try reader.readInt()
                    case .enabled: configuration.enabled = try reader.readBool()
                    case .extensionPath: configuration.extensionPath = try reader.readString()
                    case .pageSize: configuration.pageSize = try reader.readInt()
                    case .batchSize: configuration.batchSize = try reader.readInt()
                    case .hardCapMultiplier: configuration.hardCapMultiplier = try reader.readInt()
                    case .pageTimeoutSeconds: configuration.pageTimeoutSeconds = try reader.readDouble()
                    case .invalidateTimeoutSeconds: configuration.invalidateTimeoutSeconds = try reader.readDouble()
                    case .idleTimeoutSeconds: configuration.idleTimeoutSeconds = try reader.readDouble()
                    case .itemsLimit: configuration.itemsLimit = try reader.readInt()
                    case .paceItemsPerSecond: configuration.paceItemsPerSecond = try reader.readInt()
                    case .deviceEnvironment:
                        var environment: [String: String] = [:]
                        try reader.readObject { reader, key in
                            let name = String(decoding: key, as: UTF8.self)
                            // Which of two equal keys Foundation keeps is Foundation's to say.
                            guard environment[name] == nil else { throw StrictJSONReader.GiveUp() }
                            environment[name] = try reader.readString()
                        }
                        configuration.deviceEnvironment = environment
                    case .backend: configuration.backend = try reader.readString()
                    }
                }
                return configuration
            }
        }
    }
}
