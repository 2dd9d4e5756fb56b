import Foundation

/// The fixture Xcode projects the Xcode-project tests read, build and sync.
package enum XcodeFixtures {
    /// This repository's root (declared once, in ``PythonTestTools/repositoryRoot``).
    package static var repositoryRoot: String { PythonTestTools.repositoryRoot }

    /// The vendored real project (0xWDG/ContactProviderDemo, see its PROVENANCE).
    package static var contactProviderDemo: String {
        repositoryRoot + "/Tests/Fixtures/XcodeProjects/ContactProviderDemo"
    }

    /// The App Group the template provider's model (the seed's `ContactItemDatabase`) asks for.
    package static let templateGroup = "group.nl.wesleydegroot.contactproviderdemo"

    /// A file of `Examples/template-provider` (the Xcode template's provider, links followed).
    package static func templateFile(_ name: String) throws -> String {
        let path = repositoryRoot + "/Examples/template-provider/" + name
        return try String(contentsOfFile: (path as NSString).resolvingSymlinksInPath, encoding: .utf8)
    }

    /// Names in the two-provider project.
    package enum TwoProviders {
        /// The classic-groups target, Swift 5.
        package static let classic = "Classic Provider: Swift 5"
        /// The synchronized-folder target, Swift 6 with `MemberImportVisibility`.
        package static let synced = "Synced Provider ü"
        /// Its folder (non-ASCII).
        package static let syncedFolder = "Synced Provider ü"
        /// The classic target's folder (a space and a colon).
        package static let classicFolder = "Classic Provider: Swift 5"
        /// The model file both extensions and the app compile (inside the app's synchronized folder).
        package static let sharedModel = "Contacts App/Shared Model: Data/ContactItemDatabase.swift"
    }

    /// A project as Xcode 16 writes one that has grown over time: an app (synchronized folder, Swift
    /// 6, main-actor isolation), a Contact Provider extension in classic groups (Swift 5, a folder
    /// with a space and a colon), a second one in a synchronized folder nested in a classic group
    /// (Swift 6, `MemberImportVisibility`, a non-ASCII folder, exception sets that remove its
    /// Info.plist and add the app's model file), and a widget extension. Both providers are the
    /// Xcode template's (`Examples/template-provider`), sharing the app's model file; each has a file
    /// that fails to compile unless its own settings reached the compiler.
    package static func twoProviders(objectVersion: Int = 77) throws -> XcodeFixture {
        typealias Names = TwoProviders
        var fixture = XcodeFixture(name: "Two Providers", objectVersion: objectVersion)
        let provider = try templateFile("Provider.swift")
        let enumerator = try templateFile("RootContainerEnumerator.swift")
        let model = try templateFile("ContactItemDatabase.swift")
        let point = XcodeFixture.contactProviderPoint

        // The app: its folder is synchronized; the extension in a synchronized folder gets the model
        // through an exception set of the app's folder.
        fixture.file(
            "Contacts App/ContactsApp.swift",
            "import SwiftUI\n\n@main\nstruct ContactsApp: App {\n    var body: some Scene { WindowGroup { Text(\"Contacts\") } }\n}\n"
        )
        fixture.file(Names.sharedModel, model)
        fixture.file("Contacts App/Contacts App.entitlements", XcodeFixture.entitlements(appGroups: [templateGroup]))
        let syncedID = fixture.pbxproj.reserve()
        let appException = fixture.exceptionSet(
            folder: "Contacts App", target: syncedID, targetName: Names.synced,
            files: ["Shared Model: Data/ContactItemDatabase.swift"])
        let appFolder = fixture.synchronizedFolder("Contacts App", exceptions: [appException])

        // The classic extension: groups and file references; the model by a SOURCE_ROOT reference.
        fixture.file("\(Names.classicFolder)/Provider.swift", provider)
        fixture.file("\(Names.classicFolder)/Enumerators/RootContainerEnumerator.swift", enumerator)
        fixture.file(
            "\(Names.classicFolder)/Enumerators/LanguageMode.swift",
            "// Compiles only in Swift 5 mode: SWIFT_VERSION = 5.0 of this target must reach the compiler.\n#if swift(>=6.0)\n#error(\"the Swift 5 target was compiled in Swift 6 mode\")\n#endif\n\n// Without MemberImportVisibility, another file's `import ContactProvider` makes containerURL visible.\nimport Foundation\n\nfunc classicSharedFolder() -> URL? {\n    FileManager.default.containerURL(forSecurityApplicationGroupIdentifier: \"\(templateGroup)\")\n}\n"
        )
        fixture.file("\(Names.classicFolder)/Legacy.m", "#import <Foundation/Foundation.h>\n")
        fixture.file("\(Names.classicFolder)/Info.plist", XcodeFixture.infoPlist(extensionPoint: point))
        fixture.file(
            "\(Names.classicFolder)/Classic.entitlements", XcodeFixture.entitlements(appGroups: [templateGroup]))
        let classicFiles = [
            fixture.fileReference("Provider.swift"), fixture.fileReference("Legacy.m"),
        ]
        let enumerators = [
            fixture.fileReference("RootContainerEnumerator.swift"), fixture.fileReference("LanguageMode.swift"),
        ]
        let sharedReference = fixture.fileReference(
            Names.sharedModel, sourceTree: "SOURCE_ROOT", name: "ContactItemDatabase.swift")
        let infoReference = fixture.fileReference("Info.plist")
        let enumeratorGroup = fixture.group("Enumerators", children: enumerators)
        let classicGroup = fixture.group(
            Names.classicFolder, children: classicFiles + [enumeratorGroup, infoReference, sharedReference])

        // The synchronized extension, nested in a classic group without a folder of its own.
        fixture.file("\(Names.syncedFolder)/Provider.swift", provider)
        fixture.file("\(Names.syncedFolder)/RootContainerEnumerator.swift", enumerator)
        fixture.file(
            "\(Names.syncedFolder)/Settings Check.swift",
            "// Compiles only with this target's settings: Swift 6 mode, its condition and DEBUG.\n#if !swift(>=6.0) || !SYNCED_PROVIDER || !DEBUG\n#error(\"the synchronized target's settings did not reach the compiler\")\n#endif\n\n// With MemberImportVisibility this file must import ContactProvider itself to see containerURL.\nimport ContactProvider\n\nfunc syncedSharedFolder() -> URL? {\n    FileManager.default.containerURL(forSecurityApplicationGroupIdentifier: \"\(templateGroup)\")\n}\n"
        )
        fixture.file(
            "\(Names.syncedFolder)/Preview.swift",
            "import SwiftUI\n\nstruct ProviderPreview: View {\n    var body: some View { Text(\"Provider\") }\n}\n")
        fixture.file("\(Names.syncedFolder)/Info.plist", XcodeFixture.infoPlist(extensionPoint: point))
        fixture.file("\(Names.syncedFolder)/Synced.entitlements", XcodeFixture.entitlements(appGroups: [templateGroup]))
        fixture.file(
            "\(Names.syncedFolder)/Assets.xcassets/Contents.json", "{\"info\":{\"author\":\"xcode\",\"version\":1}}\n")
        let syncedException = fixture.exceptionSet(
            folder: Names.syncedFolder, target: syncedID, targetName: Names.synced, files: ["Info.plist"])
        let syncedFolder = fixture.synchronizedFolder(Names.syncedFolder, exceptions: [syncedException])
        let extensionsGroup = fixture.group(nil, name: "Extensions", children: [syncedFolder])

        // A widget: an app extension too, of another extension point.
        fixture.file("Widget/Widget.swift", "import WidgetKit\nimport SwiftUI\n")
        fixture.file(
            "Widget/Info.plist",
            XcodeFixture.infoPlist(extensionPoint: "com.apple.widgetkit-extension", extensionKit: false))
        let widgetFolder = fixture.synchronizedFolder("Widget")

        fixture.mainGroupChildren = [appFolder, classicGroup, extensionsGroup, widgetFolder]
        fixture.target(
            "Contacts App", productType: "com.apple.product-type.application", synchronizedFolders: [appFolder],
            settings: [
                ("SWIFT_VERSION", .string("6.0")), ("SWIFT_DEFAULT_ACTOR_ISOLATION", .string("MainActor")),
                ("SWIFT_UPCOMING_FEATURE_EXISTENTIAL_ANY", .string("YES")),
                ("CODE_SIGN_ENTITLEMENTS", .string("Contacts App/Contacts App.entitlements")),
            ])
        fixture.target(
            Names.classic, productType: XcodeFixture.extensionKitProduct,
            sources: classicFiles + enumerators + [sharedReference],
            settings: [
                ("SWIFT_VERSION", .string("5.0")), ("INFOPLIST_FILE", .string("\(Names.classicFolder)/Info.plist")),
                ("CODE_SIGN_ENTITLEMENTS", .string("\(Names.classicFolder)/Classic.entitlements")),
            ])
        fixture.target(
            id: syncedID, Names.synced, productType: XcodeFixture.extensionKitProduct,
            synchronizedFolders: [syncedFolder],
            settings: [
                ("SWIFT_VERSION", .string("6.0")), ("SWIFT_UPCOMING_FEATURE_MEMBER_IMPORT_VISIBILITY", .string("YES")),
                ("SWIFT_ACTIVE_COMPILATION_CONDITIONS", .string("$(inherited) SYNCED_PROVIDER")),
                ("INFOPLIST_FILE", .string("$(SRCROOT)/\(Names.syncedFolder)/Info.plist")),
                ("CODE_SIGN_ENTITLEMENTS", .string("\(Names.syncedFolder)/Synced.entitlements")),
            ])
        fixture.target(
            "Widget", productType: XcodeFixture.appExtensionProduct, synchronizedFolders: [widgetFolder],
            settings: [("SWIFT_VERSION", .string("5.0")), ("INFOPLIST_FILE", .string("Widget/Info.plist"))])
        return fixture
    }

    /// Every regular file and link under `directory` with its bytes (links as their target), for
    /// checking a project tree is byte-for-byte unchanged.
    package static func snapshot(_ directory: String) throws -> [String: Data] {
        var result: [String: Data] = [:]
        guard let enumerator = FileManager.default.enumerator(atPath: directory) else { return result }
        while let relative = enumerator.nextObject() as? String {
            let path = directory + "/" + relative
            if let target = try? FileManager.default.destinationOfSymbolicLink(atPath: path) {
                result[relative] = Data(("link:" + target).utf8)
            } else if let data = FileManager.default.contents(atPath: path) {
                result[relative] = data
            } else {
                result[relative] = Data("directory".utf8)
            }
        }
        return result
    }
}
