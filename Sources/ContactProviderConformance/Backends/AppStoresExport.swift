// The store backends (`ConformanceBackend`, `AppGroupDatabaseBackend`, `SeedJSONBackend`,
// `ExecBackend`, `ConformanceBackendKind`) live in AppStores, below both the kit and `contacts-host`,
// whose contact commands edit a domain's store through the same code (`enable --backend`); the host
// links no FoundationNetworking, so the CardDAV backend stays here. Re-exported: code that imports
// the kit names them as before.
@_exported import AppStores
