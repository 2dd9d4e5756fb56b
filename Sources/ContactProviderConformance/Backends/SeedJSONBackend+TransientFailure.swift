import AppStores
import Foundation

extension SeedJSONBackend: TransientFailureInjecting {
    /// Leaves the first half of the file in place, as a reader sees it while the seed's app
    /// rewrites it (its `save` writes in place, not atomically): the data is still all there to come back.
    public func beginTransientFailure() throws -> String {
        let data = FileManager.default.contents(atPath: path) ?? Data("[]".utf8)
        heldDuringFailure = data
        do {
            try data.prefix(max(data.count / 2, 1)).write(to: URL(fileURLWithPath: path), options: .atomic)
        } catch {
            throw ConformanceBackendError("\(path): could not write the half-written copy (\(error))")
        }
        return "\(URL(fileURLWithPath: path).lastPathComponent) half written, as while the app saves it in place"
    }

    /// Puts the whole file back.
    public func endTransientFailure() throws {
        guard let data = heldDuringFailure else { return }
        do {
            try data.write(to: URL(fileURLWithPath: path), options: .atomic)
        } catch {
            throw ConformanceBackendError("\(path): could not put the file back after the failure (\(error))")
        }
        heldDuringFailure = nil
    }
}
