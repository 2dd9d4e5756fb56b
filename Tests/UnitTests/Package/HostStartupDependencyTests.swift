import Foundation
import TestSupport
import Testing

/// Issue 27, item 2: `contacts-host` starts without FoundationNetworking (libcurl and 30 libraries
/// behind it were 7 ms of every command: docs/startup-profile.md). Read from the manifest and the
/// sources, so a new dependency that brings it back fails here with its name; the built binary's
/// libraries are checked too (`ForwardedCommandsCLITests`).
@Suite("contacts-host's modules: none imports or re-exports FoundationNetworking")
struct HostStartupDependencyTests {
    /// Each target's direct dependencies, from Package.swift.
    static func targetDependencies() throws -> [String: [String]] {
        let manifest = try String(contentsOfFile: PythonTestTools.repositoryRoot + "/Package.swift", encoding: .utf8)
        let target =
            /\.(?:target|executableTarget|testTarget)\(\s*name:\s*"([^"]+)"(?:\s*,\s*dependencies:\s*\[([^\]]*)\])?/
        var dependencies: [String: [String]] = [:]
        for match in manifest.matches(of: target) {
            let names = (match.2.map(String.init) ?? "").matches(of: /"([^"]+)"/).map { String($0.1) }
            dependencies[String(match.1)] = names
        }
        return dependencies
    }

    /// `root` and every target it depends on, directly or not.
    static func closure(of root: String, in dependencies: [String: [String]]) -> Set<String> {
        var seen: Set<String> = []
        var pending = [root]
        while let next = pending.popLast() {
            guard seen.insert(next).inserted else { continue }
            pending += dependencies[next] ?? []
        }
        return seen
    }

    @Test("contacts-host depends on neither Contacts nor ContactProvider (both re-export FoundationNetworking)")
    func noAppleModules() throws {
        let dependencies = try Self.targetDependencies()
        #expect(dependencies["ContactsHostKit"] != nil, "the manifest parse found the host's module")
        let linked = Self.closure(of: "contacts-host", in: dependencies)
        #expect(linked.contains("ContactsHostKit"))
        #expect(
            linked.isDisjoint(with: ["Contacts", "ContactProvider", "ContactProviderConformance"]), "\(linked.sorted())"
        )
        // The forwarded commands' executable does link them: the split is real.
        #expect(Self.closure(of: "contacts-host-conformance", in: dependencies).contains("ContactProvider"))
    }

    @Test("no source file of contacts-host's modules imports FoundationNetworking")
    func noNetworkingImport() throws {
        let linked = Self.closure(of: "contacts-host", in: try Self.targetDependencies())
        var found: [String] = []
        for module in linked.sorted() {
            let root = PythonTestTools.repositoryRoot + "/Sources/" + module
            guard let files = try? FileManager.default.subpathsOfDirectory(atPath: root) else { continue }
            for file in files where file.hasSuffix(".swift") {
                let text = try String(contentsOfFile: root + "/" + file, encoding: .utf8)
                if text.contains(
                    /^\s*(?:@_exported\s+)?import\s+(?:\w+\s+)?FoundationNetworking/.anchorsMatchLineEndings())
                {
                    found.append("Sources/\(module)/\(file)")
                }
            }
        }
        #expect(found.isEmpty, "contacts-host would load libcurl at start-up: \(found)")
    }
}
