/* Generalised winding numbers of triangle meshes on the host: the sum of
 * the solid angles the triangles subtend at a point, over 4 pi. 1 inside a
 * closed outward mesh, 0 outside, and for an open mesh a smooth measure of
 * insideness (0.5 across a hole's middle), which signs the SDF of a mesh
 * that does not close.
 *
 * The fast evaluation walks the mesh's BVH: a node far enough from the
 * point (farther than CC_WINDING_FAR times its radius) counts as the
 * dipole of its area-weighted normal at its area centroid, which errs by
 * about (radius / distance)^2 of its contribution; nearer nodes open up,
 * and leaves add their triangles' exact solid angles. */
#ifndef CC_HOST_GEOMETRY_WINDING_H
#define CC_HOST_GEOMETRY_WINDING_H

#include "kernels/mesh/bvh.h"
#include "host/internal.h"

#ifdef __cplusplus
extern "C" {
#endif

#define CC_WINDING_FAR 3.0f

typedef struct cc_winding_tree {
    const cc_vec3* vertices;
    const int* triangles;
    cc_bvh_node* nodes;
    int node_count;
    int* prims;
    cc_vec3* centre; /* per node: area centroid */
    cc_vec3* normal; /* per node: sum of triangle area * unit normal (half the cross products) */
    float* radius;   /* per node: farthest corner from the centroid */
} cc_winding_tree;

cc_status cc_winding_tree_build(const cc_vec3* vertices, const int* triangles, int triangle_count,
                                cc_winding_tree* out);
void cc_winding_tree_free(cc_winding_tree* t);

/* The winding number at p, fast (BVH and dipoles). */
float cc_winding_number(const cc_winding_tree* t, cc_vec3 p);

/* The winding number at p, every triangle's exact solid angle summed. */
double cc_winding_number_exact(const cc_vec3* vertices, const int* triangles, int triangle_count, cc_vec3 p);

#ifdef __cplusplus
}
#endif

#endif
