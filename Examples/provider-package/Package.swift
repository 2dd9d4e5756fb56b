// swift-tools-version:6.0
// The provider package the CI workflow (Examples/ci/provider-ci.yml) is run against: the walkthrough's
// provider ("Writing a provider") with a test target that checks it with the conformance kit, laid out
// beside a ContactProviderSimulator checkout as a provider developer's own package is.
import PackageDescription

let package = Package(
    name: "MyProvider",
    dependencies: [.package(path: "../ContactProviderSimulator")],
    targets: [
        .executableTarget(
            name: "MyProvider",
            dependencies: [
                .product(name: "ContactProvider", package: "ContactProviderSimulator"),
                .product(name: "Contacts", package: "ContactProviderSimulator"),
                .product(name: "AppGroupStore", package: "ContactProviderSimulator"),
            ]),
        .testTarget(
            name: "MyProviderTests",
            dependencies: [
                "MyProvider", .product(name: "ContactProviderConformance", package: "ContactProviderSimulator"),
            ]),
    ],
    swiftLanguageModes: [.v6]
)
