// `import os` (and what it gives iOS code: `Logger`, `OSLog`, `os_log`, `OSLogType`), as on Apple
// platforms, where the `os` module brings in the unified logging API. Here it is the `OSLog` module's.
//
// `import os.log` names a Clang submodule, which a Swift package cannot declare: write `import os` or
// `import OSLog` (both work in Xcode too).
@_exported import OSLog
