import Foundation

/// vCard fixtures for the ContactsInterop tests, embedded as string literals (no resource bundle).
/// Multi-line literals have LF line endings; `crlf(_:)` gives the CRLF form real exports use.
enum VCardFixtures {
    /// Converts LF line endings to CRLF.
    static func crlf(_ text: String) -> String {
        text.replacingOccurrences(of: "\n", with: "\r\n")
    }

    /// The image in the photo fixtures: a JPEG signature then 400 patterned bytes.
    static let photoBytes = Data([0xFF, 0xD8, 0xFF, 0xE0] + (0..<400).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ 3) })

    /// An iPhone / macOS Contacts export (3.0): grouped itemN properties with X-ABLabel, a PHOTO
    /// folded over many lines, X-APPLE-OMIT-YEAR and an X-SOCIALPROFILE (line 27).
    static let appleExport = #"""
        BEGIN:VCARD
        VERSION:3.0
        PRODID:-//Apple Inc.//iPhone OS 17.4//EN
        N:Appleseed;John;Quincy;Mr.;Jr.
        FN:Mr. John Quincy Appleseed Jr.
        NICKNAME:Johnny
        ORG:Apple Inc.;Engineering
        TITLE:Software Engineer
        EMAIL;type=INTERNET;type=HOME;type=pref:john@example.com
        EMAIL;type=INTERNET;type=WORK:jappleseed@apple.com
        item1.EMAIL;type=INTERNET:john.appleseed@icloud.com
        item1.X-ABLabel:iCloud
        TEL;type=CELL;type=VOICE;type=pref:+1 (408) 555-0101
        TEL;type=IPHONE;type=CELL;type=VOICE:+1 408 555 0102
        item2.TEL:(408) 555-0103
        item2.X-ABLabel:_$!<Mobile>!$_
        item3.TEL:+44 20 7946 0958
        item3.X-ABLabel:Studio
        TEL;type=HOME;type=FAX:408-555-0104
        TEL;type=MAIN:408-555-0105
        TEL;type=PAGER:408-555-0106
        item4.ADR;type=HOME;type=pref:;;1 Infinite Loop\nBuilding 2;Cupertino;CA;95014;United States
        item4.X-ABADR:us
        item5.URL;type=pref:https://www.apple.com
        item5.X-ABLabel:_$!<HomePage>!$_
        BDAY;X-APPLE-OMIT-YEAR=1604:1604-05-17
        X-SOCIALPROFILE;type=twitter:https://twitter.com/johnappleseed
        NOTE:Met at WWDC\, booth 3\; bring the demo.\nSecond line.
        PHOTO;ENCODING=b;TYPE=JPEG:/9j/4AMKERgfJi00O0JJUFdeZWxzeoGIj5adpKuyucDHztXc
          4+rx+P8GDRQbIikwNz5FTFNaYWhvdn2Ei5KZoKeutbzDytHY3+bt9PsCCRAXHiUsMzpBSE9W
          XWRrcnmAh46VnKOqsbi/xs3U2+Lp8Pf+BQwTGiEoLzY9REtSWWBnbnV8g4qRmJ+mrbS7wsnQ
          197l7PP6AQgPFh0kKzI5QEdOVVxjanF4f4aNlJuiqbC3vsXM09rh6O/2/QQLEhkgJy41PENK
          UVhfZm10e4KJkJeepayzusHIz9bd5Ovy+QAHDhUcIyoxOD9GTVRbYmlwd36FjJOaoaivtr3E
          y9LZ4Ofu9fwDChEYHyYtNDtCSVBXXmVsc3qBiI+WnaSrsrnAx87V3OPq8fj/Bg0UGyIpMDc+
          RUxTWmFob3Z9hIuSmaCnrrW8w8rR2N/m7fT7AgkQFx4lLDM6QUhPVl1ka3J5gIeOlZyjqrG4
          v8bN1Nvi6fD3/gUMExohKC82PURLUllgZ251fIOKkZifpq20u8LJ0Nfe5ew=
        UID:4B1C6E0A-3F1D-4E4B-9C55-0A1B2C3D4E5F
        END:VCARD
        BEGIN:VCARD
        VERSION:3.0
        PRODID:-//Apple Inc.//iPhone OS 17.4//EN
        N:;;;;
        FN:Blue Bottle Coffee
        ORG:Blue Bottle Coffee;
        X-ABShowAs:COMPANY
        TEL;type=WORK;type=VOICE;type=pref:+1 510 555 0199
        BDAY:2010-08-01
        END:VCARD

        """#

    /// A Google Contacts export (3.0): `TYPE=INTERNET`, `item1.URL` with an escaped colon and an
    /// empty X-ABLabel, CATEGORIES (unsupported, line 15) and a card that is only a company.
    static let googleExport = #"""
        BEGIN:VCARD
        VERSION:3.0
        FN:Zoë Dupont
        N:Dupont;Zoë;;;
        EMAIL;TYPE=INTERNET;TYPE=HOME:zoe.dupont@gmail.com
        EMAIL;TYPE=INTERNET;TYPE=WORK:zoe@dupont-conseil.fr
        TEL;TYPE=CELL:+33 6 12 34 56 78
        TEL;TYPE=WORK:+33 1 23 45 67 89
        ADR;TYPE=HOME:;;12 Rue de la Paix;Paris;;75002;France
        ORG:Dupont Conseil
        TITLE:Directrice
        BDAY:1988-11-03
        item1.URL:https\://dupont-conseil.fr
        item1.X-ABLabel:
        CATEGORIES:myContacts,Friends
        item2.URL:https\://blog.dupont.fr
        item2.X-ABLabel:Blog
        NOTE:Prefers email.
        END:VCARD
        BEGIN:VCARD
        VERSION:3.0
        FN:Acme Plumbing
        N:;;;;
        ORG:Acme Plumbing
        TEL;TYPE=WORK:(555) 010-9999
        CATEGORIES:myContacts
        END:VCARD

        """#

    /// A 2.1 card (as old Nokia/Android phones write): QUOTED-PRINTABLE with CHARSET=UTF-8 and
    /// ISO-8859-1, soft line breaks, bare parameters and base64 continued on unindented lines.
    static let version21 = #"""
        BEGIN:VCARD
        VERSION:2.1
        N;CHARSET=UTF-8;ENCODING=QUOTED-PRINTABLE:M=C3=BCller;J=C3=BCrgen;;;
        FN;CHARSET=UTF-8;ENCODING=QUOTED-PRINTABLE:J=C3=BCrgen M=C3=BCller
        TEL;CELL;PREF:+49 170 1234567
        TEL;WORK;VOICE:+49 30 1234567
        TEL;HOME;FAX:+49 30 7654321
        EMAIL;INTERNET:juergen@example.de
        NOTE;CHARSET=UTF-8;ENCODING=QUOTED-PRINTABLE:Caf=C3=A9 au lait =E2=80=94 this note is longer than s=
        eventy-six characters, so it has soft=
         line breaks.=0D=0ASecond line: =C3=A9t=C3=A9.
        ADR;HOME;CHARSET=ISO-8859-1;ENCODING=QUOTED-PRINTABLE:;;Stra=DFe 1;K=F6ln;;50667;Deutschland
        PHOTO;ENCODING=BASE64;TYPE=JPEG:
        /9j/4AMKERgfJi00O0JJUFdeZWxzeoGIj5adpKuyucDHztXc4+rx+P8GDRQbIikwNz5FTFNaYWhv
        dn2Ei5KZoKeutbzDytHY3+bt9PsCCRAXHiUsMzpBSE9WXWRrcnmAh46VnKOqsbi/xs3U2+Lp8Pf+
        BQwTGiEoLzY9REtSWWBnbnV8g4qRmJ+mrbS7wsnQ197l7PP6AQgPFh0kKzI5QEdOVVxjanF4f4aN
        lJuiqbC3vsXM09rh6O/2/QQLEhkgJy41PENKUVhfZm10e4KJkJeepayzusHIz9bd5Ovy+QAHDhUc
        IyoxOD9GTVRbYmlwd36FjJOaoaivtr3Ey9LZ4Ofu9fwDChEYHyYtNDtCSVBXXmVsc3qBiI+WnaSr
        srnAx87V3OPq8fj/Bg0UGyIpMDc+RUxTWmFob3Z9hIuSmaCnrrW8w8rR2N/m7fT7AgkQFx4lLDM6
        QUhPVl1ka3J5gIeOlZyjqrG4v8bN1Nvi6fD3/gUMExohKC82PURLUllgZ251fIOKkZifpq20u8LJ
        0Nfe5ew=

        END:VCARD

        """#

    /// RFC 6350 section 8 (the Simon Perreault example), plus a second card with the `tel:` URI and
    /// data-URI PHOTO from the RFC's property examples, and a `urn:uuid:` UID.
    static let version40 = #"""
        BEGIN:VCARD
        VERSION:4.0
        FN:Simon Perreault
        N:Perreault;Simon;;;ing. jr,M.Sc.
        BDAY:--0203
        ANNIVERSARY:20090808T1430-0500
        GENDER:M
        LANG;PREF=1:fr
        LANG;PREF=2:en
        ORG;TYPE=work:Viagenie
        ADR;TYPE=work:;Suite D2-630;2875 Laurier;
         Quebec;QC;G1V 2M2;Canada
        TEL;VALUE=uri;TYPE="work,voice";PREF=1:tel:+1-418-656-9254;ext=102
        TEL;VALUE=uri;TYPE="work,cell,voice,video,text":tel:+1-418-262-6501
        EMAIL;TYPE=work:simon.perreault@viagenie.ca
        GEO;TYPE=work:geo:46.772673,-71.282945
        KEY;TYPE=work;VALUE=uri:
         http://www.viagenie.ca/simon.perreault/simon.asc
        TZ:-0500
        URL;TYPE=home:http://nomis80.org
        END:VCARD
        BEGIN:VCARD
        VERSION:4.0
        UID:urn:uuid:f81d4fae-7dec-11d0-a765-00a0c91e6bf6
        FN:Jane Doe
        N:Doe;Jane;;;
        TEL;VALUE=uri;TYPE="voice,home":tel:+1-555-555-5555;ext=5555
        EMAIL;PREF=1:jane_doe@example.com
        BDAY:19531015T231000Z
        PHOTO:data:image/jpeg;base64,/9j/4AMKERgfJi00O0JJUFdeZWxzeoGIj5adpKuyucDHztXc4+rx+P8GDRQbIikwNz5FTFNaYWhvdn2Ei5KZoKeutbzDytHY3+bt9PsCCRAXHiUsMzpBSE9WXWRrcnmAh46VnKOqsbi/xs3U2+Lp8Pf+BQwTGiEoLzY9REtSWWBnbnV8g4qRmJ+mrbS7wsnQ197l7PP6AQgPFh0kKzI5QEdOVVxjanF4f4aNlJuiqbC3vsXM09rh6O/2/QQLEhkgJy41PENKUVhfZm10e4KJkJeepayzusHIz9bd5Ovy+QAHDhUcIyoxOD9GTVRbYmlwd36FjJOaoaivtr3Ey9LZ4Ofu9fwDChEYHyYtNDtCSVBXXmVsc3qBiI+WnaSrsrnAx87V3OPq8fj/Bg0UGyIpMDc+RUxTWmFob3Z9hIuSmaCnrrW8w8rR2N/m7fT7AgkQFx4lLDM6QUhPVl1ka3J5gIeOlZyjqrG4v8bN1Nvi6fD3/gUMExohKC82PURLUllgZ251fIOKkZifpq20u8LJ0Nfe5ew=
        END:VCARD

        """#

    /// Folded long lines (space and tab continuations, a fold inside a multi-byte character's
    /// line) and every text escape.
    static let foldedAndEscaped = #"""
        BEGIN:VCARD
        VERSION:3.0
        UID:escaped-1
        N:O'Brien\, Esq.;Seán;;;
        FN:Seán O'Brien\, Esq.
        NOTE:Line one\nLine two\, with a comma\; a semicolon\, a backslash \\ and
          an upper-case escape\NThird line, folded with a space
        \#t and then with a tab.
        ORG:Smith\; Wesson\, Ltd;Research \\ Development
        TITLE:Directeur général de la société européenne d'électricité et de gaz na
         turel
        END:VCARD

        """#

    /// Three cards; card 2 (lines 6-10) has a line without a colon at line 9.
    static let secondOfThreeMalformed = #"""
        BEGIN:VCARD
        VERSION:3.0
        N:One;Card;;;
        FN:Card One
        END:VCARD
        BEGIN:VCARD
        VERSION:3.0
        N:Two;Card;;;
        this line has no colon
        END:VCARD
        BEGIN:VCARD
        VERSION:3.0
        N:Three;Card;;;
        END:VCARD

        """#

    /// Card 2 (line 5) has no END:VCARD before card 3 begins (line 8); a stray END:VCARD at line 12
    /// and a card that never ends (line 13).
    static let missingEnds = #"""
        BEGIN:VCARD
        VERSION:3.0
        N:One;Card;;;
        END:VCARD
        BEGIN:VCARD
        VERSION:3.0
        N:Two;Card;;;
        BEGIN:VCARD
        VERSION:3.0
        N:Three;Card;;;
        END:VCARD
        END:VCARD
        BEGIN:VCARD
        VERSION:3.0
        N:Four;Card;;;

        """#

    /// A bad PHOTO (line 4) and an unparseable BDAY (line 9) between good cards.
    static let badValues = #"""
        BEGIN:VCARD
        VERSION:3.0
        N:One;Card;;;
        PHOTO;ENCODING=b;TYPE=JPEG:not*base64!!
        END:VCARD
        BEGIN:VCARD
        VERSION:3.0
        N:Two;Card;;;
        BDAY:the fifth of May
        END:VCARD
        BEGIN:VCARD
        VERSION:3.0
        N:Three;Card;;;
        END:VCARD

        """#
}
