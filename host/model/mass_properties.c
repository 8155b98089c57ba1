/* Mass properties of uniform solids (closed forms for the primitives, the
 * divergence theorem over signed tetrahedra for hulls and meshes) and their
 * transformation and sum into a body. Double precision throughout.
 *
 * Hulls and meshes: every surface triangle (a, b, c), taken relative to a
 * reference point r inside or near the solid, spans with r a tetrahedron of
 * signed volume d/6, d = a . (b x c). Summed over a closed surface oriented
 * outward these give exactly the solid's
 *   volume         V = sum d/6,
 *   first moment   S = sum d/24 (a + b + c),
 *   second moment  C = sum d/120 (a a^T + b b^T + c c^T + s s^T), s = a + b + c,
 * (C = integral of x x^T dV, the covariance of a tetrahedron with one vertex
 * at the origin). The centroid is g = S / V, the second moment about it
 * C - V g g^T, and the inertia density * (trace(C) E - C). The reference
 * point (the mean of the vertices) keeps the sums free of cancellation for
 * solids far from their frame's origin. */
#include <math.h>
#include <string.h>

#include "host/model/mass_properties.h"

/* --- Small double helpers ---------------------------------------------------- */

static void zero_solid(cc_solid_mass* m) { memset(m, 0, sizeof *m); }

/* Diagonal inertia with the centre at (0, 0, cz). */
static void set_solid(cc_solid_mass* out, double mass, double cz, double ixx, double iyy, double izz)
{
    zero_solid(out);
    out->mass = mass;
    out->center[2] = cz;
    out->inertia[0][0] = ixx;
    out->inertia[1][1] = iyy;
    out->inertia[2][2] = izz;
}

/* Rotation matrix of q (normalized here in double; zero or non-finite: identity). */
static void quat_matrix(cc_quat qf, double r[3][3])
{
    double x = qf.x, y = qf.y, z = qf.z, w = qf.w;
    double n = sqrt(x * x + y * y + z * z + w * w);
    if (!(n > 0.0) || !isfinite(n)) {
        x = y = z = 0.0;
        w = 1.0;
    } else {
        x /= n;
        y /= n;
        z /= n;
        w /= n;
    }
    r[0][0] = 1.0 - 2.0 * (y * y + z * z);
    r[0][1] = 2.0 * (x * y - w * z);
    r[0][2] = 2.0 * (x * z + w * y);
    r[1][0] = 2.0 * (x * y + w * z);
    r[1][1] = 1.0 - 2.0 * (x * x + z * z);
    r[1][2] = 2.0 * (y * z - w * x);
    r[2][0] = 2.0 * (x * z - w * y);
    r[2][1] = 2.0 * (y * z + w * x);
    r[2][2] = 1.0 - 2.0 * (x * x + y * y);
}

/* --- Hulls and meshes: signed tetrahedra ------------------------------------ */

typedef struct tet_sums {
    double ref[3];  /* reference point, scaled frame */
    double scale[3];
    double sign;    /* -1 when the scale mirrors (odd number of negative factors) */
    double v;       /* 6 V */
    double s[3];    /* 24 S */
    double c[3][3]; /* 120 C */
} tet_sums;

static void tet_init(tet_sums* t, cc_vec3 size, const cc_vec3* vertices, int vertex_count)
{
    memset(t, 0, sizeof *t);
    t->scale[0] = size.x;
    t->scale[1] = size.y;
    t->scale[2] = size.z;
    t->sign = (t->scale[0] * t->scale[1] * t->scale[2] < 0.0) ? -1.0 : 1.0;
    double sum[3] = {0.0, 0.0, 0.0};
    for (int i = 0; i < vertex_count; ++i) {
        sum[0] += vertices[i].x;
        sum[1] += vertices[i].y;
        sum[2] += vertices[i].z;
    }
    for (int k = 0; k < 3; ++k)
        t->ref[k] = vertex_count > 0 ? t->scale[k] * (sum[k] / vertex_count) : 0.0;
}

static void tet_point(const tet_sums* t, cc_vec3 v, double out[3])
{
    out[0] = t->scale[0] * (double)v.x - t->ref[0];
    out[1] = t->scale[1] * (double)v.y - t->ref[1];
    out[2] = t->scale[2] * (double)v.z - t->ref[2];
}

