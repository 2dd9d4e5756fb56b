import Foundation

/// Where a command writes: results on stdout, diagnostics on stderr.
public protocol CommandOutput: AnyObject {
    func out(_ text: String)
    func err(_ text: String)
}

/// The process's standard streams.
public final class StandardOutput: CommandOutput {
    public init() {}

    public func out(_ text: String) {
        FileHandle.standardOutput.write(Data((text + "\n").utf8))
    }

    public func err(_ text: String) {
        FileHandle.standardError.write(Data((text + "\n").utf8))
    }
}

/// Captures output in memory (tests).
public final class CapturedOutput: CommandOutput {
    public private(set) var stdout = ""
    public private(set) var stderr = ""

    public init() {}

    public func out(_ text: String) { stdout += text + "\n" }
    public func err(_ text: String) { stderr += text + "\n" }
}
