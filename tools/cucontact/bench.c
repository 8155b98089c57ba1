/* cucontact bench: collide timing per stage with cucontact-bench's table.
 *
 * Every repetition moves each dynamic body by a small random offset (up to
 * 1 mm and 0.01 rad about a random axis) from its initial pose, outside the
 * timed region, so that no pass sees the poses of the previous one. First
 * --repeat passes with profiling on give the per-stage means, then --repeat
 * passes with profiling off give the wall time per pass. */
#define _POSIX_C_SOURCE 199309L /* clock_gettime */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "tools/cucontact/cli.h"

#define JITTER_METRES 0.001f
#define JITTER_RADIANS 0.01f

static double now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e3 + (double)t.tv_nsec * 1e-6;
}

/* Uniform in [-1, 1) from a xorshift generator (fixed seed: runs repeat). */
static float uniform(uint64_t* s)
{
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return (float)((*s >> 11) * (1.0 / 9007199254740992.0)) * 2.0f - 1.0f;
}

typedef struct jitter {
    cc_transform* initial;
    cc_transform* moved;
    char* dynamic;
    int count;
    uint64_t seed;
} jitter;

static int jitter_init(jitter* j, const cli_scene* s)
{
    j->count = cc_builder_body_count(s->builder);
    j->seed = 0x9E3779B97F4A7C15ull;
    j->initial = (cc_transform*)malloc(sizeof(cc_transform) * (size_t)(j->count + 1));
    j->moved = (cc_transform*)malloc(sizeof(cc_transform) * (size_t)(j->count + 1));
    j->dynamic = (char*)malloc((size_t)j->count + 1);
    if (!j->initial || !j->moved || !j->dynamic) return 0;
    for (int i = 0; i < j->count; ++i) {
        cc_body_info bi;
        cc_builder_get_body_info(s->builder, i, &bi);
        j->dynamic[i] = !bi.is_static;
    }
    return j->count == 0 || cc_state_get_body_poses(s->state, 0, j->count, j->initial) == CC_OK;
}

static void jitter_free(jitter* j)
{
    free(j->initial);
    free(j->moved);
    free(j->dynamic);
}

static cc_status jitter_apply(jitter* j, cc_state* state)
{
    for (int i = 0; i < j->count; ++i) {
        cc_transform t = j->initial[i];
        if (j->dynamic[i]) {
            t.p.x += JITTER_METRES * uniform(&j->seed);
            t.p.y += JITTER_METRES * uniform(&j->seed);
            t.p.z += JITTER_METRES * uniform(&j->seed);
            /* q * (1, e/2), normalised: a rotation by about |e| radians. */
            float ex = 0.5f * JITTER_RADIANS * uniform(&j->seed), ey = 0.5f * JITTER_RADIANS * uniform(&j->seed),
                  ez = 0.5f * JITTER_RADIANS * uniform(&j->seed);
            cc_quat q = t.q, r;
            r.w = q.w - q.x * ex - q.y * ey - q.z * ez;
            r.x = q.x + q.w * ex + q.y * ez - q.z * ey;
            r.y = q.y + q.w * ey + q.z * ex - q.x * ez;
            r.z = q.z + q.w * ez + q.x * ey - q.y * ex;
            float n = sqrtf(r.x * r.x + r.y * r.y + r.z * r.z + r.w * r.w);
            t.q.x = r.x / n, t.q.y = r.y / n, t.q.z = r.z / n, t.q.w = r.w / n;
        }
        j->moved[i] = t;
    }
    return j->count ? cc_state_set_body_poses(state, 0, j->count, j->moved) : CC_OK;
}

/* Keeps the overflow record of the first pass that overflowed anything. */
static cc_status note_overflow(const cli_scene* s, cc_overflow* lost)
{
    cc_overflow ov;
    cc_status st = cc_pipeline_get_overflow(s->pipeline, &ov);
    int any = ov.pairs_overflowed || ov.contacts_overflowed || ov.mesh_items_overflowed;
    int had = lost->pairs_overflowed || lost->contacts_overflowed || lost->mesh_items_overflowed;
    if (st == CC_OK && any && !had) *lost = ov;
    return st;
}

