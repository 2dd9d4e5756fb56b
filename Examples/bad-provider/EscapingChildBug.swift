// The bug: the provider starts a helper that leaves its process group and clears its environment
// (`setsid env -i sleep N`, N from BAD_PROVIDER_CHILD_SECONDS, default 300) and never ends it, so it
// outlives the provider. Every rule passes; the kit ends the helper at the end of the run and names it
// in the report (issue 42 item 8), which it could not find by process group or environment tag alone.

import ContactProvider
import Foundation
import Glibc
import KnownBadProviders

final class EscapingChildEnumerator: ForwardingEnumerator {
    /// Started once per provider process, with the first enumerator.
    private static let helper: pid_t? = {
        let seconds = ProcessInfo.processInfo.environment["BAD_PROVIDER_CHILD_SECONDS"] ?? "300"
        let arguments = ["/usr/bin/setsid", "/usr/bin/env", "-i", "/bin/sleep", seconds]
        let argv = arguments.map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        var noEnvironment: [UnsafeMutablePointer<CChar>?] = [nil]
        var pid: pid_t = 0
        // Not waited for: the bug is that nobody ends it.
        return posix_spawn(&pid, arguments[0], nil, nil, argv, &noEnvironment) == 0 ? pid : nil
    }()

    override init(wrapping correct: any ContactItemEnumerator) {
        _ = Self.helper
        super.init(wrapping: correct)
    }
}
