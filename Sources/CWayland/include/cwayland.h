#ifndef TILT_CWAYLAND_H
#define TILT_CWAYLAND_H
// libwayland-client and wayland-egl, with the client side of the protocols the wallpaper uses; the protocol headers
// are generated at build time by Plugins/WaylandScanner from Debian's protocol descriptions.
#include <wayland-client.h>
#include <wayland-egl.h>
#include "wlr-layer-shell-unstable-v1-client-protocol.h"
#include "wlr-foreign-toplevel-management-unstable-v1-client-protocol.h"
#include "xdg-shell-client-protocol.h"
#include "presentation-time-client-protocol.h"
#include "viewporter-client-protocol.h"
#include "fractional-scale-v1-client-protocol.h"
#include "xdg-output-unstable-v1-client-protocol.h"

// The interfaces to bind, by address: Swift imports the `extern const struct wl_interface` tables as values, and a
// copy would not do (a proxy keeps the pointer).
static inline const struct wl_interface *cwayland_compositor_interface(void) { return &wl_compositor_interface; }
static inline const struct wl_interface *cwayland_output_interface(void) { return &wl_output_interface; }
static inline const struct wl_interface *cwayland_layer_shell_interface(void) { return &zwlr_layer_shell_v1_interface; }
static inline const struct wl_interface *cwayland_xdg_wm_base_interface(void) { return &xdg_wm_base_interface; }
static inline const struct wl_interface *cwayland_xdg_output_manager_interface(void) {
    return &zxdg_output_manager_v1_interface;
}
static inline const struct wl_interface *cwayland_presentation_interface(void) { return &wp_presentation_interface; }
static inline const struct wl_interface *cwayland_viewporter_interface(void) { return &wp_viewporter_interface; }
static inline const struct wl_interface *cwayland_toplevel_manager_interface(void) {
    return &zwlr_foreign_toplevel_manager_v1_interface;
}
static inline const struct wl_interface *cwayland_fractional_scale_manager_interface(void) {
    return &wp_fractional_scale_manager_v1_interface;
}
#endif
