import AppGroupStore
import Foundation

/// The vCard versions that `VCard.encode` writes. (`VCard.decode` also reads 2.1.)
public enum VCardVersion: String, CaseIterable, Sendable {
    /// vCard 3.0 (RFC 2426), the version Apple Contacts and Google Contacts export.
    case v3 = "3.0"
    /// vCard 4.0 (RFC 6350).
    case v4 = "4.0"
}

/// Something `VCard.decode` could not import, or imported only in part.
public struct VCardProblem: Equatable, Hashable, Sendable, CustomStringConvertible {
    /// The 1-based line in the input where the bad card or property starts.
    public var line: Int
    /// What went wrong, without the line number (see `description`).
    public var message: String
    /// True when input was dropped: the whole card (or stray text outside any card) was not imported.
    /// False for informational problems, such as an unsupported property that was ignored.
    public var skipped: Bool

    public init(line: Int, message: String, skipped: Bool) {
        self.line = line
        self.message = message
        self.skipped = skipped
    }

    /// `line 12: property X-SOCIALPROFILE is not supported and was ignored`
    public var description: String { "line \(line): \(message)" }
}

/// The contacts read from a vCard file and the problems met on the way.
public struct VCardDecodeResult: Equatable, Sendable {
    /// The cards that imported, in file order.
    public var contacts: [ContactRecord]
    /// Every problem, in file order; `skipped` ones dropped input.
    public var problems: [VCardProblem]
    /// True when `stopOnError` ended decoding at a bad card before the end of the input.
    public var stoppedEarly: Bool

    public init(contacts: [ContactRecord] = [], problems: [VCardProblem] = [], stoppedEarly: Bool = false) {
        self.contacts = contacts
        self.problems = problems
        self.stoppedEarly = stoppedEarly
    }

    /// The problems that dropped a card or other input.
    public var errors: [VCardProblem] { problems.filter(\.skipped) }
    /// The informational problems (nothing was dropped but an ignored property or similar).
    public var warnings: [VCardProblem] { problems.filter { !$0.skipped } }
}

/// A vCard codec for `ContactRecord`: reads vCard 2.1, 3.0 and 4.0 and writes 3.0 and 4.0.
///
/// Reading is lenient: only a structurally broken card (BEGIN without END, END without BEGIN) is
/// reported with its line number and skipped, and the rest of the file still imports. A bad line
/// (no colon), a bad value (a PHOTO that is not base64, an unparseable BDAY) or a nested 2.1 AGENT
/// card costs only that line or property, reported as a warning with its line number. Properties
/// the model cannot hold are reported as warnings too.
///
/// Normalisation (what a round trip `decode(encode(r))` cannot preserve, so the codec settles it):
/// - an empty label (`""`) is written and read as no label (`nil`);
/// - empty phone numbers, email addresses and URLs, addresses with no values, and empty image data
///   are not written (and empty ones are dropped when read);
/// - CR and CRLF inside values become LF;
/// - ASCII control characters other than tab and line breaks are not written (both RFCs forbid them);
/// - list values (`NICKNAME:Johnny,JD`, several values in an `N` component, several `ORG` units after
///   the first) read as one text joined with `", "`, and `", "` in those fields is written as a list,
///   except in the family and given names, which are written as one value with the comma escaped
///   (`N:Richter\, James;…`: readers that take those as single values keep only a list's first);
/// - a phone number that starts with `tel:` and an email address that starts with `mailto:` lose
///   that prefix when read back. (A `urn:uuid:` UID is kept whole as the identifier.)
public enum VCard {
    /// Reads every card in `text` (vCard 2.1, 3.0 or 4.0).
    ///
    /// - Parameter stopOnError: stop at the first card that has to be skipped; the cards before it
    ///   are returned and `stoppedEarly` is set.
    public static func decode(_ text: String, stopOnError: Bool = false) -> VCardDecodeResult {
        VCardDecoder(text: text, stopOnError: stopOnError).run()
    }

    /// Reads every card in a file's bytes: UTF-8 (with or without a BOM) or UTF-16 with a BOM. In a
    /// file that is not valid UTF-8, each line is read on its own: as UTF-8 when it is valid, else in
    /// its `CHARSET` when Foundation can convert that, else as Windows-1252; lines not read as
    /// written are reported as warnings with their line numbers.
    public static func decode(data: Data, stopOnError: Bool = false) -> VCardDecodeResult {
        VCardDecoder(data: data, stopOnError: stopOnError).run()
    }

    /// Writes `contacts` as vCards of `version`, with CRLF line endings and lines folded at 75 octets.
    public static func encode(_ contacts: [ContactRecord], version: VCardVersion = .v3) -> String {
        var writer = VCardEncoder(version: version)
        for contact in contacts {
            writer.write(contact)
        }
        return writer.output
    }
}
