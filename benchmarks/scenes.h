/* Benchmark scenes for cucontact-bench, built through the public API. */
#ifndef CC_BENCH_SCENES_H
#define CC_BENCH_SCENES_H

#include "cucontact/cucontact.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum bench_scene {
    SCENE_SPHERES,
    SCENE_PILE,
    SCENE_SAP,
    SCENE_CONVEX,
    SCENE_MESH,
    SCENE_TERRAIN,
    SCENE_SPHERE_MESH,
    SCENE_SETTLE, /* a mixed pile dropped on the ground, stepped (settle_main.c) */
    SCENE_COUNT
} bench_scene;

/* Nonzero for scenes with mesh or heightfield shapes (their contacts are
 * reduced by default). */
int scene_has_surfaces(bench_scene s);

typedef struct scene_params {
    int worlds;
    int shapes;    /* per world */
    float density; /* sap: fraction of the volume the boxes fill */
    float gap;     /* detection gap of every shape [m] */
    unsigned seed;
    const cc_shape_def* shape; /* material and compliant parameters of every shape; NULL: the defaults */
} scene_params;

const char* scene_name(bench_scene s);
int scene_from_name(const char* name, bench_scene* out);

/* Fills `b` (a fresh builder) with the scene. */
cc_status scene_build(bench_scene s, const scene_params* p, cc_builder* b);

/* A small, deterministic random generator (xorshift). */
typedef struct scene_rng {
    unsigned state;
} scene_rng;
float scene_rng_uniform(scene_rng* r, float lo, float hi);

#ifdef __cplusplus
}
#endif

#endif
