// The tilt wallpaper behind GNOME's desktop: the extension's work, shared by its GNOME 43–44 and 45+ entry points
// (gnome/build joins this file to the imports of each). docs/gnome.md says how it works and what it promises.
//
// It starts `tiltfx wallpaper --gnome` as a Wayland client the Shell knows (Meta.WaylandClient; a plain child on
// Xorg), keeps its windows (one per monitor, titled "tiltfx-wallpaper CONNECTOR") out of every window list and off
// the screen, shows a Clutter.Clone of each in every background actor of its monitor (the desktop, the overview's
// workspaces, the lock screen's when asked), tells tiltfx on its standard input what covers each monitor, and
// restarts it with backoff when it dies.

var TITLE_PREFIX = 'tiltfx-wallpaper ';
var BACKOFF_FIRST = 1;
var BACKOFF_LAST = 30;
var HEALTHY_SECONDS = 30;

function say(text) {
    log(`tilt-wallpaper: ${text}`);
}

/** The tiltfx program: $TILT_WALLPAPER_TILTFX, else `tiltfx` on PATH; null when there is none. */
function tiltfxProgram() {
    const given = GLib.getenv('TILT_WALLPAPER_TILTFX');
    if (given)
        return given;
    return GLib.find_program_in_path('tiltfx');
}

/** wallpaper.conf: $XDG_CONFIG_HOME/tilt/wallpaper.conf. */
function confPath() {
    return GLib.build_filenamev([GLib.get_user_config_dir(), 'tilt', 'wallpaper.conf']);
}

function readConfFile() {
    try {
        const [ok, bytes] = GLib.file_get_contents(confPath());
        return ok ? readConf(new TextDecoder().decode(bytes)) : {top: {}, outputs: {}};
    } catch (e) {
        return {top: {}, outputs: {}};
    }
}

/**
 * Starts `argv` as a Wayland client of this Shell, on a socket of its own, so that its windows can be told from
 * any other client's: [client, subprocess]. Mutter 43 takes the launcher alone, 44–46 the context too, 47 and later
 * start the process in one call.
 */
function spawnWaylandClient(launcher, argv) {
    if (typeof Meta.WaylandClient.new_subprocess === 'function') {
        const client = Meta.WaylandClient.new_subprocess(global.context, launcher, argv);
        return [client, client.get_subprocess()];
    }
    const client = SHELL_GENERATION >= 44
        ? Meta.WaylandClient.new(global.context, launcher)
        : Meta.WaylandClient.new(launcher);
    return [client, client.spawnv(global.display, argv)];
}

