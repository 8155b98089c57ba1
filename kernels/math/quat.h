/* Quaternion rotation (scalar last). */
#ifndef CC_KERNELS_MATH_QUAT_H
#define CC_KERNELS_MATH_QUAT_H

#include "kernels/math/vec3.h"

CC_HD cc_quat cc_q(float x, float y, float z, float w)
{
    cc_quat r;
    r.x = x;
    r.y = y;
    r.z = z;
    r.w = w;
    return r;
}
CC_HD cc_quat cc_q_identity(void) { return cc_q(0.0f, 0.0f, 0.0f, 1.0f); }
CC_HD cc_quat cc_q_conj(cc_quat q) { return cc_q(-q.x, -q.y, -q.z, q.w); }

CC_HD cc_quat cc_q_mul(cc_quat a, cc_quat b)
{
    return cc_q(a.w * b.x + a.x * b.w + a.y * b.z - a.z * b.y,
                a.w * b.y - a.x * b.z + a.y * b.w + a.z * b.x,
                a.w * b.z + a.x * b.y - a.y * b.x + a.z * b.w,
                a.w * b.w - a.x * b.x - a.y * b.y - a.z * b.z);
}

/* v' = v + 2w (u x v) + 2 u x (u x v), u the vector part. */
CC_HD cc_vec3 cc_q_rotate(cc_quat q, cc_vec3 v)
{
    cc_vec3 u = cc_v3(q.x, q.y, q.z);
    cc_vec3 t = cc_v3_scale(cc_v3_cross(u, v), 2.0f);
    return cc_v3_add(cc_v3_add(v, cc_v3_scale(t, q.w)), cc_v3_cross(u, t));
}
CC_HD cc_vec3 cc_q_rotate_inv(cc_quat q, cc_vec3 v) { return cc_q_rotate(cc_q_conj(q), v); }

/* Columns of the rotation matrix: the rotated local x, y and z axes. */
CC_HD void cc_q_axes(cc_quat q, cc_vec3* ax, cc_vec3* ay, cc_vec3* az)
{
    float x2 = q.x + q.x, y2 = q.y + q.y, z2 = q.z + q.z;
    float xx = q.x * x2, yy = q.y * y2, zz = q.z * z2;
    float xy = q.x * y2, xz = q.x * z2, yz = q.y * z2;
    float wx = q.w * x2, wy = q.w * y2, wz = q.w * z2;
    *ax = cc_v3(1.0f - (yy + zz), xy + wz, xz - wy);
    *ay = cc_v3(xy - wz, 1.0f - (xx + zz), yz + wx);
    *az = cc_v3(xz + wy, yz - wx, 1.0f - (xx + yy));
}

CC_HD cc_quat cc_q_normalize(cc_quat q)
{
    float n = sqrtf(q.x * q.x + q.y * q.y + q.z * q.z + q.w * q.w);
    if (!(n > CC_EPSILON_LENGTH)) return cc_q_identity();
    float s = 1.0f / n;
    return cc_q(q.x * s, q.y * s, q.z * s, q.w * s);
}

/* The rotation by |r| radians about r (a rotation vector). */
CC_HD cc_quat cc_q_from_rotation_vector(cc_vec3 r)
{
    float angle = cc_v3_length(r);
    if (!(angle > 0.0f)) return cc_q_identity();
    cc_vec3 axis = cc_v3_scale(r, 1.0f / angle);
    float s = sinf(0.5f * angle);
    return cc_q(axis.x * s, axis.y * s, axis.z * s, cosf(0.5f * angle));
}

/* The shortest rotation taking +z to the unit vector d (a half turn about
 * x when d is -z). */
CC_HD cc_quat cc_q_from_z(cc_vec3 d)
{
    if (d.z < -0.999999f) return cc_q(1.0f, 0.0f, 0.0f, 0.0f);
    return cc_q_normalize(cc_q(-d.y, d.x, 0.0f, 1.0f + d.z));
}

#endif
