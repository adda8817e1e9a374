#ifndef TILT_CPNG_SHIM_H
#define TILT_CPNG_SHIM_H
#include <png.h>
// Macros Swift cannot import, as constants.
static const png_uint_32 tilt_png_image_version = PNG_IMAGE_VERSION;
static const png_uint_32 tilt_png_format_rgba = PNG_FORMAT_RGBA;
#endif
