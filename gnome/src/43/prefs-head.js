'use strict';
// GNOME Shell 43 and 44: the legacy module form of the preferences.
const {Adw, Gdk, GLib, Gtk} = imports.gi;
