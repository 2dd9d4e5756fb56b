import AppGroupStore
import ContactProviderSystem
import Foundation

/// F1: contacts of every shape arrive field for field, through content and through changes.
///
/// One round fills the store with one contact of each of ``RichContacts``' shapes, syncs content and
/// compares every field; then each contact takes the next shape (fields appear, disappear and change
/// through updates), and the change sync is compared the same way. The round runs with the provider
/// in the kit's own time zone and locale and then in each of ``DeviceSettings/others`` (issue 30,
/// item 8): a birthday that goes through `Date` and `Calendar.current` moves by a day on one side
/// of UTC or the other.
struct FieldShapesScenario {
    let checker: ConformanceChecker

    func run() async throws {
        try await round(on: nil)
        for device in DeviceSettings.others where !checker.failed(.f1) {
            guard try await checker.subject.useDeviceSettings(device.environment) else {
                recordUncheckedDevices()
                break
            }
            try await round(on: device)
        }
        _ = try await checker.subject.useDeviceSettings([:])
    }

    /// One round with the provider on `device` (nil: the kit's own settings).
    private func round(on device: DeviceSettings?) async throws {
        let on = device.map { "with the provider \($0), " } ?? ""
        let backend = checker.backend
        try backend.reset()
        try checker.subject.resetSystem()
        let identifiers = (0..<RichContacts.shapeCount).map { "kit-\(checker.options.seed)-field-\($0)" }
        for (shape, identifier) in identifiers.enumerated() {
            try backend.add(RichContacts.make(identifier, shape: shape, salt: checker.randomInt(0...9999)))
            checker.contactShapes[identifier] = "shape \(RichContacts.name(ofShape: shape))"
        }
        guard try await checker.completeContent(rules: [.f1]) != nil else { return }
        if let difference = checker.difference(
            system: try checker.subject.systemContacts(), data: try backend.contacts())
        {
            checker.record(
                .f1,
                Finding(
                    explanation: "\(on)after the content enumeration: \(difference)",
                    step: "content enumeration of contacts of every shape"))
            return
        }
        // Each contact takes the next shape: fields appear, disappear and change through updates.
        for (shape, identifier) in identifiers.enumerated() {
            try backend.update(RichContacts.make(identifier, shape: shape + 1, salt: checker.randomInt(0...9999)))
            checker.contactShapes[identifier] =
                "shape \(RichContacts.name(ofShape: shape + 1)), was \(RichContacts.name(ofShape: shape))"
        }
        let (report, transcript) = try await checker.syncUntilCaughtUp()
        if let error = report.error {
            checker.record(
                .f1,
                Finding(
                    explanation: "\(on)the sync of updated contacts failed: \(error.message)",
                    step: "change enumeration", transcript: transcript))
        } else if let difference = checker.difference(
            system: try checker.subject.systemContacts(), data: try backend.contacts())
        {
            checker.record(
                .f1,
                Finding(
                    explanation: "\(on)after each contact changed shape: \(difference)",
                    step: "change enumeration of contacts that changed shape",
                    transcript: transcript))
        }
    }

    /// Notes, on a passing F1, that the other devices' settings were not tried (an in-process provider).
    private func recordUncheckedDevices() {
        checker.note(
            .f1,
            "checked in this process's time zone and locale only: run the provider as an executable ('contacts-host conformance --extension PATH') to check it on a device west and east of UTC and in another language"
        )
    }
}
