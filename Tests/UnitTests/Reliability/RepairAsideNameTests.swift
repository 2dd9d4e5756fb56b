import AppGroupStore
import ContactProviderSystem
import ContactsHostKit
import Foundation
import Glibc
import TestSupport
import Testing

/// Issue 42, item 3: "`--repair` never deletes data", also for two repairs within one second.
@Suite("Reliability: a file moved aside never replaces an earlier damaged copy")
struct RepairAsideNameTests {
    @Test("Two repairs in the same second each keep their damaged domain.json, last-sync.json and requests pipe")
    func twoRepairsInOneSecond() throws {
        try withTemporaryAppGroup { group in
            let paths = try DomainPaths(appGroup: group.appGroup, domain: "defaultDomain")
            try paths.ensureDirectories()
            let doctor = AppGroupDoctor(appGroup: group.appGroup)
            let now = Date(timeIntervalSince1970: 1_800_000_000)
            var kept: [String: String] = [:]
            for round in ["first", "second", "third"] {
                try SecureFile.replace(paths.configuration, with: Data("{\"\(round)\": tru".utf8), durable: false)
                try SecureFile.replace(paths.lastSync, with: Data("{\"\(round)\"".utf8), durable: false)
                try SecureFile.replace(paths.requests, with: Data("\(round): not a pipe".utf8), durable: false)
                let report = try doctor.repair(now: now)
                #expect(report.remaining.isEmpty, "\(report.remaining)")
                for line in report.lines where line.hasPrefix("moved aside: ") {
                    let path = String(line.dropFirst("moved aside: ".count).prefix { $0 != " " })
                    let text = try String(contentsOfFile: path, encoding: .utf8)
                    #expect(kept[path] == nil, "\(path) was named by two repairs")
                    kept[path] = text
                }
            }
            // Three rounds, three files each: nine copies, each still holding its own round's bytes.
            #expect(kept.count == 9, "\(kept.keys.sorted())")
            for round in ["first", "second", "third"] {
                #expect(kept.values.filter { $0.contains(round) }.count == 3, "\(round): \(kept)")
            }
        }
    }

    @Test("moveAside takes the next free name, keeps a pipe a pipe, and leaves the original name free")
    func moveAsideNames() throws {
        try withTemporaryAppGroup { group in
            let pipe = group.path + "/requests.fifo"
            #expect(mkfifo(pipe, 0o600) == 0)
            let taken = SecureFile.asideName(pipe, timestamp: "20261205T120000Z", attempt: 1)
            try SecureFile.create(taken, with: Data("an earlier copy".utf8))

            let aside = try SecureFile.moveAside(pipe, timestamp: "20261205T120000Z")
            #expect(aside == taken + "-2")
            #expect(try String(contentsOfFile: taken, encoding: .utf8) == "an earlier copy")
            var info = stat()
            #expect(lstat(aside, &info) == 0 && info.st_mode & S_IFMT == S_IFIFO)
            #expect(lstat(pipe, &info) != 0 && errno == ENOENT)
        }
    }
}
