// The bug: the provider reads its store when it starts and ends its process when it cannot (a
// `try!` around the read, or `fatalError` on a decoding error). Started while the app's save is
// half done, it never answers, and the system relaunches it only to fail again while the save lasts.
// A store that cannot be read for a moment is no reason to end: the call fails with an error the
// system retries (R28). Caught by T1, the store torn when the provider starts (issue 43, item 12),
// as T1's failure, also when T1 is checked alone (`--rules T1`, as its reproduce line runs it), not
// as a provider that could not start.

import AppGroupStore
import ContactProvider
import Foundation
import KnownBadProviders

final class ExitsWhenUnreadableAtStartEnumerator: ForwardingEnumerator {
    override init(wrapping correct: any ContactItemEnumerator) {
        if (try? ProviderDataSource().current()) == nil {
            FileHandle.standardError.write(Data("bad-provider: the store cannot be read; ending\n".utf8))
            exit(1)
        }
        super.init(wrapping: correct)
    }
}
