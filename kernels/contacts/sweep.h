/* How a shape moves over the collision horizon, for time-of-impact
 * contacts (kernels/contacts/toi.h). A shape rides its body: the centre of
 * mass moves by `shift` = v H and the body turns by `turn` = w H about it
 * (H the horizon, velocities of the collided state), so every point p of
 * the shape moves by shift + turn x (p - com) to first order. With r
 * bounding the points' distance from the centre of mass, no point travels
 * farther than the sweep s = |shift| + |turn| r.
 *
 * A shape is fast when s exceeds its smallest half extent: only then can
 * it pass through something within one horizon without the two
 * overlapping at either end, and only fast shapes sweep (slower ones cost
 * nothing extra). The sweep is capped at speculative_contact_gap_max: a
 * faster shape's motion is scaled down to it, as the gap mode caps its
 * reach. */
#ifndef CC_KERNELS_CONTACTS_SWEEP_H
#define CC_KERNELS_CONTACTS_SWEEP_H

#include "kernels/contacts/speculation.h"
#include "kernels/math/quat.h"

typedef struct cc_shape_motion {
    cc_vec3 com;   /* the body's centre of mass at the pass (world) */
    cc_vec3 shift; /* its displacement over the horizon [m] */
    cc_vec3 turn;  /* the body's rotation vector over the horizon [rad] */
    float radius;  /* bound of the shape's points' distance from com [m] */
    float sweep;   /* |shift| + |turn| radius [m] */
} cc_shape_motion;

/* The motion of a shape at world position `origin` whose world box
 * (unswept) is [lower, upper], on body b (moves: the body is not static).
 * A shape that does not move keeps its own origin as `com`. An unbounded
 * shape (a plane) has no radius (3e38) and sweeps its translation only: no
 * bound covers what a turn does to it. */
CC_HD cc_shape_motion cc_shape_motion_of(const cc_speculation_view* s, int b, int moves, cc_vec3 origin,
                                         cc_vec3 lower, cc_vec3 upper)
{
    cc_shape_motion m;
    cc_vec3 centre = cc_v3_scale(cc_v3_add(lower, upper), 0.5f);
    float half = 0.5f * cc_v3_length(cc_v3_sub(upper, lower));
    int bounded = half < 1.0e29f;
    m.com = origin;
    m.shift = cc_v3(0.0f, 0.0f, 0.0f);
    m.turn = cc_v3(0.0f, 0.0f, 0.0f);
    m.radius = bounded ? cc_v3_length(cc_v3_sub(centre, origin)) + half : 3.0e38f;
    m.sweep = 0.0f;
    if (!moves || !s->linear) return m;
    float h = cc_speculation_horizon(s);
    m.com = cc_tf_point(s->body_pose[b], s->body_mass[b].com);
    m.radius = bounded ? cc_v3_length(cc_v3_sub(centre, m.com)) + half : 3.0e38f;
    m.shift = cc_v3_scale(s->linear[b], h);
    if (bounded) m.turn = cc_v3_scale(s->angular[b], h);
    float spin = cc_v3_length(m.turn);
    m.sweep = cc_v3_length(m.shift) + (spin > 0.0f ? spin * m.radius : 0.0f);
    if (!(m.sweep <= s->gap_max)) { /* beyond the cap, infinite or NaN */
        float k = m.sweep > 0.0f && m.sweep < 3.0e38f ? s->gap_max / m.sweep : 0.0f;
        m.shift = cc_v3_scale(m.shift, k);
        m.turn = cc_v3_scale(m.turn, k);
        m.sweep = k > 0.0f ? s->gap_max : 0.0f;
    }
    return m;
}

/* The fast-shape test: the sweep exceeds the smallest half extent. */
CC_HD int cc_shape_is_fast(const cc_shape_motion* m, float smallest_half_extent)
{
    return m->sweep > smallest_half_extent;
}

/* The pose at fraction tau of a shape at pose xf (t = 0): the centre of
 * mass moved by tau shift, the body turned by tau turn about it. */
CC_HD cc_transform cc_swept_pose(const cc_shape_motion* m, cc_transform xf, float tau)
{
    if (m->sweep == 0.0f) return xf; /* exactly where it is (a plane's box centre is no point to turn about) */
    cc_quat r = cc_q_from_rotation_vector(cc_v3_scale(m->turn, tau));
    cc_vec3 arm = cc_q_rotate(r, cc_v3_sub(xf.p, m->com));
    return cc_tf(cc_v3_add(cc_v3_madd(m->com, m->shift, tau), arm), cc_q_normalize(cc_q_mul(r, xf.q)));
}

/* Velocity (per horizon) of the point at world position p of the shape at
 * t = 0 [m per horizon]. */
CC_HD cc_vec3 cc_motion_point_travel(const cc_shape_motion* m, cc_vec3 p)
{
    return cc_v3_add(m->shift, cc_v3_cross(m->turn, cc_v3_sub(p, m->com)));
}

/* The swept box of a fast shape whose box is [lower, upper]: each side first grows
 * by the turn's reach |turn| r, within the ball of radius r about the
 * centre of mass that no turn leaves, then extends along the shift. Every
 * broad phase reads these boxes. */
CC_HD void cc_swept_box(const cc_shape_motion* m, cc_vec3* lower, cc_vec3* upper)
{
    float reach = cc_v3_length(m->turn) * m->radius;
    float lo[3] = {lower->x, lower->y, lower->z}, hi[3] = {upper->x, upper->y, upper->z};
    float c[3] = {m->com.x, m->com.y, m->com.z}, d[3] = {m->shift.x, m->shift.y, m->shift.z};
    for (int k = 0; k < 3; ++k) {
        /* The box itself always stays in (the ball may clip a corner). */
        float l = cc_minf(cc_maxf(lo[k] - reach, c[k] - m->radius), lo[k]);
        float h = cc_maxf(cc_minf(hi[k] + reach, c[k] + m->radius), hi[k]);
        lo[k] = l + cc_minf(d[k], 0.0f);
        hi[k] = h + cc_maxf(d[k], 0.0f);
    }
    *lower = cc_v3(lo[0], lo[1], lo[2]);
    *upper = cc_v3(hi[0], hi[1], hi[2]);
}

/* The swept bounding-sphere filter: whether the balls of radius r about
 * the two centres of mass come within `gap` of each other at some
 * fraction of the horizon. The centres' offset p + tau v is shortest at
 * tau = -p.v / |v|^2, clamped to [0, 1]. */
CC_HD int cc_swept_spheres_meet(const cc_shape_motion* a, const cc_shape_motion* b, float gap)
{
    cc_vec3 p = cc_v3_sub(b->com, a->com), v = cc_v3_sub(b->shift, a->shift);
    float vv = cc_v3_dot(v, v);
    float tau = vv > 0.0f ? cc_clampf(-cc_v3_dot(p, v) / vv, 0.0f, 1.0f) : 0.0f;
    float reach = a->radius + b->radius + gap;
    return !(cc_v3_length(cc_v3_madd(p, v, tau)) > reach);
}

/* Its plane variant: shape b's ball against the plane through `origin`
 * with unit normal n (moving by `plane_shift`), at the horizon's two ends. */
CC_HD int cc_swept_sphere_meets_plane(cc_vec3 origin, cc_vec3 n, cc_vec3 plane_shift, const cc_shape_motion* b,
                                      float gap)
{
    float d0 = cc_v3_dot(n, cc_v3_sub(b->com, origin));
    float d1 = d0 + cc_v3_dot(n, cc_v3_sub(b->shift, plane_shift));
    return !(cc_minf(d0, d1) > b->radius + gap);
}

#endif
