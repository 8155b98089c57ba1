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

#include "host/assets/asset_io.h"
#include "host/model/builder_internal.h"
#include "host/assets/mjcf_xml.h"

#define CC_DEF_COOKIE 0x63635f64
#define MAX_INCLUDE_DEPTH 16
#define MAX_NUMBERS 8
#define PI_D 3.14159265358979323846

cc_mjcf_options cc_default_mjcf_options(void)
{
    cc_mjcf_options o;
    o.worlds = 1;
    o.static_geoms_global = 1;
    o.asset_dir = NULL;
    o.mesh_mode = CC_MJCF_MESH_AS_MESH;
    o.hull_max_vertices = 64;
    o.finite_planes = 0;
    o.cookie = CC_DEF_COOKIE;
    return o;
}

/* ---- frames in double precision -------------------------------------------
 * Quaternions are (w, x, y, z) here, MJCF's order; frames are a position
 * and a quaternion, rotate then translate. */

typedef struct frame {
    double p[3];
    double q[4];
} frame;

static frame frame_identity(void)
{
    frame f = {{0.0, 0.0, 0.0}, {1.0, 0.0, 0.0, 0.0}};
    return f;
}

static void quat_mul(const double a[4], const double b[4], double out[4])
{
    double r[4] = {a[0] * b[0] - a[1] * b[1] - a[2] * b[2] - a[3] * b[3],
                   a[0] * b[1] + a[1] * b[0] + a[2] * b[3] - a[3] * b[2],
                   a[0] * b[2] - a[1] * b[3] + a[2] * b[0] + a[3] * b[1],
                   a[0] * b[3] + a[1] * b[2] - a[2] * b[1] + a[3] * b[0]};
    memcpy(out, r, sizeof r);
}

static void quat_rotate(const double q[4], const double v[3], double out[3])
{
    /* v + 2 w (u x v) + 2 u x (u x v), u the vector part. */
    double u[3] = {q[1], q[2], q[3]};
    double t[3] = {2.0 * (u[1] * v[2] - u[2] * v[1]), 2.0 * (u[2] * v[0] - u[0] * v[2]), 2.0 * (u[0] * v[1] - u[1] * v[0])};
    double r[3] = {v[0] + q[0] * t[0] + (u[1] * t[2] - u[2] * t[1]), v[1] + q[0] * t[1] + (u[2] * t[0] - u[0] * t[2]),
                   v[2] + q[0] * t[2] + (u[0] * t[1] - u[1] * t[0])};
    memcpy(out, r, sizeof r);
}

static int quat_normalize(double q[4])
{
    double n = sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
    if (!(n > 1e-12)) return 0;
    for (int i = 0; i < 4; ++i) q[i] /= n;
    return 1;
}

static frame frame_mul(const frame* a, const frame* b)
{
    frame r;
    double t[3];
    quat_rotate(a->q, b->p, t);
    for (int i = 0; i < 3; ++i) r.p[i] = a->p[i] + t[i];
    quat_mul(a->q, b->q, r.q);
    quat_normalize(r.q);
    return r;
}

static void quat_axis_angle(const double axis[3], double angle, double q[4])
{
    double s = sin(0.5 * angle);
    q[0] = cos(0.5 * angle);
    q[1] = axis[0] * s;
    q[2] = axis[1] * s;
    q[3] = axis[2] * s;
}

/* Rotation matrix with columns x, y, z (orthonormal) to a quaternion. */
static void quat_from_axes(const double x[3], const double y[3], const double z[3], double q[4])
{
    double m00 = x[0], m11 = y[1], m22 = z[2];
    double tr = m00 + m11 + m22;
    if (tr > 0.0) {
        double s = 2.0 * sqrt(tr + 1.0);
        q[0] = 0.25 * s;
        q[1] = (y[2] - z[1]) / s;
        q[2] = (z[0] - x[2]) / s;
        q[3] = (x[1] - y[0]) / s;
    } else if (m00 > m11 && m00 > m22) {
        double s = 2.0 * sqrt(1.0 + m00 - m11 - m22);
        q[0] = (y[2] - z[1]) / s;
        q[1] = 0.25 * s;
        q[2] = (y[0] + x[1]) / s;
        q[3] = (z[0] + x[2]) / s;
    } else if (m11 > m22) {
        double s = 2.0 * sqrt(1.0 + m11 - m00 - m22);
        q[0] = (z[0] - x[2]) / s;
        q[1] = (y[0] + x[1]) / s;
        q[2] = 0.25 * s;
        q[3] = (z[1] + y[2]) / s;
    } else {
        double s = 2.0 * sqrt(1.0 + m22 - m00 - m11);
        q[0] = (x[1] - y[0]) / s;
        q[1] = (z[0] + x[2]) / s;
        q[2] = (z[1] + y[2]) / s;
        q[3] = 0.25 * s;
    }
    quat_normalize(q);
}

/* The shortest rotation taking +z to the unit vector z. */
static void quat_from_zaxis(const double z[3], double q[4])
{
    /* Half-way vector between +z and z: q = (1 + z.z, (0,0,1) x z), normalised. */
    double w = 1.0 + z[2];
    if (w < 1e-12) { /* z points down: half a turn about x */
        q[0] = 0.0, q[1] = 1.0, q[2] = 0.0, q[3] = 0.0;
        return;
    }
    q[0] = w;
    q[1] = -z[1];
    q[2] = z[0];
    q[3] = 0.0;
    quat_normalize(q);
}

static int normalize3(double v[3])
{
    double n = sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
    if (!(n > 1e-12)) return 0;
    v[0] /= n, v[1] /= n, v[2] /= n;
    return 1;
}

static cc_transform to_transform(const frame* f)
{
    cc_transform t;
    t.p.x = (float)f->p[0], t.p.y = (float)f->p[1], t.p.z = (float)f->p[2];
    t.q.x = (float)f->q[1], t.q.y = (float)f->q[2], t.q.z = (float)f->q[3], t.q.w = (float)f->q[0];
    return t;
}

/* ---- loader state ----------------------------------------------------------- */

/* An attribute of a default class: the element kind it applies to. */
typedef struct default_attr {
    const char* kind;
    const char* name;
    const char* value;
    const char* file;
    int line;
} default_attr;

typedef struct mj_class {
    const char* name;
    default_attr* attrs; /* merged with the ancestors' */
    int count, capacity;
} mj_class;

/* Which builder a geom or asset lives in. */
enum { IN_TEMPLATE = 0, IN_TARGET = 1 };

typedef struct mesh_asset {
    const char* name;
    const char* file;
    int line;
    cc_tri_mesh mesh; /* scaled; triangle_count 0 for a vertex-only mesh */
    int mesh_index[2], hull_index[2];
} mesh_asset;

typedef struct hfield_asset {
    const char* name;
    const char* file;
    int line;
    float* samples; /* normalised to [0, 1] */
    int rows, cols;
    double size[4];
    int index[2];
} hfield_asset;

typedef struct shape_ref {
    int where; /* IN_TEMPLATE or IN_TARGET */
    int index;
} shape_ref;

typedef struct mj_body {
    const char* name;
    shape_ref* shapes;
    int count, capacity;
} mj_body;

typedef struct loader {
    cc_builder* target;
    cc_builder* templ;
    cc_mjcf_options opt;
    cc_xml_arena arena;
    const char* base_dir; /* "" for the working directory */
    int degrees;
    char eulerseq[4];
    const char* meshdir;
    const char* assetdir;
    mj_class** classes;
    int class_count, class_capacity;
    mesh_asset* meshes;
    int mesh_count, mesh_capacity;
    hfield_asset* hfields;
    int hfield_count, hfield_capacity;
    mj_body* bodies;
    int body_count, body_capacity;
    shape_ref* late_filters; /* pairs (global, template) to filter after replication */
    int late_count, late_capacity;
    char** reported;
    int reported_count, reported_capacity;
} loader;

/* Where the geoms of the current element go. */
typedef struct frame_ctx {
    frame to_anchor;      /* this frame in the anchor's frame */
    int anchor;           /* template body the geoms hang on, or -1 for the world */
    frame anchor_pose;    /* world pose of the anchor */
    const mj_class* childclass;
    int body;             /* index into loader.bodies */
} frame_ctx;

static cc_status oom(void) { return cc_fail(CC_ERR_OUT_OF_MEMORY, "cc_builder_load_mjcf: out of host memory"); }

