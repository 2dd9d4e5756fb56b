import Foundation
import TestSupport
import Testing
import XcodeProjectReader

/// The package `contacts-host package` writes for the user to commit: no absolute path in it.
@Suite("Xcode project: the generated package, with paths relative to its folder")
struct GeneratedPackageTests {
    @Test("relative to its folder: the simulator, the project in the header, and links that reach the project's files")
    func relativePaths() throws {
        var fixture = try XcodeFixtures.twoProviders()
        let base = NSTemporaryDirectory() + "generated-package-" + UUID().uuidString
        defer { try? FileManager.default.removeItem(atPath: base) }
        let bundle = try fixture.write(to: base + "/MyApp")
        let target = try ContactProviderTarget(
            project: try XcodeProject(path: bundle), named: XcodeFixtures.TwoProviders.synced)
        let output = base + "/Linux/Package"
        let package = GeneratedPackage(
            target: target, simulatorRoot: base + "/ContactProviderSimulator", relativeTo: output)
        try package.write(to: output)
        let manifest = try String(contentsOfFile: output + "/Package.swift", encoding: .utf8)
        #expect(manifest.contains(".package(path: \"../../ContactProviderSimulator\")"), "\(manifest)")
        #expect(manifest.contains("from ../../MyApp/Two Providers.xcodeproj"), "\(manifest)")
        #expect(!manifest.contains(base), "no absolute path: \(manifest)")
        for file in target.sources.swiftFiles {
            let link = try #require(
                FileManager.default.subpathsOfDirectory(atPath: output + "/Sources/\(package.productName)")
                    .first { file.path.hasSuffix("/" + $0) && !$0.hasPrefix("_outside") })
            let path = output + "/Sources/\(package.productName)/" + link
            let destination = try FileManager.default.destinationOfSymbolicLink(atPath: path)
            #expect(!destination.hasPrefix("/"), "\(link) → \(destination)")
            let resolved = ((path as NSString).deletingLastPathComponent as NSString).appendingPathComponent(
                destination)
            #expect((resolved as NSString).standardizingPath == file.path, "\(link) → \(destination)")
        }

        // Without relativeTo (enable's and conformance's own packages, in the App Group): absolute.
        let absolute = GeneratedPackage(target: target, simulatorRoot: base + "/ContactProviderSimulator")
        #expect(absolute.manifest().contains(".package(path: \"\(base)/ContactProviderSimulator\")"))
    }
}
