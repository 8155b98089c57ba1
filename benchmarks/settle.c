/* The settle scene: a mixed pile dropped on the ground (scenes.c) and
 * stepped for a while with each integrator, collide before every step.
 * Prints the total energy over time (potential above the ground plus
 * kinetic, summed over the worlds), the largest body speed at the end, the
 * deepest penetration of the last collide, the stability report and the
 * world-steps per second. Also the source of the stepping check in the
 * tests (tests/step/test_step_stability.cpp). */
#define _POSIX_C_SOURCE 199309L /* clock_gettime */
#include "benchmarks/settle.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double seconds_now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

void settle_destroy(settle_sim* s)
{
    free(s->mass);
    free(s->inertia);
    free(s->center);
    free(s->pose);
    free(s->linear);
    free(s->angular);
    free(s->rows);
    for (int i = 0; i < 2; ++i) cc_state_destroy(s->state[i]);
    cc_solver_destroy(s->solver);
    cc_contacts_destroy(s->contacts);
    cc_pipeline_destroy(s->pipeline);
    cc_model_destroy(s->model);
    memset(s, 0, sizeof *s);
}

cc_status settle_create(const cc_builder* b, cc_device device, const cc_solver_def* sd, int deterministic,
                        settle_sim* s)
{
    memset(s, 0, sizeof *s);
    cc_status st = cc_builder_finalize(b, device, &s->model);
    cc_pipeline_def pd = cc_default_pipeline_def();
    pd.deterministic = deterministic;
    cc_pipeline_info info;
    if (st == CC_OK) st = cc_pipeline_create(s->model, &pd, &s->pipeline);
    if (st == CC_OK) st = cc_contacts_create(s->pipeline, &s->contacts);
    if (st == CC_OK) st = cc_pipeline_get_info(s->pipeline, &info);
    if (st == CC_OK) st = cc_solver_create(s->model, sd, info.rigid_contact_max, &s->solver);
    for (int i = 0; i < 2 && st == CC_OK; ++i) st = cc_state_create(s->model, &s->state[i]);
    if (st != CC_OK) {
        settle_destroy(s);
        return st;
    }
    int n = s->bodies = cc_model_body_count(s->model);
    s->capacity = info.rigid_contact_max;
    s->mass = (float*)calloc((size_t)n + 1, sizeof(float));
    s->inertia = (float*)calloc(9 * (size_t)n + 1, sizeof(float));
    s->center = (cc_vec3*)calloc((size_t)n + 1, sizeof(cc_vec3));
    s->pose = (cc_transform*)calloc((size_t)n + 1, sizeof(cc_transform));
    s->linear = (cc_vec3*)calloc((size_t)n + 1, sizeof(cc_vec3));
    s->angular = (cc_vec3*)calloc((size_t)n + 1, sizeof(cc_vec3));
    s->rows = (cc_contact*)calloc((size_t)s->capacity + 1, sizeof(cc_contact));
    if (!s->mass || !s->inertia || !s->center || !s->pose || !s->linear || !s->angular || !s->rows) {
        settle_destroy(s);
        return CC_ERR_OUT_OF_MEMORY;
    }
    for (int i = 0; i < n; ++i) {
        cc_mass_properties mp;
        if (cc_model_body_is_static(s->model, i) || cc_model_get_body_mass(s->model, i, &mp) != CC_OK) continue;
        s->mass[i] = mp.mass;
        s->center[i] = mp.center;
        memcpy(s->inertia + 9 * i, mp.inertia, sizeof mp.inertia);
    }
    return CC_OK;
}

cc_status settle_step(settle_sim* s, float dt)
{
    cc_state* in = s->state[s->current];
    cc_state* out = s->state[1 - s->current];
    cc_status st = cc_collide(s->pipeline, in, s->contacts, NULL);
    if (st == CC_OK) st = cc_step(s->solver, in, out, s->contacts, dt, NULL);
    if (st == CC_OK) s->current = 1 - s->current;
    return st;
}

/* Body axes: w_body = R^T w, and the kinetic energy of rotation w_b^T I w_b / 2. */
static double rotational_energy(const float* inertia, cc_quat q, cc_vec3 w)
{
    /* R^T w by the conjugate rotation. */
    float x = -q.x, y = -q.y, z = -q.z, qw = q.w;
    float tx = 2.0f * (y * w.z - z * w.y), ty = 2.0f * (z * w.x - x * w.z), tz = 2.0f * (x * w.y - y * w.x);
    float b[3] = {w.x + qw * tx + (y * tz - z * ty), w.y + qw * ty + (z * tx - x * tz),
                  w.z + qw * tz + (x * ty - y * tx)};
    double e = 0.0;
    for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j) e += 0.5 * b[i] * inertia[3 * i + j] * b[j];
    return e;
}

