import Foundation
import TestSupport
import Testing
import XcodeProjectReader

/// Issue 40: the Info.plist Xcode builds for a target, from its file and its build settings.
@Suite("Bundle info: an Xcode target's Info.plist as Xcode builds it, $(…) expanded")
struct BundleInfoTests {
    typealias Names = XcodeFixtures.IdentityNames

    private func withProject<T>(_ fixture: XcodeFixture, _ body: (XcodeProject) throws -> T) throws -> T {
        var fixture = fixture
        let directory = NSTemporaryDirectory() + "xcode-identity-" + UUID().uuidString
        defer { try? FileManager.default.removeItem(atPath: directory) }
        return try body(try XcodeProject(path: try fixture.write(to: directory)))
    }

    private func target(_ name: String, in project: XcodeProject) throws -> XcodeTarget {
        try #require(try project.targets().first { $0.name == name })
    }

    @Test("identifier, versions, names and the file's own keys, with its settings and modifiers expanded")
    func extensionInfo() throws {
        try withProject(XcodeFixtures.identity()) { project in
            let info = try BundleInfo(target: try target(Names.provider, in: project), in: project)
            #expect(info.bundleIdentifier == Names.providerIdentifier)
            #expect(info.dictionary["CFBundleShortVersionString"] as? String == "2.5")
            #expect(info.dictionary["CFBundleVersion"] as? String == "42")
            #expect(info.dictionary["CFBundleName"] as? String == Names.provider)
            #expect(info.dictionary["CFBundleDisplayName"] as? String == "Identity")
            #expect(info.dictionary["CFBundlePackageType"] as? String == "XPC!")
            #expect(info.dictionary[Names.serverKey] as? String == Names.serverHost)
            let attributes = info.dictionary["EXAppExtensionAttributes"] as? [String: Any]
            #expect(attributes?["EXExtensionPointIdentifier"] as? String == "com.apple.contact.provider.extension")
        }
    }

    @Test("the containing app is found, its display name read, and the extension's identifier is prefixed by its own")
    func containingApp() throws {
        try withProject(XcodeFixtures.identity()) { project in
            let provider = try BundleInfo(target: try target(Names.provider, in: project), in: project)
            let app = try #require(try BundleInfo.containingApp(of: provider.target, in: project))
            #expect(app.name == Names.app)
            let appInfo = try BundleInfo(target: app, in: project)
            #expect(appInfo.bundleIdentifier == Names.appIdentifier)
            #expect(appInfo.displayName == Names.appDisplayName)
            #expect(appInfo.dictionary["CFBundlePackageType"] as? String == "APPL")
            try provider.checkPrefixed(by: appInfo)
        }
    }

    @Test("an extension identifier not prefixed by the app's is refused as Xcode refuses it, naming both")
    func prefixRefused() throws {
        try withProject(XcodeFixtures.identity(extensionIdentifier: "com.other.provider")) { project in
            let provider = try BundleInfo(target: try target(Names.provider, in: project), in: project)
            let app = try BundleInfo(
                target: try #require(try BundleInfo.containingApp(of: provider.target, in: project)), in: project)
            let error = try #require(throws: XcodeProjectError.self) { try provider.checkPrefixed(by: app) }
            let text = "\(error)"
            #expect(text.contains("not prefixed with the parent app's bundle identifier"), "\(text)")
            #expect(text.contains("com.other.provider") && text.contains(Names.appIdentifier), "\(text)")
            #expect(text.contains("project.pbxproj"), "\(text)")
        }
    }

    @Test("$(…) and ${…} references: nested, built-in, unknown (empty), with Xcode's modifiers")
    func expansions() throws {
        try withProject(XcodeFixtures.identity()) { project in
            let settings = try BuildSettings(target: try target(Names.provider, in: project), in: project)
            let name = Names.provider
            #expect(settings.expand("$(PRODUCT_NAME)", targetName: name) == "Identity Provider")
            #expect(settings.expand("${TARGET_NAME:rfc1034identifier}", targetName: name) == "Identity-Provider")
            #expect(settings.expand("$(PRODUCT_NAME:identifier)", targetName: name) == "Identity_Provider")
            #expect(settings.expand("$(PRODUCT_NAME:lower).$(NOT_SET)x", targetName: name) == "identity provider.x")
            #expect(settings.expand("https://$(SERVER_HOST)/api", targetName: name) == "https://sync.example.com/api")
            #expect(settings.expand("$(APP_IDENTIFIER)", targetName: name) == Names.appIdentifier)
            #expect(
                settings.expand("no references; $ alone, $(unclosed", targetName: name)
                    == "no references; $ alone, $(unclosed")
        }
    }
}
