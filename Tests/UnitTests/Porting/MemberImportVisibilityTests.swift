import Foundation
import TestSupport
import Testing

/// Issue 23, item 4: `containerURL(forSecurityApplicationGroupIdentifier:)` under
/// `MemberImportVisibility` (Xcode 26's default for new targets). On iOS Foundation defines it; here
/// the `ContactProvider` module does (Linux Foundation has no App Groups), so a file that imports only
/// Foundation cannot see it with the feature on, whatever this package does: a member is visible only
/// through the module that declares it, and no package can add declarations to Foundation. The README's
/// porting table documents the one-line fix; these tests hold both halves of that statement.
@Suite("Porting: containerURL under MemberImportVisibility (the documented limit, and its fix)")
struct MemberImportVisibilityTests {
    static let call = """
        func container() -> URL? {
            FileManager.default.containerURL(forSecurityApplicationGroupIdentifier: "group.com.example")
        }
        """

    /// Another file of the same target imports ContactProvider, as the extension's main file does.
    static let mainFile = "import ContactProvider\n"

    @Test("a Foundation-only file is refused with the compiler's own words, naming ContactProvider")
    func foundationOnlyRefused() throws {
        let errors = try TypeCheck.errors(
            files: [Self.mainFile, "import Foundation\n" + Self.call], upcomingFeatures: ["MemberImportVisibility"])
        #expect(
            errors.contains { $0.hasPrefix("File2.swift") && $0.contains("defining module 'ContactProvider'") },
            "\(errors)")
    }

    @Test("the documented fix, `import ContactProvider` in that file, compiles; without the feature nothing is needed")
    func fixCompiles() throws {
        let fixed = try TypeCheck.errors(
            files: [Self.mainFile, "import Foundation\nimport ContactProvider\n" + Self.call],
            upcomingFeatures: ["MemberImportVisibility"])
        #expect(fixed.isEmpty, "\(fixed)")
        let withoutFeature = try TypeCheck.errors(files: [Self.mainFile, "import Foundation\n" + Self.call])
        #expect(withoutFeature.isEmpty, "\(withoutFeature)")
    }
}
