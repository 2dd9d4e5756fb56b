import AppGroupStore
import Foundation
import Glibc

/// Why `contacts-host log --follow` could not follow the provider log.
package enum LogFollowError: Error, CustomStringConvertible {
    /// inotify would not watch the log's directory (`errno`).
    case cannotWatch(directory: String, errno: Int32)

    package var description: String {
        switch self {
        case .cannotWatch(let directory, let code):
            "cannot watch \(directory) for new log lines: \(String(cString: strerror(code)))"
                + (code == ENOSPC
                    ? " (the inotify watch limit is reached: raise fs.inotify.max_user_watches, or run without --follow)"
                    : "; run without --follow to print the log once")
        }
    }
}

/// The lines of a provider log and of its rotated generation, in the order they were written.
package enum ProviderLogFile {
    /// The older generation `ProviderLog` rotates the log into.
    package static func rotated(_ path: String) -> String { path + ".1" }

    /// Opens `path` for reading: nil when it does not exist; never through a symbolic link, and only
    /// a regular file this user owns (the App Group's rule for every file in it).
    package static func open(_ path: String) throws -> Int32? {
        let fd = Glibc.open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
        if fd < 0 {
            if errno == ENOENT { return nil }
            if errno == ELOOP { throw StoreError.unsafePath(path: path, reason: "is a symbolic link") }
            throw StoreError.io(path: path, operation: "open", errno: errno)
        }
        do {
            try SecureFile.checkRegularOwned(fd: fd, path: path)
        } catch {
            close(fd)
            throw error
        }
        return fd
    }

    /// Every line of `path.1`, then of `path` (an unfinished last line included).
    package static func lines(_ path: String) throws -> [String] {
        var lines: [String] = []
        for file in [rotated(path), path] {
            guard let fd = try open(file) else { continue }
            defer { close(fd) }
            var splitter = LineSplitter()
            lines += splitter.append(try SecureFile.readAll(fd: fd, path: file))
            lines += splitter.finish()
        }
        return lines
    }
}

/// Splits bytes into lines, keeping an unfinished last line until its newline arrives.
struct LineSplitter {
    private var pending = Data()

    /// The lines `data` completes.
    mutating func append(_ data: Data) -> [String] {
        pending.append(data)
        var lines: [String] = []
        var start = pending.startIndex
        while let newline = pending[start...].firstIndex(of: 0x0A) {
            lines.append(String(decoding: pending[start..<newline], as: UTF8.self))
            start = pending.index(after: newline)
        }
        pending = Data(pending[start...])
        return lines
    }

    /// The unfinished last line, if any (its writer will add no more to it).
    mutating func finish() -> [String] {
        defer { pending = Data() }
        return pending.isEmpty ? [] : [String(decoding: pending, as: UTF8.self)]
    }
}