static void tet_add(tet_sums* t, cc_vec3 va, cc_vec3 vb, cc_vec3 vc)
{
    double a[3], b[3], c[3];
    tet_point(t, va, a);
    tet_point(t, vb, b);
    tet_point(t, vc, c);
    double d = a[0] * (b[1] * c[2] - b[2] * c[1]) + a[1] * (b[2] * c[0] - b[0] * c[2]) +
               a[2] * (b[0] * c[1] - b[1] * c[0]);
    d *= t->sign;
    double s[3] = {a[0] + b[0] + c[0], a[1] + b[1] + c[1], a[2] + b[2] + c[2]};
    t->v += d;
    for (int i = 0; i < 3; ++i) {
        t->s[i] += d * s[i];
        for (int j = i; j < 3; ++j)
            t->c[i][j] += d * (a[i] * a[j] + b[i] * b[j] + c[i] * c[j] + s[i] * s[j]);
    }
}

/* Turns the sums into the solid; -1 when the volume is not > 0. */
static int tet_finish(const tet_sums* t, double density, cc_solid_mass* out)
{
    double volume = t->v / 6.0;
    if (!(volume > 0.0) || !isfinite(volume)) return -1;
    double g[3], cov[3][3];
    for (int i = 0; i < 3; ++i) g[i] = (t->s[i] / 24.0) / volume;
    for (int i = 0; i < 3; ++i)
        for (int j = i; j < 3; ++j) {
            cov[i][j] = t->c[i][j] / 120.0 - volume * g[i] * g[j];
            cov[j][i] = cov[i][j];
        }
    double tr = cov[0][0] + cov[1][1] + cov[2][2];
    zero_solid(out);
    out->mass = density * volume;
    for (int i = 0; i < 3; ++i) {
        out->center[i] = t->ref[i] + g[i];
        for (int j = 0; j < 3; ++j) out->inertia[i][j] = density * ((i == j ? tr : 0.0) - cov[i][j]);
    }
    for (int i = 0; i < 3; ++i)
        if (!isfinite(out->center[i])) return -1;
    return 1;
}

static int hull_mass(const cc_hull_data* h, cc_vec3 size, double density, cc_solid_mass* out)
{
    if (!h || !h->vertices || !h->faces || !h->indices || h->vertex_count <= 0 || h->face_count <= 0)
        return -1;
    tet_sums t;
    tet_init(&t, size, h->vertices, h->vertex_count);
    for (int f = 0; f < h->face_count; ++f) {
        const cc_hull_face* face = &h->faces[f];
        if (face->count < 3 || face->first < 0 || face->first > h->index_count - face->count) return -1;
        const int* idx = h->indices + face->first;
        for (int k = 0; k < face->count; ++k)
            if (idx[k] < 0 || idx[k] >= h->vertex_count) return -1;
        for (int k = 1; k + 1 < face->count; ++k)
            tet_add(&t, h->vertices[idx[0]], h->vertices[idx[k]], h->vertices[idx[k + 1]]);
    }
    return tet_finish(&t, density, out);
}

static int mesh_mass(const struct cc_mesh_data* m, cc_vec3 size, double density, cc_solid_mass* out)
{
    if (!m || !m->vertices || !m->triangles || m->vertex_count <= 0 || m->triangle_count <= 0) return -1;
    tet_sums t;
    tet_init(&t, size, m->vertices, m->vertex_count);
    for (int i = 0; i < m->triangle_count; ++i) {
        const int* tri = m->triangles + 3 * (size_t)i;
        for (int k = 0; k < 3; ++k)
            if (tri[k] < 0 || tri[k] >= m->vertex_count) return -1;
        tet_add(&t, m->vertices[tri[0]], m->vertices[tri[1]], m->vertices[tri[2]]);
    }
    return tet_finish(&t, density, out);
}

/* --- Shapes ------------------------------------------------------------------ */

