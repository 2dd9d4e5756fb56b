import Foundation
import Testing
import XcodeProjectReader

/// The old-style property list syntax as Xcode writes `project.pbxproj`.
@Suite("Xcode project: the pbxproj property-list syntax")
struct PropertyListTextTests {
    private func parse(_ text: String) throws -> PropertyListValue {
        try PropertyListText.parse(text, file: "project.pbxproj")
    }

    @Test("comments, unquoted tokens, one-line objects, trailing separators and data")
    func xcodeSyntax() throws {
        let value = try parse(
            """
            // !$*UTF8*$!
            {
            \tarchiveVersion = 1; /* a comment */ objectVersion = 77;
            \tobjects = {
            \t\tAB12 /* Provider.swift in Sources */ = {isa = PBXBuildFile; fileRef = CD34 /* Provider.swift */; settings = {ATTRIBUTES = (RemoveHeadersOnCopy, ); }; };
            \t\tCD34 = {isa = PBXFileReference; path = "My Folder/A.swift"; sourceTree = "<group>"; };
            \t\tEF56 = { isa = PBXGroup; children = ( AB12, CD34 , ); name = TARGET_NAME-2.0_x/y:z; data = <0fA1 22>; };
            \t};
            }
            """)
        let objects = try #require(value.dictionary?["objects"]?.dictionary)
        #expect(value.dictionary?["objectVersion"] == .string("77"))
        #expect(objects["AB12"]?.dictionary?["fileRef"] == .string("CD34"))
        #expect(
            objects["AB12"]?.dictionary?["settings"]?.dictionary?["ATTRIBUTES"]
                == .array([.string("RemoveHeadersOnCopy")]))
        #expect(objects["CD34"]?.dictionary?["path"] == .string("My Folder/A.swift"))
        #expect(objects["EF56"]?.dictionary?["children"] == .array([.string("AB12"), .string("CD34")]))
        #expect(objects["EF56"]?.dictionary?["name"] == .string("TARGET_NAME-2.0_x/y:z"))
        #expect(objects["EF56"]?.dictionary?["data"] == .data([0x0f, 0xa1, 0x22]))
    }

    @Test("escapes: quotes, backslashes, newlines, tabs, \\U and octal characters")
    func escapes() throws {
        let value = try parse(#"{ a = "say \"hi\"\\ \n\t"; b = "caf\U00e9 \351"; c = "/* not a comment */"; }"#)
        #expect(value.dictionary?["a"] == .string("say \"hi\"\\ \n\t"))
        #expect(value.dictionary?["b"] == .string("café é"))
        #expect(value.dictionary?["c"] == .string("/* not a comment */"))
    }

    @Test(
        "malformed text is refused with its line and column",
        arguments: [
            ("{\n  a = \"open;\n}", 2, 7, "never closed"),
            ("{\n  a = b\n}", 3, 1, "expected ';'"),
            ("{ a = (b c); }", 1, 10, "expected ',' or ')'"),
            ("{ a = b; } extra", 1, 12, "after the top-level value"),
            ("{ /* never ends", 1, 3, "comment is never closed"),
            ("{ a = <0g>; }", 1, 9, "not a hex digit"),
            ("{\n\ta = {\n", 3, 1, "'}' missing"),
        ])
    func malformed(text: String, line: Int, column: Int, words: String) throws {
        let error = try #require(throws: XcodeProjectError.self) { try parse(text) }
        #expect(error.line == line && error.column == column, "\(error)")
        #expect(error.description.hasPrefix("project.pbxproj:\(line):\(column): "), "\(error)")
        #expect(error.message.contains(words), "\(error)")
    }
}
