let tiltWallpaper = null;

function init() {
}

function enable() {
    tiltWallpaper = new TiltWallpaper();
    tiltWallpaper.enable();
}

function disable() {
    tiltWallpaper?.disable();
    tiltWallpaper = null;
}
