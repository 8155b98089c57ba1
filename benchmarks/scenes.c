/* The benchmark scenes.
 *
 * spheres: W worlds of N spheres resting on one shared ground plane, on a
 *   grid whose neighbours touch, so every sphere has a ground contact and
 *   several sphere contacts.
 * pile: W worlds of N spheres, capsules and boxes stacked in a walled bin.
 *   Shapes fill cells of 0.2 x 0.1 x 0.1 m and touch the cells around them,
 *   so the initial pose is a resting pile with many touching pairs.
 * sap: one world of N boxes of random size and orientation scattered in a
 *   cube at a set volume density.
 * convex: W worlds of N shapes cycling through spheres, capsules, boxes,
 *   cylinders, cones, ellipsoids and convex hulls, stacked on a grid of
 *   0.2 m cells on the shared ground plane so that neighbours touch, each
 *   moved by up to 1 mm and turned by up to 1 degree about each axis, as a
 *   settled pile is: contacts are a mix of faces, edges and points, resting
 *   or a millimetre deep.
 * mesh: W worlds of triangle meshes on the shared ground plane. Each
 *   world holds a convex UV sphere mesh (4992 triangles, radius 0.15 m)
 *   with a box on top; a closed box mesh (1728 triangles) against the
 *   sphere's side, carrying the sphere mesh scaled to half size and a
 *   sphere; a torus (8192 triangles) against the sphere with a large sphere
 *   resting in its hole; and a static wavy tile (an open grid of 20000
 *   triangles scaled to 2 m x 2 m) with N spheres and boxes resting on it.
 *   The four meshes are stored once in the template and shared by every
 *   world. Contacts: mesh on plane, mesh on mesh, primitives on convex and
 *   non-convex meshes, resting or a millimetre deep.
 * terrain: W worlds of N spheres, capsules, boxes, cylinders and convex
 *   hulls resting on one global 256 x 256 heightfield (16 m x 16 m, sums of
 *   sines), spread over a grid across the field, each turned to the local
 *   slope; every world uses the same spots (worlds only meet the terrain).
 * sphere-mesh: W worlds of N spheres (radius 5 cm) resting 0.5 mm deep on
 *   one global wavy tile (the mesh scene's 20,000 triangles, 2 m x 2 m),
 *   each world at spots of its own, so that the narrow phase per sphere is
 *   the cost of one sphere query against a 20,000-triangle mesh, BVH
 *   traversal included, over the whole tile rather than a few cached spots.
 * sdf: W worlds of a static mesh bin (a square cup, walls 5 cm thick)
 *   with N cells of 0.3 m on its floor: in even cells a box mesh (1728
 *   triangles) carrying a mesh, in odd ones a mesh on the floor, each a
 *   millimetre deep in what it stands on; the meshes cycle through a
 *   torus (3072 triangles), a round cup, a gear and a sphere (2208).
 *   Every mesh, the bin's included, has an SDF (max_resolution 64), built
 *   once for the template; the build time (cold, and warm from a fresh
 *   on-disk cache) and bytes of each are printed once, with those of a
 *   finer field the scene does not use: 256 voxels across a sphere of
 *   101,760 triangles. sdf-bvh: the same scene without SDFs (the BVH vertex
 *   route), for the comparison.
 * bullets: W worlds, each a 1 cm plate (0.3 m square, top at 1 m) over a
 *   1 cm table (1 m square, top at 0.5 m) over the ground, and N small
 *   bodies (1 cm spheres, 5 mm capsules, 4 mm thick boxes) above them, half
 *   over the plate and half over the table beside it, each on a lane of
 *   its own (16 lanes over each; beyond 32 bodies, bodies share lanes);
 *   bullets.c shoots them down at 20-100 m/s.
 */
#define _XOPEN_SOURCE 700 /* clock_gettime, mkdtemp, nftw */
#include "benchmarks/scenes.h"
#include "benchmarks/scene_meshes.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <ftw.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static const char* names[SCENE_COUNT] = {"spheres", "pile", "sap", "convex", "mesh", "terrain", "sphere-mesh", "sdf", "sdf-bvh", "settle",
                                             "bullets"};

const char* scene_name(bench_scene s) { return names[s]; }

int scene_has_surfaces(bench_scene s)
{
    return s == SCENE_MESH || s == SCENE_TERRAIN || s == SCENE_SPHERE_MESH || s == SCENE_SDF || s == SCENE_SDF_BVH;
}

int scene_from_name(const char* name, bench_scene* out)
{
    for (int i = 0; i < SCENE_COUNT; ++i)
        if (strcmp(name, names[i]) == 0) {
            *out = (bench_scene)i;
            return 1;
        }
    return 0;
}

float scene_rng_uniform(scene_rng* r, float lo, float hi)
{
    unsigned x = r->state ? r->state : 0x9e3779b9u;
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    r->state = x;
    return lo + (hi - lo) * (float)(x >> 8) * (1.0f / 16777216.0f);
}

#define CHECK(call)                      \
    do {                                 \
        cc_status s_ = (call);           \
        if (s_ != CC_OK) return s_;      \
    } while (0)

static cc_shape_def shape_def(const scene_params* p)
{
    cc_shape_def d = p->shape ? *p->shape : cc_default_shape_def();
    float gap = p->gap;
    d.gap = gap;
    return d;
}

static int dynamic_body(cc_builder* b, cc_vec3 p, cc_quat q, int* body)
{
    cc_body_def d = cc_default_body_def();
    d.pose.p = p;
    d.pose.q = q;
    return cc_builder_add_body(b, &d, body);
}

static cc_status add_ground(cc_builder* b, const scene_params* p)
{
    cc_shape_def d = shape_def(p);
    return cc_builder_add_plane(b, CC_BODY_WORLD, 0.0f, 0.0f, &d, NULL);
}

