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
 * bullets: W worlds, each a 1 cm plate (0.3 m square, top at 1 m) over a
 *   1 cm table (1 m square, top at 0.5 m) over the ground, and N small
 *   bodies (1 cm spheres, 5 mm capsules, 4 mm thick boxes) above them, half
 *   over the plate and half over the table beside it, each on a lane of
 *   its own (16 lanes over each; beyond 32 bodies, bodies share lanes);
 *   bullets.c shoots them down at 20-100 m/s.
 */
#include "benchmarks/scenes.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static const char* names[SCENE_COUNT] = {"spheres", "pile", "sap", "convex", "mesh", "terrain", "sphere-mesh", "settle",
                                             "bullets"};

const char* scene_name(bench_scene s) { return names[s]; }

int scene_has_surfaces(bench_scene s) { return s == SCENE_MESH || s == SCENE_TERRAIN || s == SCENE_SPHERE_MESH; }

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

typedef struct host_mesh {
    cc_vec3* v;
    int* t;
    int nv, nt;
} host_mesh;

static int mesh_alloc(host_mesh* m, int nv, int nt)
{
    m->v = (cc_vec3*)malloc(sizeof(cc_vec3) * (size_t)nv);
    m->t = (int*)malloc(sizeof(int) * 3 * (size_t)nt);
    m->nv = m->nt = 0;
    return m->v && m->t;
}

static void mesh_free(host_mesh* m)
{
    free(m->v);
    free(m->t);
    memset(m, 0, sizeof *m);
}

static void mesh_tri(host_mesh* m, int a, int b, int c)
{
    m->t[3 * m->nt] = a;
    m->t[3 * m->nt + 1] = b;
    m->t[3 * m->nt + 2] = c;
    m->nt++;
}

static cc_status mesh_store(cc_builder* b, host_mesh* m, int* out)
{
    cc_status s = cc_builder_add_mesh_data(b, m->v, m->nv, m->t, m->nt, out);
    mesh_free(m);
    return s;
}

/* A unit UV sphere of `slices` around z and `stacks` from pole to pole with
 * single pole vertices: 2 * slices * (stacks - 1) triangles. Every quad of
 * two rings is an isosceles trapezoid (its corners lie on a circle), so the
 * surface is exactly convex whichever diagonal splits it. */
static cc_status add_uv_sphere(cc_builder* b, int slices, int stacks, int* out)
{
    host_mesh m = {0};
    if (!mesh_alloc(&m, 2 + slices * (stacks - 1), 2 * slices * (stacks - 1))) {
        mesh_free(&m);
        return CC_ERR_OUT_OF_MEMORY;
    }
    const float pi = 3.14159265358979f;
    m.v[m.nv++] = (cc_vec3){0.0f, 0.0f, 1.0f};
    for (int k = 1; k < stacks; ++k) {
        float th = pi * (float)k / (float)stacks;
        for (int j = 0; j < slices; ++j) {
            float ph = 2.0f * pi * (float)j / (float)slices;
            m.v[m.nv++] = (cc_vec3){sinf(th) * cosf(ph), sinf(th) * sinf(ph), cosf(th)};
        }
    }
    int south = m.nv;
    m.v[m.nv++] = (cc_vec3){0.0f, 0.0f, -1.0f};
#define RING(k, j) (1 + ((k) - 1) * slices + ((j) % slices))
    for (int j = 0; j < slices; ++j) mesh_tri(&m, 0, RING(1, j), RING(1, j + 1));
    for (int k = 1; k + 1 < stacks; ++k)
        for (int j = 0; j < slices; ++j) {
            mesh_tri(&m, RING(k, j), RING(k + 1, j), RING(k + 1, j + 1));
            mesh_tri(&m, RING(k, j), RING(k + 1, j + 1), RING(k, j + 1));
        }
    for (int j = 0; j < slices; ++j) mesh_tri(&m, RING(stacks - 1, j), south, RING(stacks - 1, j + 1));
#undef RING
    return mesh_store(b, &m, out);
}

/* A torus around z, tube radius `minor` about a circle of radius `major`:
 * 2 * nu * nv triangles. Minor ring nv * 3/4 is the tube's lowest line. */
