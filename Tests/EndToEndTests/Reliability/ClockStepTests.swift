import Foundation
import Glibc
import TestSupport
import Testing

/// Issue 31 item 8: no wall-clock change shortens a time limit.
///
/// An `LD_PRELOAD` shim (compiled here with `cc`) makes `clock_gettime(CLOCK_REALTIME)`,
/// `gettimeofday` and `time` read an hour behind the kernel's wall clock, in the host and in the
/// provider it launches. A deadline computed on the real-time clock is then an hour in the past
/// when the kernel checks it, exactly as if NTP had stepped the clock an hour forward right after
/// the deadline was taken; a monotonic wait does not notice.
@Suite("Reliability: wall-clock steps")
struct ClockStepTests {
    static let shimSource = """
        #define _GNU_SOURCE
        #include <dlfcn.h>
        #include <stdlib.h>
        #include <sys/time.h>
        #include <time.h>
        static long behind(void) {
            const char *text = getenv("CLOCK_SHIM_BEHIND_SECONDS");
            return text ? atol(text) : 0;
        }
        int clock_gettime(clockid_t id, struct timespec *ts) {
            static int (*real)(clockid_t, struct timespec *);
            if (!real) real = (int (*)(clockid_t, struct timespec *))dlsym(RTLD_NEXT, "clock_gettime");
            int result = real(id, ts);
            if (result == 0 && (id == CLOCK_REALTIME || id == CLOCK_REALTIME_COARSE)) ts->tv_sec -= behind();
            return result;
        }
        int gettimeofday(struct timeval *tv, void *tz) {
            struct timespec ts;
            clock_gettime(CLOCK_REALTIME, &ts);
            if (tv) { tv->tv_sec = ts.tv_sec; tv->tv_usec = ts.tv_nsec / 1000; }
            (void)tz;
            return 0;
        }
        time_t time(time_t *out) {
            struct timespec ts;
            clock_gettime(CLOCK_REALTIME, &ts);
            if (out) *out = ts.tv_sec;
            return ts.tv_sec;
        }
        """

    /// Compiles the shim into `directory`; returns the shared object's path.
    static func buildShim(in directory: String) throws -> String {
        let source = directory + "/clock-shim.c"
        let library = directory + "/clock-shim.so"
        try Data(shimSource.utf8).write(to: URL(fileURLWithPath: source))
        let result = try ProcessRunner.run("/usr/bin/env", ["cc", "-shared", "-fPIC", "-o", library, source, "-ldl"])
        try #require(result.exitCode == 0, "cc failed: \(result)")
        return library
    }

    @Test("the launch wait of signal --wait survives a forward wall-clock step of an hour")
    func launchWaitIgnoresWallClockStep() throws {
        try withTemporaryAppGroup { group in
            let shim = try Self.buildShim(in: group.path)
            try host(["enable"], in: group)
            try host(["add", "--given-name", "Clock", "--id", "clock-1"], in: group)
            #expect(group.providerPID() == nil, "the signal below must launch the provider")
            var environment = group.environment
            environment["LD_PRELOAD"] = shim
            environment["CLOCK_SHIM_BEHIND_SECONDS"] = "3600"
            let result = try ProcessRunner.run(
                BuiltProducts.path("contacts-host"), ["signal", "--wait", "--timeout", "30"], environment: environment)
            #expect(result.exitCode == 0, "the launch wait ended early: \(result)")
            #expect(!result.stderr.contains("did not answer"), "\(result)")
            #expect(result.stdout.contains("system store: 1 contact"), "\(result)")
            try stopProvider(group)
        }
    }
}
