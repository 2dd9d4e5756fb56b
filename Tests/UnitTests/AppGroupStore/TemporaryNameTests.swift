import AppGroupStore
import ContactsHostKit
import Foundation
import Glibc
import TestSupport
import Testing

/// Issue 31, item 5: a temp file of an interrupted write is told abandoned by its boot, not only its
/// pid (pids are handed out again after a reboot), and the doctor reports and removes it.
@Suite("Store: temp files of another boot are abandoned whatever their pid")
struct TemporaryNameTests {
    @Test("another boot with a live pid: abandoned; this boot with a live pid: kept; a gone pid: abandoned")
    func abandonedByBoot() throws {
        try withTemporaryAppGroup { group in
            let database = AppDatabase(appGroup: group.appGroup)
            try database.add(StoreFixtures.contact("a"))
            let directory = database.store.directory
            let live = getpid()  // this test process: certainly running
            let otherBoot = TemporaryName.currentBoot == "00000000" ? "11111111" : "00000000"
            let stale = directory + "/.snapshot.jsonl.tmp-\(live)-b\(otherBoot)-7"
            let current = directory + "/.snapshot.jsonl.tmp-\(live)-b\(TemporaryName.currentBoot)-8"
            for path in [stale, current] {
                #expect(FileManager.default.createFile(atPath: path, contents: Data(repeating: 0x41, count: 4096)))
            }
            #expect(TemporaryName.abandoned(in: directory) == [stale])
            let doctor = AppGroupDoctor(appGroup: group.appGroup)
            let problems = try doctor.check().map(\.path)
            #expect(problems.contains(stale) && !problems.contains(current), "\(problems)")
            let repair = try doctor.repair()
            #expect(repair.lines.contains("removed temp file: \(stale)"), "\(repair.lines)")
            #expect(!FileManager.default.fileExists(atPath: stale))
            #expect(FileManager.default.fileExists(atPath: current), "a live writer's temp file is left alone")
            unlink(current)
        }
    }
}
