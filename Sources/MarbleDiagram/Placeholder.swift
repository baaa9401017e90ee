// The SVG renderer lands here.
