/* MJCF assets: paths (meshdir, assetdir, the options' asset_dir), <mesh>
 * from STL, OBJ, MSH, a VDB level set (with its SDF) or inline vertices and
 * faces, <hfield> from a PNG or inline elevations, and the builder entries a
 * geom adds on first use. */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "cucontact/sdf.h"
#include "host/assets/mjcf_internal.h"
#include "host/geometry/hull_build.h"
#include "host/geometry/sdf_volume.h"

static const char* const hfield_attrs[] = {"name", "file", "nrow", "ncol", "elevation", "size", NULL};

static int is_absolute(const char* p) { return p[0] == '/'; }

/* dir/file in the arena (file unchanged when absolute or dir empty). */
const char* mjcf_join_path(mj_loader* L, const char* dir, const char* file)
{
    if (is_absolute(file) || !dir || !*dir) return file;
    size_t n = strlen(dir) + strlen(file) + 2;
    char* p = (char*)cc_xml_arena_alloc(&L->arena, n);
    if (p) snprintf(p, n, "%s%s%s", dir, dir[strlen(dir) - 1] == '/' ? "" : "/", file);
    return p;
}

/* Directory of mesh and heightfield files. */
static const char* asset_directory(mj_loader* L)
{
    if (L->opt.asset_dir) return L->opt.asset_dir;
    const char* d = L->meshdir ? L->meshdir : L->assetdir;
    if (!d) return L->base_dir;
    return mjcf_join_path(L, L->base_dir, d);
}

static const char* file_stem(mj_loader* L, const char* path)
{
    const char* base = strrchr(path, '/');
    base = base ? base + 1 : path;
    const char* dot = strrchr(base, '.');
    size_t n = dot && dot != base ? (size_t)(dot - base) : strlen(base);
    char* p = (char*)cc_xml_arena_alloc(&L->arena, n + 1);
    if (p) {
        memcpy(p, base, n);
        p[n] = '\0';
    }
    return p;
}

static int ends_with_ci(const char* s, const char* suffix)
{
    size_t n = strlen(s), m = strlen(suffix);
    if (m > n) return 0;
    for (size_t i = 0; i < m; ++i)
        if (tolower((unsigned char)s[n - m + i]) != suffix[i]) return 0;
    return 1;
}

/* A .vdb mesh asset: the zero level of the file's first float level set,
 * which also becomes the mesh's SDF where a geom uses it. The grid's
 * distances are in its own metres, so it takes no scale. */
static cc_status read_vdb_mesh(const char* path, const char* from, const double scale[3], mj_mesh_asset* a)
{
    if (scale[0] != 1.0 || scale[1] != 1.0 || scale[2] != 1.0)
        return cc_fail(CC_ERR_INVALID_SIZE, "%s: '%s' is a level set, whose distances a scale would stretch; drop scale and resample the grid instead",
                       from, path);
    cc_sdf_volume vol;
    cc_sdf_surface surface;
    float band = 0.0f, *coarse = NULL;
    int coarse_count = 0;
    cc_status s = cc_sdf_volume_read_vdb(path, NULL, from, &vol, &band, &coarse, &coarse_count, &surface);
    if (s != CC_OK) return s;
    cc_sdf_volume_free(&vol);
    cc_host_free(coarse);
    a->mesh.vertices = surface.vertices;
    a->mesh.vertex_count = surface.vertex_count;
    a->mesh.triangles = surface.triangles;
    a->mesh.triangle_count = surface.triangle_count;
    a->vdb_path = path;
    return CC_OK;
}

