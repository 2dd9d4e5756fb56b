import AppGroupStore
import AppStores
import CommandLineToolkit
import ContactProviderSystem

/// "Nothing arrived": the app's store holds contacts the system did not get after a sync that
/// reported success — most often a provider that reads a store of its own (a JSON file, a
/// database) while the contact commands write another, or one that read its store once per process.
///
/// Counts only (the App Group database's from its headers): `signal --wait` stays cheap.
enum StoreDifference {
    /// `signal`'s one warning after `report`, or nil when the counts agree, the app's store is
    /// empty or unreadable here, or the sync did not finish (a next page is pending).
    static func warning(after report: SyncReport, configuration: DomainConfiguration, context: CommandContext)
        -> String?
    {
        guard report.error == nil, report.nextPage == nil,
            let kind = try? DomainAppStore.kind(of: configuration),
            let appCount = DomainAppStore.count(kind: kind, appGroup: context.appGroup),
            appCount > 0, appCount != report.systemCount
        else { return nil }
        let store = kind == .appDatabase ? "the App Group database" : kind.description
        let what =
            report.systemCount == 0 && report.updated == 0
            ? "the app's store (\(store)) holds \(counted(appCount, "contact")), but this \(report.enumeration) enumeration delivered none"
            : "the app's store (\(store)) holds \(counted(appCount, "contact")), the system store \(report.systemCount) after this sync"
        return what + "; " + cause(kind)
    }

    /// The likely cause for a store of `kind`, and the fix.
    static func cause(_ kind: ConformanceBackendKind) -> String {
        let log = "the provider's log line about its store names the one it reads ('contacts-host log')"
        if kind == .appDatabase {
            return "if the provider reads a store of its own (a JSON file, a database), name it with "
                + "'contacts-host enable --backend seed-json[:FILE]' or '--backend exec:ADAPTER' so add, import… "
                + "write what it reads; \(log)"
        }
        return "if the provider reads its store once per process, 'contacts-host signal --relaunch --wait' "
            + "starts it afresh; otherwise it reads another store: \(log)"
    }

    /// `status`'s line when the last sync succeeded and the stores still differ; nil otherwise.
    static func statusLine(appCount: Int?, systemCount: Int, lastSync: ReportJSON?) -> String? {
        guard let appCount, appCount > 0, appCount != systemCount, let lastSync, lastSync.report.error == nil else {
            return nil
        }
        return "stores differ: app store \(counted(appCount, "contact")) vs system \(systemCount) after the last "
            + "successful sync (a change since is synced by the next signal; if not, 'contacts-host log' "
            + "shows which store the provider reads)"
    }
}
