import AppGroupStore
import AppStores
import Foundation

extension ConformanceBackendKind {
    /// The backend for a run whose App Group is `appGroup`: a local store as
    /// `makeLocalBackend(appGroup:timeoutSeconds:)` makes it, or a
    /// CardDAV address book (whose `carddav.json` is written into `appGroup` for the provider). An
    /// `http:` server is read by the provider through the kit's proxy (``CardDAVBackend/startFailureProxy()``),
    /// so rule T1 can make it fail for a moment; an `https:` one directly, and T1 is not checked.
    /// `timeoutSeconds` bounds an adapter's answer, or one request to the CardDAV server.
    public func makeBackend(appGroup: AppGroup, timeoutSeconds: Double = 30) throws -> any ConformanceBackend {
        guard case .carddav(let url) = self else {
            return try makeLocalBackend(appGroup: appGroup, timeoutSeconds: timeoutSeconds)
        }
        let backend = try CardDAVBackend(argument: url, requestTimeoutSeconds: timeoutSeconds)
        if backend.collection.scheme?.lowercased() == "http" { try backend.startFailureProxy() }
        try backend.configureProvider(in: appGroup)
        return backend
    }
}
