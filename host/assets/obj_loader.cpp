// OBJ meshes through tinyobjloader, behind the C function of host/assets/asset_io.h.
// Every face is triangulated; vertex indices refer to the file's positions
// (normals and texture coordinates are not kept).
#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include <tiny_obj_loader.h>

#include "host/assets/asset_io.h"

extern "C" cc_status cc_load_obj(const char* path, const char* from, cc_tri_mesh* out)
{
    std::memset(out, 0, sizeof *out);
    std::string where = from ? std::string(from) + ": " : std::string();
    FILE* probe = std::fopen(path, "rb");
    if (!probe) return cc_fail(CC_ERR_IO, "%scannot open '%s'", where.c_str(), path);
    std::fclose(probe);

    tinyobj::attrib_t attrib;
    std::vector<tinyobj::shape_t> shapes;
    std::vector<tinyobj::material_t> materials;
    std::string warn, err;
    bool ok = false;
    try {
        ok = tinyobj::LoadObj(&attrib, &shapes, &materials, &warn, &err, path, nullptr, true, true);
    } catch (...) {
        return cc_fail(CC_ERR_OUT_OF_MEMORY, "%sout of memory reading '%s'", where.c_str(), path);
    }
    if (!ok) {
        std::string e = err;
        while (!e.empty() && (e.back() == '\n' || e.back() == '\r')) e.pop_back();
        return cc_fail(CC_ERR_PARSE, "%s'%s' is not a readable OBJ file: %s", where.c_str(), path, e.c_str());
    }
    size_t vertex_count = attrib.vertices.size() / 3, triangle_count = 0;
    for (const tinyobj::shape_t& s : shapes) triangle_count += s.mesh.indices.size() / 3;
    if (vertex_count < 3 || triangle_count == 0)
        return cc_fail(CC_ERR_PARSE, "%s'%s': the OBJ file holds no triangles (%zu vertices, %zu faces)", where.c_str(), path,
                       vertex_count, triangle_count);
    if (vertex_count > (size_t)(INT32_MAX / 4) || triangle_count > (size_t)(INT32_MAX / 4))
        return cc_fail(CC_ERR_PARSE, "%s'%s': too many vertices or faces", where.c_str(), path);
    out->vertices = (cc_vec3*)cc_host_alloc(sizeof(cc_vec3) * vertex_count);
    out->triangles = (int*)cc_host_alloc(sizeof(int) * 3 * triangle_count);
    if (!out->vertices || !out->triangles) {
        cc_tri_mesh_free(out);
        return cc_fail(CC_ERR_OUT_OF_MEMORY, "%sout of memory reading '%s'", where.c_str(), path);
    }
    for (size_t i = 0; i < vertex_count; ++i) {
        cc_vec3 v = {attrib.vertices[3 * i], attrib.vertices[3 * i + 1], attrib.vertices[3 * i + 2]};
        if (!cc_is_finite_vec3(v)) {
            cc_tri_mesh_free(out);
            return cc_fail(CC_ERR_PARSE, "%s'%s': vertex %zu holds NaN or infinity", where.c_str(), path, i + 1);
        }
        out->vertices[i] = v;
    }
    size_t t = 0;
    for (const tinyobj::shape_t& s : shapes) {
        for (size_t k = 0; k + 2 < s.mesh.indices.size(); k += 3, ++t) {
            for (int c = 0; c < 3; ++c) {
                int vi = s.mesh.indices[k + (size_t)c].vertex_index;
                if (vi < 0 || (size_t)vi >= vertex_count) {
                    cc_tri_mesh_free(out);
                    return cc_fail(CC_ERR_PARSE, "%s'%s': a face of '%s' uses vertex %d of %zu", where.c_str(), path,
                                   s.name.c_str(), vi + 1, vertex_count);
                }
                out->triangles[3 * t + (size_t)c] = vi;
            }
        }
    }
    out->vertex_count = (int)vertex_count;
    out->triangle_count = (int)t;
    return CC_OK;
}
