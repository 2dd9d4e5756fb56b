/// How long the provider's doorbells must pause before it starts a due compaction of the system store.
///
/// A doorbell abandons a compaction under way (a waiting sync comes first), and every abandoned
/// attempt costs its start and makes the next doorbell wait for it to give way: at 100,000 contacts,
/// signals a tenth of a second apart started an attempt in every gap, and on a busy machine, where
/// the compaction runs at background priority (``BackgroundPriority``), a one-change sync waited up
/// to 70 ms for it. So each abandoned attempt doubles the pause, up to `longest`; a finished
/// compaction brings it back to `shortest`. A burst of signals then stops paying for attempts it
/// would abandon, and the compaction runs in the first real pause after it.
struct CompactionBackoff: Equatable, Sendable {
    /// The pause after a finished compaction, and at the start.
    let shortest: Double
    /// The most the pause grows to.
    let longest: Double
    /// The pause the next attempt waits for.
    private(set) var pause: Double

    init(shortest: Double, longest: Double) {
        self.shortest = shortest
        self.longest = max(shortest, longest)
        pause = shortest
    }

    /// Records how an attempt ended: finished (or nothing left to do), or abandoned for a doorbell.
    mutating func record(finished: Bool) {
        pause = finished ? shortest : min(longest, pause * 2)
    }
}
