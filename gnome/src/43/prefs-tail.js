function init() {
}

function fillPreferencesWindow(window) {
    fillTiltPreferences(window);
}