cc_status settle_measure(settle_sim* s, cc_vec3 gravity, settle_measures* m)
{
    cc_state* now = s->state[s->current];
    cc_status st = cc_state_get_body_poses(now, 0, s->bodies, s->pose);
    if (st == CC_OK) st = cc_state_get_body_velocities(now, 0, s->bodies, s->linear, s->angular);
    if (st != CC_OK) return st;
    memset(m, 0, sizeof *m);
    m->finite = 1;
    for (int i = 0; i < s->bodies; ++i) {
        if (s->mass[i] == 0.0f) continue;
        cc_vec3 v = s->linear[i], w = s->angular[i];
        cc_transform t = s->pose[i];
        float vals[10] = {t.p.x, t.p.y, t.p.z, t.q.x, t.q.y, t.q.z, t.q.w, v.x, v.y, v.z};
        for (int k = 0; k < 10; ++k)
            if (!isfinite(vals[k])) m->finite = 0;
        double speed = sqrt((double)v.x * v.x + (double)v.y * v.y + (double)v.z * v.z);
        double spin = sqrt((double)w.x * w.x + (double)w.y * w.y + (double)w.z * w.z);
        if (speed > m->max_speed) m->max_speed = speed;
        if (spin > m->max_spin) m->max_spin = spin;
        /* The potential of gravity, -m g . c at the centre of mass c. */
        cc_vec3 c = s->center[i];
        float cx = c.x, cy = c.y, cz = c.z;
        /* c in the world: t.p + R c (the quaternion's rotation). */
        float qx = t.q.x, qy = t.q.y, qz = t.q.z, qw = t.q.w;
        float ux = 2.0f * (qy * cz - qz * cy), uy = 2.0f * (qz * cx - qx * cz), uz = 2.0f * (qx * cy - qy * cx);
        double wx = t.p.x + cx + qw * ux + (qy * uz - qz * uy), wy = t.p.y + cy + qw * uy + (qz * ux - qx * uz),
               wz = t.p.z + cz + qw * uz + (qx * uy - qy * ux);
        m->energy += -(double)s->mass[i] * (gravity.x * wx + gravity.y * wy + gravity.z * wz) +
                     0.5 * s->mass[i] * speed * speed + rotational_energy(s->inertia + 9 * i, t.q, w);
    }
    int n = 0;
    st = cc_contacts_download(s->contacts, s->state[s->current], s->rows, s->capacity, &n);
    if (st != CC_OK) return st;
    for (int i = 0; i < n; ++i)
        if (-s->rows[i].distance > m->deepest) m->deepest = -s->rows[i].distance;
    return CC_OK;
}

int bench_settle(cc_device device, int worlds, int shapes, double seconds, int deterministic)
{
    const float dt = 1.0e-3f;
    const double marks[] = {0.0, 0.25, 0.5, 1.0, 2.0, 3.0, 5.0, 10.0, 20.0, 50.0, 100.0};
    int steps = (int)ceil(seconds / dt);
    printf("settle: %d worlds of %d bodies dropped on the ground, dt = 1 ms, %.1f s (%d steps), collide every step%s\n",
           worlds, shapes, seconds, steps, deterministic ? ", deterministic" : "");
    printf("  %-9s %8s %14s %12s %12s %12s %12s %14s\n", "integrator", "t [s]", "energy [J]", "max v [m/s]",
           "max w [1/s]", "deepest [m]", "dt limit [s]", "world-steps/s");
    int failures = 0;
    for (int pass = 0; pass < 2; ++pass) {
        cc_integrator it = pass == 0 ? CC_INTEGRATOR_IMPLICIT : CC_INTEGRATOR_EXPLICIT;
        const char* name = it == CC_INTEGRATOR_IMPLICIT ? "implicit" : "explicit";
        cc_builder_def bd = cc_default_builder_def();
        cc_builder* b = NULL;
        scene_params p = {worlds, shapes, 0.0f, 0.01f, 0u, NULL};
        cc_status st = cc_builder_create(&bd, &b);
        if (st == CC_OK) st = scene_build(SCENE_SETTLE, &p, b);
        cc_solver_def sd = cc_default_solver_def();
        sd.integrator = it;
        sd.deterministic = deterministic;
        settle_sim s;
        if (st == CC_OK) st = settle_create(b, device, &sd, deterministic, &s);
        cc_builder_destroy(b);
        if (st != CC_OK) {
            fprintf(stderr, "cucontact-bench: settle (%s): %s\n", name, cc_last_error_message());
            return 1;
        }
        double stepping = 0.0;
        int k = 0, exploded = 0;
        for (size_t mi = 0; mi < sizeof marks / sizeof marks[0] && marks[mi] <= seconds + 1e-9; ++mi) {
            int until = (int)ceil(marks[mi] / dt - 1e-6);
            double t0 = seconds_now();
            for (; k < until && st == CC_OK; ++k) st = settle_step(&s, dt);
            stepping += seconds_now() - t0;
            settle_measures m;
            if (st == CC_OK) st = settle_measure(&s, (cc_vec3){0.0f, 0.0f, -9.81f}, &m);
            cc_solver_report rep;
            if (st == CC_OK) st = cc_solver_get_report(s.solver, &rep);
            if (st != CC_OK) break;
            printf("  %-9s %8.2f %14.6g %12.4g %12.4g %12.3g %12.3g %14.4g%s\n", name, (double)k * dt, m.energy,
                   m.max_speed, m.max_spin, m.deepest, (double)rep.last_dt_limit,
                   stepping > 0 ? (double)worlds * k / stepping : 0.0,
                   m.finite ? (rep.steps_over_limit ? "  (steps over the limit)" : "") : "  NOT FINITE");
            if (!m.finite) {
                exploded = 1;
                break;
            }
        }
        if (st != CC_OK) {
            fprintf(stderr, "cucontact-bench: settle (%s): %s\n", name, cc_last_error_message());
            failures++;
        }
        /* The explicit step at the defaults is expected to explode; that
         * is what the report's limit says. It is no failure of the run. */
        (void)exploded;
        settle_destroy(&s);
    }
    return failures;
}
