import AppGroupStore
import ContactProviderConformance
import ContactProviderSystem
import ContactsHostKit
import ContactsInterop
import Foundation
import FoundationNetworking

/// C1 and C2 (opt-in, `--carddav N`): the `carddav-provider` example against a live Radicale holding
/// N cards: a first full sync, then a sync of one changed card.
///
/// The cards are written straight into Radicale's storage folder (PUTting 10,000 cards one request at a
/// time would measure Radicale's write path, not the sync); the change goes through HTTP as a client's would.
func cardDAVFigures(products: String, cards n: Int, log: (String) -> Void) throws -> [Figure] {
    guard let range = products.range(of: "/.build/") else {
        throw BenchError("cannot find the package root from \(products)")
    }
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
    let backend = try CardDAVBackend(
        collection: URL(string: "bench/contacts/", relativeTo: server.baseURL)!.absoluteURL)
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
    // Radicale's first listing of fresh files parses every card (tens of seconds for 10,000): that is
    // the server warming its cache, not the sync. One untimed sync warms it; the timed one follows a reset.
    log("carddav: warming Radicale's cache (untimed listing)")
    try warmUp(backend.collection)
    try client.updateConfiguration { $0.pageTimeoutSeconds = 600 }
    log("carddav: warming the provider (untimed sync)")
    var report = try signal(client)
    try client.reset()

    log("carddav: full sync of \(n) cards")
    let full = try Measure.milliseconds { report = try signal(client) }
    guard report.systemCount == n else {
        throw BenchError("expected \(n) contacts after the full sync, found \(report.systemCount)")
    }
    let peak = client.providerPID.flatMap(Measure.peakRSS(pid:))

    log("carddav: one changed card")
    first.familyName = "Changed"
    try backend.update(first)
    let one = try Measure.milliseconds { report = try signal(client) }
    guard report.updated == 1 else { throw BenchError("expected 1 update, got \(report.updated)") }
    return [
        Figure(
            id: "C1", path: "carddav", n: n, medianMs: full, peakRSSBytes: peak,
            note: "full sync from a warmed Radicale (one run, default page size); peak RSS = provider process"),
        Figure(
            id: "C2", path: "carddav", n: n, medianMs: one, note: "sync of one card changed on the server (one run)"),
    ]
}

/// Lists every card's etag once, with a long timeout, so Radicale parses and caches the fresh files.
private func warmUp(_ collection: URL) throws {
    var request = URLRequest(url: collection, timeoutInterval: 900)
    request.httpMethod = "REPORT"
    request.setValue("application/xml", forHTTPHeaderField: "Content-Type")
    request.httpBody = Data(
        """
        <?xml version="1.0" encoding="utf-8"?><D:sync-collection xmlns:D="DAV:"><D:sync-token/>\
        <D:sync-level>1</D:sync-level><D:prop><D:getetag/></D:prop></D:sync-collection>
        """.utf8)
    let status = WarmUpStatus()
    let done = DispatchSemaphore(value: 0)
    let configuration = URLSessionConfiguration.ephemeral
    configuration.timeoutIntervalForRequest = 900
    configuration.timeoutIntervalForResource = 900
    URLSession(configuration: configuration).dataTask(with: request) { _, response, error in
        status.value = (response as? HTTPURLResponse)?.statusCode ?? 0
        status.error = error.map { "\($0.localizedDescription)" }
        done.signal()
    }.resume()
    done.wait()
    guard status.value == 207 else {
        throw BenchError("warming Radicale failed: HTTP \(status.value) \(status.error ?? "")")
    }
}

/// The warm-up's status code, set on URLSession's queue before the semaphore is signalled.
private final class WarmUpStatus: @unchecked Sendable {
    var value = 0
    var error: String?
}

private func signal(_ client: SystemClient) throws -> SyncReport {
    guard let reply = try client.signal(wait: true, timeout: 900), let report = reply.report else {
        throw BenchError("no report from the provider")
    }
    if let error = report.error { throw BenchError("sync failed: \(error.message)") }
    return report
}
