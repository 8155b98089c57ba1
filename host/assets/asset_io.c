/* STL and PNG readers (OBJ is in host/assets/obj_loader.cpp). */
#include <ctype.h>
#include <math.h>
#include <png.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "host/assets/asset_io.h"
#include "host/assets/mjcf_xml.h"

void cc_tri_mesh_free(cc_tri_mesh* m)
{
    cc_host_free(m->vertices);
    cc_host_free(m->triangles);
    memset(m, 0, sizeof *m);
}

/* "from: " or "" for messages. */
static const char* prefix(const char* from, char* buf, size_t size)
{
    if (!from) return "";
    snprintf(buf, size, "%s: ", from);
    return buf;
}

/* ---- vertex welding --------------------------------------------------------
 * STL stores three corners per facet; corners with identical coordinates are
 * one vertex of the indexed mesh. An open-addressing table keyed on the bit
 * patterns (with -0 folded into +0) finds them. */

typedef struct weld_table {
    int* slots; /* vertex index + 1, 0 empty */
    size_t mask;
    cc_vec3* vertices;
    int count;
} weld_table;

static uint32_t float_bits(float f)
{
    if (f == 0.0f) f = 0.0f; /* -0 and +0 weld */
    uint32_t u;
    memcpy(&u, &f, sizeof u);
    return u;
}

static size_t weld_hash(cc_vec3 v)
{
    uint64_t h = float_bits(v.x) * 0x9E3779B97F4A7C15ull;
    h ^= (h >> 29) + float_bits(v.y) * 0xBF58476D1CE4E5B9ull;
    h ^= (h >> 31) + float_bits(v.z) * 0x94D049BB133111EBull;
    return (size_t)(h ^ (h >> 32));
}

static int weld_init(weld_table* t, int max_vertices)
{
    size_t n = 16;
    while (n < (size_t)max_vertices * 2) n <<= 1;
    t->slots = (int*)cc_host_calloc(n, sizeof(int));
    t->vertices = (cc_vec3*)cc_host_alloc(sizeof(cc_vec3) * (size_t)(max_vertices + 1));
    t->mask = n - 1;
    t->count = 0;
    return t->slots && t->vertices;
}

static int weld_add(weld_table* t, cc_vec3 v)
{
    size_t i = weld_hash(v) & t->mask;
    for (;;) {
        int s = t->slots[i];
        if (!s) break;
        cc_vec3 w = t->vertices[s - 1];
        if (float_bits(w.x) == float_bits(v.x) && float_bits(w.y) == float_bits(v.y) && float_bits(w.z) == float_bits(v.z))
            return s - 1;
        i = (i + 1) & t->mask;
    }
    t->vertices[t->count] = v;
    t->slots[i] = ++t->count;
    return t->count - 1;
}

/* Turns a list of 3 * facets corners into an indexed mesh. */
static cc_status weld_corners(const cc_vec3* corners, int facets, const char* path, const char* from, cc_tri_mesh* out)
{
    char pb[600];
    weld_table t;
    memset(&t, 0, sizeof t);
    int* tris = (int*)cc_host_alloc(sizeof(int) * 3 * (size_t)facets);
    if (!tris || !weld_init(&t, 3 * facets)) {
        cc_host_free(tris);
        cc_host_free(t.slots);
        cc_host_free(t.vertices);
        return cc_fail(CC_ERR_OUT_OF_MEMORY, "%sout of memory reading '%s'", prefix(from, pb, sizeof pb), path);
    }
    for (int i = 0; i < 3 * facets; ++i) tris[i] = weld_add(&t, corners[i]);
    cc_host_free(t.slots);
    out->vertices = t.vertices;
    out->vertex_count = t.count;
    out->triangles = tris;
    out->triangle_count = facets;
    return CC_OK;
}

/* ---- STL ---------------------------------------------------------------- */

