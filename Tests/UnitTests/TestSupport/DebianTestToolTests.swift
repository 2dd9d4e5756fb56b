import Foundation
import Glibc
import TestSupport
import Testing

@Suite("The tests' system-wide installs: said before they happen, and CPS_NO_SYSTEM_INSTALL turns them off")
struct DebianTestToolTests {
    @Test("An installed tool is used where it is, whatever the variable says")
    func installedToolIsUsed() {
        for environment in [[:], [DebianTestTool.noSystemInstallVariable: "1"]] {
            #expect(
                DebianTestTool.decision(for: "strace", installedPath: "/usr/bin/strace", environment: environment)
                    == .installed("/usr/bin/strace"))
        }
    }

    @Test("A missing tool is installed when the variable is unset, empty or 0")
    func missingToolIsInstalled() {
        for environment in [[:], [DebianTestTool.noSystemInstallVariable: ""], ["CPS_NO_SYSTEM_INSTALL": "0"]] {
            #expect(DebianTestTool.decision(for: "gdb", installedPath: nil, environment: environment) == .install)
        }
    }

    @Test("With CPS_NO_SYSTEM_INSTALL=1 a missing tool fails with a message naming the variable and the package")
    func refusalNamesTheVariable() {
        let decision = DebianTestTool.decision(
            for: "strace", installedPath: nil, environment: ["CPS_NO_SYSTEM_INSTALL": "1"])
        guard case .refuse(let message) = decision else {
            Issue.record("expected a refusal, got \(decision)")
            return
        }
        #expect(message.contains("CPS_NO_SYSTEM_INSTALL=1"), "\(message)")
        #expect(message.contains("'strace'"), "\(message)")
        #expect(message.contains("apt-get install strace"), "\(message)")
    }

    @Test("The notice printed before the first install names every package, why, and the variable")
    func noticeSaysWhatAndWhy() {
        let notice = DebianTestTool.installNotice
        #expect(notice.hasPrefix("swift test: installing missing Debian packages system-wide"), "\(notice)")
        for package in ["strace", "gdb", "lldb-16"] { #expect(notice.contains(package), "\(notice)") }
        #expect(notice.contains("debugging tests") && notice.contains("crash"), "\(notice)")
        #expect(notice.contains("CPS_NO_SYSTEM_INSTALL=1 turns this off"), "\(notice)")
    }

    @Test("The README's Tests and CI section says what is installed system-wide, why, and names the variable")
    func readmeSaysIt() throws {
        let readme = try String(contentsOfFile: PythonTestTools.repositoryRoot + "/README.md", encoding: .utf8)
        let section = try #require(readme.components(separatedBy: "## Tests and CI").last)
        for package in DebianTestTool.packages.map(\.name) + [DebianTestTool.noSystemInstallVariable] {
            #expect(section.contains(package), "README's Tests and CI does not name \(package)")
        }
        #expect(section.contains("system-wide"))
    }

    @Test("The installer script refuses too, naming the variable, when a tool is missing and installs are off")
    func scriptRefuses() throws {
        let script = PythonTestTools.repositoryRoot + "/Scripts/install-debian-test-tools.sh"
        var environment = ProcessInfo.processInfo.environment
        environment["CPS_NO_SYSTEM_INSTALL"] = "1"
        let missing = "cps-no-such-package-\(getpid())"
        let result = try ProcessRunner.run("/bin/bash", [script, missing], environment: environment)
        #expect(result.exitCode == 1, "\(result)")
        #expect(result.stderr.contains("CPS_NO_SYSTEM_INSTALL=1 turns off system-wide installs"), "\(result)")
        #expect(result.output.isEmpty, "\(result)")
    }
}
