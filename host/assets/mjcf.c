/* The MJCF loader: an expat element tree (host/assets/mjcf_xml.c) turned into bodies and
 * shapes of a builder with MuJoCo's meaning. See include/cucontact/mjcf.h for
 * what is read and how it maps.
 *
 * Everything but the static geometry is built into a template builder that
 * is then replicated options.worlds times, so that meshes, hulls,
 * heightfields and names are stored once for all worlds. Static geometry
 * goes straight into the target as global shapes (or into the template when
 * static_geoms_global is zero). A failed load rolls the target back. */
#include <ctype.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "host/assets/mjcf_internal.h"

#define CC_DEF_COOKIE 0x63635f64
#define MAX_INCLUDE_DEPTH 16

cc_mjcf_options cc_default_mjcf_options(void)
{
    cc_mjcf_options o;
    o.worlds = 1;
    o.static_geoms_global = 1;
    o.asset_dir = NULL;
    o.mesh_mode = CC_MJCF_MESH_AS_CONVEX_HULL;
    o.hull_max_vertices = 0;
    o.margin_semantics = CC_MJCF_MARGIN_MUJOCO4;
    o.report_every_note = 0;
    o.finite_planes = 0;
    o.cookie = CC_DEF_COOKIE;
    return o;
}
/* ---- compiler -------------------------------------------------------------------- */

static const char* const compiler_attrs[] = {"angle", "eulerseq", "meshdir", "assetdir", "coordinate", NULL};

static cc_status read_compiler(mj_loader* L, cc_xml_node* n)
{
    const char* v;
    if ((v = cc_xml_attr_get(n, "angle"))) {
        if (!strcmp(v, "degree")) L->degrees = 1;
        else if (!strcmp(v, "radian")) L->degrees = 0;
        else return mjcf_fail_at(CC_ERR_PARSE, n->file, n->line, "<compiler angle=\"%.40s\">: use degree or radian", v);
    }
    if ((v = cc_xml_attr_get(n, "eulerseq"))) {
        int ok = strlen(v) == 3;
        for (int i = 0; ok && i < 3; ++i) ok = strchr("xyzXYZ", v[i]) != NULL;
        if (!ok)
            return mjcf_fail_at(CC_ERR_PARSE, n->file, n->line,
                           "<compiler eulerseq=\"%.40s\">: invalid euler sequence; give three of x, y, z (axes that rotate "
                           "with the frame) or X, Y, Z (fixed axes), e.g. xyz",
                           v);
        memcpy(L->eulerseq, v, 4);
    }
    if ((v = cc_xml_attr_get(n, "meshdir"))) L->meshdir = v;
    if ((v = cc_xml_attr_get(n, "assetdir"))) L->assetdir = v;
    if ((v = cc_xml_attr_get(n, "coordinate")) && strcmp(v, "local"))
        return mjcf_fail_at(CC_ERR_PARSE, n->file, n->line, "<compiler coordinate=\"%.40s\">: only local coordinates are supported (as in MuJoCo 2.3 and later)", v);
    mjcf_report_unknown_attrs(L, n, "compiler", compiler_attrs);
    return CC_OK;
}

/* ---- includes and the top level ------------------------------------------------------------------ */

/* Replaces every <include> under `top` by the children of the file's
 * <mujoco> or <mujocoinclude> root, themselves expanded first (depth counts the files between).
 * The elements are walked with a heap stack, so that nesting depth costs no
 * call stack; only the include levels (at most MAX_INCLUDE_DEPTH) recurse.
 * The number of files and bytes read are bounded over the whole scene, so
 * that a few files including each other many times cannot expand without
 * end. */
