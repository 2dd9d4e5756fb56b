/// What the system says when an enumerate method returns without its terminal observer call (R20,
/// R30), including what iOS does with that code (issue 40).
///
/// Apple's forum thread 761601: an enumerator that returned from `enumerateContent` and called the
/// observer later, from a completion handler, saw iOS call `enumerateContent` for the same page again
/// and again (the page never ended, so the system asked for it anew). The simulator fails the page at
/// once instead, so the developer sees the cause rather than a loop; the message says both.
enum UnfinishedCall {
    /// `call returned without …; on iOS …; the fix`.
    static func message(_ call: String, rule: FrameworkRule) -> String {
        let method = rule == .r30 ? "enumerateChanges" : "enumerateContent"
        let terminal =
            rule == .r30
            ? "didFinishEnumeratingChanges(upTo:moreComing:) or didFinishEnumeratingChangesWithError(_:)"
            : "didFinishEnumeratingPage(upTo:), didFinishEnumeratingContent(upTo:) or didFinishEnumeratingContentWithError(_:)"
        return
            "\(call) returned without calling a terminal observer method; on iOS the system then calls \(method) again and again for the same \(rule == .r30 ? "anchor" : "page") (forum thread 761601). Call \(terminal) before \(method) returns: await the completion handler's result (withCheckedContinuation) instead of returning first"
    }
}
