/// A count with its noun in the right number, for every message a person reads: `1 page`,
/// `2 pages`, `0 contacts`, `1 batch`, `3 batches`.
///
/// - Parameters:
///   - count: how many.
///   - singular: the noun for one.
///   - plural: the noun for any other count; `singular` + "s" when not given (`batch` needs "batches").
package func counted(_ count: Int, _ singular: String, plural: String? = nil) -> String {
    "\(count) " + (count == 1 ? singular : plural ?? singular + "s")
}
