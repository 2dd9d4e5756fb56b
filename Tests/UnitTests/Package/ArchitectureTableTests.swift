import Foundation
import TestSupport
import Testing

/// Issue 46: `docs/architecture.md`'s module table names every target of `Sources/`, and names no
/// target that is gone, so a newcomer reading it sees the whole package.
@Suite("Architecture: the module table names every target of Sources/")
struct ArchitectureTableTests {
    /// The first cell of each row of the table headed `| module | what | why this shape |`, without
    /// its backquotes and a trailing `(C)`.
    static func tableModules(_ text: String) -> [String] {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        guard let header = lines.firstIndex(where: { $0.hasPrefix("| module | what |") }) else { return [] }
        var modules: [String] = []
        for line in lines[(header + 2)...] {
            guard line.hasPrefix("| `") else { break }
            let cell = line.dropFirst(3)
            guard let end = cell.firstIndex(of: "`") else { break }
            modules.append(String(cell[..<end]))
        }
        return modules
    }

    @Test("every folder of Sources/ has a row, and every row is a folder of Sources/")
    func tableNamesEveryTarget() throws {
        let root = PythonTestTools.repositoryRoot
        let text = try String(contentsOfFile: root + "/docs/architecture.md", encoding: .utf8)
        let named = Self.tableModules(text)
        #expect(named.count > 10, "the module table was not found in docs/architecture.md")
        let targets = try FileManager.default.contentsOfDirectory(atPath: root + "/Sources").filter {
            var isDirectory: ObjCBool = false
            return FileManager.default.fileExists(atPath: root + "/Sources/" + $0, isDirectory: &isDirectory)
                && isDirectory.boolValue
        }
        let missing = Set(targets).subtracting(named).sorted()
        let stale = Set(named).subtracting(targets).sorted()
        #expect(missing.isEmpty, "docs/architecture.md's module table has no row for \(missing)")
        #expect(stale.isEmpty, "docs/architecture.md's module table names \(stale), which Sources/ does not have")
        #expect(Set(named).count == named.count, "a module has two rows: \(named)")
    }

    @Test("the reader takes the first cell of each row and stops at the table's end")
    func readsTheTable() {
        let text = """
            | module | what | why this shape |
            |---|---|---|
            | `A` | a | why |
            | `B` (C) | b | why |

            | `Z` | not this table | |
            """
        #expect(Self.tableModules(text) == ["A", "B"])
    }
}
