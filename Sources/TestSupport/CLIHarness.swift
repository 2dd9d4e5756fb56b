import AppGroupStore
import Foundation
import Glibc
import Testing

/// Helpers for checking what `contacts-host` printed and wrote in a temporary App Group (the runner
/// is ``HostRunner``).
package enum CLIHarness {
    /// The environment of a child process that names no App Group at all.
    package static var environmentWithoutAppGroup: [String: String] {
        var environment = ProcessInfo.processInfo.environment
        environment[AppGroup.environmentVariable] = nil
        environment["OSLOG_DISABLE"] = "1"
        return environment
    }

    /// The app database of `group`.
    package static func database(_ group: TemporaryAppGroup) -> AppDatabase {
        AppDatabase(appGroup: group.appGroup)
    }

    /// The bytes of the database files (snapshot and journal; nil when absent), to show nothing was written.
    package static func databaseFiles(_ group: TemporaryAppGroup) -> [Data?] {
        let store = database(group).store
        return [store.snapshotPath, store.journalPath].map { FileManager.default.contents(atPath: $0) }
    }

    /// Parses stdout as JSON.
    package static func json(_ text: String) throws -> Any {
        try JSONSerialization.jsonObject(with: Data(text.utf8))
    }

    /// Parses stdout as a JSON array of contacts.
    package static func contacts(_ text: String) throws -> [ContactRecord] {
        try JSONDecoder().decode([ContactRecord].self, from: Data(text.utf8))
    }

    /// Checks the shape of a usage error: exit 2, nothing on stdout, exactly one `error:` line on stderr.
    package static func expectUsageError(
        _ result: ProcessResult, mentioning text: String? = nil, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        #expect(result.exitCode == 2, "\(result)", sourceLocation: sourceLocation)
        #expect(result.stdout.isEmpty, "\(result)", sourceLocation: sourceLocation)
        let lines = result.stderrLines
        #expect(lines.count == 1, "\(result)", sourceLocation: sourceLocation)
        #expect(lines.first?.hasPrefix("error: ") == true, "\(result)", sourceLocation: sourceLocation)
        if let text { #expect(result.stderr.contains(text), "\(result)", sourceLocation: sourceLocation) }
    }

    /// Checks the shape of an operational failure: exit 1, nothing on stdout, exactly one `error:` line on stderr.
    package static func expectFailure(
        _ result: ProcessResult, mentioning texts: [String] = [], sourceLocation: SourceLocation = #_sourceLocation
    ) {
        #expect(result.exitCode == 1, "\(result)", sourceLocation: sourceLocation)
        #expect(result.stdout.isEmpty, "\(result)", sourceLocation: sourceLocation)
        let lines = result.stderrLines
        #expect(lines.count == 1, "\(result)", sourceLocation: sourceLocation)
        #expect(lines.first?.hasPrefix("error: ") == true, "\(result)", sourceLocation: sourceLocation)
        for text in texts { #expect(result.stderr.contains(text), "\(result)", sourceLocation: sourceLocation) }
    }

    /// `stat(2)` of a file.
    package static func info(_ path: String) -> stat? {
        var result = stat()
        return lstat(path, &result) == 0 ? result : nil
    }

    /// The number of newline-terminated lines in a file.
    package static func lineCount(_ path: String) -> Int {
        (FileManager.default.contents(atPath: path) ?? Data()).reduce(0) { $1 == 0x0A ? $0 + 1 : $0 }
    }

    /// A contact with every field the file formats carry, including those the CLI cannot set.
    package static func richContact(_ identifier: String) -> ContactRecord {
        var record = ContactRecord(identifier: identifier)
        record.namePrefix = "Dr."
        record.givenName = "Grace"
        record.middleName = "Brewster"
        record.familyName = "Hopper"
        record.nameSuffix = "PhD"
        record.nickname = "Amazing Grace"
        record.organizationName = "US Navy"
        record.departmentName = "Computing"
        record.jobTitle = "Rear Admiral"
        record.phoneNumbers = [.init(label: "_$!<Work>!$_", value: "+1 202 555 0100")]
        record.emailAddresses = [.init(label: nil, value: "grace@example.org")]
        var address = ContactRecord.LabeledPostalAddress(label: "_$!<Work>!$_")
        address.street = "1 Navy Way"
        address.city = "Arlington"
        address.state = "VA"
        address.postalCode = "22202"
        address.country = "USA"
        address.isoCountryCode = "us"
        record.postalAddresses = [address]
        record.urlAddresses = [.init(label: "_$!<HomePage>!$_", value: "https://example.org/grace")]
        record.note = "Found the first bug.\nTabs\tand \"quotes\"."
        record.birthday = "1906-12-09"
        record.imageData = Data((0..<64).map { UInt8($0 * 3 % 256) })
        return record
    }
}
