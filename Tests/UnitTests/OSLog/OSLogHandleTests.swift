import Foundation
import OSLog
import Testing
import os

/// Issue 23, item 7: `import os` gives iOS code `Logger`, `OSLog` and `os_log`.
@Suite("import os: OSLog handles and os_log")
struct OSLogHandleTests {
    @Test("os_log fills a printf format, drops Apple's privacy annotations, writes to the handle's subsystem")
    func printfFormat() {
        let log = OSLog(subsystem: "com.example.tests", category: "handle")
        let lines = LogOutput.capturing {
            os_log("%{public}d of %{private}@ at 100%%", log: log, type: .error, 3, "book.json")
            os_log("plain 100%%")
            os_log(.info, log: log, "interpolated \(7, privacy: .public)")
            os_log("never", log: .disabled, type: .error)
            Logger(log).notice("through Logger(_:)")
        }
        #expect(lines.count == 4, "\(lines)")
        #expect(lines[0].hasSuffix("[com.example.tests:handle] error: 3 of book.json at 100%"), "\(lines)")
        #expect(lines[1].hasSuffix("[:] default: plain 100%"), "\(lines)")
        #expect(lines[2].hasSuffix("[com.example.tests:handle] info: interpolated 7"), "\(lines)")
        #expect(lines[3].hasSuffix("[com.example.tests:handle] notice: through Logger(_:)"), "\(lines)")
        #expect(!OSLog.disabled.isEnabled(type: .fault))
    }
}
