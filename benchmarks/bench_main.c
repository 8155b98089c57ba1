/* cucontact-bench: collide timing per stage on the benchmark scenes.
 *
 * Each run builds a scene, creates a pipeline, collides once to warm up,
 * then (1) runs --repeat passes with profiling on for the per-stage and
 * per-route table and (2) --repeat passes with profiling off for the
 * throughput figures. With --cross-check it compares the CPU and CUDA
 * backends' candidate pairs and contacts on the same scene instead.
 *
 * Scenes with meshes or heightfields (mesh, terrain) reduce their contacts
 * by default; their runs add one pass of a second pipeline with reduction
 * off, sized to hold every raw contact, and report both counts, the mesh
 * work items and the memory split between the model and the per-world
 * buffers. --no-reduce turns reduction off in the timed passes. */
#define _POSIX_C_SOURCE 200112L /* clock_gettime, setenv */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "benchmarks/scenes.h"
#include "benchmarks/bullets.h"
#include "benchmarks/settle.h"

#define MAX_LIST 16

typedef struct options {
    bench_scene scenes[SCENE_COUNT];
    int scene_count;
    cc_device device;
    int worlds[MAX_LIST], world_count;
    int shapes[MAX_LIST], shape_count;
    int threads[MAX_LIST], thread_count; /* CPU threads per run (CUCONTACT_CPU_THREADS) */
    cc_broad_phase broad_phase;
    int repeat;
    float density, gap;
    const char* json;
    int cross_check;
    int exact; /* cross-check to the bit (CUCONTACT_STRICT_FP builds) */
    int device_given; /* --device was passed */
    int routes;
    int deterministic;
    cc_contact_matching matching;
    int no_reduce;
    double seconds; /* settle and bullets: simulated time */
    int seconds_given;
} options;

typedef struct run_result {
    bench_scene scene;
    int worlds, shapes;
    float gap; /* every shape's detection gap [m] */
    cc_pipeline_info info;
    int pairs, contacts;
    cc_overflow overflow;
    cc_stage_times stages; /* mean over the profiled passes */
    double total_ms;       /* mean wall time of an unprofiled pass */
    double device_mib;
    double narrow_gbps, peak_gbps;
    cc_route_stats routes[32];
    int route_count;
    double route_best_ns[32]; /* fastest of the profiled passes, per route */
    int passes;               /* profiled passes */
    double narrow_best_ms;    /* fastest narrow phase (mesh stages included) of those passes */
    /* Memory [bytes]: the model (shared meshes, heightfields and hulls
     * included), the pipeline's buffers, the contact rows and the state. */
    size_t model_bytes, pipeline_bytes, contact_bytes, state_bytes;
    cc_model_memory model_memory; /* the model's bytes by kind */
    /* The pass with reduction off (surface scenes): its contacts, what it
     * needed and its time; unreduced_ok is zero if it could not be sized. */
    int has_unreduced, unreduced_ok;
    int contacts_unreduced;
    cc_overflow unreduced_overflow;
    cc_stage_times unreduced_stages;
    int unreduced_capacity;
    /* The pipeline as the model-based estimates sized it and what its
     * warm-up pass overflowed; grows > 0 when the timed pipeline was
     * recreated with larger capacities. */
    cc_pipeline_info estimated;
    cc_overflow estimated_overflow;
    int grows;
} run_result;

static double now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e3 + (double)t.tv_nsec * 1e-6;
}

static void usage(FILE* f)
{
    fprintf(f,
            "usage: cucontact-bench [options]\n"
            "  --scene NAME[,NAME]   spheres, pile, sap, convex, mesh, terrain, sphere-mesh, sdf,\n"
            "                        sdf-bvh, settle, bullets\n"
            "                        or all (default all)\n"
            "  --device cpu|cuda[:N] backend (default cpu)\n"
            "  --worlds W[,W...]     worlds per scene; a list prints a scaling table\n"
            "                        (default 64; sap: 1, mesh: 8, terrain: 32, sphere-mesh: 256, sdf: 16,\n"
            "                        settle: 16, bullets: 64)\n"
            "  --shapes N[,N...]     shapes per world (default spheres 64, pile and convex 200, sap 10000,\n"
            "                        terrain and sphere-mesh 16; mesh: 16 primitives on its wavy tile besides its 5 meshes\n"
            "                        and 3 primitives; sdf 9 meshes in the bin; settle 40 bodies; bullets 12 bodies)\n"
            "  --threads T[,T...]    CPU threads per run (CUCONTACT_CPU_THREADS); a list prints each count's\n"
            "                        speed-up over the first (default: the variable, else every processor)\n"
            "  --broad-phase B       auto, nxn, sap or explicit (default auto)\n"
            "  --repeat R            passes timed per run (default 10)\n"
            "  --seconds S           settle and bullets: simulated seconds per integrator or mode\n"
            "                        (default settle 10, bullets 1)\n"
            "  --density D           sap: volume fraction filled by boxes (default 0.1)\n"
            "  --gap G               detection gap of every shape in metres (default 0.01)\n"
            "  --routes              print candidate pairs and ns per pair for each route\n"
            "  --deterministic       sort contacts by key each pass; prints the cost against a plain pass\n"
            "  --matching MODE       latest or sticky contact matching (implies --deterministic)\n"
            "  --no-reduce           mesh and heightfield contacts unreduced in the timed passes\n"
            "  --json FILE           also write the results as JSON\n"
            "  --cross-check         compare the CPU's pairs and contacts with --device's (CUDA device 0 by default)\n"
            "  --exact               with --cross-check: rows must agree to the bit (CUCONTACT_STRICT_FP builds)\n"
            "  --help                this text\n");
}

static int parse_list(const char* s, int* out, int max)
{
    int n = 0;
    char* end;
    while (*s && n < max) {
        long v = strtol(s, &end, 10);
        if (end == s || v <= 0 || v > 100000000) return -1;
        out[n++] = (int)v;
        s = *end == ',' ? end + 1 : end;
        if (*end && *end != ',') return -1;
    }
    return n;
}

