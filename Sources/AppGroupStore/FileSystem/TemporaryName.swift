import Foundation
import Glibc

/// The names of `SecureFile.replace`'s temp files, and how to tell an abandoned one from one being written.
///
/// A temp file is `.<name>.tmp-<pid>-b<boot>-<random>`: the writer's pid and the first eight
/// characters of the kernel's boot id. A pid alone cannot say "the writer is gone": after a reboot
/// pids are handed out again, so a snapshot-sized temp file of a compaction that a power cut
/// interrupted could belong, by its number, to some live process for ever. A file is abandoned when
/// it was written during another boot, or when its writer's pid is no longer running. Names written
/// before the boot tag existed (`.<name>.tmp-<pid>-<random>`) are abandoned when their pid is gone or
/// the file is older than this boot.
package enum TemporaryName {
    /// What every temp file's name contains after the target's name.
    package static let marker = ".tmp-"

    /// A fresh temp name beside `path`: `<directory>/.<name>.tmp-<pid>-b<boot>-<random>`, the one
    /// spelling of every file that is written under it and then renamed over `path`.
    package static func path(for path: String) -> String {
        let directory = (path as NSString).deletingLastPathComponent
        let name = (path as NSString).lastPathComponent
        return "\(directory)/.\(name)\(marker)\(writerTag)-\(UInt32.random(in: 0...UInt32.max))"
    }

    /// `<pid>-b<boot>`: who is writing, in which boot.
    package static var writerTag: String { "\(getpid())-b\(currentBoot)" }

    /// The first eight characters of `/proc/sys/kernel/random/boot_id` ("unknown" where unreadable).
    package static let currentBoot: String = {
        guard let text = try? String(contentsOfFile: "/proc/sys/kernel/random/boot_id", encoding: .utf8) else {
            return "unknown"
        }
        // Not `trimmingCharacters(in:)`: its CharacterSet is a first-use cost of a tenth of a
        // millisecond, paid by every command that makes a temporary name (`signal`'s reply pipe).
        var tag = ""
        for character in text where !character.isWhitespace {
            tag.append(character)
            if tag.utf8.count == 8 { break }
        }
        return tag
    }()

    /// When this boot started (seconds since the epoch, `btime` in `/proc/stat`); nil where unreadable.
    static let bootTime: Int? = {
        guard let text = try? String(contentsOfFile: "/proc/stat", encoding: .utf8) else { return nil }
        for line in text.split(separator: "\n") where line.hasPrefix("btime ") {
            return Int(line.dropFirst("btime ".count))
        }
        return nil
    }()

    /// The temp files in `directory` whose writer is gone, as full paths, sorted.
    package static func abandoned(in directory: String) -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        return names.sorted().filter { isAbandoned(name: $0, in: directory) }.map { directory + "/" + $0 }
    }

    /// Whether `name` is a temp file of a writer that is gone (false for any other name).
    package static func isAbandoned(name: String, in directory: String) -> Bool {
        guard name.hasPrefix("."), let range = name.range(of: marker, options: .backwards) else { return false }
        let fields = name[range.upperBound...].split(separator: "-")
        guard let pidText = fields.first, let pid = Int32(pidText) else { return false }
        if fields.count >= 3, fields[1].hasPrefix("b") {
            if fields[1].dropFirst() != currentBoot { return true }
        } else if let bootTime {
            // An old-style name: its age can still tell a file from before this boot.
            var info = stat()
            if lstat(directory + "/" + name, &info) == 0, info.st_mtim.tv_sec < bootTime { return true }
        }
        return kill(pid, 0) != 0 && errno == ESRCH
    }
}
