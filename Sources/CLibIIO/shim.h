#ifndef TILT_CLIBIIO_SHIM_H
#define TILT_CLIBIIO_SHIM_H
#include <iio.h>
#endif
