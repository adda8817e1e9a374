// The extension's preferences (GTK 4, libadwaita): what the wallpaper shows, written to wallpaper.conf, which the
// running extension watches and applies by restarting tiltfx. Shared by the GNOME 43–44 and 45+ entry points.

var PRESETS = ['depth', 'tilt-specular', 'foil', 'holo-card', 'parallax', 'misty-glass', 'shadertoy-plasma'];
var FITS = ['cover', 'contain', 'stretch'];
var PAUSES = ['fullscreen', 'covered', 'any-fullscreen', 'never'];

function prefsConfPath() {
    return GLib.build_filenamev([GLib.get_user_config_dir(), 'tilt', 'wallpaper.conf']);
}

function prefsReadText() {
    try {
        const [ok, bytes] = GLib.file_get_contents(prefsConfPath());
        return ok ? new TextDecoder().decode(bytes) : '';
    } catch (e) {
        return '';
    }
}

/** Writes the choices into wallpaper.conf, whole or not at all (a temporary file renamed over it). */
function prefsWrite(top, outputs = {}) {
    const path = prefsConfPath();
    GLib.mkdir_with_parents(GLib.path_get_dirname(path), 0o755);
    const text = updateConf(prefsReadText(), top, outputs);
    GLib.file_set_contents(path, text);
}

function comboRow(title, subtitle, choices, current, onChange) {
    const row = new Adw.ComboRow({title, subtitle, model: Gtk.StringList.new(choices)});
    row.selected = Math.max(0, choices.indexOf(current));
    row.connect('notify::selected', () => onChange(choices[row.selected]));
    return row;
}

/** The monitors' connectors, as tiltfx names its outputs. */
function prefsConnectors() {
    const monitors = Gdk.Display.get_default()?.get_monitors();
    const names = [];
    for (let i = 0; monitors && i < monitors.get_n_items(); i++) {
        const connector = monitors.get_item(i).get_connector();
        if (connector)
            names.push(connector);
    }
    return names;
}

function fillTiltPreferences(window) {
    const conf = readConf(prefsReadText());
    const top = conf.top;
    const page = new Adw.PreferencesPage({title: 'Wallpaper', icon_name: 'preferences-desktop-wallpaper-symbolic'});
    const scene = new Adw.PreferencesGroup({
        title: 'What it shows',
        description: `Saved to ${prefsConfPath()}; the wallpaper follows at once.`,
    });
    scene.add(comboRow('Preset', 'depth is your own wallpaper, moving with the tilt', PRESETS, top.preset || 'depth',
        v => prefsWrite({preset: v})));

    const picture = new Adw.ActionRow({title: 'Picture', subtitle: top.image || 'The desktop\u2019s own background'});
    const choose = new Gtk.Button({label: 'Choose\u2026', valign: Gtk.Align.CENTER});
    const clear = new Gtk.Button({icon_name: 'edit-clear-symbolic', valign: Gtk.Align.CENTER,
        tooltip_text: 'Use the desktop\u2019s own background'});
    choose.connect('clicked', () => {
        const chooser = new Gtk.FileChooserNative({
            title: 'A picture or a video', transient_for: window, action: Gtk.FileChooserAction.OPEN,
        });
        chooser.connect('response', (c, response) => {
            if (response === Gtk.ResponseType.ACCEPT) {
                const path = c.get_file().get_path();
                prefsWrite({image: path});
                picture.subtitle = path;
            }
            c.destroy();
        });
        chooser.show();
    });
    clear.connect('clicked', () => {
        prefsWrite({image: null});
        picture.subtitle = 'The desktop\u2019s own background';
    });
    picture.add_suffix(choose);
    picture.add_suffix(clear);
    scene.add(picture);
    scene.add(comboRow('Fit', 'How the picture fills each monitor', FITS, top.fit || 'cover',
        v => prefsWrite({fit: v})));
    page.add(scene);

    const cost = new Adw.PreferencesGroup({title: 'When it draws'});
    const fps = new Adw.ActionRow({title: 'Frames a second at most', subtitle: '0: the monitor\u2019s own rate'});
    const spin = Gtk.SpinButton.new_with_range(0, 240, 5);
    spin.valign = Gtk.Align.CENTER;
    spin.value = Number(top.fps || 0);
    spin.connect('value-changed', () => prefsWrite({fps: spin.value > 0 ? String(spin.value) : null}));
    fps.add_suffix(spin);
    cost.add(fps);
    cost.add(comboRow('Pause when', 'fullscreen: a fullscreen window on top; covered: any maximized one too; any-fullscreen: every monitor when one has',
        PAUSES, top.pause_when || 'fullscreen', v => prefsWrite({pause_when: v})));
    const lock = new Adw.ActionRow({title: 'On the lock screen', subtitle: 'Keep drawing while the screen is locked'});
    const toggle = new Gtk.Switch({active: top.lock_screen === 'true', valign: Gtk.Align.CENTER});
    toggle.connect('notify::active', () => prefsWrite({lock_screen: toggle.active ? 'true' : 'false'}));
    lock.add_suffix(toggle);
    lock.activatable_widget = toggle;
    cost.add(lock);
    page.add(cost);

    const connectors = prefsConnectors();
    if (connectors.length > 0) {
        const each = new Adw.PreferencesGroup({title: 'Each monitor', description: 'A preset of its own'});
        const choices = ['(as above)', ...PRESETS];
        for (const name of connectors) {
            const current = conf.outputs[name]?.preset || '(as above)';
            each.add(comboRow(name, '', choices, current,
                v => prefsWrite({}, {[name]: v === '(as above)' ? null : v})));
        }
        page.add(each);
    }
    window.add(page);
}
