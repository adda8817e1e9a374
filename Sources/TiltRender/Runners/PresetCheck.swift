import FoundationEssentials
import TiltCore
import TiltEffects
import TiltGL

/// `tiltfx check`: loads every preset of a presets folder and, where a GL context can be had, compiles its shaders,
/// reporting each finding as `ok`, `note` or `FAIL`. Clients get working presets when nothing failed.
///
/// The check lives with the renderer because only the renderer can compile a shader; the daemon never draws.
package struct PresetCheck: Sendable {
    /// How bad a finding is; the raw value starts its report line.
    package enum Verdict: String, Sendable, CaseIterable {
        case ok, note, fail = "FAIL"
    }

    /// One finding: a verdict, what it is about (`presets` or `shaders`) and what was found.
    package struct Finding: Sendable, Hashable {
        /// A finding.
        package init(_ verdict: Verdict, _ subject: String, _ text: String) {
            (self.verdict, self.subject, self.text) = (verdict, subject, text)
        }

        /// How bad it is.
        package let verdict: Verdict
        /// What it is about.
        package let subject: String
        /// What was found, and what to do when it failed.
        package let text: String
    }

    /// The presets folder to check; `nil` checks the first of `searchPaths` that exists.
    package var directory: String?
    /// Where to look when no folder is named (the standard preset search order).
    package var searchPaths: [String]
    /// Whether to compile the shaders (they are compiled only where a headless GL context can be made).
    package var compilesShaders: Bool
    /// Where Shadertoy JSON exports' textures are looked for after each export's own folder.
    package var assetDirectory: String?

    /// A check of `directory`, or of the first folder of `searchPaths` that exists.
    package init(
        directory: String?, searchPaths: [String] = PresetLibrary.standard().searchPaths, compilesShaders: Bool = true
    ) {
        self.directory = directory
        self.searchPaths = searchPaths
        self.compilesShaders = compilesShaders
    }

    /// Runs the check.
    package func run() -> [Finding] {
        var findings: [Finding] = []
        guard let folder = folder(&findings) else { return findings }
        let found = PresetLibrary(searchPaths: [folder]).presetDirectories()
        if found.isEmpty {
            findings.append(
                .init(
                    .fail, "presets",
                    "\(folder) holds no presets (folders with a \(Preset.fileName), or Shadertoy JSON exports)"))
            return findings
        }
        var loaded: [Preset] = []
        for entry in found {
            do {
                loaded.append(try Preset.load(path: entry.directory, assets: assetDirectory))
            } catch {
                findings.append(.init(.fail, "presets", "\(entry.name): \(error)"))
            }
        }
        if loaded.count == found.count {
            let names = found.map(\.name).joined(separator: ", ")
            findings.append(.init(.ok, "presets", "\(folder): \(found.count) presets load (\(names))"))
        }
        // What each Shadertoy program's channels resolved to (an export's media found beside it or in --assets).
        for preset in loaded {
            if let inputs = preset.shadertoyProgram?.inputSummary {
                findings.append(.init(.ok, "inputs", "\(preset.name): \(inputs)"))
            }
            for notice in preset.notices { findings.append(.init(.note, "presets", "\(preset.name): \(notice)")) }
        }
        if compilesShaders { findings += compile(loaded) }
        return findings
    }

    /// The report for people, one finding a line, then the verdict.
    package static func report(_ findings: [Finding]) -> String {
        var lines = findings.map {
            $0.verdict.rawValue.padded(to: 5) + "\($0.subject): \($0.text)"
        }
        let failures = problems(findings)
        let plural = failures == 1 ? "" : "s"
        lines.append(failures == 0 ? "tiltfx check: OK" : "tiltfx check: \(failures) problem\(plural)")
        return lines.joined(separator: "\n")
    }

    /// The number of failed findings.
    package static func problems(_ findings: [Finding]) -> Int {
        findings.filter { $0.verdict == .fail }.count
    }

    /// The folder to check, or `nil` after adding why there is none.
    private func folder(_ findings: inout [Finding]) -> String? {
        if let directory {
            var isDirectory = false
            guard FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory), isDirectory
            else {
                findings.append(
                    .init(.fail, "presets", "\(directory) is not a folder; pass --presets DIR with the preset folders"))
                return nil
            }
            return directory
        }
        guard let found = searchPaths.first(where: { FileManager.default.fileExists(atPath: $0) }) else {
            findings.append(
                .init(.note, "presets", "no presets folder found (searched \(searchPaths.joined(separator: ", ")))"))
            return nil
        }
        return found
    }

    /// Compiles every pass of each preset in a headless context and measures what a frame costs (``PresetCost``), or
    /// notes why it cannot.
    private func compile(_ presets: [Preset]) -> [Finding] {
        guard !presets.isEmpty else { return [] }
        let context: HeadlessContext
        do { context = try HeadlessContext() } catch {
            return [.init(.note, "shaders", "not compiled: \(error)")]
        }
        var findings: [Finding] = []
        var costs: [Finding] = []
        withExtendedLifetime(context) {  // the context must stay current while the shaders compile and draw
            for preset in presets {
                do {
                    let cost = try PresetCost.measure(preset)
                    costs.append(.init(.ok, "cost", "\(preset.name): \(cost.summary)"))
                } catch {
                    findings.append(.init(.fail, "shaders", "\(preset.name): \(error)"))
                }
            }
        }
        if findings.isEmpty {
            findings.append(.init(.ok, "shaders", "\(presets.count) presets compile (\(context.rendererName))"))
        }
        return findings + costs
    }
}