int cc_shape_solid_mass(int type, cc_vec3 size, double density, const cc_hull_data* hull,
                        const struct cc_mesh_data* mesh, cc_solid_mass* out)
{
    if (!out) return -1;
    zero_solid(out);
    if (type == CC_SHAPE_PLANE || type == CC_SHAPE_HEIGHTFIELD) return 0;
    if (!(density >= 0.0) || !isfinite(density)) return -1;
    const double x = size.x, y = size.y, z = size.z;
    if (!isfinite(x) || !isfinite(y) || !isfinite(z)) return -1;
    const double pi = 3.14159265358979323846;
    int result;
    switch (type) {
    case CC_SHAPE_SPHERE: {
        if (!(x > 0.0)) return -1;
        double m = density * (4.0 / 3.0) * pi * x * x * x;
        double i = 0.4 * m * x * x;
        set_solid(out, m, 0.0, i, i, i);
        return 1;
    }
    case CC_SHAPE_CAPSULE: {
        double r = x, h = y; /* h: half length of the segment */
        if (!(r > 0.0) || !(h >= 0.0)) return -1;
        double mc = density * pi * r * r * 2.0 * h;             /* cylinder */
        double ms = density * (4.0 / 3.0) * pi * r * r * r;     /* both hemispheres */
        /* Each hemisphere: 2/5 mh r^2 about its flat face's diameter, less
         * mh (3r/8)^2 to its centroid, plus mh (h + 3r/8)^2 to the capsule
         * centre; for both: ms (2/5 r^2 + h^2 + 3/4 h r). */
        double ixx = mc * (r * r / 4.0 + h * h / 3.0) + ms * (0.4 * r * r + h * h + 0.75 * h * r);
        double izz = 0.5 * mc * r * r + 0.4 * ms * r * r;
        set_solid(out, mc + ms, 0.0, ixx, ixx, izz);
        return 1;
    }
    case CC_SHAPE_BOX: {
        if (!(x > 0.0) || !(y > 0.0) || !(z > 0.0)) return -1;
        double m = density * 8.0 * x * y * z;
        set_solid(out, m, 0.0, m * (y * y + z * z) / 3.0, m * (x * x + z * z) / 3.0,
                  m * (x * x + y * y) / 3.0);
        return 1;
    }
    case CC_SHAPE_CYLINDER: {
        double r = x, h = y;
        if (!(r > 0.0) || !(h > 0.0)) return -1;
        double m = density * pi * r * r * 2.0 * h;
        double ixx = m * (r * r / 4.0 + h * h / 3.0); /* m (3 r^2 + (2h)^2) / 12 */
        set_solid(out, m, 0.0, ixx, ixx, 0.5 * m * r * r);
        return 1;
    }
    case CC_SHAPE_CONE: {
        double r = x, hh = 2.0 * y; /* base at z = -y, apex at z = +y, height 2y */
        if (!(r > 0.0) || !(y > 0.0)) return -1;
        double m = density * pi * r * r * hh / 3.0;
        double ixx = 0.15 * m * r * r + 0.0375 * m * hh * hh; /* 3/20 m r^2 + 3/80 m H^2 */
        set_solid(out, m, -0.5 * y, ixx, ixx, 0.3 * m * r * r);
        return 1;
    }
    case CC_SHAPE_ELLIPSOID: {
        if (!(x > 0.0) || !(y > 0.0) || !(z > 0.0)) return -1;
        double m = density * (4.0 / 3.0) * pi * x * y * z;
        set_solid(out, m, 0.0, 0.2 * m * (y * y + z * z), 0.2 * m * (x * x + z * z),
                  0.2 * m * (x * x + y * y));
        return 1;
    }
    case CC_SHAPE_CONVEX_HULL:
        result = hull_mass(hull, size, density, out);
        break;
    case CC_SHAPE_MESH:
        result = mesh_mass(mesh, size, density, out);
        break;
    default:
        return -1; /* SDF or unknown */
    }
    if (result != 1) zero_solid(out);
    return result;
}

/* --- Transform, sum, inverse ------------------------------------------------- */

