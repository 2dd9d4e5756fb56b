// The principal class of the known-bad providers the kit's own tests run in process: the demo
// provider, its enumerator wrapped by one flaw. (The executable, bad-provider, chooses its flaw from
// its catalogue, BAD_PROVIDER_BUG.)
//
// The four oldest flaws and the forwarding observers every flaw is written with live here, one file
// each, so the example people copy (ExampleProviders) carries none: each wraps a correct
// `DemoEnumerator` and rewrites exactly the piece it breaks.

import ContactProvider
import ExampleProviders

/// A known-bad provider for the conformance kit's own tests: the demo provider whose root
/// enumerator, a correct `DemoEnumerator`, is wrapped by one flaw.
///
/// A subclass chooses the flaw, as a test's in-process provider:
///
/// ```swift
/// final class ChangingMarker: KnownBadProvider {
///     override class func flawed(_ correct: DemoEnumerator) -> any ContactItemEnumerator {
///         ChangingMarkerEnumerator(wrapping: correct)
///     }
/// }
/// ```
open class KnownBadProvider: ContactProviderExtension {
    /// The root enumerator: `correct` wrapped by this provider's flaw (unwrapped here).
    open class func flawed(_ correct: DemoEnumerator) -> any ContactItemEnumerator { correct }

    private let rootContainerEnumerator: any ContactItemEnumerator

    /// The provider, its enumerator made once, as the demo provider's.
    public required init() {
        rootContainerEnumerator = Self.flawed(DemoEnumerator())
    }

    /// Nothing to configure.
    public func configure(for domain: any ContactProviderDomain) {}

    /// The one (flawed) root enumerator.
    public func enumerator(for collection: ContactItem.Identifier) -> any ContactItemEnumerator {
        rootContainerEnumerator
    }

    /// Invalidates the enumerator.
    public func invalidate() async throws {
        await rootContainerEnumerator.invalidate()
    }
}
