import Foundation

extension XcodeFixtures {
    /// Names and values in the identity project (issue 40).
    package enum IdentityNames {
        /// The app target.
        package static let app = "Contacts App"
        /// The app's identifier and display name.
        package static let appIdentifier = "com.example.contacts"
        package static let appDisplayName = "My Contacts"
        /// The extension target (a space: `$(PRODUCT_NAME:rfc1034identifier)` makes it `Identity-Provider`).
        package static let provider = "Identity Provider"
        /// The extension's identifier as its build settings expand it.
        package static let providerIdentifier = "com.example.contacts.Identity-Provider"
        /// A key of the extension's Info.plist file, `$(SERVER_HOST)` there.
        package static let serverKey = "ServerHost"
        package static let serverHost = "sync.example.com"
    }

    /// An app and its Contact Provider extension whose identity is all in build settings: the
    /// extension's `PRODUCT_BUNDLE_IDENTIFIER` is `$(APP_IDENTIFIER).$(PRODUCT_NAME:rfc1034identifier)`
    /// (`APP_IDENTIFIER` a setting of both targets), its versions `MARKETING_VERSION` 2.5 and
    /// `CURRENT_PROJECT_VERSION` 42, its display name an `INFOPLIST_KEY_`, and its Info.plist file a key
    /// `ServerHost = $(SERVER_HOST)`. The provider logs through
    /// `Logger(subsystem: Bundle.main.bundleIdentifier!, category: "identity")` what its bundle says.
    /// `extensionIdentifier` replaces the extension's identifier (to test the prefix refusal).
    package static func identity(extensionIdentifier: String? = nil) -> XcodeFixture {
        let providerIdentifier: String = extensionIdentifier ?? "$(APP_IDENTIFIER).$(PRODUCT_NAME:rfc1034identifier)"
        var fixture = XcodeFixture(name: "Identity")
        fixture.file(
            "Contacts App/ContactsApp.swift",
            "import SwiftUI\n\n@main\nstruct ContactsApp: App {\n    var body: some Scene { WindowGroup { Text(\"Contacts\") } }\n}\n"
        )
        let appFolder = fixture.synchronizedFolder("Contacts App")
        fixture.file("Provider/Provider.swift", identityProviderSource)
        fixture.file(
            "Provider/Info.plist",
            """
            <?xml version="1.0" encoding="UTF-8"?>
            <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
            <plist version="1.0">
            <dict>
            \t<key>EXAppExtensionAttributes</key>
            \t<dict>
            \t\t<key>EXExtensionPointIdentifier</key>
            \t\t<string>\(XcodeFixture.contactProviderPoint)</string>
            \t</dict>
            \t<key>\(IdentityNames.serverKey)</key>
            \t<string>$(SERVER_HOST)</string>
            </dict>
            </plist>

            """)
        let providerFolder = fixture.synchronizedFolder("Provider")
        fixture.mainGroupChildren = [appFolder, providerFolder]
        fixture.target(
            IdentityNames.app, productType: "com.apple.product-type.application", synchronizedFolders: [appFolder],
            settings: [
                ("SWIFT_VERSION", .string("6.0")), ("GENERATE_INFOPLIST_FILE", .string("YES")),
                ("APP_IDENTIFIER", .string(IdentityNames.appIdentifier)),
                ("PRODUCT_BUNDLE_IDENTIFIER", .string("$(APP_IDENTIFIER)")),
                ("INFOPLIST_KEY_CFBundleDisplayName", .string(IdentityNames.appDisplayName)),
                ("MARKETING_VERSION", .string("2.5")), ("CURRENT_PROJECT_VERSION", .string("42")),
            ])
        fixture.target(
            IdentityNames.provider, productType: XcodeFixture.extensionKitProduct,
            synchronizedFolders: [providerFolder],
            settings: [
                ("SWIFT_VERSION", .string("6.0")), ("GENERATE_INFOPLIST_FILE", .string("YES")),
                ("INFOPLIST_FILE", .string("Provider/Info.plist")),
                ("INFOPLIST_KEY_CFBundleDisplayName", .string("Identity")),
                ("PRODUCT_BUNDLE_IDENTIFIER", .string(providerIdentifier)),
                ("MARKETING_VERSION", .string("2.5")), ("CURRENT_PROJECT_VERSION", .string("42")),
                ("SERVER_HOST", .string(IdentityNames.serverHost)),
                ("APP_IDENTIFIER", .string(IdentityNames.appIdentifier)),
            ])
        return fixture
    }

    /// The identity project's provider: what iOS code does with its bundle, logged at `configure(for:)`.
    static let identityProviderSource = #"""
        import ContactProvider
        import Foundation
        import OSLog

        @main
        final class IdentityProvider: ContactProviderExtension {
            private let logger = Logger(subsystem: Bundle.main.bundleIdentifier!, category: "identity")

            required init() {}

            func configure(for domain: ContactProviderDomain) {
                let info = Bundle.main.infoDictionary ?? [:]
                let version = info["CFBundleShortVersionString"] as? String ?? "-"
                let build = info["CFBundleVersion"] as? String ?? "-"
                let name = info["CFBundleDisplayName"] as? String ?? "-"
                let server = info["ServerHost"] as? String ?? "-"
                logger.info(
                    "\(name, privacy: .public) \(version, privacy: .public) (\(build, privacy: .public)) for \(domain.displayName, privacy: .public) at \(server, privacy: .public)"
                )
            }

            func enumerator(for collection: ContactItem.Identifier) -> ContactItemEnumerator { Enumerator() }

            func invalidate() async throws {}
        }

        final class Enumerator: ContactItemEnumerator {
            func enumerateContent(in page: ContactItemPage, for observer: ContactItemContentObserver) async {
                observer.didFinishEnumeratingContent(upTo: Data("identity-1".utf8))
            }

            func enumerateChanges(startingAt syncAnchor: ContactItemSyncAnchor, for observer: ContactItemChangeObserver) async {
                observer.didFinishEnumeratingChanges(upTo: syncAnchor, moreComing: false)
            }

            func invalidate() async {}
        }

        """#
}
