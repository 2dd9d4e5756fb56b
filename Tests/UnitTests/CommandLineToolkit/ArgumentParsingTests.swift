import CommandLineToolkit
import ContactsHostKit
import Foundation
import TestSupport
import Testing

@Suite("parseArguments: the contacts-host argument parser")
struct ArgumentParsingTests {
    private let options = [
        OptionSpec("--given-name", value: "G", help: ""),
        OptionSpec("--birthday", value: "YYYY-MM-DD", help: ""),
        OptionSpec("--phone", value: "NUMBER", repeatable: true, help: ""),
        OptionSpec("--json", help: ""),
    ]
    private let oneID = PositionalSpec("ID", minimum: 1, maximum: 1)

    private func usageError(_ arguments: [String], positional: PositionalSpec? = nil) -> String? {
        do {
            _ = try parseArguments(arguments, options: options, positional: positional ?? oneID)
            return nil
        } catch let error as UsageError {
            return error.message
        } catch {
            return "unexpected \(error)"
        }
    }

    @Test("Options, repeated options, flags and positionals are collected")
    func collects() throws {
        let parsed = try parseArguments(
            ["--given-name", "Ada", "x1", "--phone", "1", "--phone=2", "--json"], options: options, positional: oneID)
        #expect(parsed.value("--given-name") == "Ada")
        #expect(parsed.values("--phone") == ["1", "2"])
        #expect(parsed.has("--json"))
        #expect(!parsed.has("--birthday"))
        #expect(parsed.positionals == ["x1"])
    }

    @Test("--opt=value works, including values that contain '='")
    func inlineValue() throws {
        let parsed = try parseArguments(["--given-name=A=B", "id"], options: options, positional: oneID)
        #expect(parsed.value("--given-name") == "A=B")
        let empty = try parseArguments(["--given-name=", "id"], options: options, positional: oneID)
        #expect(empty.value("--given-name") == "")
    }

    @Test("A birthday without a year is a value, not an option")
    func yearlessBirthday() throws {
        let parsed = try parseArguments(["--birthday", "--05-17", "id"], options: options, positional: oneID)
        #expect(parsed.value("--birthday") == "--05-17")
        #expect(parsed.positionals == ["id"])
    }

    @Test("An unknown option is a usage error", arguments: [["--bogus", "id"], ["-x", "id"], ["--bogus=1", "id"]])
    func unknownOption(arguments: [String]) {
        let name = arguments[0].split(separator: "=")[0]
        #expect(usageError(arguments) == "unknown option '\(name)'")
    }

    @Test("A non-repeatable option given twice is a usage error")
    func repeated() {
        #expect(
            usageError(["--given-name", "A", "--given-name", "B", "id"])
                == "option '--given-name' was given more than once")
        #expect(usageError(["--json", "--json", "id"]) == "option '--json' was given more than once")
    }

    @Test("A missing value is a usage error, including when the next word is an option")
    func missingValue() {
        #expect(usageError(["id", "--given-name"]) == "option '--given-name' needs a value (G)")
        #expect(usageError(["--given-name", "--json", "id"]) == "option '--given-name' needs a value (G)")
        #expect(usageError(["--given-name", "--phone=1", "id"]) == "option '--given-name' needs a value (G)")
    }

    @Test("A flag given a value is a usage error")
    func flagWithValue() {
        #expect(usageError(["--json=yes", "id"]) == "option '--json' takes no value")
    }

    @Test("Missing and unexpected positionals are usage errors")
    func positionals() {
        #expect(usageError([]) == "missing argument ID")
        #expect(usageError(["a", "b"]) == "unexpected argument 'b'")
        #expect(usageError(["a"], positional: PositionalSpec.none) == "unexpected argument 'a'")
        #expect(
            usageError([], positional: PositionalSpec("ID", minimum: 1, maximum: .max))
                == "expected at least 1 ID argument(s)")
    }

    @Test("'--' ends options and '-' is a positional")
    func doubleDash() throws {
        let parsed = try parseArguments(["--", "--json"], options: options, positional: oneID)
        #expect(parsed.positionals == ["--json"])
        #expect(!parsed.has("--json"))
        let stdin = try parseArguments(["-"], options: options, positional: oneID)
        #expect(stdin.positionals == ["-"])
    }

    @Test("Typed values reject non-positive and non-numeric input")
    func typedValues() throws {
        #expect(try ArgumentValue.positiveInt("12", option: "--n") == 12)
        #expect(throws: UsageError.self) { try ArgumentValue.positiveInt("0", option: "--n") }
        #expect(throws: UsageError.self) { try ArgumentValue.positiveInt("x", option: "--n") }
        #expect(try ArgumentValue.seconds("0.5", option: "--t") == 0.5)
        #expect(throws: UsageError.self) { try ArgumentValue.seconds("inf", option: "--t") }
        #expect(throws: UsageError.self) { try ArgumentValue.seconds("-1", option: "--t") }
    }

    @Test(
        "Seconds are written one way, %g, and read back by the seconds option",
        arguments: [
            (10.0, "10"), (0.5, "0.5"), (2.25, "2.25"), (0.00001, "1e-05"), (120.0, "120"),
        ])
    func secondsText(value: Double, text: String) throws {
        #expect(SecondsText.format(value) == text)
        #expect(try ArgumentValue.seconds(SecondsText.format(value), option: "--t") == value)
    }

    /// Issue 46: help, errors and the bench once each wrote seconds with their own `%g`.
    @Test("No source but SecondsText formats seconds with %g")
    func oneSecondsSpelling() throws {
        let sources = PythonTestTools.repositoryRoot + "/Sources"
        var writers: [String] = []
        for file in try FileManager.default.subpathsOfDirectory(atPath: sources) where file.hasSuffix(".swift") {
            let text = try String(contentsOfFile: sources + "/" + file, encoding: .utf8)
            if text.contains(#""%g""#) { writers.append(file) }
        }
        #expect(writers == ["CommandLineToolkit/ArgumentValue.swift"])
    }
}
