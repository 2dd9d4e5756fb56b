// swift-tools-version:6.0
// The Contact Provider Simulator: Apple's ContactProvider framework (iOS 18), made real on Linux.
// No outside packages: everything here builds from the toolchain alone.
// Linux only: it stands in for Apple's own modules (Contacts, ContactProvider, Combine, OSLog,
// ExtensionFoundation) and uses Glibc, /proc and FIFOs; on Apple platforms the provider builds against
// Apple's frameworks. `Sources/AppGroupStore/LinuxOnly.swift` stops any other build with that message.
import PackageDescription

/// The host executables' settings: nonisolated async code runs on its caller's executor (SE-0461).
let hostSettings: [SwiftSetting] = [.enableUpcomingFeature("NonisolatedNonsendingByDefault")]

let package = Package(
    name: "ContactProviderSimulator",
    products: [
        // The Apple-shaped surface: provider code imports these exactly as on iOS.
        .library(name: "ContactProvider", targets: ["ContactProvider"]),
        .library(name: "Contacts", targets: ["Contacts"]),
        .library(name: "OSLog", targets: ["OSLog"]),
        .library(name: "os", targets: ["os"]),
        .library(name: "ExtensionFoundation", targets: ["ExtensionFoundation"]),
        .library(name: "Combine", targets: ["Combine"]),
        // The simulator's own libraries.
        .library(name: "AppGroupStore", targets: ["AppGroupStore"]),
        .library(name: "ContactProviderSystem", targets: ["ContactProviderSystem"]),
        .library(name: "ContactsInterop", targets: ["ContactsInterop"]),
        // The conformance kit: check a provider from your own `swift test`.
        .library(name: "ContactProviderConformance", targets: ["ContactProviderConformance"]),
        // Deterministic doubles for your own tests (after NIOEmbedded): ManualClock, ScriptedDriver, SeededRandom.
        .library(name: "ContactProviderTesting", targets: ["ContactProviderTesting"]),
        .executable(name: "contacts-host", targets: ["contacts-host"]),
        .executable(name: "contacts-host-conformance", targets: ["contacts-host-conformance"]),
        .executable(name: "demo-provider", targets: ["demo-provider"]),
        .executable(name: "seed-demo-provider", targets: ["seed-demo-provider"]),
        .executable(name: "contacts-bench", targets: ["contacts-bench"]),
        .executable(name: "carddav-provider", targets: ["carddav-provider"]),
    ],
    targets: [
        // Layers, one way: AppGroupStore ← ContactsInterop (vCard codec) ← Contacts ← ContactProvider.
        // BundleLocation: an app-side executable importing Contacts finds its `<executable>.app/` bundle.
        .target(
            name: "Contacts",
            dependencies: ["Combine", "FoundationGaps", "AppGroupStore", "ContactsInterop", "BundleLocation"]),
        // Linux Foundation's gaps that iOS code runs into (a working replaceItemAt), re-exported by
        // Contacts and ContactProvider.
        .target(name: "FoundationGaps"),
        .target(name: "OSLog", dependencies: ["CommandLineToolkit"]),
        // `import os`, as iOS code writes it: re-exports OSLog.
        .target(name: "os", dependencies: ["OSLog"]),
        .target(name: "ExtensionFoundation"),
        // C: the provider's `getenv`, so CoreFoundation's cached XDG_CONFIG_HOME can be moved into the
        // App Group after start (no self re-exec, which debuggers stop at). See its file's comment.
        .target(name: "PreferencesLocation"),
        // C: the provider's `readlink`, so CoreFoundation finds `<executable>.appex/Info.plist` as the main
        // bundle (`Bundle.main.bundleIdentifier`, issue 40). See its file's comment.
        .target(name: "BundleLocation"),
        .target(name: "Combine"),
        .target(name: "AppGroupStore"),
        // Reads an Xcode project (OpenStep pbxproj, targets, build settings, entitlements) and writes the
        // SwiftPM package that builds its Contact Provider extension here; Foundation only.
        .target(name: "XcodeProjectReader"),
        // One argument parser, usage error and exit-code set for every executable (host and providers).
        .target(name: "CommandLineToolkit"),
        // Inside, one way: Configuration, Rules ← Engine ← Pipes ← Runtime, Host. The engine only emits
        // `SyncEngine.Event`s; whoever owns it (the provider runtime, the kit) rings the watchers.
        .target(name: "ContactProviderSystem", dependencies: ["AppGroupStore", "CommandLineToolkit"]),
        // Not only for `ContactRecord`: the name search runs on the store's own index
        // (`JournaledStore.search` with a `SearchIndex`), so the codec and search stay above the store.
        .target(name: "ContactsInterop", dependencies: ["AppGroupStore"]),
        .target(
            name: "ContactProvider",
            dependencies: [
                "Contacts", "ExtensionFoundation", "Combine", "FoundationGaps", "AppGroupStore",
                "ContactProviderSystem", "CommandLineToolkit", "PreferencesLocation", "BundleLocation",
            ]),
        .target(
            name: "ContactProviderTesting",
            dependencies: ["AppGroupStore", "ContactProviderSystem", "SeededRandomness"]),
        // The one seeded generator, on the floor: the test doubles re-export it, the host's commands use it.
        .target(name: "SeededRandomness"),
        // The app's stores on this machine (the App Group database, seed-json, exec: adapters), edited
        // through one protocol by the kit and by the host's contact commands (`enable --backend`).
        // Foundation only: the CardDAV backend, which needs FoundationNetworking, stays in the kit.
        .target(name: "AppStores", dependencies: ["AppGroupStore", "ContactProviderSystem"]),
        .target(
            name: "ContactProviderConformance",
            dependencies: [
                "ContactProvider", "AppGroupStore", "AppStores", "ContactProviderSystem", "ContactsInterop",
                "ContactProviderTesting",
            ]),
        // The host's commands. Neither the kit nor the Apple-shaped modules (which re-export
        // FoundationNetworking): every command starts without libcurl (docs/startup-profile.md).
        // Their async code runs on its caller's executor (SE-0461): a command stays on the main
        // thread and starts no work pool unless it awaits concurrent work (6% of a command's time).
        .target(
            name: "ContactsHostKit",
            dependencies: [
                "AppGroupStore", "AppStores", "ContactProviderSystem", "ContactsInterop", "CommandLineToolkit",
                "SeededRandomness", "XcodeProjectReader",
            ],
            swiftSettings: hostSettings),
        // The host's commands that run the conformance kit (`conformance`, `demo carddav`).
        .target(
            name: "ContactsHostConformance",
            dependencies: [
                "ContactsHostKit", "ContactProviderConformance", "AppGroupStore", "ContactProviderSystem",
                "CommandLineToolkit",
            ],
            swiftSettings: hostSettings),
        // `contacts-host` runs `contacts-host-conformance` for those commands (ForwardedCommands), and
        // builds it first when it is missing or older than the sources. Not a target dependency:
        // SwiftPM would link that executable's libraries, FoundationNetworking with them.
        .executableTarget(name: "contacts-host", dependencies: ["ContactsHostKit"], swiftSettings: hostSettings),
        .executableTarget(
            name: "contacts-host-conformance", dependencies: ["ContactsHostConformance", "ContactsHostKit"],
            swiftSettings: hostSettings),
        // The benchmark (release build) and its start-up floor.
        .executableTarget(
            name: "contacts-bench",
            dependencies: [
                "AppGroupStore", "ContactProviderSystem", "ContactProviderConformance", "ContactsHostKit",
                "ContactsHostConformance", "ContactsInterop", "CommandLineToolkit",
            ]),
        .executableTarget(name: "bench-floor"),

        // Example providers: real executables, exactly as an iOS extension target would be written.
        .target(
            name: "ExampleProviders",
            dependencies: ["ContactProvider", "Contacts", "AppGroupStore"],
            path: "Examples/ExampleProviders"),
        .executableTarget(name: "demo-provider", dependencies: ["ExampleProviders"], path: "Examples/demo-provider"),
        // The flaws of the known-bad providers (the conformance kit must catch them) that the kit's tests
        // also run in process, and the forwarding observers every flaw is written with: the demo enumerator
        // wrapped by one flaw, one file per flaw, so the example people copy carries none.
        .target(
            name: "KnownBadProviders", dependencies: ["ContactProvider", "AppGroupStore", "ExampleProviders"],
            path: "Examples/KnownBadProviders"),
        // The vdir example: a provider with its own store (a directory of .vcf files) and its adapters.
        .target(
            name: "VdirStore", dependencies: ["AppGroupStore", "ContactsInterop"], path: "Examples/VdirStore"),
        .executableTarget(
            name: "vdir-provider", dependencies: ["ContactProvider", "Contacts", "VdirStore"],
            path: "Examples/vdir-provider"),
        .executableTarget(
            name: "vdir-adapter", dependencies: ["AppGroupStore", "VdirStore"], path: "Examples/vdir-adapter"),
        // The known-bad providers: one executable, the flaw chosen by BAD_PROVIDER_BUG from its catalogue
        // (Flaw.swift), one file per flaw; the own-store flaws wrap the template's files or the CardDAV
        // example's (in CardDAV/), linked there.
        .executableTarget(
            name: "bad-provider",
            dependencies: [
                "ContactProvider", "Contacts", "OSLog", "AppGroupStore", "ExampleProviders", "KnownBadProviders",
            ],
            path: "Examples/bad-provider"),
        .executableTarget(
            name: "seed-demo-provider",
            dependencies: ["ContactProvider", "Contacts", "OSLog", "AppGroupStore"],
            path: "Examples/seed-demo-provider"),

        // Provider sources written the way real iOS projects write them, built unchanged in both
        // language modes (the `-swift5` targets compile the same files, linked, in Swift 5 mode).
        .executableTarget(
            name: "template-provider", dependencies: ["ContactProvider", "Contacts", "ExtensionFoundation", "OSLog"],
            path: "Examples/template-provider",
            // New Xcode projects turn this on; the seed's model file still compiles (it imports ContactProvider).
            swiftSettings: [.enableUpcomingFeature("MemberImportVisibility")]),
        .executableTarget(
            name: "template-provider-swift5",
            dependencies: ["ContactProvider", "Contacts", "ExtensionFoundation", "OSLog"],
            path: "Examples/template-provider-swift5", swiftSettings: [.swiftLanguageMode(.v5)]),
        .executableTarget(
            name: "sample-provider", dependencies: ["ContactProvider", "Contacts"], path: "Examples/sample-provider"),
        .executableTarget(
            name: "sample-provider-swift5", dependencies: ["ContactProvider", "Contacts"],
            path: "Examples/sample-provider-swift5", swiftSettings: [.swiftLanguageMode(.v5)]),

        // A provider with a device's habits (a model that saves in deinit, UserDefaults change tracking
        // without synchronize()), in Swift 5 mode as real provider targets are: DeviceFidelityTests.
        .executableTarget(
            name: "device-fidelity-provider", dependencies: ["ContactProvider", "Contacts", "os"],
            path: "Examples/device-fidelity-provider", swiftSettings: [.swiftLanguageMode(.v5)]),
        // An app-side executable that prints its bundle identity (`enable --app-executable`, issue 40).
        .executableTarget(name: "app-identity", dependencies: ["Contacts"], path: "Examples/app-identity"),
        // The seed documents' snippets (Tests/Fixtures/SeedSnippets, verbatim, in Swift 5 mode as written) in an
        // app that runs each against a simulated device: SeedSnippetRunTests (issue 41). The seeds' code is
        // kept as published, with the warnings Swift 5 mode gives it (a Sendable crossing, a cast that
        // always succeeds); they are silenced here so the package's build stays warning-free.
        .executableTarget(
            name: "seed-snippets", dependencies: ["Contacts", "ContactProvider", "Combine"],
            path: "Tests/Fixtures/SeedSnippets", exclude: ["README.md"],
            swiftSettings: [.swiftLanguageMode(.v5), .unsafeFlags(["-suppress-warnings"])]),

        // A published Contacts-framework package (Tests/Fixtures/PublishedCode/SwiftyContacts, vendored unchanged,
        // Swift 5 mode as published; its own warnings silenced) and an app calling it: PublishedContactsCodeTests.
        .target(
            name: "SwiftyContacts", dependencies: ["Contacts"],
            path: "Tests/Fixtures/PublishedCode/SwiftyContacts/Sources/SwiftyContacts",
            swiftSettings: [.swiftLanguageMode(.v5), .unsafeFlags(["-suppress-warnings"])]),
        .executableTarget(
            name: "swiftycontacts-app", dependencies: ["SwiftyContacts"],
            path: "Tests/Fixtures/PublishedCode/SwiftyContacts/App"),

        // Code from a published Contacts app, EasyDelete (Tests/Fixtures/PublishedCode/EasyDelete, vendored unchanged,
        // Swift 5 mode as published; its own warnings silenced), with a driver (main.swift) calling it:
        // PublishedContactsCodeTests. Its `import UIKit` / `import CoreData` resolve to empty stand-in modules.
        .target(name: "UIKit", path: "Tests/Fixtures/PublishedCode/EasyDelete/StandIns/UIKit"),
        .target(name: "CoreData", path: "Tests/Fixtures/PublishedCode/EasyDelete/StandIns/CoreData"),
        .executableTarget(
            name: "easydelete-app", dependencies: ["Contacts", "Combine", "UIKit", "CoreData"],
            path: "Tests/Fixtures/PublishedCode/EasyDelete/Sources/EasyDelete",
            swiftSettings: [.swiftLanguageMode(.v5), .unsafeFlags(["-suppress-warnings"])]),

        // A provider that syncs from a CardDAV server (URLSession + XMLParser, nothing else).
        .executableTarget(
            name: "carddav-provider", dependencies: ["ContactProvider", "Contacts"], path: "Examples/carddav-provider"),

        // Test helpers are their own target, as in swift-argument-parser.
        .target(
            name: "TestSupport",
            dependencies: [
                "AppGroupStore", "ContactProviderSystem", "ContactsHostKit", "ContactsHostConformance",
                "ContactProviderTesting", "Contacts",
            ],
            path: "Sources/TestSupport"),
        .testTarget(
            name: "UnitTests",
            dependencies: [
                "Contacts", "OSLog", "os", "AppGroupStore", "AppStores", "ContactProviderSystem", "ContactProvider",
                "ExtensionFoundation", "Combine",
                "ContactsHostKit", "ContactsHostConformance", "ContactsInterop", "ContactProviderConformance",
                "ExampleProviders",
                "KnownBadProviders",
                "TestSupport",
                "CommandLineToolkit", "ContactProviderTesting", "XcodeProjectReader",
            ]),
        .testTarget(
            name: "EndToEndTests",
            dependencies: [
                "AppGroupStore", "ContactProviderSystem", "TestSupport", "ContactProviderConformance",
                "ContactProviderTesting", "ContactsHostKit", "ContactsHostConformance",
            ]),
    ],
    swiftLanguageModes: [.v6]
)