int cli_bench(const cli_options* o)
{
    cli_scene s;
    /* Sized so that the timed passes lose nothing (or not run at all). */
    if (!cli_scene_open_fitted(o, "bench", &s)) return CLI_FAILED;
    jitter j;
    memset(&j, 0, sizeof j);
    cc_stage_times mean;
    memset(&mean, 0, sizeof mean);
    double wall = 0.0;
    int contacts = 0, rc = CLI_FAILED;
    cc_overflow ov, lost_pass;
    memset(&lost_pass, 0, sizeof lost_pass);
    const char* what = "reading poses";
    cc_status st = jitter_init(&j, &s) ? CC_OK : CC_ERR_OUT_OF_MEMORY;
    if (st == CC_OK) what = "collide", st = cc_collide(s.pipeline, s.state, s.contacts, NULL); /* warm-up */
    if (st == CC_OK) st = cc_pipeline_set_profiling(s.pipeline, 1);
    for (int i = 0; i < o->repeat && st == CC_OK; ++i) {
        cc_stage_times t;
        st = jitter_apply(&j, s.state);
        if (st == CC_OK) st = cc_collide(s.pipeline, s.state, s.contacts, NULL);
        if (st == CC_OK) st = cc_pipeline_get_stage_times(s.pipeline, &t);
        if (st == CC_OK) st = note_overflow(&s, &lost_pass);
        if (st != CC_OK) break;
        mean.aabb_ms += t.aabb_ms / o->repeat;
        mean.broad_phase_ms += t.broad_phase_ms / o->repeat;
        mean.narrow_phase_ms += t.narrow_phase_ms / o->repeat;
        mean.other_ms += t.other_ms / o->repeat;
        mean.total_ms += t.total_ms / o->repeat;
    }
    if (st == CC_OK) st = cc_pipeline_set_profiling(s.pipeline, 0);
    for (int i = 0; i < o->repeat && st == CC_OK; ++i) {
        st = jitter_apply(&j, s.state);
        double t0 = now_ms();
        if (st == CC_OK) st = cc_collide(s.pipeline, s.state, s.contacts, NULL);
        if (st == CC_OK) st = cc_contacts_count(s.contacts, &contacts); /* waits for the device */
        wall += (now_ms() - t0) / o->repeat;
        if (st == CC_OK) st = note_overflow(&s, &lost_pass);
    }
    if (st == CC_OK) st = cc_pipeline_get_overflow(s.pipeline, &ov);
    if (st != CC_OK) {
        if (st == CC_ERR_OUT_OF_MEMORY && what[0] == 'r') fprintf(stderr, "cucontact: bench: out of memory\n");
        else cli_fail(what, st);
    } else {
        char stem[64], skipped[128];
        double mib = (double)(s.info.device_bytes + cc_model_device_bytes(s.model) + (size_t)s.info.rigid_contact_max * 56u) /
                     (1024.0 * 1024.0);
        printf("%-18s %-6s %7s %7s %-8s %10s %10s %9s %9s %9s %9s %9s %12s %9s\n", "scene", "device", "worlds", "shapes",
               "broad", "pairs", "contacts", "aabb_ms", "broad_ms", "narrow_ms", "other_ms", "total_ms", "contacts/s",
               "dev_MiB");
        printf("%-18s %-6s %7d %7d %-8s %10d %10d %9.4f %9.4f %9.4f %9.4f %9.4f %12.3e %9.1f\n",
               cli_scene_stem(o->scene, stem, sizeof stem), o->device.kind == CC_DEVICE_CUDA ? "cuda" : "cpu",
               cc_builder_world_count(s.builder), cc_builder_shape_count(s.builder), cc_broad_phase_name(s.info.broad_phase),
               ov.pairs_needed, contacts, mean.aabb_ms, mean.broad_phase_ms, mean.narrow_phase_ms, mean.other_ms, wall,
               wall > 0 ? contacts / (wall * 1e-3) : 0.0, mib);
        /* A jittered pose that overflowed lost contacts: the timing is of
         * truncated passes, so the command fails. */
        int lost = cli_report_overflow(&lost_pass, "bench");
        printf("  capacity: contacts %d (estimate/actual %.2f), pairs %d; profiled pass %.4f ms; %d repetitions, poses jittered\n",
               s.info.rigid_contact_max, contacts > 0 ? (double)s.info.rigid_contact_max / contacts : 0.0,
               s.info.shape_pairs_max, mean.total_ms, o->repeat);
        cli_unsupported_types(s.builder, skipped, sizeof skipped);
        if (s.info.unsupported_pairs > 0 || skipped[0])
            printf("  %lld shape pairs skipped: no narrow-phase route yet for %s\n", (long long)s.info.unsupported_pairs,
                   skipped[0] ? skipped : "some types");
        rc = lost ? CLI_FAILED : CLI_OK;
    }
    jitter_free(&j);
    cli_scene_close(&s);
    return rc;
}