static int parse_options(int argc, char** argv, options* o)
{
    memset(o, 0, sizeof *o);
    o->device = cc_device_cpu();
    o->broad_phase = CC_BROAD_PHASE_AUTO;
    o->repeat = 10;
    o->seconds = 10.0;
    o->density = 0.1f;
    o->gap = 0.01f;
    for (int i = 1; i < argc; ++i) {
        const char* a = argv[i];
        const char* v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            usage(stdout);
            exit(0);
        } else if (!strcmp(a, "--cross-check")) {
            o->cross_check = 1;
        } else if (!strcmp(a, "--exact")) {
            o->exact = 1;
        } else if (!strcmp(a, "--routes")) {
            o->routes = 1;
        } else if (!strcmp(a, "--deterministic")) {
            o->deterministic = 1;
        } else if (!strcmp(a, "--no-reduce")) {
            o->no_reduce = 1;
        } else if (!v) {
            fprintf(stderr, "cucontact-bench: %s needs a value\n", a);
            return 0;
        } else if (!strcmp(a, "--scene")) {
            i++;
            if (!strcmp(v, "all")) continue;
            char buf[128];
            snprintf(buf, sizeof buf, "%s", v);
            for (char* tok = strtok(buf, ","); tok; tok = strtok(NULL, ",")) {
                if (o->scene_count == SCENE_COUNT || !scene_from_name(tok, &o->scenes[o->scene_count])) {
                    fprintf(stderr, "cucontact-bench: unknown scene '%s' (spheres, pile, sap, convex, mesh, terrain, sphere-mesh, sdf, sdf-bvh, settle, bullets, all)\n", tok);
                    return 0;
                }
                o->scene_count++;
            }
        } else if (!strcmp(a, "--device")) {
            i++;
            if (!strcmp(v, "cpu")) o->device = cc_device_cpu();
            else if (!strncmp(v, "cuda", 4)) o->device = cc_device_cuda(v[4] == ':' ? atoi(v + 5) : 0);
            else {
                fprintf(stderr, "cucontact-bench: unknown device '%s' (cpu, cuda, cuda:N)\n", v);
                return 0;
            }
            o->device_given = 1;
        } else if (!strcmp(a, "--worlds") || !strcmp(a, "--shapes")) {
            i++;
            int* list = a[2] == 'w' ? o->worlds : o->shapes;
            int n = parse_list(v, list, MAX_LIST);
            if (n <= 0) {
                fprintf(stderr, "cucontact-bench: %s wants positive integers separated by commas\n", a);
                return 0;
            }
            if (a[2] == 'w') o->world_count = n;
            else o->shape_count = n;
        } else if (!strcmp(a, "--threads")) {
            i++;
            int n = parse_list(v, o->threads, MAX_LIST);
            if (n <= 0) {
                fprintf(stderr, "cucontact-bench: --threads wants positive integers separated by commas\n");
                return 0;
            }
            o->thread_count = n;
        } else if (!strcmp(a, "--broad-phase")) {
            i++;
            if (!strcmp(v, "auto")) o->broad_phase = CC_BROAD_PHASE_AUTO;
            else if (!strcmp(v, "nxn")) o->broad_phase = CC_BROAD_PHASE_NXN;
            else if (!strcmp(v, "sap")) o->broad_phase = CC_BROAD_PHASE_SAP;
            else if (!strcmp(v, "explicit")) o->broad_phase = CC_BROAD_PHASE_EXPLICIT;
            else {
                fprintf(stderr, "cucontact-bench: unknown broad phase '%s' (auto, nxn, sap, explicit)\n", v);
                return 0;
            }
        } else if (!strcmp(a, "--seconds")) {
            i++;
            o->seconds = atof(v);
            o->seconds_given = 1;
            if (!(o->seconds > 0.0 && o->seconds <= 1000.0)) {
                fprintf(stderr, "cucontact-bench: --seconds wants a number of seconds in (0, 1000]\n");
                return 0;
            }
        } else if (!strcmp(a, "--repeat")) {
            i++;
            o->repeat = atoi(v);
            if (o->repeat < 1) {
                fprintf(stderr, "cucontact-bench: --repeat wants a positive integer\n");
                return 0;
            }
        } else if (!strcmp(a, "--density")) {
            i++;
            o->density = (float)atof(v);
            if (!(o->density > 0.0f && o->density < 1.0f)) {
                fprintf(stderr, "cucontact-bench: --density wants a fraction in (0, 1)\n");
                return 0;
            }
        } else if (!strcmp(a, "--gap")) {
            i++;
            o->gap = (float)atof(v);
            if (!(o->gap >= 0.0f)) {
                fprintf(stderr, "cucontact-bench: --gap wants a distance >= 0\n");
                return 0;
            }
        } else if (!strcmp(a, "--matching")) {
            i++;
            if (!strcmp(v, "latest")) o->matching = CC_MATCHING_LATEST;
            else if (!strcmp(v, "sticky")) o->matching = CC_MATCHING_STICKY;
            else {
                fprintf(stderr, "cucontact-bench: unknown matching mode '%s' (latest, sticky)\n", v);
                return 0;
            }
            o->deterministic = 1;
        } else if (!strcmp(a, "--json")) {
            i++;
            o->json = v;
        } else {
            fprintf(stderr, "cucontact-bench: unknown option '%s' (see --help)\n", a);
            return 0;
        }
    }
    if (o->scene_count == 0) {
        for (int s = 0; s < SCENE_COUNT; ++s) o->scenes[s] = (bench_scene)s;
        o->scene_count = SCENE_COUNT;
    }
    return 1;
}

static int default_shapes(bench_scene s)
{
    switch (s) {
    case SCENE_SPHERES: return 64;
    case SCENE_PILE:
    case SCENE_CONVEX: return 200;
    case SCENE_MESH: return 16;
    case SCENE_TERRAIN:
    case SCENE_SPHERE_MESH: return 16;
    case SCENE_SDF:
    case SCENE_SDF_BVH: return 9;
    case SCENE_SETTLE: return 40;
    case SCENE_BULLETS: return 12;
    default: return 10000;
    }
}
static int default_worlds(bench_scene s)
{
    switch (s) {
    case SCENE_SAP: return 1;
    case SCENE_MESH: return 8;
    case SCENE_TERRAIN: return 32;
    case SCENE_SPHERE_MESH: return 256;
    case SCENE_SDF:
    case SCENE_SDF_BVH: return 16;
    case SCENE_SETTLE: return 16;
    default: return 64;
    }
}

