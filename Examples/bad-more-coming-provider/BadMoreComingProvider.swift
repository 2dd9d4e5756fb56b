// bad-more-coming-provider: a known-bad provider for the conformance kit's tests. The demo provider saying
// moreComing without advancing its anchor (breaks R40 / kit rule D4): see StuckMoreComingEnumerator.
import ContactProvider
import ExampleProviders
import KnownBadProviders

@main
final class BadMoreComingProvider: KnownBadProvider {
    override class func flawed(_ correct: DemoEnumerator) -> any ContactItemEnumerator {
        StuckMoreComingEnumerator(wrapping: correct)
    }
}
