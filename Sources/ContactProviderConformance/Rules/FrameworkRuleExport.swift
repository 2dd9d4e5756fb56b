import ContactProviderSystem

/// The framework rules R1–R47 the kit's rules refer to.
///
/// They are declared once, in the system module, where the simulated daemon enforces them by value
/// (`SyncFailure.ruleViolation(.r23, …)`); the kit names the same values.
public typealias FrameworkRule = ContactProviderSystem.FrameworkRule
