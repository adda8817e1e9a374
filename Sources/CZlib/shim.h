#ifndef TILT_CZLIB_SHIM_H
#define TILT_CZLIB_SHIM_H
#include <zlib.h>
#endif
