// The start-up floor for contacts-bench: a trivial Foundation executable built with the package.
import Foundation

if ProcessInfo.processInfo.arguments.count > 5 { print("unused") }
