import AppGroupStore
import Foundation

/// What a card has said so far, while its properties are read one by one.
struct CardInProgress {
    var record = ContactRecord(identifier: "")
    /// FN: the name when N gives none.
    var formattedName: String?
    /// Only the first N counts.
    var sawName = false
    /// KIND or X-ABShowAs said the card is an organisation's.
    var isOrganization = false
    var nicknames: [String] = []
    var notes: [String] = []
    var uid: String?
}

/// Apple's grouped extras (`item1.X-ABLabel`, `item1.X-ABADR`, …), by group.
struct GroupedExtras {
    var labels: [String: String] = [:]
    var extras: [String: [String: String]] = [:]

    /// The label of `property`: its group's X-ABLabel, else the label its TYPEs name.
    func label(_ property: VCardProperty, _ kind: VCardLabels.Kind) -> String? {
        if let group = property.group, let label = labels[group] {
            return label.isEmpty ? nil : label
        }
        return VCardLabels.label(forTypes: property.types, kind: kind)
    }
}

extension VCardCardDecoder {
    /// Reads one property into the card; a value that cannot be read throws, and costs only this property.
    mutating func read(_ property: VCardProperty, into card: inout CardInProgress, groups: GroupedExtras) throws {
        switch property.name {
        case "N":
            guard !card.sawName else { return }
            card.sawName = true
            let parts = try components(property, count: 5, lists: true)
            card.record.familyName = parts[0]
            card.record.givenName = parts[1]
            card.record.middleName = parts[2]
            card.record.namePrefix = parts[3]
            card.record.nameSuffix = parts[4]
        case "FN":
            if card.formattedName == nil { card.formattedName = try text(property) }
        case "KIND", "X-ABSHOWAS":
            let kind = try text(property).trimmingCharacters(in: .whitespaces).lowercased()
            if kind == "org" || kind == "organization" || kind == "company" { card.isOrganization = true }
        case "NICKNAME":
            let nickname = try listText(property)
            if !nickname.isEmpty { card.nicknames.append(nickname) }
        case "ORG":
            guard card.record.organizationName.isEmpty, card.record.departmentName.isEmpty else { return }
            let parts = try components(property, count: 1)
            card.record.organizationName = parts[0]
            card.record.departmentName = parts.dropFirst().filter { !$0.isEmpty }.joined(separator: ", ")
        case "TITLE":
            if card.record.jobTitle.isEmpty { card.record.jobTitle = try text(property) }
        case "TEL", "X-MS-TEL":
            var value = try text(property)
            if value.lowercased().hasPrefix("tel:") { value = String(value.dropFirst(4)) }
            if !value.isEmpty {
                let phoneLabel =
                    property.name == "X-MS-TEL" ? Self.outlookPhoneLabel(property) : groups.label(property, .phone)
                card.record.phoneNumbers.append(.init(label: phoneLabel, value: value))
            }
        case "EMAIL":
            var value = try text(property)
            if value.lowercased().hasPrefix("mailto:") { value = String(value.dropFirst(7)) }
            if !value.isEmpty {
                card.record.emailAddresses.append(.init(label: groups.label(property, .email), value: value))
            }
        case "URL":
            let value = try text(property)
            if !value.isEmpty {
                card.record.urlAddresses.append(.init(label: groups.label(property, .url), value: value))
            }
        case "ADR":
            if let address = try postalAddress(property, groups: groups) { card.record.postalAddresses.append(address) }
        case "BDAY":
            if card.record.birthday == nil { card.record.birthday = try birthday(property) }
        case "NOTE":
            card.notes.append(try text(property))
        case "UID":
            if card.uid == nil { card.uid = try text(property) }
        case "PHOTO":
            if card.record.imageData == nil { card.record.imageData = photo(property) }
        case "AGENT":
            warn(property, "AGENT (a card for someone who acts for this contact) is not supported and was ignored")
        case "X-ABADR", "X-APPLE-SUBLOCALITY", "X-APPLE-SUBADMINISTRATIVEAREA":
            if property.group == nil { warn(property, "property \(property.name) outside a group was ignored") }
        case _ where Self.isDetail(property.name):
            let groupLabel = property.group.flatMap { groups.labels[$0] }
            try decodeDetail(
                property, label: groups.label(property, .other),
                relationLabel: groupLabel.map { $0.isEmpty ? nil : $0 }
                    ?? VCardLabels.relationLabel(forWrittenTypes: property.writtenTypes),
                into: &card.record)
        case _ where Self.silent.contains(property.name):
            break
        default:
            warn(property, "property \(property.name) is not supported and was ignored")
        }
    }

    /// ADR with its group's country code and sublocality fields; nil when every part is empty.
    private mutating func postalAddress(_ property: VCardProperty, groups: GroupedExtras) throws
        -> ContactRecord.LabeledPostalAddress?
    {
        let parts = try components(property, count: 7)
        var address = ContactRecord.LabeledPostalAddress(label: groups.label(property, .address))
        address.street = parts[0...2].filter { !$0.isEmpty }.joined(separator: "\n")
        address.city = parts[3]
        address.state = parts[4]
        address.postalCode = parts[5]
        address.country = parts[6]
        if let group = property.group, let extras = groups.extras[group] {
            address.isoCountryCode = extras["X-ABADR"] ?? ""
            address.subLocality = extras["X-APPLE-SUBLOCALITY"] ?? ""
            address.subAdministrativeArea = extras["X-APPLE-SUBADMINISTRATIVEAREA"] ?? ""
        }
        return address != ContactRecord.LabeledPostalAddress(label: address.label) ? address : nil
    }
}
