import Foundation
import TestSupport
import Testing

/// Issue 29, item 4: one public-surface policy. `public` is for what a provider package outside
/// this one imports: the products a provider developer uses (`ContactProvider` and its Apple-named
/// companions, `ContactProviderConformance`, `ContactProviderTesting`). The host's command code, the
/// command-line toolkit, the Xcode project reader (issue 46: its one user is `contacts-host`) and the
/// test helpers are `package`: nothing outside uses them, so nothing outside can come to depend on them.
@Suite("The public surface: package access for what no provider package uses")
struct PublicSurfaceTests {
    /// Modules whose every declaration is `package` or narrower.
    static let packageOnly = [
        "ContactsHostKit", "ContactsHostConformance", "CommandLineToolkit", "TestSupport", "XcodeProjectReader",
    ]

    @Test(
        "the host kit, the command-line toolkit and the test helpers declare nothing public or open",
        arguments: packageOnly)
    func nothingPublic(module: String) throws {
        let root = PythonTestTools.repositoryRoot + "/Sources/" + module
        let files = try FileManager.default.subpathsOfDirectory(atPath: root).filter { $0.hasSuffix(".swift") }
        #expect(!files.isEmpty)
        let declaration = /^\s*(?:@\w+\s+)*(?:public|open)\s/.anchorsMatchLineEndings()
        var found: [String] = []
        for file in files.sorted() {
            let text = try String(contentsOfFile: root + "/" + file, encoding: .utf8)
            for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated()
            where line.firstMatch(of: declaration) != nil {
                found.append("Sources/\(module)/\(file):\(index + 1): \(line.trimmingCharacters(in: .whitespaces))")
            }
        }
        #expect(found.isEmpty, "declare these `package` (no provider package uses them): \(found)")
    }

    @Test("the package's library products are the modules a provider package imports, and no package-only module")
    func libraryProducts() throws {
        let manifest = try String(contentsOfFile: PythonTestTools.repositoryRoot + "/Package.swift", encoding: .utf8)
        let libraries = Set(manifest.matches(of: /\.library\(name: "(\w+)"/).map { String($0.1) })
        #expect(libraries.isDisjoint(with: Self.packageOnly), "\(libraries)")
        #expect(libraries.isSuperset(of: ["ContactProvider", "ContactProviderConformance", "ContactProviderTesting"]))
    }
}
