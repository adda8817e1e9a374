'use strict';
// For tilt's tests only (Tests/TiltTestKit/GnomeShellSession.swift): GNOME 43 refuses its own Eval and Screenshot
// calls to outside callers, so this exports both on the Shell's session bus connection, at /org/tilt/TestHelper.
const {Gio, GLib, Shell} = imports.gi;
const Main = imports.ui.main;

const INTERFACE = `<node><interface name="org.tilt.TestHelper">
  <method name="Eval"><arg type="s" direction="in" name="code"/><arg type="s" direction="out" name="json"/></method>
  <method name="Screenshot"><arg type="s" direction="in" name="path"/><arg type="b" direction="out" name="ok"/></method>
</interface></node>`;

let exported = null;

const helper = {
    /** Evaluates `code` (a function body) in the Shell; the JSON of what it returns, or {"error": message}. */
    Eval(code) {
        try {
            const value = new Function('Main', 'global', 'imports', code)(Main, global, imports);
            return JSON.stringify({value: value === undefined ? null : value});
        } catch (e) {
            return JSON.stringify({error: `${e}\n${e.stack}`});
        }
    },

    /** Writes the whole stage as a PNG at `path`. */
    ScreenshotAsync([path], invocation) {
        const stream = Gio.File.new_for_path(path).replace(null, false, Gio.FileCreateFlags.NONE, null);
        new Shell.Screenshot().screenshot(false, stream, (shot, result) => {
            let ok = false;
            try {
                ok = shot.screenshot_finish(result)[0] !== false;
            } catch (e) {
                log(`tilt-test-helper: screenshot failed: ${e}`);
            }
            stream.close(null);
            invocation.return_value(new GLib.Variant('(b)', [ok]));
        });
    },
};

function init() {
}

function enable() {
    exported = Gio.DBusExportedObject.wrapJSObject(INTERFACE, helper);
    exported.export(Gio.DBus.session, '/org/tilt/TestHelper');
    // The Shell starts in the overview; the tests look at the desktop.
    if (Main.layoutManager._startingUp)
        Main.layoutManager.connect('startup-complete', () => Main.overview.hide());
    else
        Main.overview.hide();
}

function disable() {
    exported?.unexport();
    exported = null;
}