static int grid_side(int n)
{
    int side = (int)ceilf(sqrtf((float)n));
    return side < 1 ? 1 : side;
}

static cc_status build_spheres(const scene_params* p, cc_builder* b)
{
    const float r = 0.05f;
    cc_quat id = {0, 0, 0, 1};
    CHECK(add_ground(b, p));
    cc_builder* env;
    cc_builder_def bd = cc_default_builder_def();
    CHECK(cc_builder_create(&bd, &env));
    int side = grid_side(p->shapes);
    cc_shape_def d = shape_def(p);
    cc_status s = CC_OK;
    for (int i = 0; i < p->shapes && s == CC_OK; ++i) {
        cc_vec3 pos = {2.0f * r * (float)(i % side), 2.0f * r * (float)(i / side), r};
        int body;
        s = dynamic_body(env, pos, id, &body);
        if (s == CC_OK) s = cc_builder_add_sphere(env, body, r, &d, NULL);
    }
    if (s == CC_OK) s = cc_builder_replicate(b, env, p->worlds, NULL);
    cc_builder_destroy(env);
    return s;
}

/* Static walls around a bin of cols_x by cols_y cells of size cx, cy. */
static cc_status add_bin_walls(cc_builder* b, float width, float depth, float height, const scene_params* p)
{
    const float t = 0.05f; /* wall half thickness */
    cc_body_def bd = cc_default_body_def();
    bd.is_static = 1;
    int wall;
    CHECK(cc_builder_add_body(b, &bd, &wall));
    cc_shape_def d = shape_def(p);
    cc_vec3 hx = {t, 0.5f * depth + 2 * t, 0.5f * height};
    cc_vec3 hy = {0.5f * width, t, 0.5f * height};
    d.local.p = (cc_vec3){-t, 0.5f * depth, 0.5f * height};
    CHECK(cc_builder_add_box(b, wall, hx, &d, NULL));
    d.local.p = (cc_vec3){width + t, 0.5f * depth, 0.5f * height};
    CHECK(cc_builder_add_box(b, wall, hx, &d, NULL));
    d.local.p = (cc_vec3){0.5f * width, -t, 0.5f * height};
    CHECK(cc_builder_add_box(b, wall, hy, &d, NULL));
    d.local.p = (cc_vec3){0.5f * width, depth + t, 0.5f * height};
    CHECK(cc_builder_add_box(b, wall, hy, &d, NULL));
    return CC_OK;
}

static cc_status build_pile(const scene_params* p, cc_builder* b)
{
    const float cx = 0.2f, cy = 0.1f, cz = 0.1f;
    CHECK(add_ground(b, p));
    cc_builder* env;
    cc_builder_def bd = cc_default_builder_def();
    CHECK(cc_builder_create(&bd, &env));
    /* A bin about twice as tall as wide in cells. */
    int per_layer = (int)ceilf(powf((float)p->shapes, 2.0f / 3.0f) * 0.6f);
    if (per_layer < 1) per_layer = 1;
    int nx = (int)ceilf(sqrtf((float)per_layer * 0.5f)), ny = (per_layer + nx - 1) / nx;
    int layers = (p->shapes + nx * ny - 1) / (nx * ny);
    cc_status s = add_bin_walls(env, nx * cx, ny * cy, layers * cz, p);
    scene_rng rng = {p->seed ? p->seed : 12345u};
    cc_shape_def d = shape_def(p);
    cc_quat id = {0, 0, 0, 1};
    /* Capsules lie along x: rotate local z onto x (90 degrees about y). */
    cc_quat along_x = {0.0f, 0.70710678f, 0.0f, 0.70710678f};
    for (int i = 0; i < p->shapes && s == CC_OK; ++i) {
        int ix = i % nx, iy = (i / nx) % ny, iz = i / (nx * ny);
        cc_vec3 c = {(ix + 0.5f) * cx, (iy + 0.5f) * cy, (iz + 0.5f) * cz};
        float pick = scene_rng_uniform(&rng, 0.0f, 3.0f);
        int body;
        if (pick < 1.0f) {
            s = dynamic_body(env, c, id, &body);
            if (s == CC_OK) s = cc_builder_add_sphere(env, body, 0.05f, &d, NULL);
        } else if (pick < 2.0f) {
            s = dynamic_body(env, c, along_x, &body);
            if (s == CC_OK) s = cc_builder_add_capsule(env, body, 0.05f, 0.05f, &d, NULL);
        } else {
            s = dynamic_body(env, c, id, &body);
            if (s == CC_OK) s = cc_builder_add_box(env, body, (cc_vec3){0.1f, 0.05f, 0.05f}, &d, NULL);
        }
    }
    if (s == CC_OK) s = cc_builder_replicate(b, env, p->worlds, NULL);
    cc_builder_destroy(env);
    return s;
}

static cc_status build_sap(const scene_params* p, cc_builder* b)
{
    scene_rng rng = {p->seed ? p->seed : 777u};
    /* Mean box volume with half extents uniform in [0.05, 0.1]: (2*0.075)^3. */
    float mean_volume = 0.003375f;
    float side = cbrtf((float)p->shapes * mean_volume / (p->density > 0 ? p->density : 0.1f));
    cc_shape_def d = shape_def(p);
    cc_status s = CC_OK;
    for (int i = 0; i < p->shapes && s == CC_OK; ++i) {
        cc_vec3 pos = {scene_rng_uniform(&rng, 0, side), scene_rng_uniform(&rng, 0, side),
                       scene_rng_uniform(&rng, 0, side)};
        cc_quat q = {scene_rng_uniform(&rng, -1, 1), scene_rng_uniform(&rng, -1, 1),
                     scene_rng_uniform(&rng, -1, 1), scene_rng_uniform(&rng, -1, 1)};
        cc_vec3 h = {scene_rng_uniform(&rng, 0.05f, 0.1f), scene_rng_uniform(&rng, 0.05f, 0.1f),
                     scene_rng_uniform(&rng, 0.05f, 0.1f)};
        int body;
        s = dynamic_body(b, pos, q, &body);
        if (s == CC_OK) s = cc_builder_add_box(b, body, h, &d, NULL);
    }
    return s;
}