static cc_status expand_includes(mj_loader* L, cc_xml_node* top, int depth)
{
    cc_xml_node** stack = NULL;
    int count = 0, capacity = 0;
    cc_status s = CC_OK;
    if (!cc_reserve((void**)&stack, &capacity, 1, sizeof *stack)) return mjcf_out_of_memory();
    stack[count++] = top;
    while (count > 0 && s == CC_OK) {
        cc_xml_node* n = stack[--count];
        cc_xml_node* prev = NULL;
        for (cc_xml_node* ch = n->first_child; ch && s == CC_OK;) {
            if (strcmp(ch->name, "include")) {
                if (!cc_reserve((void**)&stack, &capacity, count + 1, sizeof *stack)) {
                    s = mjcf_out_of_memory();
                    break;
                }
                stack[count++] = ch;
                prev = ch;
                ch = ch->next;
                continue;
            }
            if (depth >= MAX_INCLUDE_DEPTH) {
                s = mjcf_fail_at(CC_ERR_PARSE, ch->file, ch->line, "<include>: includes nest deeper than %d (a cycle?)", MAX_INCLUDE_DEPTH);
                break;
            }
            if (++L->includes > CC_MJCF_MAX_INCLUDES) {
                s = mjcf_fail_at(CC_ERR_PARSE, ch->file, ch->line, "<include>: the scene includes more than %d files in all (includes that repeat each other?)",
                                 CC_MJCF_MAX_INCLUDES);
                break;
            }
            const char* file = cc_xml_attr_get(ch, "file");
            if (!file) {
                s = mjcf_fail_at(CC_ERR_PARSE, ch->file, ch->line, "<include>: the file attribute is missing");
                break;
            }
            const char* path = mjcf_join_path(L, L->base_dir, file);
            char from[512];
            snprintf(from, sizeof from, "%s:%d: <include>", ch->file, ch->line);
            char* text;
            size_t size;
            if ((s = path ? cc_read_file(path, from, &text, &size) : mjcf_out_of_memory()) != CC_OK) break;
            L->text_bytes += (long long)size;
            if (L->text_bytes > CC_MJCF_MAX_TEXT_BYTES) {
                cc_host_free(text);
                s = mjcf_fail_at(CC_ERR_PARSE, ch->file, ch->line, "<include file=\"%.200s\">: the scene and its includes exceed %lld bytes of XML in all",
                                 file, (long long)CC_MJCF_MAX_TEXT_BYTES);
                break;
            }
            cc_xml_node* root;
            s = cc_xml_parse(&L->arena, text, size, path, &root);
            cc_host_free(text);
            if (s != CC_OK) break;
            if (strcmp(root->name, "mujoco") && strcmp(root->name, "mujocoinclude")) {
                s = mjcf_fail_at(CC_ERR_PARSE, root->file, root->line, "the root element of an included file is <%s>; it must be <mujoco> or <mujocoinclude>",
                                 root->name);
                break;
            }
            if ((s = expand_includes(L, root, depth + 1)) != CC_OK) break;
            /* Splice the included children in place of <include>; they are
             * expanded already, so the walk steps past them. */
            cc_xml_node* next = ch->next;
            cc_xml_node* first = root->first_child;
            cc_xml_node* last = root->last_child;
            for (cc_xml_node* k = first; k; k = k->next) k->parent = n;
            if (!first) {
                first = next;
            } else {
                last->next = next;
            }
            if (prev) prev->next = first;
            else n->first_child = first;
            if (!next) n->last_child = last ? last : prev;
            if (last) prev = last;
            ch = next;
        }
    }
    cc_host_free(stack);
    return s;
}

static const char* const ignored_sections[] = {"option", "size", "visual", "statistic", "extension", "custom", "tendon",
                                               "equality", "actuator", "sensor", "keyframe", "deformable", NULL};

