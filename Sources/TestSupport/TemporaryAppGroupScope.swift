import Foundation

/// Runs `body` with a fresh temporary App Group (see `TemporaryAppGroup`), then stops any provider
/// started in it and removes it, whether `body` returns or throws.
///
/// - Parameters:
///   - parent: where the directory is created, e.g. a `ScratchFileSystem`'s mount point.
///   - body: the test, given the App Group.
/// - Returns: what `body` returns.
@discardableResult
package func withTemporaryAppGroup<Result>(
    inside parent: String = NSTemporaryDirectory(), _ body: (TemporaryAppGroup) throws -> Result
) rethrows -> Result {
    let group = TemporaryAppGroup(inside: parent)
    defer { group.cleanUp() }
    return try body(group)
}

/// Runs the asynchronous `body` with a fresh temporary App Group (see `TemporaryAppGroup`), then stops
/// any provider started in it and removes it, whether `body` returns or throws.
///
/// `body` runs in the caller's isolation, so it may capture the caller's state.
///
/// - Parameters:
///   - parent: where the directory is created, e.g. a `ScratchFileSystem`'s mount point.
///   - isolation: the caller's actor (inferred).
///   - body: the test, given the App Group.
/// - Returns: what `body` returns.
@discardableResult
package func withTemporaryAppGroup<Result>(
    inside parent: String = NSTemporaryDirectory(), isolation: isolated (any Actor)? = #isolation,
    _ body: (TemporaryAppGroup) async throws -> Result
) async rethrows -> Result {
    let group = TemporaryAppGroup(inside: parent)
    defer { group.cleanUp() }
    return try await body(group)
}

/// Runs `body` with two fresh, separate temporary App Groups (e.g. a source and a target), then
/// cleans both up, whether `body` returns or throws.
///
/// - Parameter body: the test, given the two App Groups.
/// - Returns: what `body` returns.
@discardableResult
package func withTemporaryAppGroups<Result>(
    _ body: (TemporaryAppGroup, TemporaryAppGroup) throws -> Result
) rethrows -> Result {
    try withTemporaryAppGroup { first in
        try withTemporaryAppGroup { second in
            try body(first, second)
        }
    }
}

/// Runs the asynchronous `body` with two fresh, separate temporary App Groups, then cleans both up,
/// whether `body` returns or throws.
///
/// - Parameters:
///   - isolation: the caller's actor (inferred).
///   - body: the test, given the two App Groups.
/// - Returns: what `body` returns.
@discardableResult
package func withTemporaryAppGroups<Result>(
    isolation: isolated (any Actor)? = #isolation,
    _ body: (TemporaryAppGroup, TemporaryAppGroup) async throws -> Result
) async rethrows -> Result {
    let first = TemporaryAppGroup()
    defer { first.cleanUp() }
    let second = TemporaryAppGroup()
    defer { second.cleanUp() }
    return try await body(first, second)
}

/// Runs `body` with a temporary App Group on a fresh `tmpfs` of `bytes` (a disk the test can fill or
/// make read-only), then makes it writable, cleans the App Group up and unmounts it, whether `body`
/// returns or throws.
///
/// Where mounting is not permitted, `body` does not run: outside CI that is a skip that says why; under
/// CI it throws (see `ScratchFileSystem.requireOrSkip(bytes:)`).
///
/// - Parameters:
///   - bytes: the file system's size.
///   - body: the test, given the App Group and its file system.
package func withTemporaryAppGroup(
    onScratchFileSystemOf bytes: Int, _ body: (TemporaryAppGroup, ScratchFileSystem) throws -> Void
) throws {
    guard let disk = try ScratchFileSystem.requireOrSkip(bytes: bytes) else { return }
    defer { disk.unmount() }
    try withTemporaryAppGroup(inside: disk.path) { group in
        defer { try? disk.makeWritable() }
        try body(group, disk)
    }
}