/* A cuboctahedron: the edge midpoints of the cube of half size h, so that
 * it reaches h along each axis like the other shapes of its cell. */
static cc_status add_cuboctahedron(cc_builder* b, float h, int* hull)
{
    cc_vec3 pts[12];
    int n = 0;
    float k = h;
    for (int axis = 0; axis < 3; ++axis)
        for (int sa = -1; sa <= 1; sa += 2)
            for (int sb = -1; sb <= 1; sb += 2) {
                float v[3] = {0.0f, 0.0f, 0.0f};
                v[(axis + 1) % 3] = (float)sa * k;
                v[(axis + 2) % 3] = (float)sb * k;
                pts[n++] = (cc_vec3){v[0], v[1], v[2]};
            }
    cc_convex_hull_def hd = cc_default_convex_hull_def();
    return cc_builder_add_convex_hull_data(b, pts, n, &hd, hull);
}

/* A small random rotation: about 1 degree at most about each axis. */
static cc_quat jitter_rotation(scene_rng* rng)
{
    const float a = 0.0087f; /* sin of half of 1 degree */
    cc_quat q = {scene_rng_uniform(rng, -a, a), scene_rng_uniform(rng, -a, a), scene_rng_uniform(rng, -a, a), 1.0f};
    float n = sqrtf(q.x * q.x + q.y * q.y + q.z * q.z + q.w * q.w);
    q.x /= n;
    q.y /= n;
    q.z /= n;
    q.w /= n;
    return q;
}

static cc_status build_convex(const scene_params* p, cc_builder* b)
{
    const float cell = 0.2f, h = 0.5f * cell;
    CHECK(add_ground(b, p));
    cc_builder* env;
    cc_builder_def bd = cc_default_builder_def();
    CHECK(cc_builder_create(&bd, &env));
    int hull = -1;
    cc_status s = add_cuboctahedron(env, h, &hull);
    /* A block about as tall as it is wide. */
    int side = (int)ceilf(cbrtf((float)p->shapes));
    if (side < 1) side = 1;
    scene_rng rng = {p->seed ? p->seed : 4242u};
    cc_shape_def d = shape_def(p);
    /* Capsules lie along x: rotate local z onto x (90 degrees about y). */
    cc_quat along_x = {0.0f, 0.70710678f, 0.0f, 0.70710678f};
    for (int i = 0; i < p->shapes && s == CC_OK; ++i) {
        int ix = i % side, iy = (i / side) % side, iz = i / (side * side);
        cc_vec3 c = {(ix + 0.5f) * cell + scene_rng_uniform(&rng, -0.001f, 0.001f),
                     (iy + 0.5f) * cell + scene_rng_uniform(&rng, -0.001f, 0.001f),
                     (iz + 0.5f) * cell + scene_rng_uniform(&rng, -0.001f, 0.001f)};
        cc_quat q = jitter_rotation(&rng);
        int kind = i % 7, body;
        s = dynamic_body(env, c, q, &body);
        if (s != CC_OK) break;
        switch (kind) {
        case 0: s = cc_builder_add_sphere(env, body, h, &d, NULL); break;
        case 1: {
            cc_shape_def dc = d;
            dc.local.q = along_x;
            s = cc_builder_add_capsule(env, body, 0.7f * h, 0.3f * h, &dc, NULL);
            break;
        }
        case 2: s = cc_builder_add_box(env, body, (cc_vec3){h, h, h}, &d, NULL); break;
        case 3: s = cc_builder_add_cylinder(env, body, h, h, &d, NULL); break;
        case 4: s = cc_builder_add_cone(env, body, h, h, &d, NULL); break;
        case 5: s = cc_builder_add_ellipsoid(env, body, (cc_vec3){h, 0.8f * h, h}, &d, NULL); break;
        default: s = cc_builder_add_convex_hull(env, body, hull, (cc_vec3){1.0f, 1.0f, 1.0f}, &d, NULL); break;
        }
    }
    if (s == CC_OK) s = cc_builder_replicate(b, env, p->worlds, NULL);
    cc_builder_destroy(env);
    return s;
}

/* A pile dropped into a bin: the seven convex kinds of the convex scene,
 * 4 to 5 cm across, turned by up to 20 degrees about each axis, in layers of
 * a 4 x 4 grid of 12 cm cells from 10 cm up inside static walls, so that
 * they fall, hit the ground, the walls and each other, and come to rest. */
