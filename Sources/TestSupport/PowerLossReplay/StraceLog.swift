import Foundation

/// The calls of an `strace -f -qq -y -xx` log, one complete call per element: the lines a
/// multi-threaded process split into `<unfinished ...>` and `<... resumed>` are joined again, at the
/// place the call completed (that is when its effect happened).
///
/// `-xx` prints every byte of every string (paths included) as `\xNN`, so no quote, comma or bracket
/// inside a string can confuse the argument splitter below.
package struct StraceCall: Sendable {
    /// The thread that made the call.
    package let thread: Int
    /// The system call's name (`openat`, `pwrite64`, …).
    package let name: String
    /// The top-level arguments, as printed.
    package let arguments: [String]
    /// What it returned, as printed (`3</path>`, `0`, `-1 ENOENT (No such file or directory)`).
    package let result: String
    /// The whole joined line, for error messages.
    package let line: String

    /// The numeric return value (nil for `?`), without its `-y` path annotation.
    package var returnValue: Int? {
        Int(result.prefix { $0 == "-" || $0.isNumber })
    }

    /// Whether the call succeeded (a failed call changed nothing).
    package var succeeded: Bool { (returnValue ?? -1) >= 0 }

    /// Splits a log into its calls, in completion order. Signal and exit lines are dropped.
    package static func parse(_ log: String) throws -> [StraceCall] {
        var pending: [Int: String] = [:]
        var calls: [StraceCall] = []
        for rawLine in log.split(separator: "\n", omittingEmptySubsequences: true) {
            let line = String(rawLine)
            guard let space = line.firstIndex(of: " "), let thread = Int(line[..<space]) else {
                throw StraceLogError(line: line, reason: "no thread id (the log must come from strace -f)")
            }
            var rest = line[space...].drop { $0 == " " }
            if rest.hasPrefix("---") || rest.hasPrefix("+++") { continue }
            // A thread strace lost track of as it exited (`???( <detached ...>`): that call never returned.
            if rest.hasSuffix("<detached ...>") {
                pending[thread] = nil
                continue
            }
            if rest.hasPrefix("<... ") {
                guard let close = rest.range(of: " resumed>"), let before = pending.removeValue(forKey: thread)
                else { throw StraceLogError(line: line, reason: "a resumed call that never started") }
                rest = Substring(before + rest[close.upperBound...])
            }
            if rest.hasSuffix(" <unfinished ...>") {
                pending[thread] = String(rest.dropLast(" <unfinished ...>".count))
                continue
            }
            calls.append(try call(thread: thread, text: String(rest), line: line))
        }
        return calls
    }

    /// One complete call: `name(arguments) = result`.
    private static func call(thread: Int, text: String, line: String) throws -> StraceCall {
        // strace pads short calls: `mkdir("…", 0777)   = -1 EEXIST (File exists)`.
        guard let open = text.firstIndex(of: "("), let equals = text.range(of: " = ", options: .backwards) else {
            throw StraceLogError(line: line, reason: "not a call")
        }
        var end = equals.lowerBound
        while end > open, text[text.index(before: end)] == " " { end = text.index(before: end) }
        guard end > open, text[text.index(before: end)] == ")" else {
            throw StraceLogError(line: line, reason: "not a call")
        }
        let close = text.index(before: end)
        let name = String(text[..<open])
        let inside = text[text.index(after: open)..<close]
        let result = text[equals.upperBound...].trimmingCharacters(in: .whitespaces)
        return StraceCall(
            thread: thread, name: name, arguments: try splitArguments(inside, line: line), result: result,
            line: line)
    }

    /// Splits at the commas outside strings, brackets, braces, parentheses and `-y` annotations.
    private static func splitArguments(_ text: Substring, line: String) throws -> [String] {
        var arguments: [String] = []
        var depth = 0
        var inString = false
        var current = ""
        var previous: Character = " "
        for character in text {
            if inString {
                current.append(character)
                if character == "\"" && previous != "\\" { inString = false }
            } else {
                switch character {
                case "\"": inString = true
                case "(", "[", "{", "<": depth += 1
                case ")", "]", "}", ">": depth -= 1
                default: break
                }
                if character == "," && depth == 0 {
                    arguments.append(current.trimmingCharacters(in: .whitespaces))
                    current = ""
                } else {
                    current.append(character)
                }
            }
            previous = character
        }
        if inString || depth != 0 { throw StraceLogError(line: line, reason: "unbalanced arguments") }
        let last = current.trimmingCharacters(in: .whitespaces)
        if !last.isEmpty { arguments.append(last) }
        return arguments
    }

    /// The bytes of a printed string argument (`"\x2f\x74"`); throws when strace cut it short (`"…"...`).
    package static func bytes(ofString argument: String, line: String) throws -> [UInt8] {
        guard argument.hasPrefix("\"") else { throw StraceLogError(line: line, reason: "not a string: \(argument)") }
        if argument.hasSuffix("...") {
            throw StraceLogError(line: line, reason: "strace cut a string short (raise its -s limit)")
        }
        guard argument.count >= 2, argument.hasSuffix("\"") else {
            throw StraceLogError(line: line, reason: "not a string: \(argument)")
        }
        return try unescape(Array(argument.utf8.dropFirst().dropLast()), line: line)
    }

    /// Undoes strace's escaping (`\xNN` under `-xx`; the C escapes in case another mode is used).
    static func unescape(_ text: [UInt8], line: String) throws -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.count / 4)
        var index = 0
        func hex(_ byte: UInt8) -> UInt8? {
            switch byte {
            case 0x30...0x39: return byte - 0x30
            case 0x61...0x66: return byte - 0x61 + 10
            case 0x41...0x46: return byte - 0x41 + 10
            default: return nil
            }
        }
        while index < text.count {
            let byte = text[index]
            guard byte == 0x5C, index + 1 < text.count else {
                bytes.append(byte)
                index += 1
                continue
            }
            let next = text[index + 1]
            if next == 0x78, index + 3 < text.count, let high = hex(text[index + 2]), let low = hex(text[index + 3]) {
                bytes.append(high << 4 | low)
                index += 4
                continue
            }
            let simple: [UInt8: UInt8] = [
                0x6E: 0x0A, 0x74: 0x09, 0x72: 0x0D, 0x5C: 0x5C, 0x22: 0x22, 0x66: 0x0C, 0x76: 0x0B,
            ]
            guard let value = simple[next] else { throw StraceLogError(line: line, reason: "unknown escape") }
            bytes.append(value)
            index += 2
        }
        return bytes
    }

    /// The descriptor number and the `-y` path of a descriptor argument (`7</tmp/x>`, `AT_FDCWD</tmp>`).
    package static func descriptor(_ argument: String, line: String) throws -> (number: Int?, path: String?) {
        guard let open = argument.firstIndex(of: "<"), argument.hasSuffix(">") else {
            return (Int(argument), nil)
        }
        let number = Int(argument[..<open])
        let inside = argument[argument.index(after: open)..<argument.index(before: argument.endIndex)]
        let path = String(decoding: try unescape(Array(inside.utf8), line: line), as: UTF8.self)
        return (number, path)
    }
}

/// A line of an strace log the recorder could not read.
package struct StraceLogError: Error, CustomStringConvertible {
    /// The line, as strace wrote it.
    package let line: String
    /// What was wrong with it.
    package let reason: String
    /// The reason and the start of the line.
    package var description: String { "strace log: \(reason): \(line.prefix(300))" }
}
