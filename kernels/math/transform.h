/* Rigid transforms: x_world = p + q * x_local. */
#ifndef CC_KERNELS_MATH_TRANSFORM_H
#define CC_KERNELS_MATH_TRANSFORM_H

#include "kernels/math/quat.h"

CC_HD cc_transform cc_tf(cc_vec3 p, cc_quat q)
{
    cc_transform t;
    t.p = p;
    t.q = q;
    return t;
}
CC_HD cc_transform cc_tf_identity(void) { return cc_tf(cc_v3(0.0f, 0.0f, 0.0f), cc_q_identity()); }
CC_HD cc_vec3 cc_tf_point(cc_transform t, cc_vec3 x) { return cc_v3_add(t.p, cc_q_rotate(t.q, x)); }
CC_HD cc_vec3 cc_tf_vector(cc_transform t, cc_vec3 v) { return cc_q_rotate(t.q, v); }
CC_HD cc_vec3 cc_tf_point_inv(cc_transform t, cc_vec3 x)
{
    return cc_q_rotate_inv(t.q, cc_v3_sub(x, t.p));
}
CC_HD cc_vec3 cc_tf_vector_inv(cc_transform t, cc_vec3 v) { return cc_q_rotate_inv(t.q, v); }
/* a * b: apply b, then a. */
CC_HD cc_transform cc_tf_mul(cc_transform a, cc_transform b)
{
    return cc_tf(cc_tf_point(a, b.p), cc_q_mul(a.q, b.q));
}
CC_HD cc_transform cc_tf_inverse(cc_transform t)
{
    cc_quat qi = cc_q_conj(t.q);
    return cc_tf(cc_v3_neg(cc_q_rotate(qi, t.p)), qi);
}

#endif
