/// The system's pause after it saves a page or batch, as iOS's framework makes it (issue 40).
///
/// Apple's framework binary (ContactProvider.framework 25.0 and later; blacktop/ipsw-diffs) logs
/// "didSave() - sleeping %u seconds for %ld items" and carries `StampedeManager`, `waitDivisor` and
/// `waitTimeInterval`: after a save the system sleeps whole seconds in proportion to the items it
/// saved. The divisor and interval are not public, so the simulator makes the rate an option
/// (`domain.json` `paceItemsPerSecond`, `contacts-host enable --pace-after-save ITEMS`), off by
/// default; the pause runs on the engine's clock, so a test advances it instead of waiting.
package enum SavePacing {
    /// Whole seconds to pause after saving `items` at one second per `itemsPerSecond` items; 0 when off.
    package static func seconds(forItems items: Int, itemsPerSecond: Int) -> UInt32 {
        guard itemsPerSecond > 0, items > 0 else { return 0 }
        return UInt32(clamping: items / itemsPerSecond)
    }

    /// The transcript line, Apple's log line.
    static func line(seconds: UInt32, items: Int) -> String {
        "system: didSave() - sleeping \(seconds) seconds for \(items) items"
    }
}
