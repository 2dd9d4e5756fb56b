import AppGroupStore
import ContactProviderSystem
import Foundation

/// D2, issue 43 class 2: the device's time zone changes between two syncs. F1 runs the provider in
/// each time zone from scratch, so a provider whose anchors or change detection depend on local time
/// ("changed since" a wall-clock time without its zone) passes it: within one zone its times agree.
/// A phone crosses zones between syncs; read in the new zone, such a time points to another instant,
/// and going west it lies in the future: every edit since the last sync looks older and is lost.
/// Here the provider syncs content and a change batch 14 hours east of UTC, the app edits, the
/// provider is relaunched 10 hours west of UTC (24 hours apart on the wall clock), and the system
/// syncs again: it must hold exactly the data.
struct TimeZoneChangeScenario {
    /// Contacts of the scenario.
    static let contacts = 8

    let checker: ConformanceChecker

    func run() async throws {
        let (east, west) = (DeviceSettings.farEast, DeviceSettings.farWest)
        guard try await checker.subject.useDeviceSettings(east.environment) else {
            // A provider in the kit's process shares its time zone.
            checker.note(
                .d2,
                "a change of the device's time zone between two syncs was not checked: run the provider as an executable ('contacts-host conformance --extension PATH')"
            )
            return
        }
        do {
            try await check(from: east, to: west)
        } catch {
            _ = try? await checker.subject.useDeviceSettings([:])
            throw error
        }
        _ = try await checker.subject.useDeviceSettings([:])
    }

    private func check(from east: DeviceSettings, to west: DeviceSettings) async throws {
        checker.checking(.d2)
        // Identifiers of their own, none shared with D2's first scenario.
        checker.scenarioData.identifierPrefix += "-time-zone"
        try checker.freshData(count: Self.contacts)
        guard try await checker.completeContent(rules: [.d2]) != nil else { return }
        // A change sync in the first zone, so the provider's next anchor is one it made there.
        try checker.mutate(updates: 2, deletes: 1, adds: 1)
        try await checker.systemConverges(rule: .d2, step: "change sync with the provider \(east)")
        guard !checker.failed(.d2) else { return }
        try checker.mutate(updates: 2, deletes: 1, adds: 1)
        guard try await checker.subject.useDeviceSettings(west.environment) else { return }
        let (report, transcript) = try await checker.syncUntilCaughtUp()
        let step = "change sync after the provider moved from \(east.timeZone) to \(west.timeZone) (relaunched)"
        if let error = report.error {
            checker.record(
                .d2, Finding(explanation: "the sync failed: \(error.message)", step: step, transcript: transcript))
            return
        }
        if let difference = checker.difference(
            system: try checker.subject.systemContacts(), data: try checker.backend.contacts())
        {
            checker.record(
                .d2,
                Finding(
                    explanation:
                        "after the device moved from \(east.timeZone) to \(west.timeZone) between two syncs, the changes since the last one did not arrive: \(difference). An anchor or change detection that holds a wall-clock time without its time zone points to another instant in the new zone (here 24 hours later: every edit since looks older); keep positions in the store's own order, or instants in UTC",
                    step: step, transcript: transcript))
        }
    }
}
