import AppGroupStore
import ContactProviderSystem
import Foundation

extension ConformanceChecker {
    /// F1: contacts of every shape arrive field for field, through content and through changes.
    func fieldRule() async throws {
        try backend.reset()
        try subject.resetSystem()
        let identifiers = (0..<RichContacts.shapeCount).map { "kit-\(options.seed)-field-\($0)" }
        for (shape, identifier) in identifiers.enumerated() {
            try backend.add(RichContacts.make(identifier, shape: shape, salt: randomInt(0...9999)))
        }
        guard try await completeContent(rules: [.f1]) != nil else { return }
        if let difference = difference(system: try subject.systemContacts(), data: try backend.contacts()) {
            record(
                .f1,
                Finding(
                    explanation: "after the content enumeration: \(difference)",
                    step: "content enumeration of contacts of every shape"))
            return
        }
        // Each contact takes the next shape: fields appear, disappear and change through updates.
        for (shape, identifier) in identifiers.enumerated() {
            try backend.update(RichContacts.make(identifier, shape: shape + 1, salt: randomInt(0...9999)))
        }
        let (report, transcript) = try await syncUntilCaughtUp()
        if let error = report.error {
            record(
                .f1,
                Finding(
                    explanation: "the sync of updated contacts failed: \(error.message)", step: "change enumeration",
                    transcript: transcript))
        } else if let difference = difference(system: try subject.systemContacts(), data: try backend.contacts()) {
            record(
                .f1,
                Finding(
                    explanation: "after each contact changed shape: \(difference)",
                    step: "change enumeration of contacts that changed shape",
                    transcript: transcript))
        }
    }

    /// D8: an identifier deleted and added again, in one batch window and across batches.
    func reusedIdentifierRule() async throws {
        let records = try freshData(count: 4)
        guard try await completeContent(rules: [.d8]) != nil else { return }
        // In one batch window: deleted and added again before the provider is asked.
        var again = makeContact()
        again.identifier = records[0].identifier
        try backend.delete(identifier: again.identifier)
        try backend.add(again)
        try await systemConverges(
            rule: .d8, step: "sync after \(again.identifier) was deleted and added again before one signal")
        guard !failed(.d8) else { return }
        // Across batches: the deletion is synced first, then the identifier comes back.
        let identifier = records[1].identifier
        try backend.delete(identifier: identifier)
        let (report, transcript) = try await syncUntilCaughtUp()
        if let error = report.error {
            record(
                .d8,
                Finding(
                    explanation: "the sync of a deletion failed: \(error.message)",
                    step: "sync after deleting \(identifier)", transcript: transcript))
            return
        }
        var back = makeContact()
        back.identifier = identifier
        try backend.add(back)
        try await systemConverges(
            rule: .d8, step: "sync after \(identifier), deleted by the previous sync, was added again")
    }
}