static cc_status read_mesh_asset(mj_loader* L, cc_xml_node* n)
{
    const mj_class* c;
    cc_status s = mjcf_class_of(L, n, NULL, &c);
    if (s != CC_OK) return s;
    mj_attr file, vertex, face, name_attr;
    int has_file = mjcf_get_attr(n, c, "mesh", "file", &file);
    int has_vertex = mjcf_get_attr(n, c, "mesh", "vertex", &vertex);
    int has_face = mjcf_get_attr(n, c, "mesh", "face", &face);
    const char* name = mjcf_get_attr(n, NULL, "mesh", "name", &name_attr) ? name_attr.value : NULL;
    if (!name && has_file) name = file_stem(L, file.value);
    if (!name) return mjcf_fail_at(CC_ERR_PARSE, n->file, n->line, "<mesh>: give a name or a file");
    if (has_file == has_vertex)
        return mjcf_fail_at(CC_ERR_PARSE, n->file, n->line, "<mesh name=\"%s\">: give either file or vertex (and face)", name);
    for (int i = 0; i < L->mesh_count; ++i)
        if (!strcmp(L->meshes[i].name, name)) return mjcf_fail_at(CC_ERR_PARSE, n->file, n->line, "<mesh name=\"%s\">: a mesh of that name already exists", name);
    double scale[3] = {1.0, 1.0, 1.0};
    int found;
    if ((s = mjcf_read_vector(n, c, "mesh", "scale", scale, 3, &found)) != CC_OK) return s;
    if (scale[0] == 0.0 || scale[1] == 0.0 || scale[2] == 0.0)
        return mjcf_fail_at(CC_ERR_INVALID_SIZE, n->file, n->line, "<mesh name=\"%s\">: a zero scale flattens the mesh", name);
    long long max_hull = -1; /* MuJoCo's default: the whole hull */
    mj_attr hull_attr;
    if (mjcf_get_attr(n, c, "mesh", "maxhullvert", &hull_attr)) {
        if ((s = mjcf_parse_int(&hull_attr, -1, INT32_MAX, &max_hull)) != CC_OK) return s;
        if (max_hull != -1 && max_hull < 4)
            return mjcf_fail_at(CC_ERR_PARSE, hull_attr.file, hull_attr.line, "<mesh name=\"%s\" maxhullvert=\"%s\">: give -1 (no limit) or at least 4",
                                name, hull_attr.value);
    }
    mjcf_report_unknown_attrs(L, n, "mesh", mjcf_mesh_attrs);

    mj_mesh_asset a;
    memset(&a, 0, sizeof a);
    a.max_hull_vertices = (int)max_hull;
    a.name = name;
    a.file = n->file;
    a.line = n->line;
    for (int k = 0; k < 2; ++k) a.mesh_index[k] = a.hull_index[k] = -1;
    char from[512];
    snprintf(from, sizeof from, "%s:%d: <mesh name=\"%s\">", n->file, n->line, name);
    if (has_file) {
        const char* path = mjcf_join_path(L, asset_directory(L), file.value);
        if (!path) return mjcf_out_of_memory();
        if (ends_with_ci(path, ".stl")) s = cc_load_stl(path, from, &a.mesh);
        else if (ends_with_ci(path, ".obj")) s = cc_load_obj(path, from, &a.mesh);
        else if (ends_with_ci(path, ".msh")) s = cc_load_msh(path, from, &a.mesh);
        else if (ends_with_ci(path, ".vdb")) s = read_vdb_mesh(path, from, scale, &a);
        else return mjcf_fail_at(CC_ERR_PARSE, n->file, n->line, "<mesh file=\"%.200s\">: unsupported mesh format; use STL, OBJ, MSH or VDB", file.value);
        if (s != CC_OK) return s;
    } else {
        float* v = NULL;
        int vn = 0;
        if ((s = mjcf_parse_float_list(&vertex, &v, &vn)) != CC_OK) return s;
        if (vn < 9 || vn % 3) {
            cc_host_free(v);
            return mjcf_fail_at(CC_ERR_PARSE, vertex.file, vertex.line, "<mesh name=\"%s\">: vertex holds %d numbers; give x y z per vertex, at least 3 vertices", name, vn);
        }
        a.mesh.vertices = (cc_vec3*)cc_host_alloc(sizeof(cc_vec3) * (size_t)(vn / 3));
        if (!a.mesh.vertices) {
            cc_host_free(v);
            return mjcf_out_of_memory();
        }
        for (int i = 0; i < vn / 3; ++i) a.mesh.vertices[i] = (cc_vec3){v[3 * i], v[3 * i + 1], v[3 * i + 2]};
        a.mesh.vertex_count = vn / 3;
        cc_host_free(v);
        if (has_face) {
            int fn = 0;
            if ((s = mjcf_parse_int_list(&face, &a.mesh.triangles, &fn)) != CC_OK) {
                cc_tri_mesh_free(&a.mesh);
                return s;
            }
            if (fn < 3 || fn % 3) {
                cc_tri_mesh_free(&a.mesh);
                return mjcf_fail_at(CC_ERR_PARSE, face.file, face.line, "<mesh name=\"%s\">: face holds %d indices; give 3 per triangle", name, fn);
            }
            for (int i = 0; i < fn; ++i)
                if (a.mesh.triangles[i] >= a.mesh.vertex_count) {
                    int bad = a.mesh.triangles[i], have = a.mesh.vertex_count;
                    cc_tri_mesh_free(&a.mesh); /* clears the counts too */
                    return mjcf_fail_at(CC_ERR_PARSE, face.file, face.line, "<mesh name=\"%s\">: face index %d names no vertex: the mesh has %d (0..%d)", name, bad,
                                        have, have - 1);
                }
            a.mesh.triangle_count = fn / 3;
        }
    }
    /* Scale baked into the vertices; a mirroring scale flips the winding so
     * that triangles stay counter-clockwise seen from outside. */
    for (int i = 0; i < a.mesh.vertex_count; ++i) {
        a.mesh.vertices[i].x = (float)(a.mesh.vertices[i].x * scale[0]);
        a.mesh.vertices[i].y = (float)(a.mesh.vertices[i].y * scale[1]);
        a.mesh.vertices[i].z = (float)(a.mesh.vertices[i].z * scale[2]);
    }
    if (scale[0] * scale[1] * scale[2] < 0.0)
        for (int t = 0; t < a.mesh.triangle_count; ++t) {
            int tmp = a.mesh.triangles[3 * t + 1];
            a.mesh.triangles[3 * t + 1] = a.mesh.triangles[3 * t + 2];
            a.mesh.triangles[3 * t + 2] = tmp;
        }
    if (!cc_reserve((void**)&L->meshes, &L->mesh_capacity, L->mesh_count + 1, sizeof *L->meshes)) {
        cc_tri_mesh_free(&a.mesh);
        return mjcf_out_of_memory();
    }
    L->meshes[L->mesh_count++] = a;
    return CC_OK;
}

