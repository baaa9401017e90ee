import MarbleDiagram
import MarbleSpec

/// `marbles-svg --index`: DIR/index.html, every diagram written on one page. A table of
/// contents by the catalogue's parts and operator families, a search box (a few lines of
/// script; without script everything shows), the failing tests first, colours that follow
/// the reader's light or dark mode, and each diagram once, with its test's `.marble` lines
/// beside it.
enum Gallery {
    struct Entry {
        /// The diagram (light, or adaptive); `darkFile` for `--theme both`.
        var file: String
        var darkFile: String?
        var test: String
        /// The `.marble` file as the diagrams show it.
        var path: String
        var line: Int
        var outcome: TestReport.Outcome
        var width: Int
        var height: Int
        /// The test's lines (see `TestExcerpt`).
        var source: String
    }

    /// Files in the gallery's order: the catalogue's parts, each file under the part of its
    /// family (`debounce.marble` is the `debounce` family), in catalogue order; then the other
    /// files in the order given.
    static func groups(_ entries: [Entry]) -> [(title: String, files: [(path: String, entries: [Entry])])] {
        var files: [(path: String, entries: [Entry])] = []
        for entry in entries {
            if let index = files.firstIndex(where: { $0.path == entry.path }) {
                files[index].entries.append(entry)
            } else {
                files.append((entry.path, [entry]))
            }
        }
        var placed: Set<String> = []
        var result: [(title: String, files: [(path: String, entries: [Entry])])] = []
        for part in Catalogue.parts {
            var members: [(path: String, entries: [Entry])] = []
            for name in part.families {
                for file in files where family(file.path) == name && !placed.contains(file.path) {
                    members.append(file)
                    placed.insert(file.path)
                }
            }
            if !members.isEmpty { result.append((part.title, members)) }
        }
        let others = files.filter { !placed.contains($0.path) }
        if !others.isEmpty { result.append(("Other files", others)) }
        return result
    }

