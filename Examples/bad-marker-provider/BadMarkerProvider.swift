// bad-marker-provider: a known-bad provider for the conformance kit's tests. It changes its generation marker on every page (breaks R23 / kit rule C2).
import ExampleProviders

@main
final class BadMarkerProvider: ExampleProvider {
    override class var flaw: DemoEnumerator.Flaw? { .changingMarker }
}
