import Foundation

extension CardDAVBackend: TransientFailureInjecting {
    /// Whether the provider reads the server through the kit's proxy (``startFailureProxy()``, which
    /// the kit's runs call for an `http:` server): only then can the server fail for the provider.
    public var canInjectTransientFailure: Bool { failureProxy != nil }

    /// The server answers every request of the provider with `503 Service Unavailable` and
    /// `Retry-After: 1`, as one does while it restarts or is overloaded; the address book keeps every
    /// card (the kit's proxy answers, and the server sees none of it).
    public func beginTransientFailure() throws -> String {
        guard let failureProxy else {
            throw CardDAVBackendError(
                "the provider reads the server directly: call startFailureProxy() before configureProvider(in:)")
        }
        failureProxy.beginFailure()
        return
            "the CardDAV server answering every request with 503 Service Unavailable (Retry-After: 1), as while it restarts"
    }

    /// The server answers again: the proxy forwards every request.
    public func endTransientFailure() throws {
        failureProxy?.endFailure()
    }
}
