import Foundation
import Glibc

/// Who holds a `flock` lock, for the messages of a waiter (issue 10 item 7).
///
/// Linux lists every lock in `/proc/locks` (`1: FLOCK  ADVISORY  WRITE 1234 08:01:5678 0 EOF`,
/// device as hex major:minor, then the inode); waiters are listed with `->` and skipped.
enum LockHolder {
    /// "pid 1234 (contacts-host add --given-name Ada, stopped)" for each holder of the lock on
    /// `lockFD`'s file, other than this process; nil when none can be found.
    static func describe(lockFD: Int32) -> String? {
        var info = stat()
        guard fstat(lockFD, &info) == 0,
            let table = try? String(contentsOfFile: "/proc/locks", encoding: .utf8)
        else { return nil }
        let device = UInt64(info.st_dev)
        let major = ((device >> 8) & 0xfff) | ((device >> 32) & ~UInt64(0xfff))
        let minor = (device & 0xff) | ((device >> 12) & ~UInt64(0xff))
        let key = String(format: "%02llx:%02llx:%llu", major, minor, UInt64(info.st_ino))
        var holders: [String] = []
        for line in table.split(separator: "\n") {
            let fields = line.split(separator: " ")
            guard fields.count >= 6, fields[1] != "->", fields[1] == "FLOCK", fields[5] == key,
                let pid = Int32(fields[4]), pid != getpid()
            else { continue }
            let description = describe(pid: pid)
            if !holders.contains(description) { holders.append(description) }
        }
        return holders.isEmpty ? nil : holders.joined(separator: ", ")
    }

    /// "pid N (command line[, stopped])".
    static func describe(pid: Int32) -> String {
        var details: [String] = []
        if let data = FileManager.default.contents(atPath: "/proc/\(pid)/cmdline"), !data.isEmpty {
            var command = data.split(separator: 0).map { String(decoding: $0, as: UTF8.self) }
            if let first = command.first { command[0] = (first as NSString).lastPathComponent }
            var text = command.joined(separator: " ")
            if text.count > 120 { text = String(text.prefix(120)) + "…" }
            details.append(text)
        }
        // The state is the field after the parenthesised command name: "T" is stopped (SIGSTOP, a debugger).
        if let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let close = stat.lastIndex(of: ")")
        {
            let state = stat[stat.index(after: close)...].split(separator: " ").first
            if state == "T" || state == "t" { details.append("stopped") }
        }
        return details.isEmpty ? "pid \(pid)" : "pid \(pid) (\(details.joined(separator: ", ")))"
    }

    /// One line on stderr; a failed write is ignored (waiting must not fail because stderr is full).
    static func report(_ message: String) {
        let bytes = Array("note: \(message)\n".utf8)
        _ = bytes.withUnsafeBytes { write(STDERR_FILENO, $0.baseAddress, $0.count) }
    }
}
