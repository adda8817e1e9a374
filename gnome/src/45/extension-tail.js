export default class TiltWallpaperExtension extends Extension {
    enable() {
        this._wallpaper = new TiltWallpaper();
        this._wallpaper.enable();
    }

    disable() {
        this._wallpaper?.disable();
        this._wallpaper = null;
    }
}
