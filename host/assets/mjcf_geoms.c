/* MJCF <geom>: type, size (or fromto), frame, collision bits, margin and
 * gap, friction and density, turned into one builder shape. */
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "host/assets/mjcf_internal.h"

typedef struct geom_type_name {
    const char* name;
    int type; /* cc_shape_type, or -1 for types not supported */
} geom_type_name;

static const geom_type_name geom_types[] = {
    {"plane", CC_SHAPE_PLANE},         {"sphere", CC_SHAPE_SPHERE}, {"capsule", CC_SHAPE_CAPSULE},
    {"ellipsoid", CC_SHAPE_ELLIPSOID}, {"cylinder", CC_SHAPE_CYLINDER}, {"box", CC_SHAPE_BOX},
    {"mesh", CC_SHAPE_MESH},           {"hfield", CC_SHAPE_HEIGHTFIELD}, {"sdf", -1}, {NULL, 0}};

static cc_status negative_size(const mj_attr* a, double v)
{
    return mjcf_fail_at(CC_ERR_INVALID_SIZE, a->file, a->line, "<geom size=\"%.60s\">: negative size %g; sizes are radii and half lengths >= 0", a->value, v);
}

cc_status mjcf_read_geom(mj_loader* L, cc_xml_node* n, const mj_frame_ctx* ctx)
{
    const mj_class* c;
    cc_status s = mjcf_class_of(L, n, ctx->childclass, &c);
    if (s != CC_OK) return s;
    mj_attr a;
    int has_type = mjcf_get_attr(n, c, "geom", "type", &a);
    const char* type_name = has_type ? a.value : "sphere";
    int type = -2;
    for (const geom_type_name* t = geom_types; t->name; ++t)
        if (!strcmp(t->name, type_name)) type = t->type;
    if (type == -2)
        return mjcf_fail_at(CC_ERR_PARSE, a.file, a.line,
                       "<geom type=\"%.40s\">: unknown geom type; use plane, sphere, capsule, ellipsoid, cylinder, box, mesh or hfield",
                       type_name);
    if (type == -1)
        return mjcf_fail_at(CC_ERR_PARSE, n->file, n->line, "<geom type=\"%s\">: this geom type is not supported by cuContact", type_name);
    const char* name = cc_xml_attr_get(n, "name");

    /* Size: every value >= 0; what each type needs is checked below. */
    double size[3] = {0.0, 0.0, 0.0};
    int size_count = 0, has_size = mjcf_get_attr(n, c, "geom", "size", &a);
    mj_attr size_attr = a;
    if (has_size) {
        if ((s = mjcf_parse_numbers(&a, size, 0, 3, &size_count)) != CC_OK) return s;
        for (int i = 0; i < size_count; ++i)
            if (size[i] < 0.0) return negative_size(&a, size[i]);
    }
    mj_frame local;
    if ((s = mjcf_read_frame(L, n, c, "geom", &local)) != CC_OK) return s;
    double fromto[6];
    int has_fromto;
    if ((s = mjcf_read_vector(n, c, "geom", "fromto", fromto, 6, &has_fromto)) != CC_OK) return s;
    double half_length = 0.0;
    if (has_fromto) {
        if (type != CC_SHAPE_CAPSULE && type != CC_SHAPE_CYLINDER && type != CC_SHAPE_BOX && type != CC_SHAPE_ELLIPSOID)
            return mjcf_fail_at(CC_ERR_PARSE, n->file, n->line, "<geom type=\"%s\" fromto>: fromto applies to capsule, cylinder, box and ellipsoid geoms", type_name);
        double d[3] = {fromto[3] - fromto[0], fromto[4] - fromto[1], fromto[5] - fromto[2]};
        half_length = 0.5 * sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
        if (!mjcf_normalize3(d)) return mjcf_fail_at(CC_ERR_PARSE, n->file, n->line, "<geom fromto>: the two end points coincide");
        local.p[0] = 0.5 * (fromto[0] + fromto[3]);
        local.p[1] = 0.5 * (fromto[1] + fromto[4]);
        local.p[2] = 0.5 * (fromto[2] + fromto[5]);
        mjcf_quat_from_zaxis(d, local.q);
    }

    cc_shape_def def = cc_default_shape_def();
    mj_frame placed = mjcf_frame_mul(&ctx->to_anchor, &local);
    def.local = mjcf_to_transform(&placed);
    long long bits;
    def.collision_type_bits = def.collision_affinity_bits = 1u; /* MuJoCo's defaults */
    if (mjcf_get_attr(n, c, "geom", "contype", &a)) {
        if ((s = mjcf_parse_int(&a, INT32_MIN, UINT32_MAX, &bits)) != CC_OK) return s;
        def.collision_type_bits = (uint32_t)bits;
    }
    if (mjcf_get_attr(n, c, "geom", "conaffinity", &a)) {
        if ((s = mjcf_parse_int(&a, INT32_MIN, UINT32_MAX, &bits)) != CC_OK) return s;
        def.collision_affinity_bits = (uint32_t)bits;
    }
    double margin = 0.0, gap = 0.0;
    int found;
    if ((s = mjcf_read_vector(n, c, "geom", "margin", &margin, 1, &found)) != CC_OK) return s;
    if (found && margin < 0.0) return mjcf_fail_at(CC_ERR_PARSE, n->file, n->line, "<geom margin=\"%g\">: margin must be >= 0", margin);
    if ((s = mjcf_read_vector(n, c, "geom", "gap", &gap, 1, &found)) != CC_OK) return s;
    if (found && gap < 0.0) return mjcf_fail_at(CC_ERR_PARSE, n->file, n->line, "<geom gap=\"%g\">: gap must be >= 0", gap);
    if (L->opt.margin_semantics == CC_MJCF_MARGIN_MUJOCO4) {
        def.margin = (float)margin;
        def.gap = (float)gap;
    } else {
        if (gap > margin)
            mjcf_note(L, "gap > margin", CC_LOG_WARNING, n->file, n->line,
                      "geom gap %g exceeds its margin %g: under MuJoCo 3.4's rule the shape gets margin 0; "
                      "MuJoCo would need the surfaces to overlap by the difference",
                      gap, margin);
        def.margin = (float)(0.5 * fmax(0.0, margin - gap));
        def.gap = (float)(0.5 * gap);
    }
    if (mjcf_get_attr(n, c, "geom", "friction", &a)) {
        /* Sliding, torsional, rolling; missing ones keep MuJoCo's defaults,
         * which are the material defaults. */
        double f[3];
        int count = 0;
        if ((s = mjcf_parse_numbers(&a, f, 1, 3, &count)) != CC_OK) return s;
        for (int i = 0; i < count; ++i)
            if (f[i] < 0.0) return mjcf_fail_at(CC_ERR_PARSE, a.file, a.line, "<geom friction=\"%.60s\">: friction coefficients must be >= 0", a.value);
        def.material.mu = (float)f[0];
        def.compliant.coulomb_friction = (float)f[0];
        if (count > 1) def.material.mu_torsional = (float)f[1];
        if (count > 2) def.material.mu_rolling = (float)f[2];
    }
    double density = 1000.0;
    if ((s = mjcf_read_vector(n, c, "geom", "density", &density, 1, &found)) != CC_OK) return s;
    if (found && density < 0.0) return mjcf_fail_at(CC_ERR_PARSE, n->file, n->line, "<geom density=\"%g\">: density must be >= 0", density);
    def.density = (float)density;
    if (mjcf_get_attr(n, c, "geom", "group", &a)) {
        long long g;
        if ((s = mjcf_parse_int(&a, INT32_MIN, INT32_MAX, &g)) != CC_OK) return s;
        mjcf_note(L, "group", CC_LOG_INFO, a.file, a.line, "geom group is a visibility group in MuJoCo and does not change collisions; ignored");
    }
    mjcf_report_unknown_attrs(L, n, "geom", mjcf_geom_attrs);

    /* Static geometry: on the world (global or per world); else on the anchor body. */
    int is_static = ctx->anchor < 0;
    int where = is_static && L->opt.static_geoms_global ? IN_TARGET : IN_TEMPLATE;
    cc_builder* b = where == IN_TARGET ? L->target : L->templ;
    int body = ctx->anchor;
    if (where == IN_TARGET) def.world = CC_WORLD_GLOBAL;
    if (ctx->anchor >= 0 && L->templ->bodies[ctx->anchor].is_static) is_static = 1;

    const char* kind = type_name;
    int shape = -1;
    cc_vec3 sz;
    switch (type) {
    case CC_SHAPE_PLANE: {
        float hx = (float)size[0], hy = (float)size[1];
        if (!L->opt.finite_planes || !(hx > 0.0f && hy > 0.0f)) hx = hy = 0.0f;
        s = cc_builder_add_plane(b, body, hx, hy, &def, &shape);
        break;
    }
    case CC_SHAPE_SPHERE:
        if (!(size[0] > 0.0))
            return mjcf_fail_at(CC_ERR_INVALID_SIZE, has_size ? size_attr.file : n->file, has_size ? size_attr.line : n->line, "<geom type=\"sphere\">: size needs the radius > 0");
        s = cc_builder_add_sphere(b, body, (float)size[0], &def, &shape);
        break;
    case CC_SHAPE_CAPSULE:
    case CC_SHAPE_CYLINDER:
        if (!has_fromto) half_length = size[1];
        if (!(size[0] > 0.0) || (!has_fromto && size_count < 2) || (type == CC_SHAPE_CYLINDER && !(half_length > 0.0)))
            return mjcf_fail_at(CC_ERR_INVALID_SIZE, has_size ? size_attr.file : n->file, has_size ? size_attr.line : n->line,
                           "<geom type=\"%s\">: size needs the radius > 0 and the half length%s (or fromto and the radius)", kind,
                           type == CC_SHAPE_CYLINDER ? " > 0" : "");
        if (type == CC_SHAPE_CAPSULE) s = cc_builder_add_capsule(b, body, (float)size[0], (float)half_length, &def, &shape);
        else s = cc_builder_add_cylinder(b, body, (float)size[0], (float)half_length, &def, &shape);
        break;
    case CC_SHAPE_BOX:
    case CC_SHAPE_ELLIPSOID:
        if (has_fromto) size[2] = half_length;
        if (!(size[0] > 0.0 && size[1] > 0.0 && size[2] > 0.0) || (!has_fromto && size_count < 3))
            return mjcf_fail_at(CC_ERR_INVALID_SIZE, has_size ? size_attr.file : n->file, has_size ? size_attr.line : n->line,
                           "<geom type=\"%s\">: size needs three %s > 0 (or two and fromto)", kind,
                           type == CC_SHAPE_BOX ? "half lengths" : "radii");
        sz.x = (float)size[0], sz.y = (float)size[1], sz.z = (float)size[2];
        s = type == CC_SHAPE_BOX ? cc_builder_add_box(b, body, sz, &def, &shape) : cc_builder_add_ellipsoid(b, body, sz, &def, &shape);
        break;
    case CC_SHAPE_MESH: {
        const char* mesh_name = mjcf_get_attr(n, c, "geom", "mesh", &a) ? a.value : NULL;
        if (!mesh_name) return mjcf_fail_at(CC_ERR_PARSE, n->file, n->line, "<geom type=\"mesh\">: the mesh attribute is missing");
        mj_mesh_asset* m = NULL;
        for (int i = 0; i < L->mesh_count; ++i)
            if (!strcmp(L->meshes[i].name, mesh_name)) m = &L->meshes[i];
        if (!m) return mjcf_fail_at(CC_ERR_PARSE, a.file, a.line, "<geom mesh=\"%.80s\">: no mesh asset of that name", mesh_name);
        int as_hull = L->opt.mesh_mode == CC_MJCF_MESH_AS_CONVEX_HULL || m->mesh.triangle_count == 0;
        int index = -1;
        if ((s = mjcf_mesh_in(L, m, where, as_hull, n, &index)) != CC_OK) return s;
        cc_vec3 one = {1.0f, 1.0f, 1.0f};
        s = as_hull ? cc_builder_add_convex_hull(b, body, index, one, &def, &shape) : cc_builder_add_mesh(b, body, index, one, &def, &shape);
        break;
    }
    default: { /* hfield */
        const char* hname = mjcf_get_attr(n, c, "geom", "hfield", &a) ? a.value : NULL;
        if (!hname) return mjcf_fail_at(CC_ERR_PARSE, n->file, n->line, "<geom type=\"hfield\">: the hfield attribute is missing");
        mj_hfield_asset* h = NULL;
        for (int i = 0; i < L->hfield_count; ++i)
            if (!strcmp(L->hfields[i].name, hname)) h = &L->hfields[i];
        if (!h) return mjcf_fail_at(CC_ERR_PARSE, a.file, a.line, "<geom hfield=\"%.80s\">: no hfield asset of that name", hname);
        if (!is_static)
            return mjcf_fail_at(CC_ERR_UNSUPPORTED, n->file, n->line, "<geom type=\"hfield\">: the geom's body moves, but a heightfield is static geometry; put it in worldbody or a body without joints");
        if (h->size[3] > 0.0)
            mjcf_note(L, "hfield base", CC_LOG_INFO, h->file, h->line, "hfield base depth (size[3]) is not represented: the heightfield is its surface");
        int index = -1;
        if ((s = mjcf_hfield_in(L, h, where, n, &index)) != CC_OK) return s;
        sz.x = (float)h->size[0], sz.y = (float)h->size[1], sz.z = (float)h->size[2];
        s = cc_builder_add_heightfield(b, body, index, sz, &def, &shape);
        break;
    }
    }
    if (s != CC_OK) return mjcf_relabel(s, n);
    if (name && (s = cc_builder_set_shape_name(b, shape, name)) != CC_OK) return mjcf_relabel(s, n);
    return mjcf_remember_shape(L, ctx->body, where, shape);
}

