/* Symmetric 3x3 matrices stored as (xx, yy, zz, xy, xz, yz): inertia
 * tensors and their inverses. */
#ifndef CC_KERNELS_MATH_SYM3_H
#define CC_KERNELS_MATH_SYM3_H

#include "kernels/math/vec3.h"

CC_HD cc_vec3 cc_sym3_mul(const float s[6], cc_vec3 v)
{
    return cc_v3(s[0] * v.x + s[3] * v.y + s[4] * v.z, s[3] * v.x + s[1] * v.y + s[5] * v.z,
                 s[4] * v.x + s[5] * v.y + s[2] * v.z);
}

#endif
