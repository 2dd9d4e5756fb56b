import AppGroupStore
import CommandLineToolkit
import ContactProvider
import ContactProviderConformance
import ContactProviderSystem
import ExampleProviders
import Foundation
import Glibc
import Synchronization
import TestSupport
import Testing

/// Issue 10 item 10: R11 is enforced. An extension whose `invalidate()` never returns is ended after
/// `invalidateTimeoutSeconds` with `extensionInvalidateTimeout`, by the provider runtime and by the
/// conformance kit's in-process L2 check (a task group waited for it forever).
@Suite("R11: an invalidate() that never returns is ended", .serialized)
struct InvalidateDeadlineTests {
    /// Parks callers forever (never resumed, never leaked: kept here).
    static let parked = Mutex<[CheckedContinuation<Void, Never>]>([])

    final class HangingInvalidate: ContactProviderExtension {
        private let root = DemoEnumerator()
        required init() {}
        func configure(for domain: any ContactProviderDomain) {}
        func enumerator(for collection: ContactItem.Identifier) -> any ContactItemEnumerator { root }
        func invalidate() async throws {
            // Ignores cancellation, like a provider stuck on its own lock or network call.
            await withCheckedContinuation { continuation in
                InvalidateDeadlineTests.parked.withLock { $0.append(continuation) }
            }
        }
    }

    @Test("the kit's L2 check fails the rule after the time limit instead of hanging")
    func kitL2() async throws {
        var options = ConformanceOptions(seed: 1, operations: 10, rules: [.l2])
        options.timeoutSeconds = 0.5
        let report = try await ConformanceKit.run(HangingInvalidate.self, options: options)
        let result = try #require(report.results.first { $0.rule.id == "L2" })
        #expect(result.status == .fail, "\(report.text)")
        #expect(result.explanation?.contains("did not return within 0.5 s") == true, "\(report.text)")
        #expect(result.explanation?.contains("extensionInvalidateTimeout") == true)
    }

    @Test("the provider runtime answers extensionInvalidateTimeout (R11) and exits")
    func runtime() async throws {
        try await withTemporaryAppGroup { group in
            let client = try SystemClient(appGroup: group.appGroup, domain: DefaultContactProviderDomain.identifier)
            try client.updateConfiguration {
                $0.enabled = true
                $0.invalidateTimeoutSeconds = 0.5
            }
            let runtime = try ProviderRuntime(
                options: RuntimeOptions(
                    appGroup: group.appGroup, domain: DefaultContactProviderDomain.identifier, idleTimeoutSeconds: 60))
            let served = Task {
                await runtime.run { ExtensionSession(HangingInvalidate.self, domain: DefaultContactProviderDomain()) }
            }
            defer {
                // The runtime ignores SIGTERM/SIGINT while it serves (it turns them into a shutdown doorbell).
                signal(SIGTERM, SIG_DFL)
                signal(SIGINT, SIG_DFL)
            }
            // Serving once it holds the provider lock and its FIFO has a reader.
            let deadline = Date().addingTimeInterval(20)
            while group.providerPID() != getpid() || !client.isProviderRunning, Date() < deadline {
                try await Task.sleep(nanoseconds: 10_000_000)
            }
            let reply = try await withCheckedThrowingContinuation {
                (continuation: CheckedContinuation<DoorbellReply?, Error>) in
                Thread.detachNewThread { continuation.resume(with: Result { try client.invalidate(timeout: 20) }) }
            }
            #expect(reply?.ok == false)
            #expect(reply?.error?.code == ProviderErrorCode.extensionInvalidateTimeout.rawValue)
            #expect(reply?.error?.rule == "R11")
            #expect(await served.value == ExitCode.success)
            #expect(!client.isProviderRunning)
        }
    }
}
