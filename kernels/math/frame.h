/* A rigid transform expanded into its rotation matrix: the origin and the
 * three world axes. Routines that move several points or vectors in and out
 * of one shape's frame pay the quaternion-to-matrix conversion once (about 25
 * flops) and then 15 flops per point, instead of 30 per quaternion rotation.
 * Only + - * /, like the rest of the math. */
#ifndef CC_KERNELS_MATH_FRAME_H
#define CC_KERNELS_MATH_FRAME_H

#include "kernels/math/quat.h"

typedef struct cc_frame {
    cc_vec3 o;       /* origin, world [m] */
    cc_vec3 x, y, z; /* unit axes, world */
} cc_frame;

CC_HD cc_frame cc_frame_of(cc_transform t)
{
    cc_frame f;
    f.o = t.p;
    cc_q_axes(t.q, &f.x, &f.y, &f.z);
    return f;
}

/* World vector -> frame coordinates (the transpose product). */
CC_HD cc_vec3 cc_frame_vector_in(const cc_frame* f, cc_vec3 v)
{
    return cc_v3(cc_v3_dot(v, f->x), cc_v3_dot(v, f->y), cc_v3_dot(v, f->z));
}

/* World point -> frame coordinates. */
CC_HD cc_vec3 cc_frame_point_in(const cc_frame* f, cc_vec3 w)
{
    return cc_frame_vector_in(f, cc_v3_sub(w, f->o));
}

/* Frame coordinates -> world vector. */
CC_HD cc_vec3 cc_frame_vector_out(const cc_frame* f, cc_vec3 l)
{
    return cc_v3_madd(cc_v3_madd(cc_v3_scale(f->x, l.x), f->y, l.y), f->z, l.z);
}

/* Frame coordinates -> world point. */
CC_HD cc_vec3 cc_frame_point_out(const cc_frame* f, cc_vec3 l)
{
    return cc_v3_add(f->o, cc_frame_vector_out(f, l));
}

#endif
