import Glibc

/// Whether a program is safe to run as this user: nobody else can change what the path runs.
///
/// The system runs the registered provider executable as whoever signals (root, in CI and here). An
/// executable in a folder another user can write could be replaced or re-pointed by that user after
/// `enable`, and root's next signal would run their program (issue 42, item 5). So the file and every
/// directory on its path — as given, and after resolving links — must belong to this user or root
/// and be writable by nobody else (group write counts only for another group than this process's);
/// a directory that others can write is accepted only when it is
/// sticky (`/tmp`), where nobody else can remove or rename what is ours. This is OpenSSH's
/// `safe_path` rule for `AuthorizedKeysCommand`, applied at `enable` and at every launch.
package enum TrustedExecutable {
    /// Throws ``StoreError/unsafePath(path:reason:)`` naming the first component another user could
    /// change, its owner and its mode.
    package static func check(_ path: String) throws {
        guard path.hasPrefix("/") else { return }
        try checkComponents(of: path, followingLinks: false)
        guard let real = realpath(path, nil) else { return }  // absent: the launch says so itself
        defer { free(real) }
        try checkComponents(of: String(cString: real), followingLinks: true)
    }

    /// Each existing component of `path`, from `/`: the last one as the file, the others as folders.
    private static func checkComponents(of path: String, followingLinks: Bool) throws {
        var current = ""
        let components = path.split(separator: "/").map(String.init)
        try checkOne("/", isLast: components.isEmpty)
        for (index, component) in components.enumerated() {
            current += "/" + component
            var info = stat()
            guard lstat(current, &info) == 0 else { return }
            try checkOne(current, info, isLast: index == components.count - 1)
            // Past a link the rest is the target's: the resolved walk checks it.
            if info.st_mode & S_IFMT == S_IFLNK, !followingLinks { return }
        }
    }

    private static func checkOne(_ path: String, isLast: Bool) throws {
        var info = stat()
        guard lstat(path, &info) == 0 else { return }
        try checkOne(path, info, isLast: isLast)
    }

    private static func checkOne(_ path: String, _ info: stat, isLast: Bool) throws {
        let me = geteuid()
        if info.st_uid != me, info.st_uid != 0 {
            throw StoreError.unsafePath(
                path: path,
                reason:
                    "belongs to uid \(info.st_uid) (not this user, uid \(me), nor root): that user could change what "
                    + "runs as \(me == 0 ? "root" : "you"); refusing to run a provider through it")
        }
        // A link's own mode bits mean nothing; a sticky directory protects what others own in it.
        let type = info.st_mode & S_IFMT
        let sticky = type == S_IFDIR && info.st_mode & S_ISVTX != 0
        // Group write is this user's own when the group is this process's (a "user private group",
        // where every user's home is 0775 and their group holds only them).
        let othersWrite = info.st_mode & 0o002 != 0 || (info.st_mode & 0o020 != 0 && info.st_gid != getegid())
        if type != S_IFLNK, othersWrite, !sticky {
            let mode = String(info.st_mode & 0o7777, radix: 8)
            throw StoreError.unsafePath(
                path: path,
                reason:
                    "is writable by \(info.st_mode & 0o002 != 0 ? "every user" : "its group") (mode \(mode)): "
                    + "another user could replace \(isLast ? "it" : "what it holds"); refusing to run a provider "
                    + "through it (chmod go-w \(path))")
        }
    }
}