static cc_status build_settle(const scene_params* p, cc_builder* b)
{
    const float cell = 0.12f, h = 0.025f;
    CHECK(add_ground(b, p));
    cc_builder* env;
    cc_builder_def bd = cc_default_builder_def();
    CHECK(cc_builder_create(&bd, &env));
    int hull = -1;
    cc_status s = add_cuboctahedron(env, h, &hull);
    int layers = (p->shapes + 15) / 16;
    if (s == CC_OK) s = add_bin_walls(env, 4.0f * cell, 4.0f * cell, 0.1f * (float)layers + 0.1f, p);
    scene_rng rng = {p->seed ? p->seed : 2024u};
    cc_shape_def d = shape_def(p);
    cc_quat along_x = {0.0f, 0.70710678f, 0.0f, 0.70710678f};
    const float a = 0.17f; /* sin of half of 20 degrees */
    for (int i = 0; i < p->shapes && s == CC_OK; ++i) {
        int ix = i % 4, iy = (i / 4) % 4, iz = i / 16;
        cc_vec3 c = {(ix + 0.5f) * cell + scene_rng_uniform(&rng, -0.01f, 0.01f),
                     (iy + 0.5f) * cell + scene_rng_uniform(&rng, -0.01f, 0.01f), 0.1f + 0.1f * (float)iz};
        cc_quat q = {scene_rng_uniform(&rng, -a, a), scene_rng_uniform(&rng, -a, a), scene_rng_uniform(&rng, -a, a),
                     1.0f};
        float n = sqrtf(q.x * q.x + q.y * q.y + q.z * q.z + q.w * q.w);
        q.x /= n;
        q.y /= n;
        q.z /= n;
        q.w /= n;
        int kind = i % 7, body;
        s = dynamic_body(env, c, q, &body);
        if (s != CC_OK) break;
        switch (kind) {
        case 0: s = cc_builder_add_sphere(env, body, h, &d, NULL); break;
        case 1: {
            cc_shape_def dc = d;
            dc.local.q = along_x;
            s = cc_builder_add_capsule(env, body, 0.6f * h, h, &dc, NULL);
            break;
        }
        case 2: s = cc_builder_add_box(env, body, (cc_vec3){h, 0.8f * h, 0.6f * h}, &d, NULL); break;
        case 3: s = cc_builder_add_cylinder(env, body, h, 0.7f * h, &d, NULL); break;
        case 4: s = cc_builder_add_cone(env, body, h, h, &d, NULL); break;
        case 5: s = cc_builder_add_ellipsoid(env, body, (cc_vec3){h, 0.7f * h, 0.5f * h}, &d, NULL); break;
        default: s = cc_builder_add_convex_hull(env, body, hull, (cc_vec3){1.0f, 1.0f, 1.0f}, &d, NULL); break;
        }
    }
    if (s == CC_OK) s = cc_builder_replicate(b, env, p->worlds, NULL);
    cc_builder_destroy(env);
    return s;
}

/* Static slab of half extents (half, half, thickness / 2) whose top is at `top`. */
static cc_status add_slab(cc_builder* b, float half, float top, const scene_params* p)
{
    cc_shape_def d = shape_def(p);
    d.local.p = (cc_vec3){0.0f, 0.0f, top - 0.5f * BULLETS_THICKNESS};
    return cc_builder_add_box(b, CC_BODY_WORLD, (cc_vec3){half, half, 0.5f * BULLETS_THICKNESS}, &d, NULL);
}

static cc_status build_bullets(const scene_params* p, cc_builder* b)
{
    CHECK(add_ground(b, p));
    cc_builder* env;
    cc_builder_def bd = cc_default_builder_def();
    CHECK(cc_builder_create(&bd, &env));
    cc_status s = add_slab(env, BULLETS_PLATE_HALF, BULLETS_PLATE_TOP, p);
    if (s == CC_OK) s = add_slab(env, BULLETS_TABLE_HALF, BULLETS_TABLE_TOP, p);
    scene_rng rng = {p->seed ? p->seed : 77u};
    cc_shape_def d = shape_def(p);
    for (int i = 0; i < p->shapes && s == CC_OK; ++i) {
        /* Even: over the plate; odd: over the table beside it. Each on a
         * lane of its own, 7 cm apart, so that the bodies meet only the
         * targets (bodies hitting bodies is another matter). */
        int lane = i / 2, row = lane % 4, column = lane / 4;
        float x = ((i & 1) ? 0.22f : -0.105f) + 0.07f * (float)row + scene_rng_uniform(&rng, -0.005f, 0.005f);
        float y = -0.105f + 0.07f * (float)(column % 4) + scene_rng_uniform(&rng, -0.005f, 0.005f);
        int body;
        s = dynamic_body(env, (cc_vec3){x, y, BULLETS_PLATE_TOP + 0.3f + 0.05f * (float)i}, (cc_quat){0, 0, 0, 1},
                         &body);
        if (s != CC_OK) break;
        switch (i % 3) {
        case 0: s = cc_builder_add_sphere(env, body, 0.01f, &d, NULL); break;
        case 1: s = cc_builder_add_capsule(env, body, 0.005f, 0.02f, &d, NULL); break;
        default: s = cc_builder_add_box(env, body, (cc_vec3){0.02f, 0.02f, 0.002f}, &d, NULL); break;
        }
    }
    if (s == CC_OK) s = cc_builder_replicate(b, env, p->worlds, NULL);
    cc_builder_destroy(env);
    return s;
}

/* ---- meshes ---------------------------------------------------------------- */

/* The wavy tile's surface in its frame: a 1 m square, egg-crate waves of
 * 3 cm amplitude and 0.5 m wavelength. */
#define TILE_AMP 0.03f
#define TILE_K (2.0f * 3.14159265358979f / 0.5f)
static float tile_height(float x, float y, float* gx, float* gy)
{
    *gx = TILE_AMP * TILE_K * cosf(TILE_K * x) * sinf(TILE_K * y);
    *gy = TILE_AMP * TILE_K * sinf(TILE_K * x) * cosf(TILE_K * y);
    return TILE_AMP * sinf(TILE_K * x) * sinf(TILE_K * y);
}

/* An open grid of n x n cells over [-0.5, 0.5]^2 (2 n^2 triangles),
 * counter-clockwise seen from above. */
static cc_status add_wavy_tile(cc_builder* b, int n, int* out)
{
    host_mesh m = {0};
    if (!scene_mesh_alloc(&m, (n + 1) * (n + 1), 2 * n * n)) {
        scene_mesh_free(&m);
        return CC_ERR_OUT_OF_MEMORY;
    }
    for (int j = 0; j <= n; ++j)
        for (int i = 0; i <= n; ++i) {
            float x = (float)i / n - 0.5f, y = (float)j / n - 0.5f, gx, gy;
            m.v[m.nv++] = (cc_vec3){x, y, tile_height(x, y, &gx, &gy)};
        }
    for (int j = 0; j < n; ++j)
        for (int i = 0; i < n; ++i) {
            int c0 = j * (n + 1) + i, c1 = c0 + 1, c2 = c0 + n + 2, c3 = c0 + n + 1;
            scene_mesh_tri(&m, c0, c1, c2);
            scene_mesh_tri(&m, c0, c2, c3);
        }
    return scene_mesh_store(b, &m, out);
}

