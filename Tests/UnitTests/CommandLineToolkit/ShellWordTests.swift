import CommandLineToolkit
import Foundation
import Testing

/// Every command a tool prints for the user to paste (the demo's "Try it yourself", the debugger's
/// command line, the kit's reproduction) quotes its words with `ShellWord`.
@Suite struct ShellWordTests {
    @Test("safe words stay as they are; others are single-quoted, a quote inside escaped")
    func quoting() {
        #expect(ShellWord.quote("/usr/bin/contacts-host") == "/usr/bin/contacts-host")
        #expect(ShellWord.quote("exec:python3 a.py") == "'exec:python3 a.py'")
        #expect(ShellWord.quote("it's $HOME") == #"'it'\''s $HOME'"#)
        #expect(ShellWord.quote("") == "''")
        #expect(ShellWord.quote("Ünïcode") == "'Ünïcode'")
    }

    @Test("a real shell reads each quoted word back as the word")
    func shellReadsItBack() throws {
        let words = [
            "/tmp/App Group", "it's", "$HOME", "a;b", "x\"y", "back\\slash", "*", "~user", "tab\there", "line\nbreak",
            "-_./=:,+@%", "",
        ]
        let script = words.map { "printf '%s\\0' " + ShellWord.quote($0) }.joined(separator: "; ")
        let shell = Process()
        shell.executableURL = URL(fileURLWithPath: "/bin/sh")
        shell.arguments = ["-c", script]
        let output = Pipe()
        shell.standardOutput = output
        try shell.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        shell.waitUntilExit()
        let read = data.split(separator: 0, omittingEmptySubsequences: false).dropLast().map {
            String(decoding: $0, as: UTF8.self)
        }
        #expect(read == words, "script: \(script)")
    }
}
