/// Durations as written in marble text (`10ms`, `1.5s`, `250us`, `250µs`, `5ns`, `2m`),
/// converted to nanoseconds with exact integer arithmetic.
public enum MarbleDuration {
    /// Parses a whole string as a duration.
    ///
    /// - Returns: the exact number of nanoseconds, or `nil` when `text` is not written as a
    ///   duration (digits, an optional `.digits` fraction, and one of `ns`, `us`, `µs`, `ms`, `s`, `m`).
    /// - Throws: when the duration does not fit in `Int64` nanoseconds, or is not a whole
    ///   number of nanoseconds (e.g. `1.5ns`). Offsets count `Character`s of `text`.
    public static func nanoseconds(_ text: String) throws(MarbleSyntaxError) -> Int64? {
        let characters = IndexedText(text)
        guard let match = match(characters, from: 0), match.end == characters.count else { return nil }
        switch exactNanoseconds(of: match, in: characters) {
        case .nanoseconds(let value):
            return value
        case .notWholeNanoseconds:
            throw MarbleSyntaxError(
                message: "\(abbreviated(text)) is not a whole number of nanoseconds",
                offset: 0, length: characters.count,
                hint: "durations are counted in whole nanoseconds")
        case .tooLarge:
            throw tooLargeError(text, offset: 0, length: characters.count)
        }
    }

    /// Writes `nanoseconds` with the largest of `s`, `ms`, `us`, `ns` that represents it exactly,
    /// e.g. `1ms`, `100ms`, `1s`, `1500us`.
    public static func describe(nanoseconds: Int64) -> String {
        let unit = largestExactUnit(for: nanoseconds)
        return "\(nanoseconds / unit.nanoseconds)\(unit.suffix)"
    }

    // MARK: - Internals shared with the parser and the printer

    /// Units the printer may choose from, largest first.
    static let printableUnits: [(suffix: String, nanoseconds: Int64)] = [
        ("s", 1_000_000_000), ("ms", 1_000_000), ("us", 1_000), ("ns", 1),
    ]

    static func largestExactUnit(for nanoseconds: Int64) -> (suffix: String, nanoseconds: Int64) {
        for unit in printableUnits where nanoseconds % unit.nanoseconds == 0 {
            return unit
        }
        return ("ns", 1)
    }

    struct Match: Hashable {
        /// Index just after the unit.
        var end: Int
        var integerDigits: Range<Int>
        /// Empty when there is no fraction.
        var fractionDigits: Range<Int>
        var unitNanoseconds: Int64
    }

    enum Exactness: Hashable {
        case nanoseconds(Int64)
        case notWholeNanoseconds
        case tooLarge
    }

    /// Matches `digits ('.' digits)? unit` starting at `start`, followed by horizontal whitespace
    /// or the end of `characters`. Whether it also *starts* apart is the caller's business.
    static func match(_ characters: IndexedText, from start: Int) -> Match? {
        let count = characters.count
        var index = start
        while index < count, characters[index].asciiDigitValue != nil { index += 1 }
        let integerDigits = start..<index
        guard !integerDigits.isEmpty else { return nil }

        var fractionDigits = index..<index
        if index + 1 < count, characters[index] == ".", characters[index + 1].asciiDigitValue != nil {
            let fractionStart = index + 1
            index = fractionStart
            while index < count, characters[index].asciiDigitValue != nil { index += 1 }
            fractionDigits = fractionStart..<index
        }

        guard index < count else { return nil }
        let unit: Int64
        let next: Character? = index + 1 < count ? characters[index + 1] : nil
        switch (characters[index], next) {
        case ("n", "s"): unit = 1; index += 2
        case ("u", "s"), ("\u{00B5}", "s"), ("\u{03BC}", "s"): unit = 1_000; index += 2
        case ("m", "s"): unit = 1_000_000; index += 2
        case ("s", _): unit = 1_000_000_000; index += 1
        case ("m", _): unit = 60_000_000_000; index += 1
        default: return nil
        }
        guard index == count || characters[index].isMarbleSpace else { return nil }
        return Match(end: index, integerDigits: integerDigits, fractionDigits: fractionDigits, unitNanoseconds: unit)
    }

    /// The exact value of a matched duration, without any floating point.
    static func exactNanoseconds(of match: Match, in characters: IndexedText) -> Exactness {
        // Integer part × unit.
        var integer: Int64 = 0
        for index in match.integerDigits {
            guard let digit = characters[index].asciiDigitValue else { return .tooLarge }
            let (shifted, overflow1) = integer.multipliedReportingOverflow(by: 10)
            let (sum, overflow2) = shifted.addingReportingOverflow(digit)
            if overflow1 || overflow2 { return .tooLarge }
            integer = sum
        }
        let (whole, overflow) = integer.multipliedReportingOverflow(by: match.unitNanoseconds)
        if overflow { return .tooLarge }

        // Fraction: trailing zeros change nothing.
        var fractionEnd = match.fractionDigits.upperBound
        while fractionEnd > match.fractionDigits.lowerBound, characters[fractionEnd - 1] == "0" {
            fractionEnd -= 1
        }
        let places = fractionEnd - match.fractionDigits.lowerBound
        if places == 0 { return .nanoseconds(whole) }
        // A fraction ending in a non-zero digit at place k has a denominator with 2^k or 5^k
        // in lowest terms; no unit (at most 2^11·3·5^10 ns) cancels that beyond k = 11.
        if places > 18 { return .notWholeNanoseconds }

        var fraction: UInt64 = 0
        var denominator: UInt64 = 1
        for index in match.fractionDigits.lowerBound..<fractionEnd {
            guard let digit = characters[index].asciiDigitValue else { return .notWholeNanoseconds }
            fraction = fraction * 10 + UInt64(digit)
            denominator *= 10
        }
        // fraction < denominator ≤ 10^18, so fraction × unit / denominator < unit: no overflow.
        let product = fraction.multipliedFullWidth(by: UInt64(match.unitNanoseconds))
        let (quotient, remainder) = denominator.dividingFullWidth(product)
        if remainder != 0 { return .notWholeNanoseconds }
        let (total, overflowTotal) = whole.addingReportingOverflow(Int64(quotient))
        if overflowTotal { return .tooLarge }
        return .nanoseconds(total)
    }

    static func tooLargeError(_ text: String, offset: Int, length: Int) -> MarbleSyntaxError {
        MarbleSyntaxError(
            message: "\(abbreviated(text)) is too long a time progression (time is counted in nanoseconds, up to about 292 years)",
            offset: offset, length: length,
            hint: "use a shorter time progression")
    }
}

/// Long input quoted in a message is cut in the middle: `1111111111111111…111111111111ms`.
func abbreviated(_ text: String, limit: Int = 32) -> String {
    guard text.count > limit else { return text }
    let tail = limit / 2 - 2
    return String(text.prefix(limit / 2)) + "…" + String(text.suffix(tail))
}

extension Character {
    /// Space, tab and other horizontal whitespace: ignored in marble text.
    var isMarbleSpace: Bool {
        isWhitespace && !isNewline
    }

    /// The value of an ASCII digit `0`…`9`, else `nil`.
    var asciiDigitValue: Int64? {
        guard let ascii = asciiValue, ascii >= 48, ascii <= 57, unicodeScalars.count == 1 else { return nil }
        return Int64(ascii - 48)
    }
}