/* Fails with "file:line: message". */
static cc_status fail_at(cc_status s, const char* file, int line, const char* format, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;
static cc_status fail_at(cc_status s, const char* file, int line, const char* format, ...)
{
    char msg[400];
    va_list args;
    va_start(args, format);
    vsnprintf(msg, sizeof msg, format, args);
    va_end(args);
    return cc_fail(s, "%s:%d: %s", file, line, msg);
}

/* Re-labels a builder failure with the element that caused it. */
static cc_status relabel(cc_status s, const cc_xml_node* n)
{
    char msg[512];
    snprintf(msg, sizeof msg, "%s", cc_last_error_message());
    return fail_at(s, n->file, n->line, "<%s>: %s", n->name, msg);
}

/* Logs `message` once per `key`. */
static void report_once(loader* L, const char* key, cc_log_level level, const char* format, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;
static void report_once(loader* L, const char* key, cc_log_level level, const char* format, ...)
{
    for (int i = 0; i < L->reported_count; ++i)
        if (!strcmp(L->reported[i], key)) return;
    const char* copy = cc_xml_arena_strdup(&L->arena, key);
    if (copy && cc_reserve((void**)&L->reported, &L->reported_capacity, L->reported_count + 1, sizeof(char*)))
        L->reported[L->reported_count++] = (char*)copy;
    char msg[480];
    va_list args;
    va_start(args, format);
    vsnprintf(msg, sizeof msg, format, args);
    va_end(args);
    cc_log(level, "mjcf: %s", msg);
}

static void report_element(loader* L, const cc_xml_node* n, const char* why)
{
    char key[160];
    snprintf(key, sizeof key, "<%s>", n->name);
    report_once(L, key, CC_LOG_WARNING, "<%s> (first at %s:%d) is %s; skipped", n->name, n->file, n->line, why);
}

static int in_list(const char* name, const char* const* list)
{
    for (; *list; ++list)
        if (!strcmp(name, *list)) return 1;
    return 0;
}

/* Reports attributes of `n` that are not in `known`, once per name. */
static void report_unknown_attrs(loader* L, const cc_xml_node* n, const char* kind, const char* const* known)
{
    for (int i = 0; i < n->attr_count; ++i) {
        if (in_list(n->attrs[i].name, known)) continue;
        char key[200];
        snprintf(key, sizeof key, "<%s %s>", kind, n->attrs[i].name);
        report_once(L, key, CC_LOG_WARNING, "attribute '%s' of <%s> (first at %s:%d) is not used by cuContact; ignored",
                    n->attrs[i].name, kind, n->file, n->line);
    }
}

/* ---- attribute values ---------------------------------------------------------- */

typedef struct attr_value {
    const char* value;
    const char* file;
    int line;
    const char* kind;
    const char* name;
} attr_value;

/* The element's own attribute, else its class default. */
static int get_attr(cc_xml_node* n, const mj_class* c, const char* kind, const char* name, attr_value* out)
{
    const char* v = cc_xml_attr_get(n, name);
    if (v) {
        out->value = v, out->file = n->file, out->line = n->line;
    } else {
        if (!c) return 0;
        int i;
        for (i = c->count - 1; i >= 0; --i)
            if (!strcmp(c->attrs[i].kind, kind) && !strcmp(c->attrs[i].name, name)) break;
        if (i < 0) return 0;
        out->value = c->attrs[i].value, out->file = c->attrs[i].file, out->line = c->attrs[i].line;
    }
    out->kind = kind;
    out->name = name;
    return 1;
}

/* Parses between min_count and max_count numbers (max_count <= MAX_NUMBERS). */
static cc_status parse_numbers(const attr_value* a, double* out, int min_count, int max_count, int* count)
{
    const char* p = a->value;
    int n = 0;
    for (;;) {
        while (isspace((unsigned char)*p)) p++;
        if (!*p) break;
        char* end;
        double v = strtod(p, &end);
        if (end == p || (*end && !isspace((unsigned char)*end)) || !isfinite(v)) {
            int len = 0;
            while (p[len] && !isspace((unsigned char)p[len]) && len < 40) len++;
            return fail_at(CC_ERR_PARSE, a->file, a->line, "<%s %s=\"%.60s\">: '%.*s' is not a finite number", a->kind,
                           a->name, a->value, len, p);
        }
        if (n == max_count)
            return fail_at(CC_ERR_PARSE, a->file, a->line, "<%s %s=\"%.60s\">: too many numbers; expected %s%d", a->kind,
                           a->name, a->value, min_count == max_count ? "" : "at most ", max_count);
        out[n++] = v;
        p = end;
    }
    if (n < min_count)
        return fail_at(CC_ERR_PARSE, a->file, a->line, "<%s %s=\"%.60s\">: expected %s%d numbers, found %d", a->kind,
                       a->name, a->value, min_count == max_count ? "" : "at least ", min_count, n);
    if (count) *count = n;
    return CC_OK;
}

/* Reads `name` as `count` numbers if present; *found tells whether it was. */
static cc_status read_vector(cc_xml_node* n, const mj_class* c, const char* kind, const char* name, double* out,
                             int count, int* found)
{
    attr_value a;
    *found = get_attr(n, c, kind, name, &a);
    return *found ? parse_numbers(&a, out, count, count, NULL) : CC_OK;
}

static cc_status parse_int(const attr_value* a, long long lo, long long hi, long long* out)
{
    const char* p = a->value;
    while (isspace((unsigned char)*p)) p++;
    char* end;
    long long v = strtoll(p, &end, 10);
    while (isspace((unsigned char)*end)) end++;
    if (end == p || *end)
        return fail_at(CC_ERR_PARSE, a->file, a->line, "<%s %s=\"%.60s\">: not an integer", a->kind, a->name, a->value);
    if (v < lo || v > hi)
        return fail_at(CC_ERR_PARSE, a->file, a->line, "<%s %s=\"%.60s\">: %lld is outside %lld..%lld", a->kind, a->name,
                       a->value, v, lo, hi);
    *out = v;
    return CC_OK;
}

static int parse_bool(const char* v) { return !strcmp(v, "true"); }

/* ---- orientation ----------------------------------------------------------------- */

static const char* const orientation_attrs[] = {"quat", "axisangle", "euler", "xyaxes", "zaxis", NULL};

static cc_status orientation_from(loader* L, const attr_value* a, double q[4])
{
    double v[MAX_NUMBERS];
    cc_status s;
    double scale = L->degrees ? PI_D / 180.0 : 1.0;
    if (!strcmp(a->name, "quat")) {
        if ((s = parse_numbers(a, v, 4, 4, NULL)) != CC_OK) return s;
        memcpy(q, v, 4 * sizeof(double));
        if (!quat_normalize(q))
            return fail_at(CC_ERR_PARSE, a->file, a->line, "<%s quat=\"%.60s\">: a zero quaternion is no rotation; use 1 0 0 0", a->kind, a->value);
    } else if (!strcmp(a->name, "axisangle")) {
        if ((s = parse_numbers(a, v, 4, 4, NULL)) != CC_OK) return s;
        if (!normalize3(v))
            return fail_at(CC_ERR_PARSE, a->file, a->line, "<%s axisangle=\"%.60s\">: the axis has zero length", a->kind, a->value);
        quat_axis_angle(v, v[3] * scale, q);
    } else if (!strcmp(a->name, "euler")) {
        if ((s = parse_numbers(a, v, 3, 3, NULL)) != CC_OK) return s;
        /* Lower-case axes rotate with the frame (intrinsic: multiply on the
         * right), upper-case ones stay in the parent (extrinsic: on the left). */
        q[0] = 1.0, q[1] = q[2] = q[3] = 0.0;
        for (int i = 0; i < 3; ++i) {
            char ch = L->eulerseq[i];
            double axis[3] = {0.0, 0.0, 0.0};
            axis[tolower((unsigned char)ch) - 'x'] = 1.0;
            double r[4];
            quat_axis_angle(axis, v[i] * scale, r);
            if (islower((unsigned char)ch)) quat_mul(q, r, q);
            else quat_mul(r, q, q);
        }
        quat_normalize(q);
    } else if (!strcmp(a->name, "xyaxes")) {
        if ((s = parse_numbers(a, v, 6, 6, NULL)) != CC_OK) return s;
        double x[3] = {v[0], v[1], v[2]}, y[3] = {v[3], v[4], v[5]}, z[3];
        if (!normalize3(x))
            return fail_at(CC_ERR_PARSE, a->file, a->line, "<%s xyaxes=\"%.60s\">: the x axis has zero length", a->kind, a->value);
        double d = x[0] * y[0] + x[1] * y[1] + x[2] * y[2];
        for (int i = 0; i < 3; ++i) y[i] -= d * x[i];
        if (!normalize3(y))
            return fail_at(CC_ERR_PARSE, a->file, a->line, "<%s xyaxes=\"%.60s\">: the y axis is parallel to the x axis", a->kind, a->value);
        z[0] = x[1] * y[2] - x[2] * y[1], z[1] = x[2] * y[0] - x[0] * y[2], z[2] = x[0] * y[1] - x[1] * y[0];
        quat_from_axes(x, y, z, q);
    } else {
        if ((s = parse_numbers(a, v, 3, 3, NULL)) != CC_OK) return s;
        if (!normalize3(v))
            return fail_at(CC_ERR_PARSE, a->file, a->line, "<%s zaxis=\"%.60s\">: the axis has zero length", a->kind, a->value);
        quat_from_zaxis(v, q);
    }
    return CC_OK;
}

/* The element's frame from pos and at most one orientation attribute (its
 * own, else its class's). */
static cc_status read_frame(loader* L, cc_xml_node* n, const mj_class* c, const char* kind, frame* out)
{
    *out = frame_identity();
    int found;
    cc_status s = read_vector(n, c, kind, "pos", out->p, 3, &found);
    if (s != CC_OK) return s;
    const char* first = NULL;
    attr_value a, chosen;
    for (const char* const* o = orientation_attrs; *o; ++o) {
        const char* v = cc_xml_attr_get(n, *o);
        if (!v) continue;
        if (first)
            return fail_at(CC_ERR_PARSE, n->file, n->line, "<%s>: both '%s' and '%s' give an orientation; keep one", kind, first, *o);
        first = *o;
        chosen.value = v, chosen.file = n->file, chosen.line = n->line, chosen.kind = kind, chosen.name = *o;
    }
    if (!first && c) /* the class's orientation; the last one set wins */
        for (int i = c->count - 1; i >= 0 && !first; --i)
            if (!strcmp(c->attrs[i].kind, kind) && in_list(c->attrs[i].name, orientation_attrs) && get_attr(n, c, kind, c->attrs[i].name, &a)) {
                first = a.name;
                chosen = a;
            }
    return first ? orientation_from(L, &chosen, out->q) : CC_OK;
}

/* ---- default classes -------------------------------------------------------------- */

static const char* const geom_attrs[] = {"name", "class", "type", "size", "pos", "quat", "axisangle", "euler", "xyaxes",
                                         "zaxis", "fromto", "mesh", "hfield", "contype", "conaffinity", "group",
                                         "friction", "margin", "gap", "density", NULL};
static const char* const joint_attrs[] = {"name", "class", "type", NULL};
static const char* const mesh_attrs[] = {"name", "class", "file", "scale", "vertex", "face", NULL};
static const char* const hfield_attrs[] = {"name", "file", "nrow", "ncol", "elevation", "size", NULL};
static const char* const body_attrs[] = {"name", "pos", "quat", "axisangle", "euler", "xyaxes", "zaxis", "childclass", "mocap", NULL};
static const char* const frame_attrs[] = {"name", "pos", "quat", "axisangle", "euler", "xyaxes", "zaxis", "childclass", NULL};
static const char* const compiler_attrs[] = {"angle", "eulerseq", "meshdir", "assetdir", "coordinate", NULL};

static const mj_class* find_class(const loader* L, const char* name)
{
    for (int i = 0; i < L->class_count; ++i)
        if (!strcmp(L->classes[i]->name, name)) return L->classes[i];
    return NULL;
}

static cc_status push_default(mj_class* c, const char* kind, const cc_xml_attr* a, const cc_xml_node* n)
{
    if (!cc_reserve((void**)&c->attrs, &c->capacity, c->count + 1, sizeof *c->attrs)) return oom();
    default_attr* d = &c->attrs[c->count++];
    d->kind = kind;
    d->name = a->name;
    d->value = a->value;
    d->file = n->file;
    d->line = n->line;
    return CC_OK;
}

/* One <default> element and its nested classes; `parent` is NULL for the top. */
static cc_status read_default(loader* L, cc_xml_node* n, const mj_class* parent)
{
    const char* name = cc_xml_attr_get(n, "class");
    if (!name) name = parent ? NULL : "main";
    if (!name) return fail_at(CC_ERR_PARSE, n->file, n->line, "<default>: a nested default needs a class name");
    if (find_class(L, name)) return fail_at(CC_ERR_PARSE, n->file, n->line, "<default class=\"%s\">: the class is defined twice", name);
    report_unknown_attrs(L, n, "default", (const char* const[]){"class", NULL});
    mj_class* c = (mj_class*)cc_host_calloc(1, sizeof *c);
    if (!c || !cc_reserve((void**)&L->classes, &L->class_capacity, L->class_count + 1, sizeof *L->classes)) {
        cc_host_free(c);
        return oom();
    }
    L->classes[L->class_count++] = c;
    c->name = name;
    if (parent)
        for (int i = 0; i < parent->count; ++i) {
            if (!cc_reserve((void**)&c->attrs, &c->capacity, c->count + 1, sizeof *c->attrs)) return oom();
            c->attrs[c->count++] = parent->attrs[i];
        }
    for (cc_xml_node* ch = n->first_child; ch; ch = ch->next) {
        const char* const* known = NULL;
        if (!strcmp(ch->name, "geom")) known = geom_attrs;
        else if (!strcmp(ch->name, "joint")) known = joint_attrs;
        else if (!strcmp(ch->name, "mesh")) known = mesh_attrs;
        else if (!strcmp(ch->name, "default")) continue;
        if (!known) {
            char key[160];
            snprintf(key, sizeof key, "<default><%s>", ch->name);
            report_once(L, key, CC_LOG_WARNING, "<%s> defaults (first at %s:%d) are not used by cuContact; skipped", ch->name, ch->file, ch->line);
            continue;
        }
        for (int i = 0; i < ch->attr_count; ++i) {
            if (!strcmp(ch->attrs[i].name, "name") || !strcmp(ch->attrs[i].name, "class")) continue;
            if (!in_list(ch->attrs[i].name, known)) continue;
            /* A new orientation replaces the inherited one of any form. */
            if (in_list(ch->attrs[i].name, orientation_attrs))
                for (int k = 0; k < c->count; ++k)
                    if (!strcmp(c->attrs[k].kind, ch->name) && in_list(c->attrs[k].name, orientation_attrs))
                        c->attrs[k].kind = "";
            cc_status s = push_default(c, ch->name, &ch->attrs[i], ch);
            if (s != CC_OK) return s;
        }
        report_unknown_attrs(L, ch, ch->name, known);
    }
    for (cc_xml_node* ch = n->first_child; ch; ch = ch->next)
        if (!strcmp(ch->name, "default")) {
            cc_status s = read_default(L, ch, c);
            if (s != CC_OK) return s;
        }
    return CC_OK;
}

/* The class of an element: its `class`, else the enclosing childclass, else main. */
static cc_status class_of(const loader* L, cc_xml_node* n, const mj_class* childclass, const mj_class** out)
{
    const char* name = cc_xml_attr_get(n, "class");
    if (name) {
        *out = find_class(L, name);
        if (!*out) return fail_at(CC_ERR_PARSE, n->file, n->line, "<%s class=\"%s\">: no default class of that name", n->name, name);
        return CC_OK;
    }
    *out = childclass ? childclass : find_class(L, "main");
    return CC_OK;
}

/* ---- compiler -------------------------------------------------------------------- */

static cc_status read_compiler(loader* L, cc_xml_node* n)
{
    const char* v;
    if ((v = cc_xml_attr_get(n, "angle"))) {
        if (!strcmp(v, "degree")) L->degrees = 1;
        else if (!strcmp(v, "radian")) L->degrees = 0;
        else return fail_at(CC_ERR_PARSE, n->file, n->line, "<compiler angle=\"%.40s\">: use degree or radian", v);
    }
    if ((v = cc_xml_attr_get(n, "eulerseq"))) {
        int ok = strlen(v) == 3;
        for (int i = 0; ok && i < 3; ++i) ok = strchr("xyzXYZ", v[i]) != NULL;
        if (!ok)
            return fail_at(CC_ERR_PARSE, n->file, n->line,
                           "<compiler eulerseq=\"%.40s\">: invalid euler sequence; give three of x, y, z (axes that rotate "
                           "with the frame) or X, Y, Z (fixed axes), e.g. xyz",
                           v);
        memcpy(L->eulerseq, v, 4);
    }
    if ((v = cc_xml_attr_get(n, "meshdir"))) L->meshdir = v;
    if ((v = cc_xml_attr_get(n, "assetdir"))) L->assetdir = v;
    if ((v = cc_xml_attr_get(n, "coordinate")) && strcmp(v, "local"))
        return fail_at(CC_ERR_PARSE, n->file, n->line, "<compiler coordinate=\"%.40s\">: only local coordinates are supported (as in MuJoCo 2.3 and later)", v);
    report_unknown_attrs(L, n, "compiler", compiler_attrs);
    return CC_OK;
}

/* ---- paths and assets --------------------------------------------------------------- */

static int is_absolute(const char* p) { return p[0] == '/'; }

/* dir/file in the arena (file unchanged when absolute or dir empty). */
static const char* join_path(loader* L, const char* dir, const char* file)
{
    if (is_absolute(file) || !dir || !*dir) return file;
    size_t n = strlen(dir) + strlen(file) + 2;
    char* p = (char*)cc_xml_arena_alloc(&L->arena, n);
    if (p) snprintf(p, n, "%s%s%s", dir, dir[strlen(dir) - 1] == '/' ? "" : "/", file);
    return p;
}

/* Directory of mesh and heightfield files. */
static const char* asset_directory(loader* L)
{
    if (L->opt.asset_dir) return L->opt.asset_dir;
    const char* d = L->meshdir ? L->meshdir : L->assetdir;
    if (!d) return L->base_dir;
    return join_path(L, L->base_dir, d);
}

static const char* file_stem(loader* L, const char* path)
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

/* Reads a whitespace-separated list of vertex indices (integers) or
 * finite numbers, into cc_host_alloc'd ints or floats. */
static cc_status parse_list(const attr_value* a, int integers, void** out, int* count)
{
    int cap = 0, n = 0;
    char* list = NULL;
    size_t size = integers ? sizeof(int) : sizeof(float);
    const char* p = a->value;
    for (;;) {
        while (isspace((unsigned char)*p)) p++;
        if (!*p) break;
        char* end;
        long iv = 0;
        double fv = 0.0;
        int ok;
        if (integers) {
            iv = strtol(p, &end, 10);
            ok = iv >= 0 && iv <= INT32_MAX / 4;
        } else {
            fv = strtod(p, &end);
            ok = isfinite(fv);
        }
        if (end == p || (*end && !isspace((unsigned char)*end)) || !ok) {
            cc_host_free(list);
            return fail_at(CC_ERR_PARSE, a->file, a->line, "<%s %s>: '%.20s' is not %s", a->kind, a->name, p,
                           integers ? "a vertex index" : "a finite number");
        }
        if (!cc_reserve((void**)&list, &cap, n + 1, size)) {
            cc_host_free(list);
            return oom();
        }
        if (integers) ((int*)list)[n++] = (int)iv;
        else ((float*)list)[n++] = (float)fv;
        p = end;
    }
    *out = list;
    *count = n;
    return CC_OK;
}

static cc_status parse_int_list(const attr_value* a, int** out, int* count)
{
    return parse_list(a, 1, (void**)out, count);
}

static cc_status parse_float_list(const attr_value* a, float** out, int* count)
{
    return parse_list(a, 0, (void**)out, count);
}

static cc_status read_mesh_asset(loader* L, cc_xml_node* n)
{
    const mj_class* c;
    cc_status s = class_of(L, n, NULL, &c);
    if (s != CC_OK) return s;
    attr_value file, vertex, face, name_attr;
    int has_file = get_attr(n, c, "mesh", "file", &file);
    int has_vertex = get_attr(n, c, "mesh", "vertex", &vertex);
    int has_face = get_attr(n, c, "mesh", "face", &face);
    const char* name = get_attr(n, NULL, "mesh", "name", &name_attr) ? name_attr.value : NULL;
    if (!name && has_file) name = file_stem(L, file.value);
    if (!name) return fail_at(CC_ERR_PARSE, n->file, n->line, "<mesh>: give a name or a file");
    if (has_file == has_vertex)
        return fail_at(CC_ERR_PARSE, n->file, n->line, "<mesh name=\"%s\">: give either file or vertex (and face)", name);
    for (int i = 0; i < L->mesh_count; ++i)
        if (!strcmp(L->meshes[i].name, name)) return fail_at(CC_ERR_PARSE, n->file, n->line, "<mesh name=\"%s\">: a mesh of that name already exists", name);
    double scale[3] = {1.0, 1.0, 1.0};
    int found;
    if ((s = read_vector(n, c, "mesh", "scale", scale, 3, &found)) != CC_OK) return s;
    if (scale[0] == 0.0 || scale[1] == 0.0 || scale[2] == 0.0)
        return fail_at(CC_ERR_INVALID_SIZE, n->file, n->line, "<mesh name=\"%s\">: a zero scale flattens the mesh", name);
    report_unknown_attrs(L, n, "mesh", mesh_attrs);

    mesh_asset a;
    memset(&a, 0, sizeof a);
    a.name = name;
    a.file = n->file;
    a.line = n->line;
    for (int k = 0; k < 2; ++k) a.mesh_index[k] = a.hull_index[k] = -1;
    char from[512];
    snprintf(from, sizeof from, "%s:%d: <mesh name=\"%s\">", n->file, n->line, name);
    if (has_file) {
        const char* path = join_path(L, asset_directory(L), file.value);
        if (!path) return oom();
        if (ends_with_ci(path, ".stl")) s = cc_load_stl(path, from, &a.mesh);
        else if (ends_with_ci(path, ".obj")) s = cc_load_obj(path, from, &a.mesh);
        else return fail_at(CC_ERR_PARSE, n->file, n->line, "<mesh file=\"%.200s\">: unsupported mesh format; use STL or OBJ", file.value);
        if (s != CC_OK) return s;
    } else {
        float* v = NULL;
        int vn = 0;
        if ((s = parse_float_list(&vertex, &v, &vn)) != CC_OK) return s;
        if (vn < 9 || vn % 3) {
            cc_host_free(v);
            return fail_at(CC_ERR_PARSE, vertex.file, vertex.line, "<mesh name=\"%s\">: vertex holds %d numbers; give x y z per vertex, at least 3 vertices", name, vn);
        }
        a.mesh.vertices = (cc_vec3*)cc_host_alloc(sizeof(cc_vec3) * (size_t)(vn / 3));
        if (!a.mesh.vertices) {
            cc_host_free(v);
            return oom();
        }
        for (int i = 0; i < vn / 3; ++i) a.mesh.vertices[i] = (cc_vec3){v[3 * i], v[3 * i + 1], v[3 * i + 2]};
        a.mesh.vertex_count = vn / 3;
        cc_host_free(v);
        if (has_face) {
            int fn = 0;
            if ((s = parse_int_list(&face, &a.mesh.triangles, &fn)) != CC_OK) {
                cc_tri_mesh_free(&a.mesh);
                return s;
            }
            if (fn < 3 || fn % 3) {
                cc_tri_mesh_free(&a.mesh);
                return fail_at(CC_ERR_PARSE, face.file, face.line, "<mesh name=\"%s\">: face holds %d indices; give 3 per triangle", name, fn);
            }
            for (int i = 0; i < fn; ++i)
                if (a.mesh.triangles[i] >= a.mesh.vertex_count) {
                    int bad = a.mesh.triangles[i];
                    cc_tri_mesh_free(&a.mesh);
                    return fail_at(CC_ERR_PARSE, face.file, face.line, "<mesh name=\"%s\">: face uses vertex %d of %d", name, bad, a.mesh.vertex_count);
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
        return oom();
    }
    L->meshes[L->mesh_count++] = a;
    return CC_OK;
}

static cc_status read_hfield_asset(loader* L, cc_xml_node* n)
{
    attr_value a;
    cc_status s;
    const char* name = cc_xml_attr_get(n, "name");
    const char* file = cc_xml_attr_get(n, "file");
    if (!name && file) name = file_stem(L, file);
    if (!name) return fail_at(CC_ERR_PARSE, n->file, n->line, "<hfield>: give a name or a file");
    for (int i = 0; i < L->hfield_count; ++i)
        if (!strcmp(L->hfields[i].name, name)) return fail_at(CC_ERR_PARSE, n->file, n->line, "<hfield name=\"%s\">: a heightfield of that name already exists", name);
    hfield_asset h;
    memset(&h, 0, sizeof h);
    h.name = name;
    h.file = n->file;
    h.line = n->line;
    h.index[0] = h.index[1] = -1;
    if (!get_attr(n, NULL, "hfield", "size", &a))
        return fail_at(CC_ERR_INVALID_SIZE, n->file, n->line, "<hfield name=\"%s\">: size is missing; give radius x, radius y, elevation z and base z", name);
    if ((s = parse_numbers(&a, h.size, 4, 4, NULL)) != CC_OK) return s;
    if (h.size[0] < 0.0 || h.size[1] < 0.0 || h.size[2] < 0.0 || h.size[3] < 0.0)
        return fail_at(CC_ERR_INVALID_SIZE, n->file, n->line, "<hfield name=\"%s\" size=\"%.60s\">: negative size", name, a.value);
    if (!(h.size[0] > 0.0 && h.size[1] > 0.0 && h.size[2] > 0.0))
        return fail_at(CC_ERR_INVALID_SIZE, n->file, n->line, "<hfield name=\"%s\" size=\"%.60s\">: radius x, radius y and elevation must be > 0", name, a.value);
    long long rows = 0, cols = 0;
    if (get_attr(n, NULL, "hfield", "nrow", &a) && (s = parse_int(&a, 0, 1 << 16, &rows)) != CC_OK) return s;
    if (get_attr(n, NULL, "hfield", "ncol", &a) && (s = parse_int(&a, 0, 1 << 16, &cols)) != CC_OK) return s;
    report_unknown_attrs(L, n, "hfield", hfield_attrs);
    char from[512];
    snprintf(from, sizeof from, "%s:%d: <hfield name=\"%s\">", n->file, n->line, name);
    if (file) {
        if (rows || cols) return fail_at(CC_ERR_PARSE, n->file, n->line, "<hfield name=\"%s\">: give either file or nrow/ncol", name);
        if (!ends_with_ci(file, ".png"))
            return fail_at(CC_ERR_PARSE, n->file, n->line, "<hfield file=\"%.200s\">: unsupported heightfield format; use PNG", file);
        const char* path = join_path(L, asset_directory(L), file);
        if (!path) return oom();
        unsigned char* px;
        int w, ht;
        if ((s = cc_load_png_gray(path, from, &w, &ht, &px)) != CC_OK) return s;
        h.rows = ht;
        h.cols = w;
        h.samples = (float*)cc_host_alloc(sizeof(float) * (size_t)w * (size_t)ht);
        if (!h.samples) {
            cc_host_free(px);
            return oom();
        }
        /* The image's top row is the far (+y) edge. */
        for (int r = 0; r < ht; ++r)
            for (int c = 0; c < w; ++c) h.samples[(size_t)r * w + c] = px[(size_t)(ht - 1 - r) * w + c];
        cc_host_free(px);
    } else {
        if (rows < 2 || cols < 2)
            return fail_at(CC_ERR_PARSE, n->file, n->line, "<hfield name=\"%s\">: give a PNG file, or nrow and ncol of at least 2", name);
        h.rows = (int)rows;
        h.cols = (int)cols;
        if (get_attr(n, NULL, "hfield", "elevation", &a)) {
            int count = 0;
            if ((s = parse_float_list(&a, &h.samples, &count)) != CC_OK) return s;
            if (count != h.rows * h.cols) {
                cc_host_free(h.samples);
                return fail_at(CC_ERR_PARSE, n->file, n->line, "<hfield name=\"%s\">: elevation holds %d values; nrow x ncol is %d", name, count, h.rows * h.cols);
            }
        } else {
            h.samples = (float*)cc_host_calloc((size_t)h.rows * (size_t)h.cols, sizeof(float));
            if (!h.samples) return oom();
        }
    }
    /* Normalised to [0, 1] as MuJoCo does, so size[2] is the full elevation. */
    size_t count = (size_t)h.rows * (size_t)h.cols;
    float lo = h.samples[0], hi = h.samples[0];
    for (size_t i = 0; i < count; ++i) lo = fminf(lo, h.samples[i]), hi = fmaxf(hi, h.samples[i]);
    for (size_t i = 0; i < count; ++i) h.samples[i] = hi > lo ? (h.samples[i] - lo) / (hi - lo) : 0.0f;
    if (!cc_reserve((void**)&L->hfields, &L->hfield_capacity, L->hfield_count + 1, sizeof *L->hfields)) {
        cc_host_free(h.samples);
        return oom();
    }
    L->hfields[L->hfield_count++] = h;
    return CC_OK;
}

static cc_status read_assets(loader* L, cc_xml_node* n)
{
    report_unknown_attrs(L, n, "asset", (const char* const[]){NULL});
    for (cc_xml_node* ch = n->first_child; ch; ch = ch->next) {
        cc_status s = CC_OK;
        if (!strcmp(ch->name, "mesh")) s = read_mesh_asset(L, ch);
        else if (!strcmp(ch->name, "hfield")) s = read_hfield_asset(L, ch);
        else report_element(L, ch, "not used by cuContact (only mesh and hfield assets are)");
        if (s != CC_OK) return s;
    }
    return CC_OK;
}

/* ---- bodies and geoms ------------------------------------------------------------------- */

static cc_status add_body_record(loader* L, const char* name, int* out)
{
    if (!cc_reserve((void**)&L->bodies, &L->body_capacity, L->body_count + 1, sizeof *L->bodies)) return oom();
    mj_body* b = &L->bodies[L->body_count];
    memset(b, 0, sizeof *b);
    b->name = name;
    *out = L->body_count++;
    return CC_OK;
}

static cc_status remember_shape(loader* L, int body, int where, int index)
{
    mj_body* b = &L->bodies[body];
    if (!cc_reserve((void**)&b->shapes, &b->capacity, b->count + 1, sizeof *b->shapes)) return oom();
    b->shapes[b->count].where = where;
    b->shapes[b->count].index = index;
    b->count++;
    return CC_OK;
}

typedef struct geom_type_name {
    const char* name;
    int type; /* cc_shape_type, or -1 for types not supported */
} geom_type_name;

static const geom_type_name geom_types[] = {
    {"plane", CC_SHAPE_PLANE},         {"sphere", CC_SHAPE_SPHERE}, {"capsule", CC_SHAPE_CAPSULE},
    {"ellipsoid", CC_SHAPE_ELLIPSOID}, {"cylinder", CC_SHAPE_CYLINDER}, {"box", CC_SHAPE_BOX},
    {"mesh", CC_SHAPE_MESH},           {"hfield", CC_SHAPE_HEIGHTFIELD}, {"sdf", -1}, {NULL, 0}};

/* The mesh (or its hull) inside builder `where`, added on first use. */
static cc_status mesh_in(loader* L, mesh_asset* m, int where, int as_hull, const cc_xml_node* n, int* out)
{
    cc_builder* b = where == IN_TEMPLATE ? L->templ : L->target;
    cc_status s = CC_OK;
    if (as_hull) {
        if (m->hull_index[where] < 0) {
            cc_convex_hull_def d = cc_default_convex_hull_def();
            d.max_vertices = L->opt.hull_max_vertices;
            s = cc_builder_add_convex_hull_data(b, m->mesh.vertices, m->mesh.vertex_count, &d, &m->hull_index[where]);
        }
        *out = m->hull_index[where];
    } else {
        if (m->mesh_index[where] < 0)
            s = cc_builder_add_mesh_data(b, m->mesh.vertices, m->mesh.vertex_count, m->mesh.triangles, m->mesh.triangle_count,
                                         &m->mesh_index[where]);
        *out = m->mesh_index[where];
    }
    return s == CC_OK ? CC_OK : relabel(s, n);
}

static cc_status hfield_in(loader* L, hfield_asset* h, int where, const cc_xml_node* n, int* out)
{
    cc_builder* b = where == IN_TEMPLATE ? L->templ : L->target;
    if (h->index[where] < 0) {
        cc_status s = cc_builder_add_heightfield_data(b, h->rows, h->cols, h->samples, &h->index[where]);
        if (s != CC_OK) return relabel(s, n);
    }
    *out = h->index[where];
    return CC_OK;
}

static cc_status negative_size(const attr_value* a, double v)
{
    return fail_at(CC_ERR_INVALID_SIZE, a->file, a->line, "<geom size=\"%.60s\">: negative size %g; sizes are radii and half lengths >= 0", a->value, v);
}

static cc_status read_geom(loader* L, cc_xml_node* n, const frame_ctx* ctx)
{
    const mj_class* c;
    cc_status s = class_of(L, n, ctx->childclass, &c);
    if (s != CC_OK) return s;
    attr_value a;
    int has_type = get_attr(n, c, "geom", "type", &a);
    const char* type_name = has_type ? a.value : "sphere";
    int type = -2;
    for (const geom_type_name* t = geom_types; t->name; ++t)
        if (!strcmp(t->name, type_name)) type = t->type;
    if (type == -2)
        return fail_at(CC_ERR_PARSE, a.file, a.line,
                       "<geom type=\"%.40s\">: unknown geom type; use plane, sphere, capsule, ellipsoid, cylinder, box, mesh or hfield",
                       type_name);
    if (type == -1)
        return fail_at(CC_ERR_PARSE, n->file, n->line, "<geom type=\"%s\">: this geom type is not supported by cuContact", type_name);
    const char* name = cc_xml_attr_get(n, "name");

    /* Size: every value >= 0; what each type needs is checked below. */
    double size[3] = {0.0, 0.0, 0.0};
    int size_count = 0, has_size = get_attr(n, c, "geom", "size", &a);
    attr_value size_attr = a;
    if (has_size) {
        if ((s = parse_numbers(&a, size, 0, 3, &size_count)) != CC_OK) return s;
        for (int i = 0; i < size_count; ++i)
            if (size[i] < 0.0) return negative_size(&a, size[i]);
    }
    frame local;
    if ((s = read_frame(L, n, c, "geom", &local)) != CC_OK) return s;
    double fromto[6];
    int has_fromto;
    if ((s = read_vector(n, c, "geom", "fromto", fromto, 6, &has_fromto)) != CC_OK) return s;
    double half_length = 0.0;
    if (has_fromto) {
        if (type != CC_SHAPE_CAPSULE && type != CC_SHAPE_CYLINDER && type != CC_SHAPE_BOX && type != CC_SHAPE_ELLIPSOID)
            return fail_at(CC_ERR_PARSE, n->file, n->line, "<geom type=\"%s\" fromto>: fromto applies to capsule, cylinder, box and ellipsoid geoms", type_name);
        double d[3] = {fromto[3] - fromto[0], fromto[4] - fromto[1], fromto[5] - fromto[2]};
        half_length = 0.5 * sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
        if (!normalize3(d)) return fail_at(CC_ERR_PARSE, n->file, n->line, "<geom fromto>: the two end points coincide");
        local.p[0] = 0.5 * (fromto[0] + fromto[3]);
        local.p[1] = 0.5 * (fromto[1] + fromto[4]);
        local.p[2] = 0.5 * (fromto[2] + fromto[5]);
        quat_from_zaxis(d, local.q);
    }

    cc_shape_def def = cc_default_shape_def();
    frame placed = frame_mul(&ctx->to_anchor, &local);
    def.local = to_transform(&placed);
    long long bits;
    def.collision_type_bits = def.collision_affinity_bits = 1u; /* MuJoCo's defaults */
    if (get_attr(n, c, "geom", "contype", &a)) {
        if ((s = parse_int(&a, INT32_MIN, UINT32_MAX, &bits)) != CC_OK) return s;
        def.collision_type_bits = (uint32_t)bits;
    }
    if (get_attr(n, c, "geom", "conaffinity", &a)) {
        if ((s = parse_int(&a, INT32_MIN, UINT32_MAX, &bits)) != CC_OK) return s;
        def.collision_affinity_bits = (uint32_t)bits;
    }
    double margin = 0.0, gap = 0.0;
    int found;
    if ((s = read_vector(n, c, "geom", "margin", &margin, 1, &found)) != CC_OK) return s;
    if (found && margin < 0.0) return fail_at(CC_ERR_PARSE, n->file, n->line, "<geom margin=\"%g\">: margin must be >= 0", margin);
    if ((s = read_vector(n, c, "geom", "gap", &gap, 1, &found)) != CC_OK) return s;
    if (found && gap < 0.0) return fail_at(CC_ERR_PARSE, n->file, n->line, "<geom gap=\"%g\">: gap must be >= 0", gap);
    if (gap > margin)
        report_once(L, "gap > margin", CC_LOG_WARNING,
                    "geom gap %g exceeds its margin %g (first at %s:%d): the shape gets margin 0; MuJoCo would need the surfaces to overlap by the difference",
                    gap, margin, n->file, n->line);
    def.margin = (float)(0.5 * fmax(0.0, margin - gap));
    def.gap = (float)(0.5 * gap);
    if (get_attr(n, c, "geom", "friction", &a)) {
        /* Sliding, torsional, rolling; missing ones keep MuJoCo's defaults,
         * which are the material defaults. */
        double f[3];
        int count = 0;
        if ((s = parse_numbers(&a, f, 1, 3, &count)) != CC_OK) return s;
        for (int i = 0; i < count; ++i)
            if (f[i] < 0.0) return fail_at(CC_ERR_PARSE, a.file, a.line, "<geom friction=\"%.60s\">: friction coefficients must be >= 0", a.value);
        def.material.mu = (float)f[0];
        def.compliant.coulomb_friction = (float)f[0];
        if (count > 1) def.material.mu_torsional = (float)f[1];
        if (count > 2) def.material.mu_rolling = (float)f[2];
    }
    double density = 1000.0;
    if ((s = read_vector(n, c, "geom", "density", &density, 1, &found)) != CC_OK) return s;
    if (found && density < 0.0) return fail_at(CC_ERR_PARSE, n->file, n->line, "<geom density=\"%g\">: density must be >= 0", density);
    def.density = (float)density;
    if (get_attr(n, c, "geom", "group", &a)) {
        long long g;
        if ((s = parse_int(&a, INT32_MIN, INT32_MAX, &g)) != CC_OK) return s;
        report_once(L, "group", CC_LOG_INFO, "geom group (first at %s:%d) is a visibility group in MuJoCo and does not change collisions; ignored", a.file, a.line);
    }
    report_unknown_attrs(L, n, "geom", geom_attrs);

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
            return fail_at(CC_ERR_INVALID_SIZE, has_size ? size_attr.file : n->file, has_size ? size_attr.line : n->line, "<geom type=\"sphere\">: size needs the radius > 0");
        s = cc_builder_add_sphere(b, body, (float)size[0], &def, &shape);
        break;
    case CC_SHAPE_CAPSULE:
    case CC_SHAPE_CYLINDER:
        if (!has_fromto) half_length = size[1];
        if (!(size[0] > 0.0) || (!has_fromto && size_count < 2) || (type == CC_SHAPE_CYLINDER && !(half_length > 0.0)))
            return fail_at(CC_ERR_INVALID_SIZE, has_size ? size_attr.file : n->file, has_size ? size_attr.line : n->line,
                           "<geom type=\"%s\">: size needs the radius > 0 and the half length%s (or fromto and the radius)", kind,
                           type == CC_SHAPE_CYLINDER ? " > 0" : "");
        if (type == CC_SHAPE_CAPSULE) s = cc_builder_add_capsule(b, body, (float)size[0], (float)half_length, &def, &shape);
        else s = cc_builder_add_cylinder(b, body, (float)size[0], (float)half_length, &def, &shape);
        break;
    case CC_SHAPE_BOX:
    case CC_SHAPE_ELLIPSOID:
        if (has_fromto) size[2] = half_length;
        if (!(size[0] > 0.0 && size[1] > 0.0 && size[2] > 0.0) || (!has_fromto && size_count < 3))
            return fail_at(CC_ERR_INVALID_SIZE, has_size ? size_attr.file : n->file, has_size ? size_attr.line : n->line,
                           "<geom type=\"%s\">: size needs three %s > 0 (or two and fromto)", kind,
                           type == CC_SHAPE_BOX ? "half lengths" : "radii");
        sz.x = (float)size[0], sz.y = (float)size[1], sz.z = (float)size[2];
        s = type == CC_SHAPE_BOX ? cc_builder_add_box(b, body, sz, &def, &shape) : cc_builder_add_ellipsoid(b, body, sz, &def, &shape);
        break;
    case CC_SHAPE_MESH: {
        const char* mesh_name = get_attr(n, c, "geom", "mesh", &a) ? a.value : NULL;
        if (!mesh_name) return fail_at(CC_ERR_PARSE, n->file, n->line, "<geom type=\"mesh\">: the mesh attribute is missing");
        mesh_asset* m = NULL;
        for (int i = 0; i < L->mesh_count; ++i)
            if (!strcmp(L->meshes[i].name, mesh_name)) m = &L->meshes[i];
        if (!m) return fail_at(CC_ERR_PARSE, a.file, a.line, "<geom mesh=\"%.80s\">: no mesh asset of that name", mesh_name);
        int as_hull = L->opt.mesh_mode == CC_MJCF_MESH_AS_CONVEX_HULL || m->mesh.triangle_count == 0;
        int index = -1;
        if ((s = mesh_in(L, m, where, as_hull, n, &index)) != CC_OK) return s;
        cc_vec3 one = {1.0f, 1.0f, 1.0f};
        s = as_hull ? cc_builder_add_convex_hull(b, body, index, one, &def, &shape) : cc_builder_add_mesh(b, body, index, one, &def, &shape);
        break;
    }
    default: { /* hfield */
        const char* hname = get_attr(n, c, "geom", "hfield", &a) ? a.value : NULL;
        if (!hname) return fail_at(CC_ERR_PARSE, n->file, n->line, "<geom type=\"hfield\">: the hfield attribute is missing");
        hfield_asset* h = NULL;
        for (int i = 0; i < L->hfield_count; ++i)
            if (!strcmp(L->hfields[i].name, hname)) h = &L->hfields[i];
        if (!h) return fail_at(CC_ERR_PARSE, a.file, a.line, "<geom hfield=\"%.80s\">: no hfield asset of that name", hname);
        if (!is_static)
            return fail_at(CC_ERR_UNSUPPORTED, n->file, n->line, "<geom type=\"hfield\">: the geom's body moves, but a heightfield is static geometry; put it in worldbody or a body without joints");
        if (h->size[3] > 0.0)
            report_once(L, "hfield base", CC_LOG_INFO, "hfield base depth (size[3], first at %s:%d) is not represented: the heightfield is its surface", h->file, h->line);
        int index = -1;
        if ((s = hfield_in(L, h, where, n, &index)) != CC_OK) return s;
        sz.x = (float)h->size[0], sz.y = (float)h->size[1], sz.z = (float)h->size[2];
        s = cc_builder_add_heightfield(b, body, index, sz, &def, &shape);
        break;
    }
    }
    if (s != CC_OK) return relabel(s, n);
    if (name && (s = cc_builder_set_shape_name(b, shape, name)) != CC_OK) return relabel(s, n);
    return remember_shape(L, ctx->body, where, shape);
}

static cc_status read_children(loader* L, cc_xml_node* parent, const frame_ctx* ctx);

static const char* const skipped_body_children[] = {"site", "camera", "light", "plugin", "composite",
                                                    "flexcomp", "attach", "replicate", "skin", NULL};

/* Whether a <body> gets a body of its own: it has a joint or is mocap. */
static int body_moves_alone(cc_xml_node* n)
{
    const char* mocap = cc_xml_attr_get(n, "mocap");
    if (mocap && parse_bool(mocap)) return 1;
    for (cc_xml_node* ch = n->first_child; ch; ch = ch->next)
        if (!strcmp(ch->name, "freejoint") || !strcmp(ch->name, "joint")) return 1;
    return 0;
}

static const char* const inertial_attrs[] = {"pos", "quat", "axisangle", "euler", "xyaxes", "zaxis", "mass",
                                             "diaginertia", "fullinertia", NULL};

/* <inertial> of a body that moves: its mass, centre and inertia tensor
 * (principal moments turned by the element's orientation, or the full
 * tensor) set explicitly on the body. On a body welded to its parent it
 * would have to be merged into the parent, which is not done: reported. */
static cc_status read_inertial(loader* L, cc_xml_node* body, int id)
{
    cc_xml_node* n = NULL;
    for (cc_xml_node* ch = body->first_child; ch; ch = ch->next)
        if (!strcmp(ch->name, "inertial")) n = ch;
    if (!n) return CC_OK;
    report_unknown_attrs(L, n, "inertial", inertial_attrs);
    frame f;
    cc_status s = read_frame(L, n, NULL, "inertial", &f);
    if (s != CC_OK) return s;
    double mass = 0.0, diag[3] = {0, 0, 0}, full[6] = {0, 0, 0, 0, 0, 0};
    int has_mass, has_diag, has_full;
    if ((s = read_vector(n, NULL, "inertial", "mass", &mass, 1, &has_mass)) != CC_OK) return s;
    if ((s = read_vector(n, NULL, "inertial", "diaginertia", diag, 3, &has_diag)) != CC_OK) return s;
    if ((s = read_vector(n, NULL, "inertial", "fullinertia", full, 6, &has_full)) != CC_OK) return s;
    if (!has_mass || !(mass > 0.0))
        return fail_at(CC_ERR_PARSE, n->file, n->line, "<inertial>: give a mass > 0 [kg]");
    if (has_diag == has_full)
        return fail_at(CC_ERR_PARSE, n->file, n->line, "<inertial>: give exactly one of diaginertia and fullinertia");
    double I[3][3];
    if (has_full) {
        double m[3][3] = {{full[0], full[3], full[4]}, {full[3], full[1], full[5]}, {full[4], full[5], full[2]}};
        memcpy(I, m, sizeof I);
    } else {
        /* R diag(d) R^T with R's columns the rotated axes. */
        double axes[3][3];
        for (int k = 0; k < 3; ++k) {
            double e[3] = {k == 0, k == 1, k == 2};
            quat_rotate(f.q, e, axes[k]);
        }
        for (int i = 0; i < 3; ++i)
            for (int j = 0; j < 3; ++j)
                I[i][j] = diag[0] * axes[0][i] * axes[0][j] + diag[1] * axes[1][i] * axes[1][j] + diag[2] * axes[2][i] * axes[2][j];
    }
    cc_mass_properties mp;
    mp.mass = (float)mass;
    mp.center.x = (float)f.p[0], mp.center.y = (float)f.p[1], mp.center.z = (float)f.p[2];
    for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j) mp.inertia[3 * i + j] = (float)I[i][j];
    if ((s = cc_builder_set_body_mass(L->templ, id, &mp)) != CC_OK) return relabel(s, n);
    return CC_OK;
}

static cc_status read_body(loader* L, cc_xml_node* n, const frame_ctx* ctx)
{
    frame local;
    cc_status s = read_frame(L, n, NULL, "body", &local);
    if (s != CC_OK) return s;
    frame_ctx inner = *ctx;
    const char* cc = cc_xml_attr_get(n, "childclass");
    if (cc && !(inner.childclass = find_class(L, cc)))
        return fail_at(CC_ERR_PARSE, n->file, n->line, "<body childclass=\"%s\">: no default class of that name", cc);
    const char* mocap = cc_xml_attr_get(n, "mocap");
    const char* name = cc_xml_attr_get(n, "name");
    report_unknown_attrs(L, n, "body", body_attrs);

    /* Joints make the body move; their type may come from a default class. */
    int joints = 0;
    for (cc_xml_node* ch = n->first_child; ch; ch = ch->next) {
        if (!strcmp(ch->name, "freejoint")) {
            report_unknown_attrs(L, ch, "freejoint", (const char* const[]){"name", NULL});
            joints++;
        } else if (!strcmp(ch->name, "joint")) {
            const mj_class* jc;
            if ((s = class_of(L, ch, inner.childclass, &jc)) != CC_OK) return s;
            attr_value a;
            const char* type = get_attr(ch, jc, "joint", "type", &a) ? a.value : "hinge";
            if (strcmp(type, "free") && strcmp(type, "hinge") && strcmp(type, "slide") && strcmp(type, "ball"))
                return fail_at(CC_ERR_PARSE, ch->file, ch->line, "<joint type=\"%.40s\">: unknown joint type; use free, ball, slide or hinge", type);
            if (strcmp(type, "free")) {
                char key[64];
                snprintf(key, sizeof key, "joint %s", type);
                report_once(L, key, CC_LOG_WARNING,
                            "%s joints (first at %s:%d) are not simulated: such a body becomes a free dynamic body, and pairs with its parent body are skipped",
                            type, ch->file, ch->line);
            }
            report_unknown_attrs(L, ch, "joint", joint_attrs);
            joints++;
        }
    }
    int body = -1;
    if ((s = add_body_record(L, name ? name : "", &body)) != CC_OK) return s;
    inner.body = body;
    frame here = frame_mul(&ctx->to_anchor, &local);
    int is_mocap = mocap && parse_bool(mocap);
    if (is_mocap && ctx->anchor >= 0)
        return fail_at(CC_ERR_PARSE, n->file, n->line, "<body mocap=\"true\">: mocap bodies must be children of worldbody");
    if (joints || is_mocap) {
        if (is_mocap)
            report_once(L, "mocap", CC_LOG_INFO, "mocap bodies (first at %s:%d) become static bodies of their own; move them with cc_state_set_body_poses", n->file, n->line);
        cc_body_def bd = cc_default_body_def();
        frame world = frame_mul(&ctx->anchor_pose, &here);
        bd.pose = to_transform(&world);
        bd.is_static = is_mocap;
        bd.parent = ctx->anchor >= 0 && !L->templ->bodies[ctx->anchor].is_static ? ctx->anchor : -1;
        int id;
        if ((s = cc_builder_add_body(L->templ, &bd, &id)) != CC_OK) return relabel(s, n);
        if ((s = read_inertial(L, n, id)) != CC_OK) return s;
        inner.anchor = id;
        inner.anchor_pose = world;
        inner.to_anchor = frame_identity();
    } else {
        inner.to_anchor = here;
    }
    return read_children(L, n, &inner);
}

static cc_status read_children(loader* L, cc_xml_node* parent, const frame_ctx* ctx)
{
    for (cc_xml_node* ch = parent->first_child; ch; ch = ch->next) {
        cc_status s = CC_OK;
        if (!strcmp(ch->name, "geom")) {
            s = read_geom(L, ch, ctx);
        } else if (!strcmp(ch->name, "body")) {
            s = read_body(L, ch, ctx);
        } else if (!strcmp(ch->name, "frame")) {
            frame local;
            frame_ctx inner = *ctx;
            s = read_frame(L, ch, NULL, "frame", &local);
            const char* cc = cc_xml_attr_get(ch, "childclass");
            if (s == CC_OK && cc && !(inner.childclass = find_class(L, cc)))
                s = fail_at(CC_ERR_PARSE, ch->file, ch->line, "<frame childclass=\"%s\">: no default class of that name", cc);
            report_unknown_attrs(L, ch, "frame", frame_attrs);
            inner.to_anchor = frame_mul(&ctx->to_anchor, &local);
            if (s == CC_OK) s = read_children(L, ch, &inner);
        } else if (!strcmp(ch->name, "joint") || !strcmp(ch->name, "freejoint")) {
            if (!strcmp(parent->name, "worldbody"))
                s = fail_at(CC_ERR_PARSE, ch->file, ch->line, "<%s> in worldbody: the world cannot move", ch->name);
            if (!strcmp(parent->name, "frame"))
                s = fail_at(CC_ERR_PARSE, ch->file, ch->line, "<%s> in a frame: joints belong to bodies", ch->name);
        } else if (!strcmp(ch->name, "inertial")) {
            /* Read by read_body when the body moves on its own. */
            if (strcmp(parent->name, "body") || !body_moves_alone(parent))
                report_element(L, ch, "not merged into the parent body (the body is welded to it); ignored");
        } else if (in_list(ch->name, skipped_body_children)) {
            report_element(L, ch, "not used for collisions");
        } else {
            report_element(L, ch, "not supported by cuContact");
        }
        if (s != CC_OK) return s;
    }
    return CC_OK;
}

/* ---- contact exclusions -------------------------------------------------------------------- */

static int find_body(const loader* L, const char* name)
{
    for (int i = 0; i < L->body_count; ++i)
        if (!strcmp(L->bodies[i].name, name)) return i;
    return -1;
}

static cc_status read_contact(loader* L, cc_xml_node* n)
{
    for (cc_xml_node* ch = n->first_child; ch; ch = ch->next) {
        if (strcmp(ch->name, "exclude")) {
            report_element(L, ch, !strcmp(ch->name, "pair") ? "not supported (explicit pairs); its geoms collide by the usual filters"
                                                             : "not supported by cuContact");
            continue;
        }
        const char* names[2] = {cc_xml_attr_get(ch, "body1"), cc_xml_attr_get(ch, "body2")};
        int ids[2];
        for (int k = 0; k < 2; ++k) {
            if (!names[k]) return fail_at(CC_ERR_PARSE, ch->file, ch->line, "<exclude>: body%d is missing", k + 1);
            if ((ids[k] = find_body(L, names[k])) < 0)
                return fail_at(CC_ERR_PARSE, ch->file, ch->line, "<exclude body%d=\"%.80s\">: no body of that name", k + 1, names[k]);
        }
        report_unknown_attrs(L, ch, "exclude", (const char* const[]){"name", "body1", "body2", NULL});
        const mj_body *b1 = &L->bodies[ids[0]], *b2 = &L->bodies[ids[1]];
        for (int i = 0; i < b1->count; ++i)
            for (int j = 0; j < b2->count; ++j) {
                shape_ref r1 = b1->shapes[i], r2 = b2->shapes[j];
                if (r1.where == IN_TARGET && r2.where == IN_TARGET) continue; /* static pairs never collide */
                if (r1.where == IN_TEMPLATE && r2.where == IN_TEMPLATE) {
                    if (r1.index == r2.index) continue;
                    cc_status s = cc_builder_add_filter_pair(L->templ, r1.index, r2.index);
                    if (s != CC_OK) return relabel(s, ch);
                    continue;
                }
                /* A global shape and a template one: filtered in every copy
                 * once the template is replicated. */
                if (!cc_reserve((void**)&L->late_filters, &L->late_capacity, L->late_count + 2, sizeof *L->late_filters)) return oom();
                L->late_filters[L->late_count++] = r1.where == IN_TARGET ? r1 : r2;
                L->late_filters[L->late_count++] = r1.where == IN_TARGET ? r2 : r1;
            }
    }
    return CC_OK;
}

/* ---- includes and the top level ------------------------------------------------------------------ */

static cc_status expand_includes(loader* L, cc_xml_node* n, int depth)
{
    cc_xml_node* prev = NULL;
    for (cc_xml_node* ch = n->first_child; ch;) {
        if (strcmp(ch->name, "include")) {
            cc_status s = expand_includes(L, ch, depth);
            if (s != CC_OK) return s;
            prev = ch;
            ch = ch->next;
            continue;
        }
        if (depth >= MAX_INCLUDE_DEPTH)
            return fail_at(CC_ERR_PARSE, ch->file, ch->line, "<include>: includes nest deeper than %d (a cycle?)", MAX_INCLUDE_DEPTH);
        const char* file = cc_xml_attr_get(ch, "file");
        if (!file) return fail_at(CC_ERR_PARSE, ch->file, ch->line, "<include>: the file attribute is missing");
        const char* path = join_path(L, L->base_dir, file);
        char from[512];
        snprintf(from, sizeof from, "%s:%d: <include>", ch->file, ch->line);
        char* text;
        size_t size;
        cc_status s = path ? cc_read_file(path, from, &text, &size) : oom();
        if (s != CC_OK) return s;
        cc_xml_node* root;
        s = cc_xml_parse(&L->arena, text, size, path, &root);
        cc_host_free(text);
        if (s != CC_OK) return s;
        if (strcmp(root->name, "mujoco"))
            return fail_at(CC_ERR_PARSE, root->file, root->line, "the root element of an included file is <%s>; it must be <mujoco>", root->name);
        s = expand_includes(L, root, depth + 1);
        if (s != CC_OK) return s;
        /* Splice the included children in place of <include>. */
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
    return CC_OK;
}

static const char* const ignored_sections[] = {"option", "size", "visual", "statistic", "extension", "custom", "tendon",
                                               "equality", "actuator", "sensor", "keyframe", "deformable", NULL};

static cc_status load_tree(loader* L, cc_xml_node* root)
{
    if (strcmp(root->name, "mujoco"))
        return fail_at(CC_ERR_PARSE, root->file, root->line, "the root element is <%s>; an MJCF file starts with <mujoco>", root->name);
    report_unknown_attrs(L, root, "mujoco", (const char* const[]){"model", NULL});
    cc_status s = expand_includes(L, root, 0);
    /* Sections in MuJoCo's order, whatever their order in the file. */
    for (cc_xml_node* n = root->first_child; n && s == CC_OK; n = n->next)
        if (!strcmp(n->name, "compiler")) s = read_compiler(L, n);
    for (cc_xml_node* n = root->first_child; n && s == CC_OK; n = n->next)
        if (!strcmp(n->name, "default")) s = read_default(L, n, NULL);
    if (s == CC_OK && !find_class(L, "main")) {
        cc_xml_node empty;
        memset(&empty, 0, sizeof empty);
        empty.name = "default";
        empty.file = root->file;
        s = read_default(L, &empty, NULL);
    }
    for (cc_xml_node* n = root->first_child; n && s == CC_OK; n = n->next)
        if (!strcmp(n->name, "asset")) s = read_assets(L, n);
    int world = -1;
    if (s == CC_OK) s = add_body_record(L, "world", &world);
    for (cc_xml_node* n = root->first_child; n && s == CC_OK; n = n->next)
        if (!strcmp(n->name, "worldbody")) {
            frame_ctx ctx;
            ctx.to_anchor = frame_identity();
            ctx.anchor = -1;
            ctx.anchor_pose = frame_identity();
            ctx.childclass = NULL;
            ctx.body = world;
            report_unknown_attrs(L, n, "worldbody", (const char* const[]){NULL});
            s = read_children(L, n, &ctx);
        }
    for (cc_xml_node* n = root->first_child; n && s == CC_OK; n = n->next) {
        if (!strcmp(n->name, "contact")) s = read_contact(L, n);
        else if (!strcmp(n->name, "compiler") || !strcmp(n->name, "default") || !strcmp(n->name, "asset") || !strcmp(n->name, "worldbody")) continue;
        else report_element(L, n, in_list(n->name, ignored_sections) ? "not used for collisions" : "not supported by cuContact");
    }
    return s;
}

static void loader_free(loader* L)
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
    cc_host_free(L->late_filters);
    cc_host_free(L->reported);
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
    if (o.hull_max_vertices < 4 || o.hull_max_vertices > 4096)
        return cc_fail(CC_ERR_INVALID_ARGUMENT, "cc_builder_load_mjcf: hull_max_vertices %d is outside 4..4096", o.hull_max_vertices);
    if (b->open_world >= 0)
        return cc_fail(CC_ERR_INVALID_STATE, "cc_builder_load_mjcf: world %d is open; call cc_builder_end_world first", b->open_world);

    loader L;
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
    s = cc_xml_parse(&L.arena, text, size, file, &root);
    if (s == CC_OK) s = load_tree(&L, root);
    int shape0 = b->shape_count;
    if (s == CC_OK) s = cc_builder_replicate(b, L.templ, o.worlds, NULL);
    for (int i = 0; s == CC_OK && i < L.late_count; i += 2)
        for (int w = 0; s == CC_OK && w < o.worlds; ++w)
            s = cc_builder_add_filter_pair(b, L.late_filters[i].index, shape0 + w * L.templ->shape_count + L.late_filters[i + 1].index);
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
        return oom();
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
