import Glibc

/// The process's arguments and chosen environment variables as the bytes the kernel gave it.
///
/// Swift decodes `CommandLine.arguments` and `getenv` results leniently: bytes that are not UTF-8
/// become U+FFFD. A path such as `--app-group /tmp/caf\xE9` would then name another directory (and two
/// different paths one store) without a word (issue 42, item 4). Every executable here keeps paths as
/// UTF-8 text, so an argument or variable that is not UTF-8 is refused before anything runs.
package enum RawCommandLine {
    /// A usage error for the first argument (or one of `variables`) whose bytes are not UTF-8; nil when
    /// all are text.
    package static func nonUTF8Problem(variables: [String]) -> UsageError? {
        for index in 1..<Int(CommandLine.argc) {
            guard let raw = CommandLine.unsafeArgv[index] else { continue }
            if String(validatingCString: raw) == nil {
                return UsageError(
                    "argument \(index) is not valid UTF-8 (\(escaped(raw))): names and paths are UTF-8 text here, and "
                        + "these bytes would name another file; rename it, or pass a UTF-8 path")
            }
        }
        for name in variables {
            guard let raw = getenv(name) else { continue }
            if String(validatingCString: raw) == nil {
                return UsageError(
                    "$\(name) is not valid UTF-8 (\(escaped(raw))): paths are UTF-8 text here, and these bytes "
                        + "would name another directory; set it to a UTF-8 path")
            }
        }
        return nil
    }

    /// The bytes with every non-ASCII or control byte written `\xHH`, as `printf '%q'`-like text.
    static func escaped(_ raw: UnsafePointer<CChar>) -> String {
        var text = ""
        var pointer = raw
        while pointer.pointee != 0 {
            let byte = UInt8(bitPattern: pointer.pointee)
            if byte >= 0x20 && byte < 0x7F {
                text.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                let hex = String(byte, radix: 16, uppercase: true)
                text += "\\x" + (hex.count == 1 ? "0" + hex : hex)
            }
            pointer += 1
        }
        return text
    }
}
