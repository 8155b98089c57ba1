/* Small dense systems: a 6x6 LU factorisation with partial pivoting and
 * its solve (a rigid body's implicit step: linear and angular velocity
 * change together, factored once and solved again per sweep). Row-major,
 * in place, the same operations in the same order on every backend. */
#ifndef CC_KERNELS_MATH_DENSE6_H
#define CC_KERNELS_MATH_DENSE6_H

#include <math.h>

#include "kernels/platform.h"

/* LU factors of a with partial pivoting, in place: afterwards a holds U
 * above the diagonal and L's multipliers below, piv the row each step took.
 * Returns 0 when a pivot is zero or not finite. */
CC_HD int cc_lu6_factor(float a[36], int piv[6])
{
    for (int c = 0; c < 6; ++c) {
        int pivot = c;
        for (int r = c + 1; r < 6; ++r)
            if (fabsf(a[r * 6 + c]) > fabsf(a[pivot * 6 + c])) pivot = r;
        float p = a[pivot * 6 + c];
        if (!(p != 0.0f) || !isfinite(p)) return 0;
        piv[c] = pivot;
        if (pivot != c)
            for (int k = 0; k < 6; ++k) {
                float t = a[c * 6 + k];
                a[c * 6 + k] = a[pivot * 6 + k];
                a[pivot * 6 + k] = t;
            }
        float inv = 1.0f / p;
        for (int r = c + 1; r < 6; ++r) {
            float f = a[r * 6 + c] * inv;
            a[r * 6 + c] = f;
            if (f == 0.0f) continue;
            for (int k = c + 1; k < 6; ++k) a[r * 6 + k] -= f * a[c * 6 + k];
        }
    }
    return 1;
}

/* Solves with the factors of cc_lu6_factor: b becomes x. */
CC_HD void cc_lu6_solve(const float a[36], const int piv[6], float b[6])
{
    /* The rows were swapped whole, multipliers included, so the whole
     * permutation comes first, then L. */
    for (int c = 0; c < 6; ++c)
        if (piv[c] != c) {
            float t = b[c];
            b[c] = b[piv[c]];
            b[piv[c]] = t;
        }
    for (int c = 0; c < 6; ++c)
        for (int r = c + 1; r < 6; ++r) b[r] -= a[r * 6 + c] * b[c];
    for (int r = 5; r >= 0; --r) {
        float s = b[r];
        for (int k = r + 1; k < 6; ++k) s -= a[r * 6 + k] * b[k];
        b[r] = s / a[r * 6 + r];
    }
}

#endif
