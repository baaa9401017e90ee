import Foundation
@testable import MarbleDiagram
import MarbleSpec
import Testing

/// Geometric invariants of every diagram of the catalogue, read back from the SVG text: what a
/// reader sees must be where the test says, and nothing may hide anything else.
@Suite("diagram geometry")
struct GeometryTests {
    @Test func everyDiagramOfTheCatalogueKeepsTheGeometricInvariants() throws {
        var count = 0
        var problems: [String] = []
        for report in CatalogueDrawingTests.reports {
            let path = report.path
            for test in report.tests {
                let name = "\(path.split(separator: "/").suffix(2).joined(separator: "/")) \"\(test.name)\""
                let values = test.values.map { NamedValue(name: $0.name, literal: $0.literal) }
                let relative = String(path.dropFirst(packageRoot.path.count + 1))
                let geometry = try Geometry(MarbleDiagram.svg(for: test, path: relative, values: values))
                problems += geometry.problems(lastFrame: max(test.endFrame - 1, 0)).map { "\(name): \($0)" }
                count += 1
            }
        }
        #expect(count > 600)
        #expect(problems.isEmpty, Comment(rawValue: "\(problems.count) problems:\n" + problems.prefix(300).joined(separator: "\n")))
    }

    /// The mismatch view of every diagram: each test made to fail by expecting its events one
    /// frame later than they came, a difference at each frame where that differs.
    @Test func everyDiagramOfTheCatalogueKeepsThemInTheMismatchViewToo() throws {
        var problems: [String] = []
        var count = 0
        for report in CatalogueDrawingTests.reports {
            let path = report.path
            for var test in report.tests {
                for index in test.checks.indices where test.checks[index].kind == .events {
                    let actual = test.checks[index].actual
                    test.checks[index].expected = actual.map { RenderedEvent(frame: $0.frame + 1, event: $0.event) }
                    test.checks[index].differences = Set(actual.map(\.frame)).sorted().prefix(3).map {
                        Difference(frame: $0, sentence: "expected nothing, got an event")
                    }
                }
                guard test.outcome == .failed else { continue }
                count += 1
                let relative = String(path.dropFirst(packageRoot.path.count + 1))
                let values = test.values.map { NamedValue(name: $0.name, literal: $0.literal) }
                let geometry = try Geometry(MarbleDiagram.svg(for: test, path: relative, values: values))
                problems += geometry.problems(lastFrame: max(test.endFrame - 1, 0)).map { "\(relative) \"\(test.name)\": \($0)" }
            }
        }
        #expect(count > 550)
        #expect(problems.isEmpty, Comment(rawValue: "\(problems.count) problems:\n" + problems.prefix(300).joined(separator: "\n")))
    }

    @Test func theCheckerFindsOverlappingMarblesTextOutsideItsBoxAndMarblesOffTheirLane() throws {
        // A hand-made picture with each fault once, so that the invariants above can fail.
        let svg = """
            <svg xmlns="http://www.w3.org/2000/svg" width="300" height="120" viewBox="0 0 300 120" font-family="sans-serif">
            <g class="stream"><line class="axis" x1="10" y1="50" x2="290" y2="50"/>
            <g class="value" data-frame="1"><circle cx="40" cy="50" r="10"/><text x="40" y="54" text-anchor="middle" font-size="13">a</text></g>
            <g class="value" data-frame="2"><circle cx="52" cy="50" r="10"/><text x="52" y="54" text-anchor="middle" font-size="13">abcdef</text></g>
            <g class="value" data-frame="3"><circle cx="90" cy="60" r="10"/><text x="90" y="64" text-anchor="middle" font-size="13">c</text></g>
            <line class="finish" data-frame="3" x1="96" y1="40" x2="96" y2="60"/></g>
            <text x="280" y="100" font-size="12">far too long for the canvas</text>
            <text x="20" y="20" font-size="12">one label</text><text x="30" y="22" font-size="12">another</text>
            <text x="85" y="64" font-size="11">boom</text>
            <g class="legend"><circle cx="20" cy="105" r="9"/><text x="35" y="109" font-size="12" font-family="monospace">a = "far too long"</text><circle cx="70" cy="105" r="9"/></g>
            </svg>
            """
        let problems = try Geometry(svg).problems(lastFrame: 3)
        #expect(problems.contains { $0.hasPrefix("marbles overlap") })
        #expect(problems.contains { $0.hasPrefix("text leaves its marble") })
        #expect(problems.contains { $0.hasPrefix("marble off its lane") })
        #expect(problems.contains { $0.hasPrefix("events of frame 3 at different x") })
        #expect(problems.contains { $0.hasPrefix("text leaves the canvas") })
        #expect(problems.contains { $0.hasPrefix("texts overlap: \"one label\" and \"another\"") })
        #expect(problems.contains { $0.hasPrefix("text on a marble: \"boom\"") })
        #expect(problems.contains { $0.hasPrefix("legend text runs into a symbol: \"a = \"far too long\"\"") })
    }

