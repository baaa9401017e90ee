#if canImport(Combine)
import Combine
#else
import Reactive
#endif
import Foundation

enum ParseError: Error {
    case notANumber(String)
}

func parse(_ text: String) -> Result<Int, ParseError> {
    Int(text).map(Result.success) ?? .failure(.notANumber(text))
}

/// Parsing as a pipeline step, through `Result.publisher`.
func parsedNumbers(_ texts: [String]) -> AnyPublisher<Int, ParseError> {
    texts.publisher
        .setFailureType(to: ParseError.self)
        .flatMap { parse($0).publisher }
        .eraseToAnyPublisher()
}

let singleValue: Result<Int, ParseError>.Publisher = Result.Publisher(42)