static cc_quat quat_mul(cc_quat a, cc_quat b)
{
    return (cc_quat){a.w * b.x + a.x * b.w + a.y * b.z - a.z * b.y, a.w * b.y - a.x * b.z + a.y * b.w + a.z * b.x,
                     a.w * b.z + a.x * b.y - a.y * b.x + a.z * b.w, a.w * b.w - a.x * b.x - a.y * b.y - a.z * b.z};
}

/* The shortest rotation taking +z onto the unit vector n. */
static cc_quat quat_z_to(cc_vec3 n)
{
    cc_quat q = {-n.y, n.x, 0.0f, 1.0f + n.z};
    float l = sqrtf(q.x * q.x + q.y * q.y + q.z * q.z + q.w * q.w);
    return (cc_quat){q.x / l, q.y / l, q.z / l, q.w / l};
}

static cc_vec3 normal_of_slope(float gx, float gy)
{
    float l = sqrtf(gx * gx + gy * gy + 1.0f);
    return (cc_vec3){-gx / l, -gy / l, 1.0f / l};
}

static cc_vec3 jitter_position(scene_rng* rng, cc_vec3 p)
{
    return (cc_vec3){p.x + scene_rng_uniform(rng, -0.001f, 0.001f), p.y + scene_rng_uniform(rng, -0.001f, 0.001f),
                     p.z + scene_rng_uniform(rng, -0.001f, 0.001f)};
}

/* A dynamic body at p (jittered by 1 mm and 1 degree) turned by q. */
static int jittered_body(cc_builder* b, scene_rng* rng, cc_vec3 p, cc_quat q, int* body)
{
    return dynamic_body(b, jitter_position(rng, p), quat_mul(q, jitter_rotation(rng)), body);
}

static cc_status build_mesh(const scene_params* p, cc_builder* b)
{
    const float sphere_r = 0.15f, torus_R = 0.15f, torus_r = 0.05f;
    const cc_vec3 box_h = {0.15f, 0.15f, 0.10f};
    /* The tile's mesh spans 1 m; its shape is scaled to 2 m x 2 m. */
    const float tile_scale = 2.0f;
    const cc_vec3 tile_at = {0.0f, 0.3f + 0.5f * tile_scale, 0.05f};
    cc_quat id = {0, 0, 0, 1};
    CHECK(add_ground(b, p));
    cc_builder* env;
    cc_builder_def bd = cc_default_builder_def();
    CHECK(cc_builder_create(&bd, &env));
    int sphere_mesh = -1, torus_mesh = -1, box_mesh = -1, tile_mesh = -1, body;
    cc_status s = scene_add_uv_sphere(env, 64, 40, &sphere_mesh);
    if (s == CC_OK) s = scene_add_torus(env, torus_R, torus_r, 128, 32, &torus_mesh);
    if (s == CC_OK) s = scene_add_box_mesh(env, 12, &box_mesh);
    if (s == CC_OK) s = add_wavy_tile(env, 100, &tile_mesh);
    scene_rng rng = {p->seed ? p->seed : 9001u};
    cc_shape_def d = shape_def(p);
    /* The sphere meshes lie with their poles along y, so that the shapes on
     * and under them meet the even triangles of the equator, not a pole's fan. */
    cc_quat poles_y = {0.70710678f, 0.0f, 0.0f, 0.70710678f};
    /* The large sphere mesh on the ground with a box on top. */
    if (s == CC_OK) s = jittered_body(env, &rng, (cc_vec3){0.0f, 0.0f, sphere_r}, poles_y, &body);
    if (s == CC_OK) s = cc_builder_add_mesh(env, body, sphere_mesh, (cc_vec3){sphere_r, sphere_r, sphere_r}, &d, NULL);
    if (s == CC_OK) s = jittered_body(env, &rng, (cc_vec3){0.0f, 0.0f, 2.0f * sphere_r + 0.05f}, id, &body);
    if (s == CC_OK) s = cc_builder_add_box(env, body, (cc_vec3){0.05f, 0.05f, 0.05f}, &d, NULL);
    /* The box mesh against the sphere's side, with the half-size sphere
     * mesh and a sphere on its top. */
    float bx = sphere_r + box_h.x;
    if (s == CC_OK) s = jittered_body(env, &rng, (cc_vec3){bx, 0.0f, box_h.z}, id, &body);
    if (s == CC_OK) s = cc_builder_add_mesh(env, body, box_mesh, box_h, &d, NULL);
    float small_r = 0.5f * sphere_r;
    if (s == CC_OK) s = jittered_body(env, &rng, (cc_vec3){bx, -0.06f, 2.0f * box_h.z + small_r}, poles_y, &body);
    if (s == CC_OK) s = cc_builder_add_mesh(env, body, sphere_mesh, (cc_vec3){small_r, small_r, small_r}, &d, NULL);
    if (s == CC_OK) s = jittered_body(env, &rng, (cc_vec3){bx + 0.03f, 0.08f, 2.0f * box_h.z + 0.05f}, id, &body);
    if (s == CC_OK) s = cc_builder_add_sphere(env, body, 0.05f, &d, NULL);
    /* The torus lying on the ground against the sphere: its tube circle is
     * sphere_r + torus_r from the sphere's centre. A sphere of 0.13 m rests
     * in its hole, its centre (torus_r + 0.13) from the tube circle. */
    float dz = sphere_r - torus_r;
    float tx = -(sqrtf((sphere_r + torus_r) * (sphere_r + torus_r) - dz * dz) + torus_R);
    float ball = 0.13f, lift = sqrtf((torus_r + ball) * (torus_r + ball) - torus_R * torus_R);
    if (s == CC_OK) s = jittered_body(env, &rng, (cc_vec3){tx, 0.0f, torus_r}, id, &body);
    if (s == CC_OK) s = cc_builder_add_mesh(env, body, torus_mesh, (cc_vec3){1.0f, 1.0f, 1.0f}, &d, NULL);
    if (s == CC_OK) s = jittered_body(env, &rng, (cc_vec3){tx, 0.0f, torus_r + lift}, id, &body);
    if (s == CC_OK) s = cc_builder_add_sphere(env, body, ball, &d, NULL);
    /* The static wavy tile and N spheres and boxes on it, each on the
     * surface normal of its spot, boxes turned to the slope. */
    if (s == CC_OK) {
        cc_body_def sd = cc_default_body_def();
        sd.is_static = 1;
        sd.pose.p = tile_at;
        s = cc_builder_add_body(env, &sd, &body);
    }
    if (s == CC_OK)
        s = cc_builder_add_mesh(env, body, tile_mesh, (cc_vec3){tile_scale, tile_scale, 1.0f}, &d, NULL);
    int side = grid_side(p->shapes);
    float cell = tile_scale / (float)side, h = fminf(0.05f, 0.35f * cell);
    for (int i = 0; i < p->shapes && s == CC_OK; ++i) {
        float x = ((float)(i % side) + 0.5f) * cell - 0.5f * tile_scale;
        float y = ((float)(i / side) + 0.5f) * cell - 0.5f * tile_scale, gx, gy;
        float z = tile_height(x / tile_scale, y / tile_scale, &gx, &gy);
        cc_vec3 n = normal_of_slope(gx / tile_scale, gy / tile_scale);
        cc_vec3 c = {tile_at.x + x + h * n.x, tile_at.y + y + h * n.y, tile_at.z + z + h * n.z};
        s = jittered_body(env, &rng, c, quat_z_to(n), &body);
        if (s != CC_OK) break;
        if (i % 2 == 0) s = cc_builder_add_sphere(env, body, h, &d, NULL);
        else s = cc_builder_add_box(env, body, (cc_vec3){h, h, h}, &d, NULL);
    }
    if (s == CC_OK) s = cc_builder_replicate(b, env, p->worlds, NULL);
    cc_builder_destroy(env);
    return s;
}

