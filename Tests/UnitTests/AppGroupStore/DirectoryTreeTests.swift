import AppGroupStore
import Foundation
import Glibc
import TestSupport
import Testing

/// `SecureFile.ensureDirectories(_:under:)`: the domain's directories made and checked in one walk
/// below the App Group (issue 27), refusing what `ensureDirectory` refuses below it.
@Suite("App Group file safety: a tree of directories below the App Group")
struct DirectoryTreeTests {
    @Test("missing directories and parents are made 0700; existing ones are accepted as they are")
    func makesTheTree() throws {
        try withTemporaryAppGroup { group in
            let paths = ["/a/b/c", "/a/b/d", "/e"].map { group.path + $0 }
            try SecureFile.ensureDirectories(paths, under: group.path)
            for directory in ["/a", "/a/b", "/a/b/c", "/a/b/d", "/e"].map({ group.path + $0 }) {
                #expect(StoreFixtures.mode(directory) == 0o700, "\(directory)")
            }
            try SecureFile.ensureDirectories(paths, under: group.path + "/")  // again, and with a trailing slash
        }
    }

    @Test("a symbolic link or a file at any level below the App Group is refused, naming it")
    func refusesLinksAndFiles() throws {
        try withTemporaryAppGroup { group in
            let outside = group.path + "/outside"
            #expect(mkdir(outside, 0o700) == 0)
            #expect(mkdir(group.path + "/run", 0o700) == 0)
            #expect(symlink(outside, group.path + "/run/domain") == 0)
            #expect(throws: StoreError.self) {
                try SecureFile.ensureDirectories([group.path + "/run/domain/replies"], under: group.path)
            }
            #expect(!FileManager.default.fileExists(atPath: outside + "/replies"), "nothing was made through the link")
            #expect(FileManager.default.createFile(atPath: group.path + "/file", contents: Data()))
            do {
                try SecureFile.ensureDirectories([group.path + "/file/below"], under: group.path)
                Issue.record("a regular file was accepted as a directory")
            } catch let error as StoreError {
                #expect("\(error)".contains(group.path + "/file"), "\(error)")
            }
        }
    }
}