static cc_status load_tree(mj_loader* L, cc_xml_node* root)
{
    if (strcmp(root->name, "mujoco"))
        return mjcf_fail_at(CC_ERR_PARSE, root->file, root->line, "the root element is <%s>; an MJCF file starts with <mujoco>", root->name);
    mjcf_report_unknown_attrs(L, root, "mujoco", (const char* const[]){"model", NULL});
    cc_status s = expand_includes(L, root, 0);
    /* Sections in MuJoCo's order, whatever their order in the file. */
    for (cc_xml_node* n = root->first_child; n && s == CC_OK; n = n->next)
        if (!strcmp(n->name, "compiler")) s = read_compiler(L, n);
    for (cc_xml_node* n = root->first_child; n && s == CC_OK; n = n->next)
        if (!strcmp(n->name, "default")) s = mjcf_read_default(L, n, NULL);
    if (s == CC_OK && !mjcf_find_class(L, "main")) {
        cc_xml_node empty;
        memset(&empty, 0, sizeof empty);
        empty.name = "default";
        empty.file = root->file;
        s = mjcf_read_default(L, &empty, NULL);
    }
    for (cc_xml_node* n = root->first_child; n && s == CC_OK; n = n->next)
        if (!strcmp(n->name, "asset")) s = mjcf_read_assets(L, n);
    int world = -1;
    if (s == CC_OK) s = mjcf_add_body_record(L, "world", NULL, &world);
    for (cc_xml_node* n = root->first_child; n && s == CC_OK; n = n->next)
        if (!strcmp(n->name, "worldbody")) {
            mj_frame_ctx ctx;
            ctx.to_anchor = mjcf_frame_identity();
            ctx.anchor = -1;
            ctx.anchor_pose = mjcf_frame_identity();
            ctx.childclass = NULL;
            ctx.body = world;
            mjcf_report_unknown_attrs(L, n, "worldbody", (const char* const[]){NULL});
            s = mjcf_read_children(L, n, &ctx);
        }
    for (cc_xml_node* n = root->first_child; n && s == CC_OK; n = n->next) {
        if (!strcmp(n->name, "contact")) s = mjcf_read_contact(L, n);
        else if (!strcmp(n->name, "compiler") || !strcmp(n->name, "default") || !strcmp(n->name, "asset") || !strcmp(n->name, "worldbody")) continue;
        else if (mjcf_in_list(n->name, ignored_sections)) mjcf_report_element(L, n, "not used for collisions", CC_LOG_INFO);
        else mjcf_report_element(L, n, "not supported by cuContact", CC_LOG_WARNING);
    }
    return s;
}

static void loader_free(mj_loader* L)
{
    for (int i = 0; i < L->class_count; ++i) {
        cc_host_free(L->classes[i]->attrs);
        cc_host_free(L->classes[i]);
    }
    cc_host_free(L->classes);
    for (int i = 0; i < L->mesh_count; ++i) cc_tri_mesh_free(&L->meshes[i].mesh);
    cc_host_free(L->meshes);
    for (int i = 0; i < L->hfield_count; ++i) cc_host_free(L->hfields[i].samples);
    cc_host_free(L->hfields);
    for (int i = 0; i < L->body_count; ++i) cc_host_free(L->bodies[i].shapes);
    cc_host_free(L->bodies);
    cc_host_free(L->body_nodes);
    cc_host_free(L->body_slots);
    cc_host_free(L->late_filters);
    cc_host_free(L->late_pairs);
    cc_host_free(L->notes);
    cc_builder_destroy(L->templ);
    cc_xml_arena_free(&L->arena);
}

