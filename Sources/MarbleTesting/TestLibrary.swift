#if canImport(Testing)
import Testing
#endif
#if canImport(XCTest)
import XCTest
#endif

/// Records failures to the test library that runs the current test: Swift Testing when a
/// Swift Testing test is running (`Test.current`), XCTest otherwise. Neither needs the other:
/// each is used only where it can be imported.
enum TestLibrary {
    static func record(_ failure: MarbleFailure) {
        var message = failure.message
        let written = DiagramFolder.write(failure)
        if let written { message += "\n\ndiagram: \(written)" }
        #if canImport(Testing)
        if Test.current != nil {
            let location = Testing.SourceLocation(fileID: failure.location.fileID, filePath: failure.location.filePath,
                                                  line: failure.location.line, column: failure.location.column)
            Issue.record(Comment(rawValue: message), sourceLocation: location)
            if let svg = failure.svg, let name = failure.diagramName {
                Attachment.record(svg, named: name, sourceLocation: location)
            }
            return
        }
        #endif
        #if canImport(XCTest)
        XCTFail(message, file: failure.location.staticFilePath, line: UInt(failure.location.line))
        #else
        print("\(failure.location): error: \(message)")
        #endif
    }
}
