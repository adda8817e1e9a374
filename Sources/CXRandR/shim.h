#ifndef TILT_CXRANDR_SHIM_H
#define TILT_CXRANDR_SHIM_H
#include <X11/Xlib.h>
#include <X11/Xutil.h>
#include <X11/Xatom.h>
#include <X11/extensions/Xrandr.h>

/* Xatom.h's predefined atoms are casts, which Swift does not import: the two the wallpaper sets. */
static const Atom tilt_XA_ATOM = XA_ATOM;
static const Atom tilt_XA_CARDINAL = XA_CARDINAL;
#endif