    /// Every value the run says a subject dropped (sent while a subscription had no demand) has
    /// a ghosted mark, at its frame, saying why — whichever shape of diagram it is in: several
    /// operators reading one subject, an alias, inner subscriptions, the test's subscriber.
    @Test func everyValueTheRunDroppedHasAGhostMarkInItsDiagram() throws {
        var problems: [String] = []
        var drops = 0
        for report in CatalogueDrawingTests.reports {
            let path = report.path
            for test in report.tests {
                let relative = String(path.dropFirst(packageRoot.path.count + 1))
                let values = test.values.map { NamedValue(name: $0.name, literal: $0.literal) }
                let svg = MarbleDiagram.svg(for: test, path: relative, values: values)
                drops += Self.drops(in: test).count
                problems += try Self.undrawnDrops(test, svg: svg, values: values).map { "\(relative) \"\(test.name)\": \($0)" }
            }
        }
        // The catalogue drops values in several shapes (see docs/semantics.md, subjects).
        #expect(drops >= 20)
        #expect(problems.isEmpty, Comment(rawValue: "\(problems.count) problems:\n" + problems.prefix(300).joined(separator: "\n")))
    }

    @Test func theDropCheckerFindsADroppedValueWithoutAMark() throws {
        let source = """
            test "two operators read one subject; one of them asks for one value"
              subject s = PassthroughSubject()
              send    s   -a-b-c-|
              let one = s.map { $0 }
              let all = s.filter { _ in true }
              demand  one 1------
              expect  one -a-----|
              expect  all -a-b-c-|
            """
        let test = try report(source)
        #expect(!Self.drops(in: test).isEmpty)
        let drawn = MarbleDiagram.svg(for: test, path: "diagram.marble", values: [])
        #expect(try Self.undrawnDrops(test, svg: drawn, values: []).isEmpty)
        // `all` got b and c, so they stay solid on the subject's arrow; their ghosts say who lost them.
        let subject = try #require(try parseXML(drawn).classed("stream").first)
        #expect(subject.classed("value").compactMap(\.title) == ["\"a\" at 1ms (frame 1)", "\"b\" at 3ms (frame 3)", "\"c\" at 5ms (frame 5)"])
        #expect(subject.classed("value dropped").compactMap(\.title).allSatisfy { $0.hasSuffix("dropped: subscription 1 (from frame 0) had no demand") })
        #expect(subject.classed("value dropped").count == 2)
        // The same picture without its ghosts fails the check.
        let stripped = drawn.replacingOccurrences(of: "class=\"value dropped\"", with: "class=\"value\"")
        #expect(try !Self.undrawnDrops(test, svg: stripped, values: []).isEmpty)
    }

    /// The values the run dropped, once per frame and value (several subscriptions may lose one value).
    static func drops(in test: TestReport) -> Set<RenderedEvent> {
        var result: Set<RenderedEvent> = []
        for stream in test.streams {
            for record in stream.subscriptions + stream.innerSubscriptions.flatMap(\.subscriptions) { result.formUnion(record.dropped) }
        }
        return result
    }

