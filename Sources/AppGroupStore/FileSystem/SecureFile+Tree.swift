import Glibc

extension SecureFile {
    /// Creates `directories` (absolute paths below `root`) and their missing parents, mode 0700,
    /// checking each path component below `root` once: it must be a directory this user owns,
    /// never a symbolic link.
    ///
    /// `root` must already be checked (``checkAppGroupRoot(_:)``: ours, never a link, its ancestors
    /// safe) and exist. Below it, every component must be ours and a directory, which is more than
    /// the sticky-directory rule of ``checkAncestors(of:)`` asks, so that walk from `/` is not
    /// repeated for each directory (``ensureDirectory(_:)`` does): it was about sixty `lstat`s of
    /// every `signal` (issue 27).
    package static func ensureDirectories(_ directories: [String], under root: String) throws {
        let base = root.hasSuffix("/") ? String(root.dropLast()) : root
        // A handful of paths: an array (a `Set<Substring>`'s first use costs more than the scans).
        var checked: [Substring] = []
        for directory in directories {
            precondition(directory.hasPrefix(base + "/"), "\(directory) is not below \(root)")
            var end = directory.index(directory.startIndex, offsetBy: base.count)
            while end < directory.endIndex {
                end = directory[directory.index(after: end)...].firstIndex(of: "/") ?? directory.endIndex
                let current = directory[..<end]
                guard !checked.contains(current) else { continue }
                checked.append(current)
                try ensureOwnedDirectory(String(current))
            }
        }
    }

    /// Makes `path` (its parent exists and is checked) or checks the directory already there.
    private static func ensureOwnedDirectory(_ path: String) throws {
        var info = stat()
        if lstat(path, &info) == 0 {
            try checkOwned(path, info, expectDirectory: true)
            return
        }
        guard errno == ENOENT else { throw StoreError.io(path: path, operation: "lstat", errno: errno) }
        let parent = String(path[..<(path.lastIndex(of: "/") ?? path.startIndex)])
        try makeDirectory(path, in: parent.isEmpty ? "/" : parent)
    }
}
