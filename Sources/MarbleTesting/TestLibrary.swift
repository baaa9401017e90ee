import Foundation
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
        #if canImport(Darwin)
        attachToXCTest(failure)
        #endif
        #else
        print("\(failure.location): error: \(message)")
        #endif
    }

    #if canImport(XCTest) && canImport(Darwin)
    /// The diagram as an attachment of the running XCTest test, which Xcode's test report shows
    /// beside the failure (Apple's XCTest only: swift-corelibs-xctest, on Linux and Windows, has
    /// no `XCTAttachment`; there `MARBLES_DIAGRAMS` is the way to the diagrams). XCTest's
    /// activities belong to the main thread, where XCTest runs its tests.
    static func attachToXCTest(_ failure: MarbleFailure) {
        guard let svg = failure.svg, let name = failure.diagramName, Thread.isMainThread else { return }
        MainActor.assumeIsolated {
            XCTContext.runActivity(named: "marble diagram \(name)") { activity in
                let attachment = XCTAttachment(data: Data(svg.utf8), uniformTypeIdentifier: "public.svg-image")
                attachment.name = name
                attachment.lifetime = .keepAlways
                activity.add(attachment)
            }
        }
    }
    #endif
}
