// swift-format-ignore-file
// Not from the seed: the `store` that seed 004's functions use but the article never declares.
import Contacts

let store = CNContactStore()
