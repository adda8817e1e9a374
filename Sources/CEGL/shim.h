#ifndef TILT_CEGL_SHIM_H
#define TILT_CEGL_SHIM_H
#include <EGL/egl.h>
#include <EGL/eglext.h>
#include <GLES3/gl3.h>
#endif
