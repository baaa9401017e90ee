/// Colours of a diagram. Marble fills are derived from the value (see `ValueColor`).
struct Theme {
    var background: String
    /// Lines, text, marble outlines.
    var ink: String
    /// Secondary text: sub-labels, time labels, notes.
    var muted: String
    /// The time ruler and faint guides.
    var grid: String
    var boxFill: String
    /// Subscription spans.
    var span: String
    /// Cancellation marks.
    var cancel: String
    /// Differences of the mismatch view, errors.
    var alert: String
    var alertFill: String
    /// Lightness of marble fills, 0…1.
    var marbleLightness: Double
    var marbleSaturation: Double

    static let light = Theme(background: "#ffffff", ink: "#1f2328", muted: "#656d76", grid: "#d0d7de", boxFill: "#f6f8fa",
                             span: "#0969da", cancel: "#bc4c00", alert: "#cf222e", alertFill: "#ffebe9",
                             marbleLightness: 0.82, marbleSaturation: 0.72)
    static let dark = Theme(background: "#0d1117", ink: "#e6edf3", muted: "#8b949e", grid: "#30363d", boxFill: "#161b22",
                            span: "#4493f8", cancel: "#db6d28", alert: "#f85149", alertFill: "#3c1618",
                            marbleLightness: 0.34, marbleSaturation: 0.5)
}

extension Theme {
    /// The roles' colours, in one order for every theme.
    var roles: [String] { [background, ink, muted, grid, boxFill, span, cancel, alert, alertFill] }

    /// Each light colour a diagram can use, and its dark counterpart: the roles, then the fill
    /// of every hue a value can get. The light colours are all different, so that a light
    /// colour says which role (or hue) it plays.
    static let darkCounterparts: [(light: String, dark: String)] =
        Array(zip(light.roles, dark.roles)) + stride(from: 0, to: 360, by: 5).map { (ValueColor.fill(hue: $0, theme: light), ValueColor.fill(hue: $0, theme: dark)) }

    /// The `<style>` of an adaptive diagram drawn in light colours: under
    /// `@media (prefers-color-scheme: dark)`, one rule per light colour the document uses in a
    /// `fill` or `stroke` attribute (`paints`, as `SVGWriter` noted them), matching it by the attribute's value and giving the dark
    /// colour. Any style rule outranks a presentation attribute, so the drawing code stays
    /// the same for all themes; a viewer without CSS (rsvg-convert, many previewers) shows the
    /// light diagram.
    static func darkSchemeStyle(paints: [String: Set<String>]) -> [String] {
        var rules: [String] = []
        for property in ["fill", "stroke"] {
            let used = paints[property] ?? []
            for (lightColour, darkColour) in darkCounterparts where used.contains(lightColour) {
                rules.append("    [\(property)=\"\(lightColour)\"] { \(property): \(darkColour) }")
            }
        }
        return ["<style>", "  @media (prefers-color-scheme: dark) {"] + rules + ["  }", "</style>"]
    }
}

/// The fill colour of a value: a hue from a fixed hash of the value's text, so that the same
/// value has the same colour on every line, in every diagram, on every machine.
enum ValueColor {
    /// FNV-1a, 32 bits, over the UTF-8 bytes (Swift's `Hasher` is seeded per process).
    static func hash(_ text: String) -> UInt32 {
        var hash: UInt32 = 2_166_136_261
        for byte in text.utf8 {
            hash ^= UInt32(byte)
            hash = hash &* 16_777_619
        }
        return hash
    }

    /// The hue in degrees, in steps of 5 so that nearby hues are not mistaken for the same.
    static func hue(_ key: String) -> Int {
        Int(hash(key) % 72) * 5
    }

    static func fill(hue: Int, theme: Theme) -> String {
        hex(hue: Double(hue), saturation: theme.marbleSaturation, lightness: theme.marbleLightness)
    }

    /// Hues for the values of one diagram: each value its own hue from the hash, unless that
    /// is too close to the hue of a value placed before it (in order of hash), then the
    /// nearest hue that is far enough from all of them.
    static func hues(for keys: [String]) -> [String: Int] {
        let ordered = Set(keys).sorted { (hash($0), $0) < (hash($1), $1) }
        let separation = promisedSeparation(count: ordered.count)
        var result: [String: Int] = [:]
        var used: [Int] = []
        func distance(_ a: Int, _ b: Int) -> Int {
            let d = abs(a - b) % 360
            return min(d, 360 - d)
        }
        for key in ordered {
            let preferred = hue(key)
            var chosen: Int?
            for step in 0...36 {
                let candidates = step == 0 ? [preferred] : [(preferred + 5 * step) % 360, (preferred - 5 * step + 360) % 360]
                if let free = candidates.first(where: { candidate in used.allSatisfy { distance($0, candidate) >= separation } }) {
                    chosen = free
                    break
                }
            }
            // The hashed hues left no free place far enough from the others (placing greedily
            // can strand the last ones): spread all of them evenly instead, in hash order, which
            // keeps the promised separation.
            guard let chosen else { return evenlySpread(ordered) }
            used.append(chosen)
            result[key] = chosen
        }
        return result
    }

    /// How far apart the hues of `count` distinct values are at least: 45° for up to 8, 30°
    /// for up to 12, else as far as the 5° grid allows.
    static func promisedSeparation(count: Int) -> Int {
        count <= 8 ? 45 : count <= 12 ? 30 : max(5, 360 / count / 5 * 5)
    }

    /// Hues `360 / n` apart (on the 5° grid), starting from the first key's own hue.
    static func evenlySpread(_ ordered: [String]) -> [String: Int] {
        guard let first = ordered.first else { return [:] }
        let step = Double(360) / Double(ordered.count)
        var result: [String: Int] = [:]
        for (index, key) in ordered.enumerated() {
            result[key] = (hue(first) + Int((Double(index) * step / 5).rounded(.down)) * 5) % 360
        }
        return result
    }

    /// The smallest difference between two hues of `hues`, in degrees (360 for fewer than two).
    static func smallestSeparation(_ hues: [Int]) -> Int {
        var smallest = 360
        for (i, a) in hues.enumerated() {
            for b in hues[(i + 1)...] {
                let d = abs(a - b) % 360
                smallest = min(smallest, min(d, 360 - d))
            }
        }
        return smallest
    }

    /// `#rrggbb` for an HSL colour.
    static func hex(hue: Double, saturation: Double, lightness: Double) -> String {
        let chroma = (1 - abs(2 * lightness - 1)) * saturation
        let sector = hue / 60
        let second = chroma * (1 - abs(sector.truncatingRemainder(dividingBy: 2) - 1))
        let (r, g, b): (Double, Double, Double)
        switch sector {
        case ..<1: (r, g, b) = (chroma, second, 0)
        case ..<2: (r, g, b) = (second, chroma, 0)
        case ..<3: (r, g, b) = (0, chroma, second)
        case ..<4: (r, g, b) = (0, second, chroma)
        case ..<5: (r, g, b) = (second, 0, chroma)
        default: (r, g, b) = (chroma, 0, second)
        }
        let offset = lightness - chroma / 2
        let digits = Array("0123456789abcdef")
        var text = "#"
        for component in [r, g, b] {
            let byte = max(0, min(255, Int(((component + offset) * 255).rounded())))
            text.append(digits[byte / 16])
            text.append(digits[byte % 16])
        }
        return text
    }
}
