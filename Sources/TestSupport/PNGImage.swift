import Foundation
import Glibc

/// A PNG file decoded far enough to tell its size and whether it shows anything: the browser tests'
/// screenshots (8-bit greyscale, RGB or RGBA, not interlaced, as Chromium writes them).
///
/// The pixels are inflated with the system's zlib (`libz.so.1`, which Chromium itself needs), found
/// with `dlopen` because the package may import no C module of its own.
package struct PNGImage: Sendable {
    /// Width and height in pixels.
    package let width: Int
    package let height: Int
    /// How many distinct pixel values the image holds, counted up to 256 (a blank page has 1).
    package let distinctColours: Int

    /// Why a PNG could not be read.
    package struct Unreadable: Error, CustomStringConvertible {
        package let description: String
    }

    /// Decodes `data`.
    package init(_ data: Data) throws {
        let bytes = [UInt8](data)
        guard bytes.count > 8, bytes.prefix(8) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] else {
            throw Unreadable(description: "not a PNG file (no signature)")
        }
        var offset = 8
        var header: [UInt8] = []
        var compressed: [UInt8] = []
        while offset + 8 <= bytes.count {
            let length = Int(Self.bigEndian(bytes, offset))
            let type = String(decoding: bytes[offset + 4..<offset + 8], as: UTF8.self)
            guard offset + 12 + length <= bytes.count else { throw Unreadable(description: "a \(type) chunk is cut") }
            let body = bytes[offset + 8..<offset + 8 + length]
            if type == "IHDR" { header = Array(body) }
            if type == "IDAT" { compressed += body }
            if type == "IEND" { break }
            offset += 12 + length
        }
        guard header.count == 13 else { throw Unreadable(description: "no IHDR chunk") }
        width = Int(Self.bigEndian(header, 0))
        height = Int(Self.bigEndian(header, 4))
        let channels: Int
        switch header[9] {
        case 0: channels = 1
        case 2: channels = 3
        case 4: channels = 2
        case 6: channels = 4
        default: throw Unreadable(description: "colour type \(header[9]) is not read here")
        }
        guard header[8] == 8, header[12] == 0 else {
            throw Unreadable(description: "bit depth \(header[8]), interlace \(header[12]): not read here")
        }
        let stride = width * channels
        let raw = try Self.inflate(compressed, expected: height * (stride + 1))
        distinctColours = try Self.distinct(
            Self.unfiltered(raw, stride: stride, bytesPerPixel: channels, rows: height),
            bytesPerPixel: channels)
    }

    private static func bigEndian(_ bytes: [UInt8], _ at: Int) -> UInt32 {
        bytes[at..<at + 4].reduce(0) { $0 << 8 | UInt32($1) }
    }

    /// zlib's `uncompress`, from the system's library.
    private static func inflate(_ input: [UInt8], expected: Int) throws -> [UInt8] {
        typealias Uncompress =
            @convention(c) (
                UnsafeMutablePointer<UInt8>?, UnsafeMutablePointer<UInt>?, UnsafePointer<UInt8>?, UInt
            ) -> Int32
        guard let library = dlopen("libz.so.1", RTLD_NOW), let symbol = dlsym(library, "uncompress") else {
            throw Unreadable(description: "libz.so.1 (zlib) could not be loaded to read the PNG")
        }
        let uncompress = unsafeBitCast(symbol, to: Uncompress.self)
        var output = [UInt8](repeating: 0, count: expected)
        var length = UInt(expected)
        let status = output.withUnsafeMutableBufferPointer { out in
            input.withUnsafeBufferPointer { uncompress(out.baseAddress, &length, $0.baseAddress, UInt($0.count)) }
        }
        guard status == 0, Int(length) == expected else {
            throw Unreadable(description: "the PNG's pixels do not inflate (zlib status \(status), \(length) bytes)")
        }
        return output
    }

    /// The rows with PNG's per-row filters undone.
    private static func unfiltered(_ raw: [UInt8], stride: Int, bytesPerPixel: Int, rows: Int) throws -> [UInt8] {
        var pixels = [UInt8](repeating: 0, count: stride * rows)
        for row in 0..<rows {
            let filter = raw[row * (stride + 1)]
            let input = row * (stride + 1) + 1
            let output = row * stride
            for column in 0..<stride {
                let left = column >= bytesPerPixel ? Int(pixels[output + column - bytesPerPixel]) : 0
                let up = row > 0 ? Int(pixels[output - stride + column]) : 0
                let upLeft =
                    row > 0 && column >= bytesPerPixel ? Int(pixels[output - stride + column - bytesPerPixel]) : 0
                let predictor: Int
                switch filter {
                case 0: predictor = 0
                case 1: predictor = left
                case 2: predictor = up
                case 3: predictor = (left + up) / 2
                case 4:
                    let estimate = left + up - upLeft
                    let (a, b, c) = (abs(estimate - left), abs(estimate - up), abs(estimate - upLeft))
                    predictor = a <= b && a <= c ? left : (b <= c ? up : upLeft)
                default: throw Unreadable(description: "row \(row) has an unknown filter \(filter)")
                }
                pixels[output + column] = UInt8(truncatingIfNeeded: Int(raw[input + column]) + predictor)
            }
        }
        return pixels
    }

    /// Distinct pixel values, counted up to 256.
    private static func distinct(_ pixels: [UInt8], bytesPerPixel: Int) throws -> Int {
        var seen = Set<[UInt8]>()
        var index = 0
        while index + bytesPerPixel <= pixels.count, seen.count < 256 {
            seen.insert(Array(pixels[index..<index + bytesPerPixel]))
            index += bytesPerPixel
        }
        return seen.count
    }
}