static cc_status load(cc_builder* b, const char* text, size_t size, const char* file, const char* base_dir,
                      const cc_mjcf_options* options)
{
    cc_mjcf_options o = options ? *options : cc_default_mjcf_options();
    if (o.cookie != CC_DEF_COOKIE)
        return cc_fail(CC_ERR_UNINITIALIZED_DEF, "cc_builder_load_mjcf: the options were not made by cc_default_mjcf_options(); start from it and change fields");
    if (o.worlds < 1) return cc_fail(CC_ERR_INVALID_ARGUMENT, "cc_builder_load_mjcf: worlds is %d; give at least 1", o.worlds);
    if ((int)o.mesh_mode < CC_MJCF_MESH_AS_MESH || o.mesh_mode > CC_MJCF_MESH_AS_CONVEX_HULL)
        return cc_fail(CC_ERR_INVALID_ARGUMENT, "cc_builder_load_mjcf: mesh_mode %d is not a cc_mjcf_mesh_mode value", (int)o.mesh_mode);
    if (o.hull_max_vertices != 0 && (o.hull_max_vertices < 4 || o.hull_max_vertices > 4096))
        return cc_fail(CC_ERR_INVALID_ARGUMENT, "cc_builder_load_mjcf: hull_max_vertices %d is outside 4..4096; give 0 for the whole hull", o.hull_max_vertices);
    if ((int)o.margin_semantics < CC_MJCF_MARGIN_MUJOCO4 || o.margin_semantics > CC_MJCF_MARGIN_MUJOCO3)
        return cc_fail(CC_ERR_INVALID_ARGUMENT, "cc_builder_load_mjcf: margin_semantics %d is not a cc_mjcf_margin_semantics value", (int)o.margin_semantics);
    if (b->open_world >= 0)
        return cc_fail(CC_ERR_INVALID_STATE, "cc_builder_load_mjcf: world %d is open; call cc_builder_end_world first", b->open_world);

    mj_loader L;
    memset(&L, 0, sizeof L);
    L.target = b;
    L.opt = o;
    L.base_dir = base_dir ? base_dir : "";
    L.degrees = 1;
    memcpy(L.eulerseq, "xyz", 4);
    cc_builder_def td = cc_default_builder_def();
    td.rigid_gap = b->rigid_gap;
    cc_status s = cc_builder_create(&td, &L.templ);
    if (s != CC_OK) return s;
    cc_builder_mark mark = cc_builder_get_mark(b);
    cc_xml_node* root = NULL;
    L.text_bytes = (long long)size;
    s = cc_xml_parse(&L.arena, text, size, file, &root);
    if (s == CC_OK) s = load_tree(&L, root);
    if (s == CC_OK) mjcf_flush_notes(&L);
    int shape0 = b->shape_count;
    if (s == CC_OK) s = cc_builder_replicate(b, L.templ, o.worlds, NULL);
    for (int i = 0; s == CC_OK && i < L.late_count; i += 2)
        for (int w = 0; s == CC_OK && w < o.worlds; ++w)
            s = cc_builder_add_filter_pair(b, L.late_filters[i].index, shape0 + w * L.templ->shape_count + L.late_filters[i + 1].index);
    for (int i = 0; s == CC_OK && i < L.late_pair_count; ++i)
        for (int w = 0; s == CC_OK && w < o.worlds; ++w)
            s = cc_builder_add_contact_pair(b, L.late_pairs[i].global, shape0 + w * L.templ->shape_count + L.late_pairs[i].templ,
                                            &L.late_pairs[i].def);
    if (s != CC_OK) cc_builder_rollback(b, &mark);
    loader_free(&L);
    return s == CC_OK ? cc_ok() : s;
}

/* Directory part of a path ("" when it has none). */
static char* directory_of(const char* path)
{
    const char* slash = strrchr(path, '/');
    size_t n = slash ? (size_t)(slash - path) + 1 : 0;
    char* d = (char*)cc_host_alloc(n + 1);
    if (d) {
        memcpy(d, path, n);
        d[n] = '\0';
    }
    return d;
}

cc_status cc_builder_load_mjcf(cc_builder* b, const char* path, const cc_mjcf_options* options)
{
    if (!b || !path) return cc_fail(CC_ERR_INVALID_ARGUMENT, "cc_builder_load_mjcf: builder or path is NULL");
    char* text;
    size_t size;
    cc_status s = cc_read_file(path, NULL, &text, &size);
    if (s != CC_OK) return s;
    char* dir = directory_of(path);
    if (!dir) {
        cc_host_free(text);
        return mjcf_out_of_memory();
    }
    s = load(b, text, size, path, dir, options);
    cc_host_free(dir);
    cc_host_free(text);
    return s;
}

cc_status cc_builder_load_mjcf_string(cc_builder* b, const char* xml, const char* base_dir, const cc_mjcf_options* options)
{
    if (!b || !xml) return cc_fail(CC_ERR_INVALID_ARGUMENT, "cc_builder_load_mjcf_string: builder or xml is NULL");
    return load(b, xml, strlen(xml), "<string>", base_dir, options);
}

