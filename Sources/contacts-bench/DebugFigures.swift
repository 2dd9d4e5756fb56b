import Foundation

/// The goals' debug figures (`--goals`), measured in the same run by the debug build's bench: the
/// build `swift build` and `swift run` give, which is every user's first contact (issue 27, item 3).
/// It runs as a child with `--json`, and its figures come back marked `configuration: "debug"`.
///
/// It measures P2 (one-change sync), P3 and P6 (full sync, in process and through the CLI, and the
/// signal after it), P4 (idle signal) and I1 (import) at `sizes`: what the debug goals compare.
func debugFigures(bench: String, sizes: [Int], quick: Bool, log: (String) -> Void) throws -> [Figure] {
    let arguments =
        [
            "--expect-configuration", "debug", "--json", "--contacts", sizes.map(String.init).joined(separator: ","),
            "--only", "P2,P3,P4,I1",
        ] + (quick ? ["--quick"] : [])
    log("debug figures: \(bench) \(arguments.joined(separator: " "))")
    let process = Process()
    process.executableURL = URL(fileURLWithPath: bench)
    process.arguments = arguments
    let output = Pipe()
    process.standardOutput = output
    try process.run()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    guard process.terminationReason == .exit, process.terminationStatus == 0 else {
        throw BenchError("the debug build's bench (\(bench)) failed (status \(process.terminationStatus))")
    }
    var figures = try JSONDecoder().decode([Figure].self, from: data)
    for index in figures.indices { figures[index].configuration = "debug" }
    return figures
}
