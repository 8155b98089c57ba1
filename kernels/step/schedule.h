/* The collision sub-step scheduler: a frame of N substeps of length h
 * collides at its start and again only when it must, all decided on the
 * device. Each pass keeps every separated candidate within the reserve R
 * (speculative_contact_gap_max, contacts/speculation.h), so its contacts
 * stay valid while no two shapes can have closed R since it ran.
 *
 * Before each substep the largest speed bound v of any colliding shape
 * (|v| + |w| r, the same bound the speculative reach uses) is observed, and
 * two shapes are assumed to close at 2v. The substep just taken adds
 * 2 v h to the travel since the last pass; the next one is estimated at
 * 2 (v + max(v - v_prev, 0)) h, so a speed that grew over the last substep
 * is expected to grow as much again. A pass runs at the frame's start,
 * when the last pass's horizon has expired, or when the travel plus the
 * estimate would exceed R. A pass chooses its horizon H once: the most
 * substeps the estimate allows within R, at least 1, at most the limit
 * (collision_dt_max in whole substeps) and never past the frame's end, so
 * a later drop in speed does not extend it; H h is the pass's collision
 * dt. interval_overflow is set when a substep's travel alone, or the
 * travel since the last pass, exceeds R (the observed motion outran the
 * reserve: more substeps or a larger reserve are needed); the frame's
 * last substep is checked at its end. Unobserved impulses are no part of
 * the bound. */
#ifndef CC_KERNELS_STEP_SCHEDULE_H
#define CC_KERNELS_STEP_SCHEDULE_H

#include "kernels/shapes/bounds.h"

/* The observed maximum before any shape reports: speed 0 (no moving
 * shape collides). */
CC_HD unsigned long long cc_schedule_nothing_observed(void) { return (unsigned long long)cc_float_order_bits(0.0f); }

/* The scheduler's device state, kept across frames. */
typedef struct cc_schedule_state {
    unsigned long long observed; /* largest speed bound observed since the last decision (cc_float_order_bits) */
    float speed;                 /* the speed bound the last decision saw [m/s]; < 0 before the first */
    float travel;                /* pairwise travel bound since the last pass [m] */
    int expires;                 /* substep at which the last pass's horizon ends */
    int collide;                 /* the current decision: nonzero runs a pass before the substep */
    int passes;                  /* passes in the current (or last) frame */
    int overflow;                /* interval_overflow of the current (or last) frame */
    int frames;                  /* frames completed */
    int overflow_frames;         /* frames completed with interval_overflow */
} cc_schedule_state;

typedef struct cc_schedule_view {
    cc_model_view model;
    const cc_transform* body_pose; /* the state observed (set per launch) */
    const cc_vec3* linear;
    const cc_vec3* angular;
    cc_schedule_state* state;
    int* horizon_log;              /* (substeps) the horizon in substeps of the pass before each substep, 0: none */
    float* speed_log;              /* (substeps + 1) the speed bound each decision saw [m/s] */
    float* pipeline_horizon;       /* the pipeline's collision dt [s] */
    float* pipeline_reserve;       /* the pipeline's reserve [m]: R during the frame's passes, 0 after */
    float substep_dt;              /* h [s] */
    float reserve;                 /* R [m] */
    int substeps;                  /* N, even */
    int limit;                     /* most substeps a horizon spans, >= 1 */
    int substep;                   /* the decision's substep, 0..N (N: the frame's end); set per launch */
    unsigned long long condition;  /* CUDA conditional handle the decision sets; 0: none */
} cc_schedule_view;

/* Per shape: its speed bound into the state's running maximum. Shapes that
 * never collide and shapes of static bodies or the world do not count. */
CC_HD void cc_schedule_observe_thread(int i, const cc_schedule_view* v)
{
    const cc_model_view* m = &v->model;
    int b = m->shape_geom[i].body;
    if (!(m->shape_flags[i] & CC_SHAPE_FLAG_COLLIDES) || b < 0 || m->body_static[b]) return;
    cc_transform pose = v->body_pose[b];
    cc_aabb box = cc_shape_world_aabb(m, i, cc_tf_mul(pose, m->shape_local[i]));
    cc_vec3 com = cc_tf_point(pose, m->body_mass[b].com);
    float speed = cc_shape_speed_bound(v->linear[b], v->angular[b], com, box.lower, box.upper);
    if (!(speed <= 3.0e38f)) speed = 3.0e38f; /* NaN or infinite: no bound */
    cc_atomic_max_u64(&v->state->observed, (unsigned long long)cc_float_order_bits(speed));
}

/* The decision before substep k (k = N: the frame's end, which only
 * accounts for the last substep) given the observed speed bound v [m/s];
 * returns the horizon in substeps of the pass to run, 0 for none. */
CC_HD int cc_schedule_decide(cc_schedule_state* s, int k, int substeps, int limit, float h, float reserve, float v)
{
    if (!(v >= 0.0f)) v = 3.0e38f;
    float prev = s->speed >= 0.0f ? s->speed : v;
    s->speed = v;
    if (k == 0) {
        s->passes = 0;
        s->overflow = 0;
    } else {
        /* The substep just taken; its travel alone beyond the reserve is
         * the travel since the pass beyond it too. */
        s->travel += 2.0f * v * h;
        if (s->travel > reserve) s->overflow = 1;
    }
    s->collide = 0;
    if (k >= substeps) {
        s->frames += 1;
        s->overflow_frames += s->overflow ? 1 : 0;
        return 0;
    }
    float next = 2.0f * (v + cc_maxf(v - prev, 0.0f)) * h;
    if (k > 0 && k < s->expires && s->travel + next <= reserve) return 0;
    int left = substeps - k;
    int horizon = limit < left ? limit : left;
    if (next * (float)horizon > reserve) {
        float fit = reserve / next; /* < horizon here */
        horizon = fit >= 1.0f ? (int)fit : 1;
    }
    s->collide = 1;
    s->passes += 1;
    s->travel = 0.0f;
    s->expires = k + horizon;
    return horizon;
}

/* The decision stage (one thread): takes the observed maximum, decides,
 * logs, and sets the pipeline's collision dt and reserve for the pass. */
CC_HD void cc_schedule_decide_thread(const cc_schedule_view* v)
{
    cc_schedule_state* s = v->state;
    float speed = cc_float_from_order_bits((uint32_t)s->observed);
    s->observed = cc_schedule_nothing_observed();
    int k = v->substep;
    int horizon = cc_schedule_decide(s, k, v->substeps, v->limit, v->substep_dt, v->reserve, speed);
    v->speed_log[k] = speed;
    if (k < v->substeps) v->horizon_log[k] = horizon;
    if (horizon) {
        *v->pipeline_horizon = (float)horizon * v->substep_dt;
        *v->pipeline_reserve = v->reserve;
    }
    if (k >= v->substeps) *v->pipeline_reserve = 0.0f;
}

#endif
