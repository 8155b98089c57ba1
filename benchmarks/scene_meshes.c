/* Triangle meshes the benchmark scenes build, stored through the public API. */
#include "benchmarks/scene_meshes.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

int scene_mesh_alloc(host_mesh* m, int nv, int nt)
{
    m->v = (cc_vec3*)malloc(sizeof(cc_vec3) * (size_t)nv);
    m->t = (int*)malloc(sizeof(int) * 3 * (size_t)nt);
    m->nv = m->nt = 0;
    return m->v && m->t;
}

void scene_mesh_free(host_mesh* m)
{
    free(m->v);
    free(m->t);
    memset(m, 0, sizeof *m);
}

void scene_mesh_tri(host_mesh* m, int a, int b, int c)
{
    m->t[3 * m->nt] = a;
    m->t[3 * m->nt + 1] = b;
    m->t[3 * m->nt + 2] = c;
    m->nt++;
}

cc_status scene_mesh_store(cc_builder* b, host_mesh* m, int* out)
{
    cc_status s = cc_builder_add_mesh_data(b, m->v, m->nv, m->t, m->nt, out);
    scene_mesh_free(m);
    return s;
}

/* A unit UV sphere of `slices` around z and `stacks` from pole to pole with
 * single pole vertices: 2 * slices * (stacks - 1) triangles. Every quad of
 * two rings is an isosceles trapezoid (its corners lie on a circle), so the
 * surface is exactly convex whichever diagonal splits it. */
cc_status scene_add_uv_sphere(cc_builder* b, int slices, int stacks, int* out)
{
    host_mesh m = {0};
    if (!scene_mesh_alloc(&m, 2 + slices * (stacks - 1), 2 * slices * (stacks - 1))) {
        scene_mesh_free(&m);
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
    for (int j = 0; j < slices; ++j) scene_mesh_tri(&m, 0, RING(1, j), RING(1, j + 1));
    for (int k = 1; k + 1 < stacks; ++k)
        for (int j = 0; j < slices; ++j) {
            scene_mesh_tri(&m, RING(k, j), RING(k + 1, j), RING(k + 1, j + 1));
            scene_mesh_tri(&m, RING(k, j), RING(k + 1, j + 1), RING(k, j + 1));
        }
    for (int j = 0; j < slices; ++j) scene_mesh_tri(&m, RING(stacks - 1, j), south, RING(stacks - 1, j + 1));
#undef RING
    return scene_mesh_store(b, &m, out);
}

/* A torus around z, tube radius `minor` about a circle of radius `major`:
 * 2 * nu * nv triangles. Minor ring nv * 3/4 is the tube's lowest line. */
cc_status scene_add_torus(cc_builder* b, float major, float minor, int nu, int nv, int* out)
{
    host_mesh m = {0};
    if (!scene_mesh_alloc(&m, nu * nv, 2 * nu * nv)) {
        scene_mesh_free(&m);
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
            scene_mesh_tri(&m, TV(i, j), TV(i + 1, j), TV(i + 1, j + 1));
            scene_mesh_tri(&m, TV(i, j), TV(i + 1, j + 1), TV(i, j + 1));
        }
#undef TV
    return scene_mesh_store(b, &m, out);
}

/* The closed surface of the cube [-1, 1]^3, each face split into n x n
 * cells of two triangles (12 n^2 triangles), vertices shared along edges. */
cc_status scene_add_box_mesh(cc_builder* b, int n, int* out)
{
    int side = n + 1;
    int* index = (int*)malloc(sizeof(int) * (size_t)side * side * side);
    host_mesh m = {0};
    if (!index || !scene_mesh_alloc(&m, 6 * side * side, 12 * n * n)) {
        free(index);
        scene_mesh_free(&m);
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
                        scene_mesh_tri(&m, c[0], c[1], c[2]);
                        scene_mesh_tri(&m, c[0], c[2], c[3]);
                    } else {
                        scene_mesh_tri(&m, c[0], c[2], c[1]);
                        scene_mesh_tri(&m, c[0], c[3], c[2]);
                    }
                }
        }
    free(index);
    return scene_mesh_store(b, &m, out);
}


