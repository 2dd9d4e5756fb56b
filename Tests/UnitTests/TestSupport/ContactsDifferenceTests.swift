import AppGroupStore
import TestSupport
import Testing

@Suite("expectSameContacts: a failed app-versus-system comparison names the contacts and fields that differ")
struct ContactsDifferenceTests {
    private let app = [
        "ada": #"{"familyName":"Lovelace","givenName":"Ada","identifier":"ada"}"#,
        "bob": #"{"givenName":"Bob","identifier":"bob"}"#,
        "cy": #"{"givenName":"Cy","identifier":"cy","phoneNumbers":[{"label":"mobile","value":"1"}]}"#,
    ]
    private let system = [
        "ada": #"{"familyName":"King","givenName":"Ada","identifier":"ada"}"#,
        "cy": #"{"givenName":"Cy","identifier":"cy"}"#,
        "eve": #"{"givenName":"Eve","identifier":"eve"}"#,
    ]

    @Test("The description lists each differing field with both values, then the identifiers only one side holds")
    func describesFieldsAndMissingContacts() {
        let difference = ContactsDifference(app: app, system: system)
        #expect(!difference.isEmpty)
        #expect(
            difference.description
                == #"contact ada: familyName app="Lovelace" system="King"; "#
                + #"contact cy: phoneNumbers app=[{"label":"mobile","value":"1"}] system=(absent); "#
                + "only in app: bob; only in system: eve")
    }

    @Test("Equal contacts give no difference and no issue, whatever the key order of their JSON")
    func equalContactsPass() {
        var reordered = app
        reordered["bob"] = #"{"identifier":"bob","givenName":"Bob"}"#
        let difference = ContactsDifference(app: app, system: reordered)
        #expect(difference.isEmpty, "\(difference)")
        expectSameContacts(app: app, system: reordered)
    }

    @Test("expectSameContacts fails with the diff, not two whole dictionaries")
    func failureMessageIsTheDiff() {
        withKnownIssue {
            expectSameContacts(app: app, system: system)
        } matching: { issue in
            let text = issue.comments.map(\.rawValue).joined()
            return text.hasPrefix("the system store differs from the app database: contact ada: familyName")
                && text.contains("only in app: bob; only in system: eve") && !text.contains("Lovelace\",\"givenName")
        }
    }

    @Test("Records read in process compare the same way; long lists end with a count")
    func recordsAndLongLists() {
        var appRecords = (0..<25).map { ContactRecord(identifier: String(format: "c%02d", $0)) }
        appRecords[3].givenName = "Three"
        let difference = ContactsDifference(app: appRecords, system: [ContactRecord(identifier: "c03")])
        #expect(difference.fields.map(\.field) == ["givenName"])
        #expect(difference.fields.first?.app == #""Three""#)
        #expect(difference.onlyInApp.count == 24)
        #expect(difference.description.hasSuffix("c20 … and 4 more"), "\(difference)")
    }

    @Test("Named sides: a before/after comparison of one store says before and after")
    func namedSides() throws {
        let difference = try ContactsDifference(
            appJSON: #"[{"identifier":"a","givenName":"A"}]"#, systemJSON: #"[{"identifier":"a","givenName":"B"}]"#,
            sides: ("before", "after"))
        #expect(difference.description == #"contact a: givenName before="A" after="B""#)
    }
}
