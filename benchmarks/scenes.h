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
    SCENE_SDF,     /* non-convex meshes in a mesh bin, through SDFs */
    SCENE_SDF_BVH, /* the same without SDFs: the BVH vertex route */
    SCENE_SETTLE, /* a mixed pile dropped on the ground, stepped (settle.c) */
    SCENE_BULLETS, /* small fast bodies shot at a thin plate and a thin table, stepped (bullets.c) */
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

/* The bullets scene's targets: a plate of BULLETS_PLATE_HALF half width
 * whose top is at BULLETS_PLATE_TOP, over a table of BULLETS_TABLE_HALF
 * whose top is at BULLETS_TABLE_TOP, both BULLETS_THICKNESS thick, over the
 * ground; the projectiles start over one or the other. */
#define BULLETS_PLATE_HALF 0.15f
#define BULLETS_PLATE_TOP 1.0f
#define BULLETS_TABLE_HALF 0.5f
#define BULLETS_TABLE_TOP 0.5f
#define BULLETS_THICKNESS 0.01f

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
