/* Frame graphs: one frame of collide + substeps recorded once and replayed.
 * The frame is written once, in record_frame; on CUDA it runs under stream
 * capture and becomes a CUDA graph, on the CPU it simply runs at each
 * launch, so both backends replay exactly the same sequence. With
 * speculative contacts, each collide's horizon (the time to the next one,
 * capped at the frame's end) is copied into the pipeline's device value
 * just before it, from a table the graph holds. Frames run by the
 * collision sub-step scheduler are in frame_schedule.c. */
#include <math.h>

#include "host/runtime/frame_graph_internal.h"

/* Collide before substeps 0, n, 2n, ...; ping-pong the states; an odd
 * substep count ends with a copy so the frame always ends in states[0]. */
static cc_status record_frame(cc_frame_graph* g, cc_stream stream)
{
    cc_status s = CC_OK;
    for (int k = 0; k < g->substeps && s == CC_OK; ++k) {
        cc_state* from = g->states[k & 1];
        cc_state* to = g->states[(k + 1) & 1];
        if (k % g->collide_every_n == 0 && g->horizons)
            s = g->backend->copy_async(g->pipeline->horizon, g->horizons + k / g->collide_every_n, sizeof(float), stream);
        if (k % g->collide_every_n == 0 && s == CC_OK) s = cc_collide(g->pipeline, from, g->contacts, stream);
        if (s == CC_OK) s = cc_step(g->solver, from, to, g->contacts, g->dt, stream);
    }
    if (s == CC_OK && (g->substeps & 1)) s = cc_state_copy(g->states[0], g->states[1], stream);
    return s;
}

void cc_frame_graph_destroy(cc_frame_graph* g)
{
    if (!g) return;
    cc_model_activate(g->pipeline->model);
    if (g->exec) g->backend->graph_destroy(g->exec);
    if (g->own_stream) g->backend->stream_destroy(g->own_stream);
    if (g->horizons) g->backend->free(g->horizons);
    cc_frame_schedule_release(g);
    cc_contacts_destroy(g->contacts);
    cc_host_free(g);
}

cc_status cc_frame_graph_new(cc_pipeline* pipeline, cc_solver* solver, cc_state* states[2], const char* what,
                             cc_frame_graph** out)
{
    if (!pipeline || !solver || !states || !states[0] || !states[1] || !out)
        return cc_fail(CC_ERR_INVALID_ARGUMENT, "%s: pipeline, solver, states[0], states[1] or out is NULL", what);
    const cc_model* m = pipeline->model;
    if (solver->model != m || states[0]->model != m || states[1]->model != m)
        return cc_fail(CC_ERR_MISMATCH, "%s: the pipeline, solver and states must belong to one model", what);
    if (states[0] == states[1])
        return cc_fail(CC_ERR_INVALID_ARGUMENT, "%s: states[0] and states[1] are the same state; pass two states to ping-pong", what);
    if (pipeline->profiling)
        return cc_fail(CC_ERR_INVALID_STATE, "%s: the pipeline has profiling on, which waits between stages; turn it off with cc_pipeline_set_profiling before capturing", what);
    cc_status active = cc_model_activate(m);
    if (active != CC_OK) return active;
    cc_frame_graph* g = (cc_frame_graph*)cc_host_calloc(1, sizeof *g);
    if (!g) return cc_fail(CC_ERR_OUT_OF_MEMORY, "%s: out of host memory", what);
    g->pipeline = pipeline;
    g->solver = solver;
    g->states[0] = states[0];
    g->states[1] = states[1];
    g->backend = m->backend;
    g->capture = 1;
    cc_status s = cc_contacts_create(pipeline, &g->contacts);
    if (s != CC_OK) {
        cc_frame_graph_destroy(g);
        return s;
    }
    *out = g;
    return CC_OK;
}

cc_status cc_frame_graph_capture(cc_frame_graph* g, cc_stream stream)
{
    const cc_backend* be = g->backend;
    if (!be->capture_begin || !g->capture) return CC_OK;
    cc_stream capture = stream;
    cc_status s = CC_OK;
    if (!capture) {
        /* The legacy default stream cannot be captured. */
        s = be->stream_create(&g->own_stream);
        capture = g->own_stream;
    }
    if (s != CC_OK) return s;
    if (g->scheduled) {
        s = be->stream_create(&g->body_stream);
        return s == CC_OK ? cc_frame_schedule_capture(g, capture) : s;
    }
    s = be->capture_begin(capture);
    if (s == CC_OK) {
        cc_status recorded = record_frame(g, capture);
        s = be->capture_end(capture, &g->exec);
        if (recorded != CC_OK) s = recorded;
    }
    return s;
}

cc_status cc_frame_graph_create(cc_pipeline* pipeline, cc_solver* solver, cc_state* states[2], int substeps,
                                int collide_every_n, float dt, cc_stream stream, cc_frame_graph** out)
{
    static const char* what = "cc_frame_graph_create";
    if (substeps < 1 || collide_every_n < 1)
        return cc_fail(CC_ERR_INVALID_ARGUMENT, "%s: substeps %d and collide_every_n %d must both be >= 1", what, substeps, collide_every_n);
    if (!(isfinite(dt) && dt > 0.0f && dt <= CC_STEP_DT_MAX))
        return cc_fail(CC_ERR_INVALID_ARGUMENT, "%s: dt %g must lie in (0, %g] s", what, (double)dt, (double)CC_STEP_DT_MAX);
    cc_frame_graph* g = NULL;
    cc_status s = cc_frame_graph_new(pipeline, solver, states, what, &g);
    if (s != CC_OK) return s;
    g->substeps = substeps;
    g->collide_every_n = collide_every_n;
    g->dt = dt;
    if (pipeline->horizon) {
        int collides = (substeps + collide_every_n - 1) / collide_every_n;
        float* table = (float*)cc_host_alloc(sizeof(float) * (size_t)collides);
        if (!table) s = cc_fail(CC_ERR_OUT_OF_MEMORY, "%s: out of host memory", what);
        for (int j = 0; j < collides && s == CC_OK; ++j) {
            int left = substeps - j * collide_every_n;
            table[j] = (float)(left < collide_every_n ? left : collide_every_n) * dt;
        }
        if (s == CC_OK) s = cc_device_alloc(g->backend, sizeof(float) * (size_t)collides, (void**)&g->horizons);
        if (s == CC_OK) s = g->backend->upload(g->horizons, table, sizeof(float) * (size_t)collides);
        cc_host_free(table);
    }
    if (s == CC_OK) s = cc_frame_graph_capture(g, stream);
    if (s != CC_OK) {
        cc_frame_graph_destroy(g);
        return s;
    }
    *out = g;
    return cc_ok();
}

cc_status cc_frame_graph_launch(cc_frame_graph* g, cc_stream stream)
{
    if (!g) return cc_fail(CC_ERR_INVALID_ARGUMENT, "cc_frame_graph_launch: graph is NULL");
    cc_status s = cc_model_activate(g->pipeline->model);
    if (s != CC_OK) return s;
    if (g->exec) s = g->backend->graph_launch(g->exec, stream);
    else s = g->scheduled ? cc_frame_schedule_record(g, stream, NULL) : record_frame(g, stream);
    return s == CC_OK ? cc_ok() : s;
}

void* cc_frame_graph_exec(const cc_frame_graph* g) { return g ? g->exec : NULL; }

const cc_contacts* cc_frame_graph_contacts(const cc_frame_graph* g) { return g ? g->contacts : NULL; }
