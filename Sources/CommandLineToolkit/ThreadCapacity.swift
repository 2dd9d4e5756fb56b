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
}
