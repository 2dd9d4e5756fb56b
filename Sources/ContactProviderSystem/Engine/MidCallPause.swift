import Foundation
import Glibc

/// A one-shot pause inside a provider's enumerator call, so the conformance kit can edit the data
/// while the provider is between reading it and returning (kit rule D9).
///
/// The kit creates two FIFOs in the run directory and then the request file. The next observer
/// call that carries items (`didEnumerate`, `didUpdate`, `didDelete`) consumes the request, writes
/// one byte to `pause-paused.fifo` and waits (at most two minutes) until the kit writes one byte
/// to `pause-resume.fifo`. Without a request the cost is one `access(2)` per call.
package struct MidCallPause: Sendable {
    /// The request file; its presence arms the pause.
    package let requestPath: String
    /// Provider → kit: "I am paused inside the call".
    package let pausedPath: String
    /// Kit → provider: "carry on".
    package let resumePath: String

    /// The pause files of a domain's run directory.
    package init(runDirectory: String) {
        requestPath = runDirectory + "/pause-request"
        pausedPath = runDirectory + "/pause-paused.fifo"
        resumePath = runDirectory + "/pause-resume.fifo"
    }

    /// Provider side: pauses once if the kit asked for it.
    func pauseIfRequested() {
        guard access(requestPath, F_OK) == 0, unlink(requestPath) == 0 else { return }
        let paused = open(pausedPath, O_WRONLY | O_NONBLOCK | O_CLOEXEC)
        guard paused >= 0 else { return }
        var byte: UInt8 = 1
        _ = write(paused, &byte, 1)
        close(paused)
        // Non-blocking open, then a bounded wait: a kit that died never leaves the provider stuck.
        let resume = open(resumePath, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard resume >= 0 else { return }
        defer { close(resume) }
        var descriptor = pollfd(fd: resume, events: Int16(POLLIN), revents: 0)
        while poll(&descriptor, 1, 120_000) < 0, errno == EINTR {}
        _ = read(resume, &byte, 1)
    }

    /// Kit side: the FIFOs of one armed pause, open at both ends' kit halves.
    package final class Armed: @unchecked Sendable {
        // Both are opened read-write so neither side's open blocks or fails (Linux FIFO semantics).
        private let pausedFIFO: Int32
        private let resumeFIFO: Int32
        private let pause: MidCallPause

        /// Creates the FIFOs and the request (the next item-carrying observer call pauses).
        package init(_ pause: MidCallPause) throws {
            self.pause = pause
            try? FileManager.default.createDirectory(
                atPath: (pause.requestPath as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            for path in [pause.pausedPath, pause.resumePath] {
                unlink(path)
                guard mkfifo(path, 0o600) == 0 else { throw PauseError("\(path): mkfifo failed (errno \(errno))") }
            }
            pausedFIFO = open(pause.pausedPath, O_RDWR | O_NONBLOCK | O_CLOEXEC)
            resumeFIFO = open(pause.resumePath, O_RDWR | O_CLOEXEC)
            guard pausedFIFO >= 0, resumeFIFO >= 0 else {
                throw PauseError("\(pause.pausedPath): cannot open the pause FIFOs (errno \(errno))")
            }
            guard FileManager.default.createFile(atPath: pause.requestPath, contents: Data()) else {
                throw PauseError("\(pause.requestPath): cannot create the pause request")
            }
        }

        /// Waits until the provider is paused; false when it did not pause within `timeoutSeconds`.
        package func waitUntilPaused(timeoutSeconds: Double) -> Bool {
            // Monotonic: a wall-clock step must not end (or stretch) the wait (issue 31 item 8).
            let deadline = MonotonicSemaphore.now() + timeoutSeconds
            while deadline - MonotonicSemaphore.now() > 0 {
                var descriptor = pollfd(fd: pausedFIFO, events: Int16(POLLIN), revents: 0)
                let ready = poll(&descriptor, 1, Int32(max(deadline - MonotonicSemaphore.now(), 0) * 1000))
                if ready < 0, errno == EINTR { continue }
                guard ready > 0 else { return false }
                var byte: UInt8 = 0
                return read(pausedFIFO, &byte, 1) == 1
            }
            return false
        }

        /// Lets the provider continue (also when it never paused: the request is withdrawn).
        package func resume() {
            unlink(pause.requestPath)
            var byte: UInt8 = 1
            _ = write(resumeFIFO, &byte, 1)
        }

        deinit {
            unlink(pause.requestPath)
            close(pausedFIFO)
            close(resumeFIFO)
            unlink(pause.pausedPath)
            unlink(pause.resumePath)
        }
    }

    /// The pause could not be set up; the message names the file.
    package struct PauseError: Error, CustomStringConvertible, Sendable {
        package let description: String
        init(_ description: String) { self.description = description }
    }
}