/* A closed cup standing on z = 0: a prism of n sides (circumradius
 * `outer`) from z = 0 to `height`, hollowed by a prism of circumradius
 * `inner` down to the floor at z = `floor`. 8n triangles, genus 0:
 * outer bottom and sides, the rim, inner walls facing the axis, the inner
 * floor. n = 4 makes a square bin (its walls along the axes), larger n a
 * round cup. */
cc_status scene_add_cup(cc_builder* b, int n, float outer, float inner, float height, float floor, int* out)
{
    host_mesh m = {0};
    if (!scene_mesh_alloc(&m, 4 * n + 2, 8 * n)) {
        scene_mesh_free(&m);
        return CC_ERR_OUT_OF_MEMORY;
    }
    const float pi = 3.14159265358979f;
    /* Rings: outer bottom, outer top, inner top, inner bottom; then the two centres. */
    const float radius[4] = {outer, outer, inner, inner}, z[4] = {0.0f, height, height, floor};
    for (int r = 0; r < 4; ++r)
        for (int j = 0; j < n; ++j) {
            float a = 2.0f * pi * ((float)j + 0.5f) / (float)n; /* corners between the axes */
            m.v[m.nv++] = (cc_vec3){radius[r] * cosf(a), radius[r] * sinf(a), z[r]};
        }
    int bottom = m.nv, inner_floor = m.nv + 1;
    m.v[m.nv++] = (cc_vec3){0.0f, 0.0f, 0.0f};
    m.v[m.nv++] = (cc_vec3){0.0f, 0.0f, floor};
#define RING(r, j) ((r) * n + ((j) % n))
    for (int j = 0; j < n; ++j) {
        scene_mesh_tri(&m, bottom, RING(0, j + 1), RING(0, j));
        /* Each band between rings r and r + 1, counter-clockwise from outside (or from the axis). */
        for (int r = 0; r < 3; ++r) {
            scene_mesh_tri(&m, RING(r, j), RING(r, j + 1), RING(r + 1, j + 1));
            scene_mesh_tri(&m, RING(r, j), RING(r + 1, j + 1), RING(r + 1, j));
        }
        scene_mesh_tri(&m, inner_floor, RING(3, j), RING(3, j + 1));
    }
#undef RING
    return scene_mesh_store(b, &m, out);
}

/* A spur gear around z: `teeth` flat-topped teeth between radii `root`
 * and `tip`, `half_width` either side of z = 0. The outline is star-shaped
 * about the axis, so fans from the centre close its faces: 16 * teeth
 * triangles. */
cc_status scene_add_gear(cc_builder* b, int teeth, float root, float tip, float half_width, int* out)
{
    int k = 4 * teeth;
    host_mesh m = {0};
    if (!scene_mesh_alloc(&m, 2 * k + 2, 4 * k)) {
        scene_mesh_free(&m);
        return CC_ERR_OUT_OF_MEMORY;
    }
    const float pi = 3.14159265358979f;
    for (int s = 0; s < 2; ++s)
        for (int j = 0; j < k; ++j) {
            float a = 2.0f * pi * (float)j / (float)k, r = (j % 4) < 2 ? tip : root;
            m.v[m.nv++] = (cc_vec3){r * cosf(a), r * sinf(a), s ? half_width : -half_width};
        }
    int below = m.nv, above = m.nv + 1;
    m.v[m.nv++] = (cc_vec3){0.0f, 0.0f, -half_width};
    m.v[m.nv++] = (cc_vec3){0.0f, 0.0f, half_width};
    for (int j = 0; j < k; ++j) {
        int b0 = j, b1 = (j + 1) % k, t0 = k + j, t1 = k + (j + 1) % k;
        scene_mesh_tri(&m, below, b1, b0);
        scene_mesh_tri(&m, above, t0, t1);
        scene_mesh_tri(&m, b0, b1, t1);
        scene_mesh_tri(&m, b0, t1, t0);
    }
    return scene_mesh_store(b, &m, out);
}
