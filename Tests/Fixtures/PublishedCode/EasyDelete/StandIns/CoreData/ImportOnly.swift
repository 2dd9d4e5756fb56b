// Not Core Data: an empty module of that name, so that EasyDelete's ContactStore.swift, which writes
// `import CoreData` but uses nothing from it, compiles unchanged on Linux. It declares nothing: any use
// of a Core Data symbol in the vendored code would fail to compile, as it should. Only the EasyDelete
// fixture target depends on it (see ../../PROVENANCE).