    /// The dropped values of a run that its diagram shows no ghosted mark for.
    static func undrawnDrops(_ test: TestReport, svg: String, values: [NamedValue]) throws -> [String] {
        let root = try parseXML(svg)
        let marks = root.all.filter { $0.name == "g" && $0.attributes["class"] == "value dropped" }
        let tokens = test.streams.flatMap { $0.subscriptions.flatMap(\.dropped) }.compactMap { event -> String? in
            if case .value(let token) = event.event { return token } else { return nil }
        }
        let labels = ValueLabels(values: values, tokens: tokens)
        var reasons: [RenderedEvent: DropReason] = [:]
        for stream in test.streams {
            for record in stream.subscriptions + stream.innerSubscriptions.flatMap(\.subscriptions) { reasons.merge(record.dropReasons) { first, _ in first } }
        }
        return drops(in: test).sorted { ($0.frame, "\($0.event)") < ($1.frame, "\($1.event)") }.compactMap { drop in
            guard case .value(let token) = drop.event else { return nil }
            // The mark says why: offered without demand, or held by a CurrentValueSubject until replaced or completed.
            let (title, why, when): (String, String, String)
            switch reasons[drop] ?? .noDemand {
            case .noDemand: (title, why, when) = ("\(labels.tooltip(token)) sent at ", "dropped: ", "")
            case .replaced(let newer, let frame):
                (title, why, when) = ("\(labels.tooltip(token)) held from ", "dropped: replaced by \(labels.tooltip(newer)) at ", "(frame \(frame)) before")
            case .completed(let frame): (title, why, when) = ("\(labels.tooltip(token)) held from ", "dropped: the subject completed at ", "(frame \(frame)) before")
            }
            let found = marks.contains {
                $0.attributes["data-frame"] == String(drop.frame) && ($0.title ?? "").hasPrefix(title) && ($0.title ?? "").contains(why)
                    && (when.isEmpty || ($0.title ?? "").contains(when))
            }
            return found ? nil : "dropped \(token) at frame \(drop.frame) has no ghost mark saying \"\(why)\""
        }
    }
}

/// The shapes of one diagram that the invariants talk about.
struct Geometry {
    struct Marble {
        var frame: Int?
        var cx: Double
        var cy: Double
        var width: Double
        var height: Double
        var circle: Bool
        var label: TextBox?
        /// The group the marble is drawn in (its stack lines are there too), and its lane's arrow group.
        var container: Node?
        var lane: Node?
    }

    struct TextBox {
        var text: String
        var left: Double
        var right: Double
        var top: Double
        var bottom: Double
    }

    let root: Node
    let width: Double
    let height: Double

    init(_ text: String) throws {
        root = try parseXML(text)
        width = root.number("width") ?? 0
        height = root.number("height") ?? 0
    }

