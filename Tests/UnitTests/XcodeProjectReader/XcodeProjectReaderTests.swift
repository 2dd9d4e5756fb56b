import Foundation
import TestSupport
import Testing
import XcodeProjectReader

/// Reading an Xcode project as Xcode does: targets, files, settings, entitlements, packages.
@Suite("Xcode project: targets, files, settings and entitlements")
struct XcodeProjectReaderTests {
    typealias Names = XcodeFixtures.TwoProviders

    /// Writes `fixture` into a fresh temporary folder, runs `body` with the `.xcodeproj` path, removes it.
    private func withProject<T>(_ fixture: XcodeFixture, _ body: (String) throws -> T) throws -> T {
        var fixture = fixture
        let directory = NSTemporaryDirectory() + "xcode-fixture-" + UUID().uuidString
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let bundle = try fixture.write(to: directory)
        return try body(bundle)
    }

    private func relative(_ files: [TargetSourceFile], in project: String) -> [String] {
        let root = (project as NSString).deletingLastPathComponent + "/"
        return files.map { $0.path.replacingOccurrences(of: root, with: "") }
    }

    @Test("the classic target: group path chains, a SOURCE_ROOT reference, Swift 5, its entitlements' App Group")
    func classicTarget() throws {
        try withProject(try XcodeFixtures.twoProviders()) { path in
            let target = try ContactProviderTarget(project: try XcodeProject(path: path), named: Names.classic)
            #expect(
                relative(target.sources.swiftFiles, in: path) == [
                    "\(Names.classicFolder)/Enumerators/LanguageMode.swift",
                    "\(Names.classicFolder)/Enumerators/RootContainerEnumerator.swift",
                    "\(Names.classicFolder)/Provider.swift", Names.sharedModel,
                ])
            #expect(target.sources.leftOut.map { ($0.path as NSString).lastPathComponent } == ["Legacy.m"])
            #expect(target.sources.leftOut.first?.reason.contains("Objective-C") == true)
            #expect(target.compilation.languageMode == "5")
            #expect(target.compilation.upcomingFeatures.isEmpty)
            // The app's main-actor isolation and ExistentialAny are the app's, not the extension's.
            #expect(target.compilation.defaultIsolation == nil)
            #expect(target.compilation.conditions == ["DEBUG"])
            #expect(target.appGroupIdentifier == XcodeFixtures.templateGroup)
            #expect(target.configuration == "Debug")
        }
    }

    @Test(
        "the synchronized target: nested in a classic group, its Info.plist removed, the app's model added, SwiftUI file reported"
    )
    func synchronizedTarget() throws {
        try withProject(try XcodeFixtures.twoProviders()) { path in
            let target = try ContactProviderTarget(project: try XcodeProject(path: path), named: Names.synced)
            #expect(
                relative(target.sources.swiftFiles, in: path) == [
                    Names.sharedModel, "\(Names.syncedFolder)/Provider.swift",
                    "\(Names.syncedFolder)/RootContainerEnumerator.swift", "\(Names.syncedFolder)/Settings Check.swift",
                ])
            #expect(target.sources.swiftFiles.first?.origin == "membership exception")
            let leftOut = try #require(target.sources.leftOut.first)
            #expect(target.sources.leftOut.count == 1)
            #expect(leftOut.path.hasSuffix("\(Names.syncedFolder)/Preview.swift"))
            #expect(leftOut.reason.contains("imports SwiftUI"), "\(leftOut)")
            #expect(target.compilation.languageMode == "6")
            #expect(target.compilation.upcomingFeatures == ["MemberImportVisibility"])
            #expect(target.compilation.conditions == ["DEBUG", "SYNCED_PROVIDER"])
        }
    }

    @Test("two Contact Provider targets among a widget and an app: the choice is asked for, with the names")
    func ambiguousChoice() throws {
        try withProject(try XcodeFixtures.twoProviders()) { path in
            let project = try XcodeProject(path: path)
            let error = try #require(throws: XcodeProjectError.self) { try ContactProviderTarget(project: project) }
            #expect(
                error.message.contains("has 2 Contact Provider extension targets (\(Names.classic), \(Names.synced))"))
            #expect(error.message.contains("--target NAME"))
            let widget = try #require(throws: XcodeProjectError.self) {
                try ContactProviderTarget(project: project, named: "Widget")
            }
            #expect(widget.message.contains("com.apple.widgetkit-extension extension, not a Contact Provider"))
            let app = try #require(throws: XcodeProjectError.self) {
                try ContactProviderTarget(project: project, named: "Contacts App")
            }
            #expect(app.message.contains("is an application, not an app extension"))
            let missing = try #require(throws: XcodeProjectError.self) {
                try ContactProviderTarget(project: project, named: "Nope")
            }
            #expect(
                missing.message.contains(
                    "its targets: Contacts App (application), \(Names.classic) (extensionkit-extension)"))
        }
    }

    @Test("a project without a Contact Provider extension is refused with the targets it has")
    func noProvider() throws {
        var fixture = XcodeFixture(name: "Widgets Only")
        fixture.file(
            "W/Info.plist", XcodeFixture.infoPlist(extensionPoint: "com.apple.appintents-extension", extensionKit: true)
        )
        fixture.file("W/Intent.swift", "import AppIntents\n")
        let folder = fixture.synchronizedFolder("W")
        fixture.mainGroupChildren = [folder]
        fixture.target(
            "Intents", productType: XcodeFixture.extensionKitProduct, synchronizedFolders: [folder],
            settings: [("INFOPLIST_FILE", .string("W/Info.plist"))])
        try withProject(fixture) { path in
            let error = try #require(throws: XcodeProjectError.self) {
                try ContactProviderTarget(project: try XcodeProject(path: path))
            }
            #expect(error.message.contains("has no Contact Provider extension target"))
            #expect(error.message.contains("its targets: Intents (extensionkit-extension)"))
        }
    }

    @Test(
        "xcconfig files: the project's under its settings, the target's under its own, #include, [config=] and [sdk=] conditions, $(inherited) at each level"
    )
    func configurationFiles() throws {
        var fixture = XcodeFixture(name: "Configured")
        fixture.file("P/Info.plist", XcodeFixture.infoPlist(extensionPoint: XcodeFixture.contactProviderPoint))
        fixture.file("P/Provider.swift", "import ContactProvider\n")
        fixture.file(
            "Config/Shared.xcconfig",
            """
            // Shared by every target (a comment; so is the end of the next line)
            SWIFT_VERSION = 5.0 // Swift 5 mode
            SWIFT_ACTIVE_COMPILATION_CONDITIONS = SHARED
            #include? "Missing.xcconfig"

            """)
        fixture.file(
            "Config/Extension.xcconfig",
            """
            #include "Features.xcconfig"
            SWIFT_ACTIVE_COMPILATION_CONDITIONS = $(inherited) FROM_XCCONFIG
            SWIFT_ACTIVE_COMPILATION_CONDITIONS[config=Release] = $(inherited) RELEASE_ONLY
            SWIFT_ACTIVE_COMPILATION_CONDITIONS[sdk=macosx*] = $(inherited) MAC_ONLY
            SWIFT_UPCOMING_FEATURE_EXISTENTIAL_ANY[sdk=iphonesimulator*] = YES
            SWIFT_VERSION[arch=arm64] = 4.2

            """)
        fixture.file("Config/Features.xcconfig", "SWIFT_DEFAULT_ACTOR_ISOLATION = MainActor\n")
        let shared = fixture.fileReference("Shared.xcconfig")
        let own = fixture.fileReference("Extension.xcconfig")
        let folder = fixture.synchronizedFolder("P")
        fixture.mainGroupChildren = [fixture.group("Config", children: [shared, own]), folder]
        fixture.projectConfigurationFile = shared
        fixture.projectSettings = [("SWIFT_ACTIVE_COMPILATION_CONDITIONS", .string("DEBUG $(inherited)"))]
        fixture.target(
            "P", productType: XcodeFixture.extensionKitProduct, synchronizedFolders: [folder],
            settings: [
                ("INFOPLIST_FILE", .string("P/Info.plist")),
                ("SWIFT_ACTIVE_COMPILATION_CONDITIONS", .string("$(inherited) TARGET")),
            ],
            configurationFile: own)
        try withProject(fixture) { path in
            let target = try ContactProviderTarget(project: try XcodeProject(path: path))
            #expect(
                target.compilation.languageMode == "5", "the project's xcconfig; the arm64-only line is not this build")
            #expect(target.compilation.defaultIsolation == "MainActor", "from the target xcconfig's #include")
            #expect(target.compilation.upcomingFeatures.contains("ExistentialAny"), "the simulator SDK's line")
            #expect(target.compilation.conditions == ["DEBUG", "SHARED", "FROM_XCCONFIG", "TARGET"])
            #expect(!target.sources.swiftFiles.contains { $0.path.hasSuffix(".xcconfig") })
            // What a build depends on: an edit to any of these makes contacts-host rebuild.
            let root = (path as NSString).deletingLastPathComponent + "/"
            let inputs = Set(target.inputPaths.map { $0.replacingOccurrences(of: root, with: "") })
            let expected: Set = [
                "Config/Shared.xcconfig", "Config/Extension.xcconfig", "Config/Features.xcconfig", "P/Info.plist", "P",
                (path as NSString).lastPathComponent + "/project.pbxproj",
            ]
            #expect(inputs.isSuperset(of: expected), "\(inputs.sorted())")
            #expect(
                inputs.isSuperset(
                    of: target.sources.swiftFiles.map { $0.path.replacingOccurrences(of: root, with: "") }))
        }

        // A missing base file is refused, naming the configuration object.
        fixture.files["Config/Features.xcconfig"] = nil
        try withProject(fixture) { path in
            let error = try #require(throws: XcodeProjectError.self) {
                try ContactProviderTarget(project: try XcodeProject(path: path))
            }
            #expect(error.message.contains("Features.xcconfig"), "\(error.message)")
            #expect(error.message.contains("missing or unreadable"), "\(error.message)")
        }
    }

    @Test(
        "an NSExtension Info.plist, approachable concurrency, main-actor isolation, and every object version",
        arguments: [54, 77, 100])
    func nsExtensionAndSettings(objectVersion: Int) throws {
        var fixture = XcodeFixture(name: "Old Style", objectVersion: objectVersion)
        fixture.file(
            "P/Info.plist",
            XcodeFixture.infoPlist(extensionPoint: XcodeFixture.contactProviderPoint, extensionKit: false))
        fixture.file("P/Provider.swift", "import ContactProvider\n")
        let file = fixture.fileReference("Provider.swift")
        fixture.mainGroupChildren = [fixture.group("P", children: [file])]
        fixture.projectSettings.append(("SWIFT_VERSION", .string("6.0")))
        fixture.target(
            "P", productType: XcodeFixture.appExtensionProduct, sources: [file],
            settings: [
                ("INFOPLIST_FILE", .string("P/Info.plist")), ("SWIFT_APPROACHABLE_CONCURRENCY", .string("YES")),
                ("SWIFT_DEFAULT_ACTOR_ISOLATION", .string("MainActor")),
                ("SWIFT_UPCOMING_FEATURE_EXISTENTIAL_ANY", .string("YES")),
                ("SWIFT_ACTIVE_COMPILATION_CONDITIONS", .strings(["$(inherited)", "EXTRA"])),
            ])
        try withProject(fixture) { path in
            let target = try ContactProviderTarget(project: try XcodeProject(path: path))
            #expect(target.target.name == "P")
            #expect(target.compilation.languageMode == "6", "the project's SWIFT_VERSION, the target setting none")
            #expect(target.compilation.defaultIsolation == "MainActor")
            #expect(
                target.compilation.upcomingFeatures
                    == (SwiftCompilation.approachableConcurrency + ["ExistentialAny"]).sorted())
            #expect(target.compilation.conditions == ["DEBUG", "EXTRA"])
            #expect(target.appGroupIdentifier == nil)
            let manifest = GeneratedPackage(target: target, simulatorRoot: "/sim/contact-provider-simulator").manifest()
            #expect(manifest.hasPrefix("// swift-tools-version:6.2"), "defaultIsolation needs 6.2")
            #expect(manifest.contains(".defaultIsolation(MainActor.self)"))
            #expect(manifest.contains(".enableUpcomingFeature(\"NonisolatedNonsendingByDefault\")"))
            #expect(!manifest.contains("swiftLanguageMode"))
        }
    }

    @Test("Swift packages: the extension's remote one pinned by Package.resolved, a local one, not the app's")
    func packages() throws {
        var fixture = XcodeFixture(name: "Packages")
        fixture.file("P/Info.plist", XcodeFixture.infoPlist(extensionPoint: XcodeFixture.contactProviderPoint))
        fixture.file("P/Provider.swift", "import ContactProvider\n")
        let remote = fixture.remotePackage(
            "https://github.com/apple/swift-collections.git", version: "1.0.0", product: "OrderedCollections")
        let other = fixture.remotePackage("https://github.com/example/app-only", version: "2.0.0", product: "AppOnly")
        let local = fixture.localPackage("../LocalKit", product: "LocalKit")
        let folder = fixture.synchronizedFolder("P")
        fixture.mainGroupChildren = [folder]
        fixture.target("App", productType: "com.apple.product-type.application", packages: [other.product])
        fixture.target(
            "P", productType: XcodeFixture.extensionKitProduct, synchronizedFolders: [folder],
            settings: [("INFOPLIST_FILE", .string("P/Info.plist"))], packages: [remote.product, local])
        fixture.file(
            "Packages.xcodeproj/project.xcworkspace/xcshareddata/swiftpm/Package.resolved",
            #"{"originHash":"x","pins":[{"identity":"swift-collections","kind":"remoteSourceControl","location":"https://github.com/apple/swift-collections","state":{"revision":"abc","version":"1.1.4"}}],"version":3}"#
        )
        try withProject(fixture) { path in
            let target = try ContactProviderTarget(project: try XcodeProject(path: path))
            #expect(target.packages.map(\.identity) == ["swift-collections", "localkit"])
            #expect(target.packages.first?.requirement == .exact("1.1.4"))
            let manifest = GeneratedPackage(target: target, simulatorRoot: "/sim/contact-provider-simulator").manifest()
            #expect(
                manifest.contains(#".package(url: "https://github.com/apple/swift-collections.git", exact: "1.1.4")"#))
            #expect(manifest.contains(#".product(name: "OrderedCollections", package: "swift-collections")"#))
            let parent = ((path as NSString).deletingLastPathComponent as NSString).deletingLastPathComponent
            #expect(manifest.contains(".package(path: \"\(parent)/LocalKit\")"))
            #expect(!manifest.contains("app-only"))
            #expect(manifest.contains(#".product(name: "ContactProvider", package: "contact-provider-simulator")"#))
        }
    }

    @Test(
        "a malformed pbxproj is refused naming the file and the object",
        arguments: [
            (
                "fileRef = 5EED00000000000000000001", "fileRef = DEADBEEFDEADBEEFDEADBEEF",
                "refers to DEADBEEFDEADBEEFDEADBEEF, which does not exist"
            ),
            ("buildPhases = (", "buildPhases = oops; zz = (", "'buildPhases' is not a list"),
            ("name = P;", "name = (a, b);", "'name' is not a string"),
        ])
    func malformedObjects(original: String, replacement: String, words: String) throws {
        var fixture = XcodeFixture(name: "Broken")
        fixture.file("P/Info.plist", XcodeFixture.infoPlist(extensionPoint: XcodeFixture.contactProviderPoint))
        fixture.file("P/Provider.swift", "import ContactProvider\n")
        let file = fixture.fileReference("Provider.swift")
        fixture.mainGroupChildren = [fixture.group("P", children: [file])]
        fixture.target(
            "P", productType: XcodeFixture.extensionKitProduct, sources: [file],
            settings: [("INFOPLIST_FILE", .string("P/Info.plist"))])
        try withProject(fixture) { path in
            let pbxproj = path + "/project.pbxproj"
            let text = try String(contentsOfFile: pbxproj, encoding: .utf8)
            #expect(text.contains(original), "the fixture has '\(original)'")
            try text.replacingOccurrences(of: original, with: replacement).write(
                toFile: pbxproj, atomically: true, encoding: .utf8)
            let error = try #require(throws: XcodeProjectError.self) {
                try ContactProviderTarget(project: try XcodeProject(path: path))
            }
            #expect(error.file == pbxproj && error.objectID?.count == 24, "\(error)")
            #expect(error.description.contains(words), "\(error)")
            #expect(!error.description.contains("\n"))
        }
    }

    @Test(
        "the vendored real project (0xWDG/ContactProviderDemo): its extension, the app's model by exception, its App Group"
    )
    func realProject() throws {
        let path = XcodeFixtures.contactProviderDemo + "/ContactProviderDemo.xcodeproj"
        let target = try ContactProviderTarget(project: try XcodeProject(path: path))
        #expect(target.target.name == "Provider")
        #expect(target.project.objectVersion == "77")
        #expect(
            relative(target.sources.swiftFiles, in: path) == [
                "ContactProviderDemo/ContactItemDatabase.swift", "Provider/ProviderRootContainerEnumerator.swift",
            ])
        #expect(target.sources.leftOut.isEmpty)
        #expect(target.compilation.languageMode == "5")
        #expect(target.appGroupIdentifier == "group.nl.wesleydegroot.contactproviderdemo")
    }
}