static float read_le_float(const unsigned char* p)
{
    uint32_t u = (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
    float f;
    memcpy(&f, &u, sizeof f);
    return f;
}

static cc_status stl_binary(const unsigned char* data, uint32_t facets, const char* path, const char* from,
                            cc_tri_mesh* out)
{
    char pb[600];
    cc_vec3* corners = (cc_vec3*)cc_host_alloc(sizeof(cc_vec3) * 3 * (size_t)(facets + 1));
    if (!corners) return cc_fail(CC_ERR_OUT_OF_MEMORY, "%sout of memory reading '%s'", prefix(from, pb, sizeof pb), path);
    for (uint32_t f = 0; f < facets; ++f) {
        const unsigned char* rec = data + 84 + 50 * (size_t)f + 12; /* skip the normal */
        for (int k = 0; k < 3; ++k) {
            cc_vec3 v = {read_le_float(rec + 12 * k), read_le_float(rec + 12 * k + 4), read_le_float(rec + 12 * k + 8)};
            if (!cc_is_finite_vec3(v)) {
                cc_host_free(corners);
                return cc_fail(CC_ERR_PARSE, "%s'%s': facet %u of the binary STL holds NaN or infinity",
                               prefix(from, pb, sizeof pb), path, f);
            }
            corners[3 * f + k] = v;
        }
    }
    cc_status s = weld_corners(corners, (int)facets, path, from, out);
    cc_host_free(corners);
    return s;
}

/* Next whitespace-separated token of an ASCII STL; tracks the line. */
static int next_token(const char** cursor, const char* end, int* line, char* token, size_t size)
{
    const char* p = *cursor;
    while (p < end && isspace((unsigned char)*p)) {
        if (*p == '\n') (*line)++;
        p++;
    }
    if (p >= end) return 0;
    size_t n = 0;
    while (p < end && !isspace((unsigned char)*p)) {
        if (n + 1 < size) token[n++] = *p;
        p++;
    }
    token[n] = '\0';
    *cursor = p;
    return 1;
}

static cc_status stl_ascii(const char* text, size_t size, const char* path, const char* from, cc_tri_mesh* out)
{
    char pb[600], tok[128];
    const char* p = text;
    const char* end = text + size;
    int line = 1, in_loop = 0, loop_corners = 0, loop_line = 0, facets = 0, capacity = 0;
    cc_vec3* corners = NULL;
    cc_status s = CC_OK;
    while (s == CC_OK && next_token(&p, end, &line, tok, sizeof tok)) {
        if (!strcmp(tok, "vertex")) {
            float c[3];
            for (int k = 0; k < 3 && s == CC_OK; ++k) {
                char* stop;
                if (!next_token(&p, end, &line, tok, sizeof tok)) {
                    s = cc_fail(CC_ERR_PARSE, "%s%s:%d: ASCII STL ends inside a vertex", prefix(from, pb, sizeof pb), path, line);
                    break;
                }
                c[k] = strtof(tok, &stop);
                if (*stop || stop == tok || !isfinite(c[k]))
                    s = cc_fail(CC_ERR_PARSE, "%s%s:%d: '%s' is not a finite vertex coordinate", prefix(from, pb, sizeof pb), path, line, tok);
            }
            if (s != CC_OK) break;
            if (!in_loop) {
                s = cc_fail(CC_ERR_PARSE, "%s%s:%d: vertex outside an 'outer loop'", prefix(from, pb, sizeof pb), path, line);
                break;
            }
            if (++loop_corners > 3) {
                s = cc_fail(CC_ERR_PARSE, "%s%s:%d: a facet with more than 3 vertices; only triangles are valid STL", prefix(from, pb, sizeof pb), path, loop_line);
                break;
            }
            if (!cc_reserve((void**)&corners, &capacity, 3 * facets + loop_corners, sizeof *corners)) {
                s = cc_fail(CC_ERR_OUT_OF_MEMORY, "%sout of memory reading '%s'", prefix(from, pb, sizeof pb), path);
                break;
            }
            cc_vec3 v = {c[0], c[1], c[2]};
            corners[3 * facets + loop_corners - 1] = v;
        } else if (!strcmp(tok, "outer")) {
            in_loop = 1;
            loop_corners = 0;
            loop_line = line;
        } else if (!strcmp(tok, "endloop")) {
            if (!in_loop || loop_corners != 3) {
                s = cc_fail(CC_ERR_PARSE, "%s%s:%d: a facet with %d vertices; STL facets are triangles", prefix(from, pb, sizeof pb), path, loop_line ? loop_line : line, loop_corners);
                break;
            }
            in_loop = 0;
            facets++;
        }
        /* solid, facet, normal and its numbers, loop, endfacet, endsolid
         * and the solid's name carry nothing the mesh needs. */
    }
    if (s == CC_OK && in_loop)
        s = cc_fail(CC_ERR_PARSE, "%s%s:%d: ASCII STL ends inside a facet", prefix(from, pb, sizeof pb), path, line);
    if (s == CC_OK && facets == 0)
        s = cc_fail(CC_ERR_PARSE, "%s'%s': the STL holds no facets", prefix(from, pb, sizeof pb), path);
    if (s == CC_OK) s = weld_corners(corners, facets, path, from, out);
    cc_host_free(corners);
    return s;
}

cc_status cc_load_stl(const char* path, const char* from, cc_tri_mesh* out)
{
    char pb[600];
    char* data;
    size_t size;
    memset(out, 0, sizeof *out);
    cc_status s = cc_read_file(path, from, &data, &size);
    if (s != CC_OK) return s;
    const unsigned char* u = (const unsigned char*)data;
    uint32_t facets = size >= 84 ? (uint32_t)u[80] | (uint32_t)u[81] << 8 | (uint32_t)u[82] << 16 | (uint32_t)u[83] << 24 : 0;
    if (size >= 84 && facets > 0 && facets < (1u << 26) && (uint64_t)size == 84 + 50 * (uint64_t)facets) {
        s = stl_binary(u, facets, path, from, out);
    } else {
        const char* p = data;
        while (*p && isspace((unsigned char)*p)) p++;
        if (!strncmp(p, "solid", 5) && memchr(data, '\0', size) == NULL)
            s = stl_ascii(data, size, path, from, out);
        else if (size >= 84 && facets == 0)
            s = cc_fail(CC_ERR_PARSE, "%s'%s': the binary STL holds no facets", prefix(from, pb, sizeof pb), path);
        else
            s = cc_fail(CC_ERR_PARSE, "%s'%s' is not an STL file: neither ASCII ('solid' ...) nor binary (84 + 50 n bytes; this file has %zu)",
                        prefix(from, pb, sizeof pb), path, size);
    }
    cc_host_free(data);
    return s;
}

/* ---- PNG ------------------------------------------------------------------ */

cc_status cc_load_png_gray(const char* path, const char* from, int* width, int* height, unsigned char** pixels)
{
    char pb[600];
    FILE* f = fopen(path, "rb");
    if (!f) return cc_fail(CC_ERR_IO, "%scannot open '%s'", prefix(from, pb, sizeof pb), path);
    fclose(f);
    png_image image;
    memset(&image, 0, sizeof image);
    image.version = PNG_IMAGE_VERSION;
    if (!png_image_begin_read_from_file(&image, path))
        return cc_fail(CC_ERR_PARSE, "%s'%s' is not a readable PNG: %s", prefix(from, pb, sizeof pb), path, image.message);
    image.format = PNG_FORMAT_GRAY;
    if (image.width < 2 || image.height < 2 || image.width > 65536 || image.height > 65536) {
        png_image_free(&image);
        return cc_fail(CC_ERR_PARSE, "%s'%s': a %u x %u image cannot be a heightfield (2 .. 65536 pixels a side)",
                       prefix(from, pb, sizeof pb), path, image.width, image.height);
    }
    size_t bytes = PNG_IMAGE_SIZE(image);
    unsigned char* buf = (unsigned char*)cc_host_alloc(bytes);
    if (!buf) {
        png_image_free(&image);
        return cc_fail(CC_ERR_OUT_OF_MEMORY, "%sout of memory reading '%s'", prefix(from, pb, sizeof pb), path);
    }
    if (!png_image_finish_read(&image, NULL, buf, 0, NULL)) {
        cc_host_free(buf);
        return cc_fail(CC_ERR_PARSE, "%s'%s': %s", prefix(from, pb, sizeof pb), path, image.message);
    }
    *width = (int)image.width;
    *height = (int)image.height;
    *pixels = buf;
    return CC_OK;
}