#define TRY(call)                                                                                 \
    do {                                                                                          \
        cc_status s_ = (call);                                                                    \
        if (s_ != CC_OK) {                                                                        \
            fprintf(stderr, "cucontact-bench: %s: %s\n", cc_status_string(s_), cc_last_error_message()); \
            goto done;                                                                            \
        }                                                                                         \
    } while (0)

typedef struct scene_objects {
    cc_builder* builder;
    cc_model* model;
    cc_state* state;
    cc_pipeline* pipeline;
    cc_contacts* contacts;
} scene_objects;

static void destroy_objects(scene_objects* s)
{
    cc_contacts_destroy(s->contacts);
    cc_pipeline_destroy(s->pipeline);
    cc_state_destroy(s->state);
    cc_model_destroy(s->model);
    cc_builder_destroy(s->builder);
    memset(s, 0, sizeof *s);
}

static cc_pipeline_def pipeline_def(const options* o)
{
    cc_pipeline_def pd = cc_default_pipeline_def();
    pd.broad_phase = o->broad_phase;
    pd.deterministic = o->deterministic;
    pd.contact_matching = o->matching;
    pd.reduce_contacts = !o->no_reduce;
    return pd;
}

static cc_status create_objects(const options* o, bench_scene scene, int worlds, int shapes, cc_device device,
                                scene_objects* s)
{
    memset(s, 0, sizeof *s);
    scene_params sp = {worlds, shapes, o->density, o->gap, 0, NULL};
    cc_builder_def bd = cc_default_builder_def();
    cc_status st = cc_builder_create(&bd, &s->builder);
    if (st == CC_OK) st = scene_build(scene, &sp, s->builder);
    if (st == CC_OK) st = cc_builder_finalize(s->builder, device, &s->model);
    if (st == CC_OK) st = cc_state_create(s->model, &s->state);
    cc_pipeline_def pd = pipeline_def(o);
    if (st == CC_OK) st = cc_pipeline_create(s->model, &pd, &s->pipeline);
    if (st == CC_OK) st = cc_contacts_create(s->pipeline, &s->contacts);
    return st;
}

static int grown(int needed) { return needed + needed / 8 + 16; }

/* Collides once; while the pass overflowed a capacity the model-based
 * estimates gave, recreates the pipeline and its contact buffer with room
 * for what the pass needed (a few tries), so that timed passes are
 * complete. *first receives what the estimates lacked (the first pass's
 * overflow record and any overflow found later); returns the number of
 * times the pipeline was grown. */
static int fit_capacities(const options* o, scene_objects* s, cc_overflow* first, cc_status* status)
{
    cc_pipeline_def pd = pipeline_def(o);
    int grows = 0;
    for (int attempt = 0;; ++attempt) {
        cc_overflow ov;
        cc_status st = cc_collide(s->pipeline, s->state, s->contacts, NULL);
        if (st == CC_OK) st = cc_pipeline_get_overflow(s->pipeline, &ov);
        if (st != CC_OK) {
            *status = st;
            return grows;
        }
        /* What the estimates lacked: the first pass's record, plus what a
         * later pass found once an earlier overflow no longer hid it. */
        if (attempt == 0) *first = ov;
        if (attempt > 0 && ov.contacts_overflowed && !first->contacts_overflowed) {
            first->contacts_overflowed = 1;
            first->contacts_needed = ov.contacts_needed;
            first->contacts_capacity = ov.contacts_capacity;
        }
        if (attempt > 0 && ov.mesh_items_overflowed && !first->mesh_items_overflowed) {
            first->mesh_items_overflowed = 1;
            first->mesh_items_needed = ov.mesh_items_needed;
            first->mesh_items_capacity = ov.mesh_items_capacity;
        }
        if (!(ov.pairs_overflowed || ov.contacts_overflowed || ov.mesh_items_overflowed) || attempt == 3) {
            *status = CC_OK;
            return grows;
        }
        /* Keep what fits; grow only what overflowed. */
        cc_pipeline_info info;
        cc_pipeline_get_info(s->pipeline, &info);
        pd.shape_pairs_max = ov.pairs_overflowed ? grown(ov.pairs_needed) : info.shape_pairs_max;
        pd.rigid_contact_max = ov.contacts_overflowed || ov.pairs_overflowed ? grown(ov.contacts_needed)
                                                                              : info.rigid_contact_max;
        if (pd.rigid_contact_max < info.rigid_contact_max) pd.rigid_contact_max = info.rigid_contact_max;
        if (info.mesh_work_items_max > 0)
            pd.mesh_work_items_max = ov.mesh_items_overflowed || ov.pairs_overflowed ? grown(ov.mesh_items_needed)
                                                                                    : info.mesh_work_items_max;
        cc_contacts_destroy(s->contacts);
        cc_pipeline_destroy(s->pipeline);
        s->contacts = NULL;
        s->pipeline = NULL;
        st = cc_pipeline_create(s->model, &pd, &s->pipeline);
        if (st == CC_OK) st = cc_contacts_create(s->pipeline, &s->contacts);
        if (st != CC_OK) {
            *status = st;
            return grows;
        }
        grows++;
    }
}

static void add_stage_times(cc_stage_times* sum, const cc_stage_times* t, double w)
{
    sum->aabb_ms += t->aabb_ms * w;
    sum->broad_phase_ms += t->broad_phase_ms * w;
    sum->narrow_phase_ms += t->narrow_phase_ms * w;
    sum->other_ms += t->other_ms * w;
    sum->total_ms += t->total_ms * w;
}

/* Passes of a second pipeline with reduction off on the same model and
 * state, its contact rows and mesh work items grown until nothing
 * overflows (at most a few tries), then timed with profiling on. */