/// Follows a provider log like `tail -F`: prints what the log and its rotated generation hold, then
/// each line as it is appended, across rotations (`ProviderLog` copies the log to `provider.log.1` and
/// truncates it in place; a log renamed away and made anew is followed too) and truncations.
///
/// It sleeps in `poll(2)` on an inotify watch of the log's directory (so a new file at the log's path
/// wakes it as well as a write), never in a timed loop over `stat`; `wakeInterval` only bounds how
/// long an interrupt that arrives between two checks of `shouldStop` waits to be noticed.
package final class LogFollower {
    private let path: String
    private let wakeInterval: Double

    /// A follower of the log at `path`, checking for an interrupt at least every `wakeInterval` seconds.
    package init(path: String, wakeInterval: Double = 0.5) {
        self.path = path
        self.wakeInterval = wakeInterval
    }

    /// The log file being read: its descriptor, identity and how far it was read.
    private struct OpenLog {
        let fd: Int32
        let device: UInt64
        let inode: UInt64
        var offset = 0
        var splitter = LineSplitter()
    }

    /// Prints (through `emit`) every line there is, then every line appended, until `shouldStop`
    /// returns true; the unfinished last line, if any, is emitted when it ends.
    ///
    /// - Parameters:
    ///   - emit: Receives each line, without its newline.
    ///   - shouldStop: Checked after each wake-up (an interrupt, a write, or `wakeInterval`).
    package func run(emit: (String) -> Void, shouldStop: () -> Bool) throws {
        let directory = (path as NSString).deletingLastPathComponent
        let events = inotify_init1(Int32(IN_CLOEXEC | IN_NONBLOCK))
        guard events >= 0 else { throw LogFollowError.cannotWatch(directory: directory, errno: errno) }
        defer { close(events) }
        // Every change of a file in the directory: writes, the rename of a rotation, the new file.
        let mask = UInt32(IN_MODIFY | IN_CREATE | IN_MOVED_FROM | IN_MOVED_TO | IN_DELETE | IN_CLOSE_WRITE)
        guard inotify_add_watch(events, directory, mask) >= 0 else {
            throw LogFollowError.cannotWatch(directory: directory, errno: errno)
        }
        // The watch is in place before the first read, so nothing written after it goes unnoticed.
        var current = try openLog()
        defer {
            if var log = current {
                for line in log.splitter.finish() { emit(line) }
                close(log.fd)
            }
        }
        let rotated = ProviderLogFile.rotated(path)
        if let fd = try ProviderLogFile.open(rotated) {
            // The older generation first, unless the log was rotated since it was opened above
            // (then `.1` is the file `current` reads).
            defer { close(fd) }
            var info = stat()
            if fstat(fd, &info) == 0, current.map({ $0.inode != UInt64(info.st_ino) }) ?? true {
                var splitter = LineSplitter()
                for line in splitter.append(try SecureFile.readAll(fd: fd, path: rotated)) + splitter.finish() {
                    emit(line)
                }
            }
        }
        while true {
            if current != nil { try drain(&current!, emit: emit) }
            if shouldStop() { return }
            if try switchIfReplaced(&current, emit: emit) { continue }
            wait(events)
        }
    }

    /// Opens the log at `path`, nil while there is none.
    private func openLog() throws -> OpenLog? {
        guard let fd = try ProviderLogFile.open(path) else { return nil }
        var info = stat()
        fstat(fd, &info)
        return OpenLog(fd: fd, device: UInt64(info.st_dev), inode: UInt64(info.st_ino))
    }

    /// Emits the complete lines appended to `log` since it was last read.
    private func drain(_ log: inout OpenLog, emit: (String) -> Void) throws {
        var info = stat()
        guard fstat(log.fd, &info) == 0 else { throw StoreError.io(path: path, operation: "fstat", errno: errno) }
        if Int(info.st_size) < log.offset {
            // Truncated in place (`: > provider.log`): start again from its beginning.
            log.offset = 0
            log.splitter = LineSplitter()
        }
        let data = try SecureFile.readAll(fd: log.fd, path: path, from: log.offset)
        log.offset += data.count
        for line in log.splitter.append(data) { emit(line) }
    }

    /// Moves to the file now at `path` when it is not the one being read (a rotation, or a log that
    /// appeared); true when it did. The old file is read to its end first: the writer wrote to it
    /// until it reopened the new one.
    private func switchIfReplaced(_ current: inout OpenLog?, emit: (String) -> Void) throws -> Bool {
        var info = stat()
        guard lstat(path, &info) == 0 else { return false }  // renamed, not yet recreated: the next event
        if let log = current, log.device == UInt64(info.st_dev), log.inode == UInt64(info.st_ino) { return false }
        if var old = current {
            try drain(&old, emit: emit)
            for line in old.splitter.finish() { emit(line) }
            close(old.fd)
            current = nil
        }
        current = try openLog()
        return current != nil
    }

    /// Sleeps until the directory changes or `wakeInterval` passes (or a signal interrupts), then
    /// discards the pending events: which file changed does not matter, the caller checks them all.
    private func wait(_ events: Int32) {
        var descriptor = pollfd(fd: events, events: Int16(POLLIN), revents: 0)
        _ = poll(&descriptor, 1, Int32(wakeInterval * 1000))
        var buffer = [UInt8](repeating: 0, count: 4096)
        while buffer.withUnsafeMutableBytes({ read(events, $0.baseAddress, $0.count) }) > 0 {}
    }
}
