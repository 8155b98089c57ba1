/* The bullets scene (scenes.c): small fast bodies shot down at a 1 cm plate
 * and a 1 cm table, stepped for a while in frames of 1/60 s with each
 * speculative mode: off, the velocity-adapted gaps and the time of impact
 * on a fixed schedule (one collide a frame), and each under the collision
 * sub-step scheduler. Prints how many bodies ended below the target they
 * were shot at (tunnelled), the speculative rows at the frames' ends, the
 * swept pairs and their contacts in the frames' last passes (TOI), the
 * collision passes, and the time per frame. Then the cost of speculation on a resting pile (the settle
 * scene), where it should change nothing. */
#define _POSIX_C_SOURCE 199309L /* clock_gettime */
#include "benchmarks/bullets.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "benchmarks/scenes.h"

static double seconds_now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

typedef enum spec_mode { MODE_OFF, MODE_GAP, MODE_SCHEDULED, MODE_TOI, MODE_TOI_SCHEDULED, MODE_COUNT } spec_mode;
static const char* mode_names[MODE_COUNT] = {"off", "gap", "scheduled", "toi", "toi+sched"};

static int mode_scheduled(spec_mode m) { return m == MODE_SCHEDULED || m == MODE_TOI_SCHEDULED; }

#define FRAME_DT (1.0f / 60.0f)
#define SUBSTEPS 4

typedef struct sim {
    cc_model* model;
    cc_pipeline* pipeline;
    cc_solver* solver;
    cc_state* state[2];
    cc_frame_graph* graph;
    cc_contact* rows;
    int capacity, bodies;
    int fixed_passes; /* collides a frame of a fixed-schedule graph */
} sim;

static void sim_destroy(sim* s)
{
    cc_frame_graph_destroy(s->graph);
    for (int i = 0; i < 2; ++i) cc_state_destroy(s->state[i]);
    cc_solver_destroy(s->solver);
    cc_pipeline_destroy(s->pipeline);
    cc_model_destroy(s->model);
    free(s->rows);
    memset(s, 0, sizeof *s);
}

/* A model of `scene` with a pipeline for `mode` (speculation limit e_max)
 * and a frame graph of SUBSTEPS substeps colliding every `every` of them
 * (the scheduler decides for itself). */
static cc_status sim_create(bench_scene scene, cc_device device, int worlds, int shapes, spec_mode mode,
                            float e_max, int every, sim* s)
{
    memset(s, 0, sizeof *s);
    cc_builder_def bd = cc_default_builder_def();
    cc_builder* b = NULL;
    scene_params p = {worlds, shapes, 0.0f, scene == SCENE_BULLETS ? 0.002f : 0.01f, 0u, NULL};
    cc_status st = cc_builder_create(&bd, &b);
    if (st == CC_OK) st = scene_build(scene, &p, b);
    if (st == CC_OK) st = cc_builder_finalize(b, device, &s->model);
    cc_builder_destroy(b);
    cc_pipeline_def pd = cc_default_pipeline_def();
    pd.speculative_contact_gap_max = mode == MODE_OFF ? 0.0f : e_max;
    pd.speculative_mode = mode == MODE_TOI || mode == MODE_TOI_SCHEDULED ? CC_SPECULATIVE_TOI : CC_SPECULATIVE_GAP;
    cc_pipeline_info info;
    if (st == CC_OK) st = cc_pipeline_create(s->model, &pd, &s->pipeline);
    if (st == CC_OK) st = cc_pipeline_get_info(s->pipeline, &info);
    cc_solver_def sd = cc_default_solver_def();
    if (st == CC_OK) st = cc_solver_create(s->model, &sd, info.rigid_contact_max, &s->solver);
    for (int i = 0; i < 2 && st == CC_OK; ++i) st = cc_state_create(s->model, &s->state[i]);
    if (st == CC_OK && mode_scheduled(mode)) {
        cc_frame_schedule_def fd = cc_default_frame_schedule_def();
        fd.frame_dt = FRAME_DT;
        fd.substeps = SUBSTEPS;
        st = cc_frame_graph_create_scheduled(s->pipeline, s->solver, s->state, &fd, NULL, &s->graph);
    } else if (st == CC_OK) {
        st = cc_frame_graph_create(s->pipeline, s->solver, s->state, SUBSTEPS, every, FRAME_DT / SUBSTEPS, NULL,
                                   &s->graph);
    }
    if (st == CC_OK) {
        s->capacity = info.rigid_contact_max;
        s->bodies = cc_model_body_count(s->model);
        s->fixed_passes = (SUBSTEPS + every - 1) / every;
        s->rows = (cc_contact*)malloc(sizeof(cc_contact) * (size_t)s->capacity);
        if (!s->rows) st = CC_ERR_OUT_OF_MEMORY;
    }
    if (st != CC_OK) sim_destroy(s);
    return st;
}