static void run_unreduced(const options* o, const scene_objects* s, run_result* r)
{
    const int passes = o->repeat < 3 ? o->repeat : 3;
    int contact_max = r->info.rigid_contact_max, items_max = CC_CAPACITY_AUTO;
    /* A raw contact per touching triangle or vertex: start well above the
     * reduced count and grow from what the pass says it needed. */
    if (contact_max < 16 * r->overflow.contacts_needed) contact_max = 16 * r->overflow.contacts_needed;
    if (r->info.mesh_work_items_max > 0) items_max = r->info.mesh_work_items_max;
    if (r->overflow.mesh_items_overflowed) items_max = grown(r->overflow.mesh_items_needed);
    r->has_unreduced = 1;
    for (int attempt = 0; attempt < 4; ++attempt) {
        cc_pipeline* pipe = NULL;
        cc_contacts* rows = NULL;
        cc_pipeline_def pd = cc_default_pipeline_def();
        pd.broad_phase = o->broad_phase;
        pd.reduce_contacts = 0;
        pd.shape_pairs_max = r->info.shape_pairs_max;
        pd.rigid_contact_max = contact_max;
        pd.mesh_work_items_max = items_max;
        cc_overflow ov;
        cc_pipeline_info info;
        cc_status st = cc_pipeline_create(s->model, &pd, &pipe);
        if (st == CC_OK) st = cc_contacts_create(pipe, &rows);
        if (st == CC_OK) st = cc_pipeline_get_info(pipe, &info);
        if (st == CC_OK) st = cc_collide(pipe, s->state, rows, NULL);
        if (st == CC_OK) st = cc_pipeline_get_overflow(pipe, &ov);
        if (st != CC_OK) {
            fprintf(stderr, "cucontact-bench: unreduced pass: %s: %s\n", cc_status_string(st), cc_last_error_message());
            cc_contacts_destroy(rows);
            cc_pipeline_destroy(pipe);
            return;
        }
        r->unreduced_overflow = ov;
        r->unreduced_capacity = info.rigid_contact_max;
        r->contacts_unreduced = ov.contacts_needed;
        int grow = 0;
        if (ov.contacts_overflowed) {
            contact_max = grown(ov.contacts_needed);
            grow = 1;
        }
        if (ov.mesh_items_overflowed) {
            items_max = grown(ov.mesh_items_needed);
            grow = 1;
        }
        if (!grow && !ov.pairs_overflowed) {
            memset(&r->unreduced_stages, 0, sizeof r->unreduced_stages);
            st = cc_pipeline_set_profiling(pipe, 1);
            for (int i = 0; i < passes && st == CC_OK; ++i) {
                cc_stage_times t;
                st = cc_collide(pipe, s->state, rows, NULL);
                if (st == CC_OK) st = cc_pipeline_get_stage_times(pipe, &t);
                if (st == CC_OK) add_stage_times(&r->unreduced_stages, &t, 1.0 / passes);
            }
            r->unreduced_ok = st == CC_OK;
        }
        cc_contacts_destroy(rows);
        cc_pipeline_destroy(pipe);
        if (!grow) return;
    }
}

static int run_one(const options* o, bench_scene scene, int worlds, int shapes, run_result* r)
{
    int ok = 0;
    scene_objects s;
    memset(r, 0, sizeof *r);
    r->scene = scene;
    r->worlds = worlds;
    r->shapes = shapes;
    r->gap = o->gap;
    TRY(create_objects(o, scene, worlds, shapes, o->device, &s));
    TRY(cc_pipeline_get_info(s.pipeline, &r->estimated));
    {
        cc_status st;
        r->grows = fit_capacities(o, &s, &r->estimated_overflow, &st);
        TRY(st);
    }
    TRY(cc_pipeline_get_info(s.pipeline, &r->info));
    TRY(cc_pipeline_set_profiling(s.pipeline, 1));
    r->passes = o->repeat;
    for (int i = 0; i < o->repeat; ++i) {
        cc_stage_times t;
        TRY(cc_collide(s.pipeline, s.state, s.contacts, NULL));
        TRY(cc_pipeline_get_stage_times(s.pipeline, &t));
        add_stage_times(&r->stages, &t, 1.0 / o->repeat);
        if (i == 0 || t.narrow_phase_ms < r->narrow_best_ms) r->narrow_best_ms = t.narrow_phase_ms;
        /* Per route, the fastest pass: on a shared machine single passes
         * of a few microseconds per route swing with other load. */
        TRY(cc_pipeline_get_route_stats(s.pipeline, r->routes, 32, &r->route_count));
        for (int k = 0; k < r->route_count; ++k)
            if (i == 0 || r->routes[k].ns_per_pair < r->route_best_ns[k]) r->route_best_ns[k] = r->routes[k].ns_per_pair;
    }
    TRY(cc_pipeline_set_profiling(s.pipeline, 0));
    {
        double t0 = now_ms();
        for (int i = 0; i < o->repeat; ++i) TRY(cc_collide(s.pipeline, s.state, s.contacts, NULL));
        TRY(cc_contacts_count(s.contacts, &r->contacts)); /* waits for the device */
        r->total_ms = (now_ms() - t0) / o->repeat;
    }
    TRY(cc_pipeline_get_overflow(s.pipeline, &r->overflow));
    r->pairs = r->overflow.pairs_needed;
    r->model_bytes = cc_model_device_bytes(s.model);
    TRY(cc_model_get_memory(s.model, &r->model_memory));
    r->pipeline_bytes = r->info.device_bytes;
    r->contact_bytes = (size_t)r->info.rigid_contact_max * 56u;
    r->state_bytes = (size_t)cc_model_body_count(s.model) * (sizeof(cc_transform) + 2 * sizeof(cc_vec3));
    r->device_mib = (double)(r->pipeline_bytes + r->model_bytes + r->contact_bytes) / (1024.0 * 1024.0);
    r->contacts_unreduced = r->contacts;
    if (scene_has_surfaces(scene) && !o->no_reduce && r->info.reduce_contacts) run_unreduced(o, &s, r);
    if (o->device.kind == CC_DEVICE_CUDA) {
        /* Narrow phase traffic: per pair the pair, both shapes' columns and
         * body poses (about 192 bytes); per contact its 60-byte row. */
        double bytes = 192.0 * r->pairs + 60.0 * r->contacts;
        r->narrow_gbps = r->stages.narrow_phase_ms > 0 ? bytes / (r->stages.narrow_phase_ms * 1e6) : 0;
        char name[128];
        cc_device_describe(o->device, name, sizeof name, &r->peak_gbps);
    }
    ok = 1;
done:
    destroy_objects(&s);
    return ok;
}

