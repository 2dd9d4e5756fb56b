// swift-format-ignore-file
// Seed 001, answer 1, "UI": the `Row` model the fetcher publishes (the views around it are SwiftUI).
import Foundation

struct Row: Identifiable {
    let id = UUID()
    let text: String
}
