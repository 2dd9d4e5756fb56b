import AppStores
import Foundation

extension AppGroupDatabaseBackend: TransientFailureInjecting {
    /// Appends one whole line to the journal that is not a change, as a disk error or a writer of
    /// another version leaves it: every reader of the journal then fails with an error that names
    /// the file and line (the store's contacts are all still there), until ``endTransientFailure()``
    /// cuts the line off again (issue 43, class 5: the demo provider could not be checked by T1).
    public func beginTransientFailure() throws -> String {
        guard let handle = FileHandle(forUpdatingAtPath: journalPath) else {
            throw ConformanceBackendError("\(journalPath): no journal to break (the kit adds contacts first)")
        }
        defer { try? handle.close() }
        do {
            let length = try handle.seekToEnd()
            journalLengthBeforeFailure = length
            try handle.write(contentsOf: Data("{\"unreadable\": a line a disk error left}\n".utf8))
            try handle.synchronize()
        } catch {
            throw ConformanceBackendError("\(journalPath): could not append the unreadable line (\(error))")
        }
        return "an unreadable line at the end of the database's journal.jsonl, as a disk error leaves it"
    }

    /// Cuts the unreadable line off: the journal is byte for byte what it was.
    public func endTransientFailure() throws {
        guard let length = journalLengthBeforeFailure else { return }
        guard let handle = FileHandle(forUpdatingAtPath: journalPath) else {
            throw ConformanceBackendError("\(journalPath): the journal went away during the failure")
        }
        defer { try? handle.close() }
        do {
            try handle.truncate(atOffset: length)
            try handle.synchronize()
        } catch {
            throw ConformanceBackendError("\(journalPath): could not cut the unreadable line off (\(error))")
        }
        journalLengthBeforeFailure = nil
    }
}
