// bad-more-coming-provider: a known-bad provider for the conformance kit's tests. It says moreComing without advancing its anchor (breaks R40 / kit rule D4).
import ExampleProviders

@main
final class BadMoreComingProvider: ExampleProvider {
    override class var flaw: DemoEnumerator.Flaw? { .stuckMoreComing }
}