static void print_header(void)
{
    printf("%-8s %-6s %7s %7s %-8s %10s %10s %9s %9s %9s %9s %9s %12s %9s\n", "scene", "device", "worlds",
           "shapes", "broad", "pairs", "contacts", "aabb_ms", "broad_ms", "narrow_ms", "other_ms",
           "total_ms", "contacts/s", "dev_MiB");
}

static void print_row(const options* o, const run_result* r)
{
    printf("%-8s %-6s %7d %7d %-8s %10d %10d %9.4f %9.4f %9.4f %9.4f %9.4f %12.3e %9.1f\n", scene_name(r->scene),
           o->device.kind == CC_DEVICE_CUDA ? "cuda" : "cpu", r->worlds, r->shapes,
           cc_broad_phase_name(r->info.broad_phase), r->pairs, r->contacts, r->stages.aabb_ms,
           r->stages.broad_phase_ms, r->stages.narrow_phase_ms, r->stages.other_ms, r->total_ms,
           r->total_ms > 0 ? r->contacts / (r->total_ms * 1e-3) : 0.0, r->device_mib);
    if (r->overflow.pairs_overflowed || r->overflow.contacts_overflowed)
        printf("  overflow: pairs %d/%d, contacts %d/%d (raise shape_pairs_max / rigid_contact_max)\n",
               r->overflow.pairs_needed, r->overflow.pairs_capacity, r->overflow.contacts_needed,
               r->overflow.contacts_capacity);
    if (r->peak_gbps > 0)
        printf("  narrow phase: %.1f GB/s, %.1f%% of the device's %.0f GB/s peak\n", r->narrow_gbps,
               100.0 * r->narrow_gbps / r->peak_gbps, r->peak_gbps);
    if (r->grows) {
        const cc_overflow* e = &r->estimated_overflow;
        printf("  OVERFLOW at the estimated capacities:");
        if (e->pairs_overflowed) printf(" pairs %d needed > %d;", e->pairs_needed, e->pairs_capacity);
        if (e->contacts_overflowed) printf(" contacts %d needed > %d;", e->contacts_needed, e->contacts_capacity);
        if (e->mesh_items_overflowed)
            printf(" mesh work items %d needed > %d;", e->mesh_items_needed, e->mesh_items_capacity);
        printf(" timed with capacities grown to contacts %d, pairs %d, mesh work items %d\n", r->info.rigid_contact_max,
               r->info.shape_pairs_max, r->info.mesh_work_items_max);
    }
    printf("  capacity: contacts %d (estimate/actual %.2f), pairs %d\n", r->estimated.rigid_contact_max,
           r->contacts > 0 ? (double)r->estimated.rigid_contact_max / r->contacts : 0.0, r->estimated.shape_pairs_max);
    if (r->overflow.mesh_items_overflowed)
        printf("  OVERFLOW: mesh work items %d needed, capacity %d: the contacts of %d items are missing "
               "(raise mesh_work_items_max)\n",
               r->overflow.mesh_items_needed, r->overflow.mesh_items_capacity,
               r->overflow.mesh_items_needed - r->overflow.mesh_items_capacity);
    if (!scene_has_surfaces(r->scene)) return;
    if (r->scene == SCENE_SPHERE_MESH && r->worlds * r->shapes > 0)
        printf("  sphere queries on the 20,000-triangle tile: %.3f us each (the fastest pass's narrow phase and mesh "
               "stages per sphere; mean %.3f us; gap %g m per shape)\n",
               1e3 * r->narrow_best_ms / (r->worlds * r->shapes),
               1e3 * r->stages.narrow_phase_ms / (r->worlds * r->shapes), r->gap);
    printf("  mesh: work items %d (estimated capacity %d, estimate/actual %.2f), %s", r->overflow.mesh_items_needed,
           r->estimated.mesh_work_items_max,
           r->overflow.mesh_items_needed > 0 ? (double)r->estimated.mesh_work_items_max / r->overflow.mesh_items_needed
                                             : 0.0,
           r->info.reduce_contacts ? "reduction on" : "reduction off");
    if (r->info.reduce_contacts)
        printf(" (%d pair blocks, %d pairs written unreduced)", r->info.mesh_reduction_pairs_max,
               r->overflow.mesh_pairs_unreduced);
    printf("\n");
    if (r->has_unreduced) {
        if (!r->unreduced_ok)
            printf("  contacts %d (unreduced: could not size the unreduced pass; last try %d needed, %s)\n",
                   r->contacts, r->contacts_unreduced,
                   r->unreduced_overflow.mesh_items_overflowed ? "mesh items overflowed" : "contacts overflowed");
        else
            printf("  contacts %d (unreduced %d, %.1fx; unreduced pass %.4f ms, narrow %.4f ms, rows %d)\n",
                   r->contacts, r->contacts_unreduced,
                   r->contacts > 0 ? (double)r->contacts_unreduced / r->contacts : 0.0, r->unreduced_stages.total_ms,
                   r->unreduced_stages.narrow_phase_ms, r->unreduced_capacity);
    }
    const cc_model_memory* mm = &r->model_memory;
    printf("  memory: model %.3f MiB = meshes, heightfields and hulls %.3f MiB (stored once) + shape and body rows "
           "%.2f KiB per world + filters %.1f KiB; per world: pipeline %.1f KiB, contacts %.1f KiB, state %.2f KiB\n",
           r->model_bytes / (1024.0 * 1024.0), mm->geometry_bytes / (1024.0 * 1024.0),
           (mm->shape_bytes + mm->body_bytes) / 1024.0 / r->worlds, mm->filter_bytes / 1024.0,
           r->pipeline_bytes / 1024.0 / r->worlds, r->contact_bytes / 1024.0 / r->worlds,
           r->state_bytes / 1024.0 / r->worlds);
}

static int is_surface_route(const cc_route_stats* s)
{
    return s->type_a >= CC_SHAPE_MESH || s->type_b >= CC_SHAPE_MESH;
}

