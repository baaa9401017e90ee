import SwiftCallSite

/// Names in failures as the test wrote them, read from the test's own source through the
/// `#filePath`, `#line` and `#column` of the call (as inline-snapshot libraries read theirs):
/// `query did not emit …` for `scheduler.expect(query, …)`, a lane `typing` for
/// `let typing = scheduler.hot(…)`. A file is read once per process, and only when a failure
/// needs a name. Where the source cannot be read, or the call is not one of the plain shapes
/// (`SwiftCall`), or no longer passes the marbles that ran, the name is the generic one
/// (`output`, `hot`, `cold2`, `send`): never a wrong name.
@usableFromInline
enum CallSites {
    /// For this library's tests: files read in place of the ones the tests were compiled from
    /// (a temporary copy that `MARBLES_UPDATE` may rewrite).
    @TaskLocal static var redirectedPaths: [String: String] = [:]

    /// The file to read for `location`.
    static func path(_ location: MarbleSourceLocation) -> String { redirectedPaths[location.filePath] ?? location.filePath }

    /// The `callee` call at `location`, when its source can be read.
    static func call(_ callee: String, at location: MarbleSourceLocation) -> SwiftCall? {
        guard let file = SwiftSourceFile.cached(path: path(location)) else { return nil }
        return SwiftCall(in: file, line: location.line, column: location.column, callee: callee)
    }

    /// The longest expression used as a name; a longer one would push the diff's lanes aside.
    static let longestName = 60

    /// The publisher of the `expect` call at `location` as written (`query`, `model.$results`),
    /// when it is a reference and the call passes `marbles` in `literals`. For a source's
    /// `.subscriptions` or `.requests`, `property` is cut off: `answer.subscriptions` names `answer`.
    static func publisher(at location: MarbleSourceLocation, marbles: [String], in literals: SwiftCall.Literals,
                          property: String? = nil) -> String? {
        guard let call = call("expect", at: location), call.passes(marbles, in: literals),
              let first = call.arguments.first, first.label == nil, case .reference(var name) = first.form else { return nil }
        if let property {
            guard name.hasSuffix("." + property) else { return nil }
            name.removeLast(property.count + 1)
        }
        return name.isEmpty || name.utf8.count > longestName ? nil : name
    }

    /// The name of an `expect`'s publisher: `given`, else as written at `location`, else `output`.
    @usableFromInline
    static func publisherName(_ given: String?, at location: MarbleSourceLocation, marbles: [String], in literals: SwiftCall.Literals) -> String {
        given ?? publisher(at: location, marbles: marbles, in: literals) ?? "output"
    }

    /// The variable a `hot` or `cold` source was declared as (`let typing = scheduler.hot(…)`).
    static func declared(_ callee: String, at location: MarbleSourceLocation, marbles: String) -> String? {
        guard let call = call(callee, at: location), call.passes([marbles], in: .first) else { return nil }
        return call.declaredName
    }

    /// What a `send` line drives: its `to:` subject (`to: subject`), or the property its
    /// closure assigns (`{ model.query = $0 }`).
    static func sendTarget(at location: MarbleSourceLocation, marbles: String) -> String? {
        guard let call = call("send", at: location), call.passes([marbles], in: .first) else { return nil }
        if let target = call.arguments.first(where: { $0.label == "to" }) {
            guard case .reference(let name) = target.form, name.utf8.count <= longestName else { return nil }
            return name
        }
        return call.assignmentTarget.flatMap { $0.utf8.count <= longestName ? $0 : nil }
    }
}

/// A source's name in failures: the `name:` given, else the variable the test wrote for it
/// (read from the source when a failure first asks), else `hot`, `cold2`, `send`, ….
@usableFromInline
final class SourceName {
    /// The `name:` argument.
    let given: String?
    /// The name without the source.
    let fallback: String
    private let read: () -> String?
    private var readName: String??

    @usableFromInline
    init(given: String?, fallback: String, read: @escaping () -> String?) {
        self.given = given
        self.fallback = fallback
        self.read = read
    }

    /// The name of a `hot` or `cold` source made at `location` from `marbles`.
    @usableFromInline
    convenience init(given: String?, fallback: String, callee: String, marbles: String, at location: MarbleSourceLocation) {
        self.init(given: given, fallback: fallback) { CallSites.declared(callee, at: location, marbles: marbles) }
    }

    /// The given name, else the one read from the source (nil when neither exists).
    var written: String? {
        if let given { return given }
        if let readName { return readName }
        let name = read()
        readName = name
        return name
    }

    /// The name to show.
    var text: String { written ?? fallback }
}
