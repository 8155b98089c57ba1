/* The on-disk cache of built SDFs: one file per build, named by a hash of
 * everything the build reads (the mesh's vertices and triangles, the scale,
 * the lattice, band and padding, and the format's version), so that any
 * change misses. A file is trusted only when its header names the same key
 * and sizes as asked and the checksum of its contents matches; anything
 * else is rebuilt and replaced. Cache trouble (a missing or read-only
 * folder) is a logged warning, never a failure. */
#ifndef CC_HOST_GEOMETRY_SDF_CACHE_H
#define CC_HOST_GEOMETRY_SDF_CACHE_H

#include "host/geometry/sdf_build.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct cc_sdf_cache_key {
    uint64_t h[2];
} cc_sdf_cache_key;

cc_sdf_cache_key cc_sdf_cache_key_of(const cc_vec3* vertices, int vertex_count, const int* triangles,
                                     int triangle_count, const cc_sdf_def* def);

/* The path of the key's file under `dir` (cc_host_alloc'd), or NULL. */
char* cc_sdf_cache_path(const char* dir, cc_sdf_cache_key key);

/* 1 and *out filled when a valid file holds the key; 0 when there is none
 * or it cannot be trusted (logged, then rebuilt by the caller). */
int cc_sdf_cache_load(const char* dir, cc_sdf_cache_key key, cc_sdf_data* out);

/* Writes the build (through a temporary file renamed into place); a
 * failure is logged and otherwise ignored. */
void cc_sdf_cache_store(const char* dir, cc_sdf_cache_key key, const cc_sdf_data* data);

#ifdef __cplusplus
}
#endif

#endif
