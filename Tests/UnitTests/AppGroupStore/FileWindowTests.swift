import ContactProviderTesting
import Foundation
import TestSupport
import Testing

@testable import AppGroupStore

@Suite("FileWindow: searches through a 64 KiB window agree with searches of the whole file")
struct FileWindowTests {
    /// Sizes around the window's edges, so a search crosses zero, one and several window loads.
    static let sizes = [1, 7, 8, 9, 64 * 1024 - 1, 64 * 1024, 64 * 1024 + 1, 200_003]

    @Test("first and last index of a byte, and the first other byte, in random ranges", arguments: sizes)
    func agreesWithWholeFile(size: Int) throws {
        try withTemporaryAppGroup { group in
            var random = SeededRandom(seed: UInt64(size))
            // Mostly letters, some newlines, some runs of zeros: what the journal's readers look for.
            var bytes = [UInt8](repeating: 0x61, count: size)
            for index in bytes.indices {
                switch Int.random(in: 0..<1000, using: &random) {
                case 0..<3: bytes[index] = 0x0A
                case 3..<5: bytes[index] = 0
                default: break
                }
            }
            if size > 5000 { for index in (size / 2)..<(size / 2 + 3000) { bytes[index] = 0 } }
            let path = group.path + "/window-\(size)"
            try Data(bytes).write(to: URL(fileURLWithPath: path))
            let fd = open(path, O_RDONLY | O_CLOEXEC)
            defer { close(fd) }
            var window = FileWindow(fd: fd, path: path, size: size)
            for round in 0..<200 {
                let lower = Int.random(in: 0...size, using: &random)
                let upper = Int.random(in: lower...size, using: &random)
                let range = lower..<upper
                let context = "size \(size), round \(round), range \(range) (seed \(size))"
                #expect(try window.lastIndex(of: 0x0A, in: range) == range.last { bytes[$0] == 0x0A }, "\(context)")
                #expect(try window.firstIndex(of: 0, in: range) == range.first { bytes[$0] == 0 }, "\(context)")
                #expect(
                    try window.firstIndex(notEqualTo: 0x61, in: range) == range.first { bytes[$0] != 0x61 },
                    "\(context)")
            }
        }
    }

    @Test("a file cut while it is read ends where the read ended, and the searches stop there")
    func fileCutWhileRead() throws {
        try withTemporaryAppGroup { group in
            let path = group.path + "/cut"
            var bytes = [UInt8](repeating: 0x61, count: 300_000)
            bytes[10] = 0x0A
            bytes[250_000] = 0x0A
            try Data(bytes).write(to: URL(fileURLWithPath: path))
            let fd = open(path, O_RDWR | O_CLOEXEC)
            defer { close(fd) }
            var window = FileWindow(fd: fd, path: path, size: bytes.count)
            #expect(try window.lastIndex(of: 0x0A, in: 0..<20) == 10)
            // Cut below the newline the caller still believes in (a writer removing a torn tail).
            #expect(ftruncate(fd, 100_000) == 0)
            #expect(try window.lastIndex(of: 0x0A, in: 0..<bytes.count) == 10)
            #expect(window.size == 100_000)
            #expect(try window.firstIndex(of: 0x0A, in: 200_000..<bytes.count) == nil)
        }
    }
}
