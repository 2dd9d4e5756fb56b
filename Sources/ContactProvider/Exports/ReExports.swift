// What `import ContactProvider` makes visible besides the framework's own types.
//
// On iOS the framework's module re-exports Foundation: Apple's `ContactItemEnumerator` sample uses
// `Data` with only `import ContactProvider`. On Linux `URLSession` and friends live in
// FoundationNetworking, a separate module; re-exporting it too lets network-backed provider code
// that imports ContactProvider compile unchanged. (A file that imports only Foundation and uses
// `URLSession` needs `import FoundationNetworking` on Linux: see the ContactProvider catalog's "Porting from Xcode".)

// Foundation on Apple platforms also re-exports Combine, so a model file with only these imports
// uses `ObservableObject` and `@Published` (the seed demo's `ContactItemDatabase` does).
@_exported import Combine
@_exported import Foundation
// Linux Foundation's gaps, filled: `FileManager.replaceItemAt` that works.
@_exported import FoundationGaps
@_exported import FoundationNetworking
