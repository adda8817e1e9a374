#ifndef TILT_CXRANDR_SHIM_H
#define TILT_CXRANDR_SHIM_H
#include <X11/Xlib.h>
#include <X11/Xatom.h>
#include <X11/Xutil.h>
#include <X11/extensions/Xrandr.h>
#endif
