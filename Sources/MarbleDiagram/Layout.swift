/// Every measure of a diagram's layout, in pixels (SVG user units) unless it says otherwise:
/// the renderer's maths uses these names, never bare numbers, so that a measure is changed in
/// one place and its reason is written beside it. (How marks look — stroke widths, dash
/// patterns, opacities, colours — is style, kept with the elements that use it and the theme.)
enum Layout {
    // MARK: Canvas

    /// Margin around everything on the canvas.
    static let padding = 20.0
    /// The canvas bottom is this much less than `padding` below the last line: the last line's
    /// baseline already leaves room under it.
    static let bottomTrim = 4.0

    // MARK: Frames and the time axis

    /// Frame width with `--frame-width` absent and nothing to widen or narrow it.
    static let defaultFrameWidth = 32.0
    /// The widest frame chosen automatically (for labels of neighbouring marbles).
    static let widestAutomaticFrame = 84.0
    /// The narrowest frame a long test is squeezed to, so that marbles stay distinguishable.
    static let narrowestAutomaticFrame = 14.0
    /// A long test's axis is narrowed to this length (then frames stop narrowing at `narrowestAutomaticFrame`).
    static let widestAutomaticAxis = 2400.0
    /// A diagram aims to fit this width (a README column on GitHub is about 830 pixels): frames
    /// narrow (down to `narrowestFittingFrame`) so that a test of 20 frames fits.
    static let targetWidth = 800.0
    static let narrowestFittingFrame = 22.0
    /// Frame widths are rounded down to a multiple of this, so that x positions print short.
    static let frameWidthStep = 0.25
    /// Marbles at most this many frames apart widen the frames so that their labels do not touch.
    static let neighbourFrames = 4
    /// The axis starts this many frames before frame 0 and ends this many after the last one.
    static let axisLead = 0.75
    static let axisTail = 0.9
    static let arrowheadLength = 9.0
    /// Half the arrowhead's base (it is `arrowheadLength` long).
    static let arrowheadHalfWidth = 4.5

    // MARK: Marbles

    /// The largest and smallest marble radius; between them a marble is as wide as its frame
    /// less `marbleSpacing`.
    static let largestRadius = 15.0
    static let smallestRadius = 6.0
    /// Space left between marbles of neighbouring frames.
    static let marbleSpacing = 4.0
    /// Space between marbles of one frame stacked downwards.
    static let stackGap = 4.0
    /// Space between two neighbouring marbles' labels when frames are widened for them.
    static let labelGap = 6.0
    /// Room a marble's label leaves to its neighbours' before it is cut short with `…`.
    static let labelRoomGap = 4.0
    /// Horizontal padding inside a pill (a marble widened for its label), both sides together.
    static let pillPadding = 12.0
    /// Room beyond the first and last frame's marbles, so that a wide pill stays off the labels and the tip.
    static let edgeMarbleMargin = 6.0
    /// Value labels use `fullValueFont` from this radius up; below it the font shrinks with the
    /// marble down to `smallestValueFont`.
    static let fullValueFontRadius = 12.0
    static let fullValueFont = 13.0
    static let smallestValueFont = 8.0
    /// A value label's baseline sits this many ems below the marble's centre (centres it optically).
    static let valueBaselineShift = 0.35
    /// How far a completion or failure drawn behind a marble reaches beyond it, up and down.
    static let terminalOverhang = 6.0
    /// A failure's cross on an empty arrow: its arm, at most `crossArm` and otherwise this share of the radius.
    static let crossArm = 7.5
    static let crossArmPerRadius = 0.55
    /// A failure's cross behind marbles: this share of the completion bar's half height.
    static let crossArmPerOverhang = 0.8
    /// A failure's message: its baseline below the lowest marble of the frame.
    static let failureMessageDrop = 12.0
    static let messageFont = 11.0
    /// A ring of background colour this much wider than a mark's stroke lets a crossing line stop short of it.
    static let haloWidth = 4.0
    /// A cancellation's slash: half its height, and its lean as a share of that.
    static let cutHalfLength = 9.0
    static let cancelLean = 0.55
    /// The dot where a subscription starts (brackets and inner arrows).
    static let subscribeDotRadius = 3.0

    // MARK: Lanes

