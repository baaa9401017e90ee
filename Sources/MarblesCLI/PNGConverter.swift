import Foundation

/// `marbles-svg --png`: PNG copies of the SVGs for viewers that show no SVG (Xcode Quick Help,
/// many CI test viewers), drawn by rsvg-convert from librsvg. It reads no CSS media queries,
/// so an adaptive (`--theme auto`) diagram comes out light; `--theme both` gives a dark PNG too.
enum PNGConverter {
    static let program = "rsvg-convert"

    /// The path of rsvg-convert in the `PATH` of `environment` (the process's own when it has none).
    static func find(environment: [String: String]) -> String? {
        let search = environment["PATH"] ?? ProcessInfo.processInfo.environment["PATH"] ?? ""
        for folder in search.split(separator: ":") where !folder.isEmpty {
            let candidate = DiagramFiles.join(String(folder), program)
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return nil
    }

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// Draws `svg` into `png` at the SVG's own width and height (so `--scale` sets the pixels).
    static func convert(_ svg: String, to png: String, with converter: String) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: converter)
        // A path that starts with '-' would read as an option.
        func operand(_ path: String) -> String { path.hasPrefix("-") ? "./" + path : path }
        process.arguments = ["--format", "png", "--output", operand(png), operand(svg)]
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let message = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            let text = String(decoding: message, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
            throw Failure(description: "\(program) could not convert \(svg): \(text.isEmpty ? "exit status \(process.terminationStatus)" : text)")
        }
    }
}
