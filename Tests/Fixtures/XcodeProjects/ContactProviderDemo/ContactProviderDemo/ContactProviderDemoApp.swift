// swift-format-ignore-file
//
//  ContactProviderDemoApp.swift
//  ContactProviderDemo
//
//  Created by Wesley de Groot on 15/12/2024.
//

import SwiftUI

@main
struct ContactProviderDemoApp: App {
    var body: some Scene {
        WindowGroup {
            ContentView()
        }
    }
}