    /// Everything wrong with the diagram, in words.
    func problems(lastFrame: Int) -> [String] {
        var problems: [String] = []
        let marbles = self.marbles()
        // No two marbles overlap.
        for (i, a) in marbles.enumerated() {
            for b in marbles[(i + 1)...] where Self.overlap(a, b) {
                problems.append("marbles overlap at (\(a.cx), \(a.cy)) and (\(b.cx), \(b.cy))")
            }
        }
        // No text leaves its marble, its box or the canvas.
        for marble in marbles {
            guard let label = marble.label else { continue }
            if label.left < marble.cx - marble.width / 2 + 1 || label.right > marble.cx + marble.width / 2 - 1 {
                problems.append("text leaves its marble: \"\(label.text)\" at (\(marble.cx), \(marble.cy))")
            }
        }
        for box in root.all where box.name == "g" && (box.attributes["class"] ?? "").hasPrefix("box") {
            guard let rect = box.children.first(where: { $0.name == "rect" }), let x = rect.number("x"), let y = rect.number("y"),
                  let w = rect.number("width"), let h = rect.number("height") else { continue }
            for text in box.elements("text") {
                let bounds = Self.bounds(of: text)
                if bounds.left < x + 2 || bounds.right > x + w - 2 || bounds.top < y || bounds.bottom > y + h {
                    problems.append("text leaves its box: \"\(bounds.text)\"")
                }
            }
        }
        for text in root.elements("text") {
            let bounds = Self.bounds(of: text)
            if bounds.left < 0 || bounds.right > width || bounds.top < 0 || bounds.bottom > height {
                problems.append("text leaves the canvas: \"\(bounds.text)\" (\(Int(bounds.left))…\(Int(bounds.right)) of \(Int(width)))")
            }
        }
        // No two texts overlap (the header, labels, notes, messages, the ruler, the legend).
        let texts = root.elements("text").filter { $0.parent?.attributes["class"]?.hasPrefix("value") != true }.map(Self.bounds(of:))
        for (i, a) in texts.enumerated() {
            for b in texts[(i + 1)...] where a.left < b.right - 1 && b.left < a.right - 1 && a.top < b.bottom - 1 && b.top < a.bottom - 1 {
                problems.append("texts overlap: \"\(a.text)\" and \"\(b.text)\"")
            }
        }
        // No legend text runs into a symbol of its row (the next entry's circle or mark).
        for legend in root.all where legend.attributes["class"] == "legend" {
            let symbols = legend.children.filter { $0.name == "circle" }.compactMap { circle -> (cx: Double, cy: Double, r: Double)? in
                guard let cx = circle.attributes["cx"].flatMap(Double.init), let cy = circle.attributes["cy"].flatMap(Double.init),
                      let r = circle.attributes["r"].flatMap(Double.init) else { return nil }
                return (cx, cy, r)
            }
            for text in legend.children where text.name == "text" {
                let bounds = Self.bounds(of: text)
                for symbol in symbols where bounds.left < symbol.cx + symbol.r - 1 && symbol.cx - symbol.r < bounds.right - 1
                    && bounds.top < symbol.cy + symbol.r - 1 && symbol.cy - symbol.r < bounds.bottom - 1 {
                    problems.append("legend text runs into a symbol: \"\(bounds.text)\" at x \(symbol.cx)")
                }
            }
        }
        // No text lies on a marble but its own label.
        for text in texts {
            for marble in marbles where text.left < marble.cx + marble.width / 2 - 1 && marble.cx - marble.width / 2 < text.right - 1
                && text.top < marble.cy + marble.height / 2 - 1 && marble.cy - marble.height / 2 < text.bottom - 1 {
                problems.append("text on a marble: \"\(text.text)\" at (\(marble.cx), \(marble.cy))")
            }
        }
        // No marble leaves the canvas or reaches into an operator box.
        let boxes = root.all.filter { $0.name == "g" && ($0.attributes["class"] ?? "").hasPrefix("box") }.compactMap { box -> (x: Double, y: Double, w: Double, h: Double)? in
            guard let rect = box.children.first(where: { $0.name == "rect" }), let x = rect.number("x"), let y = rect.number("y"),
                  let w = rect.number("width"), let h = rect.number("height") else { return nil }
            return (x, y, w, h)
        }
        for marble in marbles {
            let left = marble.cx - marble.width / 2, right = marble.cx + marble.width / 2
            let top = marble.cy - marble.height / 2, bottom = marble.cy + marble.height / 2
            if left < 0 || right > width || top < 0 || bottom > height { problems.append("marble leaves the canvas at (\(marble.cx), \(marble.cy))") }
            if boxes.contains(where: { left < $0.x + $0.w && $0.x < right && top < $0.y + $0.h && $0.y < bottom }) {
                problems.append("marble in an operator box at (\(marble.cx), \(marble.cy))")
            }
        }
        // No marble lies off its lane: on its arrow's level part, or stacked under it.
        for marble in marbles {
            guard let lane = marble.lane, let axis = Self.axis(of: lane) else {
                problems.append("marble off its lane: (\(marble.cx), \(marble.cy)) has no arrow")
                continue
            }
            let stacked = (marble.container?.children ?? []).contains { node in
                node.attributes["class"] == "stack" && abs((node.number("x1") ?? -1) - marble.cx) < 0.01
                    && abs((node.number("y1") ?? -1) - axis.y) < 0.01 && (node.number("y2") ?? 0) >= marble.cy - 0.01
            }
            let onLevel = abs(marble.cy - axis.y) < 0.01 || stacked
            if !onLevel || marble.cx < axis.from - 0.01 || marble.cx > axis.to + 0.01 {
                problems.append("marble off its lane: (\(marble.cx), \(marble.cy)) on an arrow at y \(axis.y) from x \(axis.from) to \(axis.to)")
            }
        }
        // No inner arrow's drop (`M x top V level H end`) passes through a marble of a row it crosses.
        for instance in root.all where instance.name == "g" && instance.attributes["class"] == "instance" {
            guard let path = instance.children.first(where: { $0.attributes["class"] == "axis" }) else { continue }
            let numbers = Self.numbers(in: path.attributes["d"] ?? "")
            guard numbers.count == 4 else { continue }
            let (x, top, level) = (numbers[0], numbers[1], numbers[2])
            for marble in marbles where abs(marble.cx - x) < marble.width / 2 - 0.5 && marble.cy > top + 0.5 && marble.cy < level - 0.5 {
                problems.append("an inner arrow's drop at x \(x) passes through the marble at (\(marble.cx), \(marble.cy))")
            }
        }
        // Events of one frame share an x, so bars of completions at one frame align.
        var xs: [Int: [Double]] = [:]
        for marble in marbles { if let frame = marble.frame { xs[frame, default: []].append(marble.cx) } }
        for node in root.all {
            guard let frame = node.attributes["data-frame"].flatMap(Int.init), let x = Self.x(ofMark: node) else { continue }
            xs[frame, default: []].append(x)
        }
        for (frame, positions) in xs.sorted(by: { $0.key < $1.key }) {
            if let low = positions.min(), let high = positions.max(), high - low > 0.01 {
                problems.append("events of frame \(frame) at different x: \(Set(positions).sorted())")
            }
        }
        // Distinct values are as far apart in hue as `Theme.swift` promises.
        let fills = Set(root.all.filter { ($0.attributes["class"] ?? "").hasPrefix("value") && $0.parent?.attributes["class"] != "legend" }
            .compactMap { $0.children.last { $0.name == "circle" || $0.name == "rect" }?.attributes["fill"] })
        let hues = fills.compactMap(Self.hue(ofHex:))
        let promised = ValueColor.promisedSeparation(count: hues.count)
        if ValueColor.smallestSeparation(hues) < promised - 2 {
            problems.append("\(hues.count) values with hues only \(ValueColor.smallestSeparation(hues))° apart (promised \(promised)°)")
        }
        // Width: a test of 20 frames fits a README column; nothing is wider than a long test's
        // axis allows; and the width is the content's, not a blank margin.
        if lastFrame < 20, width > 800 { problems.append("a test of \(lastFrame + 1) frames is \(width) px wide") }
        if width > 2800 { problems.append("\(width) px wide") }
        let right = contentRight()
        if width - right > 0.3 * width { problems.append("\(Int(width - right)) of \(Int(width)) px blank on the right") }
        return problems
    }

