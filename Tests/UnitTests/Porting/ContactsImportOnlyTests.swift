import Contacts
import Testing

// This file imports only Contacts (and Testing): what an app or extension file with only
// `import Contacts` sees on Apple platforms, it sees here.

@Suite("Porting: what import Contacts alone makes visible")
struct ContactsImportOnlyTests {
    final class Model: ObservableObject {
        @Published var data = Data()
    }

    @Test("Foundation (Data, NSError, DateComponents), FoundationNetworking (URLRequest) and Combine")
    func visible() {
        let model = Model()
        model.data = Data("x".utf8)
        let error = NSError(domain: NSCocoaErrorDomain, code: 4)
        let request = URLRequest(url: URL(string: "https://example.com")!)
        let components = DateComponents(month: 1, day: 2)
        #expect(model.data.count == 1 && error.code == 4 && request.url?.host == "example.com" && components.day == 2)
        #expect(URLSession.shared.configuration.timeoutIntervalForRequest > 0)
    }
}
