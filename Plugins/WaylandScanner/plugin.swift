import Foundation
import PackagePlugin

/// Generates the C glue of the Wayland protocols the wallpaper speaks, with `wayland-scanner` (Debian's
/// libwayland-bin), from the protocol descriptions Debian installs (see scripts/bootstrap); no XML is kept in the
/// repository.
///
/// Each protocol is one command that writes both of its files, the interface tables (`private-code`) and the
/// client header, into `include/` of the plugin's work folder, which SwiftPM compiles into the target and puts on
/// its include path (tools version 6.3 with `experimentalCGen`). A command with only a header as output would never
/// run: nothing consumes a header, so both files are outputs of one command.
@main
struct WaylandScanner: BuildToolPlugin {
    /// A protocol description: where Debian puts it and the file name the generated header gets.
    struct ProtocolFile {
        var xml: String
        var name: String
    }

    /// The protocols: wlr's from librust-wayland-protocols-dev (bookworm has no other package with them), the rest
    /// from wayland-protocols. xdg-shell only because layer-shell's popups refer to `xdg_popup_interface`.
    static let protocols: [ProtocolFile] = [
        ProtocolFile(
            xml: "/usr/share/cargo/registry/wayland-protocols-0.29.4/wlr-protocols/unstable/"
                + "wlr-layer-shell-unstable-v1.xml",
            name: "wlr-layer-shell-unstable-v1"),
        ProtocolFile(
            xml: "/usr/share/cargo/registry/wayland-protocols-0.29.4/wlr-protocols/unstable/"
                + "wlr-foreign-toplevel-management-unstable-v1.xml",
            name: "wlr-foreign-toplevel-management-unstable-v1"),
        ProtocolFile(xml: "/usr/share/wayland-protocols/stable/xdg-shell/xdg-shell.xml", name: "xdg-shell"),
        ProtocolFile(
            xml: "/usr/share/wayland-protocols/stable/presentation-time/presentation-time.xml",
            name: "presentation-time"),
        ProtocolFile(xml: "/usr/share/wayland-protocols/stable/viewporter/viewporter.xml", name: "viewporter"),
        ProtocolFile(
            xml: "/usr/share/wayland-protocols/unstable/xdg-output/xdg-output-unstable-v1.xml",
            name: "xdg-output-unstable-v1"),
        ProtocolFile(
            xml: "/usr/share/wayland-protocols/staging/fractional-scale/fractional-scale-v1.xml",
            name: "fractional-scale-v1"),
    ]

    func createBuildCommands(context: PluginContext, target: any Target) throws -> [Command] {
        let include = context.pluginWorkDirectoryURL.appending(path: "include")
        return Self.protocols.map { p in
            let code = include.appending(path: "\(p.name)-protocol.c")
            let header = include.appending(path: "\(p.name)-client-protocol.h")
            let script =
                "mkdir -p '\(include.path)' && wayland-scanner private-code '\(p.xml)' '\(code.path)'"
                + " && wayland-scanner client-header '\(p.xml)' '\(header.path)'"
            return .buildCommand(
                displayName: "wayland-scanner \(p.name)",
                executable: URL(fileURLWithPath: "/bin/sh"),
                arguments: ["-c", script],
                inputFiles: [URL(fileURLWithPath: p.xml)],
                outputFiles: [code, header])
        }
    }
}
