// swift-format-ignore-file
//
//  ContactProviderDemoTests.swift
//  ContactProviderDemoTests
//
//  Created by Wesley de Groot on 15/12/2024.
//

import Testing
@testable import ContactProviderDemo

struct ContactProviderDemoTests {

    @Test func example() async throws {
        // Write your test here and use APIs like `#expect(...)` to check expected conditions.
    }

}