/* Pairs with a mesh or heightfield do their work in the mesh stages, which
 * the per-route timer does not see: their cost is the narrow phase less
 * what the timed routes took, spread over the surface pairs (-1: no
 * surface pairs or no per-route times). */
static double surface_ns_per_pair(const run_result* r, int* pairs_out)
{
    double routed_ns = 0.0;
    int pairs = 0, timed = 1;
    for (int i = 0; i < r->route_count; ++i) {
        const cc_route_stats* s = &r->routes[i];
        if (s->ns_per_pair < 0) timed = 0;
        else routed_ns += s->ns_per_pair * s->pairs;
        if (is_surface_route(s)) pairs += s->pairs;
    }
    if (pairs_out) *pairs_out = pairs;
    if (!timed || pairs == 0) return -1.0;
    double ns = r->stages.narrow_phase_ms * 1e6 - routed_ns;
    return ns > 0 ? ns / pairs : 0.0;
}

static void print_routes(const run_result* r)
{
    for (int i = 0; i < r->route_count; ++i) {
        const cc_route_stats* s = &r->routes[i];
        printf("  route %-8s-%-8s pairs %9d", cc_shape_type_name(s->type_a), cc_shape_type_name(s->type_b), s->pairs);
        if (s->ns_per_pair >= 0) printf("  %8.1f ns/pair (best of %d passes; last %.1f)", r->route_best_ns[i], r->passes,
                                         s->ns_per_pair);
        if (s->ns_per_pair >= 0 && is_surface_route(s)) printf("  (dispatch only: the mesh stages are below)");
        printf("\n");
    }
    int pairs;
    double ns = surface_ns_per_pair(r, &pairs);
    if (ns >= 0)
        printf("  mesh stages (all surface routes): pairs %d  %10.1f ns/pair  %8.1f ns/work item%s\n", pairs, ns,
               r->overflow.mesh_items_needed > 0 ? ns * pairs / r->overflow.mesh_items_needed : 0.0,
               r->info.reduce_contacts ? " (vote and emit)" : "");
}

static void write_json(FILE* f, const options* o, const run_result* r, int first)
{
    fprintf(f,
            "%s  {\"scene\": \"%s\", \"device\": \"%s\", \"worlds\": %d, \"shapes\": %d, \"broad_phase\": \"%s\", "
            "\"pairs\": %d, \"contacts\": %d, \"aabb_ms\": %.6f, \"broad_phase_ms\": %.6f, \"narrow_phase_ms\": %.6f, "
            "\"other_ms\": %.6f, \"total_ms\": %.6f, \"contacts_per_s\": %.6e, \"device_mib\": %.3f, "
            "\"rigid_contact_max\": %d, \"shape_pairs_max\": %d, \"narrow_gbps\": %.3f, \"peak_gbps\": %.3f, "
            "\"reduce_contacts\": %d, \"contacts_unreduced\": %d, \"unreduced_ms\": %.6f, "
            "\"mesh_items_needed\": %d, \"mesh_items_capacity\": %d, \"mesh_items_overflowed\": %d, "
            "\"contacts_overflowed\": %d, \"model_bytes\": %zu, \"pipeline_bytes\": %zu, \"contact_bytes\": %zu, "
            "\"state_bytes\": %zu, \"model_geometry_bytes\": %zu, \"model_row_bytes\": %zu, \"capacity_grown\": %d, \"rigid_contact_max_estimated\": %d, "
            "\"mesh_items_estimated\": %d, \"surface_ns_per_pair\": %.3f, \"routes\": [",
            first ? "" : ",\n", scene_name(r->scene), o->device.kind == CC_DEVICE_CUDA ? "cuda" : "cpu", r->worlds,
            r->shapes, cc_broad_phase_name(r->info.broad_phase), r->pairs, r->contacts, r->stages.aabb_ms,
            r->stages.broad_phase_ms, r->stages.narrow_phase_ms, r->stages.other_ms, r->total_ms,
            r->total_ms > 0 ? r->contacts / (r->total_ms * 1e-3) : 0.0, r->device_mib, r->info.rigid_contact_max,
            r->info.shape_pairs_max, r->narrow_gbps, r->peak_gbps, r->info.reduce_contacts,
            r->has_unreduced && !r->unreduced_ok ? -1 : r->contacts_unreduced,
            r->has_unreduced ? r->unreduced_stages.total_ms : r->stages.total_ms, r->overflow.mesh_items_needed,
            r->overflow.mesh_items_capacity, r->overflow.mesh_items_overflowed, r->overflow.contacts_overflowed,
            r->model_bytes, r->pipeline_bytes, r->contact_bytes, r->state_bytes, r->model_memory.geometry_bytes,
            r->model_memory.shape_bytes + r->model_memory.body_bytes, r->grows > 0,
            r->estimated.rigid_contact_max, r->estimated.mesh_work_items_max, surface_ns_per_pair(r, NULL));
    for (int i = 0; i < r->route_count; ++i)
        fprintf(f, "%s{\"a\": \"%s\", \"b\": \"%s\", \"pairs\": %d, \"ns_per_pair\": %.3f, \"ns_per_pair_best\": %.3f}",
                i ? ", " : "", cc_shape_type_name(r->routes[i].type_a), cc_shape_type_name(r->routes[i].type_b),
                r->routes[i].pairs, r->routes[i].ns_per_pair, r->route_best_ns[i]);
    fprintf(f, "]}");
}

int cross_check(const options* o, bench_scene scene, int worlds, int shapes);

