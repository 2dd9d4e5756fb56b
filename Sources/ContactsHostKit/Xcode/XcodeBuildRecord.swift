import Foundation
import Glibc

/// What an Xcode-project build used, written beside the executable it produced
/// (`<executable>.xcode-build.json`): the project, the target, the package folder, and the
/// modification time of every file and folder the build read (``XcodeProjectReader``'s
/// `inputPaths`). A command that launches the provider compares those times with the files' own,
/// so an edit in Xcode (or any editor) is built before the next sync serves it — a stat per input,
/// no project read, in the common case where nothing changed.
struct XcodeBuildRecord: Codable, Equatable {
    /// The `.xcodeproj`, absolute.
    var project: String
    /// The project's folder (`SRCROOT`): compiler messages and changed files are shown relative to it.
    var sourceRoot: String
    /// The extension target's name.
    var target: String
    /// The generated package's folder (what `swift build --package-path` was given).
    var package: String
    /// Each input's modification time when the build started; nil when it did not exist.
    var inputs: [String: Stamp?]

    /// A file's modification time, to the nanosecond.
    struct Stamp: Codable, Equatable {
        var seconds: Int
        var nanoseconds: Int

        /// The modification time of `path` (symbolic links followed), nil when it does not exist.
        init?(path: String) {
            var info = stat()
            guard stat(path, &info) == 0 else { return nil }
            seconds = Int(info.st_mtim.tv_sec)
            nanoseconds = Int(info.st_mtim.tv_nsec)
        }
    }

    /// Where the record of the build at `executable` is.
    static func path(forExecutable executable: String) -> String { executable + ".xcode-build.json" }

    /// A record of `inputs` as they are now.
    init(project: String, sourceRoot: String, target: String, package: String, inputs: [String]) {
        self.project = project
        self.sourceRoot = sourceRoot
        self.target = target
        self.package = package
        var stamps: [String: Stamp?] = [:]
        for input in inputs { stamps[input] = .some(Stamp(path: input)) }
        self.inputs = stamps
    }

    /// The record beside `executable`, nil when it has none (a provider not built from an Xcode
    /// project: one failed `open`) or it cannot be read (then the next `enable` writes it again).
    static func read(forExecutable executable: String) -> XcodeBuildRecord? {
        // Most executables have no record: `stat` says so without FileManager's cost of a missing file
        // (paid by every `signal`, which checks whether the provider needs a rebuild).
        let path = path(forExecutable: executable)
        var info = stat()
        guard stat(path, &info) == 0, let data = FileManager.default.contents(atPath: path) else { return nil }
        return try? JSONDecoder().decode(XcodeBuildRecord.self, from: data)
    }

    /// Writes the record beside `executable` (atomically: a reader never sees half a record).
    func write(forExecutable executable: String) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted]
        try encoder.encode(self).write(to: URL(fileURLWithPath: Self.path(forExecutable: executable)), options: .atomic)
    }

    /// The first input (in path order) whose modification time differs from the build's, or that
    /// appeared or disappeared since; nil when the build is current.
    func firstChangedInput() -> String? {
        for (path, stamp) in inputs.sorted(by: { $0.key < $1.key }) where Stamp(path: path) != stamp {
            return path
        }
        return nil
    }

    /// `path` as the user sees it in the project: relative to the project's folder when inside it.
    func displayPath(_ path: String) -> String {
        path.hasPrefix(sourceRoot + "/") ? String(path.dropFirst(sourceRoot.count + 1)) : path
    }
}
