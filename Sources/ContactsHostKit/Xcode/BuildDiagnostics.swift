import Foundation
import Glibc
import XcodeProjectReader

/// The output of a failed `swift build` of a generated package, in the project's own names: the
/// compiler names the link it compiled (`<package>/Sources/<Product>/Provider/Provider.swift`), the
/// user knows the file as `Provider/Provider.swift` in their project, so every such path is shown
/// relative to the project's folder (a file outside it by its absolute path).
struct BuildDiagnostics {
    /// Every line of the build's output, paths rewritten.
    let lines: [String]
    /// The compiler's errors (`FILE:LINE:COLUMN: error: …`), each once, in order.
    let errors: [String]

    init(log: String, package: GeneratedPackage, directory: String) {
        var prefixes = [directory + "/Sources/" + package.productName + "/"]
        // The compiler may name the folder by its real path (a temporary folder behind a link).
        if let real = realpath(directory, nil) {
            let resolved = String(cString: real) + "/Sources/" + package.productName + "/"
            free(real)
            if resolved != prefixes[0] { prefixes.append(resolved) }
        }
        lines = log.split(separator: "\n").map { line in
            var text = String(line)
            for prefix in prefixes {
                // A link outside the project lives below `_outside` with the file's full path.
                text = text.replacingOccurrences(of: prefix + "_outside/", with: "/")
                text = text.replacingOccurrences(of: prefix, with: "")
            }
            return text
        }
        var seen = Set<String>()
        errors = lines.filter { $0.contains(": error:") && seen.insert($0).inserted }
    }
}
