// bad-late-call-provider: a known-bad provider for the conformance kit's tests. It calls the observer after enumerateContent returned (breaks R20 / kit rule C1).
import ExampleProviders

@main
final class BadLateCallProvider: ExampleProvider {
    override class var flaw: DemoEnumerator.Flaw? { .callsAfterReturn }
}
