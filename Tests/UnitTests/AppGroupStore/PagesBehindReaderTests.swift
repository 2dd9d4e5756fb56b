import Foundation
import Testing

@testable import AppGroupStore

/// `MappedFile.PagesBehindReader`: a reader going through a mapped file keeps only the pages it has
/// not passed yet, also when it goes back and reads the file again (a second content enumeration of
/// the same snapshot, which the pager keeps mapped).
@Suite("Store: the pages behind a reader of a mapped file are released")
struct PagesBehindReaderTests {
    @Test("Read front to back twice: the second pass releases what it reads again")
    func secondPassIsReleasedToo() throws {
        let name = "pages-behind-\(UUID().uuidString)"
        let path = NSTemporaryDirectory() + "/" + name
        defer { unlink(path) }
        let size = 24 << 20
        let step = 256 << 10
        try Data(repeating: UInt8(ascii: "x"), count: size).write(to: URL(fileURLWithPath: path))
        let file = try #require(try MappedFile.openIfPresent(path))
        // The measure sees the mapping: touched and not released, its pages are resident.
        var warm = 0
        for byte in Swift.stride(from: 0, to: 4 << 20, by: 4096) { warm &+= Int(file.bytes[byte]) }
        #expect(warm > 0)
        #expect(try #require(try ProcessMappings.bytes(of: "Rss", ofFileNamed: name)) >= 4 << 20)
        var behind = MappedFile.PagesBehindReader(stride: 4 << 20)
        for pass in 1...2 {
            var sum = 0
            var offset = 0
            while offset < size {
                // Touch every page of the step, as a reader of its lines does.
                for byte in Swift.stride(from: offset, to: offset + step, by: 4096) { sum &+= Int(file.bytes[byte]) }
                offset += step
                behind.reached(offset, in: file)
            }
            #expect(sum > 0)
            let resident = try #require(try ProcessMappings.bytes(of: "Rss", ofFileNamed: name))
            #expect(resident <= (4 << 20) + step, "pass \(pass): \(resident) bytes of the mapping still resident")
        }
    }
}
