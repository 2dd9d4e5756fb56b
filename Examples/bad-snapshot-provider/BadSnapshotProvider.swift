// bad-snapshot-provider: a known-bad provider for the conformance kit's tests. The demo provider starting
// change enumeration from now, losing edits made during content enumeration (breaks R29 / kit rule D3):
// see MarkerAfterSnapshotEnumerator.
import ContactProvider
import ExampleProviders
import KnownBadProviders

@main
final class BadSnapshotProvider: KnownBadProvider {
    override class func flawed(_ correct: DemoEnumerator) -> any ContactItemEnumerator {
        MarkerAfterSnapshotEnumerator(wrapping: correct)
    }
}
