// OBJ meshes through tinyobjloader, behind the C function of host/assets/asset_io.h.
// Every face is triangulated; vertex indices refer to the file's positions
// (normals and texture coordinates are not kept).
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include <tiny_obj_loader.h>

#include "host/assets/asset_io.h"

namespace {

// The first token of a line and the rest after it.
const char* skip_space(const char* p)
{
    while (*p == ' ' || *p == '\t') ++p;
    return p;
}

// Checks the vertex and face lines the way the mesh needs them, before the
// parser (which reads "nan" as 0 and wraps indices past 32 bits) sees them:
// every v coordinate a finite decimal number, every face index an integer
// other than 0 that refers to a vertex defined before it (negative ones
// count back). Fails naming the file, the line and the text.
cc_status check_obj_lines(const char* path, const std::string& where)
{
    FILE* f = std::fopen(path, "rb");
    if (!f) return cc_fail(CC_ERR_IO, "%scannot open '%s'", where.c_str(), path);
    std::string line;
    long long vertices = 0, number = 0;
    cc_status status = CC_OK;
    int ch = 0;
    while (status == CC_OK && ch != EOF) {
        line.clear();
        while ((ch = std::fgetc(f)) != EOF && ch != '\n') line.push_back((char)ch);
        ++number;
        const char* p = skip_space(line.c_str());
        bool is_vertex = p[0] == 'v' && (p[1] == ' ' || p[1] == '\t');
        bool is_face = p[0] == 'f' && (p[1] == ' ' || p[1] == '\t');
        if (!is_vertex && !is_face) continue;
        p = skip_space(p + 1);
        int fields = 0;
        while (*p && *p != '\r' && *p != '#' && status == CC_OK) {
            const char* start = p;
            while (*p && *p != ' ' && *p != '\t' && *p != '\r') ++p;
            std::string token(start, (size_t)(p - start));
            p = skip_space(p);
            ++fields;
            if (is_vertex) {
                if (fields > 3) break; // an optional w or colour
                char* end = nullptr;
                double x = std::strtod(token.c_str(), &end);
                bool hex = token.find_first_of("xX") != std::string::npos;
                if (hex || end == token.c_str() || *end || !std::isfinite(x) || std::fabs(x) > 3.0e38)
                    status = cc_fail(CC_ERR_PARSE, "%s%s:%lld: vertex coordinate '%.40s' is not a finite number", where.c_str(), path,
                                     number, token.c_str());
                continue;
            }
            std::string index = token.substr(0, token.find('/'));
            char* end = nullptr;
            errno = 0;
            long long i = std::strtoll(index.c_str(), &end, 10);
            if (end == index.c_str() || *end || errno == ERANGE || i == 0 || i > vertices || i < -vertices)
                status = cc_fail(CC_ERR_PARSE, "%s%s:%lld: face index '%.40s' does not name one of the %lld vertices defined before it",
                                 where.c_str(), path, number, index.c_str(), vertices);
        }
        if (is_vertex) ++vertices;
    }
    std::fclose(f);
    return status;
}

} // namespace

extern "C" cc_status cc_load_obj(const char* path, const char* from, cc_tri_mesh* out)
{
    std::memset(out, 0, sizeof *out);
    std::string where = from ? std::string(from) + ": " : std::string();
    cc_status checked = check_obj_lines(path, where);
    if (checked != CC_OK) return checked;

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
