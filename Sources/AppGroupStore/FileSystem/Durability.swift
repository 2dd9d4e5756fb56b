import Foundation
import Glibc
import Synchronization

/// Whether a write must reach stable storage before it is acknowledged.
///
/// Every store in an App Group is durable: a commit is acknowledged only after its `fdatasync`, and a
/// file replaced whole is `fsync`ed with its directory. The one exception is a directory made only to
/// be thrown away, the conformance kit's temporary App Group: nothing in it is anyone's data, the run
/// deletes it, and no verdict of the kit depends on a power cut (it kills processes, and the page cache
/// outlives them). There a barrier is only waiting. On a loaded 2-core machine a 1,000-operation kit
/// run (V1) spent 13 of its 18 s of wall time in about 2,400 barriers, for 2.3 s of CPU (issue 43,
/// item 9).
///
/// A directory is marked by the process that made it (``markEphemeral(_:)``); a provider process
/// launched for an App Group inside it is told so through ``environmentVariable``, read once at start.
/// Everything outside a marked directory stays durable, whatever the environment says of other paths.
package enum Durability {
    /// The environment variable that names an ephemeral directory to a process launched into it.
    package static let environmentVariable = "CONTACT_PROVIDER_EPHEMERAL_APP_GROUP"

    private static let roots = Mutex<[String]>(initialRoots())

    private static func initialRoots() -> [String] {
        guard let value = getenv(environmentVariable).map({ String(cString: $0) }), value.hasPrefix("/") else {
            return []
        }
        return [normalized(value)]
    }

    private static func normalized(_ path: String) -> String {
        var path = path
        while path.count > 1, path.hasSuffix("/") { path.removeLast() }
        return path
    }

    /// Marks `root` (an absolute path) and everything under it as needing no durability barrier.
    package static func markEphemeral(_ root: String) {
        let root = normalized(root)
        roots.withLock { if !$0.contains(root) { $0.append(root) } }
    }

    /// Undoes ``markEphemeral(_:)``: `root` is durable again (call it when the directory is removed).
    package static func unmarkEphemeral(_ root: String) {
        let root = normalized(root)
        roots.withLock { $0.removeAll { $0 == root } }
    }

    /// The marked directory that holds `path`, if any.
    package static func ephemeralRoot(containing path: String) -> String? {
        roots.withLock { roots in
            roots.first { path == $0 || path.hasPrefix($0 + "/") }
        }
    }

    /// Whether writes to `path` skip their barriers (it lies in a marked directory).
    package static func isEphemeral(_ path: String) -> Bool {
        ephemeralRoot(containing: path) != nil
    }
}