static cc_status read_hfield_asset(mj_loader* L, cc_xml_node* n)
{
    mj_attr a;
    cc_status s;
    const char* name = cc_xml_attr_get(n, "name");
    const char* file = cc_xml_attr_get(n, "file");
    if (!name && file) name = file_stem(L, file);
    if (!name) return mjcf_fail_at(CC_ERR_PARSE, n->file, n->line, "<hfield>: give a name or a file");
    for (int i = 0; i < L->hfield_count; ++i)
        if (!strcmp(L->hfields[i].name, name)) return mjcf_fail_at(CC_ERR_PARSE, n->file, n->line, "<hfield name=\"%s\">: a heightfield of that name already exists", name);
    mj_hfield_asset h;
    memset(&h, 0, sizeof h);
    h.name = name;
    h.file = n->file;
    h.line = n->line;
    h.index[0] = h.index[1] = -1;
    if (!mjcf_get_attr(n, NULL, "hfield", "size", &a))
        return mjcf_fail_at(CC_ERR_INVALID_SIZE, n->file, n->line, "<hfield name=\"%s\">: size is missing; give radius x, radius y, elevation z and base z", name);
    if ((s = mjcf_parse_numbers(&a, h.size, 4, 4, NULL)) != CC_OK) return s;
    if (h.size[0] < 0.0 || h.size[1] < 0.0 || h.size[2] < 0.0 || h.size[3] < 0.0)
        return mjcf_fail_at(CC_ERR_INVALID_SIZE, n->file, n->line, "<hfield name=\"%s\" size=\"%.60s\">: negative size", name, a.value);
    if (!(h.size[0] > 0.0 && h.size[1] > 0.0 && h.size[2] > 0.0))
        return mjcf_fail_at(CC_ERR_INVALID_SIZE, n->file, n->line, "<hfield name=\"%s\" size=\"%.60s\">: radius x, radius y and elevation must be > 0", name, a.value);
    long long rows = 0, cols = 0;
    if (mjcf_get_attr(n, NULL, "hfield", "nrow", &a) && (s = mjcf_parse_int(&a, 0, 1 << 16, &rows)) != CC_OK) return s;
    if (mjcf_get_attr(n, NULL, "hfield", "ncol", &a) && (s = mjcf_parse_int(&a, 0, 1 << 16, &cols)) != CC_OK) return s;
    mjcf_report_unknown_attrs(L, n, "hfield", hfield_attrs);
    char from[512];
    snprintf(from, sizeof from, "%s:%d: <hfield name=\"%s\">", n->file, n->line, name);
    if (file) {
        if (rows || cols) return mjcf_fail_at(CC_ERR_PARSE, n->file, n->line, "<hfield name=\"%s\">: give either file or nrow/ncol", name);
        if (!ends_with_ci(file, ".png"))
            return mjcf_fail_at(CC_ERR_PARSE, n->file, n->line, "<hfield file=\"%.200s\">: unsupported heightfield format; use PNG", file);
        const char* path = mjcf_join_path(L, asset_directory(L), file);
        if (!path) return mjcf_out_of_memory();
        unsigned char* px;
        int w, ht;
        if ((s = cc_load_png_gray(path, from, &w, &ht, &px)) != CC_OK) return s;
        if ((long long)w * ht > CC_HFIELD_MAX_SAMPLES) {
            cc_host_free(px);
            return mjcf_fail_at(CC_ERR_INVALID_SIZE, n->file, n->line, "<hfield file=\"%.200s\">: a %d x %d image is %lld samples, over the %d a heightfield may hold", file, w, ht, (long long)w * ht, CC_HFIELD_MAX_SAMPLES);
        }
        h.rows = ht;
        h.cols = w;
        h.samples = (float*)cc_host_alloc(sizeof(float) * (size_t)w * (size_t)ht);
        if (!h.samples) {
            cc_host_free(px);
            return mjcf_out_of_memory();
        }
        /* The image's top row is the far (+y) edge. */
        for (int r = 0; r < ht; ++r)
            for (int c = 0; c < w; ++c) h.samples[(size_t)r * w + c] = px[(size_t)(ht - 1 - r) * w + c];
        cc_host_free(px);
    } else {
        if (rows < 2 || cols < 2)
            return mjcf_fail_at(CC_ERR_PARSE, n->file, n->line, "<hfield name=\"%s\">: give a PNG file, or nrow and ncol of at least 2", name);
        if (rows * cols > CC_HFIELD_MAX_SAMPLES)
            return mjcf_fail_at(CC_ERR_INVALID_SIZE, n->file, n->line, "<hfield name=\"%s\">: nrow x ncol = %lld x %lld = %lld samples, over the %d a heightfield may hold", name, rows, cols, rows * cols, CC_HFIELD_MAX_SAMPLES);
        h.rows = (int)rows;
        h.cols = (int)cols;
        if (mjcf_get_attr(n, NULL, "hfield", "elevation", &a)) {
            int count = 0;
            float* given = NULL;
            if ((s = mjcf_parse_float_list(&a, &given, &count)) != CC_OK) return s;
            if ((long long)count != rows * cols) {
                cc_host_free(given);
                return mjcf_fail_at(CC_ERR_PARSE, n->file, n->line, "<hfield name=\"%s\">: elevation holds %d values; nrow x ncol is %lld", name, count, rows * cols);
            }
            h.samples = (float*)cc_host_alloc(sizeof(float) * (size_t)count);
            if (!h.samples) {
                cc_host_free(given);
                return mjcf_out_of_memory();
            }
            /* MuJoCo reads the first row given as the far (+y) edge, as
             * with an image's top row; sample row 0 is the -y edge. */
            for (int r = 0; r < h.rows; ++r)
                memcpy(h.samples + (size_t)r * h.cols, given + (size_t)(h.rows - 1 - r) * h.cols, sizeof(float) * (size_t)h.cols);
            cc_host_free(given);
        } else {
            h.samples = (float*)cc_host_calloc((size_t)h.rows * (size_t)h.cols, sizeof(float));
            if (!h.samples) return mjcf_out_of_memory();
        }
    }
    /* Normalised to [0, 1] as MuJoCo does, so size[2] is the full elevation;
     * in double, so that samples near both ends of float's range do not
     * overflow their difference. */
    size_t count = (size_t)h.rows * (size_t)h.cols;
    double lo = h.samples[0], hi = h.samples[0];
    for (size_t i = 0; i < count; ++i) lo = fmin(lo, h.samples[i]), hi = fmax(hi, h.samples[i]);
    for (size_t i = 0; i < count; ++i) h.samples[i] = hi > lo ? (float)((h.samples[i] - lo) / (hi - lo)) : 0.0f;
    if (!cc_reserve((void**)&L->hfields, &L->hfield_capacity, L->hfield_count + 1, sizeof *L->hfields)) {
        cc_host_free(h.samples);
        return mjcf_out_of_memory();
    }
    L->hfields[L->hfield_count++] = h;
    return CC_OK;
}

