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
    d.integrator = CC_INTEGRATOR_IMPLICIT;
    d.implicit_sweeps = 4;
    d.point_contact_weight = 0.0f;
    d.deterministic = 0;
    d.gyroscopic = 1;
    d.cookie = CC_SOLVER_COOKIE;
    return d;
}

static size_t align16(size_t n) { return (n + 15) & ~(size_t)15; }

/* What the block holds: entries (deterministic sums), implicit terms,
 * couplings (implicit with sweeps). */
typedef struct solver_sizes {
    int bodies, entries, contacts;
    int implicit, entry_implicit, coupling, entry_coupling;
    size_t sort_bytes;
} solver_sizes;

/* Bytes of the solver's block; with base set, points the view into it. */
static size_t solver_layout(cc_step_view* v, const solver_sizes* z, char* base)
{
    size_t off = 0;
#define CC_PLACE(field, type, count)                       \
    v->field = base ? (type*)(base + off) : NULL;          \
    off += align16(sizeof(type) * (size_t)(count));
    CC_PLACE(body_force, cc_vec3, z->bodies)
    CC_PLACE(body_torque, cc_vec3, z->bodies)
    CC_PLACE(entry_keys, uint64_t, z->entries)
    CC_PLACE(sorted_keys, uint64_t, z->entries)
    CC_PLACE(entry_ids, int, z->entries)
    CC_PLACE(sorted_ids, int, z->entries)
    CC_PLACE(entry_force, cc_vec3, z->entries)
    CC_PLACE(entry_torque, cc_vec3, z->entries)
    CC_PLACE(body_implicit, float, (size_t)z->implicit * z->bodies * CC_IMPLICIT_TERMS)
    CC_PLACE(body_coupling, float, (size_t)z->implicit * z->bodies * CC_TWIST)
    CC_PLACE(body_dv, float, (size_t)z->implicit * z->bodies * CC_TWIST)
    CC_PLACE(body_system, cc_body_system, (size_t)z->implicit * z->bodies)
    CC_PLACE(entry_implicit, float, (size_t)z->entry_implicit * z->entries * CC_IMPLICIT_TERMS)
    CC_PLACE(contact_coupling, cc_contact_coupling, (size_t)z->coupling * z->contacts)
    CC_PLACE(entry_coupling, float, (size_t)z->entry_coupling * z->entries * CC_TWIST)
    CC_PLACE(report, cc_step_report_state, 1)
    CC_PLACE(body_spec, unsigned long long, (size_t)z->bodies * CC_SPEC_SLOTS * CC_SPEC_SLOT_WORDS)
    CC_PLACE(body_arrest, long long, (size_t)z->bodies * CC_SPEC_BODY_WORDS)
    CC_PLACE(row_spec_target, float, z->contacts)
    CC_PLACE(row_spec_slack, float, z->contacts)
    CC_PLACE(row_spec_loss, float, z->contacts)
    CC_PLACE(row_spec_impulse, float, z->contacts)
    CC_PLACE(spec_rounds_active, int, CC_SPEC_ROUNDS)
#undef CC_PLACE
    v->sort_temp = base ? (void*)(base + off) : NULL;
    off += align16(z->sort_bytes);
    return off;
}

/* A report with no steps and no limit. */
static cc_step_report_state empty_report(void)
{
    cc_step_report_state r;
    r.step_limit_bits = cc_float_order_bits(INFINITY);
    r.min_limit_bits = r.step_limit_bits;
    r.steps = 0;
    r.steps_over_limit = 0;
    r.bodies_stopped = 0;
    return r;
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
    if (d.integrator != CC_INTEGRATOR_IMPLICIT && d.integrator != CC_INTEGRATOR_EXPLICIT)
        return cc_fail(CC_ERR_INVALID_ARGUMENT, "%s: integrator %d is not a cc_integrator value", what, (int)d.integrator);
    if (d.implicit_sweeps < 0 || d.implicit_sweeps > 64)
        return cc_fail(CC_ERR_INVALID_ARGUMENT, "%s: implicit_sweeps %d must lie in 0..64", what, d.implicit_sweeps);
    if (!(isfinite(d.point_contact_weight) && d.point_contact_weight >= 0.0f))
        return cc_fail(CC_ERR_INVALID_ARGUMENT, "%s: point_contact_weight %g must be finite and >= 0 [m^2] (0: from the shapes)", what, (double)d.point_contact_weight);
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
    solver_sizes z;
    z.bodies = model->host_view.body_count;
    z.contacts = contact_capacity;
    z.entries = d.deterministic ? 2 * contact_capacity : 0;
    z.implicit = d.integrator == CC_INTEGRATOR_IMPLICIT;
    z.entry_implicit = z.implicit && d.deterministic;
    z.coupling = z.implicit && d.implicit_sweeps > 0;
    z.entry_coupling = z.coupling && d.deterministic;
    z.sort_bytes = z.entries ? be->sort_temp_bytes(z.entries) : 0;
    cc_step_view* v = &s->view;
    memset(v, 0, sizeof *v);
    s->block_bytes = solver_layout(v, &z, NULL);
    cc_status st = cc_device_alloc(be, s->block_bytes + 16, &s->block);
    if (st != CC_OK) {
        cc_host_free(s);
        return st;
    }
    solver_layout(v, &z, (char*)s->block);
    cc_step_report_state report = empty_report();
    st = be->upload(v->report, &report, sizeof report);
    if (st != CC_OK) {
        be->free(s->block);
        cc_host_free(s);
        return st;
    }
    v->model = model->view;
    v->contact_model = (int)d.contact_model;
    v->integrator = (int)d.integrator;
    v->sweeps = z.implicit ? d.implicit_sweeps : 0;
    v->point_weight = d.point_contact_weight;
    v->gyroscopic = d.gyroscopic != 0;
    v->deterministic = d.deterministic != 0;
    v->entry_capacity = z.entries;
    v->sort_temp_bytes = z.sort_bytes;
    cc_model_retain(s->model);
    *out = s;
    return cc_ok();
}

