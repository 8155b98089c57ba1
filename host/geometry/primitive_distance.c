/* Exact signed distances to primitives and hulls; see primitive_distance.h.
 * Solids of revolution (cylinder, cone, capsule) reduce to their meridian
 * section in (radius, z); the ellipsoid solves its closest point's
 * Lagrange condition by bisection; a hull measures inside by its face
 * planes and outside by its faces' triangles. Double precision throughout:
 * the field stores floats, so each distance is exact to its last bit. */
#include "host/geometry/primitive_distance.h"

#include <float.h>
#include <math.h>

#include "kernels/mesh/bvh.h"

static double clampd(double x, double lo, double hi) { return x < lo ? lo : (x > hi ? hi : x); }

/* Signed distance from (u, v) to the rectangle [-a, a] x [-b, b]. */
static double rectangle(double u, double v, double a, double b)
{
    double qu = fabs(u) - a, qv = fabs(v) - b;
    double ou = qu > 0.0 ? qu : 0.0, ov = qv > 0.0 ? qv : 0.0;
    double in = qu > qv ? qu : qv;
    return sqrt(ou * ou + ov * ov) + (in < 0.0 ? in : 0.0);
}

/* Distance from (u, v) to the segment (a0, a1) - (b0, b1). */
static double segment2(double u, double v, double a0, double a1, double b0, double b1)
{
    double du = b0 - a0, dv = b1 - a1, t = clampd(((u - a0) * du + (v - a1) * dv) / (du * du + dv * dv), 0.0, 1.0);
    double eu = u - a0 - t * du, ev = v - a1 - t * dv;
    return sqrt(eu * eu + ev * ev);
}

/* The cone's meridian section: the triangle (-r, -h), (r, -h), (0, h), at
 * radius rho >= 0 and height z. The near slant is the one on rho's side. */
static double cone(double rho, double z, double r, double h)
{
    double base = segment2(rho, z, 0.0, -h, r, -h), slant = segment2(rho, z, r, -h, 0.0, h);
    double d = base < slant ? base : slant;
    int inside = z >= -h && rho * 2.0 * h <= r * (h - z);
    return inside ? -d : d;
}

/* The ellipsoid of semi-axes e: the closest point x satisfies
 * x_i = e_i^2 y_i / (t + e_i^2) with sum (x_i / e_i)^2 = 1, whose left side
 * falls monotonically in t past the pole at -min e_i^2. In s = t + min e_i^2
 * the pole is at 0 and nothing cancels near it. A coordinate of y that is
 * exactly 0 is nudged by 1e-9 of the size, so that the pole stays a pole
 * and a point on a symmetry plane inside finds its off-plane closest point
 * as the limit. */
static double ellipsoid(cc_vec3 p, cc_vec3 e)
{
    double a[3] = {e.x, e.y, e.z}, y[3] = {fabs(p.x), fabs(p.y), fabs(p.z)};
    double emax = fmax(a[0], fmax(a[1], a[2])), emin = fmin(a[0], fmin(a[1], a[2]));
    double len2 = 0.0, level = 0.0;
    for (int i = 0; i < 3; ++i) {
        if (y[i] < 1e-9 * emax) y[i] = 1e-9 * emax;
        len2 += y[i] * y[i];
        level += (y[i] / a[i]) * (y[i] / a[i]);
    }
    double lo = 0.0, hi = emax * sqrt(len2) + emin * emin;
    for (int it = 0; it < 200 && hi - lo > 1e-15 * hi; ++it) {
        double s = 0.5 * (lo + hi), f = -1.0;
        for (int i = 0; i < 3; ++i) {
            double q = a[i] * y[i] / (s + a[i] * a[i] - emin * emin);
            f += q * q;
        }
        if (f > 0.0) lo = s;
        else hi = s;
    }
    double s = 0.5 * (lo + hi), d2 = 0.0;
    for (int i = 0; i < 3; ++i) {
        double x = a[i] * a[i] * y[i] / (s + a[i] * a[i] - emin * emin);
        d2 += (x - y[i]) * (x - y[i]);
    }
    return level < 1.0 ? -sqrt(d2) : sqrt(d2);
}

/* A hull scaled per axis by k: inside, the largest of the face planes'
 * heights (exact for a convex solid); outside, the nearest point of the
 * faces' fans of triangles. Planes come from the scaled polygons (Newell's
 * normal), since a per-axis scale turns the stored normals. */
