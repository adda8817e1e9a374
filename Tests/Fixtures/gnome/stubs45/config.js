// Stub of GNOME Shell 45's misc/config.js (for load45.js).
export const PACKAGE_VERSION = '45.0';
