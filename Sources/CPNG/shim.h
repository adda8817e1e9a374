#ifndef TILT_CPNG_SHIM_H
#define TILT_CPNG_SHIM_H
#include <png.h>
#endif
