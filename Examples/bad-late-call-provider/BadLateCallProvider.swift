// bad-late-call-provider: a known-bad provider for the conformance kit's tests. The demo provider calling
// the observer after enumerateContent returned (breaks R20 / kit rule C1): see CallsAfterReturnEnumerator.
import ContactProvider
import ExampleProviders
import KnownBadProviders

@main
final class BadLateCallProvider: KnownBadProvider {
    override class func flawed(_ correct: DemoEnumerator) -> any ContactItemEnumerator {
        CallsAfterReturnEnumerator(wrapping: correct)
    }
}
