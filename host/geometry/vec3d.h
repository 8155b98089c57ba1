/* Double-precision 3-vectors for host geometry (hull checks, mesh fits),
 * where float rounding would spoil containment and orientation tests. */
#ifndef CC_HOST_GEOMETRY_VEC3D_H
#define CC_HOST_GEOMETRY_VEC3D_H

#include <math.h>

#include "cucontact/types.h"

typedef struct d3 {
    double x, y, z;
} d3;

static inline d3 d3_make(double x, double y, double z)
{
    d3 r;
    r.x = x;
    r.y = y;
    r.z = z;
    return r;
}
static inline d3 d3_of(cc_vec3 v) { return d3_make(v.x, v.y, v.z); }
static inline d3 d3_add(d3 a, d3 b) { return d3_make(a.x + b.x, a.y + b.y, a.z + b.z); }
static inline d3 d3_sub(d3 a, d3 b) { return d3_make(a.x - b.x, a.y - b.y, a.z - b.z); }
static inline d3 d3_scale(d3 a, double s) { return d3_make(a.x * s, a.y * s, a.z * s); }
static inline double d3_dot(d3 a, d3 b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
static inline d3 d3_cross(d3 a, d3 b)
{
    return d3_make(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x);
}
static inline double d3_len2(d3 a) { return d3_dot(a, a); }
static inline double d3_length(d3 a) { return sqrt(d3_dot(a, a)); }
static inline double d3_get(d3 a, int axis) { return axis == 0 ? a.x : (axis == 1 ? a.y : a.z); }

#endif