static double hull(const cc_hull_data* h, cc_vec3 k, cc_vec3 p)
{
    double height = -DBL_MAX, nearest = DBL_MAX;
    for (int f = 0; f < h->face_count; ++f) {
        const cc_hull_face* face = &h->faces[f];
        const int* idx = h->indices + face->first;
        double n[3] = {0.0, 0.0, 0.0};
        cc_vec3 first = cc_v3_mul(h->vertices[idx[0]], k);
        for (int i = 0; i < face->count; ++i) {
            cc_vec3 u = cc_v3_mul(h->vertices[idx[i]], k), w = cc_v3_mul(h->vertices[idx[(i + 1) % face->count]], k);
            n[0] += ((double)u.y - w.y) * ((double)u.z + w.z);
            n[1] += ((double)u.z - w.z) * ((double)u.x + w.x);
            n[2] += ((double)u.x - w.x) * ((double)u.y + w.y);
        }
        double len = sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
        if (!(len > 0.0)) continue;
        /* Outward as the stored normal, which the scale turns by 1 / k. */
        if (n[0] * face->normal.x / k.x + n[1] * face->normal.y / k.y + n[2] * face->normal.z / k.z < 0.0) len = -len;
        double along = (n[0] * ((double)p.x - first.x) + n[1] * ((double)p.y - first.y) + n[2] * ((double)p.z - first.z)) / len;
        if (along > height) height = along;
        for (int i = 1; i + 1 < face->count; ++i) {
            cc_vec3 b = cc_v3_mul(h->vertices[idx[i]], k), c = cc_v3_mul(h->vertices[idx[i + 1]], k);
            cc_vec3 q = cc_closest_point_on_triangle(p, first, b, c);
            double dx = (double)p.x - q.x, dy = (double)p.y - q.y, dz = (double)p.z - q.z;
            double d = sqrt(dx * dx + dy * dy + dz * dz);
            if (d < nearest) nearest = d;
        }
    }
    return height <= 0.0 ? height : nearest;
}

double cc_primitive_distance(const cc_primitive* s, cc_vec3 p)
{
    cc_vec3 k = s->size;
    double rho = sqrt((double)p.x * p.x + (double)p.y * p.y);
    switch (s->type) {
    case CC_SHAPE_SPHERE: return sqrt((double)p.x * p.x + (double)p.y * p.y + (double)p.z * p.z) - k.x;
    case CC_SHAPE_CAPSULE: {
        double dz = fabs((double)p.z) - k.y;
        dz = dz > 0.0 ? dz : 0.0;
        return sqrt(rho * rho + dz * dz) - k.x;
    }
    case CC_SHAPE_BOX: {
        double q[3] = {fabs((double)p.x) - k.x, fabs((double)p.y) - k.y, fabs((double)p.z) - k.z}, out = 0.0;
        for (int i = 0; i < 3; ++i)
            if (q[i] > 0.0) out += q[i] * q[i];
        double in = fmax(q[0], fmax(q[1], q[2]));
        return sqrt(out) + (in < 0.0 ? in : 0.0);
    }
    case CC_SHAPE_CYLINDER: return rectangle(rho, p.z, k.x, k.y);
    case CC_SHAPE_CONE: return cone(rho, p.z, k.x, k.y);
    case CC_SHAPE_ELLIPSOID: return ellipsoid(p, k);
    case CC_SHAPE_CONVEX_HULL: return hull(s->hull, k, p);
    default: return DBL_MAX;
    }
}

void cc_primitive_bounds(const cc_primitive* s, cc_vec3* lower, cc_vec3* upper)
{
    cc_vec3 k = s->size, h;
    switch (s->type) {
    case CC_SHAPE_SPHERE: h = cc_v3(k.x, k.x, k.x); break;
    case CC_SHAPE_CAPSULE: h = cc_v3(k.x, k.x, k.y + k.x); break;
    case CC_SHAPE_CYLINDER:
    case CC_SHAPE_CONE: h = cc_v3(k.x, k.x, k.y); break;
    case CC_SHAPE_CONVEX_HULL: {
        cc_vec3 a = cc_v3_mul(s->hull->lower, k), b = cc_v3_mul(s->hull->upper, k);
        *lower = cc_v3_min(a, b);
        *upper = cc_v3_max(a, b);
        return;
    }
    default: h = k; break; /* box, ellipsoid */
    }
    *lower = cc_v3_neg(h);
    *upper = h;
}