int main(int argc, char** argv)
{
    options o;
    if (!parse_options(argc, argv, &o)) {
        usage(stderr);
        return 2;
    }
    FILE* json = NULL;
    if (o.json && !(json = fopen(o.json, "w"))) {
        fprintf(stderr, "cucontact-bench: cannot write %s\n", o.json);
        return 1;
    }
    if (json) fprintf(json, "[\n");
    int failures = 0, first = 1;
    if (!o.cross_check) print_header();
    for (int si = 0; si < o.scene_count; ++si) {
        bench_scene scene = o.scenes[si];
        int wl[MAX_LIST], sl[MAX_LIST];
        int wn = o.world_count ? o.world_count : 1, sn = o.shape_count ? o.shape_count : 1;
        for (int i = 0; i < wn; ++i) wl[i] = o.world_count ? o.worlds[i] : default_worlds(scene);
        for (int i = 0; i < sn; ++i) sl[i] = o.shape_count ? o.shapes[i] : default_shapes(scene);
        for (int wi = 0; wi < wn; ++wi)
            for (int sj = 0; sj < sn; ++sj) {
                if (o.cross_check) {
                    failures += !cross_check(&o, scene, wl[wi], sl[sj]);
                    continue;
                }
                if (scene == SCENE_BULLETS) {
                    failures += bench_bullets(o.device, wl[wi], sl[sj], o.seconds_given ? o.seconds : 1.0);
                    continue;
                }
                if (scene == SCENE_SETTLE) {
                    failures += bench_settle(o.device, wl[wi], sl[sj], o.seconds, o.deterministic);
                    continue;
                }
                run_result r;
                double first_ms = 0.0, first_narrow_ms = 0.0;
                int ran = 1;
                for (int ti = 0; ti < (o.thread_count ? o.thread_count : 1); ++ti) {
                    if (o.thread_count) {
                        char text[16];
                        snprintf(text, sizeof text, "%d", o.threads[ti]);
                        setenv("CUCONTACT_CPU_THREADS", text, 1);
                    }
                    if (!run_one(&o, scene, wl[wi], sl[sj], &r)) {
                        failures++;
                        ran = 0;
                        break;
                    }
                    print_row(&o, &r);
                    if (ti == 0) {
                        first_ms = r.total_ms;
                        first_narrow_ms = r.stages.narrow_phase_ms;
                    }
                    if (o.thread_count)
                        printf("  %d CPU threads: pass %.2fx, narrow phase %.2fx the speed of %d\n", o.threads[ti],
                               r.total_ms > 0 ? first_ms / r.total_ms : 0.0,
                               r.stages.narrow_phase_ms > 0 ? first_narrow_ms / r.stages.narrow_phase_ms : 0.0,
                               o.threads[0]);
                }
                if (!ran) continue;
                if (o.routes) print_routes(&r);
                if (o.deterministic) {
                    /* The same run without ordering or matching, for the ratio. */
                    options plain = o;
                    plain.deterministic = 0;
                    plain.matching = CC_MATCHING_DISABLED;
                    run_result base;
                    if (run_one(&plain, scene, wl[wi], sl[sj], &base))
                        printf("  %s%s costs %.2fx the plain pass (%.4f ms vs %.4f ms)\n", "deterministic",
                               o.matching == CC_MATCHING_LATEST ? " + latest matching"
                               : o.matching == CC_MATCHING_STICKY ? " + sticky matching" : "",
                               r.total_ms / base.total_ms, r.total_ms, base.total_ms);
                }
                if (json) write_json(json, &o, &r, first);
                first = 0;
            }
    }
    if (json) {
        fprintf(json, "\n]\n");
        fclose(json);
    }
    return failures ? 1 : 0;
}

/* ---- CPU versus CUDA ------------------------------------------------------ */

static int compare_pair(const void* a, const void* b)
{
    const int* x = (const int*)a;
    const int* y = (const int*)b;
    if (x[0] != y[0]) return x[0] < y[0] ? -1 : 1;
    return (x[1] > y[1]) - (x[1] < y[1]);
}

static int compare_contact(const void* a, const void* b)
{
    const cc_contact* x = (const cc_contact*)a;
    const cc_contact* y = (const cc_contact*)b;
    if (x->shape0 != y->shape0) return x->shape0 < y->shape0 ? -1 : 1;
    return (x->shape1 > y->shape1) - (x->shape1 < y->shape1);
}

/* Tolerances of a cross-check between backends that may round
 * differently: nvcc contracts multiply-adds, so values differ in their last
 * bits, an iterative query may stop a step apart, and a contact whose
 * distance lies within rounding of its admission bound (d <= gap_a +
 * gap_b) can be admitted by one backend only. Bugs show up far beyond
 * these. With --exact (a CUCONTACT_STRICT_FP build of both backends) every
 * row must agree to the bit. */
#define CROSS_POINT_TOL 1.0e-4f    /* m, plus CROSS_RELATIVE of the coordinate */
#define CROSS_RELATIVE 1.0e-5f
#define CROSS_NORMAL_TOL 1.0e-3f   /* per component of the unit normal */
#define CROSS_DISTANCE_TOL 2.0e-5f /* m */

static int near(float a, float b, float tol) { return fabsf(a - b) <= tol + CROSS_RELATIVE * fmaxf(fabsf(a), fabsf(b)); }

static int near3(cc_vec3 a, cc_vec3 b, float tol) { return near(a.x, b.x, tol) && near(a.y, b.y, tol) && near(a.z, b.z, tol); }

/* The same contact up to rounding noise. */
static int contacts_match(const cc_contact* a, const cc_contact* b)
{
    return a->shape0 == b->shape0 && a->shape1 == b->shape1 && near3(a->point0, b->point0, CROSS_POINT_TOL) &&
           near3(a->point1, b->point1, CROSS_POINT_TOL) && near3(a->normal, b->normal, CROSS_NORMAL_TOL) &&
           near(a->distance, b->distance, CROSS_DISTANCE_TOL) && near(a->thickness0, b->thickness0, 0.0f) &&
           near(a->thickness1, b->thickness1, 0.0f);
}

/* What a comparison found: rows equal to the bit, rows equal up to noise,
 * rows one backend alone admitted at their admission bound (noise too),
 * and rows that differ otherwise (a bug). */
typedef struct cross_tally {
    int exact, noise, marginal, differ;
} cross_tally;

static int marginal(const cc_contact* c, float admit) { return fabsf(c->distance - admit) <= CROSS_DISTANCE_TOL; }

/* Both lists are sorted by shape pair; within a pair (a few rows for
 * primitives, up to hundreds for a mesh or heightfield pair) each contact
 * of a is matched to a distinct contact of b. `admit` is the pairs'
 * admission bound, gap_a + gap_b. */
