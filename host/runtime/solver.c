/* The solver: per-body force accumulators allocated once, and cc_step,
 * which enqueues the step's stages (clear, contact forces, optional sorted
 * reduction, integration) like cc_collide enqueues a pass. */
#include <math.h>
#include <string.h>

#include "host/runtime/pipeline_internal.h"
#include "host/runtime/solver_internal.h"

#define CC_SOLVER_COOKIE 0x63635f73 /* marks defs made by cc_default_solver_def */

cc_solver_def cc_default_solver_def(void)
{
    cc_solver_def d;
    d.contact_model = CC_CONTACT_COMPLIANT;
    d.point_contact_weight = 1.0f;
    d.deterministic = 0;
    d.gyroscopic = 1;
    d.cookie = CC_SOLVER_COOKIE;
    return d;
}

static size_t align16(size_t n) { return (n + 15) & ~(size_t)15; }

/* Bytes of the solver's block; with base set, points the view into it. */
static size_t solver_layout(cc_step_view* v, int bodies, int entries, size_t sort_bytes, char* base)
{
    size_t off = 0;
#define CC_PLACE(field, type, count)                       \
    v->field = base ? (type*)(base + off) : NULL;          \
    off += align16(sizeof(type) * (size_t)(count));
    CC_PLACE(body_force, cc_vec3, bodies)
    CC_PLACE(body_torque, cc_vec3, bodies)
    CC_PLACE(entry_keys, uint64_t, entries)
    CC_PLACE(sorted_keys, uint64_t, entries)
    CC_PLACE(entry_ids, int, entries)
    CC_PLACE(sorted_ids, int, entries)
    CC_PLACE(entry_force, cc_vec3, entries)
    CC_PLACE(entry_torque, cc_vec3, entries)
#undef CC_PLACE
    v->sort_temp = base ? (void*)(base + off) : NULL;
    off += align16(sort_bytes);
    return off;
}

cc_status cc_solver_create(const cc_model* model, const cc_solver_def* def, int contact_capacity,
                           cc_solver** out)
{
    static const char* what = "cc_solver_create";
    if (!model || !out) return cc_fail(CC_ERR_INVALID_ARGUMENT, "%s: model or out is NULL", what);
    cc_solver_def d = def ? *def : cc_default_solver_def();
    if (d.cookie != CC_SOLVER_COOKIE)
        return cc_fail(CC_ERR_UNINITIALIZED_DEF, "%s: the def was not made by cc_default_solver_def(); start from it and change fields", what);
    if (d.contact_model != CC_CONTACT_COMPLIANT && d.contact_model != CC_CONTACT_PENALTY)
        return cc_fail(CC_ERR_INVALID_ARGUMENT, "%s: contact_model %d is not a cc_contact_model value", what, (int)d.contact_model);
    if (!(isfinite(d.point_contact_weight) && d.point_contact_weight > 0.0f))
        return cc_fail(CC_ERR_INVALID_ARGUMENT, "%s: point_contact_weight %g must be finite and > 0 [m^2]", what, (double)d.point_contact_weight);
    if (contact_capacity < 0 || contact_capacity > (1 << 29))
        return cc_fail(CC_ERR_INVALID_CAPACITY, "%s: contact_capacity %d must lie in 0..2^29; pass the pipeline's rigid_contact_max", what, contact_capacity);
    cc_status active = cc_model_activate(model);
    if (active != CC_OK) return active;
    cc_solver* s = (cc_solver*)cc_host_calloc(1, sizeof *s);
    if (!s) return cc_fail(CC_ERR_OUT_OF_MEMORY, "%s: out of host memory", what);
    s->model = model;
    s->def = d;
    s->contact_capacity = contact_capacity;
    const cc_backend* be = model->backend;
    int bodies = model->host_view.body_count;
    int entries = d.deterministic ? 2 * contact_capacity : 0;
    size_t sort_bytes = entries ? be->sort_temp_bytes(entries) : 0;
    cc_step_view* v = &s->view;
    memset(v, 0, sizeof *v);
    s->block_bytes = solver_layout(v, bodies, entries, sort_bytes, NULL);
    cc_status st = cc_device_alloc(be, s->block_bytes + 16, &s->block);
    if (st != CC_OK) {
        cc_host_free(s);
        return st;
    }
    solver_layout(v, bodies, entries, sort_bytes, (char*)s->block);
    v->model = model->view;
    v->contact_model = (int)d.contact_model;
    v->point_weight = d.point_contact_weight;
    v->gyroscopic = d.gyroscopic != 0;
    v->deterministic = d.deterministic != 0;
    v->entry_capacity = entries;
    v->sort_temp_bytes = sort_bytes;
    *out = s;
    return cc_ok();
}

