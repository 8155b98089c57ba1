/* MuJoCo's legacy binary mesh format (.msh): four little-endian int32
 * counts (vertices, normals, texture coordinates, faces), then the vertex
 * floats (3 each), normal floats (3 each), texture floats (2 each) and face
 * indices (3 int32 each). The file holds exactly that many bytes; normals and
 * texture coordinates are skipped. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "host/assets/asset_io.h"
#include "host/assets/mjcf_xml.h"

static int32_t read_le_i32(const unsigned char* p)
{
    return (int32_t)((uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24);
}

static float read_le_f32(const unsigned char* p)
{
    uint32_t u = (uint32_t)read_le_i32(p);
    float f;
    memcpy(&f, &u, sizeof f);
    return f;
}

cc_status cc_load_msh(const char* path, const char* from, cc_tri_mesh* out)
{
    char where[700];
    snprintf(where, sizeof where, "%s%s'%s'", from ? from : "", from ? ": " : "", path);
    char* data;
    size_t size;
    memset(out, 0, sizeof *out);
    cc_status s = cc_read_file(path, from, &data, &size);
    if (s != CC_OK) return s;
    const unsigned char* u = (const unsigned char*)data;
    if (size < 16) {
        cc_host_free(data);
        return cc_fail(CC_ERR_PARSE, "%s: an MSH file starts with four counts (16 bytes); this one has %zu bytes", where, size);
    }
    int32_t nv = read_le_i32(u), nn = read_le_i32(u + 4), nt = read_le_i32(u + 8), nf = read_le_i32(u + 12);
    const int32_t limit = 1 << 26;
    if (nv < 4 || nv > limit || nn < 0 || nn > limit || nt < 0 || nt > limit || nf < 0 || nf > limit) {
        cc_host_free(data);
        return cc_fail(CC_ERR_PARSE, "%s: the MSH counts (%d vertices, %d normals, %d texture coordinates, %d faces) are out of range "
                       "(at least 4 vertices, every count 0 .. 2^26)", where, nv, nn, nt, nf);
    }
    uint64_t expected = 16 + 12 * (uint64_t)nv + 12 * (uint64_t)nn + 8 * (uint64_t)nt + 12 * (uint64_t)nf;
    if ((uint64_t)size != expected) {
        cc_host_free(data);
        return cc_fail(CC_ERR_PARSE, "%s: the MSH counts (%d vertices, %d normals, %d texture coordinates, %d faces) need %llu bytes; the file has %zu",
                       where, nv, nn, nt, nf, (unsigned long long)expected, size);
    }
    out->vertices = (cc_vec3*)cc_host_alloc(sizeof(cc_vec3) * (size_t)nv);
    out->triangles = nf ? (int*)cc_host_alloc(sizeof(int) * 3 * (size_t)nf) : NULL;
    if (!out->vertices || (nf && !out->triangles)) {
        cc_tri_mesh_free(out);
        cc_host_free(data);
        return cc_fail(CC_ERR_OUT_OF_MEMORY, "%s: out of host memory", where);
    }
    const unsigned char* p = u + 16;
    for (int32_t i = 0; i < nv; ++i, p += 12) {
        cc_vec3 v = {read_le_f32(p), read_le_f32(p + 4), read_le_f32(p + 8)};
        if (!(v.x - v.x == 0.0f && v.y - v.y == 0.0f && v.z - v.z == 0.0f)) {
            cc_tri_mesh_free(out);
            cc_host_free(data);
            return cc_fail(CC_ERR_PARSE, "%s: vertex %d is not finite", where, i);
        }
        out->vertices[i] = v;
    }
    p += 12 * (size_t)nn + 8 * (size_t)nt;
    for (int32_t i = 0; i < 3 * nf; ++i, p += 4) {
        int32_t k = read_le_i32(p);
        if (k < 0 || k >= nv) {
            cc_tri_mesh_free(out);
            cc_host_free(data);
            return cc_fail(CC_ERR_PARSE, "%s: face %d names vertex %d; the mesh has %d (0..%d)", where, i / 3, k, nv, nv - 1);
        }
        out->triangles[i] = k;
    }
    out->vertex_count = nv;
    out->triangle_count = nf;
    cc_host_free(data);
    return CC_OK;
}
