/* Triangle meshes for the benchmark scenes (closed unless said), built on
 * the host and stored in a builder. */
#ifndef CC_BENCH_SCENE_MESHES_H
#define CC_BENCH_SCENE_MESHES_H

#include "cucontact/cucontact.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct host_mesh {
    cc_vec3* v;
    int* t;
    int nv, nt;
} host_mesh;

/* Room for nv vertices and nt triangles (counts start at 0); 0 when out of memory. */
int scene_mesh_alloc(host_mesh* m, int nv, int nt);
void scene_mesh_free(host_mesh* m);
void scene_mesh_tri(host_mesh* m, int a, int b, int c);
/* Stores the mesh in the builder (its index in *out) and frees it. */
cc_status scene_mesh_store(cc_builder* b, host_mesh* m, int* out);

cc_status scene_add_uv_sphere(cc_builder* b, int slices, int stacks, int* out);
cc_status scene_add_torus(cc_builder* b, float major, float minor, int nu, int nv, int* out);
cc_status scene_add_box_mesh(cc_builder* b, int n, int* out);
cc_status scene_add_cup(cc_builder* b, int n, float outer, float inner, float height, float floor, int* out);
cc_status scene_add_gear(cc_builder* b, int teeth, float root, float tip, float half_width, int* out);

#ifdef __cplusplus
}
#endif

#endif
