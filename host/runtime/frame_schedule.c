/* Frames run by the collision sub-step scheduler (kernels/step/schedule.h
 * decides): before every substep a kernel observes the shapes' speeds and
 * a one-thread kernel decides whether a collision pass runs. On CUDA each
 * substep's pass is the body of a conditional node that the decision
 * kernel sets; the bodies are captured from a second stream once the
 * frame's own capture has ended. On the CPU, and on CUDA without capture,
 * the host reads each decision and branches. Each conditional node holds a
 * whole captured pass, so the graph grows with the substep count. */
#include <math.h>
#include <string.h>

#include "host/runtime/frame_graph_internal.h"

/* One scheduler stage on state `at` before substep k (k = substeps: the
 * frame's end). */
static cc_status schedule_stage(cc_frame_graph* g, cc_schedule_stage stage, const cc_state* at, int k,
                                unsigned long long condition, cc_stream stream)
{
    cc_schedule_view v = g->schedule;
    v.body_pose = at->body_pose;
    v.linear = at->body_linear;
    v.angular = at->body_angular;
    v.substep = k;
    v.condition = condition;
    return g->backend->run_schedule_stage(stage, &v, stream);
}

/* Whether the decision just enqueued runs a pass: read on the host. */
static cc_status read_decision(cc_frame_graph* g, cc_stream stream, int* collide)
{
    cc_status s = g->backend->synchronize(stream);
    if (s == CC_OK) s = g->backend->download(collide, &g->schedule.state->collide, sizeof *collide);
    return s;
}

/* Capturing, each substep's pass becomes an IF node and its body graph
 * goes to bodies[k], filled by the caller; otherwise the host branches on
 * each decision. The substep count is even, so the frame ends in
 * states[0]. */
cc_status cc_frame_schedule_record(cc_frame_graph* g, cc_stream stream, void** bodies)
{
    const cc_backend* be = g->backend;
    cc_status s = CC_OK;
    for (int k = 0; k < g->substeps && s == CC_OK; ++k) {
        cc_state* from = g->states[k & 1];
        cc_state* to = g->states[(k + 1) & 1];
        unsigned long long condition = 0;
        s = schedule_stage(g, CC_SCHEDULE_OBSERVE, from, k, 0, stream);
        if (s == CC_OK && bodies) s = be->capture_condition(stream, &condition);
        if (s == CC_OK) s = schedule_stage(g, CC_SCHEDULE_DECIDE, from, k, condition, stream);
        if (s == CC_OK && bodies) {
            s = be->capture_if(stream, condition, &bodies[k]);
        } else if (s == CC_OK) {
            int collide = 0;
            s = read_decision(g, stream, &collide);
            if (s == CC_OK && collide) s = cc_collide(g->pipeline, from, g->contacts, stream);
        }
        if (s == CC_OK) s = cc_step(g->solver, from, to, g->contacts, g->dt, stream);
    }
    if (s == CC_OK) s = schedule_stage(g, CC_SCHEDULE_OBSERVE, g->states[0], g->substeps, 0, stream);
    if (s == CC_OK) s = schedule_stage(g, CC_SCHEDULE_DECIDE, g->states[0], g->substeps, 0, stream);
    return s;
}

/* The frame with its conditional nodes, then each node's body (the pass on
 * the substep's state), instantiated into g->exec. */
cc_status cc_frame_schedule_capture(cc_frame_graph* g, cc_stream capture)
{
    const cc_backend* be = g->backend;
    void** bodies = (void**)cc_host_calloc((size_t)g->substeps, sizeof(void*));
    if (!bodies) return cc_fail(CC_ERR_OUT_OF_MEMORY, "cc_frame_graph_create_scheduled: out of host memory");
    void* graph = NULL;
    cc_status s = be->capture_begin(capture);
    if (s == CC_OK) {
        cc_status recorded = cc_frame_schedule_record(g, capture, bodies);
        s = be->capture_end_graph(capture, &graph);
        if (recorded != CC_OK) s = recorded;
    }
    for (int k = 0; k < g->substeps && s == CC_OK; ++k) {
        s = be->capture_into_begin(g->body_stream, bodies[k]);
        if (s == CC_OK) {
            cc_status recorded = cc_collide(g->pipeline, g->states[k & 1], g->contacts, g->body_stream);
            s = be->capture_into_end(g->body_stream);
            if (recorded != CC_OK) s = recorded;
        }
    }
    if (s == CC_OK) {
        s = be->graph_instantiate(graph, &g->exec);
    } else if (graph) {
        be->graph_release(graph);
    }
    cc_host_free(bodies);
    return s;
}

void cc_frame_schedule_release(cc_frame_graph* g)
{
    if (g->body_stream) g->backend->stream_destroy(g->body_stream);
    if (g->schedule.state) g->backend->free(g->schedule.state);
    if (g->schedule.horizon_log) g->backend->free(g->schedule.horizon_log);
    if (g->schedule.speed_log) g->backend->free(g->schedule.speed_log);
}

#define CC_FRAME_SCHEDULE_COOKIE 0x63635f66 /* marks defs made by cc_default_frame_schedule_def */
#define CC_FRAME_SUBSTEPS_MAX 4096

cc_frame_schedule_def cc_default_frame_schedule_def(void)
{
    cc_frame_schedule_def d;
    memset(&d, 0, sizeof d);
    d.frame_dt = 1.0f / 60.0f;
    d.substeps = 10;
    d.collision_dt_max = 0.0f;
    d.capture = 1;
    d.cookie = CC_FRAME_SCHEDULE_COOKIE;
    return d;
}