cc_solid_mass cc_solid_mass_transform(const cc_solid_mass* m, cc_transform local)
{
    double r[3][3], tmp[3][3];
    quat_matrix(local.q, r);
    cc_solid_mass out;
    zero_solid(&out);
    out.mass = m->mass;
    const double p[3] = {local.p.x, local.p.y, local.p.z};
    for (int i = 0; i < 3; ++i)
        out.center[i] = r[i][0] * m->center[0] + r[i][1] * m->center[1] + r[i][2] * m->center[2] + p[i];
    for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j)
            tmp[i][j] = r[i][0] * m->inertia[0][j] + r[i][1] * m->inertia[1][j] + r[i][2] * m->inertia[2][j];
    for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j)
            out.inertia[i][j] = tmp[i][0] * r[j][0] + tmp[i][1] * r[j][1] + tmp[i][2] * r[j][2];
    /* Keep the result exactly symmetric. */
    for (int i = 0; i < 3; ++i)
        for (int j = i + 1; j < 3; ++j) {
            double s = 0.5 * (out.inertia[i][j] + out.inertia[j][i]);
            out.inertia[i][j] = s;
            out.inertia[j][i] = s;
        }
    return out;
}

/* Adds the inertia of point mass `mass` at offset d from the reference point. */
static void add_parallel_axis(double inertia[3][3], double mass, const double d[3])
{
    double dd = d[0] * d[0] + d[1] * d[1] + d[2] * d[2];
    for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j) inertia[i][j] += mass * ((i == j ? dd : 0.0) - d[i] * d[j]);
}

cc_solid_mass cc_solid_mass_add(const cc_solid_mass* a, const cc_solid_mass* b)
{
    cc_solid_mass out;
    if (b->mass == 0.0 || a->mass == 0.0) {
        const cc_solid_mass* keep = (b->mass == 0.0) ? a : b;
        const cc_solid_mass* other = (b->mass == 0.0) ? b : a;
        out = *keep;
        if (keep->mass == 0.0) memset(out.center, 0, sizeof out.center);
        for (int i = 0; i < 3; ++i)
            for (int j = 0; j < 3; ++j) out.inertia[i][j] += other->inertia[i][j];
        return out;
    }
    zero_solid(&out);
    out.mass = a->mass + b->mass;
    double da[3], db[3];
    for (int i = 0; i < 3; ++i) {
        out.center[i] = (a->mass * a->center[i] + b->mass * b->center[i]) / out.mass;
        da[i] = a->center[i] - out.center[i];
        db[i] = b->center[i] - out.center[i];
    }
    for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j) out.inertia[i][j] = a->inertia[i][j] + b->inertia[i][j];
    add_parallel_axis(out.inertia, a->mass, da);
    add_parallel_axis(out.inertia, b->mass, db);
    return out;
}

int cc_inertia_inverse(const double in[3][3], double out[3][3])
{
    double largest = 0.0;
    for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j) {
            if (!isfinite(in[i][j])) return 0;
            if (fabs(in[i][j]) > largest) largest = fabs(in[i][j]);
        }
    if (!(largest > 0.0)) return 0;
    /* Work on the matrix divided by its largest entry, so that the
     * determinant neither overflows nor underflows: inverse(A) =
     * inverse(A / s) / s. */
    double a[3][3];
    for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j) a[i][j] = in[i][j] / largest;
    /* Positive definite (Sylvester): leading minors > 0. */
    if (!(a[0][0] > 0.0) || !(a[0][0] * a[1][1] - a[0][1] * a[1][0] > 0.0)) return 0;
    double c[3][3]; /* cofactors */
    c[0][0] = a[1][1] * a[2][2] - a[1][2] * a[2][1];
    c[0][1] = a[1][2] * a[2][0] - a[1][0] * a[2][2];
    c[0][2] = a[1][0] * a[2][1] - a[1][1] * a[2][0];
    c[1][0] = a[0][2] * a[2][1] - a[0][1] * a[2][2];
    c[1][1] = a[0][0] * a[2][2] - a[0][2] * a[2][0];
    c[1][2] = a[0][1] * a[2][0] - a[0][0] * a[2][1];
    c[2][0] = a[0][1] * a[1][2] - a[0][2] * a[1][1];
    c[2][1] = a[0][2] * a[1][0] - a[0][0] * a[1][2];
    c[2][2] = a[0][0] * a[1][1] - a[0][1] * a[1][0];
    double det = a[0][0] * c[0][0] + a[0][1] * c[0][1] + a[0][2] * c[0][2];
    if (!(det > 1e-14)) return 0;
    double inv[3][3];
    for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j) {
            inv[i][j] = c[j][i] / det / largest; /* adjugate = transposed cofactors */
            if (!isfinite(inv[i][j])) return 0;
        }
    memcpy(out, inv, sizeof inv);
    return 1;
}
