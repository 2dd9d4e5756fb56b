import AppGroupStore
import Foundation
import Glibc
import TestSupport
import Testing

/// The power-loss replay (issue 31): each command that writes is recorded at the system-call level
/// with strace, every cut point is replayed under the six persistence models, and each distinct
/// crash state is opened by the real `contacts-host` (and the provider it launches): every contact
/// acknowledged before the command is there, each is its before- or after-value, the store opens
/// (or `doctor --repair` restores every acknowledged contact), `status` works, a new sync converges,
/// and after the command's last operation its own change is there too.
///
/// `CPS_FULL_SIZE=1` runs the same commands on larger stores.
@Suite("Reliability: power-loss replay of every command that writes")
struct PowerLossReplayTests {
    @Test(
        "crash states under every persistence model keep every acknowledged change",
        arguments: PowerLossScenario.all)
    func replay(_ scenario: PowerLossScenario) throws {
        try withTemporaryAppGroup { holder in
            let started = Date()
            let context = PowerLossScenario.Context(holder: holder)
            defer { TemporaryAppGroup.stopProviders(inAppGroup: context.appGroup) }
            try scenario.setup(context)
            try context.stopProvider()

            // Reading first, then the copy: a read may create a lock file, and the copy must be exactly what
            // the recorded command starts from.
            let expectedBefore = try context.observed()
            let before = try FileTree.capture(context.appGroup)
            let recorder = FileOperationRecorder(appGroup: context.appGroup, ignoring: PowerLossScenario.isIgnored)
            let recording = try recorder.record(
                BuiltProducts.path("contacts-host"), scenario.arguments(context), environment: context.environment)
            try #require(recording.result.exitCode == 0, "\(scenario): the command itself failed: \(recording.result)")
            try context.stopProvider()
            var real = try FileTree.capture(context.appGroup)
            let expectedAfter = try context.observed()
            try scenario.verifyRecording(recording.operations)
            if ProcessInfo.processInfo.environment["CPS_POWER_LOSS_VERBOSE"] == "1" {
                for (index, operation) in recording.operations.enumerated() {
                    print("\(scenario.name): \(index + 1) \(operation)")
                }
            }

            // The replay must reproduce what the command really left (everything issued, nothing lost):
            // otherwise the recorder or the replayer missed an operation and every other state is fiction.
            let states = try CrashReplayer.crashStates(from: before, operations: recording.operations)
            let replayedEnd = try #require(
                states.first { state in
                    state.points.contains { $0.model == .processKill && $0.issued == recording.operations.count }
                })
            var replayed = replayedEnd.tree
            for path in real.nodes.keys where PowerLossScenario.isIgnored(path) { real.nodes[path] = nil }
            for path in replayed.nodes.keys where PowerLossScenario.isIgnored(path) { replayed.nodes[path] = nil }
            let unreplayed = real.differences(from: replayed)
            try #require(
                unreplayed.isEmpty,
                "\(scenario): the replayed end state differs from the real App Group at \(unreplayed)")

