/* Readers for the asset files an MJCF scene names: STL meshes (binary and
 * ASCII, read here), MSH meshes, OBJ meshes (tinyobjloader, in host/assets/obj_loader.cpp) and PNG
 * heightfields (libpng). Failures return CC_ERR_IO for a file that cannot be
 * read and CC_ERR_PARSE for one that is malformed, with a message naming
 * the file (and `from`, the scene's "file:line" that asked for it). */
#ifndef CC_HOST_ASSETS_ASSET_IO_H
#define CC_HOST_ASSETS_ASSET_IO_H

#include "host/internal.h"

#ifdef __cplusplus
extern "C" {
#endif

/* An indexed triangle mesh in host memory (cc_host_alloc'd). */
typedef struct cc_tri_mesh {
    cc_vec3* vertices;
    int vertex_count;
    int* triangles; /* 3 per triangle */
    int triangle_count;
} cc_tri_mesh;

void cc_tri_mesh_free(cc_tri_mesh* m);

/* STL, binary or ASCII (told apart by size: a binary file is exactly
 * 84 + 50 n bytes). Identical corners are merged into one vertex. */
cc_status cc_load_stl(const char* path, const char* from, cc_tri_mesh* out);

/* Wavefront OBJ through tinyobjloader; polygons are triangulated. */
cc_status cc_load_obj(const char* path, const char* from, cc_tri_mesh* out);

/* MuJoCo's legacy binary MSH (host/assets/msh_loader.c): counts, vertices,
 * normals, texture coordinates, faces; the size must match the counts. */
cc_status cc_load_msh(const char* path, const char* from, cc_tri_mesh* out);

/* A PNG converted to 8-bit grey, row-major from the image's top row. */
cc_status cc_load_png_gray(const char* path, const char* from, int* width, int* height,
                           unsigned char** pixels);

#ifdef __cplusplus
}
#endif

#endif