typedef struct frame_tally {
    double seconds;        /* launches and their wait */
    long speculative;      /* flagged rows at the frames' ends */
    long rows;             /* rows at the frames' ends */
    long passes;           /* collision passes */
    long swept;            /* pairs swept in the frames' last passes */
    long toi_rows;         /* their contacts */
    int overflowed;        /* frames whose contacts or pairs overflowed */
    int interval_overflow; /* scheduler frames with interval_overflow */
} frame_tally;

/* The bullets' targets, and which projectiles passed through theirs: a
 * projectile is armed while it is within its target's square at or above
 * its bottom, disarmed when it leaves the square (a body that rolls off an
 * edge onto the table under the plate has not passed through the plate),
 * and counted once when it is seen below the bottom while armed. */
typedef struct tunnel_watch {
    cc_transform* pose; /* (bodies) */
    float* top;         /* (bodies) top of the target under the start, 0: not a projectile */
    float* half;        /* (bodies) half width of that target */
    char* armed;
    char* through;
    int shot, count;
} tunnel_watch;

static void watch_free(tunnel_watch* w)
{
    free(w->pose);
    free(w->top);
    free(w->half);
    free(w->armed);
    free(w->through);
    memset(w, 0, sizeof *w);
}

static void watch_update(tunnel_watch* w, int bodies)
{
    for (int i = 0; i < bodies; ++i) {
        if (w->top[i] == 0.0f || w->through[i]) continue;
        cc_vec3 p = w->pose[i].p;
        int inside = fabsf(p.x) <= w->half[i] && fabsf(p.y) <= w->half[i];
        float bottom = w->top[i] - BULLETS_THICKNESS;
        if (!inside) w->armed[i] = 0;
        else if (p.z >= bottom) w->armed[i] = 1;
        else if (w->armed[i]) w->through[i] = 1, w->count++;
    }
}

/* Runs `frames` frames; the wall time counts each launch and the wait for
 * it, not the downloads that tally the rows and watch the projectiles. */
static cc_status run_frames(sim* s, int frames, int scheduled, tunnel_watch* watch, frame_tally* t)
{
    cc_status st = CC_OK;
    for (int f = 0; f < frames && st == CC_OK; ++f) {
        double t0 = seconds_now();
        st = cc_frame_graph_launch(s->graph, NULL);
        cc_overflow ov;
        if (st == CC_OK) st = cc_pipeline_get_overflow(s->pipeline, &ov);
        t->seconds += seconds_now() - t0;
        if (st != CC_OK) break;
        t->overflowed += ov.pairs_overflowed || ov.contacts_overflowed;
        cc_speculation_stats sp;
        st = cc_pipeline_get_speculation_stats(s->pipeline, &sp);
        if (st != CC_OK) break;
        t->swept += sp.swept_pairs;
        t->toi_rows += sp.toi_contacts;
        int n = 0;
        st = cc_contacts_download(cc_frame_graph_contacts(s->graph), s->state[0], s->rows, s->capacity, &n);
        if (n > s->capacity) n = s->capacity;
        for (int i = 0; i < n; ++i) t->speculative += s->rows[i].speculative != 0;
        t->rows += n;
        if (scheduled && st == CC_OK) {
            cc_frame_schedule rec;
            memset(&rec, 0, sizeof rec);
            st = cc_frame_graph_get_schedule(s->graph, &rec, NULL, NULL);
            t->passes += rec.passes;
            t->interval_overflow += rec.interval_overflow != 0;
        } else {
            t->passes += s->fixed_passes;
        }
        if (watch && st == CC_OK) {
            st = cc_state_get_body_poses(s->state[0], 0, s->bodies, watch->pose);
            watch_update(watch, s->bodies);
        }
    }
    return st;
}