/* The most substeps between passes: collision_dt_max rounded down to whole
 * substeps (a relative 1e-5 forgives the rounding of h = frame_dt / N),
 * capped at the frame; 0 when shorter than one substep. */
static int schedule_limit(const cc_frame_schedule_def* d)
{
    if (d->collision_dt_max == 0.0f) return d->substeps;
    double h = (double)d->frame_dt / (double)d->substeps;
    double whole = floor((double)d->collision_dt_max / h * (1.0 + 1e-5));
    return whole >= (double)d->substeps ? d->substeps : (int)whole;
}

cc_status cc_frame_graph_create_scheduled(cc_pipeline* pipeline, cc_solver* solver, cc_state* states[2],
                                          const cc_frame_schedule_def* def, cc_stream stream, cc_frame_graph** out)
{
    static const char* what = "cc_frame_graph_create_scheduled";
    cc_frame_schedule_def d = def ? *def : cc_default_frame_schedule_def();
    if (d.cookie != CC_FRAME_SCHEDULE_COOKIE)
        return cc_fail(CC_ERR_UNINITIALIZED_DEF, "%s: the def was not made by cc_default_frame_schedule_def(); start from it and change fields", what);
    if (d.substeps < 2 || d.substeps > CC_FRAME_SUBSTEPS_MAX || (d.substeps & 1))
        return cc_fail(CC_ERR_INVALID_ARGUMENT, "%s: substeps %d must be even and lie in 2..%d (the two states ping-pong, so an even count ends the frame in states[0])", what, d.substeps, CC_FRAME_SUBSTEPS_MAX);
    float h = d.frame_dt / (float)d.substeps;
    if (!(isfinite(d.frame_dt) && d.frame_dt > 0.0f && h > 0.0f && h <= CC_STEP_DT_MAX))
        return cc_fail(CC_ERR_INVALID_ARGUMENT, "%s: frame_dt %g s must be finite and positive, with each of its %d substeps in (0, %g] s", what, (double)d.frame_dt, d.substeps, (double)CC_STEP_DT_MAX);
    if (!(isfinite(d.collision_dt_max) && d.collision_dt_max >= 0.0f))
        return cc_fail(CC_ERR_INVALID_ARGUMENT, "%s: collision_dt_max %g must be a finite time >= 0 [s] (0: one frame)", what, (double)d.collision_dt_max);
    int limit = schedule_limit(&d);
    if (limit < 1)
        return cc_fail(CC_ERR_INVALID_ARGUMENT, "%s: collision_dt_max %g s is shorter than one substep (%g s); collisions cannot run more often than the substeps", what, (double)d.collision_dt_max, (double)h);
    if (pipeline && !pipeline->horizon)
        return cc_fail(CC_ERR_INVALID_STATE, "%s: the pipeline has no speculative contacts, whose reserve the scheduler needs; create it with speculative_contact_gap_max > 0", what);
    cc_frame_graph* g = NULL;
    cc_status s = cc_frame_graph_new(pipeline, solver, states, what, &g);
    if (s != CC_OK) return s;
    g->scheduled = 1;
    g->capture = d.capture != 0;
    g->substeps = d.substeps;
    g->collide_every_n = 1; /* unused by scheduled frames; never 0 */
    g->dt = h;
    cc_schedule_view* v = &g->schedule;
    v->model = pipeline->model->view;
    v->pipeline_horizon = pipeline->horizon;
    v->pipeline_reserve = pipeline->reserve;
    v->substep_dt = h;
    v->reserve = pipeline->info.speculative_contact_gap_max;
    v->substeps = d.substeps;
    v->limit = limit;
    cc_schedule_state start;
    memset(&start, 0, sizeof start);
    start.observed = cc_schedule_nothing_observed();
    start.speed = -1.0f;
    s = cc_device_alloc(g->backend, sizeof start, (void**)&v->state);
    if (s == CC_OK) s = g->backend->upload(v->state, &start, sizeof start);
    if (s == CC_OK) s = cc_device_alloc(g->backend, sizeof(int) * (size_t)d.substeps, (void**)&v->horizon_log);
    if (s == CC_OK) s = cc_device_alloc(g->backend, sizeof(float) * (size_t)(d.substeps + 1), (void**)&v->speed_log);
    if (s == CC_OK) s = cc_frame_graph_capture(g, stream);
    if (s != CC_OK) {
        cc_frame_graph_destroy(g);
        return s;
    }
    *out = g;
    return cc_ok();
}

cc_status cc_frame_graph_get_schedule(const cc_frame_graph* g, cc_frame_schedule* out, int* horizons, float* speeds)
{
    static const char* what = "cc_frame_graph_get_schedule";
    if (!g || !out) return cc_fail(CC_ERR_INVALID_ARGUMENT, "%s: graph or out is NULL", what);
    if (!g->scheduled)
        return cc_fail(CC_ERR_INVALID_STATE, "%s: the graph collides on a fixed schedule (cc_frame_graph_create); only cc_frame_graph_create_scheduled keeps a schedule", what);
    cc_status s = cc_model_activate(g->pipeline->model);
    cc_schedule_state st;
    if (s == CC_OK) s = g->backend->download(&st, g->schedule.state, sizeof st);
    if (s == CC_OK && horizons)
        s = g->backend->download(horizons, g->schedule.horizon_log, sizeof(int) * (size_t)g->substeps);
    if (s == CC_OK && speeds)
        s = g->backend->download(speeds, g->schedule.speed_log, sizeof(float) * (size_t)(g->substeps + 1));
    if (s != CC_OK) return s;
    out->passes = st.passes;
    out->interval_overflow = st.overflow;
    out->frames = st.frames;
    out->overflow_frames = st.overflow_frames;
    out->limit = g->schedule.limit;
    return cc_ok();
}