static cc_status build_sphere_mesh(const scene_params* p, cc_builder* b)
{
    const float r = 0.05f, depth = 0.0005f, tile_scale = 2.0f;
    int tile = -1;
    cc_status s = add_wavy_tile(b, 100, &tile);
    cc_shape_def d = shape_def(p);
    cc_shape_def g = d;
    g.world = CC_WORLD_GLOBAL;
    if (s == CC_OK) s = cc_builder_add_mesh(b, CC_BODY_WORLD, tile, (cc_vec3){tile_scale, tile_scale, 1.0f}, &g, NULL);
    /* Each world's spheres on a grid over the tile, shifted per world along
     * a low-discrepancy sequence so that the worlds sample the whole tile. */
    int side = grid_side(p->shapes);
    float cell = 0.9f * tile_scale / (float)side;
    for (int w = 0; w < p->worlds && s == CC_OK; ++w) {
        float u = fmodf(0.5f + 0.6180339887f * (float)w, 1.0f), v = fmodf(0.5f + 0.7548776662f * (float)w, 1.0f);
        int world;
        s = cc_builder_begin_world(b, &world);
        for (int i = 0; i < p->shapes && s == CC_OK; ++i) {
            float x = ((float)(i % side) + u) * cell - 0.45f * tile_scale;
            float y = ((float)(i / side) + v) * cell - 0.45f * tile_scale, gx, gy;
            float z = tile_height(x / tile_scale, y / tile_scale, &gx, &gy);
            cc_vec3 n = normal_of_slope(gx / tile_scale, gy / tile_scale);
            cc_vec3 c = {x + (r - depth) * n.x, y + (r - depth) * n.y, z + (r - depth) * n.z};
            cc_quat id = {0.0f, 0.0f, 0.0f, 1.0f};
            int body;
            s = dynamic_body(b, c, id, &body);
            if (s == CC_OK) s = cc_builder_add_sphere(b, body, r, &d, NULL);
        }
        if (s == CC_OK) s = cc_builder_end_world(b);
    }
    return s;
}

/* ---- terrain ------------------------------------------------------------- */

#define TERRAIN_SAMPLES 256
#define TERRAIN_HALF 8.0f /* [m] */

/* Rolling hills: sums of sines, heights within about +-0.25 m, curvature
 * below about 0.6 / m, so that a shape set on the tangent plane of its spot
 * is at most a few millimetres off the surface at its ends. */
static float terrain_height(float x, float y, float* gx, float* gy)
{
    const float tau = 6.28318530718f;
    const float a1 = 0.15f, a3 = 0.03f, a4 = 0.05f;
    const float k1 = tau / 4.0f, k2 = tau / 5.0f, k3 = tau / 3.1f, k4 = tau / 7.0f;
    float h = a1 * sinf(k1 * x) * cosf(k2 * y) + a3 * sinf(k3 * (x + 0.6f * y)) + a4 * cosf(k4 * (x - y));
    *gx = a1 * k1 * cosf(k1 * x) * cosf(k2 * y) + a3 * k3 * cosf(k3 * (x + 0.6f * y)) - a4 * k4 * sinf(k4 * (x - y));
    *gy = -a1 * k2 * sinf(k1 * x) * sinf(k2 * y) + a3 * 0.6f * k3 * cosf(k3 * (x + 0.6f * y)) +
          a4 * k4 * sinf(k4 * (x - y));
    return h;
}

