// Stub of GNOME Shell 45's extensions/extension.js (for load45.js).
export class Extension {
    constructor(metadata) {
        this.metadata = metadata;
    }
}
