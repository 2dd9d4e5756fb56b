import AppStores
import Foundation
import Testing

@testable import ContactsHostKit

/// Issue 39: the "nothing arrived" advice of `signal` and `status`, and when it is given.
@Suite("The app's store against the system store: signal's warning and status's line")
struct StoreDifferenceTests {
    static func report(error: String = "") throws -> ReportJSON {
        let json =
            #"{"batches":0,"deleted":0,"durationMs":1,"enumeration":"content","pages":1,"restarted":false,"systemCount":0,"updated":0"#
            + error + "}"
        return try JSONDecoder().decode(ReportJSON.self, from: Data(json.utf8))
    }

    @Test("status names a difference only after a successful sync, with contacts in the app's store")
    func statusLine() throws {
        let succeeded = try Self.report()
        let line = StoreDifference.statusLine(appCount: 3, systemCount: 1, lastSync: succeeded)
        #expect(line?.hasPrefix("stores differ: app store 3 contacts vs system 1") == true, "\(line ?? "nil")")
        #expect(StoreDifference.statusLine(appCount: 3, systemCount: 3, lastSync: succeeded) == nil)
        #expect(StoreDifference.statusLine(appCount: 0, systemCount: 2, lastSync: succeeded) == nil)
        #expect(StoreDifference.statusLine(appCount: nil, systemCount: 2, lastSync: succeeded) == nil)
        #expect(StoreDifference.statusLine(appCount: 3, systemCount: 1, lastSync: nil) == nil)
        let failed = try Self.report(error: #","error":{"message":"boom"}"#)
        #expect(StoreDifference.statusLine(appCount: 3, systemCount: 1, lastSync: failed) == nil)
    }

    @Test("the cause names --backend for the App Group database, --relaunch for a store of the provider's")
    func causes() {
        let database = StoreDifference.cause(.appDatabase)
        #expect(database.contains("'contacts-host enable --backend seed-json[:FILE]'"))
        #expect(database.contains("'contacts-host log'"))
        let file = StoreDifference.cause(.seedJSON(file: "ContactItems.json"))
        #expect(file.contains("'contacts-host signal --relaunch --wait'"))
        #expect(!file.contains("enable --backend"))
    }
}
