import Foundation

extension AppGroup {
    /// The environment variable that tells Foundation on Linux where user defaults live.
    ///
    /// swift-corelibs-foundation's CFPreferences stores the suite `NAME` as
    /// `$XDG_CONFIG_HOME/NAME.plist` (measured: `~/.config/NAME.plist` when unset), and reads the
    /// variable from a copy of the environment taken when the process starts: setting it later,
    /// with `setenv`, has no effect. So a process must be *started* with it.
    package static let preferencesEnvironmentVariable = "XDG_CONFIG_HOME"

    /// Where `UserDefaults(suiteName:)` keeps its suites for processes of this App Group:
    /// `Library/Preferences` inside the App Group, the layout of an App Group container on iOS
    /// (`<container>/Library/Preferences/group.….plist`).
    package var preferencesDirectory: String { path + "/Library/Preferences" }

    /// `environment` with `XDG_CONFIG_HOME` pointing at ``preferencesDirectory``, for a process
    /// whose user defaults must live in this App Group (a provider, or another process of the group).
    package func environmentForPreferences(_ environment: [String: String]) -> [String: String] {
        var environment = environment
        environment[Self.preferencesEnvironmentVariable] = preferencesDirectory
        return environment
    }
}
