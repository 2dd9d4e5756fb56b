import AppGroupStore
import Foundation
import Glibc
import TestSupport
import Testing

@testable import ContactProviderSystem

/// A doorbell rung just as the provider exits: the provider closed its end of the request pipe
/// between the host's open and its write. The host must hear "the provider exited" (what callers,
/// the kit's start-failure checks among them, act on), not a bare broken pipe (seen in CI: the
/// kit's T1 scenario at seed 7 reported "requests.fifo: write failed: Broken pipe").
@Suite("SystemClient: a doorbell whose reader is gone")
struct DoorbellDeliveryTests {
    @Test("a write that finds the request pipe's reader gone (EPIPE) is reported as the provider's exit")
    func brokenPipeIsProviderExit() throws {
        try withTemporaryAppGroup { group in
            // The host ignores SIGPIPE (pipe-messages.md); so does this process while the test writes.
            let previous = signal(SIGPIPE, SIG_IGN)
            defer { signal(SIGPIPE, previous) }
            let client = try SystemClient(appGroup: group.appGroup, domain: "defaultDomain")
            var ends: [Int32] = [0, 0]
            try #require(pipe(&ends) == 0)
            close(ends[0])  // the reader exits
            defer { close(ends[1]) }
            #expect {
                try client.deliver(ends[1], Data("{\"v\":1,\"kind\":\"signal\"}\n".utf8), wait: true, timeout: 1)
            } throws: { error in
                guard case SystemClient.ClientError.providerExited = error else { return false }
                return true
            }
        }
    }
}
