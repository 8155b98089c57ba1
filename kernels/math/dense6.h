/* Small dense systems: a 6x6 solve by Gaussian elimination with partial
 * pivoting (a rigid body's implicit step: linear and angular velocity
 * change together). Row-major, in place, the same operations in the same
 * order on every backend. */
#ifndef CC_KERNELS_MATH_DENSE6_H
#define CC_KERNELS_MATH_DENSE6_H

#include <math.h>

#include "kernels/platform.h"

/* Solves a x = b for x, written over b; a is destroyed. Returns 0 (b
 * untouched past the failing column) when a pivot is zero or not finite. */
CC_HD int cc_solve6(float a[36], float b[6])
{
    for (int c = 0; c < 6; ++c) {
        int pivot = c;
        for (int r = c + 1; r < 6; ++r)
            if (fabsf(a[r * 6 + c]) > fabsf(a[pivot * 6 + c])) pivot = r;
        float p = a[pivot * 6 + c];
        if (!(p != 0.0f) || !isfinite(p)) return 0;
        if (pivot != c) {
            for (int k = c; k < 6; ++k) {
                float t = a[c * 6 + k];
                a[c * 6 + k] = a[pivot * 6 + k];
                a[pivot * 6 + k] = t;
            }
            float t = b[c];
            b[c] = b[pivot];
            b[pivot] = t;
        }
        float inv = 1.0f / p;
        for (int r = c + 1; r < 6; ++r) {
            float f = a[r * 6 + c] * inv;
            if (f == 0.0f) continue;
            for (int k = c + 1; k < 6; ++k) a[r * 6 + k] -= f * a[c * 6 + k];
            b[r] -= f * b[c];
        }
    }
    for (int r = 5; r >= 0; --r) {
        float s = b[r];
        for (int k = r + 1; k < 6; ++k) s -= a[r * 6 + k] * b[k];
        b[r] = s / a[r * 6 + r];
    }
    return 1;
}

#endif
