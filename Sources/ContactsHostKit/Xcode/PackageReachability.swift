import Foundation
import Glibc
import XcodeProjectReader

/// Makes sure every remote Swift package of the extension target can be fetched before `swift build`
/// runs: SwiftPM retries an unreachable repository for a long time (measured: about 55 minutes for a
/// `file://` URL that does not exist), with nothing printed.
///
/// A package already checked out in the scratch path needs no network; any other one is asked for its
/// references with `git ls-remote`, bounded by ``probeSeconds``, with git's prompts turned off.
enum PackageReachability {
    /// How long one repository may take to answer.
    static let probeSeconds = 20

    /// Throws a one-line ``CommandFailure`` naming the first package that cannot be fetched, the
    /// target and what git said; returns when every remote package is checked out or answers.
    static func check(_ target: ContactProviderTarget, scratchPath: String) throws {
        for package in target.packages {
            guard case .remote(let url) = package.source else { continue }
            if FileManager.default.fileExists(atPath: scratchPath + "/checkouts/" + package.identity) { continue }
            if let reason = probe(url) {
                throw CommandFailure(
                    "the Swift package \(url) of target \(target.target.name) cannot be fetched (\(reason)); "
                        + "nothing was built or enabled: connect to the network, or fetch it once with access")
            }
        }
    }

    /// Nil when `git ls-remote` lists `url`'s references in time; else why not, in one line.
    static func probe(_ url: String) -> String? {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["timeout", "\(probeSeconds)", "git", "ls-remote", "--exit-code", url, "HEAD"]
        var environment = ProcessInfo.processInfo.environment
        environment["GIT_TERMINAL_PROMPT"] = "0"
        environment["GIT_ASKPASS"] = "/bin/false"
        environment["SSH_ASKPASS"] = "/bin/false"
        process.environment = environment
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        do { try process.run() } catch { return nil }  // no env or git: SwiftPM reports it itself
        let said = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        switch process.terminationStatus {
        case 0: return nil
        case 124: return "no answer within \(probeSeconds) s"
        case 127: return nil  // git is not installed: SwiftPM says so
        default:
            let line = said.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.first {
                !$0.isEmpty
            }
            return "git ls-remote: \(line ?? "exit status \(process.terminationStatus)")"
        }
    }
}
