import AppGroupStore
import ContactProviderConformance
import ContactProviderSystem
import ContactsHostKit
import ContactsInterop
import Foundation

/// C1 and C2 (opt-in, `--carddav N`): the `carddav-provider` example against a live Radicale holding
/// N cards: a first full sync, then a sync of one changed card.
///
/// The cards are written straight into Radicale's storage folder (PUTting 10,000 cards one request at a
/// time would measure Radicale's write path, not the sync); the change goes through HTTP as a client's would.
func cardDAVFigures(products: String, cards n: Int, log: (String) -> Void) throws -> [Figure] {
    guard let range = products.range(of: "/.build/") else { throw BenchError("cannot find the package root from \(products)") }
    let script = String(products[..<range.lowerBound]) + "/Scripts/install-test-tools.sh"
    log("carddav: installing Radicale if needed")
    let installer = Process()
    installer.executableURL = URL(fileURLWithPath: "/bin/bash")
    installer.arguments = [script]
    let output = Pipe()
    installer.standardOutput = output
    try installer.run()
    let python = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        .trimmingCharacters(in: .whitespacesAndNewlines)
    installer.waitUntilExit()
    guard installer.terminationStatus == 0, !python.isEmpty else {
        throw BenchError("\(script) could not install Radicale (exit \(installer.terminationStatus))")
    }
    let server = try RadicaleServer(python: python)
    defer { server.stop() }
    let backend = try CardDAVBackend(collection: URL(string: "bench/contacts/", relativeTo: server.baseURL)!.absoluteURL)
    try backend.reset()
    log("carddav: writing \(n) cards into Radicale's storage")
    let folder = server.directory + "/collections/collection-root/bench/contacts/"
    var first = ContactRecord(identifier: "")
    for index in 0..<n {
        var record = ContactRecord(identifier: String(format: "card-%06d", index))
        record.givenName = "Given\(index)"
        record.familyName = "Family\(index % 97)"
        record.phoneNumbers = [.init(label: "_$!<Mobile>!$_", value: "+1 555 \(String(format: "%07d", index))")]
        if index == 0 { first = record }
        try Data(VCard.encode([record]).utf8).write(to: URL(fileURLWithPath: folder + record.identifier + ".vcf"))
    }

    let group = AppGroup(path: NSTemporaryDirectory() + "/cps-bench-carddav-\(getpid())")
    try SecureFile.ensureDirectory(group.path)
    defer { try? FileManager.default.removeItem(atPath: group.path) }
    try backend.configureProvider(in: group)
    let client = try SystemClient(appGroup: group, domain: "defaultDomain")
    defer { try? client.shutdownProvider() }
    try client.enable(extensionPath: products + "/carddav-provider")

    log("carddav: full sync of \(n) cards")
    var report: SyncReport?
    let full = try Measure.milliseconds { report = try signal(client) }
    guard report?.systemCount == n else { throw BenchError("expected \(n) contacts after the full sync, found \(report?.systemCount ?? -1)") }
    let peak = client.providerPID.flatMap(Measure.peakRSS(pid:))

    log("carddav: one changed card")
    first.familyName = "Changed"
    try backend.update(first)
    let one = try Measure.milliseconds { report = try signal(client) }
    guard report?.updated == 1 else { throw BenchError("expected 1 update, got \(report?.updated ?? -1)") }
    return [
        Figure(id: "C1", path: "carddav", n: n, medianMs: full, peakRSSBytes: peak,
            note: "full sync from Radicale (one run, default page size); peak RSS = provider process"),
        Figure(id: "C2", path: "carddav", n: n, medianMs: one, note: "sync of one card changed on the server (one run)"),
    ]
}

private func signal(_ client: SystemClient) throws -> SyncReport {
    guard let reply = try client.signal(wait: true, timeout: 900), let report = reply.report else {
        throw BenchError("no report from the provider")
    }
    if let error = report.error { throw BenchError("sync failed: \(error.message)") }
    return report
}
