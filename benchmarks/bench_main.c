/* cucontact-bench: collide timing per stage on the benchmark scenes.
 *
 * Each run builds a scene, creates a pipeline, collides once to warm up,
 * then (1) runs --repeat passes with profiling on for the per-stage and
 * per-route table and (2) --repeat passes with profiling off for the
 * throughput figures. With --cross-check it compares the CPU and CUDA
 * backends' candidate pairs and contacts on the same scene instead. */
#define _POSIX_C_SOURCE 199309L /* clock_gettime */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "scenes.h"

#define MAX_LIST 16

typedef struct options {
    bench_scene scenes[SCENE_COUNT];
    int scene_count;
    cc_device device;
    int worlds[MAX_LIST], world_count;
    int shapes[MAX_LIST], shape_count;
    cc_broad_phase broad_phase;
    int repeat;
    float density, gap;
    const char* json;
    int cross_check;
    int routes;
    int deterministic;
    cc_contact_matching matching;
} options;

typedef struct run_result {
    bench_scene scene;
    int worlds, shapes;
    cc_pipeline_info info;
    int pairs, contacts;
    cc_overflow overflow;
    cc_stage_times stages; /* mean over the profiled passes */
    double total_ms;       /* mean wall time of an unprofiled pass */
    double device_mib;
    double narrow_gbps, peak_gbps;
    cc_route_stats routes[32];
    int route_count;
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
            "  --scene NAME[,NAME]   spheres, pile, sap, convex or all (default all)\n"
            "  --device cpu|cuda[:N] backend (default cpu)\n"
            "  --worlds W[,W...]     worlds per scene; a list prints a scaling table (default 64; sap: 1)\n"
            "  --shapes N[,N...]     shapes per world (default spheres 64, pile and convex 200, sap 10000)\n"
            "  --broad-phase B       auto, nxn, sap or explicit (default auto)\n"
            "  --repeat R            passes timed per run (default 10)\n"
            "  --density D           sap: volume fraction filled by boxes (default 0.1)\n"
            "  --gap G               detection gap of every shape in metres (default 0.01)\n"
            "  --routes              print candidate pairs and ns per pair for each route\n"
            "  --deterministic       sort contacts by key each pass; prints the cost against a plain pass\n"
            "  --matching MODE       latest or sticky contact matching (implies --deterministic)\n"
            "  --json FILE           also write the results as JSON\n"
            "  --cross-check         compare CPU and CUDA pairs and contacts instead of timing\n"
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
        } else if (!strcmp(a, "--routes")) {
            o->routes = 1;
        } else if (!strcmp(a, "--deterministic")) {
            o->deterministic = 1;
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
                    fprintf(stderr, "cucontact-bench: unknown scene '%s' (spheres, pile, sap, convex, all)\n", tok);
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
    default: return 10000;
    }
}
static int default_worlds(bench_scene s) { return s == SCENE_SAP ? 1 : 64; }

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

static cc_status create_objects(const options* o, bench_scene scene, int worlds, int shapes, cc_device device,
                                scene_objects* s)
{
    memset(s, 0, sizeof *s);
    scene_params sp = {worlds, shapes, o->density, o->gap, 0};
    cc_builder_def bd = cc_default_builder_def();
    cc_status st = cc_builder_create(&bd, &s->builder);
    if (st == CC_OK) st = scene_build(scene, &sp, s->builder);
    if (st == CC_OK) st = cc_builder_finalize(s->builder, device, &s->model);
    if (st == CC_OK) st = cc_state_create(s->model, &s->state);
    cc_pipeline_def pd = cc_default_pipeline_def();
    pd.broad_phase = o->broad_phase;
    pd.deterministic = o->deterministic;
    pd.contact_matching = o->matching;
    if (st == CC_OK) st = cc_pipeline_create(s->model, &pd, &s->pipeline);
    if (st == CC_OK) st = cc_contacts_create(s->pipeline, &s->contacts);
    return st;
}

