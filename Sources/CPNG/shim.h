#ifndef TILT_CPNG_SHIM_H
#define TILT_CPNG_SHIM_H
#include <png.h>
// Macros Swift cannot import, as constants.
static const png_uint_32 tilt_png_image_version = PNG_IMAGE_VERSION;
static const png_uint_32 tilt_png_format_rgba = PNG_FORMAT_RGBA;
static const png_uint_32 tilt_png_format_flag_linear = PNG_FORMAT_FLAG_LINEAR;
// A 16-bit file without gAMA/sRGB is read as sRGB-encoded (as image editors write it), not linear.
static const png_uint_32 tilt_png_image_flag_16bit_srgb = PNG_IMAGE_FLAG_16BIT_sRGB;
// For the tests' interlaced writer (libpng's full API).
static const char *const tilt_png_libpng_version = PNG_LIBPNG_VER_STRING;
#endif
