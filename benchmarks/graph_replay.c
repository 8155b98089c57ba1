/* graph_replay: a host C program that builds many worlds of a box pile,
 * captures one frame (collide + substeps) as a frame graph and replays it,
 * printing world-steps per second and contacts per frame.
 *
 *   graph_replay [--device cpu|cuda] [--worlds N] [--frames N]
 *                [--substeps N] [--collide-every N] [--deterministic]
 *                [--material default|soft] [--schedule] [--toi]
 *
 * --schedule runs the frame with the collision sub-step scheduler
 * (speculative contacts with a 2 cm reserve, at most collide-every
 * substeps between passes) and prints the passes per frame. --toi turns on
 * time-of-impact speculation (looking 2 cm ahead, or the scheduler's
 * reserve) and prints the last pass's fast shapes and swept pairs.
 *
 * The default material is the library's (the compliant model's reference
 * parameters, point-contact areas from the shapes); soft is a 1e5 Pa/m
 * penalty with 0.1 mm smoothing and c_n 20 s/m over 1 m^2 per point
 * contact. Both settle with the default (implicit) step.
 *
 * On CUDA the frame is a cudaGraphExec_t, replayed with cudaGraphLaunch
 * straight from this program; on the CPU cc_frame_graph_launch replays the
 * recorded frame, so the loop is the same on both. */
#define _POSIX_C_SOURCE 199309L /* clock_gettime */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cucontact/cucontact.h"

#if defined(CC_EXAMPLE_WITH_CUDA)
#include <cuda_runtime_api.h>
#endif

typedef struct options {
    cc_device device;
    int worlds, frames, substeps, collide_every, deterministic;
    int soft;     /* --material soft */
    int schedule; /* --schedule */
    int toi;      /* --toi */
} options;

static int usage(const char* program)
{
    fprintf(stderr,
            "usage: %s [--device cpu|cuda] [--worlds N] [--frames N] [--substeps N] [--collide-every N] [--deterministic]\n"
            "          [--material default|soft] [--schedule] [--toi]\n"
            "  builds N worlds of an 8-box pile (4096 by default), captures one frame of\n"
            "  collide + substeps (4 of 1 ms by default) and replays it (1000 frames by default);\n"
            "  --schedule lets the collision sub-step scheduler decide when to collide\n"
            "  --toi speculates by time of impact (2 cm ahead)\n",
            program);
    return 2;
}

static int parse_count(const char* text, int* out)
{
    char* end = NULL;
    long v = strtol(text, &end, 10);
    if (!end || *end || v < 1 || v > 1000000000L) return 0;
    *out = (int)v;
    return 1;
}

static int parse(int argc, char** argv, options* o)
{
    o->device = cc_device_cpu();
    o->worlds = 4096;
    o->frames = 1000;
    o->substeps = 4;
    o->collide_every = 1;
    o->deterministic = 0;
    o->soft = 0;
    o->schedule = 0;
    o->toi = 0;
    for (int i = 1; i < argc; ++i) {
        const char* a = argv[i];
        const char* next = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) return 0;
        if (!strcmp(a, "--deterministic")) {
            o->deterministic = 1;
            continue;
        }
        if (!strcmp(a, "--schedule")) {
            o->schedule = 1;
            continue;
        }
        if (!strcmp(a, "--toi")) {
            o->toi = 1;
            continue;
        }
        if (!next) {
            fprintf(stderr, "%s needs a value\n", a);
            return 0;
        }
        int ok = 1;
        if (!strcmp(a, "--device")) {
            if (!strcmp(next, "cpu")) o->device = cc_device_cpu();
            else if (!strcmp(next, "cuda")) o->device = cc_device_cuda(0);
            else ok = 0;
        } else if (!strcmp(a, "--material")) {
            if (!strcmp(next, "default")) o->soft = 0;
            else if (!strcmp(next, "soft")) o->soft = 1;
            else ok = 0;
        } else if (!strcmp(a, "--worlds")) ok = parse_count(next, &o->worlds);
        else if (!strcmp(a, "--frames")) ok = parse_count(next, &o->frames);
        else if (!strcmp(a, "--substeps")) ok = parse_count(next, &o->substeps);
        else if (!strcmp(a, "--collide-every")) ok = parse_count(next, &o->collide_every);
        else {
            fprintf(stderr, "unknown option %s\n", a);
            return 0;
        }
        if (!ok) {
            fprintf(stderr, "invalid value '%s' for %s\n", next, a);
            return 0;
        }
        ++i;
    }
    return 1;
}

