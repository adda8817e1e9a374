'use strict';
// GNOME Shell 43 and 44: the legacy module form (imports.*; init, enable, disable).
const {GLib, Gio, Meta, Clutter} = imports.gi;
const Main = imports.ui.main;
const Background = imports.ui.background;
var SHELL_GENERATION = parseInt(imports.misc.config.PACKAGE_VERSION, 10);
