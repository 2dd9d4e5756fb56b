import AppGroupStore
import Foundation
import Glibc
import TestSupport
import Testing

/// Any JSON value: lets the test compact the system store exactly as the provider does (same
/// `JournaledStore.compact()`) without the system's own metadata type.
enum AnyJSON: Codable, Equatable, Sendable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([AnyJSON])
    case object([String: AnyJSON])

    init(from decoder: Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Double.self) {
            self = .number(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([AnyJSON].self) {
            self = .array(value)
        } else {
            self = .object(try container.decode([String: AnyJSON].self))
        }
    }

    func encode(to encoder: Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .bool(let value): try container.encode(value)
        case .number(let value):
            if value == value.rounded(), abs(value) < 1e15 {
                try container.encode(Int(value))
            } else {
                try container.encode(value)
            }
        case .string(let value): try container.encode(value)
        case .array(let value): try container.encode(value)
        case .object(let value): try container.encode(value)
        }
    }
}

/// Issue 10 item 11: commits folded by a compaction before the watcher read them are reported
/// (one explicit `compacted` line with their number), never skipped silently.
@Suite("watch: commits compacted before they were read")
struct WatchCompactionCLITests {
    @Test("a stopped watcher, three commits, a compaction, one more commit: a 'compacted 3' line, then the commit")
    func compactedWhileStopped() throws {
        try withTemporaryAppGroup { group in
            try host(["enable", "--page-size", "1", "--batch-size", "1"], in: group)
            try host(["add", "--id", "x", "--given-name", "X"], in: group)
            try host(["signal", "--wait"], in: group)  // the system store exists before the watcher starts
            let watcher = try WatchProcess(group)
            defer { watcher.stop() }
            _ = try #require(watcher.waitUntilReady(), "watch never printed its 'watching …' line")
            for id in ["a", "b", "c"] { try host(["add", "--id", id, "--given-name", id.uppercased()], in: group) }

            let pid = watcher.process.processIdentifier
            #expect(kill(pid, SIGSTOP) == 0)
            var info = siginfo_t()
            #expect(waitid(P_PID, id_t(pid), &info, WSTOPPED | WNOWAIT) == 0)
            try host(["signal", "--wait"], in: group)  // three commits (batch size 1)
            let systemStore = JournaledStore<AnyJSON>(directory: group.path + "/domains/defaultDomain/store")
            let headBefore = try systemStore.load().headSeq
            try systemStore.compact()
            try host(["add", "--id", "d", "--given-name", "D"], in: group)
            try host(["signal", "--wait"], in: group)
            #expect(kill(pid, SIGCONT) == 0)

            let gap = try watcher.nextJSONLine()
            #expect(gap["kind"] as? String == "compacted", "\(gap)")
            #expect(gap["commits"] as? Int == 3, "\(gap)")
            #expect(gap["seq"] as? Int == headBefore, "\(gap)")
            #expect(gap["systemCount"] as? Int == 4, "\(gap)")
            let commit = try watcher.nextJSONLine()
            #expect(commit["kind"] as? String == "commit", "\(commit)")
            #expect(commit["updated"] as? [String] == ["d"], "\(commit)")
            #expect(commit["seq"] as? Int == headBefore + 1, "\(commit)")
            #expect(commit["systemCount"] as? Int == 5, "\(commit)")

            watcher.interrupt()
            #expect(watcher.stdout.remainingLines() == [])
            try stopProvider(group)
        }
    }
}
