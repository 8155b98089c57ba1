/* Speculative contacts (velocity-adapted gaps): a separated candidate is
 * kept when its contact points can close the separation before the next
 * collision pass. For separation d, authored pair gap g, closing speed v
 * along the normal at the contact point (both bodies' linear and angular
 * velocity), horizon dt and limit e_max, the admission distance is
 *
 *     g_eff = max(g, min(v dt, e_max)),
 *
 * so receding and common motion (v <= 0) enlarge nothing. The bounds stage
 * grows each shape's AABB by its reach, min(e_max, dt * (|v| + |w| r)) with
 * r bounding the distance of the shape's points from its body's centre of
 * mass; a pair's detection distance grows by the smaller of e_max and the
 * two reaches' sum, which bounds any point pair's closing travel. The
 * writers then apply the normal-directed test above per contact point and
 * flag the rows whose points would close past touching by more than the
 * pair's allowance within the horizon: half the smaller of the two shapes'
 * smallest half extents (planes, heightfields and open meshes, which have
 * no thickness, leave it to the other shape). Closer than that, the
 * contact law holds them; farther, the step arrests them
 * (kernels/step/speculative.h). A pass run by the collision sub-step
 * scheduler serves several substeps at speeds not yet observed, so it keeps
 * every candidate within its distance reserve (e_max) instead. */
#ifndef CC_KERNELS_CONTACTS_SPECULATION_H
#define CC_KERNELS_CONTACTS_SPECULATION_H

#include "kernels/model_view.h"

/* What a pass needs for speculation; linear NULL: speculation off. The
 * bounds stage publishes the pass's copy to device memory, so that the
 * narrow-phase writers carry one pointer to it (NULL: off), not the view. */
typedef struct cc_speculation_view {
    const cc_vec3* linear;       /* (nbody) centre-of-mass velocities of the state [m/s] */
    const cc_vec3* angular;      /* (nbody) world angular velocities [rad/s] */
    const cc_transform* body_pose;
    const cc_body_mass* body_mass;
    const float* horizon;        /* (1) time until the next collision pass [s] */
    const float* reserve;        /* (1) distance reserve of a scheduled pass [m]; 0: velocity-adapted */
    float* shape_reach;          /* (nshape) speculative growth of each shape's bounds [m] */
    const float* shape_thin;     /* (nshape) smallest half extent of each shape [m] (3e38: none) */
    float gap_max;               /* e_max [m] */
    /* Time-of-impact mode (kernels/contacts/toi.h): convex pairs with a
     * fast shape are swept instead of admitted by their gap. */
    int toi;
    float* shape_sweep;          /* (nshape) TOI mode: a fast shape's sweep [m], 0 for the others */
    int* fast_shapes;            /* (1) TOI mode: fast shapes of the pass */
    int* partner_head;           /* (nshape) TOI mode: each shape's first candidate entry (contacts/line_of_sight.h) */
} cc_speculation_view;

CC_HD cc_speculation_view cc_speculation_off(void)
{
    cc_speculation_view s;
    s.linear = 0;
    s.angular = 0;
    s.body_pose = 0;
    s.body_mass = 0;
    s.horizon = 0;
    s.reserve = 0;
    s.shape_reach = 0;
    s.shape_thin = 0;
    s.gap_max = 0.0f;
    s.toi = 0;
    s.shape_sweep = 0;
    s.fast_shapes = 0;
    s.partner_head = 0;
    return s;
}

/* The horizon as the kernels use it: finite and >= 0 (the host checks the
 * values it is given; a user's kernel may write any). */
CC_HD float cc_speculation_horizon(const cc_speculation_view* s)
{
    float dt = *s->horizon;
    return dt > 0.0f && dt < 3.0e38f ? dt : 0.0f;
}

/* The distance reserve [m] of a pass that the collision sub-step scheduler
 * runs (kernels/step/schedule.h): every separated candidate within it is
 * kept whatever the bodies' velocities, since the pass must serve several
 * substeps. 0 outside such a pass. */
CC_HD float cc_speculation_reserve(const cc_speculation_view* s)
{
    float r = s->reserve ? *s->reserve : 0.0f;
    return r > 0.0f && r < 3.0e38f ? r : 0.0f;
}

/* How fast any point of a shape whose world bounds are [lower, upper] can
 * move [m/s], on a body with centre of mass `com` (world) and velocities
 * linear and angular: |v| + |w| r, r bounding the points' distance from the
 * centre of mass. Infinite for a spinning unbounded shape (a plane). */
