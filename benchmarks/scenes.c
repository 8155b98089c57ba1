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
 *   or a millimetre deep. */
#include "scenes.h"

#include <math.h>
#include <string.h>

static const char* names[SCENE_COUNT] = {"spheres", "pile", "sap", "convex"};

const char* scene_name(bench_scene s) { return names[s]; }

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

static cc_shape_def shape_def(float gap)
{
    cc_shape_def d = cc_default_shape_def();
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

static cc_status add_ground(cc_builder* b, float gap)
{
    cc_shape_def d = shape_def(gap);
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
    CHECK(add_ground(b, p->gap));
    cc_builder* env;
    cc_builder_def bd = cc_default_builder_def();
    CHECK(cc_builder_create(&bd, &env));
    int side = grid_side(p->shapes);
    cc_shape_def d = shape_def(p->gap);
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
static cc_status add_bin_walls(cc_builder* b, float width, float depth, float height, float gap)
{
    const float t = 0.05f; /* wall half thickness */
    cc_body_def bd = cc_default_body_def();
    bd.is_static = 1;
    int wall;
    CHECK(cc_builder_add_body(b, &bd, &wall));
    cc_shape_def d = shape_def(gap);
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
    CHECK(add_ground(b, p->gap));
    cc_builder* env;
    cc_builder_def bd = cc_default_builder_def();
    CHECK(cc_builder_create(&bd, &env));
    /* A bin about twice as tall as wide in cells. */
    int per_layer = (int)ceilf(powf((float)p->shapes, 2.0f / 3.0f) * 0.6f);
    if (per_layer < 1) per_layer = 1;
    int nx = (int)ceilf(sqrtf((float)per_layer * 0.5f)), ny = (per_layer + nx - 1) / nx;
    int layers = (p->shapes + nx * ny - 1) / (nx * ny);
    cc_status s = add_bin_walls(env, nx * cx, ny * cy, layers * cz, p->gap);
    scene_rng rng = {p->seed ? p->seed : 12345u};
    cc_shape_def d = shape_def(p->gap);
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
    cc_shape_def d = shape_def(p->gap);
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
    CHECK(add_ground(b, p->gap));
    cc_builder* env;
    cc_builder_def bd = cc_default_builder_def();
    CHECK(cc_builder_create(&bd, &env));
    int hull = -1;
    cc_status s = add_cuboctahedron(env, h, &hull);
    /* A block about as tall as it is wide. */
    int side = (int)ceilf(cbrtf((float)p->shapes));
    if (side < 1) side = 1;
    scene_rng rng = {p->seed ? p->seed : 4242u};
    cc_shape_def d = shape_def(p->gap);
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

cc_status scene_build(bench_scene s, const scene_params* p, cc_builder* b)
{
    switch (s) {
    case SCENE_SPHERES: return build_spheres(p, b);
    case SCENE_PILE: return build_pile(p, b);
    case SCENE_SAP: return build_sap(p, b);
    case SCENE_CONVEX: return build_convex(p, b);
    default: return CC_ERR_INVALID_ARGUMENT;
    }
}
