// demo-provider: the default Contact Provider extension of this package.
// The whole extension is this `@main` class; the enumerator is in ExampleProviders/DemoEnumerator.swift.
import ExampleProviders

@main
final class DemoProvider: ExampleProvider {}