static cross_tally compare_contacts(const cc_contact* a, int na, const cc_contact* b, int nb, float admit)
{
    cross_tally t = {0, 0, 0, 0};
    unsigned char* used = (unsigned char*)calloc((size_t)(nb > 0 ? nb : 1), 1);
    if (!used) {
        t.differ = na + nb;
        return t;
    }
    int ib = 0;
    for (int ia = 0; ia < na;) {
        int a_end = ia + 1;
        while (a_end < na && compare_contact(&a[a_end], &a[ia]) == 0) a_end++;
        while (ib < nb && compare_contact(&b[ib], &a[ia]) < 0) { /* pairs b alone has */
            if (marginal(&b[ib], admit)) t.marginal++;
            else t.differ++;
            ib++;
        }
        int b_end = ib;
        while (b_end < nb && compare_contact(&b[b_end], &a[ia]) == 0) b_end++;
        for (int i = ia; i < a_end; ++i) {
            int found = -1;
            for (int j = ib; j < b_end && found < 0; ++j)
                if (!used[j] && !memcmp(&a[i], &b[j], sizeof(cc_contact))) found = j;
            if (found >= 0) {
                t.exact++;
            } else {
                for (int j = ib; j < b_end && found < 0; ++j)
                    if (!used[j] && contacts_match(&a[i], &b[j])) found = j;
                if (found >= 0) t.noise++;
                else if (marginal(&a[i], admit)) t.marginal++;
                else t.differ++;
            }
            if (found >= 0) used[found] = 1;
        }
        for (int j = ib; j < b_end; ++j)
            if (!used[j]) {
                if (marginal(&b[j], admit)) t.marginal++;
                else t.differ++;
            }
        ia = a_end;
        ib = b_end;
    }
    for (; ib < nb; ++ib) {
        if (marginal(&b[ib], admit)) t.marginal++;
        else t.differ++;
    }
    free(used);
    return t;
}

typedef struct snapshot {
    int* pairs;
    int pair_count;
    cc_contact* contacts;
    int contact_count;
} snapshot;

static int take_snapshot(const options* o, bench_scene scene, int worlds, int shapes, cc_device d, snapshot* out)
{
    int ok = 0;
    scene_objects s;
    memset(out, 0, sizeof *out);
    TRY(create_objects(o, scene, worlds, shapes, d, &s));
    {
        cc_status st;
        cc_overflow first;
        if (fit_capacities(o, &s, &first, &st))
            printf("  (%s: capacities grown after the estimates overflowed)\n", d.kind == CC_DEVICE_CUDA ? "cuda" : "cpu");
        TRY(st);
    }
    {
        cc_pipeline_info info;
        TRY(cc_pipeline_get_info(s.pipeline, &info));
        out->pairs = (int*)malloc(sizeof(int) * 2 * (size_t)info.shape_pairs_max);
        out->contacts = (cc_contact*)malloc(sizeof(cc_contact) * (size_t)info.rigid_contact_max);
        if (!out->pairs || !out->contacts) goto done;
        TRY(cc_pipeline_download_pairs(s.pipeline, out->pairs, info.shape_pairs_max, &out->pair_count));
        TRY(cc_contacts_download(s.contacts, s.state, out->contacts, info.rigid_contact_max, &out->contact_count));
    }
    qsort(out->pairs, (size_t)out->pair_count, 2 * sizeof(int), compare_pair);
    /* Deterministic buffers must agree row by row, so keep their order. */
    if (!o->deterministic) qsort(out->contacts, (size_t)out->contact_count, sizeof(cc_contact), compare_contact);
    ok = 1;
done:
    destroy_objects(&s);
    return ok;
}

int cross_check(const options* o, bench_scene scene, int worlds, int shapes)
{
    snapshot cpu, gpu;
    /* Against CUDA device 0 unless --device names another; --device cpu
     * compares the CPU with itself, a check of the comparison. */
    cc_device cuda = o->device_given ? o->device : cc_device_cuda(0);
    const char* device_label = cuda.kind == CC_DEVICE_CUDA ? "gpu" : "cpu";
    int ok = take_snapshot(o, scene, worlds, shapes, cc_device_cpu(), &cpu) &&
             take_snapshot(o, scene, worlds, shapes, cuda, &gpu);
    int bad_pairs = 0, bad = 0;
    if (ok) {
        if (cpu.pair_count != gpu.pair_count) bad_pairs = 1;
        else
            for (int i = 0; i < cpu.pair_count; ++i)
                bad_pairs += compare_pair(&cpu.pairs[2 * i], &gpu.pairs[2 * i]) != 0;
        int same_rows = cpu.contact_count == gpu.contact_count &&
                        !memcmp(cpu.contacts, gpu.contacts, sizeof(cc_contact) * (size_t)cpu.contact_count);
        /* Compared as sets sorted by shape pair, deterministic or not: in a
         * deterministic buffer one marginal row shifts every later index. */
        if (o->deterministic && !o->exact) {
            qsort(cpu.contacts, (size_t)cpu.contact_count, sizeof(cc_contact), compare_contact);
            qsort(gpu.contacts, (size_t)gpu.contact_count, sizeof(cc_contact), compare_contact);
        }
        cross_tally t = compare_contacts(cpu.contacts, cpu.contact_count, gpu.contacts, gpu.contact_count,
                                         2.0f * o->gap);
        if (o->exact) {
            /* Strict FP: the same rows in the same order, bit for bit; and
             * the same candidate pairs (a pair without contacts included). */
            bad = !same_rows || bad_pairs;
        } else {
            /* Candidate pairs may differ where an AABB test ties; that is
             * noise unless it changed the contacts, which the tally sees. */
            bad = t.differ > 0;
        }
        printf("cross-check %-8s worlds %6d shapes %6d: pairs cpu %d %s %d (%d differ), contacts cpu %d %s %d: "
               "%d exact, %d within noise, %d marginal, %d differ%s %s\n",
               scene_name(scene), worlds, shapes, cpu.pair_count, device_label, gpu.pair_count, bad_pairs,
               cpu.contact_count, device_label, gpu.contact_count, t.exact, t.noise, t.marginal, t.differ,
               o->exact ? (same_rows ? ", rows identical" : ", rows NOT identical") : "", bad ? "FAIL" : "ok");
    }
    free(cpu.pairs);
    free(cpu.contacts);
    free(gpu.pairs);
    free(gpu.contacts);
    return ok && !bad;
}