static cc_status build_terrain(const scene_params* p, cc_builder* b)
{
    const int n = TERRAIN_SAMPLES;
    float* heights = (float*)malloc(sizeof(float) * (size_t)n * n);
    if (!heights) return CC_ERR_OUT_OF_MEMORY;
    for (int r = 0; r < n; ++r)
        for (int c = 0; c < n; ++c) {
            float gx, gy;
            float x = -TERRAIN_HALF + 2.0f * TERRAIN_HALF * (float)c / (float)(n - 1);
            float y = -TERRAIN_HALF + 2.0f * TERRAIN_HALF * (float)r / (float)(n - 1);
            heights[r * n + c] = terrain_height(x, y, &gx, &gy);
        }
    int hfield = -1;
    cc_status s = cc_builder_add_heightfield_data(b, n, n, heights, &hfield);
    free(heights);
    if (s != CC_OK) return s;
    {
        cc_shape_def d = shape_def(p);
        d.world = CC_WORLD_GLOBAL;
        CHECK(cc_builder_add_heightfield(b, CC_BODY_WORLD, hfield, (cc_vec3){TERRAIN_HALF, TERRAIN_HALF, 1.0f}, &d,
                                         NULL));
    }
    /* Shapes on a grid across the field, 1 m in from its edges, each within
     * a quarter cell of its spot so that shapes meet only the terrain. */
    int side = grid_side(p->shapes);
    float span = 2.0f * (TERRAIN_HALF - 1.0f), cell = span / (float)side;
    const float h = fminf(0.1f, 0.22f * cell);
    cc_builder* env;
    cc_builder_def bd = cc_default_builder_def();
    CHECK(cc_builder_create(&bd, &env));
    int hull = -1;
    s = add_cuboctahedron(env, h, &hull);
    scene_rng rng = {p->seed ? p->seed : 31337u};
    cc_shape_def d = shape_def(p);
    cc_quat along_x = {0.0f, 0.70710678f, 0.0f, 0.70710678f};
    for (int i = 0; i < p->shapes && s == CC_OK; ++i) {
        float x = -0.5f * span + ((float)(i % side) + 0.5f) * cell;
        float y = -0.5f * span + ((float)(i / side) + 0.5f) * cell, gx, gy;
        float z = terrain_height(x, y, &gx, &gy);
        cc_vec3 nrm = normal_of_slope(gx, gy);
        /* Every shape reaches h below its centre along its local z. */
        cc_vec3 c = {x + h * nrm.x, y + h * nrm.y, z + h * nrm.z};
        int body;
        s = jittered_body(env, &rng, c, quat_z_to(nrm), &body);
        if (s != CC_OK) break;
        switch (i % 5) {
        case 0: s = cc_builder_add_sphere(env, body, h, &d, NULL); break;
        case 1: {
            cc_shape_def dc = d;
            dc.local.q = along_x;
            s = cc_builder_add_capsule(env, body, h, h, &dc, NULL);
            break;
        }
        case 2: s = cc_builder_add_box(env, body, (cc_vec3){1.2f * h, h, h}, &d, NULL); break;
        case 3: s = cc_builder_add_cylinder(env, body, 1.2f * h, h, &d, NULL); break;
        default: s = cc_builder_add_convex_hull(env, body, hull, (cc_vec3){1.0f, 1.0f, 1.0f}, &d, NULL); break;
        }
    }
    if (s == CC_OK) s = cc_builder_replicate(b, env, p->worlds, NULL);
    cc_builder_destroy(env);
    return s;
}

/* ---- SDFs ------------------------------------------------------------------ */

static double seconds_now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* Builds the SDF of mesh `mesh` into b. With `cold` (a builder holding the
 * same meshes) and a cache folder, it is first built cold into `cold`,
 * which stores it in the cache, then into b warm from the cache, and what
 * each cost is printed. */
static cc_status sdf_of(cc_builder* b, int mesh, cc_vec3 scale, int resolution, const char* name, cc_builder* cold,
                        const char* cache)
{
    cc_sdf_def d = cc_default_sdf_def();
    d.scale = scale;
    d.max_resolution = resolution;
    d.cache_dir = cold ? cache : NULL;
    int sdf = -1, vertices = 0, triangles = 0;
    double t0 = seconds_now();
    cc_status s = cold ? cc_builder_build_mesh_sdf(cold, mesh, &d, NULL) : CC_OK;
    double t1 = seconds_now();
    if (s == CC_OK) s = cc_builder_build_mesh_sdf(b, mesh, &d, &sdf);
    double t2 = seconds_now();
    cc_sdf_info info;
    if (s == CC_OK) s = cc_builder_get_sdf_info(b, sdf, &info);
    if (s == CC_OK && cold) {
        cc_builder_get_mesh_info(b, mesh, &vertices, &triangles);
        printf("sdf %-8s %6d triangles  lattice %3d x %3d x %3d  voxel %6.2f mm  %4d of %5d bricks stored  %6.1f KiB  "
               "%4d edges  built in %7.1f ms, from the cache in %5.1f ms\n",
               name, triangles, info.samples[0], info.samples[1], info.samples[2], 1e3 * info.voxel_size,
               info.stored_bricks, info.bricks, (double)info.device_bytes / 1024.0, info.edges, 1e3 * (t1 - t0),
               1e3 * (t2 - t1));
    }
    return s;
}

static int remove_entry(const char* path, const struct stat* st, int flag, struct FTW* ftw)
{
    (void)st, (void)flag, (void)ftw;
    return remove(path);
}

