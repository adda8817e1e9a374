export default class TiltWallpaperPreferences extends ExtensionPreferences {
    fillPreferencesWindow(window) {
        fillTiltPreferences(window);
    }
}