void cc_solver_destroy(cc_solver* s)
{
    if (!s) return;
    cc_model_activate(s->model);
    if (s->block) s->model->backend->free(s->block);
    cc_host_free(s);
}

cc_status cc_step(cc_solver* s, const cc_state* in, cc_state* out, const cc_contacts* contacts, float dt,
                  cc_stream stream)
{
    static const char* what = "cc_step";
    if (!s || !in || !out) return cc_fail(CC_ERR_INVALID_ARGUMENT, "%s: solver, state_in or state_out is NULL", what);
    if (in->model != s->model || out->model != s->model || (contacts && contacts->model != s->model))
        return cc_fail(CC_ERR_MISMATCH, "%s: the states and contacts must belong to the solver's model", what);
    if (in == out)
        return cc_fail(CC_ERR_INVALID_ARGUMENT, "%s: state_in and state_out are the same state; step from one state into another (ping-pong two states)", what);
    if (!(isfinite(dt) && dt > 0.0f))
        return cc_fail(CC_ERR_INVALID_ARGUMENT, "%s: dt %g must be finite and > 0 [s]", what, (double)dt);
    if (contacts && s->def.deterministic && contacts->view.capacity > s->contact_capacity)
        return cc_fail(CC_ERR_INVALID_CAPACITY, "%s: the contact buffer holds %d rows but the deterministic solver was created for %d; create it with the pipeline's rigid_contact_max", what,
                       contacts->view.capacity, s->contact_capacity);
    cc_status active = cc_model_activate(s->model);
    if (active != CC_OK) return active;
    const cc_backend* be = s->model->backend;
    cc_step_view v = s->view;
    v.pose_in = in->body_pose;
    v.linear_in = in->body_linear;
    v.angular_in = in->body_angular;
    v.pose_out = out->body_pose;
    v.linear_out = out->body_linear;
    v.angular_out = out->body_angular;
    v.dt = dt;
    if (contacts) v.contacts = contacts->view;
    cc_status st = be->run_step_stage(CC_STEP_CLEAR, &v, stream);
    if (st == CC_OK && contacts) {
        st = be->run_step_stage(CC_STEP_CONTACT_FORCES, &v, stream);
        if (st == CC_OK && v.deterministic) st = be->run_step_stage(CC_STEP_SORT_ENTRIES, &v, stream);
        if (st == CC_OK && v.deterministic) st = be->run_step_stage(CC_STEP_REDUCE, &v, stream);
    }
    if (st == CC_OK) st = be->run_step_stage(CC_STEP_INTEGRATE, &v, stream);
    return st == CC_OK ? cc_ok() : st;
}

cc_status cc_solver_get_body_forces(const cc_solver* s, int first, int count, cc_vec3* force, cc_vec3* torque)
{
    static const char* what = "cc_solver_get_body_forces";
    if (!s || ((!force || !torque) && count > 0))
        return cc_fail(CC_ERR_INVALID_ARGUMENT, "%s: solver, force or torque is NULL", what);
    int n = s->model->host_view.body_count;
    if (first < 0 || count < 0 || first > n - count)
        return cc_fail(CC_ERR_INVALID_BODY, "%s: bodies [%d, %lld) are outside 0..%d", what, first, (long long)first + count, n);
    cc_status st = cc_model_activate(s->model);
    if (st != CC_OK) return st;
    const cc_backend* be = s->model->backend;
    size_t bytes = sizeof(cc_vec3) * (size_t)count;
    st = be->download(force, s->view.body_force + first, bytes);
    if (st == CC_OK) st = be->download(torque, s->view.body_torque + first, bytes);
    return st == CC_OK ? cc_ok() : st;
}
