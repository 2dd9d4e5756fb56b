import AppGroupStore
import Foundation
import Glibc
import TestSupport
import Testing

@testable import ContactProviderSystem

/// A doorbell rung just as the provider exits: the provider closed its end of the request pipe
/// between the host's open and its write. The write is one atomic `write(2)`, so the line reached
/// no provider: `deliver` says so (`readerLeft`, not a bare broken pipe: seen in CI, the kit's T1
/// scenario at seed 7 reported "requests.fifo: write failed: Broken pipe"), and the host waits for
/// that provider to leave and rings once more (`ringAgainAfterReaderLeft`; end to end:
/// LeavingProviderDoorbellTests).
@Suite("SystemClient: a doorbell whose reader is gone")
struct DoorbellDeliveryTests {
    private let line = Data("{\"v\":1,\"kind\":\"signal\"}\n".utf8)

    @Test("a write that finds the request pipe's reader gone (EPIPE) is a doorbell that reached nobody")
    func brokenPipeIsReaderLeft() throws {
        try withTemporaryAppGroup { group in
            // The host ignores SIGPIPE (pipe-messages.md); so does this process while the test writes.
            let previous = signal(SIGPIPE, SIG_IGN)
            defer { signal(SIGPIPE, previous) }
            let client = try SystemClient(appGroup: group.appGroup, domain: "defaultDomain")
            var ends: [Int32] = [0, 0]
            try #require(pipe(&ends) == 0)
            close(ends[0])  // the reader exits
            defer { close(ends[1]) }
            #expect(try client.deliver(ends[1], line, wait: true, timeout: 1) == .readerLeft)
        }
    }

    @Test("once the leaving provider is gone, a caller that launches nothing finds nothing running: no error")
    func nothingRunningAfterReaderLeft() throws {
        try withTemporaryAppGroup { group in
            let client = try SystemClient(appGroup: group.appGroup, domain: "defaultDomain")
            try client.paths.ensureDirectories()
            try client.ringAgainAfterReaderLeft(
                line, wait: false, timeout: 1, launch: nil, retryIfUnreachable: true, retry: true)
        }
    }

    @Test("a reader that leaves on the one more ring as well is the provider's exit, naming its log")
    func secondReaderLeftIsProviderExit() throws {
        try withTemporaryAppGroup { group in
            let client = try SystemClient(appGroup: group.appGroup, domain: "defaultDomain")
            try client.paths.ensureDirectories()
            #expect(throws: SystemClient.ClientError.providerExited(log: client.paths.providerLog)) {
                try client.ringAgainAfterReaderLeft(
                    line, wait: false, timeout: 1, launch: nil, retryIfUnreachable: true, retry: false)
            }
        }
    }
}
