import AppGroupStore
import Foundation
import Glibc

/// FIFOs in the App Group, with the Linux pitfalls handled (design notes §3.1).
///
/// - A reader opens `O_RDWR`, so it always holds a writer itself: no EOF/POLLHUP spin when
///   hosts come and go.
/// - A writer opens `O_WRONLY | O_NONBLOCK`: `ENXIO` means nobody is listening (the provider is
///   not running), which is how the host knows to launch it.
/// - Messages are single `write(2)` calls of at most `PIPE_BUF` bytes, so they are never interleaved.
/// - A stale FIFO left by a crash is reused if it is ours; a symlink, a foreign file or a non-FIFO
///   at the path is refused.
package enum NamedPipe {
    /// Linux's `PIPE_BUF`: writes up to this size are atomic.
    package static let atomicWriteLimit = 4096

    /// Creates the FIFO at `path` (mode 0600) unless a valid one is already there.
    package static func ensure(_ path: String) throws {
        var info = stat()
        if lstat(path, &info) == 0 {
            try validate(path, info)
            return
        }
        if mkfifo(path, 0o600) != 0, errno != EEXIST {
            throw PipeError.io(path: path, operation: "mkfifo", errno: errno)
        }
        _ = chmod(path, 0o600)
        guard lstat(path, &info) == 0 else { throw PipeError.io(path: path, operation: "lstat", errno: errno) }
        try validate(path, info)
    }

    private static func validate(_ path: String, _ info: stat) throws {
        if let problem = problem(info) { throw PipeError.unsafePath(path: path, reason: problem.reason) }
    }

    /// Why a file at a pipe's path cannot be used as one.
    package enum Problem: Equatable {
        /// A symbolic link, a regular file, a directory…: `--repair` moves it aside.
        case notAFIFO(reason: String)
        /// Another user's FIFO: `--repair` moves it aside.
        case foreignOwner(uid: uid_t)
        /// This user's FIFO, readable or writable by others (a copied or restored App Group):
        /// `--repair` sets it to 0600.
        case looseMode(mode_t)

        /// The words `NamedPipe` and `doctor` both use.
        package var reason: String {
            switch self {
            case .notAFIFO(let reason): reason
            case .foreignOwner(let uid): "is owned by uid \(uid), not by this user"
            case .looseMode(let mode): "is accessible to other users (mode \(String(mode & 0o777, radix: 8)))"
            }
        }
    }

    /// What makes the file `info` describes unusable as a pipe, or nil: the one check the pipes and the
    /// doctor share, so that every pipe a signal refuses is a problem `doctor` reports (issue 42, item 6).
    package static func problem(_ info: stat) -> Problem? {
        let type = info.st_mode & S_IFMT
        if type == S_IFLNK { return .notAFIFO(reason: "is a symbolic link, not a FIFO") }
        if type != S_IFIFO { return .notAFIFO(reason: "is not a FIFO") }
        if info.st_uid != geteuid() { return .foreignOwner(uid: info.st_uid) }
        if info.st_mode & 0o077 != 0 { return .looseMode(info.st_mode) }
        return nil
    }

    /// Opens the FIFO for reading, holding a writer too (`O_RDWR`, non-blocking).
    package static func openForReading(_ path: String) throws -> Int32 {
        try ensure(path)
        let fd = open(path, O_RDWR | O_NONBLOCK | O_NOFOLLOW | O_CLOEXEC)
        guard fd >= 0 else { throw PipeError.io(path: path, operation: "open", errno: errno) }
        return fd
    }

    /// The result of trying to reach a reader.
    package enum WriteOpen {
        case opened(Int32)
        /// Nobody has the FIFO open for reading (or it does not exist).
        case noReader
    }

    /// How often an idle provider checks that its pipe is still the one hosts write to (``isStillAt(_:fd:)``):
    /// once a second wakes an idle process too rarely to cost anything, and ends a wedge within a second.
    package static let pathCheckIntervalSeconds = 1.0

    /// Whether `path` still names the FIFO `fd` reads. A removed or replaced `requests.fifo` leaves
    /// its provider reading an inode no host can reach while it holds the domain's lock, so no other
    /// provider can start: the domain was wedged (issue 42, item 12).
    package static func isStillAt(_ path: String, fd: Int32) -> Bool {
        var open = stat()
        var named = stat()
        guard fstat(fd, &open) == 0, lstat(path, &named) == 0 else { return false }
        return open.st_dev == named.st_dev && open.st_ino == named.st_ino
    }

    /// Opens the FIFO for writing without blocking.
    package static func openForWriting(_ path: String) throws -> WriteOpen {
        var info = stat()
        guard lstat(path, &info) == 0 else {
            if errno == ENOENT { return .noReader }
            throw PipeError.io(path: path, operation: "lstat", errno: errno)
        }
        try validate(path, info)
        let fd = open(path, O_WRONLY | O_NONBLOCK | O_NOFOLLOW | O_CLOEXEC)
        if fd < 0 {
            if errno == ENXIO { return .noReader }
            throw PipeError.io(path: path, operation: "open", errno: errno)
        }
        return .opened(fd)
    }

    /// Writes one message line atomically. Throws if it is too large or the reader went away.
    package static func writeLine(_ fd: Int32, _ line: Data, path: String) throws {
        guard line.count <= atomicWriteLimit else {
            throw PipeError.io(
                path: path, operation: "write (message of \(line.count) bytes exceeds PIPE_BUF)", errno: EMSGSIZE)
        }
        let written = line.withUnsafeBytes { write(fd, $0.baseAddress, line.count) }
        if written != line.count {
            throw PipeError.io(path: path, operation: "write", errno: written < 0 ? errno : EAGAIN)
        }
    }

    /// Writes one doorbell; when the pipe is full, waits for room (poll POLLOUT) until `timeoutSeconds`.
    ///
    /// - Returns: false if the pipe stayed full: the reader has a backlog of doorbells, so one more
    ///   adds nothing for a caller that does not wait for an answer.
    package static func ring(_ fd: Int32, _ line: Data, path: String, timeoutSeconds: Double) throws -> Bool {
        let deadline = ContinuousSystemClock().now() + timeoutSeconds
        while true {
            do {
                try writeLine(fd, line, path: path)
                return true
            } catch PipeError.io(_, _, let code) where code == EAGAIN {
                let remaining = deadline - ContinuousSystemClock().now()
                guard remaining > 0 else { return false }
                var descriptor = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
                _ = poll(&descriptor, 1, Int32(min(remaining * 1000, 1000)))
            }
        }
    }

    /// Waits until `fd` is readable or hung up; false on timeout.
    package static func waitReadable(_ fd: Int32, timeoutSeconds: Double) -> Bool {
        var descriptor = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        let deadline = ContinuousSystemClock().now() + timeoutSeconds
        while true {
            let remaining = max(deadline - ContinuousSystemClock().now(), 0)
            let milliseconds = timeoutSeconds.isInfinite ? -1 : Int32(min(remaining * 1000, Double(Int32.max)))
            let result = poll(&descriptor, 1, milliseconds)
            if result > 0 { return true }
            if result == 0 { return false }
            if errno != EINTR { return true }
        }
    }
}

/// Splits a byte stream into lines, with a bound on memory.
///
/// A line longer than `limit` is dropped (and reported) instead of being buffered without end:
/// oversized or flooding input cannot grow the reader's memory.
package struct BoundedLineBuffer {
    private var buffer: [UInt8] = []
    private var discarding = false
    /// The longest line kept.
    package let limit: Int

    package init(limit: Int = NamedPipe.atomicWriteLimit) {
        self.limit = limit
    }

    /// A complete line, or a line that had to be dropped.
    package enum Item: Equatable {
        case line(Data)
        case oversized
    }

    /// Adds bytes; returns the complete lines they finish.
    package mutating func append(_ bytes: UnsafeRawBufferPointer) -> [Item] {
        var items: [Item] = []
        for byte in bytes {
            if byte == 0x0A {
                if discarding {
                    discarding = false
                } else {
                    items.append(.line(Data(buffer)))
                }
                buffer.removeAll(keepingCapacity: true)
            } else if !discarding {
                buffer.append(byte)
                if buffer.count > limit {
                    buffer.removeAll()
                    discarding = true
                    items.append(.oversized)
                }
            }
        }
        return items
    }
}
