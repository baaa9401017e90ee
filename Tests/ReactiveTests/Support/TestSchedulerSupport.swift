// MarbleTesting drives Reactive only where Combine cannot be imported (on Apple platforms it
// drives Combine): the engine's tests written with it run there.
#if !canImport(Combine)
import MarbleTesting
import Reactive

extension TestScheduler {
    /// A hot source of one-character strings whose `#` fails with `TestFailure()`.
    func failingHot(_ marbles: String, fileID: String = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column) -> TestPublisher<String, TestFailure> {
        hot(marbles, values: [:], error: TestFailure(), fileID: fileID, filePath: filePath, line: line, column: column)
    }

    /// A cold source of one-character strings whose `#` fails with `TestFailure()`.
    func failingCold(_ marbles: String, fileID: String = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column) -> TestPublisher<String, TestFailure> {
        cold(marbles, values: [:], error: TestFailure(), fileID: fileID, filePath: filePath, line: line, column: column)
    }
}
#endif
