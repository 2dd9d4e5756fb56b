// An app-side executable, as the app around a Contact Provider extension is written: it reads its own
// bundle the way iOS app code does (an About screen, a logging subsystem) and prints it. Run against
// the simulated device after `contacts-host enable --app-executable PATH`, which writes `PATH.app/`:
// `Bundle.main` is then the containing app's (the `BundleLocation` module that `Contacts` links finds
// it). The tests (BundleIdentityTests) check what it prints.

import Contacts
import Foundation

let info = Bundle.main.infoDictionary ?? [:]
let displayName = (info["CFBundleDisplayName"] as? String) ?? (info["CFBundleName"] as? String) ?? "-"
let version = info["CFBundleShortVersionString"] as? String ?? "-"
let build = info["CFBundleVersion"] as? String ?? "-"
print("\(Bundle.main.bundleIdentifier ?? "nil") \(displayName) \(version) (\(build))")