    static func html(_ entries: [Entry]) -> String {
        let failing = entries.filter { $0.outcome != .passed }
        let groups = groups(entries)
        var html = """
            <!DOCTYPE html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <meta name="color-scheme" content="light dark">
            <title>Marble diagrams</title>
            <style>
            :root { --ink: #1f2328; --muted: #656d76; --line: #d0d7de; --panel: #f6f8fa; --page: #ffffff; --alert: #cf222e; --link: #0969da; }
            @media (prefers-color-scheme: dark) {
              :root { --ink: #e6edf3; --muted: #8b949e; --line: #30363d; --panel: #161b22; --page: #0d1117; --alert: #f85149; --link: #4493f8; }
            }
            body { font-family: -apple-system, BlinkMacSystemFont, "Segoe UI", Helvetica, Arial, sans-serif; margin: 2rem auto; max-width: 90rem; padding: 0 1rem; color: var(--ink); background: var(--page); }
            a { color: var(--link); }
            h1 { font-size: 1.6rem; } h2 { font-size: 1.3rem; margin-top: 2.5rem; border-bottom: 1px solid var(--line); padding-bottom: .3rem; } h3 { font-size: 1rem; margin-top: 2rem; }
            input[type=search] { font: inherit; width: 100%; max-width: 32rem; padding: .4rem .6rem; border: 1px solid var(--line); border-radius: 6px; background: var(--panel); color: var(--ink); }
            nav ul { padding-left: 1.2rem; } nav li { margin: .15rem 0; } nav .families { display: flex; flex-wrap: wrap; gap: .2rem 1rem; padding-left: 0; list-style: none; }
            figure { margin: 1.2rem 0; display: grid; grid-template-columns: minmax(0, max-content) minmax(18rem, 1fr); gap: .5rem 1.2rem; align-items: start; }
            figure img { max-width: 100%; height: auto; border: 1px solid var(--line); border-radius: 6px; }
            figcaption { grid-column: 1 / -1; font-size: .9rem; color: var(--muted); } figcaption strong { color: var(--ink); }
            pre { margin: 0; padding: .6rem .8rem; background: var(--panel); border: 1px solid var(--line); border-radius: 6px; overflow-x: auto; font-size: .8rem; }
            code { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; font-size: .85em; } pre code { font-size: 1em; }
            .failed { color: var(--alert); }
            @media (max-width: 70rem) { figure { grid-template-columns: minmax(0, 1fr); } }
            </style>
            </head>
            <body>
            <h1>Marble diagrams</h1>
            <p>Every test drawn from what the simulation produced: \(entries.count) diagram\(entries.count == 1 ? "" : "s")\(failing.isEmpty ? "" : ", \(failing.count) failing (first)").</p>
            <p><input type="search" id="search" placeholder="Filter by operator, test or file" aria-label="Filter the diagrams"></p>
            <nav aria-label="Contents">
            <ul>

            """
        if !failing.isEmpty { html += "<li><a href=\"#failing\" class=\"failed\">Failing</a> (\(failing.count))</li>\n" }
        for group in groups {
            html += "<li>\(escape(group.title))\n<ul class=\"families\">\n"
            for file in group.files {
                html += "<li><a href=\"#\(anchor(file.path))\">\(escape(family(file.path)))</a> (\(file.entries.count))</li>\n"
            }
            html += "</ul>\n</li>\n"
        }
        html += "</ul>\n</nav>\n"
        if !failing.isEmpty {
            html += "<section class=\"group\" id=\"failing\">\n<h2 class=\"failed\">Failing</h2>\n"
            for entry in failing { html += figure(entry) }
            html += "</section>\n"
        }
        for group in groups {
            html += "<section class=\"group\">\n<h2>\(escape(group.title))</h2>\n"
            for file in group.files {
                html += "<section class=\"file\" id=\"\(anchor(file.path))\">\n<h3><code>\(escape(file.path))</code></h3>\n"
                let failingHere = file.entries.filter { $0.outcome != .passed }.count
                if failingHere > 0 {
                    html += "<p class=\"failed\">\(failingHere) failing test\(failingHere == 1 ? "" : "s") of this file shown under <a href=\"#failing\">Failing</a>.</p>\n"
                }
                for entry in file.entries where entry.outcome == .passed { html += figure(entry) }
                html += "</section>\n"
            }
            html += "</section>\n"
        }
        html += """
            <script>
            // Shows the diagrams whose test, file or family contains every word typed, and the sections that still have one.
            document.getElementById("search").addEventListener("input", function (event) {
              var words = event.target.value.toLowerCase().split(/\\s+/).filter(Boolean);
              document.querySelectorAll("figure").forEach(function (figure) {
                var text = figure.dataset.search;
                figure.hidden = !words.every(function (word) { return text.indexOf(word) >= 0; });
              });
              document.querySelectorAll("section").forEach(function (section) {
                section.hidden = !section.querySelector("figure:not([hidden])");
              });
            });
            </script>
            </body>
            </html>

            """
        return html
    }

    static func figure(_ entry: Entry) -> String {
        let status: String
        switch entry.outcome {
        case .passed: status = ""
        case .failed: status = " <span class=\"failed\">(expectation not met)</span>"
        case .error: status = " <span class=\"failed\">(stopped with an error)</span>"
        }
        let search = (entry.test + " " + entry.path + " " + family(entry.path)).lowercased()
        let image = "<img src=\"\(escape(entry.file))\" width=\"\(entry.width)\" height=\"\(entry.height)\" alt=\"\(escape("Marble diagram: " + entry.test))\" loading=\"lazy\">"
        var picture = image
        if let dark = entry.darkFile {
            picture = "<picture><source media=\"(prefers-color-scheme: dark)\" srcset=\"\(escape(dark))\">\(image)</picture>"
        }
        return """
            <figure id="\(escape(String(entry.file.dropLast(".svg".count))))" data-search="\(escape(search))">
            <figcaption><strong>\(escape(entry.test))</strong> — <code>\(escape(entry.path)):\(entry.line)</code>\(status)</figcaption>
            \(picture)
            <pre><code>\(escape(entry.source))</code></pre>
            </figure>

            """
    }

    static func family(_ path: String) -> String {
        let name = String(path.split(separator: "/").last ?? "")
        return name.hasSuffix(".marble") ? String(name.dropLast(".marble".count)) : name
    }

    /// `file-marbles-operators-debounce-marble`
    static func anchor(_ path: String) -> String {
        "file-" + MarbleDiagram.slug(path)
    }

    static func escape(_ text: String) -> String { DiagramFiles.escape(text) }
}
