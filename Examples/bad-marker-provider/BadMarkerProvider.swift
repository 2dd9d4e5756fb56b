// bad-marker-provider: a known-bad provider for the conformance kit's tests. The demo provider with its
// generation marker changed on every page (breaks R23 / kit rule C2): see ChangingMarkerEnumerator.
import ContactProvider
import ExampleProviders
import KnownBadProviders

@main
final class BadMarkerProvider: KnownBadProvider {
    override class func flawed(_ correct: DemoEnumerator) -> any ContactItemEnumerator {
        ChangingMarkerEnumerator(wrapping: correct)
    }
}
