// The simulator is Linux-only, on purpose: it stands in for Apple's own modules (Contacts,
// ContactProvider, Combine, OSLog, ExtensionFoundation) and is built on Glibc, /proc, FIFOs and
// Linux file locks. AppGroupStore is the lowest module of the system, the host and every provider,
// so this one check says why a build elsewhere cannot work, instead of a wall of missing-Glibc errors.
#if !os(Linux)
    #error(
        "The Contact Provider Simulator builds on Linux only. On Apple platforms use Apple's own ContactProvider, Contacts, Combine and OSLog frameworks: your provider's sources compile there unchanged."
    )
#endif
