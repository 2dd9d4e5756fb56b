import Foundation

/// One defect of issue 14: a minimal card written the way a real writer writes it (bytes and line
/// endings included), the contacts other readers import from it (as the store's JSON), the warnings
/// it must give, and lines its re-export must contain.
struct VCardWriterFixture: Sendable, CustomStringConvertible {
    /// The defect's number in issue 14.
    var defect: Int
    /// Who writes cards this way.
    var writer: String
    /// The file's bytes.
    var bytes: Data
    /// The expected contacts: a JSON array of stored contacts.
    var expectedJSON: String
    /// The line of each expected warning, in order (none of them drops a card).
    var warningLines: [Int] = []
    /// Text each of those warnings contains.
    var warningTexts: [String] = []
    /// Unfolded lines the 3.0 export of the decoded contacts contains.
    var exported3: [String] = []
    /// Unfolded lines the 4.0 export contains.
    var exported4: [String] = []

    var description: String { "defect \(defect): \(writer)" }

    /// A text line of a fixture.
    static func text(_ line: String) -> [UInt8] { Array(line.utf8) }

    /// Lines joined with `ending` (also after the last line).
    static func file(_ lines: [[UInt8]], ending: String = "\r\n") -> Data {
        Data(lines.flatMap { $0 + Array(ending.utf8) })
    }

    static func file(_ lines: [String], ending: String = "\r\n") -> Data {
        file(lines.map(text), ending: ending)
    }
}

/// The issue 14 fixtures, one (or a few cards) per defect. A photo is the first ten bytes of a JFIF
/// JPEG (`/9j/4AAQSkZJRg==`).
enum VCardWriterFixtures {
    static let photoBase64 = "/9j/4AAQSkZJRg=="