void cc_solver_destroy(cc_solver* s)
{
    if (!s) return;
    const cc_model* m = s->model;
    cc_model_activate(m);
    if (s->block) m->backend->free(s->block);
    cc_host_free(s);
    cc_model_release(m);
}

/* The arrest rounds of a step with speculative rows
 * (kernels/step/speculative.h): the first finds the rows, every later one
 * what the rounds before left. */
static cc_status speculative_rounds(const cc_backend* be, cc_step_view* v, cc_stream stream)
{
    cc_status st = be->run_step_stage(CC_STEP_SPECULATIVE, v, stream);
    for (int round = 0; round < CC_SPEC_ROUNDS && st == CC_OK; ++round) {
        v->spec_round = round;
        if (round > 0) st = be->run_step_stage(CC_STEP_SPECULATIVE_CLEAR, v, stream);
        if (round > 0 && st == CC_OK) st = be->run_step_stage(CC_STEP_SPECULATIVE_RESIDUAL, v, stream);
        if (st == CC_OK) st = be->run_step_stage(CC_STEP_ARREST, v, stream);
    }
    return st;
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
    if (!(isfinite(dt) && dt > 0.0f && dt <= CC_STEP_DT_MAX))
        return cc_fail(CC_ERR_INVALID_ARGUMENT, "%s: dt %g must lie in (0, %g] s", what, (double)dt, (double)CC_STEP_DT_MAX);
    /* Per-row scratch is sized by the solver's capacity. */
    if (contacts && (s->def.deterministic || s->view.sweeps > 0 || contacts->speculative) &&
        contacts->view.capacity > s->contact_capacity)
        return cc_fail(CC_ERR_INVALID_CAPACITY, "%s: the contact buffer holds %d rows but the solver (%s) was created for %d; create it with the pipeline's rigid_contact_max", what,
                       contacts->view.capacity,
                       s->def.deterministic ? "deterministic"
                       : s->view.sweeps > 0 ? "implicit, with coupling sweeps"
                                            : "stepping speculative rows",
                       s->contact_capacity);
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
    /* Only contacts of a speculating pipeline have speculative rows. */
    if (!contacts || !contacts->speculative) {
        v.body_spec = NULL;
        v.body_arrest = NULL;
        v.row_spec_target = NULL;
        v.row_spec_slack = NULL;
        v.row_spec_loss = NULL;
        v.row_spec_impulse = NULL;
        v.spec_rounds_active = NULL;
    }
    cc_status st = be->run_step_stage(CC_STEP_CLEAR, &v, stream);
    if (st == CC_OK && contacts) {
        if (v.body_spec) st = speculative_rounds(be, &v, stream);
        if (st == CC_OK) st = be->run_step_stage(CC_STEP_CONTACT_FORCES, &v, stream);
        if (st == CC_OK && v.deterministic) st = be->run_step_stage(CC_STEP_SORT_ENTRIES, &v, stream);
        if (st == CC_OK && v.deterministic) st = be->run_step_stage(CC_STEP_REDUCE, &v, stream);
    }
    if (v.integrator == CC_INTEGRATOR_IMPLICIT) {
        /* A solve, then a fixed number of sweeps (none without contacts). */
        v.sweep = 0;
        if (st == CC_OK) st = be->run_step_stage(CC_STEP_SOLVE, &v, stream);
        for (int k = 1; contacts && k <= v.sweeps && st == CC_OK; ++k) {
            v.sweep = k;
            st = be->run_step_stage(CC_STEP_COUPLING, &v, stream);
            if (st == CC_OK && v.deterministic) st = be->run_step_stage(CC_STEP_REDUCE_COUPLING, &v, stream);
            if (st == CC_OK) st = be->run_step_stage(CC_STEP_SOLVE, &v, stream);
        }
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

cc_status cc_solver_get_report(const cc_solver* s, cc_solver_report* out)
{
    static const char* what = "cc_solver_get_report";
    if (!s || !out) return cc_fail(CC_ERR_INVALID_ARGUMENT, "%s: solver or out is NULL", what);
    cc_status st = cc_model_activate(s->model);
    if (st != CC_OK) return st;
    cc_step_report_state r;
    st = s->model->backend->download(&r, s->view.report, sizeof r);
    if (st != CC_OK) return st;
    out->steps = r.steps;
    out->steps_over_limit = r.steps_over_limit;
    out->bodies_stopped = r.bodies_stopped;
    out->dt_limit = cc_float_from_order_bits(r.min_limit_bits);
    out->last_dt_limit = r.steps > 0 ? cc_float_from_order_bits(r.step_limit_bits) : INFINITY;
    return cc_ok();
}

cc_status cc_solver_reset_report(cc_solver* s)
{
    static const char* what = "cc_solver_reset_report";
    if (!s) return cc_fail(CC_ERR_INVALID_ARGUMENT, "%s: solver is NULL", what);
    cc_status st = cc_model_activate(s->model);
    if (st != CC_OK) return st;
    st = s->model->backend->synchronize(NULL);
    cc_step_report_state r = empty_report();
    if (st == CC_OK) st = s->model->backend->upload(s->view.report, &r, sizeof r);
    return st == CC_OK ? cc_ok() : st;
}
