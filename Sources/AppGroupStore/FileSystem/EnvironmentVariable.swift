import Glibc

/// Reads one environment variable.
///
/// `ProcessInfo.processInfo.environment` copies the whole environment into a dictionary the first
/// time a process asks, which was a tenth of a millisecond or more of every `contacts-host`
/// command that asked for one variable (issue 27); `getenv` reads just that one.
package enum EnvironmentVariable {
    /// The value of `name`, or nil when it is not set.
    package static func value(_ name: String) -> String? {
        getenv(name).map { String(cString: $0) }
    }
}