            var expectation = CrashExpectation(
                before: scenario.acknowledgedBefore(expectedBefore.app, expectedAfter.app), after: expectedAfter.app,
                atomic: scenario.atomic,
                enabled: scenario.domain ? (expectedBefore.enabled, expectedAfter.enabled) : nil,
                system: scenario.domain ? (expectedBefore.system, expectedAfter.system) : nil)
            expectation.importOrder = scenario.importOrder
            var failing = 0
            for state in states {
                let problems = try CrashStateCheck.problems(of: state, expecting: expectation)
                guard !problems.isEmpty else { continue }
                failing += 1
                let others =
                    state.points.count > 1 ? " (and \(state.points.count - 1) other cuts leave this state)" : ""
                for problem in problems {
                    Issue.record("\(scenario.name): \(state.namingPoint)\(others): \(problem)")
                }
            }
            let cuts = states.reduce(0) { $0 + $1.points.count }
            print(
                "power-loss replay: \(scenario.name): \(recording.operations.count) operations, \(cuts) cuts × models, "
                    + "\(states.count) distinct crash states, \(failing) failing, "
                    + String(format: "%.1f s", Date().timeIntervalSince(started)))
        }
    }

    @Test("the recorder sees a write(2) at its position and every barrier; the models keep what each promises")
    func recorderSelfTest() throws {
        try withTemporaryAppGroup { holder in
            let appGroup = holder.path + "/ag"
            // umask 077: the replay gives new files 0600 and directories 0700, as the store makes them.
            let script = """
                umask 077 && mkdir -p \(appGroup)/d && printf abc > \(appGroup)/d/f && printf de >> \(appGroup)/d/f \
                && mv \(appGroup)/d/f \(appGroup)/d/g && sync && printf x > \(appGroup)/d/h && rm \(appGroup)/d/g
                """
            let recording = try FileOperationRecorder(appGroup: appGroup).record(
                "/bin/sh", ["-c", script], environment: holder.environment)
            let operations = recording.operations
            #expect(operations.first == .makeDirectory(path: ""))
            #expect(operations.contains(.makeDirectory(path: "d")))
            #expect(operations.contains(.write(path: "d/f", offset: .at(0), bytes: Array("abc".utf8))))
            #expect(operations.contains(.write(path: "d/f", offset: .end, bytes: Array("de".utf8))))
            #expect(operations.contains(.rename(from: "d/f", to: "d/g")))
            #expect(operations.contains(.syncAll))
            #expect(operations.last == .unlink(path: "d/g"))
            let states = try CrashReplayer.crashStates(
                from: FileTree(rootExists: false, nodes: [:]), operations: operations)
            func state(_ model: PersistenceModel, after issued: Int) -> FileTree? {
                states.first { $0.points.contains { $0.model == model && $0.issued == issued } }?.tree
            }
            let synced = try #require(operations.firstIndex(of: .syncAll)) + 1
            // A kill after the last operation leaves what the shell left.
            #expect(state(.processKill, after: operations.count) == (try FileTree.capture(appGroup)))
            // Before sync(), the POSIX minimum keeps nothing of a new App Group; after it, all of it.
            #expect(state(.posixMinimum, after: synced - 1)?.rootExists == false)
            let afterSync = state(.posixMinimum, after: synced)
            #expect(afterSync?.nodes["d/g"] == .file(mode: 0o600, bytes: Array("abcde".utf8)))
            // d/h was written after the last barrier: ext4 (delayed allocation) keeps its name, not its byte;
            // the holes model keeps its size with a zero.
            #expect(state(.ext4Ordered, after: operations.count)?.nodes["d/h"] == .file(mode: 0o600, bytes: []))
            #expect(state(.writebackHoles, after: operations.count)?.nodes["d/h"] == .file(mode: 0o600, bytes: [0]))
            #expect(state(.barrierOnly, after: operations.count)?.nodes["d/h"] == nil)
            #expect(state(.barrierOnly, after: operations.count)?.nodes["d/g"] != nil)
        }
    }

    @Test("the crash-state check reports a lost contact, a missing acknowledged change and a foreign value")
    func checkFindsLosses() throws {
        try withTemporaryAppGroup { group in
            try HostRunner.process.succeed(["add", "--id", "a1", "--given-name", "Ada"], in: group)
            let one = try FileTree.capture(group.path)
            try HostRunner.process.succeed(["add", "--id", "a2", "--given-name", "Bob"], in: group)
            let two = try FileTree.capture(group.path)
            let listed = try CrashStateCheck.byIdentifier(
                try HostRunner.process.succeed(["list", "--json"], in: group), what: "list")
            let before = listed.filter { $0.key == "a1" }
            let add = CrashExpectation(before: before, after: listed, atomic: true)
            let end = CrashPoint(model: .posixMinimum, issued: 3, total: 3, operation: .sync(path: "x", dataOnly: true))
            let middle = CrashPoint(model: .posixMinimum, issued: 2, total: 3, operation: nil)
            // Good: before the end, the database may still read as before the add, or already as after it.
            #expect(try CrashStateCheck.problems(of: CrashState(tree: one, points: [middle]), expecting: add).isEmpty)
            #expect(try CrashStateCheck.problems(of: CrashState(tree: two, points: [end]), expecting: add).isEmpty)
            // After the last operation, the acknowledged add must be there.
            let missing = try CrashStateCheck.problems(of: CrashState(tree: one, points: [end]), expecting: add)
            #expect(missing.contains { $0.contains("acknowledged") }, "\(missing)")
            // A contact acknowledged before the command is lost when its line is gone.
            let empty = FileTree(rootExists: true, nodes: [:])
            let lost = try CrashStateCheck.problems(of: CrashState(tree: empty, points: [middle]), expecting: add)
            #expect(lost.contains { $0.contains("contact a1 is lost") }, "\(lost)")
            // A value that is neither the one before nor the one after.
            var changed = add
            changed.after["a2"]?.givenName = "Other"
            let foreign = try CrashStateCheck.problems(of: CrashState(tree: two, points: [middle]), expecting: changed)
            #expect(foreign.contains { $0.contains("contact a2 is") && $0.contains("neither") }, "\(foreign)")
        }
    }

    @Test("the recorder refuses what the replay cannot model (a symlink in the App Group)")
    func recorderRefusesSymlinks() {
        withTemporaryAppGroup { holder in
            let appGroup = holder.path + "/ag"
            #expect(throws: StraceLogError.self) {
                try FileOperationRecorder(appGroup: appGroup).record(
                    "/bin/sh", ["-c", "mkdir \(appGroup) && ln -s target \(appGroup)/link"],
                    environment: holder.environment)
            }
        }
    }
}
