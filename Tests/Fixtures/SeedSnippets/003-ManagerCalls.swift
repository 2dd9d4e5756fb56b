// swift-format-ignore-file
// Seed 003 ("Contact Provider Extension"), "Required actions for the app and extension": the two
// statement pairs the article shows bare, as written, each in an async throwing function.
import ContactProvider

func enableTheProvider() async throws {
    let manager = try ContactProviderManager()
    try await manager.enable()
}

func synchronizeTheContacts() async throws {
    let manager = try ContactProviderManager()
    try await manager.signalEnumerator()
}
