import Synchronization

/// What an extension process did that the framework reserves for the app (R13), noted where it
/// happened and handed to the sync that runs next as its warnings, so the provider's log, the sync's
/// report and the conformance kit's W1 all say so (issue 40).
package enum ExtensionDiagnostics {
    /// Whether this process is an extension (set once by the extension's entry point, before any
    /// provider code runs). A test process that checks a provider in process is not one.
    package static let isExtensionProcess = Atomic<Bool>(false)

    private static let pending = Mutex<[String]>([])

    /// Notes `warning` (a rule id first, `R13: …`) for the next sync's report.
    package static func note(_ warning: String) {
        pending.withLock { $0.append(warning) }
    }

    /// The warnings noted since the last call.
    package static func drain() -> [String] {
        pending.withLock { notes in
            defer { notes.removeAll() }
            return notes
        }
    }
}
