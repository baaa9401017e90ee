import Foundation

/// A decoder that turns a whole `Input` into a value (Combine's `TopLevelDecoder`);
/// `JSONDecoder` and `PropertyListDecoder` are ones.
public protocol TopLevelDecoder {
    associatedtype Input
    func decode<T: Decodable>(_ type: T.Type, from: Input) throws -> T
}

/// An encoder that turns a value into a whole `Output` (Combine's `TopLevelEncoder`);
/// `JSONEncoder` and `PropertyListEncoder` are ones.
public protocol TopLevelEncoder {
    associatedtype Output
    func encode<T: Encodable>(_ value: T) throws -> Output
}

extension JSONDecoder: TopLevelDecoder {}
extension JSONEncoder: TopLevelEncoder {}
extension PropertyListDecoder: TopLevelDecoder {}
extension PropertyListEncoder: TopLevelEncoder {}

extension Publisher {
    /// Decodes every value with `decoder`; a decoding error fails the stream (Combine's
    /// `decode(type:decoder:)`).
    public func decode<Item: Decodable, Coder: TopLevelDecoder>(type: Item.Type, decoder: Coder) -> Publishers.TryMap<Self, Item> where Output == Coder.Input {
        tryMap { try decoder.decode(type, from: $0) }
    }

    /// Encodes every value with `encoder`; an encoding error fails the stream (Combine's
    /// `encode(encoder:)`).
    public func encode<Coder: TopLevelEncoder>(encoder: Coder) -> Publishers.TryMap<Self, Coder.Output> where Output: Encodable {
        tryMap { try encoder.encode($0) }
    }
}