/** One run of tiltfx and its supervision: started, restarted with backoff when it ends by itself, stopped. */
var Renderer = class {
    constructor(onStarted) {
        this._onStarted = onStarted;
        this._wanted = false;
        this._process = null;
        this._client = null;
        this._stdin = null;
        this._delay = BACKOFF_FIRST;
        this._restartId = 0;
        this._saidFailing = false;
    }

    get running() {
        return this._process !== null;
    }

    /** Whether `window` is one of this run's wallpaper windows. */
    owns(window) {
        if (this._process === null)
            return false;
        const title = window.get_title() || '';
        if (!title.startsWith(TITLE_PREFIX))
            return false;
        if (this._client !== null)
            return this._client.owns_window(window);
        return String(window.get_pid()) === this._process.get_identifier();
    }

    /** Keeps `window` out of the overview, alt-tab, the dash and every window list (skip-taskbar). */
    hideFromLists(window) {
        if (this._client !== null && typeof this._client.hide_from_window_list === 'function')
            this._client.hide_from_window_list(window);
        else if (this._client !== null && typeof this._client.make_desktop === 'function')
            this._client.make_desktop(window);
        // On Xorg tiltfx's windows say so themselves (_NET_WM_STATE_SKIP_TASKBAR, a desktop window).
    }

    start() {
        this._wanted = true;
        if (this._process === null && this._restartId === 0)
            this._spawn();
    }

    _spawn() {
        const program = tiltfxProgram();
        if (program === null) {
            say('tiltfx is not installed (not on PATH, and TILT_WALLPAPER_TILTFX is unset): install tilt');
            return;
        }
        const extra = (GLib.getenv('TILT_WALLPAPER_ARGS') || '').split(/\s+/).filter(w => w !== '');
        const argv = [program, 'wallpaper', '--gnome', ...extra];
        const launcher = new Gio.SubprocessLauncher({flags: Gio.SubprocessFlags.STDIN_PIPE});
        try {
            if (Meta.is_wayland_compositor()) {
                [this._client, this._process] = spawnWaylandClient(launcher, argv);
            } else {
                this._client = null;
                this._process = launcher.spawnv(argv);
            }
        } catch (e) {
            this._process = null;
            this._client = null;
            this._failed(`cannot start ${argv.join(' ')}: ${e.message}`);
            return;
        }
        say(`started ${argv.join(' ')} (pid ${this._process.get_identifier()})`);
        this._stdin = this._process.get_stdin_pipe();
        this._startedAt = GLib.get_monotonic_time();
        const process = this._process;
        process.wait_async(null, () => this._ended(process));
        this._onStarted();
    }

    _ended(process) {
        if (process !== this._process)
            return;
        const status = process.get_if_signaled()
            ? `killed by signal ${process.get_term_sig()}`
            : `exit status ${process.get_exit_status()}`;
        this._process = null;
        this._client = null;
        this._stdin = null;
        if (!this._wanted)
            return;
        const ran = (GLib.get_monotonic_time() - this._startedAt) / 1e6;
        if (ran >= HEALTHY_SECONDS) {
            this._delay = BACKOFF_FIRST;
            this._saidFailing = false;
        }
        this._failed(`tiltfx wallpaper ended (${status}) after ${ran.toFixed(1)} s`);
    }

    _failed(what) {
        if (!this._wanted)
            return;
        if (!this._saidFailing) {
            say(`${what}; restarting it in ${this._delay} s, then after longer waits up to ${BACKOFF_LAST} s ` +
                `(said once until it runs for ${HEALTHY_SECONDS} s)`);
            this._saidFailing = true;
        }
        const delay = this._delay;
        this._delay = Math.min(this._delay * 2, BACKOFF_LAST);
        this._restartId = GLib.timeout_add_seconds(GLib.PRIORITY_DEFAULT, delay, () => {
            this._restartId = 0;
            if (this._wanted && this._process === null)
                this._spawn();
            return GLib.SOURCE_REMOVE;
        });
    }

    /** Writes one control line (docs/gnome.md); a broken pipe is the end of a run, seen by wait_async. */
    send(line) {
        if (this._stdin === null)
            return;
        try {
            this._stdin.write_all(new TextEncoder().encode(`${line}\n`), null);
        } catch (e) {
            this._stdin = null;
        }
    }

    /** Stops it: its standard input closed is the clean stop; SIGTERM after 3 s, SIGKILL after 6. */
    stop() {
        this._wanted = false;
        if (this._restartId !== 0) {
            GLib.source_remove(this._restartId);
            this._restartId = 0;
        }
        this._delay = BACKOFF_FIRST;
        this._saidFailing = false;
        const process = this._process;
        if (process === null)
            return;
        this._process = null;
        this._client = null;
        try {
            this._stdin?.close(null);
        } catch (e) {
        }
        this._stdin = null;
        let stage = 0;
        GLib.timeout_add_seconds(GLib.PRIORITY_DEFAULT, 3, () => {
            if (process.get_identifier() === null)
                return GLib.SOURCE_REMOVE;
            if (stage++ === 0) {
                process.send_signal(15);
                return GLib.SOURCE_CONTINUE;
            }
            process.force_exit();
            return GLib.SOURCE_REMOVE;
        });
    }
};