    static let all: [VCardWriterFixture] = [
        VCardWriterFixture(
            defect: 1, writer: "iOS 6 export: every line ends in \\r\\r\\n, folded NOTE and PHOTO",
            bytes: VCardWriterFixture.file(
                [
                    "BEGIN:VCARD", "VERSION:3.0", "PRODID:-//Apple Inc.//iOS 6.1.3//EN", "N:Appleseed;Kate;;;",
                    "FN:Kate Appleseed", "NOTE:A note long enough that the iPhone folded it over two physical li",
                    " nes.", "PHOTO;ENCODING=b;TYPE=JPEG:/9j/4AAQ", " SkZJRg==", "UID:ios6-kate", "END:VCARD",
                ], ending: "\r\r\n"),
            expectedJSON: #"""
                [{"identifier":"ios6-kate","givenName":"Kate","familyName":"Appleseed",
                  "note":"A note long enough that the iPhone folded it over two physical lines.",
                  "imageData":"/9j/4AAQSkZJRg=="}]
                """#),
        VCardWriterFixture(
            defect: 2, writer: "Nokia PC Suite 2.1: a bare FN, a # comment, a value continued after a backslash",
            bytes: VCardWriterFixture.file([
                "BEGIN:VCARD", "VERSION:2.1", "N:Smith;Anna", "FN", "# exported by Nokia PC Suite",
                "NOTE:first line\\", "second line", "TEL;CELL:+1 555 0100", "UID:nokia-anna", "END:VCARD",
            ]),
            expectedJSON: #"""
                [{"identifier":"nokia-anna","givenName":"Anna","familyName":"Smith","note":"first line\\",
                  "phoneNumbers":[{"label":"_$!<Mobile>!$_","value":"+1 555 0100"}]}]
                """#,
            warningLines: [4, 5, 7], warningTexts: ["without a colon", "without a colon", "without a colon"]),
        VCardWriterFixture(
            defect: 3, writer: "Android 2.1 truncated base64 PHOTO; a server's ENCODING=b holding a data: URI",
            bytes: VCardWriterFixture.file([
                "BEGIN:VCARD", "VERSION:2.1", "N:Broken;Photo;;;", "PHOTO;ENCODING=BASE64;JPEG:/9j/4AAQSkZJR", "",
                "UID:android-broken-photo", "END:VCARD",
                "BEGIN:VCARD", "VERSION:3.0", "N:Server;Photo;;;",
                "PHOTO;ENCODING=b;TYPE=JPEG:data:image/jpeg;base64,/9j/4AAQSkZJRg==", "UID:server-data-uri-photo",
                "END:VCARD",
            ]),
            expectedJSON: #"""
                [{"identifier":"android-broken-photo","givenName":"Photo","familyName":"Broken"},
                 {"identifier":"server-data-uri-photo","givenName":"Photo","familyName":"Server",
                  "imageData":"/9j/4AAQSkZJRg=="}]
                """#,
            warningLines: [4], warningTexts: ["photo was dropped and the contact kept"]),
        VCardWriterFixture(
            defect: 4, writer: "vCard 2.1 with a nested AGENT card (RFC 2425-era phones and Outlook)",
            bytes: VCardWriterFixture.file([
                "BEGIN:VCARD", "VERSION:2.1", "N:Boss;Big", "TEL;WORK:+1 555 0100", "AGENT:",
                "BEGIN:VCARD", "VERSION:2.1", "N:Friday;Girl", "TEL;WORK:+1 555 0101", "END:VCARD",
                "UID:agent-outer", "END:VCARD",
            ]),
            expectedJSON: #"""
                [{"identifier":"agent-outer","givenName":"Big","familyName":"Boss",
                  "phoneNumbers":[{"label":"_$!<Work>!$_","value":"+1 555 0100"}]}]
                """#,
            warningLines: [5], warningTexts: ["AGENT"]),
        VCardWriterFixture(
            defect: 5,
            writer: "Japanese phones (raw Shift_JIS), Outlook (windows-1250 QP), Chinese and Russian phones "
                + "(GBK, KOI8-R QP; raw Big5), Korean phones (raw EUC-KR), a card with raw Shift_JIS and no CHARSET",
            bytes: VCardWriterFixture.file([
                VCardWriterFixture.text("BEGIN:VCARD"), VCardWriterFixture.text("VERSION:2.1"),
                VCardWriterFixture.text("N;CHARSET=SHIFT_JIS:") + [0x8E, 0x52, 0x93, 0x63]
                    + VCardWriterFixture.text(";")
                    + [0x91, 0xBE, 0x98, 0x59],
                VCardWriterFixture.text("UID:docomo-sjis"), VCardWriterFixture.text("END:VCARD"),
                VCardWriterFixture.text("BEGIN:VCARD"), VCardWriterFixture.text("VERSION:2.1"),
                VCardWriterFixture.text("N;CHARSET=windows-1250;ENCODING=QUOTED-PRINTABLE:Dvo=F8=E1k;Anton=EDn"),
                VCardWriterFixture.text("UID:outlook-1250"), VCardWriterFixture.text("END:VCARD"),
                VCardWriterFixture.text("BEGIN:VCARD"), VCardWriterFixture.text("VERSION:2.1"),
                VCardWriterFixture.text("N;CHARSET=GBK;ENCODING=QUOTED-PRINTABLE:=D5=C5;=C8=FD"),
                VCardWriterFixture.text("UID:gbk"), VCardWriterFixture.text("END:VCARD"),
                VCardWriterFixture.text("BEGIN:VCARD"), VCardWriterFixture.text("VERSION:2.1"),
                VCardWriterFixture.text("N;CHARSET=BIG5:") + [0xB3, 0xAF] + VCardWriterFixture.text(";")
                    + [0xA4, 0x6A, 0xA4, 0xE5],
                VCardWriterFixture.text("UID:big5"), VCardWriterFixture.text("END:VCARD"),
                VCardWriterFixture.text("BEGIN:VCARD"), VCardWriterFixture.text("VERSION:2.1"),
                VCardWriterFixture.text("N;CHARSET=KOI8-R;ENCODING=QUOTED-PRINTABLE:=F0=C5=D4=D2=CF=D7;=E9=D7=C1=CE"),
                VCardWriterFixture.text("UID:koi8r"), VCardWriterFixture.text("END:VCARD"),
                VCardWriterFixture.text("BEGIN:VCARD"), VCardWriterFixture.text("VERSION:2.1"),
                VCardWriterFixture.text("N;CHARSET=EUC-KR:") + [0xB1, 0xE8] + VCardWriterFixture.text(";")
                    + [0xC3, 0xB6, 0xBC, 0xF6],
                VCardWriterFixture.text("UID:euckr"), VCardWriterFixture.text("END:VCARD"),
                VCardWriterFixture.text("BEGIN:VCARD"), VCardWriterFixture.text("VERSION:2.1"),
                VCardWriterFixture.text("N:") + [0x8E, 0x52, 0x93, 0x63] + VCardWriterFixture.text(";")
                    + [0x91, 0xBE, 0x98, 0x59],
                VCardWriterFixture.text("UID:sjis-undeclared"), VCardWriterFixture.text("END:VCARD"),
            ]),
            expectedJSON: #"""
                [{"identifier":"docomo-sjis","familyName":"山田","givenName":"太郎"},
                 {"identifier":"outlook-1250","familyName":"Dvořák","givenName":"Antonín"},
                 {"identifier":"gbk","familyName":"张","givenName":"三"},
                 {"identifier":"big5","familyName":"陳","givenName":"大文"},
                 {"identifier":"koi8r","familyName":"Петров","givenName":"Иван"},
                 {"identifier":"euckr","familyName":"김","givenName":"철수"},
                 {"identifier":"sjis-undeclared","familyName":"山田","givenName":"太郎"}]
                """#,
            // Issue 26 item 5: the card without a CHARSET is read in the charset the file's other
            // lines declare (Shift_JIS, the first of equally used ones), with a warning saying so.
            warningLines: [33], warningTexts: ["names no CHARSET; it was read as SHIFT_JIS"]),
        VCardWriterFixture(
            defect: 6, writer: "a file mixing UTF-8, a server splitting é across a fold, and a Latin-1 line",
            bytes: VCardWriterFixture.file([
                VCardWriterFixture.text("BEGIN:VCARD"), VCardWriterFixture.text("VERSION:3.0"),
                VCardWriterFixture.text("N:Dupont;Zoë;;;"), VCardWriterFixture.text("UID:zoe"),
                VCardWriterFixture.text("END:VCARD"),
                VCardWriterFixture.text("BEGIN:VCARD"), VCardWriterFixture.text("VERSION:3.0"),
                VCardWriterFixture.text("N:Server;Split;;;"), VCardWriterFixture.text("NOTE:caf") + [0xC3],
                [0x20, 0xA9] + VCardWriterFixture.text(" au lait"), VCardWriterFixture.text("UID:split"),
                VCardWriterFixture.text("END:VCARD"),
                VCardWriterFixture.text("BEGIN:VCARD"), VCardWriterFixture.text("VERSION:3.0"),
                VCardWriterFixture.text("N:M") + [0xFC] + VCardWriterFixture.text("ller;Hans;;;"),
                VCardWriterFixture.text("UID:latin1"), VCardWriterFixture.text("END:VCARD"),
            ]),
            expectedJSON: #"""
                [{"identifier":"zoe","familyName":"Dupont","givenName":"Zoë"},
                 {"identifier":"split","familyName":"Server","givenName":"Split","note":"café au lait"},
                 {"identifier":"latin1","familyName":"Müller","givenName":"Hans"}]
                """#,
            warningLines: [15], warningTexts: ["N is not valid UTF-8 and names no CHARSET"]),
        VCardWriterFixture(
            defect: 7, writer: "Gmail and macOS Address Book: \\\" for a double quote",
            bytes: VCardWriterFixture.file([
                "BEGIN:VCARD", "VERSION:3.0", #"FN:Jim \"Jimbo\" Beam"#, "N:Beam;Jim;;;", #"NOTE:Says \"cheers\""#,
                "UID:gmail-jim", "END:VCARD",
            ]),
            expectedJSON: #"""
                [{"identifier":"gmail-jim","familyName":"Beam","givenName":"Jim","note":"Says \"cheers\""}]
                """#,
            exported3: [#"NOTE:Says "cheers""#], exported4: [#"NOTE:Says "cheers""#]),
        VCardWriterFixture(
            defect: 8, writer: "vCard 4.0 writers that escape the comma of a data: URI",
            bytes: VCardWriterFixture.file([
                "BEGIN:VCARD", "VERSION:4.0", "FN:Data Uri", "N:Uri;Data;;;",
                "PHOTO:data:image/jpeg;base64\\,/9j/4AAQSkZJRg==", "UID:v4-photo", "END:VCARD",
            ]),
            expectedJSON: #"""
                [{"identifier":"v4-photo","familyName":"Uri","givenName":"Data","imageData":"/9j/4AAQSkZJRg=="}]
                """#,
            exported4: ["PHOTO:data:image/jpeg;base64,/9j/4AAQSkZJRg=="]),
        VCardWriterFixture(
            defect: 9, writer: "iOS: commas for pauses in TEL",
            bytes: VCardWriterFixture.file([
                "BEGIN:VCARD", "VERSION:3.0", "PRODID:-//Apple Inc.//iPhone OS 17.4//EN", "N:Pause;Dial;;;",
                "FN:Dial Pause", "TEL;type=CELL;type=VOICE;type=pref:+1 555 0100,,123#", "UID:ios-pause", "END:VCARD",
            ]),
            expectedJSON: #"""
                [{"identifier":"ios-pause","familyName":"Pause","givenName":"Dial",
                  "phoneNumbers":[{"label":"_$!<Mobile>!$_","value":"+1 555 0100,,123#"}]}]
                """#,
            exported3: [#"TEL;TYPE=CELL:+1 555 0100\,\,123#"#], exported4: [#"TEL;TYPE=cell:+1 555 0100\,\,123#"#]),
        VCardWriterFixture(
            defect: 10, writer: "Nextcloud and Google CardDAV: urn:uuid: UIDs",
            bytes: VCardWriterFixture.file([
                "BEGIN:VCARD", "VERSION:4.0", "UID:urn:uuid:6f9619ff-8b86-d011-b42d-00c04fc964ff", "FN:Uu Id",
                "N:Id;Uu;;;", "END:VCARD",
            ]),
            expectedJSON: #"""
                [{"identifier":"urn:uuid:6f9619ff-8b86-d011-b42d-00c04fc964ff","familyName":"Id","givenName":"Uu"}]
                """#,
            exported3: ["UID:urn:uuid:6f9619ff-8b86-d011-b42d-00c04fc964ff"],
            exported4: ["UID:urn:uuid:6f9619ff-8b86-d011-b42d-00c04fc964ff"]),
        VCardWriterFixture(
            defect: 11, writer: "Outlook 2.1: BEL, vertical tab, form feed and DEL inside a NOTE",
            bytes: VCardWriterFixture.file([
                "BEGIN:VCARD", "VERSION:2.1", "N:Control;Char", "NOTE:bell\u{07}vt\u{0B}ff\u{0C}del\u{7F}end",
                "UID:outlook-controls", "END:VCARD",
            ]),
            expectedJSON: #"""
                [{"identifier":"outlook-controls","familyName":"Control","givenName":"Char",
                  "note":"bell\u0007vt\u000bff\u000cdel\u007fend"}]
                """#,
            exported3: ["NOTE:bellvtffdelend"], exported4: ["NOTE:bellvtffdelend"]),
        VCardWriterFixture(
            defect: 12, writer: "RFC 6350 examples and Outlook: several values in N, NICKNAME and ORG units",
            bytes: VCardWriterFixture.file([
                "BEGIN:VCARD", "VERSION:3.0", "N:Richter,James;Hans;;;", "FN:Hans Richter", "NICKNAME:Johnny,JD",
                "ORG:Acme;Sales;EMEA", "UID:lists", "END:VCARD",
            ]),
            expectedJSON: #"""
                [{"identifier":"lists","familyName":"Richter, James","givenName":"Hans","nickname":"Johnny, JD",
                  "organizationName":"Acme","departmentName":"Sales, EMEA"}]
                """#,
            // Issue 26 item 9: the family name is one value with its comma escaped.
            exported3: [#"N:Richter\, James;Hans;;;"#, "NICKNAME:Johnny,JD", "ORG:Acme;Sales;EMEA"],
            exported4: [#"N:Richter\, James;Hans;;;"#, "NICKNAME:Johnny,JD", "ORG:Acme;Sales;EMEA"]),
        VCardWriterFixture(
            defect: 13, writer: "iOS: a birthday without a year (X-APPLE-OMIT-YEAR=1604)",
            bytes: VCardWriterFixture.file([
                "BEGIN:VCARD", "VERSION:3.0", "N:Appleseed;John;;;", "FN:John Appleseed",
                "BDAY;X-APPLE-OMIT-YEAR=1604:1604-05-17", "UID:apple-no-year", "END:VCARD",
            ]),
            expectedJSON: #"""
                [{"identifier":"apple-no-year","familyName":"Appleseed","givenName":"John","birthday":"--05-17"}]
                """#,
            // Issue 26 item 9: 3.0 writes Apple's form back (RFC 2426 has no year-less date).
            exported3: ["BDAY;X-APPLE-OMIT-YEAR=1604:1604-05-17"], exported4: ["BDAY:--0517"]),
    ]
}