cc_status mjcf_read_assets(mj_loader* L, cc_xml_node* n)
{
    mjcf_report_unknown_attrs(L, n, "asset", (const char* const[]){NULL});
    for (cc_xml_node* ch = n->first_child; ch; ch = ch->next) {
        cc_status s = CC_OK;
        if (!strcmp(ch->name, "mesh")) s = read_mesh_asset(L, ch);
        else if (!strcmp(ch->name, "hfield")) s = read_hfield_asset(L, ch);
        else mjcf_report_element(L, ch, "not used for collisions (only mesh and hfield assets are)", CC_LOG_INFO);
        if (s != CC_OK) return s;
    }
    return CC_OK;
}

/* The mesh (or its hull) inside builder `where`, added on first use. */
cc_status mjcf_mesh_in(mj_loader* L, mj_mesh_asset* m, int where, int as_hull, const cc_xml_node* n, int* out)
{
    cc_builder* b = where == IN_TEMPLATE ? L->templ : L->target;
    cc_status s = CC_OK;
    /* Builder notes about the mesh name the asset and where it is defined. */
    char context[400];
    snprintf(context, sizeof context, "mjcf: %s:%d: <mesh name=\"%.200s\">", m->file, m->line, m->name);
    cc_log_set_context(context);
    if (as_hull) {
        if (m->hull_index[where] < 0) {
            cc_convex_hull_def d = cc_default_convex_hull_def();
            /* The mesh's maxhullvert, else the options' limit, else the
             * whole hull (MuJoCo's default) up to the builder's limit. */
            int limit = m->max_hull_vertices > 0 ? m->max_hull_vertices : L->opt.hull_max_vertices;
            d.max_vertices = limit > 0 && limit < CC_HULL_VERTEX_LIMIT ? limit : CC_HULL_VERTEX_LIMIT;
            s = cc_builder_add_convex_hull_data(b, m->mesh.vertices, m->mesh.vertex_count, &d, &m->hull_index[where]);
        }
        *out = m->hull_index[where];
    } else {
        if (m->mesh_index[where] < 0) {
            s = cc_builder_add_mesh_data(b, m->mesh.vertices, m->mesh.vertex_count, m->mesh.triangles, m->mesh.triangle_count,
                                         &m->mesh_index[where]);
            char label[400];
            snprintf(label, sizeof label, "'%.200s' at %s:%d", m->name, m->file, m->line);
            if (s == CC_OK) s = cc_builder_label_mesh(b, m->mesh_index[where], label);
            if (s == CC_OK && m->vdb_path)
                s = cc_builder_load_mesh_sdf_vdb(b, m->mesh_index[where], m->vdb_path, NULL, cc_v3(1.0f, 1.0f, 1.0f), NULL);
        }
        *out = m->mesh_index[where];
    }
    cc_log_set_context(NULL);
    return s == CC_OK ? CC_OK : mjcf_relabel(s, n);
}

cc_status mjcf_hfield_in(mj_loader* L, mj_hfield_asset* h, int where, const cc_xml_node* n, int* out)
{
    cc_builder* b = where == IN_TEMPLATE ? L->templ : L->target;
    if (h->index[where] < 0) {
        char context[400];
        snprintf(context, sizeof context, "mjcf: %s:%d: <hfield name=\"%.200s\">", h->file, h->line, h->name);
        cc_log_set_context(context);
        cc_status s = cc_builder_add_heightfield_data(b, h->rows, h->cols, h->samples, &h->index[where]);
        cc_log_set_context(NULL);
        if (s != CC_OK) return mjcf_relabel(s, n);
    }
    *out = h->index[where];
    return CC_OK;
}