/** The whole wallpaper: the renderer, its windows, their clones, and what the extension tells it. */
var TiltWallpaper = class {
    enable() {
        this._windows = new Map();   // connector → Meta.Window
        this._clones = new Set();    // every Clutter.Clone made
        this._signals = [];
        this._states = new Map();    // connector → the state last sent
        this._screen = null;
        this._lockScreen = readConfFile().top.lock_screen === 'true';
        this._renderer = new Renderer(() => {
            this._states.clear();
            this._screen = null;
            this._queueUpdate();
        });
        this._patchBackgrounds();
        const display = global.display;
        this._connect(display, 'window-created', (d, window) => this._consider(window));
        this._connect(display, 'restacked', () => this._queueUpdate());
        this._connect(display, 'in-fullscreen-changed', () => this._queueUpdate());
        for (const name of ['minimize', 'unminimize', 'size-changed', 'map', 'destroy', 'switch-workspace'])
            this._connect(global.window_manager, name, () => this._queueUpdate());
        this._connect(Main.overview, 'showing', () => this._queueUpdate());
        this._connect(Main.overview, 'hidden', () => this._queueUpdate());
        this._connect(Main.layoutManager, 'monitors-changed', () => this._queueUpdate());
        this._connect(Main.sessionMode, 'updated', () => this._sessionChanged());
        const monitors = global.backend.get_monitor_manager();
        this._connect(monitors, 'power-save-mode-changed', () => this._queueUpdate());
        this._watchSettings();
        this._sessionChanged();
    }

    disable() {
        this._renderer.stop();
        for (const [object, id] of this._signals)
            object.disconnect(id);
        this._signals = [];
        for (const window of this._windows.values())
            this._release(window);
        this._windows.clear();
        for (const clone of this._clones)
            clone.destroy();
        this._clones.clear();
        this._unpatchBackgrounds();
        this._confMonitor?.cancel();
        this._confMonitor = null;
        for (const id of [this._updateId, this._restartSoonId]) {
            if (id)
                GLib.source_remove(id);
        }
        this._updateId = this._restartSoonId = 0;
    }

    _connect(object, signal, callback) {
        this._signals.push([object, object.connect(signal, callback)]);
    }

    /** Runs tiltfx in the user's session, and on the lock screen only when wallpaper.conf's lock_screen says. */
    _sessionChanged() {
        const locked = Main.sessionMode.isLocked || Main.sessionMode.currentMode === 'unlock-dialog';
        if (locked && !this._lockScreen) {
            this._renderer.stop();
            this._forgetWindows();
        } else {
            this._renderer.start();
        }
    }

    /** wallpaper.conf and the desktop's picture: a change restarts tiltfx, which reads them at start. */
    _watchSettings() {
        const file = Gio.File.new_for_path(confPath());
        try {
            this._confMonitor = file.monitor_file(Gio.FileMonitorFlags.WATCH_MOVES, null);
            this._connect(this._confMonitor, 'changed', () => this._restartSoon('wallpaper.conf changed'));
        } catch (e) {
            say(`cannot watch ${confPath()}: ${e.message}`);
        }
        const background = new Gio.Settings({schema_id: 'org.gnome.desktop.background'});
        for (const key of ['picture-uri', 'picture-uri-dark', 'picture-options'])
            this._connect(background, `changed::${key}`, () => this._restartSoon(`the background's ${key} changed`));
        this._background = background;
        const iface = new Gio.Settings({schema_id: 'org.gnome.desktop.interface'});
        if (iface.settings_schema.has_key('color-scheme'))
            this._connect(iface, 'changed::color-scheme', () => this._restartSoon('the colour scheme changed'));
        this._interface = iface;
    }

    _restartSoon(why) {
        if (this._restartSoonId)
            GLib.source_remove(this._restartSoonId);
        this._restartSoonId = GLib.timeout_add(GLib.PRIORITY_DEFAULT, 400, () => {
            this._restartSoonId = 0;
            say(`${why}: restarting tiltfx`);
            this._lockScreen = readConfFile().top.lock_screen === 'true';
            this._renderer.stop();
            this._forgetWindows();
            this._sessionChanged();
            return GLib.SOURCE_REMOVE;
        });
    }

    _forgetWindows() {
        for (const window of this._windows.values())
            this._release(window);
        this._windows.clear();
        for (const clone of this._clones)
            clone.source = null;
        this._states.clear();
    }

    /** A new window: one of tiltfx's once it has its title (Wayland clients set it after the window is made). */
    _consider(window) {
        if (this._adopt(window))
            return;
        let id = window.connect('notify::title', () => {
            if (id !== 0 && this._adopt(window)) {
                window.disconnect(id);
                id = 0;
            }
        });
        window.connect('unmanaged', () => {
            if (id !== 0)
                window.disconnect(id);
            id = 0;
        });
    }

    _adopt(window) {
        if (!this._renderer.owns(window))
            return false;
        const connector = window.get_title().slice(TITLE_PREFIX.length);
        this._renderer.hideFromLists(window);
        window.stick();
        this._windows.set(connector, window);
        window._tiltUnmanaged = window.connect('unmanaged', () => {
            if (this._windows.get(connector) === window)
                this._windows.delete(connector);
            this._attachAll();
        });
        // The actor comes with the first buffer; then it is hidden, and only its clones show.
        const hideActor = () => {
            const actor = window.get_compositor_private();
            if (actor === null)
                return false;
            actor.hide();
            window._tiltShown = actor.connect('show', () => actor.hide());
            this._attachAll();
            return true;
        };
        if (!hideActor()) {
            window._tiltShownLater = window.connect('shown', () => {
                window.disconnect(window._tiltShownLater);
                window._tiltShownLater = 0;
                hideActor();
            });
        }
        this._queueUpdate();
        return true;
    }

    _release(window) {
        const actor = window.get_compositor_private();
        if (actor !== null && window._tiltShown)
            actor.disconnect(window._tiltShown);
        for (const key of ['_tiltUnmanaged', '_tiltShownLater']) {
            if (window[key])
                window.disconnect(window[key]);
        }
        window._tiltShown = window._tiltUnmanaged = window._tiltShownLater = 0;
    }

    /** The window actor showing `monitor` (an index), or null. */
    _sourceFor(monitor) {
        const monitors = global.backend.get_monitor_manager();
        for (const [connector, window] of this._windows) {
            if (monitors.get_monitor_for_connector(connector) === monitor)
                return window.get_compositor_private();
        }
        return null;
    }

    /** Every BackgroundManager made from now on puts a clone on its background actors; those there now get one. */
    _patchBackgrounds() {
        const proto = Background.BackgroundManager.prototype;
        const original = proto._createBackgroundActor;
        const self = this;
        this._original = original;
        proto._createBackgroundActor = function (...args) {
            const actor = original.apply(this, args);
            self._attach(actor, this._monitorIndex);
            return actor;
        };
        this._attachAll();
    }

    _unpatchBackgrounds() {
        if (this._original)
            Background.BackgroundManager.prototype._createBackgroundActor = this._original;
        this._original = null;
    }

    /** Every background actor on the stage (the desktop's, the overview's workspaces', the lock screen's). */
    _attachAll() {
        const walk = actor => {
            if (actor instanceof Meta.BackgroundActor)
                this._attach(actor, actor.monitor);
            for (const child of actor.get_children())
                walk(child);
        };
        walk(global.stage);
    }

    _attach(background, monitor) {
        const source = this._sourceFor(monitor);
        let clone = background._tiltClone;
        if (clone && !this._clones.has(clone))
            clone = null;
        if (!clone) {
            clone = new Clutter.Clone({source});
            clone.add_constraint(new Clutter.BindConstraint({
                source: background, coordinate: Clutter.BindCoordinate.SIZE,
            }));
            background.add_child(clone);
            background._tiltClone = clone;
            this._clones.add(clone);
            clone.connect('destroy', () => this._clones.delete(clone));
        } else if (clone.source !== source) {
            clone.source = source;
        }
    }

    _queueUpdate() {
        if (this._updateId)
            return;
        this._updateId = GLib.idle_add(GLib.PRIORITY_DEFAULT_IDLE, () => {
            this._updateId = 0;
            this._update();
            return GLib.SOURCE_REMOVE;
        });
    }

    /** Sends what changed: the screen (locked, blank), then each monitor that has a wallpaper window. */
    _update() {
        if (!this._renderer.running)
            return;
        const monitors = global.backend.get_monitor_manager();
        const blank = monitors.power_save_mode !== undefined && monitors.power_save_mode !== Meta.PowerSaveMode.ON;
        const locked = Main.sessionMode.isLocked && !this._lockScreen;
        const screen = blank || locked ? 'hidden' : 'visible';
        if (screen !== this._screen) {
            this._renderer.send(`screen ${screen}`);
            this._screen = screen;
        }
        for (const connector of this._windows.keys()) {
            const index = monitors.get_monitor_for_connector(connector);
            const state = index < 0 ? 'hidden' : this._stateOf(index);
            if (this._states.get(connector) !== state) {
                this._renderer.send(`output ${connector} ${state}`);
                this._states.set(connector, state);
            }
        }
    }

    /** visible, fullscreen (a fullscreen window on top there), covered (a maximized or fullscreen one there). */
    _stateOf(monitor) {
        if (Main.overview.visible)
            return 'visible';
        const workspace = global.workspace_manager.get_active_workspace();
        const windows = global.display.sort_windows_by_stacking(
            workspace.list_windows().filter(w =>
                w.get_monitor() === monitor && w.showing_on_its_workspace() && !w.minimized &&
                !this._renderer.owns(w) && w.get_window_type() !== Meta.WindowType.DESKTOP));
        if (windows.length === 0)
            return 'visible';
        if (windows[windows.length - 1].is_fullscreen())
            return 'fullscreen';
        const covering = windows.some(w => w.is_fullscreen() || w.get_maximized() === Meta.MaximizeFlags.BOTH);
        return covering ? 'covered' : 'visible';
    }
};