#define CHECK(call)                                                                             \
    do {                                                                                        \
        cc_status s_ = (call);                                                                  \
        if (s_ != CC_OK) {                                                                      \
            fprintf(stderr, "%s failed: %s: %s\n", #call, cc_status_string(s_), cc_last_error_message()); \
            exit(1);                                                                            \
        }                                                                                       \
    } while (0)

/* The shapes' material: the library's, or the soft one. */
static cc_shape_def material(int soft)
{
    cc_shape_def shape = cc_default_shape_def();
    if (soft) {
        shape.compliant.penalty_coefficient = 1.0e5f; /* N/m per m^2 of contact weight */
        shape.compliant.smoothing_half_distance = 1.0e-4f;
        shape.compliant.threshold = 0.0f;
        shape.compliant.normal_damping = 20.0f;
    }
    return shape;
}

/* One world: 8 boxes of 0.2 m in two layers of four, slightly turned. */
static cc_builder* box_pile_template(int soft)
{
    cc_builder_def def = cc_default_builder_def();
    def.rigid_gap = 0.02f;
    cc_builder* t = NULL;
    CHECK(cc_builder_create(&def, &t));
    cc_shape_def shape = material(soft);
    for (int i = 0; i < 8; ++i) {
        cc_body_def body = cc_default_body_def();
        float angle = 0.05f * (float)i;
        body.pose.p.x = 0.25f * (float)(i % 2) - 0.125f;
        body.pose.p.y = 0.25f * (float)((i / 2) % 2) - 0.125f;
        body.pose.p.z = 0.1f + 0.21f * (float)(i / 4);
        body.pose.q.z = sinf(0.5f * angle);
        body.pose.q.w = cosf(0.5f * angle);
        int b = -1;
        CHECK(cc_builder_add_body(t, &body, &b));
        cc_vec3 half = {0.1f, 0.1f, 0.1f};
        CHECK(cc_builder_add_box(t, b, half, &shape, NULL));
    }
    return t;
}

static double seconds(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static void wait_for(cc_device device, cc_stream stream)
{
#if defined(CC_EXAMPLE_WITH_CUDA)
    if (device.kind == CC_DEVICE_CUDA) cudaStreamSynchronize((cudaStream_t)stream);
#else
    (void)device;
    (void)stream;
#endif
}

static void launch(cc_frame_graph* graph, cc_stream stream)
{
#if defined(CC_EXAMPLE_WITH_CUDA)
    cudaGraphExec_t exec = (cudaGraphExec_t)cc_frame_graph_exec(graph);
    if (exec) {
        cudaError_t e = cudaGraphLaunch(exec, (cudaStream_t)stream);
        if (e != cudaSuccess) {
            fprintf(stderr, "cudaGraphLaunch failed: %s\n", cudaGetErrorString(e));
            exit(1);
        }
        return;
    }
#endif
    CHECK(cc_frame_graph_launch(graph, stream));
}

int main(int argc, char** argv)
{
    options o;
    if (!parse(argc, argv, &o)) return usage(argv[0]);
    const float dt = 1.0e-3f;

    cc_builder* templ = box_pile_template(o.soft);
    /* A 2 cm detection gap: contacts are refreshed every substep or two, so
     * the default 10 cm would only add rows that carry no force. */
    cc_builder_def scene_def = cc_default_builder_def();
    scene_def.rigid_gap = 0.02f;
    cc_builder* scene = NULL;
    CHECK(cc_builder_create(&scene_def, &scene));
    cc_shape_def ground = material(o.soft);
    CHECK(cc_builder_add_plane(scene, CC_BODY_WORLD, 0.0f, 0.0f, &ground, NULL));
    CHECK(cc_builder_replicate(scene, templ, o.worlds, NULL));

    cc_model* model = NULL;
    CHECK(cc_builder_finalize(scene, o.device, &model));
    cc_pipeline_def pd = cc_default_pipeline_def();
    pd.deterministic = o.deterministic;
    if (o.schedule || o.toi) pd.speculative_contact_gap_max = 0.02f; /* the scheduler's reserve, the sweeps' cap */
    if (o.toi) pd.speculative_mode = CC_SPECULATIVE_TOI;
    cc_pipeline* pipeline = NULL;
    CHECK(cc_pipeline_create(model, &pd, &pipeline));
    cc_pipeline_info info;
    CHECK(cc_pipeline_get_info(pipeline, &info));
    cc_solver_def sd = cc_default_solver_def();
    sd.deterministic = o.deterministic;
    if (o.soft) sd.point_contact_weight = 1.0f; /* the soft material's area per point */
    cc_solver* solver = NULL;
    CHECK(cc_solver_create(model, &sd, info.rigid_contact_max, &solver));
    cc_state* states[2] = {NULL, NULL};
    CHECK(cc_state_create(model, &states[0]));
    CHECK(cc_state_create(model, &states[1]));

    cc_stream stream = NULL;
#if defined(CC_EXAMPLE_WITH_CUDA)
    if (o.device.kind == CC_DEVICE_CUDA) {
        cudaStream_t s = NULL;
        cudaStreamCreate(&s);
        stream = (cc_stream)s;
    }
#endif
    cc_frame_graph* graph = NULL;
    double t0 = seconds();
    if (o.schedule) {
        cc_frame_schedule_def fd = cc_default_frame_schedule_def();
        fd.substeps = o.substeps;
        fd.frame_dt = (float)o.substeps * dt;
        fd.collision_dt_max = (float)o.collide_every * dt;
        CHECK(cc_frame_graph_create_scheduled(pipeline, solver, states, &fd, stream, &graph));
    } else {
        CHECK(cc_frame_graph_create(pipeline, solver, states, o.substeps, o.collide_every, dt, stream, &graph));
    }
    double capture_s = seconds() - t0;

    /* One warm-up frame, then the timed replays. */
    launch(graph, stream);
    wait_for(o.device, stream);
    t0 = seconds();
    for (int f = 0; f < o.frames; ++f) launch(graph, stream);
    wait_for(o.device, stream);
    double elapsed = seconds() - t0;

    int contacts = 0;
    CHECK(cc_contacts_count(cc_frame_graph_contacts(graph), &contacts));
    cc_overflow overflow;
    CHECK(cc_pipeline_get_overflow(pipeline, &overflow));
    /* The pile must have settled, not exploded: the fastest body is slow. */
    int nbody = cc_model_body_count(model);
    cc_vec3* lin = (cc_vec3*)malloc(sizeof(cc_vec3) * (size_t)nbody);
    cc_vec3* ang = (cc_vec3*)malloc(sizeof(cc_vec3) * (size_t)nbody);
    CHECK(cc_state_get_body_velocities(states[0], 0, nbody, lin, ang));
    double fastest = 0.0;
    for (int i = 0; i < nbody; ++i) {
        double v = sqrt((double)lin[i].x * lin[i].x + (double)lin[i].y * lin[i].y + (double)lin[i].z * lin[i].z);
        if (!(v <= fastest)) fastest = v; /* NaN propagates */
    }
    char name[128] = "cpu";
    double gbps = 0.0;
    CHECK(cc_device_describe(o.device, name, sizeof name, &gbps));

    double world_steps = (double)o.worlds * o.substeps * o.frames;
    printf("device            %s\n", name);
    printf("worlds            %d (8 boxes each, %d bodies)\n", o.worlds, nbody);
    printf("frame             %d substeps of %.3g s, %s %d%s\n", o.substeps, (double)dt,
           o.schedule ? "scheduled, at most" : "collide every", o.collide_every, o.deterministic ? ", deterministic" : "");
    printf("capture           %.3f ms\n", 1e3 * capture_s);
    printf("frames            %d in %.3f s (%.3f ms per frame)\n", o.frames, elapsed, 1e3 * elapsed / o.frames);
    printf("world-steps/s     %.4g\n", world_steps / elapsed);
    printf("contacts/frame    %d (capacity %d%s)\n", contacts, info.rigid_contact_max,
           overflow.contacts_overflowed ? ", OVERFLOWED" : "");
    printf("fastest body      %.3g m/s after %.3g s\n", fastest, (double)(o.frames + 1) * o.substeps * dt);
    int interval_overflow = 0;
    if (o.schedule) {
        cc_frame_schedule rec;
        CHECK(cc_frame_graph_get_schedule(graph, &rec, NULL, NULL));
        interval_overflow = rec.overflow_frames;
        printf("passes            %d in the last frame; %d of %d frames with interval_overflow\n", rec.passes,
               rec.overflow_frames, rec.frames);
    }
    if (o.toi) {
        cc_speculation_stats sp;
        CHECK(cc_pipeline_get_speculation_stats(pipeline, &sp));
        printf("time of impact    last pass: %d fast shapes, %d swept pairs, %d contacts, %d occluded\n",
               sp.fast_shapes, sp.swept_pairs, sp.toi_contacts, sp.occluded_pairs);
    }

    free(lin);
    free(ang);
    cc_frame_graph_destroy(graph);
    cc_state_destroy(states[0]);
    cc_state_destroy(states[1]);
    cc_solver_destroy(solver);
    cc_pipeline_destroy(pipeline);
    cc_model_destroy(model);
    cc_builder_destroy(scene);
    cc_builder_destroy(templ);
#if defined(CC_EXAMPLE_WITH_CUDA)
    if (stream) cudaStreamDestroy((cudaStream_t)stream);
#endif
    return overflow.contacts_overflowed || overflow.pairs_overflowed || interval_overflow || !(fastest < 10.0) ? 1 : 0;
}
