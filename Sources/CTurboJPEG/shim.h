#ifndef TILT_CTURBOJPEG_SHIM_H
#define TILT_CTURBOJPEG_SHIM_H
#include <stddef.h>
#include <turbojpeg.h>
// Flags Swift cannot import as typed constants.
static const int tilt_tj_flag_accurate_dct = TJFLAG_ACCURATEDCT;
static const int tilt_tj_flag_stop_on_warning = TJFLAG_STOPONWARNING;
#endif
