// bad-snapshot-provider: a known-bad provider for the conformance kit's tests. It starts change enumeration from now, losing edits made during content enumeration (breaks R29 / kit rule D3).
import ExampleProviders

@main
final class BadSnapshotProvider: ExampleProvider {
    override class var flaw: DemoEnumerator.Flaw? { .markerAfterSnapshot }
}
