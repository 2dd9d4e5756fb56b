// Not vendored: the two lines of EasyDelete/Utils/EDTypes.swift that ContactStore.swift needs, copied
// verbatim. The rest of EDTypes.swift is left out because it names the app's table-view model
// (ContactCellViewModel, built on the app's Core Data `Contact` entity). See ../../PROVENANCE.
import Foundation

typealias ContactsRequestCompletionBlock = (Result<[ContactModel], ContactStoreError>) -> Void
typealias CRUDContactsCompletionBlock = (Result<ContactStoreSuccessfulAction, ContactStoreError>) -> Void
