// swift-format-ignore-file
// Seed 001, answer 1, "Fetching Contact History". Code as written; the imports are the ones it needs.
// It calls the answer's Objective-C `ContactStoreWrapper` (ContactStoreWrapper.h/.m), which is not Swift.
import Combine
import Contacts
import Foundation

class ContactHistoryFetcher: ObservableObject {
    @MainActor @Published private(set) var contacts: [Row] = []
    
    private let savedTokenUserDefaultsKey = "CNContactChangeHistoryToken"
    private let store: CNContactStore
    private let visitor = Visitor()
    
    private let formatter = {
        let formatter = CNContactFormatter()
        formatter.style = .fullName
        return formatter
    }()

    private var savedToken: Data? {
        get {
            UserDefaults.standard.data(forKey: savedTokenUserDefaultsKey)
        }
        set {
            UserDefaults.standard.set(newValue, forKey: savedTokenUserDefaultsKey)
        }
    }
    
    init(store: CNContactStore = .init()) {
        self.store = store
    }
    
    private var cancellables: Set<AnyCancellable> = []
    
    @ContactActor func bind() async {
        let contacts = await ContactActor.shared.$contacts.share()
        // Observing `CNContactStoreDidChange` notification to responds to change while the app is running
        // for example if a contact have been changed on another device
        NotificationCenter.default
            .publisher(for: .CNContactStoreDidChange)
            .sink { [weak self] notification in
                Task {
                    await self?.fetchChanges()
                }
            }
            .store(in: &cancellables)

        let formatter = formatter
        contacts
            .map { contacts in
                contacts
                    .compactMap { contact in
                        formatter.string(for: contact)
                    }
                    .sorted()
                    .map(Row.init(text:))
            }
            .receive(on: DispatchQueue.main)
            .assign(to: &$contacts)
    }
    
    @MainActor func reset() {
        UserDefaults.standard.set(nil, forKey: savedTokenUserDefaultsKey)
        Task {
            await ContactActor.shared.removeAll()
        }
    }

    @MainActor func fetchChanges() async {
        let fetchHistoryRequest = CNChangeHistoryFetchRequest()
    
        // At first launch, the startingToken will be nil and all contacts will be retrieved as additions
        fetchHistoryRequest.startingToken = savedToken
        // We only need the given name for this simple use case
        fetchHistoryRequest.additionalContactKeyDescriptors = [CNContactFormatter.descriptorForRequiredKeys(for: .fullName)]
        let wrapper = ContactStoreWrapper(store: store)
        await withCheckedContinuation { continuation in
            DispatchQueue.global(qos: .userInitiated).async { [self] in
                let result = wrapper.changeHistoryFetchResult(fetchHistoryRequest, error: nil)
                // Saving the result's token as stated in CNContactStore documentation, ie:
                // https://developer.apple.com/documentation/contacts/cncontactstore/3113739-currenthistorytoken
                // When fetching contacts or change history events, use the token on CNFetchResult instead.
                savedToken = result.currentHistoryToken
                guard let enumerator = result.value as? NSEnumerator else { return }
                enumerator
                    .compactMap {
                        $0 as? CNChangeHistoryEvent
                    }
                    .forEach { event in
                        // The appropriate `visit(_:)` method will be called right away
                        event.accept(visitor)
                    }
                continuation.resume()
            }
        }
    }
}
