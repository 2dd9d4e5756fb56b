import Foundation
import OSLog
import Testing

/// An error with a fixed description, for interpolation tests.
private struct SampleError: Error, CustomStringConvertible {
    var description: String { "sample failure" }
}

/// A type that is neither `CustomStringConvertible` nor an error.
private struct Opaque {
    let value = 7
}

@Suite("OSLog stand-in")
struct OSLogStandInTests {
    @Test("Logger(subsystem:category:).info compiles with privacy and renders \"x 1\"")
    func infoWithPrivacy() {
        let logger = Logger(subsystem: "com.example.tests", category: "oslog")
        let message: OSLogMessage = "x \(1, privacy: .public)"
        #expect(message.rendered == "x 1")
        logger.info("x \(1, privacy: .public)")
        #expect(logger.subsystem == "com.example.tests")
        #expect(logger.category == "oslog")
    }

    @Test("Common interpolations render their values")
    func interpolations() {
        let name = "Ada"
        let count = 3
        let ratio = 0.5
        let flag = true
        let error: any Error = SampleError()
        let optional: String? = nil
        let message: OSLogMessage = """
            \(name, privacy: .private) \(count) \(ratio, privacy: .public) \(flag) \
            \(error, privacy: .public) \(SampleError()) \(UInt8(9)) \(Opaque()) \(optional) \
            \(name, privacy: .private(mask: .hash)) \(count, privacy: .sensitive) \(URL(string: "https://a.b")!)
            """
        #expect(
            message.rendered == """
                Ada 3 0.5 true sample failure sample failure 9 Opaque(value: 7) nil Ada 3 https://a.b
                """)
    }

    @Test("A plain literal renders as itself")
    func plainLiteral() {
        let message: OSLogMessage = "no values here"
        #expect(message.rendered == "no values here")
    }

    @Test("Interpolated values are evaluated only when the message is rendered")
    func lazyEvaluation() {
        final class Counter {
            var calls = 0
            func next() -> Int {
                calls += 1
                return calls
            }
        }
        let counter = Counter()
        let message: OSLogMessage = "value \(counter.next())"
        #expect(counter.calls == 0)
        #expect(message.rendered == "value 1")
        #expect(counter.calls == 1)
    }

    @Test("Every logging method compiles and accepts a message")
    func allMethods() {
        let logger = Logger()
        #expect(logger.subsystem.isEmpty && logger.category.isEmpty)
        // Captured, not written: these lines would otherwise read like failures in `swift test` output.
        let lines = LogOutput.capturing {
            logger.log("log")
            logger.log(level: .error, "log level \(OSLogType.error.rawValue)")
            logger.trace("trace")
            logger.debug("debug")
            logger.info("info")
            logger.notice("notice")
            logger.warning("warning")
            logger.error("error")
            logger.critical("critical")
            logger.fault("fault")
        }
        guard LogOutput.isEnabled else { return }
        for message in ["log level 16", "info", "warning", "critical", "fault"] {
            #expect(lines.contains { $0.hasSuffix(": \(message)") }, "\(message) in \(lines)")
        }
    }

    @Test("OSLogType raw values match Apple's")
    func logTypeRawValues() {
        #expect(OSLogType.default.rawValue == 0x00)
        #expect(OSLogType.info.rawValue == 0x01)
        #expect(OSLogType.debug.rawValue == 0x02)
        #expect(OSLogType.error.rawValue == 0x10)
        #expect(OSLogType.fault.rawValue == 0x11)
    }

    @Test("The output line is '<ISO 8601 time> [subsystem:category] level: message'")
    func outputLine() {
        let line = LogOutput.line(
            date: Date(timeIntervalSince1970: 0), subsystem: "com.example", category: "sync",
            level: "info", message: "hello")
        #expect(line == "1970-01-01T00:00:00.000Z [com.example:sync] info: hello")
    }

    @Test("OSLOG_DISABLE=1 turns output off; anything else leaves it on")
    func disableVariable() {
        #expect(LogOutput.disableVariable == "OSLOG_DISABLE")
        #expect(LogOutput.isEnabled(disableValue: nil))
        #expect(LogOutput.isEnabled(disableValue: "0"))
        #expect(!LogOutput.isEnabled(disableValue: "1"))
    }
}
