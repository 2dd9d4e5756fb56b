// swift-format-ignore-file: AlwaysUseLowerCamelCase
// (Apple's names, spelled as in the SDK so provider code builds unchanged.)

import Foundation

/// The error domain of the Contacts framework's errors.
public let CNErrorDomain: String = "CNErrorDomain"

/// An error from the Contacts framework.
///
/// Mirrors Apple's `CNError`: a code from ``CNError/Code`` (Apple's raw values) and a user info
/// dictionary; it bridges to `NSError` in ``CNErrorDomain``.
public struct CNError: Error, CustomNSError, Hashable, LocalizedError, @unchecked Sendable {
    /// The error codes, with Apple's raw values.
    public enum Code: Int, Sendable {
        /// Communication with the contacts service failed.
        case communicationError = 1
        /// The contact data could not be read or written.
        case dataAccessError = 2
        /// The user has not granted access to contacts.
        case authorizationDenied = 100
        /// No contact container accepts writes.
        case noAccessableWritableContainers = 101
        /// A property was read that was not fetched.
        case unauthorizedKeys = 102
        /// The user turned the feature off.
        case featureDisabledByUser = 103
        /// The feature is not available.
        case featureNotAvailable = 104
        /// The record does not exist.
        case recordDoesNotExist = 200
        /// The record was already inserted.
        case insertedRecordAlreadyExists = 201
        /// Saving would make a group contain itself.
        case containmentCycle = 202
        /// A record is outside the scope of its container.
        case containmentScope = 203
        /// The record's parent (its container or group) does not exist.
        case parentRecordDoesNotExist = 204
        /// A record identifier is not valid.
        case recordIdentifierInvalid = 205
        /// The record is read-only (a contact a Contact Provider extension supplied).
        case recordNotWritable = 206
        /// The record's container is read-only (a Contact Provider extension's container).
        case parentContainerNotWritable = 207
        /// A value failed validation; see the user info for each error.
        case validationMultipleErrors = 300
        /// A value has the wrong type.
        case validationTypeMismatch = 301
        /// A value's configuration is invalid.
        case validationConfigurationError = 302
        /// The predicate is invalid.
        case predicateInvalid = 400
        /// The change history since the token is no longer kept.
        case changeHistoryExpired = 603
        /// The change history token is not one this device issued.
        case changeHistoryInvalidAnchor = 604
        /// The data is not a well-formed vCard.
        case vCardMalformed = 700
        /// A vCard could not be summarized.
        case vCardSummarizationError = 701
    }

    /// The error's code.
    public let code: Code
    /// Details: `NSLocalizedDescriptionKey` says what went wrong and where.
    public let userInfo: [String: Any]

    /// An error with `code` and `userInfo`.
    public init(_ code: Code, userInfo: [String: Any] = [:]) {
        self.code = code
        self.userInfo = userInfo
    }

    /// ``CNErrorDomain``.
    public static var errorDomain: String { CNErrorDomain }
    /// The code's raw value.
    public var errorCode: Int { code.rawValue }
    /// The error's user info (`NSLocalizedDescriptionKey` and, for vCards, the line).
    public var errorUserInfo: [String: Any] { userInfo }
    /// What went wrong, from `NSLocalizedDescriptionKey`.
    public var errorDescription: String? { userInfo[NSLocalizedDescriptionKey] as? String }

    /// Errors are equal when their codes and descriptions are.
    public static func == (lhs: CNError, rhs: CNError) -> Bool {
        lhs.code == rhs.code && lhs.errorDescription == rhs.errorDescription
    }

    /// Hashes the code and the description.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(code)
        hasher.combine(errorDescription)
    }
}

/// Matches an error against a code, so `catch CNError.vCardMalformed` works as on Apple platforms.
public func ~= (code: CNError.Code, error: any Error) -> Bool {
    (error as? CNError)?.code == code
}

// The codes as members of `CNError`, as Swift imports Apple's error enums (`CNError.vCardMalformed`).
extension CNError {
    /// ``CNError/Code/communicationError``.
    public static var communicationError: Code { .communicationError }
    /// ``CNError/Code/dataAccessError``.
    public static var dataAccessError: Code { .dataAccessError }
    /// ``CNError/Code/authorizationDenied``.
    public static var authorizationDenied: Code { .authorizationDenied }
    /// ``CNError/Code/noAccessableWritableContainers``.
    public static var noAccessableWritableContainers: Code { .noAccessableWritableContainers }
    /// ``CNError/Code/unauthorizedKeys``.
    public static var unauthorizedKeys: Code { .unauthorizedKeys }
    /// ``CNError/Code/featureDisabledByUser``.
    public static var featureDisabledByUser: Code { .featureDisabledByUser }
    /// ``CNError/Code/featureNotAvailable``.
    public static var featureNotAvailable: Code { .featureNotAvailable }
    /// ``CNError/Code/recordDoesNotExist``.
    public static var recordDoesNotExist: Code { .recordDoesNotExist }
    /// ``CNError/Code/insertedRecordAlreadyExists``.
    public static var insertedRecordAlreadyExists: Code { .insertedRecordAlreadyExists }
    /// ``CNError/Code/containmentCycle``.
    public static var containmentCycle: Code { .containmentCycle }
    /// ``CNError/Code/containmentScope``.
    public static var containmentScope: Code { .containmentScope }
    /// ``CNError/Code/parentRecordDoesNotExist``.
    public static var parentRecordDoesNotExist: Code { .parentRecordDoesNotExist }
    /// ``CNError/Code/recordIdentifierInvalid``.
    public static var recordIdentifierInvalid: Code { .recordIdentifierInvalid }
    /// ``CNError/Code/recordNotWritable``.
    public static var recordNotWritable: Code { .recordNotWritable }
    /// ``CNError/Code/parentContainerNotWritable``.
    public static var parentContainerNotWritable: Code { .parentContainerNotWritable }
    /// ``CNError/Code/validationMultipleErrors``.
    public static var validationMultipleErrors: Code { .validationMultipleErrors }
    /// ``CNError/Code/validationTypeMismatch``.
    public static var validationTypeMismatch: Code { .validationTypeMismatch }
    /// ``CNError/Code/validationConfigurationError``.
    public static var validationConfigurationError: Code { .validationConfigurationError }
    /// ``CNError/Code/predicateInvalid``.
    public static var predicateInvalid: Code { .predicateInvalid }
    /// ``CNError/Code/vCardMalformed``.
    public static var vCardMalformed: Code { .vCardMalformed }
    /// ``CNError/Code/vCardSummarizationError``.
    public static var vCardSummarizationError: Code { .vCardSummarizationError }
}