    /// Space between lanes, and above a lane's marbles.
    static let laneGap = 10.0
    /// Top of a lane to its arrow when it draws no marbles.
    static let emptyAxisOffset = 16.0
    /// Room under marbles for a failure's message.
    static let messageHeight = 14.0
    /// Room at the bottom of a highlighted lane for the numbered badges.
    static let differenceBadgeRoom = 14.0
    /// The narrowest label column, and the room it adds to its widest label (half of it between
    /// label and arrow, `labelToAxis`).
    static let narrowestLabelColumn = 48.0
    static let labelColumnMargin = 24.0
    static let labelToAxis = 12.0
    static let labelFont = 13.0
    static let sublabelFont = 11.0
    /// Baselines of a lane's label and sublabel below its arrow.
    static let labelBaseline = 4.5
    static let sublabelBaseline = 19.0
    /// A note on an arrow ("not observed"): past the arrowhead by `noteGap` beside marbles, else
    /// `noteAboveAxis` above the middle of the empty arrow.
    static let noteFont = 11.0
    static let noteGap = 6.0
    static let noteBaseline = 4.0
    static let noteAboveAxis = 7.0
    /// An axis break: half the width and half the height of its two slashes.
    static let breakHalfWidth = 6.0
    static let breakHalfHeight = 7.0

    // MARK: Subscriptions, demand, connections

    /// Distance between rows of subscription brackets (and from the marbles to the first row).
    static let spanRowStep = 10.0
    /// Room under the last row of brackets.
    static let spanBottomGap = 4.0
    /// A subscription that ends where it starts is drawn this long.
    static let zeroSpanLength = 5.0
    /// Half the height of the bar or slash that ends a bracket.
    static let spanEndHalf = 4.5
    static let spanCancelHalf = 5.0
    /// A `×2` count after a bracket's end, and its baseline below the bracket.
    static let spanCountGap = 6.0
    static let spanCountBaseline = 3.5
    static let spanCountFont = 10.0
    /// Room under the brackets for a connection's line and its `connect` word; its line runs
    /// `connectionAxisFromBottom` above the lane's bottom.
    static let connectionRowHeight = 24.0
    static let connectionAxisFromBottom = 16.0
    /// Half the diagonal of a `connect` diamond (and of the slash that ends a connection).
    static let connectMarkHalf = 6.0
    /// The `connect` word: right of the diamond, its baseline below the line.
    static let connectLabelGap = 9.0
    static let connectLabelBaseline = 13.0
    static let connectLabelFont = 10.0
    /// A requests lane (`demand`, `requested`): its arrow below the lane's top, its height, and
    /// the step between badges of one frame.
    static let requestsAxisOffset = 16.0
    static let requestsHeight = 40.0
    static let requestRowStep = 20.0
    /// A requests lane's label sits this much above its badges' centre line.
    static let requestsLabelRaise = 4.0
    /// A demand badge: its height, its narrowest width, the padding around its text, the corner
    /// radius of a subscriber's (a pill) and of an upstream's (a tag), and its text.
    static let badgeHeight = 16.0
    static let narrowestBadge = 18.0
    static let badgePadding = 10.0
    static let demandBadgeCorner = 8.0
    static let requestBadgeCorner = 3.0
    static let badgeFont = 11.0
    static let badgeBaseline = 4.0
    /// A ghosted `.subscriptions` lane: its height, its label's line and its brackets' line below the top.
    static let expectedSpansHeight = 28.0
    static let expectedSpansLabel = 10.0
    static let expectedSpansRow = 12.0

    // MARK: Operator boxes, taps and inner bands

    /// Inside an operator box: above and below its text.
    static let boxPadding = 12.0
    /// Top of a lane to its box or to the top of its inner band (the box is `2 * bandInset`
    /// shorter than its lane: the gap above and below it).
    static let bandInset = 6.0
    static let boxFont = 13.0
    static let boxLineHeight = 18.0
    /// A box line's baseline below the top of its line.
    static let boxBaseline = 13.5
    /// Text inside a box keeps this much from its sides, both sides together.
    static let boxTextInset = 16.0
    /// Box text wraps at no fewer characters than this, however narrow the axis.
    static let narrowestBoxLine = 24
    static let boxCorner = 4.0
    /// The test subscriber's box ("test subscriber"), in sans-serif italics.
    static let subscriberFont = 12.0
    /// Taps: the gutter column nearest the arrows, the distance between columns, how far into
    /// its box a tap turns (at most), and the step between several taps into one box.
    static let tapGutterInset = 4.0
    static let tapSpacing = 5.0
    static let tapEntryDepth = 12.0
    static let tapEntryStep = 4.0
    /// Inner bands: an arrow's first row runs `innerKneeDrop` below the band's marbles' top, the
    /// rows `innerRowGap` apart (beyond a marble's height), and a failure's message takes `innerMessageHeight`.
    static let innerKneeDrop = 12.0
    static let innerRowGap = 10.0
    static let innerMessageHeight = 16.0
    /// An inner band's bottom is this much more than `laneGap` under its last row.
    static let innerBottomGap = 2.0

