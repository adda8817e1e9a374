// Stub of GNOME Shell 45's ui/background.js (for load45.js).
export class BackgroundManager {}
