// The floors of contacts-bench's CLI figures: a trivial Foundation executable built with the package,
// doing the same I/O as the command it is the floor of (issue 27: "≤ 1.5× a trivial Foundation
// executable doing the same I/O"), and nothing else. The I/O is counted from the real commands
// (docs/benchmarks.md, "The CLI floors"):
//
//   bench-floor                               start and exit: the start-up floor
//   bench-floor append FILE                   + one line appended and fdatasync'd (`add`)
//   bench-floor serve REQUESTS STEPS DIR      a peer (the provider's stand-in): for each request line
//                                             read from the FIFO REQUESTS, the durable writes STEPS
//                                             names in DIR, one letter each: `a` a line appended and
//                                             fdatasync'd, `r` a file replaced (a temporary file
//                                             written and fsync'd, renamed over it, the directory
//                                             fsync'd); a number N is N appends. Then "ok" written to
//                                             the reply FIFO the line names; "stop" ends it
//   bench-floor ring REQUESTS DIR             a reply FIFO made in DIR, its path written to REQUESTS,
//                                             the reply awaited (`signal --wait`)
//   bench-floor spin                          a busy loop until killed: the load of the loaded figures
//                                             (a goals run's loaded variant, `--only P5`'s loaded kit run)
import Foundation
import Glibc

let arguments = ProcessInfo.processInfo.arguments

/// Appends one line to `path` and makes it durable.
func appendDurably(_ path: String) {
    let fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o600)
    guard fd >= 0 else { fail("cannot open \(path)") }
    _ = "floor\n".withCString { write(fd, $0, 6) }
    fdatasync(fd)
    close(fd)
}

/// Replaces `path` durably, as `SecureFile.replace` does: a temporary file written and fsync'd,
/// renamed over `path`, and the directory fsync'd so the rename survives a power cut.
func replaceDurably(_ path: String, directory: String) {
    let temporary = path + ".tmp"
    let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
    guard fd >= 0 else { fail("cannot open \(temporary)") }
    _ = "{\"floor\":true}\n".withCString { write(fd, $0, strlen($0)) }
    fsync(fd)
    close(fd)
    guard rename(temporary, path) == 0 else { fail("cannot rename \(temporary)") }
    let directoryFD = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
    guard directoryFD >= 0 else { fail("cannot open \(directory)") }
    fsync(directoryFD)
    close(directoryFD)
}

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("bench-floor: \(message)\n".utf8))
    exit(1)
}

switch arguments.count > 1 ? arguments[1] : "" {
case "":
    break
case "append" where arguments.count == 3:
    appendDurably(arguments[2])
case "serve" where arguments.count == 5:
    let requests = arguments[2]
    let steps: [Character] = Int(arguments[3]).map { Array(repeating: "a", count: $0) } ?? Array(arguments[3])
    guard steps.allSatisfy({ $0 == "a" || $0 == "r" }) else { fail("STEPS: letters a and r, or a number") }
    let directory = arguments[4]
    mkfifo(requests, 0o600)
    // Opened read-write, so the FIFO never reports end-of-file between two writers.
    guard let input = fopen(requests, "r+") else { fail("cannot open \(requests)") }
    var line: UnsafeMutablePointer<CChar>?
    var capacity = 0
    while getline(&line, &capacity, input) > 0, let line {
        let reply = String(cString: line).trimmingCharacters(in: .newlines)
        if reply == "stop" { break }
        for (index, step) in steps.enumerated() {
            if step == "a" {
                appendDurably(directory + "/sync-\(index)")
            } else {
                replaceDurably(directory + "/report-\(index).json", directory: directory)
            }
        }
        let fd = open(reply, O_WRONLY | O_CLOEXEC)
        if fd >= 0 {
            _ = "ok\n".withCString { write(fd, $0, 3) }
            close(fd)
        }
    }
case "ring" where arguments.count == 4:
    let reply = arguments[3] + "/reply-\(getpid()).fifo"
    guard mkfifo(reply, 0o600) == 0 else { fail("cannot make \(reply)") }
    // Every way out of this case is exit() (no defer runs): each unlinks the reply FIFO itself.
    let replyFD = open(reply, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
    let requestFD = open(arguments[2], O_WRONLY | O_CLOEXEC)
    guard replyFD >= 0, requestFD >= 0 else {
        unlink(reply)
        fail("cannot open the FIFOs")
    }
    _ = (reply + "\n").withCString { write(requestFD, $0, strlen($0)) }
    close(requestFD)
    var descriptor = pollfd(fd: replyFD, events: Int16(POLLIN), revents: 0)
    var byte: UInt8 = 0
    while poll(&descriptor, 1, 10_000) < 0 && errno == EINTR {}
    _ = read(replyFD, &byte, 1)
    close(replyFD)
    unlink(reply)
    exit(byte == UInt8(ascii: "o") ? 0 : 1)
case "spin" where arguments.count == 2:
    var state: UInt64 = UInt64(getpid())
    while true {
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        if state == 0 { _ = write(2, "", 0) }  // a possible side effect: the loop is not optimized away
    }
default:
    fail("usage: bench-floor [append FILE | serve REQUESTS STEPS DIR | ring REQUESTS DIR | spin]")
}
