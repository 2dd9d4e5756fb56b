import Foundation
import TestSupport
import Testing

/// Issue 41: the published app EasyDelete (Tests/Fixtures/PublishedCode/EasyDelete) writes `import UIKit` and
/// `import CoreData` in a file that uses neither; its target gets empty stand-in modules of those names. These
/// tests show the stand-ins only make the import resolve: nothing from UIKit or Core Data compiles through them.
@Suite("Porting: EasyDelete's UIKit and CoreData stand-ins resolve an import and declare nothing")
struct PublishedCodeStandInTests {
    @Test("importing the stand-ins alone compiles")
    func importsResolve() throws {
        #expect(try TypeCheck.errors("import UIKit\nimport CoreData\nimport Contacts\n", swiftVersion: "5") == [])
    }

    @Test("UIImage (what the left-out CNMutableContact+Extension.swift uses) and NSManagedObject do not exist")
    func nothingIsDeclared() throws {
        let errors = try TypeCheck.errors(
            """
            import UIKit
            import CoreData
            import Foundation
            let image = UIImage(data: Data())
            let object: NSManagedObject? = nil
            """, swiftVersion: "5")
        #expect(errors.contains { $0.contains("cannot find 'UIImage' in scope") }, "\(errors)")
        #expect(errors.contains { $0.contains("cannot find type 'NSManagedObject' in scope") }, "\(errors)")
    }
}
