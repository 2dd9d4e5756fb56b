import Foundation

/// Finds a key that appears twice in one JSON object (Foundation's decoders silently keep one).
///
/// One pass over text that already parsed as JSON: a stack of the keys seen in each open object.
/// Keys are compared after unescaping (`"a"` and `"\u0061"` are the same key).
enum JSONDuplicateKeys {
    /// The first duplicated key and the line it appears on the second time, or nil.
    static func first(in data: Data) -> (key: String, line: Int)? {
        let bytes = [UInt8](data)
        // One entry per open container: the keys of an object, nil for an array.
        var stack: [Set<String>?] = []
        var line = 1
        var index = 0
        var expectingKey = false
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case 0x0A:
                line += 1
            case 0x7B:  // {
                stack.append([])
                expectingKey = true
            case 0x5B:  // [
                stack.append(nil)
                expectingKey = false
            case 0x7D, 0x5D:  // } ]
                _ = stack.popLast()
                expectingKey = false
            case 0x2C:  // ,
                expectingKey = stack.last.map { $0 != nil } ?? false
            case 0x22:  // "
                let start = index
                index += 1
                while index < bytes.count, bytes[index] != 0x22 {
                    if bytes[index] == 0x5C { index += 1 }
                    index += 1
                }
                if expectingKey, index < bytes.count, var keys = stack.last ?? nil {
                    let raw = bytes[(start + 1)..<index]
                    // Unescape only when needed: a decoder per key would dominate a large import.
                    let key =
                        raw.contains(0x5C)
                        ? (try? JSONDecoder().decode(String.self, from: Data(bytes[start...index])))
                            ?? String(decoding: raw, as: UTF8.self)
                        : String(decoding: raw, as: UTF8.self)
                    if keys.contains(key) { return (key, line) }
                    keys.insert(key)
                    stack[stack.count - 1] = keys
                    expectingKey = false
                }
            default:
                break
            }
            index += 1
        }
        return nil
    }
}