    /// The hue in degrees of `#rrggbb`.
    static func hue(ofHex text: String) -> Int? {
        guard text.count == 7, text.hasPrefix("#"), let value = Int(text.dropFirst(), radix: 16) else { return nil }
        let r = Double((value >> 16) & 255) / 255, g = Double((value >> 8) & 255) / 255, b = Double(value & 255) / 255
        let high = max(r, g, b), low = min(r, g, b), chroma = high - low
        guard chroma > 0 else { return 0 }
        var hue: Double
        if high == r { hue = ((g - b) / chroma).truncatingRemainder(dividingBy: 6) } else if high == g { hue = (b - r) / chroma + 2 } else { hue = (r - g) / chroma + 4 }
        hue *= 60
        if hue < 0 { hue += 360 }
        return Int(hue.rounded()) % 360
    }

    func marbles() -> [Marble] {
        var result: [Marble] = []
        for group in root.all where group.name == "g" && (group.attributes["class"] ?? "").split(separator: " ").first == "value" {
            guard let shape = group.children.last(where: { $0.name == "circle" || $0.name == "rect" }) else { continue }
            var marble: Marble
            if shape.name == "circle" {
                let r = shape.number("r") ?? 0
                marble = Marble(cx: shape.number("cx") ?? 0, cy: shape.number("cy") ?? 0, width: 2 * r, height: 2 * r, circle: true)
            } else {
                let w = shape.number("width") ?? 0, h = shape.number("height") ?? 0
                marble = Marble(cx: (shape.number("x") ?? 0) + w / 2, cy: (shape.number("y") ?? 0) + h / 2, width: w, height: h, circle: false)
            }
            marble.frame = group.attributes["data-frame"].flatMap(Int.init)
            marble.label = group.children.first { $0.name == "text" }.map(Self.bounds(of:))
            var ancestor = group.parent
            while let node = ancestor, !["stream", "expected", "instance-marks"].contains(node.attributes["class"] ?? "") { ancestor = node.parent }
            if let marks = ancestor, marks.attributes["class"] == "instance-marks" {
                // An inner arrow's marks are drawn after every arrow of its band, in a group of the same row.
                ancestor = marks.parent?.children.first { $0.attributes["class"] == "instance" && $0.attributes["data-row"] == marks.attributes["data-row"] }
            }
            marble.lane = ancestor
            marble.container = group.parent
            if group.parent?.attributes["class"] != "legend" { result.append(marble) }
        }
        return result
    }

