/// The framework's version number, as the umbrella header `ContactProvider.h` declares it
/// (`FOUNDATION_EXPORT double ContactProviderVersionNumber;`): 1 for the iOS 18 API this simulates.
// swift-format-ignore: AlwaysUseLowerCamelCase
public nonisolated(unsafe) var ContactProviderVersionNumber: Double = 1

/// The framework's version string (`FOUNDATION_EXPORT const unsigned char ContactProviderVersionString[];`
/// in the umbrella header). A `String` here: Linux has no framework bundle whose build stamps it, and the
/// C array has no portable Swift spelling; code that prints or logs it works the same.
// swift-format-ignore: AlwaysUseLowerCamelCase
public let ContactProviderVersionString = "ContactProvider-1.0 (Contact Provider Simulator)"