/* Shoots every projectile (a body that starts above the plate) down at
 * 20-100 m/s, spread by body index, and notes its target. */
static cc_status shoot(sim* s, tunnel_watch* w)
{
    memset(w, 0, sizeof *w);
    size_t n = (size_t)s->bodies;
    w->pose = (cc_transform*)malloc(sizeof(cc_transform) * n);
    w->top = (float*)calloc(n, sizeof(float));
    w->half = (float*)calloc(n, sizeof(float));
    w->armed = (char*)calloc(n, 1);
    w->through = (char*)calloc(n, 1);
    if (!w->pose || !w->top || !w->half || !w->armed || !w->through) return CC_ERR_OUT_OF_MEMORY;
    cc_status st = cc_state_get_body_poses(s->state[0], 0, s->bodies, w->pose);
    for (int i = 0; i < s->bodies && st == CC_OK; ++i) {
        cc_vec3 p = w->pose[i].p;
        if (p.z < BULLETS_PLATE_TOP + 0.1f) continue; /* not a projectile */
        int over_plate = fabsf(p.x) <= BULLETS_PLATE_HALF && fabsf(p.y) <= BULLETS_PLATE_HALF;
        w->top[i] = over_plate ? BULLETS_PLATE_TOP : BULLETS_TABLE_TOP;
        w->half[i] = over_plate ? BULLETS_PLATE_HALF : BULLETS_TABLE_HALF;
        w->shot++;
        cc_vec3 v = {0.0f, 0.0f, -(20.0f + 80.0f * (float)((i * 7919) % 101) / 100.0f)}, spin = {0.0f, 0.0f, 0.0f};
        st = cc_state_set_body_velocities(s->state[0], i, 1, &v, &spin);
    }
    if (st == CC_OK) watch_update(w, s->bodies);
    return st;
}

/* A failed run of `what` in mode m, with the library's message. */
static void report(const char* what, int m, cc_status st)
{
    fprintf(stderr, "cucontact-bench: %s (%s): %s: %s\n", what, mode_names[m], cc_status_string(st),
            st == CC_ERR_OUT_OF_MEMORY ? "out of host memory" : cc_last_error_message());
}