static cc_status build_sdf_scene(const scene_params* p, cc_builder* b, int with_sdf)
{
    static int reported = 0;
    int report = with_sdf && !reported;
    reported |= with_sdf;
    const float cell = 0.3f, wall = 0.05f, floor_z = 0.05f, depth = 0.001f;
    int side = grid_side(p->shapes);
    float half = 0.5f * cell * (float)side + wall; /* the bin's outer half width */
    cc_builder* env;
    cc_builder_def bd = cc_default_builder_def();
    CHECK(cc_builder_create(&bd, &env));
    int bin = -1, torus = -1, cup = -1, gear = -1, sphere = -1, box = -1, body;
    /* A square cup's circumradius is its half width times sqrt(2). */
    cc_status s = scene_add_cup(env, 4, half * 1.41421356f, (half - wall) * 1.41421356f, 0.3f, floor_z, &bin);
    if (s == CC_OK) s = scene_add_torus(env, 0.09f, 0.035f, 64, 24, &torus);
    if (s == CC_OK) s = scene_add_cup(env, 32, 0.09f, 0.075f, 0.14f, 0.015f, &cup);
    if (s == CC_OK) s = scene_add_gear(env, 12, 0.09f, 0.115f, 0.025f, &gear);
    if (s == CC_OK) s = scene_add_uv_sphere(env, 48, 24, &sphere);
    if (s == CC_OK) s = scene_add_box_mesh(env, 12, &box);
    const cc_vec3 unit = {1.0f, 1.0f, 1.0f}, ball = {0.1f, 0.1f, 0.1f}, cube = {0.08f, 0.08f, 0.08f};
    if (with_sdf) {
        const char* label[6] = {"bin", "torus", "cup", "gear", "sphere", "box"};
        int meshes[6] = {bin, torus, cup, gear, sphere, box};
        cc_vec3 scales[6] = {unit, unit, unit, unit, ball, cube};
        /* The first report times each build cold and warm: a copy of the
         * meshes (a replica of env, which holds nothing else yet) is built
         * cold into a fresh cache folder, env then warm from it. */
        cc_builder* cold = NULL;
        char cache[] = "/tmp/cucontact-bench-sdf-XXXXXX";
        if (report && s == CC_OK && mkdtemp(cache)) {
            s = cc_builder_create(&bd, &cold);
            if (s == CC_OK) s = cc_builder_replicate(cold, env, 1, NULL);
        }
        for (int i = 0; i < 6 && s == CC_OK; ++i) s = sdf_of(env, meshes[i], scales[i], 64, label[i], cold, cache);
        /* And what a fine field costs: 256 voxels across a sphere of about
         * 100,000 triangles, measured apart (the scene does not use it). */
        cc_builder *fine = NULL, *fine_cold = NULL;
        int ball_mesh = -1;
        if (cold && s == CC_OK) s = cc_builder_create(&bd, &fine);
        if (cold && s == CC_OK) s = cc_builder_create(&bd, &fine_cold);
        if (cold && s == CC_OK) s = scene_add_uv_sphere(fine, 320, 160, &ball_mesh);
        if (cold && s == CC_OK) s = scene_add_uv_sphere(fine_cold, 320, 160, &ball_mesh);
        if (cold && s == CC_OK) s = sdf_of(fine, ball_mesh, ball, 256, "fine", fine_cold, cache);
        cc_builder_destroy(fine);
        cc_builder_destroy(fine_cold);
        if (cold) {
            cc_builder_destroy(cold);
            nftw(cache, remove_entry, 8, FTW_DEPTH | FTW_PHYS);
        }
    }
    scene_rng rng = {p->seed ? p->seed : 4242u};
    cc_shape_def d = shape_def(p);
    cc_quat id = {0, 0, 0, 1};
    if (s == CC_OK) s = cc_builder_add_mesh(env, CC_BODY_WORLD, bin, unit, &d, NULL);
    /* Each object's lowest point rests `depth` into what it stands on:
     * even cells a box on the floor with an object on top, odd ones an
     * object on the floor. */
    for (int i = 0; i < p->shapes && s == CC_OK; ++i) {
        float x = ((float)(i % side) + 0.5f) * cell - 0.5f * cell * (float)side;
        float y = ((float)(i / side) + 0.5f) * cell - 0.5f * cell * (float)side;
        x += scene_rng_uniform(&rng, -0.01f, 0.01f);
        float base = floor_z;
        if (i % 2 == 0) {
            s = dynamic_body(env, (cc_vec3){x, y, base + 0.08f - depth}, id, &body);
            if (s == CC_OK) s = cc_builder_add_mesh(env, body, box, cube, &d, NULL);
            base += 0.16f - depth;
        }
        int kind = (i / 2) % 4, mesh = kind == 0 ? torus : kind == 1 ? cup : kind == 2 ? gear : sphere;
        float lift = kind == 0 ? 0.035f : kind == 1 ? 0.0f : kind == 2 ? 0.025f : 0.1f;
        cc_vec3 scale = kind == 3 ? ball : unit;
        if (s == CC_OK) s = dynamic_body(env, (cc_vec3){x, y + 0.01f, base + lift - depth}, id, &body);
        if (s == CC_OK) s = cc_builder_add_mesh(env, body, mesh, scale, &d, NULL);
    }
    if (s == CC_OK) s = cc_builder_replicate(b, env, p->worlds, NULL);
    cc_builder_destroy(env);
    return s;
}

cc_status scene_build(bench_scene s, const scene_params* p, cc_builder* b)
{
    switch (s) {
    case SCENE_SPHERES: return build_spheres(p, b);
    case SCENE_PILE: return build_pile(p, b);
    case SCENE_SAP: return build_sap(p, b);
    case SCENE_CONVEX: return build_convex(p, b);
    case SCENE_MESH: return build_mesh(p, b);
    case SCENE_TERRAIN: return build_terrain(p, b);
    case SCENE_SPHERE_MESH: return build_sphere_mesh(p, b);
    case SCENE_SDF: return build_sdf_scene(p, b, 1);
    case SCENE_SDF_BVH: return build_sdf_scene(p, b, 0);
    case SCENE_SETTLE: return build_settle(p, b);
    case SCENE_BULLETS: return build_bullets(p, b);
    default: return CC_ERR_INVALID_ARGUMENT;
    }
}
