// Loads the GNOME 45+ build of tilt-wallpaper (gnome/build --shell 45) as ES modules under plain gjs, with GNOME
// Shell's own modules replaced by the stubs beside this file (same names, same exports), so a syntax error, a wrong
// import or a missing export fails here (WallpaperGnomeTests.theModernBuildLoads).
//   gjs -m load45.js BUILT_FOLDER STUBS_FOLDER
import GLib from 'gi://GLib';
import System from 'system';

const [built, stubs] = ARGV;
const real = new Set(['GLib', 'Gio', 'GObject']);

function rewrite(name) {
    const path = GLib.build_filenamev([built, name]);
    let text = new TextDecoder().decode(GLib.file_get_contents(path)[1]);
    text = text.replace(/from '(gi:\/\/([A-Za-z]+)|resource:\/\/\/[^']*\/([A-Za-z]+\.js))'/g, (all, spec, gi, file) => {
        if (gi)
            return real.has(gi) ? all : `from 'file://${stubs}/${gi}.js'`;
        return `from 'file://${stubs}/${file}'`;
    });
    const out = GLib.build_filenamev([built, `checked-${name}`]);
    GLib.file_set_contents(out, text);
    return `file://${out}`;
}

function methods(cls) {
    return Object.getOwnPropertyNames(cls.prototype).filter(n => n !== 'constructor').join(' ');
}

try {
    const extension = (await import(rewrite('extension.js'))).default;
    const made = new extension({uuid: 'tilt-wallpaper@tilt', path: built});
    print(`extension: ${extension.name} ${methods(extension)} ${made.metadata.uuid}`);
    const prefs = (await import(rewrite('prefs.js'))).default;
    print(`prefs: ${prefs.name} ${methods(prefs)}`);
} catch (e) {
    printerr(`${e}\n${e.stack}`);
    System.exit(1);
}
