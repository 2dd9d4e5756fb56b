import Glibc

/// Whether this process can start threads, checked before anything needs one (issue 31 item 11).
///
/// At the process limit (`RLIMIT_NPROC`, which counts every thread of the user) `pthread_create`
/// fails with `EAGAIN`, and the dispatch library that runs Swift concurrency answers that by
/// sleeping and retrying forever: every command (even `--version`) hung without a word. Each
/// executable (`contacts-host`, every provider) calls ``failureMessage(program:threads:)`` first,
/// on its main thread, and exits with the message instead.
package enum ThreadCapacity {
    /// Nil when `threads` threads could be started (and were ended again); otherwise a message
    /// that names the limit and what to do.
    ///
    /// The threads are held at once: the work pool and the helper threads of one command need a
    /// few, and a single spare thread would only move the hang to the second.
    package static func failureMessage(program: String, threads: Int = 4) -> String? {
        // Starting and joining the threads cost 0.8 ms of every command (docs/startup-profile.md):
        // when the limits are read to be far away, they are not tried.
        if clearlyHasRoom(for: threads) { return nil }
        var fds: [Int32] = [-1, -1]
        guard pipe(&fds) == 0 else { return nil }  // no descriptors left: the command will say so itself
        defer { close(fds[0]) }
        var started: [pthread_t] = []
        var failure: Int32 = 0
        for _ in 0..<threads {
            var thread = pthread_t()
            // The thread blocks reading the pipe until the write end closes, so all are alive at once.
            let result = pthread_create(
                &thread, nil,
                { argument in
                    var byte: UInt8 = 0
                    let fd = Int32(Int(bitPattern: argument) - 1)
                    while read(fd, &byte, 1) < 0, errno == EINTR {}
                    return nil
                }, UnsafeMutableRawPointer(bitPattern: Int(fds[0]) + 1))
            if result != 0 {
                failure = result
                break
            }
            started.append(thread)
        }
        close(fds[1])
        for thread in started { pthread_join(thread, nil) }
        guard failure != 0 else { return nil }
        var limit = rlimit()
        getrlimit(__rlimit_resource_t(__RLIMIT_NPROC.rawValue), &limit)
        let soft = limit.rlim_cur == rlim_t.max ? "unlimited" : String(limit.rlim_cur)
        return "\(program): cannot start a thread (pthread_create: \(String(cString: strerror(failure)))): "
            + "the user's process limit is reached (RLIMIT_NPROC \(soft) for uid \(getuid())). "
            + "End some processes or raise the limit ('ulimit -u'), then try again."
    }

    /// What every executable does first, on its main thread: at the process limit, says so on
    /// standard error and exits with `ExitCode.failure`, instead of starting a pool that would retry
    /// for ever.
    package static func exitIfNoThreads(program: String) {
        guard let message = failureMessage(program: program) else { return }
        StandardError.write(message + "\n")
        exit(ExitCode.failure)
    }

    /// Whether the limits that make `pthread_create` fail with `EAGAIN` are read to be far from
    /// reach: `RLIMIT_NPROC` above every thread of the system (the user's are among them), and each
    /// pids cgroup of this process, up to its hierarchy's root, above its current count. Anything
    /// that cannot be read is not far: the threads are tried then.
    static func clearlyHasRoom(for threads: Int) -> Bool {
        let margin = threads + 64
        var limit = rlimit()
        guard getrlimit(__rlimit_resource_t(__RLIMIT_NPROC.rawValue), &limit) == 0 else { return false }
        if limit.rlim_cur != rlim_t.max {  // RLIM_INFINITY
            guard let loadavg = readSmallFile("/proc/loadavg"), let total = systemThreads(loadavg: loadavg),
                total + margin < Int(clamping: limit.rlim_cur)
            else { return false }
        }
        guard let membership = readSmallFile("/proc/self/cgroup") else { return false }
        for directory in pidsCgroupDirectories(membership: membership) {
            var level = directory.path
            while true {
                if let maximum = readSmallFile(level + "/pids.max") {
                    let text = trimmed(maximum)
                    if text != "max" {
                        guard let cap = Int(text), let current = readSmallFile(level + "/pids.current"),
                            let count = Int(trimmed(current)),
                            count + margin < cap
                        else { return false }
                    }
                }
                // Every level is under the root it was made from: a shorter path is the root itself.
                guard level.count > directory.root.count else { break }
                level = parent(of: level)
            }
        }
        return true
    }

    /// The number of threads in the system: the total after the `/` of `/proc/loadavg`'s fourth
    /// field (`0.59 0.75 0.75 1/92 12979` → 92).
    /// Read byte by byte: splitting into an array of substrings was a fifth of this check's time,
    /// paid by every command (issue 27).
    static func systemThreads(loadavg: String) -> Int? {
        var field = 0
        var afterSlash = false
        var value = 0
        var digits = 0
        for byte in loadavg.utf8 {
            switch byte {
            case 0x20, 0x0A:  // space, newline
                if field == 3 { return afterSlash && digits > 0 ? value : nil }
                field += 1
            case _ where field != 3: continue
            case 0x2F: afterSlash = true  // "/"
            case 0x30...0x39 where afterSlash && digits < 18:
                value = value * 10 + Int(byte - 0x30)
                digits += 1
            default:
                if afterSlash { return nil }
            }
        }
        return afterSlash && digits > 0 ? value : nil
    }

    /// The directories of this process's pids cgroups, from `/proc/self/cgroup`: the unified
    /// hierarchy's (`0::/path`, under /sys/fs/cgroup) and a version 1 pids hierarchy's
    /// (`N:pids:/path`, under /sys/fs/cgroup/pids), each with the root it is under.
    static func pidsCgroupDirectories(membership: String) -> [(path: String, root: String)] {
        // Scanned with `firstIndex`, not `split`: the arrays of substrings `split` makes were a
        // first-use cost of every command (issue 27).
        var directories: [(path: String, root: String)] = []
        var rest = membership[...]
        while !rest.isEmpty {
            let end = rest.firstIndex(of: "\n") ?? rest.endIndex
            let line = rest[..<end]
            rest = end == rest.endIndex ? rest[end...] : rest[rest.index(after: end)...]
            guard let first = line.firstIndex(of: ":") else { continue }
            let afterFirst = line.index(after: first)
            guard let second = line[afterFirst...].firstIndex(of: ":") else { continue }
            let controllers = line[afterFirst..<second]
            let root: String
            if line[..<first] == "0" && controllers.isEmpty {
                root = "/sys/fs/cgroup"
            } else if Self.names(controllers, contain: "pids") {
                root = "/sys/fs/cgroup/pids"
            } else {
                continue
            }
            let relative = line[line.index(after: second)...]
            directories.append((relative == "/" ? root : root + String(relative), root))
        }
        return directories
    }

    /// Whether the comma-separated `list` holds `name`.
    private static func names(_ list: Substring, contain name: String) -> Bool {
        var rest = list
        while true {
            let end = rest.firstIndex(of: ",") ?? rest.endIndex
            if rest[..<end] == name { return true }
            guard end < rest.endIndex else { return false }
            rest = rest[rest.index(after: end)...]
        }
    }

    private static func trimmed(_ text: String) -> String {
        String(text.filter { $0 != " " && $0 != "\n" && $0 != "\t" })
    }

    private static func parent(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/"), slash != path.startIndex else { return "/" }
        return String(path[..<slash])
    }

    /// A small file's text, or nil when it cannot be read.
    private static func readSmallFile(_ path: String) -> String? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var buffer = [UInt8](repeating: 0, count: 4096)
        let count = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
        guard count >= 0 else { return nil }
        return String(decoding: buffer[..<count], as: UTF8.self)
    }
}