    // MARK: Header, ruler, legend, footer

    static let titleFont = 15.0
    /// A diagram narrower than this widens to it for a title that would otherwise wrap.
    static let narrowestTitle = 440.0
    static let titleLineHeight = 19.0
    /// The first title line's baseline below `padding`.
    static let titleBaseline = 15.0
    static let subtitleFont = 12.0
    static let subtitleLineHeight = 16.0
    /// Space under the header before the first lane.
    static let headerGap = 12.0
    /// A title wrapped into lines is balanced until its widths differ by less than this.
    static let titleBalanceTolerance = 4.0
    static let rulerFont = 10.0
    /// Space between the last lane and the ruler; more when breaks label their squeezed time above it.
    static let rulerGap = 6.0
    static let rulerGapWithBreaks = 16.0
    /// The ruler's height (ticks and time labels).
    static let rulerHeight = 24.0
    /// The ruler's minor ticks, major ticks and labels below its line; minor ticks need frames this wide.
    static let minorTickLength = 3.0
    static let majorTickLength = 6.0
    static let rulerLabelBaseline = 17.0
    static let narrowestTickedFrame = 8.0
    /// A break's `+time` label above the ruler.
    static let breakLabelRaise = 8.0
    /// Time labels are at least this far apart (a round step is chosen for it), and keep `rulerLabelGap` to a break's label.
    static let rulerLabelSpacing = 56.0
    /// The frames between time labels: the first round step that keeps them `rulerLabelSpacing` apart.
    static let rulerSteps = [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000, 10000, 20000, 50000, 100_000, 1_000_000]
    static let rulerLabelMargin = 5.0
    static let rulerLabelGap = 4.0
    /// Legend and footer: the space above each, the height of a row or line, and the baseline in it.
    static let legendTopGap = 8.0
    static let legendRowHeight = 22.0
    static let legendBaseline = 11.0
    static let legendFont = 12.0
    /// A legend entry: its symbol's column, and the space after its text.
    static let legendSymbolWidth = 24.0
    static let legendGap = 20.0
    static let footerTopGap = 8.0
    static let footerLineHeight = 18.0
    static let footerBaseline = 13.0
    static let footerFont = 12.0
    /// Differences and errors under the diagram wrap at no less than this.
    static let narrowestFooter = 380.0
    /// The column of a difference's numbered badge, left of its sentence.
    static let footerBadgeColumn = 26.0
    /// A difference's numbered badge (under a highlight and beside its sentence): height, narrowest
    /// width, padding around its number, font, and the number's baseline below the badge's centre.
    static let differenceBadgeHeight = 16.0
    static let narrowestDifferenceBadge = 16.0
    static let differenceBadgePadding = 8.0
    static let differenceBadgeFont = 10.0
    static let differenceBadgeBaseline = 3.5
    /// The footer badge's centre right of `padding`.
    static let footerBadgeCentre = 12.0
    /// A highlight: inset from the lanes it covers, its margin around the widest marble, its
    /// corner, and its badge's centre above its bottom.
    static let highlightInset = 2.0
    static let highlightMargin = 8.0
    static let highlightCorner = 3.0
    static let highlightBadgeRaise = 10.0
    /// The subtitle's first baseline is this much closer to the title's last.
    static let subtitleRaise = 1.0
    /// The ruler reaches this many frames beyond the first and the last.
    static let rulerOverhang = 0.5
    /// Bounds on the ruler's work for a very long axis: minor ticks drawn, label positions tried.
    static let mostMinorTicks = 4000
    static let mostRulerCandidates = 2000
    /// Legend symbols: their centre right of the entry's start, a value's radius, the text's
    /// baseline below the row's centre, and the half size of a mark drawn small.
    static let legendSymbolCentre = 9.0
    static let legendValueRadius = 9.0
    static let legendTextBaseline = 4.0
    static let legendMarkHalf = 8.0
    static let legendCrossArm = 6.0
    static let legendLineHalf = 9.0
    static let legendTapInset = 4.0
    static let legendTapReach = 6.0

    // MARK: Strokes

    static let arrowStroke = 1.5
    static let markStroke = 2.5
}
