#ifndef TILT_CSDL2_SHIM_H
#define TILT_CSDL2_SHIM_H
#include <SDL2/SDL.h>
#endif
