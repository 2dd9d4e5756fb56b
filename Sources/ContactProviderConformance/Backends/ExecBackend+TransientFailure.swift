import AppStores
import Foundation

extension ExecBackend: TransientFailureInjecting {
    /// Whether the adapter listed `break-store` in its `hello` reply.
    public var canInjectTransientFailure: Bool { capabilities.contains("break-store") }

    /// `{"op": "break-store"}`: the adapter leaves its store unreadable (its reply's `"how"` says how).
    public func beginTransientFailure() throws -> String {
        let reply = try request(["op": "break-store"])
        return reply["how"] as? String ?? "the adapter's store broken (break-store)"
    }

    /// `{"op": "repair-store"}`: the adapter puts its store back as it was.
    public func endTransientFailure() throws {
        _ = try request(["op": "repair-store"])
    }
}
