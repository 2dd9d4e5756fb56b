import Foundation

/// Quoting for command lines a person pastes into a POSIX shell: every command a tool prints for
/// the user to run (the demo's "Try it yourself", the debugger's command line, the kit's
/// reproduction) must work as pasted, whatever its paths hold.
package enum ShellWord {
    /// `word` unchanged when it is safe as is, else in single quotes.
    package static func quote(_ word: String) -> String {
        if !word.isEmpty, word.utf8.allSatisfy(isSafe) { return word }
        return "'" + word.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }

    /// Letters, digits and `-_./=:,+@%`: bytes no POSIX shell reads specially in a word.
    private static func isSafe(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"):
            true
        default: "-_./=:,+@%".utf8.contains(byte)
        }
    }
}
