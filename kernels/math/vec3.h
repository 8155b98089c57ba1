/* 3-vector arithmetic on cc_vec3. Only + - * / and sqrt, so that strict-FP
 * builds give identical bits on the CPU and the GPU. */
#ifndef CC_KERNELS_MATH_VEC3_H
#define CC_KERNELS_MATH_VEC3_H

#include <math.h>
#include <string.h>

#include "cucontact/types.h"
#include "kernels/platform.h"

/* Lengths below this are treated as zero when normalising [m]. */
#define CC_EPSILON_LENGTH 1.0e-12f

/* Minimum and maximum as plain comparisons: unlike fminf/fmaxf they compile
 * to single instructions on the CPU (a NaN operand gives either value). */
CC_HD float cc_minf(float a, float b) { return a < b ? a : b; }
CC_HD float cc_maxf(float a, float b) { return a > b ? a : b; }

/* Float to uint32 with the same order (negative floats reversed), for sort
 * keys and packed atomic maxima. */
CC_HD uint32_t cc_float_order_bits(float f)
{
    uint32_t u;
    memcpy(&u, &f, sizeof u);
    return (u & 0x80000000u) ? ~u : (u | 0x80000000u);
}

/* The float that cc_float_order_bits turned into u. */
CC_HD float cc_float_from_order_bits(uint32_t u)
{
    uint32_t bits = (u & 0x80000000u) ? (u & 0x7fffffffu) : ~u;
    float f;
    memcpy(&f, &bits, sizeof f);
    return f;
}

CC_HD cc_vec3 cc_v3(float x, float y, float z)
{
    cc_vec3 r;
    r.x = x;
    r.y = y;
    r.z = z;
    return r;
}
CC_HD cc_vec3 cc_v3_add(cc_vec3 a, cc_vec3 b) { return cc_v3(a.x + b.x, a.y + b.y, a.z + b.z); }
CC_HD cc_vec3 cc_v3_sub(cc_vec3 a, cc_vec3 b) { return cc_v3(a.x - b.x, a.y - b.y, a.z - b.z); }
CC_HD cc_vec3 cc_v3_neg(cc_vec3 a) { return cc_v3(-a.x, -a.y, -a.z); }
CC_HD cc_vec3 cc_v3_scale(cc_vec3 a, float s) { return cc_v3(a.x * s, a.y * s, a.z * s); }
/* a + b*s */
CC_HD cc_vec3 cc_v3_madd(cc_vec3 a, cc_vec3 b, float s)
{
    return cc_v3(a.x + b.x * s, a.y + b.y * s, a.z + b.z * s);
}
CC_HD cc_vec3 cc_v3_mul(cc_vec3 a, cc_vec3 b) { return cc_v3(a.x * b.x, a.y * b.y, a.z * b.z); }
CC_HD float cc_v3_dot(cc_vec3 a, cc_vec3 b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
CC_HD cc_vec3 cc_v3_cross(cc_vec3 a, cc_vec3 b)
{
    return cc_v3(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x);
}
CC_HD float cc_v3_length_sq(cc_vec3 a) { return cc_v3_dot(a, a); }
CC_HD float cc_v3_length(cc_vec3 a) { return sqrtf(cc_v3_dot(a, a)); }
CC_HD cc_vec3 cc_v3_abs(cc_vec3 a) { return cc_v3(fabsf(a.x), fabsf(a.y), fabsf(a.z)); }
CC_HD cc_vec3 cc_v3_min(cc_vec3 a, cc_vec3 b)
{
    return cc_v3(cc_minf(a.x, b.x), cc_minf(a.y, b.y), cc_minf(a.z, b.z));
}
CC_HD cc_vec3 cc_v3_max(cc_vec3 a, cc_vec3 b)
{
    return cc_v3(cc_maxf(a.x, b.x), cc_maxf(a.y, b.y), cc_maxf(a.z, b.z));
}
CC_HD float cc_v3_get(cc_vec3 a, int axis) { return axis == 0 ? a.x : (axis == 1 ? a.y : a.z); }
CC_HD float cc_clampf(float x, float lo, float hi) { return x < lo ? lo : (x > hi ? hi : x); }

/* Unit vector along a; *length receives |a|. Returns the zero vector when
 * |a| is below CC_EPSILON_LENGTH (never divides by zero). */
CC_HD cc_vec3 cc_v3_normalize_len(cc_vec3 a, float* length)
{
    float len = cc_v3_length(a);
    if (length) *length = len;
    if (!(len > CC_EPSILON_LENGTH)) return cc_v3(0.0f, 0.0f, 0.0f);
    return cc_v3_scale(a, 1.0f / len);
}
CC_HD cc_vec3 cc_v3_normalize(cc_vec3 a) { return cc_v3_normalize_len(a, 0); }

/* The part of v square to unit n. */
CC_HD cc_vec3 cc_v3_reject(cc_vec3 v, cc_vec3 n) { return cc_v3_madd(v, n, -cc_v3_dot(v, n)); }

/* Any unit vector perpendicular to unit n. */
CC_HD cc_vec3 cc_v3_any_perpendicular(cc_vec3 n)
{
    cc_vec3 t = fabsf(n.x) < 0.57735f ? cc_v3(0.0f, -n.z, n.y) : cc_v3(-n.y, n.x, 0.0f);
    return cc_v3_normalize(t);
}

#endif