CC_HD float cc_shape_speed_bound(cc_vec3 linear, cc_vec3 angular, cc_vec3 com, cc_vec3 lower, cc_vec3 upper)
{
    float speed = cc_v3_length(linear);
    float spin = cc_v3_length(angular);
    if (spin > 0.0f) {
        cc_vec3 centre = cc_v3_scale(cc_v3_add(lower, upper), 0.5f);
        float r = cc_v3_length(cc_v3_sub(centre, com)) + 0.5f * cc_v3_length(cc_v3_sub(upper, lower));
        speed += spin * r;
    }
    return speed;
}

/* Reach of a shape whose world bounds are `box` (before growth), on moving
 * body b: how far any of its points can travel toward another within the
 * horizon, capped at e_max; in a scheduled pass at least the reserve.
 * NaN-free for unbounded boxes (planes). */
CC_HD float cc_shape_reach(const cc_speculation_view* s, int b, cc_vec3 lower, cc_vec3 upper)
{
    if (!s->linear || b < 0) return 0.0f;
    cc_vec3 com = cc_tf_point(s->body_pose[b], s->body_mass[b].com);
    float travel = cc_shape_speed_bound(s->linear[b], s->angular[b], com, lower, upper) * cc_speculation_horizon(s);
    float reserve = cc_speculation_reserve(s);
    if (travel < reserve) travel = reserve; /* NaN stays NaN, and takes the cap */
    return travel < s->gap_max ? travel : s->gap_max; /* NaN or inf: the cap */
}

/* The pair's growth of its detection distance [m]. In the time-of-impact
 * mode a pair of convex shapes (planes included) with a fast shape is
 * the time-of-impact stage's (cc_pair_swept: the narrow phase writes
 * nothing for it), which admits by the authored gaps and a scheduled
 * pass's reserve and sweeps beyond them; the other pairs (slow shapes,
 * meshes and heightfields) keep the gap. */
CC_HD int cc_pair_swept(const cc_speculation_view* s, int a, int b)
{
    return s && s->toi && (s->shape_sweep[a] > 0.0f || s->shape_sweep[b] > 0.0f);
}

CC_HD float cc_pair_reach(const cc_speculation_view* s, int a, int b, int convex_pair)
{
    if (!s) return 0.0f;
    if (convex_pair && cc_pair_swept(s, a, b)) return cc_minf(cc_speculation_reserve(s), s->gap_max);
    float r = s->shape_reach[a] + s->shape_reach[b];
    return r < s->gap_max ? r : s->gap_max;
}

/* Closing travel within the horizon of the points of bodies ba and bb at
 * world point p, normal n from a to b [m]; <= 0 when they recede or move
 * together. */
CC_HD_CALL float cc_closing_travel(const cc_speculation_view* s, int ba, int bb, cc_vec3 p, cc_vec3 n)
{
    cc_vec3 va = cc_v3(0.0f, 0.0f, 0.0f), vb = cc_v3(0.0f, 0.0f, 0.0f);
    if (ba >= 0) {
        cc_vec3 com = cc_tf_point(s->body_pose[ba], s->body_mass[ba].com);
        va = cc_v3_add(s->linear[ba], cc_v3_cross(s->angular[ba], cc_v3_sub(p, com)));
    }
    if (bb >= 0) {
        cc_vec3 com = cc_tf_point(s->body_pose[bb], s->body_mass[bb].com);
        vb = cc_v3_add(s->linear[bb], cc_v3_cross(s->angular[bb], cc_v3_sub(p, com)));
    }
    return -cc_v3_dot(cc_v3_sub(vb, va), n) * cc_speculation_horizon(s);
}

/* Whether a point at contact-space distance d beyond the authored gap is
 * kept: d <= min(v dt, e_max), or within a scheduled pass's reserve. */
CC_HD int cc_speculation_admits(const cc_speculation_view* s, int ba, int bb, cc_vec3 p, cc_vec3 n, float d)
{
    if (!s || !(d <= s->gap_max)) return 0;
    return d <= cc_speculation_reserve(s) || d <= cc_closing_travel(s, ba, bb, p, n);
}

/* The row's flag: speculation is on and the points of shapes a and b
 * (bodies ba, bb) close past touching by more than the pair's allowance
 * within the horizon. */
CC_HD_CALL int cc_speculation_flag(const cc_speculation_view* s, int a, int b, int ba, int bb, cc_vec3 p, cc_vec3 n,
                                   float d)
{
    if (!s) return 0;
    float allowance = 0.5f * cc_minf(s->shape_thin[a], s->shape_thin[b]);
    return cc_closing_travel(s, ba, bb, p, n) > cc_maxf(d, 0.0f) + allowance;
}

#endif
