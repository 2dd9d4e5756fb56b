import Foundation
import TestSupport
import Testing

/// Issue 29, item 3: the unit tests mirror the modules. Each folder of `Tests/UnitTests` is named
/// after a module of `Sources` and holds that module's tests (each of its test files imports it),
/// or is one of the folders of tests that cross modules. A test that reads a module's sources
/// (its layering, say) counts as that module's.
@Suite("Test layout: Tests/UnitTests/<Module>/ holds that module's tests")
struct TestLayoutTests {
    /// Tests of behaviour that spans modules (a crash, a port from iOS), and of the package's own
    /// policies (this layout, the public surface).
    static let crossCutting: Set = ["Reliability", "Porting", "Package"]

    @Test("every folder is a module or a cross-cutting folder, and every test file in a module's folder imports it")
    func foldersMirrorModules() throws {
        let root = PythonTestTools.repositoryRoot
        let modules = Set(try FileManager.default.contentsOfDirectory(atPath: root + "/Sources"))
        let folders = try FileManager.default.contentsOfDirectory(atPath: root + "/Tests/UnitTests").sorted()
        var misplaced: [String] = []
        for folder in folders where !Self.crossCutting.contains(folder) {
            guard modules.contains(folder) else {
                misplaced.append("\(folder)/ is no module of Sources/ (nor \(Self.crossCutting.sorted()))")
                continue
            }
            let directory = root + "/Tests/UnitTests/" + folder
            for file in try FileManager.default.contentsOfDirectory(atPath: directory).sorted()
            where file.hasSuffix(".swift") {
                let text = try String(contentsOfFile: directory + "/" + file, encoding: .utf8)
                // Fixtures and helpers hold no tests; a test file names its module.
                guard text.contains("@Test") else { continue }
                let imports = text.split(separator: "\n").filter {
                    $0.hasPrefix("import ") || $0.hasPrefix("@testable import ")
                }
                if !imports.contains(where: { $0.hasSuffix(" \(folder)") }), !text.contains("/Sources/\(folder)") {
                    misplaced.append("\(folder)/\(file) does not import \(folder)")
                }
            }
        }
        #expect(misplaced.isEmpty, "\(misplaced)")
    }
}