static int run_one(const options* o, bench_scene scene, int worlds, int shapes, run_result* r)
{
    int ok = 0;
    scene_objects s;
    memset(r, 0, sizeof *r);
    r->scene = scene;
    r->worlds = worlds;
    r->shapes = shapes;
    TRY(create_objects(o, scene, worlds, shapes, o->device, &s));
    TRY(cc_pipeline_get_info(s.pipeline, &r->info));
    TRY(cc_collide(s.pipeline, s.state, s.contacts, NULL));
    TRY(cc_pipeline_set_profiling(s.pipeline, 1));
    for (int i = 0; i < o->repeat; ++i) {
        cc_stage_times t;
        TRY(cc_collide(s.pipeline, s.state, s.contacts, NULL));
        TRY(cc_pipeline_get_stage_times(s.pipeline, &t));
        r->stages.aabb_ms += t.aabb_ms / o->repeat;
        r->stages.broad_phase_ms += t.broad_phase_ms / o->repeat;
        r->stages.narrow_phase_ms += t.narrow_phase_ms / o->repeat;
        r->stages.other_ms += t.other_ms / o->repeat;
        r->stages.total_ms += t.total_ms / o->repeat;
    }
    TRY(cc_pipeline_get_route_stats(s.pipeline, r->routes, 32, &r->route_count));
    TRY(cc_pipeline_set_profiling(s.pipeline, 0));
    {
        double t0 = now_ms();
        for (int i = 0; i < o->repeat; ++i) TRY(cc_collide(s.pipeline, s.state, s.contacts, NULL));
        TRY(cc_contacts_count(s.contacts, &r->contacts)); /* waits for the device */
        r->total_ms = (now_ms() - t0) / o->repeat;
    }
    TRY(cc_pipeline_get_overflow(s.pipeline, &r->overflow));
    r->pairs = r->overflow.pairs_needed;
    r->device_mib = (double)(r->info.device_bytes + cc_model_device_bytes(s.model) +
                             (size_t)r->info.rigid_contact_max * 56u) / (1024.0 * 1024.0);
    if (o->device.kind == CC_DEVICE_CUDA) {
        /* Narrow phase traffic: per pair the pair, both shapes' columns and
         * body poses (about 192 bytes); per contact its 56-byte row. */
        double bytes = 192.0 * r->pairs + 56.0 * r->contacts;
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
    printf("  capacity: contacts %d (estimate/actual %.2f), pairs %d\n", r->info.rigid_contact_max,
           r->contacts > 0 ? (double)r->info.rigid_contact_max / r->contacts : 0.0, r->info.shape_pairs_max);
}

static void print_routes(const run_result* r)
{
    for (int i = 0; i < r->route_count; ++i) {
        const cc_route_stats* s = &r->routes[i];
        printf("  route %-8s-%-8s pairs %9d", cc_shape_type_name(s->type_a), cc_shape_type_name(s->type_b), s->pairs);
        if (s->ns_per_pair >= 0) printf("  %8.1f ns/pair", s->ns_per_pair);
        printf("\n");
    }
}

static void write_json(FILE* f, const options* o, const run_result* r, int first)
{
    fprintf(f,
            "%s  {\"scene\": \"%s\", \"device\": \"%s\", \"worlds\": %d, \"shapes\": %d, \"broad_phase\": \"%s\", "
            "\"pairs\": %d, \"contacts\": %d, \"aabb_ms\": %.6f, \"broad_phase_ms\": %.6f, \"narrow_phase_ms\": %.6f, "
            "\"other_ms\": %.6f, \"total_ms\": %.6f, \"contacts_per_s\": %.6e, \"device_mib\": %.3f, "
            "\"rigid_contact_max\": %d, \"shape_pairs_max\": %d, \"narrow_gbps\": %.3f, \"peak_gbps\": %.3f, \"routes\": [",
            first ? "" : ",\n", scene_name(r->scene), o->device.kind == CC_DEVICE_CUDA ? "cuda" : "cpu", r->worlds,
            r->shapes, cc_broad_phase_name(r->info.broad_phase), r->pairs, r->contacts, r->stages.aabb_ms,
            r->stages.broad_phase_ms, r->stages.narrow_phase_ms, r->stages.other_ms, r->total_ms,
            r->total_ms > 0 ? r->contacts / (r->total_ms * 1e-3) : 0.0, r->device_mib, r->info.rigid_contact_max,
            r->info.shape_pairs_max, r->narrow_gbps, r->peak_gbps);
    for (int i = 0; i < r->route_count; ++i)
        fprintf(f, "%s{\"a\": \"%s\", \"b\": \"%s\", \"pairs\": %d, \"ns_per_pair\": %.3f}", i ? ", " : "",
                cc_shape_type_name(r->routes[i].type_a), cc_shape_type_name(r->routes[i].type_b), r->routes[i].pairs,
                r->routes[i].ns_per_pair);
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
                run_result r;
                if (!run_one(&o, scene, wl[wi], sl[sj], &r)) {
                    failures++;
                    continue;
                }
                print_row(&o, &r);
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

static int close_enough(float a, float b)
{
    float scale = fmaxf(1.0f, fmaxf(fabsf(a), fabsf(b)));
    return fabsf(a - b) <= 1e-5f * scale;
}

static int contacts_match(const cc_contact* a, const cc_contact* b)
{
    const float* x = &a->point0.x;
    const float* y = &b->point0.x;
    /* point0, point1, offset0, offset1, normal: 15 floats in a row. */
    for (int k = 0; k < 15; ++k)
        if (!close_enough(x[k], y[k])) return 0;
    return a->shape0 == b->shape0 && a->shape1 == b->shape1 && close_enough(a->distance, b->distance) &&
           close_enough(a->thickness0, b->thickness0) && close_enough(a->thickness1, b->thickness1);
}

/* Both lists are sorted by shape pair; within a pair (at most a few rows)
 * each CPU contact must match a distinct GPU contact. */
static int count_unmatched(const cc_contact* a, const cc_contact* b, int n)
{
    int unmatched = 0;
    for (int start = 0, end; start < n; start = end) {
        for (end = start + 1; end < n && compare_contact(&a[end], &a[start]) == 0; ++end) {}
        unsigned used = 0;
        for (int i = start; i < end; ++i) {
            int found = 0;
            for (int j = start; j < end && j - start < 32 && !found; ++j)
                if (!(used >> (j - start) & 1u) && contacts_match(&a[i], &b[j])) {
                    used |= 1u << (j - start);
                    found = 1;
                }
            unmatched += !found;
        }
    }
    return unmatched;
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
    TRY(cc_collide(s.pipeline, s.state, s.contacts, NULL));
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
    cc_device cuda = o->device.kind == CC_DEVICE_CUDA ? o->device : cc_device_cuda(0);
    int ok = take_snapshot(o, scene, worlds, shapes, cc_device_cpu(), &cpu) &&
             take_snapshot(o, scene, worlds, shapes, cuda, &gpu);
    int bad_pairs = 0, bad_contacts = 0;
    if (ok) {
        if (cpu.pair_count != gpu.pair_count) bad_pairs = -1;
        else
            for (int i = 0; i < cpu.pair_count; ++i)
                bad_pairs += compare_pair(&cpu.pairs[2 * i], &gpu.pairs[2 * i]) != 0;
        if (cpu.contact_count != gpu.contact_count) bad_contacts = -1;
        else if (o->deterministic)
            for (int i = 0; i < cpu.contact_count; ++i)
                bad_contacts += !contacts_match(&cpu.contacts[i], &gpu.contacts[i]) ||
                                cpu.contacts[i].match_index != gpu.contacts[i].match_index;
        else
            bad_contacts = count_unmatched(cpu.contacts, gpu.contacts, cpu.contact_count);
        printf("cross-check %-8s worlds %6d shapes %6d: pairs cpu %d gpu %d (%d differ), contacts cpu %d gpu %d (%d differ) %s\n",
               scene_name(scene), worlds, shapes, cpu.pair_count, gpu.pair_count, bad_pairs, cpu.contact_count,
               gpu.contact_count, bad_contacts, bad_pairs || bad_contacts ? "FAIL" : "ok");
    }
    free(cpu.pairs);
    free(cpu.contacts);
    free(gpu.pairs);
    free(gpu.contacts);
    return ok && !bad_pairs && !bad_contacts;
}