    static func overlap(_ a: Marble, _ b: Marble) -> Bool {
        let tolerance = 0.5
        if a.circle && b.circle {
            let distance = ((a.cx - b.cx) * (a.cx - b.cx) + (a.cy - b.cy) * (a.cy - b.cy)).squareRoot()
            return distance < (a.width + b.width) / 2 - tolerance
        }
        return abs(a.cx - b.cx) < (a.width + b.width) / 2 - tolerance && abs(a.cy - b.cy) < (a.height + b.height) / 2 - tolerance
    }

    /// The level part of a lane's arrow: a line, or the last horizontal run of an inner arrow's path.
    static func axis(of lane: Node) -> (y: Double, from: Double, to: Double)? {
        guard let axis = lane.children.first(where: { $0.attributes["class"] == "axis" }) else { return nil }
        if axis.name == "line", let y = axis.number("y1"), let from = axis.number("x1"), let to = axis.number("x2") { return (y, from, to) }
        // `M x y V level H end`
        let numbers = Self.numbers(in: axis.attributes["d"] ?? "")
        guard numbers.count == 4 else { return nil }
        return (numbers[2], numbers[0], numbers[3])
    }

    static func numbers(in path: String) -> [Double] {
        path.split(whereSeparator: { !($0.isNumber || $0 == "." || $0 == "-") }).compactMap { Double($0) }
    }

    /// The x where a mark with a `data-frame` stands.
    static func x(ofMark node: Node) -> Double? {
        let kind = node.attributes["class"] ?? ""
        switch kind {
        case "finish": return node.number("x1")
        case "cancel":
            let numbers = numbers(in: node.attributes["d"] ?? "")
            return numbers.count >= 4 ? (numbers[0] + numbers[2]) / 2 : nil
        case "failure":
            guard let path = node.children.first(where: { $0.name == "path" }) else { return nil }
            let numbers = numbers(in: path.attributes["d"] ?? "")
            return numbers.count >= 4 ? (numbers[0] + numbers[2]) / 2 : nil
        case "request":
            guard let rect = node.children.first(where: { $0.name == "rect" }), let x = rect.number("x"), let w = rect.number("width") else { return nil }
            return x + w / 2
        case "connection":
            return node.children.first { $0.name == "line" }?.number("x1")
        default: return nil
        }
    }

    /// An attribute of the node or the nearest ancestor that sets it.
    static func inherited(_ name: String, _ node: Node) -> String? {
        var current: Node? = node
        while let item = current {
            if let value = item.attributes[name] { return value }
            current = item.parent
        }
        return nil
    }

    /// Where a text's glyphs can reach, from the measured width table of the fonts it names.
    static func bounds(of text: Node) -> TextBox {
        let content = text.allText
        let size = inherited("font-size", text).flatMap(Double.init) ?? 16
        let monospace = inherited("font-family", text)?.hasSuffix("monospace") ?? false
        let bold = (inherited("font-weight", text).flatMap(Double.init) ?? 400) >= 600
        let width = monospace ? TextMetrics.monospace(content, size: size) : TextMetrics.sans(content, size: size, bold: bold)
        let x = text.number("x") ?? 0
        let y = text.number("y") ?? 0
        let left: Double
        switch inherited("text-anchor", text) {
        case "middle": left = x - width / 2
        case "end": left = x - width
        default: left = x
        }
        // Ascenders reach about 0.76 em above the baseline in these fonts, descenders 0.24 em below.
        return TextBox(text: content, left: left, right: left + width, top: y - 0.76 * size, bottom: y + 0.24 * size)
    }

    /// The rightmost point drawn (but the background).
    func contentRight() -> Double {
        var right = 0.0
        for node in root.all {
            switch node.name {
            case "line": right = max(right, node.number("x1") ?? 0, node.number("x2") ?? 0)
            case "rect": if node.attributes["width"] != "100%" { right = max(right, (node.number("x") ?? 0) + (node.number("width") ?? 0)) }
            case "circle": right = max(right, (node.number("cx") ?? 0) + (node.number("r") ?? 0))
            case "text": right = max(right, Self.bounds(of: node).right)
            default: break
            }
        }
        return right
    }
}
