import Combine
import Foundation
import Testing

/// Issue 41, item 3: the Combine that app code pairs with the contact store (seed 001's pattern), with
/// Combine's names and shapes: operators, subjects, `share()`, `NotificationCenter.publisher(for:)`,
/// `receive(on:)` and `assign(to: &$property)`.
@Suite("Combine: operators, subjects, schedulers and assign")
struct CombineOperatorTests {
    /// Collects values from a subscriber closure, whichever thread delivers them.
    final class Recorder<Value: Sendable>: @unchecked Sendable {
        private let lock = NSLock()
        private var storage: [Value] = []
        var values: [Value] { lock.withLock { storage } }
        func append(_ value: Value) { lock.withLock { storage.append(value) } }
    }

    @Test("map, compactMap, filter and removeDuplicates transform a subject's values in order")
    func operators() {
        let subject = PassthroughSubject<String, Never>()
        let recorder = Recorder<Int>()
        let token = subject.compactMap(Int.init).filter { $0 >= 0 }.removeDuplicates().map { $0 * 10 }
            .sink { recorder.append($0) }
        for text in ["1", "x", "1", "2", "-3", "2", "1"] { subject.send(text) }
        #expect(recorder.values == [10, 20, 10])
        token.cancel()
        subject.send("5")
        #expect(recorder.values == [10, 20, 10], "a cancelled subscription receives nothing")
    }

    @Test("Just, CurrentValueSubject and eraseToAnyPublisher deliver the current value first")
    func currentValues() {
        let recorder = Recorder<String>()
        var subscriptions = Set<AnyCancellable>()
        Just("just").eraseToAnyPublisher().sink { recorder.append($0) }.store(in: &subscriptions)
        let subject = CurrentValueSubject<String, Never>("first")
        let erased: AnyPublisher<String, Never> = subject.eraseToAnyPublisher()
        erased.sink { recorder.append($0) }.store(in: &subscriptions)
        subject.value = "second"
        subject.send("third")
        #expect(subject.value == "third")
        #expect(recorder.values == ["just", "first", "second", "third"])
    }

    @Test("share() subscribes to the upstream once, for every subscriber, and again after the last leaves")
    func share() {
        var upstreamSubscriptions = 0
        let subject = PassthroughSubject<Int, Never>()
        let counted = subject.map { value -> Int in value }
        let shared = SubscriptionCounter(upstream: counted) { upstreamSubscriptions += 1 }.share()
        let first = Recorder<Int>()
        let second = Recorder<Int>()
        var tokens = [shared.sink { first.append($0) }, shared.sink { second.append($0) }]
        subject.send(1)
        #expect(upstreamSubscriptions == 1)
        #expect(first.values == [1])
        #expect(second.values == [1])
        tokens.removeAll()
        subject.send(2)
        #expect(first.values == [1], "every subscriber left")
        let third = shared.sink { first.append($0) }
        subject.send(3)
        #expect(upstreamSubscriptions == 2)
        #expect(first.values == [1, 3])
        third.cancel()
    }

    /// Counts its subscriptions to `upstream` (a test double).
    struct SubscriptionCounter<Upstream: Publisher>: Publisher {
        typealias Output = Upstream.Output
        typealias Failure = Upstream.Failure
        let upstream: Upstream
        let onSubscribe: () -> Void
        func sink(receiveValue: @escaping (Output) -> Void) -> AnyCancellable {
            onSubscribe()
            return upstream.sink(receiveValue: receiveValue)
        }
    }

    @Test("NotificationCenter.publisher(for:object:) delivers matching posts until cancelled")
    func notificationCenter() {
        let center = NotificationCenter()
        let name = Notification.Name("CombineOperatorTests.changed")
        let sender = NSObject()
        let any = Recorder<String>()
        let fromSender = Recorder<String>()
        let anyToken = center.publisher(for: name).map { $0.userInfo?["what"] as? String ?? "?" }
            .sink { any.append($0) }
        let senderToken = center.publisher(for: name, object: sender).sink { _ in fromSender.append("sender") }
        center.post(name: name, object: nil, userInfo: ["what": "first"])
        center.post(name: name, object: sender, userInfo: ["what": "second"])
        center.post(name: Notification.Name("other"), object: sender)
        anyToken.cancel()
        center.post(name: name, object: sender, userInfo: ["what": "third"])
        #expect(any.values == ["first", "second"])
        #expect(fromSender.values == ["sender", "sender"])
        senderToken.cancel()
    }

    final class Model: ObservableObject {
        @Published private(set) var rows: [String] = []
        let source = PassthroughSubject<[String], Never>()

        /// Seed 001's pipeline: a shared publisher, mapped, received on a queue (the seed's is
        /// `DispatchQueue.main`, which a test process does not drain), assigned.
        func bind(on queue: DispatchQueue) {
            source.share().map { $0.sorted() }.receive(on: queue).assign(to: &$rows)
        }
    }

    @Test("receive(on: a queue) + assign(to: &$property) sets the property on that queue, announcing it")
    func assignOnMain() async {
        let model = Model()
        let changes = Recorder<Bool>()
        let values = Recorder<[String]>()
        var subscriptions = Set<AnyCancellable>()
        let queue = DispatchQueue(label: "CombineOperatorTests.assign")
        let key = DispatchSpecificKey<Bool>()
        queue.setSpecific(key: key, value: true)
        model.objectWillChange.sink { changes.append(DispatchQueue.getSpecific(key: key) == true) }
            .store(in: &subscriptions)
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            let resumed = Recorder<Bool>()
            model.$rows.dropFirst().sink { rows in
                values.append(rows)
                if resumed.values.isEmpty {
                    resumed.append(true)
                    done.resume()
                }
            }.store(in: &subscriptions)
            model.bind(on: queue)
            let source = UncheckedBox(model.source)
            DispatchQueue.global().async { source.value.send(["b", "a"]) }
        }
        #expect(values.values == [["a", "b"]])
        #expect(model.rows == ["a", "b"])
        #expect(changes.values == [true], "objectWillChange fired once, on the queue")
    }

    @Test("ImmediateScheduler delivers at once; assign(to:on:) sets a key path until cancelled")
    func immediateAndKeyPath() {
        final class Target { var text = "" }
        let target = Target()
        let subject = PassthroughSubject<String, Never>()
        let token = subject.receive(on: ImmediateScheduler.shared).assign(to: \.text, on: target)
        subject.send("now")
        #expect(target.text == "now")
        token.cancel()
        subject.send("later")
        #expect(target.text == "now")
    }
}

/// Hands a subject to another thread (the test sends from a background queue on purpose).
private struct UncheckedBox<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}
