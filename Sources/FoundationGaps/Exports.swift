// Fills gaps of Linux Foundation that iOS code runs into (see each file), for every file that imports
// `Contacts` or `ContactProvider` (both re-export this module). Not one of Apple's modules.
@_exported import Foundation
