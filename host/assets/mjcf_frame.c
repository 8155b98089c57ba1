/* Frames and orientations of the MJCF loader, in double precision:
 * quaternions are (w, x, y, z), MJCF's order; a frame rotates, then
 * translates. Orientations come from quat, axisangle, euler (with the
 * compiler's eulerseq and angle unit), xyaxes or zaxis. */
#include <ctype.h>
#include <math.h>
#include <string.h>

#include "host/assets/mjcf_internal.h"

mj_frame mjcf_frame_identity(void)
{
    mj_frame f = {{0.0, 0.0, 0.0}, {1.0, 0.0, 0.0, 0.0}};
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

void mjcf_quat_rotate(const double q[4], const double v[3], double out[3])
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

mj_frame mjcf_frame_mul(const mj_frame* a, const mj_frame* b)
{
    mj_frame r;
    double t[3];
    mjcf_quat_rotate(a->q, b->p, t);
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
void mjcf_quat_from_zaxis(const double z[3], double q[4])
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

int mjcf_normalize3(double v[3])
{
    double n = sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
    if (!(n > 1e-12)) return 0;
    v[0] /= n, v[1] /= n, v[2] /= n;
    return 1;
}

cc_transform mjcf_to_transform(const mj_frame* f)
{
    cc_transform t;
    t.p.x = (float)f->p[0], t.p.y = (float)f->p[1], t.p.z = (float)f->p[2];
    t.q.x = (float)f->q[1], t.q.y = (float)f->q[2], t.q.z = (float)f->q[3], t.q.w = (float)f->q[0];
    return t;
}

/* ---- orientation ----------------------------------------------------------------- */

const char* const mjcf_orientation_attrs[] = {"quat", "axisangle", "euler", "xyaxes", "zaxis", NULL};

static cc_status orientation_from(mj_loader* L, const mj_attr* a, double q[4])
{
    double v[MAX_NUMBERS];
    cc_status s;
    double scale = L->degrees ? PI_D / 180.0 : 1.0;
    if (!strcmp(a->name, "quat")) {
        if ((s = mjcf_parse_numbers(a, v, 4, 4, NULL)) != CC_OK) return s;
        memcpy(q, v, 4 * sizeof(double));
        if (!quat_normalize(q))
            return mjcf_fail_at(CC_ERR_PARSE, a->file, a->line, "<%s quat=\"%.60s\">: a zero quaternion is no rotation; use 1 0 0 0", a->kind, a->value);
    } else if (!strcmp(a->name, "axisangle")) {
        if ((s = mjcf_parse_numbers(a, v, 4, 4, NULL)) != CC_OK) return s;
        if (!mjcf_normalize3(v))
            return mjcf_fail_at(CC_ERR_PARSE, a->file, a->line, "<%s axisangle=\"%.60s\">: the axis has zero length", a->kind, a->value);
        quat_axis_angle(v, v[3] * scale, q);
    } else if (!strcmp(a->name, "euler")) {
        if ((s = mjcf_parse_numbers(a, v, 3, 3, NULL)) != CC_OK) return s;
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
        if ((s = mjcf_parse_numbers(a, v, 6, 6, NULL)) != CC_OK) return s;
        double x[3] = {v[0], v[1], v[2]}, y[3] = {v[3], v[4], v[5]}, z[3];
        if (!mjcf_normalize3(x))
            return mjcf_fail_at(CC_ERR_PARSE, a->file, a->line, "<%s xyaxes=\"%.60s\">: the x axis has zero length", a->kind, a->value);
        double d = x[0] * y[0] + x[1] * y[1] + x[2] * y[2];
        for (int i = 0; i < 3; ++i) y[i] -= d * x[i];
        if (!mjcf_normalize3(y))
            return mjcf_fail_at(CC_ERR_PARSE, a->file, a->line, "<%s xyaxes=\"%.60s\">: the y axis is parallel to the x axis", a->kind, a->value);
        z[0] = x[1] * y[2] - x[2] * y[1], z[1] = x[2] * y[0] - x[0] * y[2], z[2] = x[0] * y[1] - x[1] * y[0];
        quat_from_axes(x, y, z, q);
    } else {
        if ((s = mjcf_parse_numbers(a, v, 3, 3, NULL)) != CC_OK) return s;
        if (!mjcf_normalize3(v))
            return mjcf_fail_at(CC_ERR_PARSE, a->file, a->line, "<%s zaxis=\"%.60s\">: the axis has zero length", a->kind, a->value);
        mjcf_quat_from_zaxis(v, q);
    }
    return CC_OK;
}

/* The element's frame from pos and at most one orientation attribute (its
 * own, else its class's). */
cc_status mjcf_read_frame(mj_loader* L, cc_xml_node* n, const mj_class* c, const char* kind, mj_frame* out)
{
    *out = mjcf_frame_identity();
    int found;
    cc_status s = mjcf_read_vector(n, c, kind, "pos", out->p, 3, &found);
    if (s != CC_OK) return s;
    const char* first = NULL;
    mj_attr a, chosen;
    for (const char* const* o = mjcf_orientation_attrs; *o; ++o) {
        const char* v = cc_xml_attr_get(n, *o);
        if (!v) continue;
        if (first)
            return mjcf_fail_at(CC_ERR_PARSE, n->file, n->line, "<%s>: both '%s' and '%s' give an orientation; keep one", kind, first, *o);
        first = *o;
        chosen.value = v, chosen.file = n->file, chosen.line = n->line, chosen.kind = kind, chosen.name = *o;
    }
    if (!first && c) /* the class's orientation; the last one set wins */
        for (int i = c->count - 1; i >= 0 && !first; --i)
            if (!strcmp(c->attrs[i].kind, kind) && mjcf_in_list(c->attrs[i].name, mjcf_orientation_attrs) && mjcf_get_attr(n, c, kind, c->attrs[i].name, &a)) {
                first = a.name;
                chosen = a;
            }
    return first ? orientation_from(L, &chosen, out->q) : CC_OK;
}

