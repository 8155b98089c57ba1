/* The bullets scene's run (bullets.c): tunnelling, speculative rows and
 * cost for each speculative mode, and speculation's cost on a resting pile. */
#ifndef CC_BENCH_BULLETS_H
#define CC_BENCH_BULLETS_H

#include "cucontact/cucontact.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Prints the bullets tables; returns the failures. */
int bench_bullets(cc_device device, int worlds, int shapes, double seconds);

#ifdef __cplusplus
}
#endif

#endif
