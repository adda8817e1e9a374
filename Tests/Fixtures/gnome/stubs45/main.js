// Stub of GNOME Shell 45's resource:///org/gnome/shell/ui/main.js: only its names (for load45.js).
export const layoutManager = {};
export const overview = {};
export const sessionMode = {};
export const extensionManager = {};
