// The flaw from Apple forum thread 761601: each content page is finished later, from a completion
// handler, after enumerateContent has already returned. Breaks R20; caught by the kit's rule C1.

import ContactProvider
import Foundation

/// Wraps a correct enumerator and holds back each content page's calls (its items and its end)
/// until 100 ms after `enumerateContent` returned, then makes them from a detached task.
///
/// Breaks R20 ("every observer call happens before the enumerator method returns"); the
/// conformance kit's rule C1 catches it. Errors and change enumeration are the correct enumerator's.
public final class CallsAfterReturnEnumerator: ForwardingEnumerator {
    public override func enumerateContent(in page: ContactItemPage, for observer: any ContactItemContentObserver) async
    {
        let held = HeldPageObserver(observer)
        await correct.enumerateContent(in: page, for: held)
        guard held.holdsCalls else { return }
        Task.detached {
            try? await Task.sleep(nanoseconds: 100_000_000)
            held.replay()
        }
    }
}

/// Keeps a page's calls to make them later; an error goes through at once.
///
/// `@unchecked Sendable`: it is read back after the correct enumerator's call returned, then handed
/// to a detached task that is its only user from then on. Calling the system's observer from that
/// task, after the method returned, is the flaw itself.
private final class HeldPageObserver: ForwardingContentObserver, @unchecked Sendable {
    private enum Call {
        case enumerate([ContactItem])
        case finishPage(ContactItemPage)
        case finishContent(Data)
    }

    private var calls: [Call] = []

    var holdsCalls: Bool { !calls.isEmpty }

    override func didEnumerate(_ items: [ContactItem]) { calls.append(.enumerate(items)) }
    override func didFinishEnumeratingPage(upTo nextPage: ContactItemPage) { calls.append(.finishPage(nextPage)) }
    override func didFinishEnumeratingContent(upTo generationMarker: Data) {
        calls.append(.finishContent(generationMarker))
    }

    /// Makes the held calls, in order.
    func replay() {
        for call in calls {
            switch call {
            case .enumerate(let items): next.didEnumerate(items)
            case .finishPage(let page): next.didFinishEnumeratingPage(upTo: page)
            case .finishContent(let marker): next.didFinishEnumeratingContent(upTo: marker)
            }
        }
    }
}
