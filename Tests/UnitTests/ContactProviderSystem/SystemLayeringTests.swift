import Foundation
import TestSupport
import Testing

/// The system module's folders point one way: Configuration, Rules ← Engine ← Pipes ← Runtime, Host.
///
/// A folder may name the types of the folders below it, never those of its own rank or above: the
/// engine emits `SyncEngine.Event`s and knows nothing of watcher FIFOs, the runtime and the host
/// client do not see each other. Read from the sources, so a new edge fails here with its file.
@Suite("System module: folders in layers, one way")
struct SystemLayeringTests {
    private static let layers: [(folder: String, rank: Int)] = [
        ("Configuration", 0), ("Rules", 0), ("Engine", 1), ("Pipes", 2), ("Runtime", 3), ("Host", 3),
    ]

    private static var moduleRoot: String {
        PythonTestTools.repositoryRoot + "/Sources/ContactProviderSystem"
    }

    /// Each Swift file of `folder`, without comments and string literals (they may name anything).
    private static func sources(in folder: String) throws -> [(name: String, code: String)] {
        let directory = moduleRoot + "/" + folder
        return try FileManager.default.contentsOfDirectory(atPath: directory).sorted()
            .filter { $0.hasSuffix(".swift") }
            .map { name in
                let text = try String(contentsOfFile: directory + "/" + name, encoding: .utf8)
                let code = text.split(separator: "\n", omittingEmptySubsequences: false).map { line in
                    let withoutComment = line.range(of: "//").map { line[..<$0.lowerBound] } ?? line[...]
                    return withoutComment.replacing(/"[^"]*"/, with: "\"\"")
                }
                return (folder + "/" + name, code.joined(separator: "\n"))
            }
    }

    /// The types a folder declares at file level (nested names such as `Kind` are not unique).
    private static func declaredTypes(in files: [(name: String, code: String)]) -> Set<String> {
        let declaration =
            /^(?:(?:public|package|internal|fileprivate|private|final)\s+)*(?:struct|class|enum|protocol|typealias|actor)\s+([A-Z]\w*)/
            .anchorsMatchLineEndings()
        return Set(files.flatMap { file in file.code.matches(of: declaration).map { String($0.1) } })
    }

    @Test("no folder names a type of its own rank or above (the engine emits events, the runtime rings watchers)")
    func foldersPointOneWay() throws {
        let files = try Self.layers.map { layer in (layer, try Self.sources(in: layer.folder)) }
        let types = files.map { layer, sources in (layer, Self.declaredTypes(in: sources)) }
        #expect(
            types.allSatisfy { !$0.1.isEmpty },
            "every folder declares types: \(types.map { ($0.0.folder, $0.1.count) })")
        var edges: [String] = []
        for (layer, sources) in files {
            for (other, names) in types where other.folder != layer.folder && other.rank >= layer.rank {
                for name in names.sorted() {
                    // Simple boundaries: by Unicode's rules `WatchChannel.notify` is one word.
                    let word = try Regex("\\b\(name)\\b").wordBoundaryKind(.simple)
                    for source in sources where source.code.firstMatch(of: word) != nil {
                        edges.append("\(source.name) names \(name) (\(other.folder))")
                    }
                }
            }
        }
        #expect(
            edges.isEmpty,
            "the system module's folders point one way (Configuration, Rules ← Engine ← Pipes ← Runtime, Host): \(edges)"
        )
    }
}