int bench_bullets(cc_device device, int worlds, int shapes, double seconds)
{
    const float e_max = 2.0f;
    int frames = (int)ceil(seconds / FRAME_DT - 1e-6);
    printf("bullets: %d worlds of %d bodies shot at 20-100 m/s at a 1 cm plate and a 1 cm table, %d frames of "
           "1/60 s, %d substeps\n",
           worlds, shapes, frames, SUBSTEPS);
    printf("  gap and toi: e_max = %.1f m, one collide a frame; scheduled: reserve %.1f m\n", (double)e_max,
           (double)e_max);
    printf("  %-10s %12s %10s %8s %8s %8s %12s %10s %9s %9s\n", "mode", "tunnelled", "spec rows", "rows", "swept",
           "toi rows", "passes/frame", "ms/frame", "overflow", "interval");
    int failures = 0;
    for (int m = 0; m < MODE_COUNT; ++m) {
        sim s;
        cc_status st = sim_create(SCENE_BULLETS, device, worlds, shapes, (spec_mode)m, e_max, SUBSTEPS, &s);
        if (st != CC_OK) {
            report("bullets", m, st);
            failures++;
            continue;
        }
        tunnel_watch watch;
        frame_tally t;
        memset(&t, 0, sizeof t);
        st = shoot(&s, &watch);
        if (st == CC_OK) st = run_frames(&s, frames, mode_scheduled((spec_mode)m), &watch, &t);
        if (st == CC_OK) {
            char tunnelled[32];
            snprintf(tunnelled, sizeof tunnelled, "%d/%d", watch.count, watch.shot);
            printf("  %-10s %12s %10ld %8ld %8ld %8ld %12.2f %10.3f %9d %9d\n", mode_names[m], tunnelled, t.speculative,
                   t.rows, t.swept, t.toi_rows, (double)t.passes / frames, 1e3 * t.seconds / frames, t.overflowed,
                   t.interval_overflow);
        } else {
            report("bullets", m, st);
            failures++;
        }
        watch_free(&watch);
        sim_destroy(&s);
    }

    /* A resting pile: the settle scene dropped and settled (untimed) in
     * each mode, then timed in rounds that take the modes in turn, the best
     * round of each counting, so that load on the machine and a cold first
     * mode weigh alike on all. Off, gap and toi collide before every
     * substep; the scheduler decides. */
    const float pile_e_max = 0.05f;
    const int settle_frames = 120, round_frames = 20, rounds = 3, pile_worlds = 16, pile_shapes = 40;
    printf("resting pile: settle scene, %d worlds of %d bodies, settled %d frames, then the best of %d rounds of %d "
           "frames; e_max = %.2f m\n",
           pile_worlds, pile_shapes, settle_frames, rounds, round_frames, (double)pile_e_max);
    printf("  %-10s %14s %12s %12s %12s\n", "mode", "rows/frame", "passes/frame", "ms/frame", "vs off");
    sim piles[MODE_COUNT];
    frame_tally best[MODE_COUNT];
    int ready[MODE_COUNT];
    for (int m = 0; m < MODE_COUNT; ++m) {
        frame_tally warm;
        memset(&warm, 0, sizeof warm);
        memset(&best[m], 0, sizeof best[m]);
        cc_status st = sim_create(SCENE_SETTLE, device, pile_worlds, pile_shapes, (spec_mode)m, pile_e_max, 1, &piles[m]);
        if (st == CC_OK) st = run_frames(&piles[m], settle_frames, mode_scheduled((spec_mode)m), NULL, &warm);
        ready[m] = st == CC_OK;
        if (!ready[m]) {
            report("resting pile", m, st);
            failures++;
        }
    }
    for (int r = 0; r < rounds; ++r)
        for (int m = 0; m < MODE_COUNT; ++m) {
            if (!ready[m]) continue;
            frame_tally t;
            memset(&t, 0, sizeof t);
            cc_status st = run_frames(&piles[m], round_frames, mode_scheduled((spec_mode)m), NULL, &t);
            if (st != CC_OK) {
                report("resting pile", m, st);
                failures++;
                ready[m] = 0;
            } else if (r == 0 || t.seconds < best[m].seconds) {
                best[m] = t;
            }
        }
    double off_ms = ready[MODE_OFF] ? 1e3 * best[MODE_OFF].seconds / round_frames : 0.0;
    for (int m = 0; m < MODE_COUNT; ++m) {
        if (ready[m]) {
            const frame_tally* t = &best[m];
            double ms = 1e3 * t->seconds / round_frames;
            printf("  %-10s %14.1f %12.2f %12.3f %11.3fx%s\n", mode_names[m], (double)t->rows / round_frames,
                   (double)t->passes / round_frames, ms, off_ms > 0.0 ? ms / off_ms : 0.0,
                   t->overflowed ? "  (overflowed)" : "");
        }
        sim_destroy(&piles[m]);
    }
    return failures;
}
