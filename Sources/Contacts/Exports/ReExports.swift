// What `import Contacts` makes visible besides the framework's own types.
//
// On Apple platforms the Contacts module re-exports Foundation, so app and extension files use
// `Data`, `NSString` and `DateComponents` with only `import Contacts`. On Linux `URLSession` lives
// in FoundationNetworking; it is re-exported too, so such a file's network code compiles unchanged.

// Foundation on Apple platforms also re-exports Combine, so a model file with only these imports
// uses `ObservableObject` and `@Published` (the seed demo's `ContactItemDatabase` does).
@_exported import Combine
@_exported import Foundation
// Linux Foundation's gaps, filled: `FileManager.replaceItemAt` that works.
@_exported import FoundationGaps
@_exported import FoundationNetworking
