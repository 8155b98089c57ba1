/* A signed distance field's lattice on the host, laid out as the kernels'
 * bricks (kernels/shapes/sdf.h) but still in floats: a closed mesh's sides
 * through OpenVDB's level-set construction, and level sets read from .vdb
 * files (host/geometry/sdf_volume.cpp). */
#ifndef CC_HOST_GEOMETRY_SDF_VOLUME_H
#define CC_HOST_GEOMETRY_SDF_VOLUME_H

#include "host/internal.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct cc_sdf_volume {
    cc_vec3 origin;    /* sample (0, 0, 0) [m] */
    float voxel;       /* [m] */
    int nx, ny, nz;    /* samples, multiples of CC_SDF_BRICK */
    int* table;        /* per brick (x fastest): stored index, CC_SDF_OUTSIDE or CC_SDF_INSIDE */
    int stored;        /* bricks with samples */
    float* values;     /* stored * CC_SDF_BRICK_SAMPLES, clamped to [band_lo, band_hi] (or signs while built) */
    signed char* coarse_sign; /* at the brick corners ((nx/8+1)(ny/8+1)(nz/8+1)): +1 outside, -1 inside */
} cc_sdf_volume;

/* A triangle mesh read from a field: its zero level. */
typedef struct cc_sdf_surface {
    cc_vec3* vertices;
    int vertex_count;
    int* triangles; /* 3 vertex indices each, counter-clockwise seen from outside */
    int triangle_count;
} cc_sdf_surface;
void cc_sdf_surface_free(cc_sdf_surface* s);

/* Whether this build has OpenVDB. */
int cc_sdf_volume_available(void);

/* Places v's lattice over [lower, upper] with spacing `voxel`: its sample
 * counts (multiples of CC_SDF_BRICK), spacing and origin, and in first[]
 * the index of its first sample on each axis (a multiple of CC_SDF_BRICK;
 * sample i lies at i * voxel, so that the lattice's bricks are OpenVDB's
 * leaves). */
void cc_sdf_lattice_place(cc_sdf_volume* v, cc_vec3 lower, cc_vec3 upper, float voxel, int first[3]);

/* The sides of a closed mesh (vertices in metres, 3 indices a triangle) on
 * the lattice of spacing `voxel` that covers [lower, upper], its origin a
 * multiple of 8 voxels, from OpenVDB's flood fill: the bricks marked in
 * `wanted` (one flag per brick, x fastest) stored in lattice order, each
 * sample +1 outside and -1 inside, for the caller to replace by its
 * distance; the others CC_SDF_OUTSIDE or CC_SDF_INSIDE by their first
 * sample; and the brick corners' signs. Arrays come from cc_host_alloc;
 * cc_sdf_volume_free releases them. */
cc_status cc_sdf_volume_build(const cc_vec3* vertices, int vertex_count, const int* triangles, int triangle_count,
                              float voxel, cc_vec3 lower, cc_vec3 upper, const unsigned char* wanted,
                              cc_sdf_volume* out);
void cc_sdf_volume_free(cc_sdf_volume* v);

/* Reads level-set grid `grid_name` (NULL or "": the file's first float
 * grid) of the OpenVDB file `path` into a band: OpenVDB's leaves with
 * active voxels become the stored bricks, values clamped to the band
 * [-b, b], b the grid's background (its half width) at most
 * CC_SDF_BAND_VOXELS voxels; the brick corners' values (the grid's, the
 * band's where it is clamped) into *coarse (cc_host_alloc). Rejects,
 * naming the file: a file OpenVDB cannot read (truncated, not a .vdb), a
 * missing grid, a grid that is not a float level set, voxels that are not
 * uniform cubes aligned with the axes, non-finite values. Messages start
 * with `what`. When `surface` is not NULL it also receives the grid's zero
 * level as triangles (a level set that never crosses zero is rejected). */
cc_status cc_sdf_volume_read_vdb(const char* path, const char* grid_name, const char* what, cc_sdf_volume* out,
                                 float* band, float** coarse, int* coarse_count, cc_sdf_surface* surface);

#ifdef __cplusplus
}
#endif

#endif
