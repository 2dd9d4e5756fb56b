@_exported import struct ContactsHostKit.RadicaleError
// Tests start Radicale with the same launcher `contacts-host demo carddav` uses.
@_exported import class ContactsHostKit.RadicaleServer
