import MarbleReport

/// How a diagram looks.
public struct DiagramOptions: Sendable, Hashable {
    public enum Theme: String, Sendable, Hashable, CaseIterable {
        case light, dark
        /// The light colours as attributes, and a `<style>` whose
        /// `@media (prefers-color-scheme: dark)` rules turn them into the dark ones: one file
        /// that follows the reader's colour scheme. A viewer without CSS shows it light.
        case auto
    }

    public enum Background: Sendable, Hashable {
        /// The theme's own background (white, or GitHub's dark grey).
        case theme
        /// No background rectangle.
        case transparent
        /// A CSS colour, e.g. `#fafafa` or `ivory`.
        case color(String)
    }

    public var theme: Theme
    public var background: Background
    /// Pixels per frame. `nil`: 32, widened (up to 84) when neighbouring labels need the room,
    /// narrowed (down to 22) so that the diagram fits 800 pixels, or for a longer test (down
    /// to 14) so that its axis fits 2400 pixels. Operator text never widens frames: it wraps.
    public var frameWidth: Double?
    /// Squeeze stretches of more than `TimeScale.longestDrawnGap` (12) frames in which nothing happens.
    public var compressIdleTime: Bool
    /// No title, subtitle or time ruler: only the lanes, the legend and any differences, for
    /// embedding under a caption of one's own (the `<title>` element stays, for screen readers).
    public var bare: Bool
    /// The document's `width` and `height` are the drawing's times this (its `viewBox` stays):
    /// `2` for a sharp PNG on a high-density screen.
    public var scale: Double

    public init(theme: Theme = .light, background: Background = .theme, frameWidth: Double? = nil, compressIdleTime: Bool = true,
                bare: Bool = false, scale: Double = 1) {
        self.theme = theme
        self.background = background
        self.frameWidth = frameWidth
        self.compressIdleTime = compressIdleTime
        self.bare = bare
        self.scale = scale
    }
}

/// SVG marble diagrams of tests, drawn from what the simulation produced.
public enum MarbleDiagram {
    /// The diagram of one test as a standalone SVG document.
    ///
    /// - Parameters:
    ///   - test: the test's report from `MarbleRunner`.
    ///   - path: the `.marble` file, shown in the header.
    ///   - values: the test's `values` entries (file level, then test level), so that named
    ///     values can be drawn as their literals or explained in a legend.
    public static func svg(for test: TestReport, path: String, values: [NamedValue] = [], options: DiagramOptions = DiagramOptions()) -> String {
        let (test, omissions) = DrawingBounds.bounded(test)
        var builder = SceneBuilder(test: test)
        let scene = builder.build()
        var renderer = Renderer(test: test, path: path, scene: scene, values: values, options: options)
        renderer.omissions = omissions
        return renderer.render()
    }

    /// `debounce-at-completion--debounce-publishes-the-last-value.svg`: the file's name without
    /// its extension, two hyphens, the test's name in lowercase words joined by hyphens.
    public static func fileName(path: String, test: String) -> String {
        var stem = String(path.split(separator: "/").last ?? "")
        if stem.hasSuffix(".marble") { stem.removeLast(".marble".count) }
        let fileSlug = slug(stem)
        let testSlug = slug(test)
        return (fileSlug.isEmpty ? "diagram" : fileSlug) + "--" + (testSlug.isEmpty ? "test" : testSlug) + ".svg"
    }

    /// Lowercase ASCII letters and digits, runs of anything else as one hyphen, at most 80
    /// characters (cut at a hyphen when possible).
    public static func slug(_ text: String) -> String {
        var result = ""
        var pendingHyphen = false
        for scalar in text.unicodeScalars {
            let character = Character(scalar)
            if scalar.isASCII, character.isLetter || character.isNumber {
                if pendingHyphen, !result.isEmpty { result += "-" }
                pendingHyphen = false
                result += character.lowercased()
            } else {
                pendingHyphen = true
            }
        }
        let limit = 80
        guard result.count > limit else { return result }
        let cut = result.prefix(limit)
        if let hyphen = cut.lastIndex(of: "-"), cut.distance(from: cut.startIndex, to: hyphen) > limit / 2 {
            return String(cut[..<hyphen])
        }
        return String(cut)
    }
}
