import AppGroupStore
import ContactsInterop
import Foundation

/// One contact per file, with the package's vCard codec (vCard 3.0, as khard writes).
public enum VCardFile {
    /// The cards in a file's bytes.
    public static func decode(_ data: Data) -> [ContactRecord] {
        VCard.decode(data: data).contacts
    }

    /// The file's bytes for one contact.
    public static func encode(_ record: ContactRecord) -> Data {
        Data(VCard.encode([record], version: .v3).utf8)
    }
}
