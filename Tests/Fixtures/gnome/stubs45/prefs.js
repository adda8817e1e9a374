// Stub of GNOME 45's org/gnome/Shell/Extensions/js/extensions/prefs.js (for load45.js).
export class ExtensionPreferences {
    constructor(metadata) {
        this.metadata = metadata;
    }
}