static cc_status add_torus(cc_builder* b, float major, float minor, int nu, int nv, int* out)
{
    host_mesh m = {0};
    if (!mesh_alloc(&m, nu * nv, 2 * nu * nv)) {
        mesh_free(&m);
        return CC_ERR_OUT_OF_MEMORY;
    }
    const float pi = 3.14159265358979f;
    for (int i = 0; i < nu; ++i) {
        float u = 2.0f * pi * (float)i / (float)nu;
        for (int j = 0; j < nv; ++j) {
            float w = 2.0f * pi * (float)j / (float)nv;
            float rr = major + minor * cosf(w);
            m.v[m.nv++] = (cc_vec3){rr * cosf(u), rr * sinf(u), minor * sinf(w)};
        }
    }
#define TV(i, j) (((i) % nu) * nv + ((j) % nv))
    /* d/du x d/dv points outwards, so (i,j) (i+1,j) (i+1,j+1) runs counter-clockwise. */
    for (int i = 0; i < nu; ++i)
        for (int j = 0; j < nv; ++j) {
            mesh_tri(&m, TV(i, j), TV(i + 1, j), TV(i + 1, j + 1));
            mesh_tri(&m, TV(i, j), TV(i + 1, j + 1), TV(i, j + 1));
        }
#undef TV
    return mesh_store(b, &m, out);
}

/* The closed surface of the cube [-1, 1]^3, each face split into n x n
 * cells of two triangles (12 n^2 triangles), vertices shared along edges. */
static cc_status add_box_mesh(cc_builder* b, int n, int* out)
{
    int side = n + 1;
    int* index = (int*)malloc(sizeof(int) * (size_t)side * side * side);
    host_mesh m = {0};
    if (!index || !mesh_alloc(&m, 6 * side * side, 12 * n * n)) {
        free(index);
        mesh_free(&m);
        return CC_ERR_OUT_OF_MEMORY;
    }
    for (int i = 0; i < side * side * side; ++i) index[i] = -1;
    for (int a = 0; a < 3; ++a)
        for (int s = 0; s <= n; s += n) {
            int u = (a + 1) % 3, v = (a + 2) % 3;
            int c[4];
            for (int iu = 0; iu < n; ++iu)
                for (int iv = 0; iv < n; ++iv) {
                    for (int k = 0; k < 4; ++k) {
                        int g[3];
                        g[a] = s;
                        g[u] = iu + (k == 1 || k == 2);
                        g[v] = iv + (k >= 2);
                        int* slot = &index[(g[0] * side + g[1]) * side + g[2]];
                        if (*slot < 0) {
                            *slot = m.nv;
                            m.v[m.nv++] = (cc_vec3){2.0f * g[0] / n - 1.0f, 2.0f * g[1] / n - 1.0f,
                                                    2.0f * g[2] / n - 1.0f};
                        }
                        c[k] = *slot;
                    }
                    /* e_u x e_v = e_a: counter-clockwise seen from +a. */
                    if (s == n) {
                        mesh_tri(&m, c[0], c[1], c[2]);
                        mesh_tri(&m, c[0], c[2], c[3]);
                    } else {
                        mesh_tri(&m, c[0], c[2], c[1]);
                        mesh_tri(&m, c[0], c[3], c[2]);
                    }
                }
        }
    free(index);
    return mesh_store(b, &m, out);
}

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
    if (!mesh_alloc(&m, (n + 1) * (n + 1), 2 * n * n)) {
        mesh_free(&m);
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
            mesh_tri(&m, c0, c1, c2);
            mesh_tri(&m, c0, c2, c3);
        }
    return mesh_store(b, &m, out);
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
    cc_status s = add_uv_sphere(env, 64, 40, &sphere_mesh);
    if (s == CC_OK) s = add_torus(env, torus_R, torus_r, 128, 32, &torus_mesh);
    if (s == CC_OK) s = add_box_mesh(env, 12, &box_mesh);
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
    case SCENE_SETTLE: return build_settle(p, b);
    case SCENE_BULLETS: return build_bullets(p, b);
    default: return CC_ERR_INVALID_ARGUMENT;
    }
}
