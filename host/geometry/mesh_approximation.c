/* Mesh approximation on the builder: turns mesh shapes into a convex hull,
 * an oriented bounding box or a bounding sphere, in place.
 *
 * Index semantics: a selected shape keeps its index and becomes the
 * approximation (type, size, source and local pose change; everything else
 * stays). With keep_visual, a visual-only copy of each original mesh shape
 * (has_shape_collision 0, density 0) is appended, in increasing order of the
 * selected indices. Nothing is deleted or renumbered, so filter pairs and
 * replicated blocks keep referring to the right shapes.
 *
 * Each distinct (mesh, scale) is approximated once and the result is shared
 * by every shape using it: replicated worlds store the template's meshes once,
 * so a hundred copies of one mesh shape cost one hull, one box or one sphere.
 *
 * Geometry works on the scaled vertices (float products, exactly as the shape
 * scales its mesh), in double precision:
 *   - hull: cc_builder_add_convex_hull_data of the scaled vertices (scale baked
 *     in, shape scale (1, 1, 1)), with cc_default_convex_hull_def()'s limit;
 *   - box: candidate axes are the face normals of the convex hull, the
 *     principal axes and the coordinate axes; for each candidate normal the
 *     projection of the hull onto its plane gets its minimum-area rectangle
 *     (one side flush with a projected hull edge), and the box of least volume
 *     wins. Extents are then measured over every vertex with the rotation the
 *     float quaternion really encodes, and rounded outward;
 *   - sphere: Welzl's minimum enclosing ball (iterative, points in a fixed
 *     pseudo-random order), its radius then set to the largest distance from
 *     the float centre, rounded up. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "host/model/builder_internal.h"
#include "host/geometry/vec3d.h"

#define WHAT "cc_builder_approximate_meshes"

/* --- double-precision helpers beyond host/geometry/vec3d.h ---------------- */

static d3 d3_normalized(d3 a)
{
    double n = sqrt(d3_len2(a));
    return n > 0.0 ? d3_scale(a, 1.0 / n) : d3_make(1.0, 0.0, 0.0);
}

/* Quaternions (x, y, z, w), scalar last, as cc_quat. */
typedef struct dq {
    double x, y, z, w;
} dq;

static dq dq_mul(dq a, dq b)
{
    dq r;
    r.x = a.w * b.x + a.x * b.w + a.y * b.z - a.z * b.y;
    r.y = a.w * b.y - a.x * b.z + a.y * b.w + a.z * b.x;
    r.z = a.w * b.z + a.x * b.y - a.y * b.x + a.z * b.w;
    r.w = a.w * b.w - a.x * b.x - a.y * b.y - a.z * b.z;
    return r;
}

static d3 dq_rotate(dq q, d3 v)
{
    d3 u = d3_make(q.x, q.y, q.z);
    d3 t = d3_scale(d3_cross(u, v), 2.0);
    return d3_add(d3_add(v, d3_scale(t, q.w)), d3_cross(u, t));
}

static dq dq_of(cc_quat q)
{
    dq r = {q.x, q.y, q.z, q.w};
    return r;
}

/* Unit float quaternion of a double one (identity if degenerate). */
static cc_quat quat_to_float(dq q)
{
    double n = sqrt(q.x * q.x + q.y * q.y + q.z * q.z + q.w * q.w);
    cc_quat r = {0.0f, 0.0f, 0.0f, 1.0f};
    if (!(n > 0.0)) return r;
    if (q.w < 0.0) n = -n; /* canonical sign: w >= 0 */
    r.x = (float)(q.x / n);
    r.y = (float)(q.y / n);
    r.z = (float)(q.z / n);
    r.w = (float)(q.w / n);
    float m = sqrtf(r.x * r.x + r.y * r.y + r.z * r.z + r.w * r.w);
    r.x /= m, r.y /= m, r.z /= m, r.w /= m;
    return r;
}

/* Columns of the rotation matrix of q: the rotated x, y and z axes. */
static void dq_axes(dq q, d3 axes[3])
{
    double x2 = q.x + q.x, y2 = q.y + q.y, z2 = q.z + q.z;
    double xx = q.x * x2, yy = q.y * y2, zz = q.z * z2;
    double xy = q.x * y2, xz = q.x * z2, yz = q.y * z2;
    double wx = q.w * x2, wy = q.w * y2, wz = q.w * z2;
    axes[0] = d3_make(1.0 - (yy + zz), xy + wz, xz - wy);
    axes[1] = d3_make(xy - wz, 1.0 - (xx + zz), yz + wx);
    axes[2] = d3_make(xz + wy, yz - wx, 1.0 - (xx + yy));
}

/* Quaternion of the rotation whose matrix has columns axes[0..2]
 * (orthonormal, right-handed). */
static dq dq_from_axes(const d3 axes[3])
{
    double m00 = axes[0].x, m10 = axes[0].y, m20 = axes[0].z;
    double m01 = axes[1].x, m11 = axes[1].y, m21 = axes[1].z;
    double m02 = axes[2].x, m12 = axes[2].y, m22 = axes[2].z;
    double tr = m00 + m11 + m22;
    dq q;
    if (tr > 0.0) {
        double s = sqrt(tr + 1.0) * 2.0;
        q.w = 0.25 * s, q.x = (m21 - m12) / s, q.y = (m02 - m20) / s, q.z = (m10 - m01) / s;
    } else if (m00 > m11 && m00 > m22) {
        double s = sqrt(1.0 + m00 - m11 - m22) * 2.0;
        q.w = (m21 - m12) / s, q.x = 0.25 * s, q.y = (m01 + m10) / s, q.z = (m02 + m20) / s;
    } else if (m11 > m22) {
        double s = sqrt(1.0 + m11 - m00 - m22) * 2.0;
        q.w = (m02 - m20) / s, q.x = (m01 + m10) / s, q.y = 0.25 * s, q.z = (m12 + m21) / s;
    } else {
        double s = sqrt(1.0 + m22 - m00 - m11) * 2.0;
        q.w = (m10 - m01) / s, q.x = (m02 + m20) / s, q.y = (m12 + m21) / s, q.z = 0.25 * s;
    }
    return q;
}

/* Smallest float not below x (x finite, >= 0). */
static float round_up(double x)
{
    float f = (float)x;
    if ((double)f < x) f = nextafterf(f, INFINITY);
    return f;
}

/* --- what one (mesh, scale) becomes ---------------------------------------- */

typedef struct approx_result {
    int type;           /* CC_SHAPE_CONVEX_HULL, _BOX or _SPHERE */
    cc_vec3 size;       /* as in cc_shape_type */
    int source;         /* hull index, else -1 */
    cc_vec3 center;     /* placement in the mesh shape's frame (scaled space) */
    cc_quat rotation;
} approx_result;

/* The scaled vertices of a mesh as its shape sees them. */
static cc_vec3* scaled_vertices(const cc_mesh_data* m, cc_vec3 scale)
{
    cc_vec3* p = (cc_vec3*)cc_host_alloc(sizeof(cc_vec3) * (size_t)m->vertex_count);
    if (!p) return NULL;
    for (int i = 0; i < m->vertex_count; ++i) {
        p[i].x = m->vertices[i].x * scale.x;
        p[i].y = m->vertices[i].y * scale.y;
        p[i].z = m->vertices[i].z * scale.z;
    }
    return p;
}

/* Diagonal length of the bounding box of the points. */
static double points_diameter(const cc_vec3* p, int n)
{
    d3 lo = d3_of(p[0]), hi = lo;
    for (int i = 1; i < n; ++i) {
        lo.x = fmin(lo.x, p[i].x), lo.y = fmin(lo.y, p[i].y), lo.z = fmin(lo.z, p[i].z);
        hi.x = fmax(hi.x, p[i].x), hi.y = fmax(hi.y, p[i].y), hi.z = fmax(hi.z, p[i].z);
    }
    return sqrt(d3_len2(d3_sub(hi, lo)));
}

/* --- oriented bounding box ------------------------------------------------- */

/* Eigenvectors of a symmetric 3x3 matrix (cyclic Jacobi), as columns. */
static void sym3_eigenvectors(double a[3][3], d3 out[3])
{
    double v[3][3] = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
    for (int sweep = 0; sweep < 50; ++sweep) {
        double off = fabs(a[0][1]) + fabs(a[0][2]) + fabs(a[1][2]);
        double diag = fabs(a[0][0]) + fabs(a[1][1]) + fabs(a[2][2]);
        if (!(off > 1e-15 * diag)) break;
        for (int p = 0; p < 2; ++p)
            for (int q = p + 1; q < 3; ++q) {
                if (a[p][q] == 0.0) continue;
                double theta = (a[q][q] - a[p][p]) / (2.0 * a[p][q]);
                double t = (theta >= 0.0 ? 1.0 : -1.0) / (fabs(theta) + sqrt(theta * theta + 1.0));
                double c = 1.0 / sqrt(t * t + 1.0), s = t * c;
                for (int k = 0; k < 3; ++k) { /* a = J^T a J */
                    double akp = a[k][p], akq = a[k][q];
                    a[k][p] = c * akp - s * akq;
                    a[k][q] = s * akp + c * akq;
                }
                for (int k = 0; k < 3; ++k) {
                    double apk = a[p][k], aqk = a[q][k];
                    a[p][k] = c * apk - s * aqk;
                    a[q][k] = s * apk + c * aqk;
                }
                for (int k = 0; k < 3; ++k) {
                    double vkp = v[k][p], vkq = v[k][q];
                    v[k][p] = c * vkp - s * vkq;
                    v[k][q] = s * vkp + c * vkq;
                }
            }
    }
    for (int j = 0; j < 3; ++j) out[j] = d3_normalized(d3_make(v[0][j], v[1][j], v[2][j]));
}

typedef struct pt2 {
    double x, y;
} pt2;

static int pt2_less(pt2 a, pt2 b) { return a.x < b.x || (a.x == b.x && a.y < b.y); }

static double cross2(pt2 o, pt2 a, pt2 b) { return (a.x - o.x) * (b.y - o.y) - (a.y - o.y) * (b.x - o.x); }

static int pt2_compare(const void* pa, const void* pb)
{
    pt2 a = *(const pt2*)pa, b = *(const pt2*)pb;
    return pt2_less(a, b) ? -1 : pt2_less(b, a) ? 1 : 0;
}

/* Andrew's monotone chain: the convex hull of p[0..n) into h (capacity
 * 2n), counter-clockwise, without repeating the first point. Sorts p. */
static int hull2(pt2* p, int n, pt2* h)
{
    qsort(p, (size_t)n, sizeof *p, pt2_compare);
    if (n < 3) {
        for (int i = 0; i < n; ++i) h[i] = p[i];
        return n;
    }
    int k = 0;
    for (int i = 0; i < n; ++i) {
        while (k >= 2 && cross2(h[k - 2], h[k - 1], p[i]) <= 0.0) --k;
        h[k++] = p[i];
    }
    for (int i = n - 2, t = k + 1; i >= 0; --i) {
        while (k >= t && cross2(h[k - 2], h[k - 1], p[i]) <= 0.0) --k;
        h[k++] = p[i];
    }
    return k - 1;
}

/* Unit direction (in 2D) of one side of the minimum-area rectangle around
 * the convex polygon h[0..m): a side is always flush with a polygon edge. */
static pt2 min_area_direction(const pt2* h, int m)
{
    pt2 best = {1.0, 0.0};
    double best_area = INFINITY;
    for (int i = 0; i < m; ++i) {
        pt2 a = h[i], b = h[(i + 1) % m];
        double dx = b.x - a.x, dy = b.y - a.y, len = sqrt(dx * dx + dy * dy);
        if (!(len > 0.0)) continue;
        dx /= len, dy /= len;
        double lo_u = INFINITY, hi_u = -INFINITY, lo_v = INFINITY, hi_v = -INFINITY;
        for (int j = 0; j < m; ++j) {
            double u = h[j].x * dx + h[j].y * dy, v = -h[j].x * dy + h[j].y * dx;
            lo_u = fmin(lo_u, u), hi_u = fmax(hi_u, u);
            lo_v = fmin(lo_v, v), hi_v = fmax(hi_v, v);
        }
        double area = (hi_u - lo_u) * (hi_v - lo_v);
        if (area < best_area) {
            best_area = area;
            best.x = dx, best.y = dy;
        }
    }
    return best;
}

/* Frames kept from the search over the candidate points, rescored over
 * every point at the end: a simplified hull leaves points out, so a frame
 * can look better on the candidates than it is. */
#define OBB_KEEP 8

typedef struct obb_search {
    const d3* pts; /* candidate points (hull vertices, or all points) */
    int n;
    pt2* proj;     /* scratch: n projected points */
    pt2* poly;     /* scratch: 2n polygon points */
    double eps;    /* added to each extent when scoring (flat sets) */
    d3 top[OBB_KEEP][3]; /* best frames so far, best first */
    double top_score[OBB_KEEP];
    int top_count;
} obb_search;

/* Padded volume of the box with these axes around pts[0..n). */
static double frame_score(const d3 axes[3], const d3* pts, int n, double eps)
{
    double score = 1.0;
    for (int k = 0; k < 3; ++k) {
        double lo = INFINITY, hi = -INFINITY;
        for (int i = 0; i < n; ++i) {
            double t = d3_dot(axes[k], pts[i]);
            lo = fmin(lo, t), hi = fmax(hi, t);
        }
        score *= (hi - lo) + eps;
    }
    return score;
}

/* Scores a right-handed orthonormal frame and keeps it if among the best. */
static void try_frame(obb_search* s, const d3 axes[3])
{
    double score = frame_score(axes, s->pts, s->n, s->eps);
    int at = s->top_count;
    while (at > 0 && score < s->top_score[at - 1]) --at;
    if (at >= OBB_KEEP) return;
    int last = s->top_count < OBB_KEEP ? s->top_count : OBB_KEEP - 1;
    for (int i = last; i > at; --i) {
        s->top_score[i] = s->top_score[i - 1];
        for (int k = 0; k < 3; ++k) s->top[i][k] = s->top[i - 1][k];
    }
    s->top_score[at] = score;
    for (int k = 0; k < 3; ++k) s->top[at][k] = axes[k];
    if (s->top_count < OBB_KEEP) s->top_count++;
}

/* The best box with one axis along `normal`: the minimum-area rectangle of
 * the points projected onto the plane across it. */
static void try_normal(obb_search* s, d3 normal)
{
    d3 n = d3_normalized(normal);
    d3 helper = fabs(n.x) < 0.6 ? d3_make(1, 0, 0) : fabs(n.y) < 0.6 ? d3_make(0, 1, 0) : d3_make(0, 0, 1);
    d3 u = d3_normalized(d3_cross(helper, n)), v = d3_cross(n, u);
    for (int i = 0; i < s->n; ++i) {
        s->proj[i].x = d3_dot(s->pts[i], u);
        s->proj[i].y = d3_dot(s->pts[i], v);
    }
    int m = hull2(s->proj, s->n, s->poly);
    pt2 d = min_area_direction(s->poly, m);
    d3 axes[3];
    axes[0] = d3_normalized(d3_add(d3_scale(u, d.x), d3_scale(v, d.y)));
    axes[1] = d3_normalized(d3_cross(n, axes[0]));
    axes[2] = n;
    try_frame(s, axes);
}

/* Of the 24 rotations that describe the same box, the one closest to the
 * identity (largest trace): an axis-aligned box keeps x, y, z. */
static void canonical_axes(d3 axes[3])
{
    static const int perm[6][3] = {{0, 1, 2}, {1, 2, 0}, {2, 0, 1}, {0, 2, 1}, {2, 1, 0}, {1, 0, 2}};
    static const int parity[6] = {1, 1, 1, -1, -1, -1};
    d3 best[3] = {axes[0], axes[1], axes[2]};
    double best_trace = -INFINITY;
    for (int p = 0; p < 6; ++p)
        for (int sgn = 0; sgn < 8; ++sgn) {
            int s0 = (sgn & 1) ? -1 : 1, s1 = (sgn & 2) ? -1 : 1, s2 = (sgn & 4) ? -1 : 1;
            if (parity[p] * s0 * s1 * s2 < 0) continue;
            int sg[3] = {s0, s1, s2};
            double tr = 0.0;
            for (int k = 0; k < 3; ++k) tr += sg[k] * d3_get(axes[perm[p][k]], k);
            if (tr > best_trace + 1e-12) {
                best_trace = tr;
                for (int k = 0; k < 3; ++k) best[k] = d3_scale(axes[perm[p][k]], (double)sg[k]);
            }
        }
    for (int k = 0; k < 3; ++k) axes[k] = best[k];
}

static cc_status make_box(const cc_vec3* pts, int n, int shape, int mesh, approx_result* out)
{
    double diameter = points_diameter(pts, n);
    if (!(diameter > 0.0))
        return cc_fail(CC_ERR_INVALID_SIZE, "%s: shape %d: every vertex of mesh %d lies at one point; there is no box to fit", WHAT, shape, mesh);
    /* Candidate points: the hull's vertices when the mesh spans a volume. */
    cc_hull_data hull;
    memset(&hull, 0, sizeof hull);
    int have_hull = n >= 4 && cc_hull_build(pts, n, 256, WHAT, &hull) == CC_OK;
    int cn = have_hull ? hull.vertex_count : n;
    d3* cpts = (d3*)cc_host_alloc(sizeof(d3) * (size_t)cn);
    pt2* proj = (pt2*)cc_host_alloc(sizeof(pt2) * (size_t)cn);
    pt2* poly = (pt2*)cc_host_alloc(sizeof(pt2) * 2 * (size_t)cn + 2 * sizeof(pt2));
    if (!cpts || !proj || !poly) {
        cc_host_free(cpts), cc_host_free(proj), cc_host_free(poly);
        if (have_hull) cc_hull_data_free(&hull);
        return cc_fail(CC_ERR_OUT_OF_MEMORY, "%s: out of host memory", WHAT);
    }
    for (int i = 0; i < cn; ++i) cpts[i] = d3_of(have_hull ? hull.vertices[i] : pts[i]);

    obb_search s;
    s.pts = cpts;
    s.n = cn;
    s.proj = proj;
    s.poly = poly;
    s.eps = 1e-6 * diameter;
    s.top_count = 0;
    const d3 identity[3] = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
    /* The axis-aligned box, then the principal axes, then each coordinate
     * axis and hull face normal as one box axis. */
    try_frame(&s, identity);
    d3 mean = d3_make(0, 0, 0);
    for (int i = 0; i < cn; ++i) mean = d3_add(mean, cpts[i]);
    mean = d3_scale(mean, 1.0 / cn);
    double cov[3][3] = {{0}};
    for (int i = 0; i < cn; ++i) {
        d3 d = d3_sub(cpts[i], mean);
        double c[3] = {d.x, d.y, d.z};
        for (int r = 0; r < 3; ++r)
            for (int k = 0; k < 3; ++k) cov[r][k] += c[r] * c[k];
    }
    d3 pca[3];
    sym3_eigenvectors(cov, pca);
    pca[2] = d3_normalized(d3_cross(pca[0], pca[1]));
    pca[1] = d3_cross(pca[2], pca[0]);
    try_frame(&s, pca);
    for (int k = 0; k < 3; ++k) try_normal(&s, pca[k]);
    try_normal(&s, d3_make(1, 0, 0));
    try_normal(&s, d3_make(0, 1, 0));
    try_normal(&s, d3_make(0, 0, 1));
    if (have_hull)
        for (int f = 0; f < hull.face_count; ++f) {
            d3 nf = d3_of(hull.faces[f].normal);
            if (d3_len2(nf) > 0.0) try_normal(&s, nf);
        }
    cc_host_free(proj), cc_host_free(poly);
    if (have_hull) cc_hull_data_free(&hull);

    /* The kept frames and the axis-aligned one, over every point. */
    d3 axes[3] = {identity[0], identity[1], identity[2]};
    if (have_hull) {
        d3* all = (d3*)cc_host_realloc(cpts, sizeof(d3) * (size_t)n);
        if (!all) {
            cc_host_free(cpts);
            return cc_fail(CC_ERR_OUT_OF_MEMORY, "%s: out of host memory", WHAT);
        }
        cpts = all;
        for (int i = 0; i < n; ++i) cpts[i] = d3_of(pts[i]);
    }
    double best = frame_score(identity, cpts, n, s.eps);
    for (int t = 0; t < s.top_count; ++t) {
        double score = frame_score(s.top[t], cpts, n, s.eps);
        if (score < best) {
            best = score;
            for (int k = 0; k < 3; ++k) axes[k] = s.top[t][k];
        }
    }
    cc_host_free(cpts);
    canonical_axes(axes);
    /* Measure with the rotation the stored float quaternion encodes. */
    cc_quat qf = quat_to_float(dq_from_axes(axes));
    dq_axes(dq_of(qf), axes);
    double lo[3], hi[3];
    for (int k = 0; k < 3; ++k) lo[k] = INFINITY, hi[k] = -INFINITY;
    for (int i = 0; i < n; ++i) {
        d3 p = d3_of(pts[i]);
        for (int k = 0; k < 3; ++k) {
            double t = d3_dot(axes[k], p);
            lo[k] = fmin(lo[k], t), hi[k] = fmax(hi[k], t);
        }
    }
    d3 c = d3_make(0, 0, 0);
    for (int k = 0; k < 3; ++k) c = d3_add(c, d3_scale(axes[k], 0.5 * (lo[k] + hi[k])));
    cc_vec3 cf = {(float)c.x, (float)c.y, (float)c.z};
    d3 cd = d3_of(cf);
    double half[3] = {0.0, 0.0, 0.0};
    for (int i = 0; i < n; ++i) {
        d3 p = d3_sub(d3_of(pts[i]), cd);
        for (int k = 0; k < 3; ++k) half[k] = fmax(half[k], fabs(d3_dot(axes[k], p)));
    }
    /* A flat or thin mesh still gets a box of some thickness. */
    double biggest = fmax(half[0], fmax(half[1], half[2]));
    double floor_half = 1e-5 * biggest;
    out->type = CC_SHAPE_BOX;
    out->size.x = round_up(fmax(half[0], floor_half));
    out->size.y = round_up(fmax(half[1], floor_half));
    out->size.z = round_up(fmax(half[2], floor_half));
    out->source = -1;
    out->center = cf;
    out->rotation = qf;
    return CC_OK;
}

/* --- bounding sphere ------------------------------------------------------- */

typedef struct ball {
    d3 c;
    double r2;
} ball;

static ball ball1(d3 a)
{
    ball b = {a, 0.0};
    return b;
}

static ball ball2(d3 a, d3 b)
{
    ball r;
    r.c = d3_scale(d3_add(a, b), 0.5);
    r.r2 = 0.25 * d3_len2(d3_sub(a, b));
    return r;
}

/* Grows a ball's radius to reach every one of pts[0..k). */
static ball cover(ball b, const d3* pts, int k)
{
    for (int i = 0; i < k; ++i) b.r2 = fmax(b.r2, d3_len2(d3_sub(pts[i], b.c)));
    return b;
}

/* The smallest of the given candidate balls once each is grown to cover
 * all of pts[0..k): the fallback for degenerate support sets. */
static ball smallest_covering(const ball* cand, int nc, const d3* pts, int k)
{
    ball best = cover(cand[0], pts, k);
    for (int i = 1; i < nc; ++i) {
        ball b = cover(cand[i], pts, k);
        if (b.r2 < best.r2) best = b;
    }
    return best;
}

/* Circumscribed ball of three points (their circumcircle). */
static int circum3(d3 p0, d3 p1, d3 p2, ball* out)
{
    d3 a = d3_sub(p1, p0), b = d3_sub(p2, p0), axb = d3_cross(a, b);
    double la = d3_len2(a), lb = d3_len2(b), d = d3_len2(axb);
    if (!(d > 1e-20 * la * lb) || !(la > 0.0) || !(lb > 0.0)) return 0;
    d3 off = d3_scale(d3_add(d3_scale(d3_cross(b, axb), la), d3_scale(d3_cross(axb, a), lb)), 0.5 / d);
    out->c = d3_add(p0, off);
    out->r2 = d3_len2(off);
    return 1;
}

static ball ball3(d3 p0, d3 p1, d3 p2)
{
    ball b;
    if (circum3(p0, p1, p2, &b)) return b;
    d3 pts[3] = {p0, p1, p2};
    ball cand[3] = {ball2(p0, p1), ball2(p1, p2), ball2(p0, p2)};
    return smallest_covering(cand, 3, pts, 3);
}

static ball ball4(d3 p0, d3 p1, d3 p2, d3 p3)
{
    d3 r1 = d3_scale(d3_sub(p1, p0), 2.0), r2 = d3_scale(d3_sub(p2, p0), 2.0), r3 = d3_scale(d3_sub(p3, p0), 2.0);
    double det = d3_dot(r1, d3_cross(r2, r3));
    double scale = sqrt(d3_len2(r1) * d3_len2(r2) * d3_len2(r3));
    if (fabs(det) > 1e-10 * scale) {
        double h1 = 0.25 * d3_len2(r1), h2 = 0.25 * d3_len2(r2), h3 = 0.25 * d3_len2(r3);
        d3 off = d3_scale(d3_add(d3_add(d3_scale(d3_cross(r2, r3), h1), d3_scale(d3_cross(r3, r1), h2)),
                                 d3_scale(d3_cross(r1, r2), h3)),
                          1.0 / det);
        ball b = {d3_add(p0, off), d3_len2(off)};
        return b;
    }
    /* Coplanar: the best circle through three of them, or a diameter. */
    d3 pts[4] = {p0, p1, p2, p3};
    ball cand[10];
    int nc = 0;
    for (int i = 0; i < 4; ++i)
        for (int j = i + 1; j < 4; ++j) cand[nc++] = ball2(pts[i], pts[j]);
    for (int skip = 0; skip < 4; ++skip) {
        d3 t[3];
        int k = 0;
        for (int i = 0; i < 4; ++i)
            if (i != skip) t[k++] = pts[i];
        if (circum3(t[0], t[1], t[2], &cand[nc])) ++nc;
    }
    return smallest_covering(cand, nc, pts, 4);
}

/* Welzl's minimum enclosing ball, iteratively: each point found outside
 * the ball of the previous ones lies on the boundary of the new ball. */
static ball min_ball(const d3* p, int n, double tol)
{
#define OUTSIDE(bb, q) (d3_len2(d3_sub((q), (bb).c)) > (bb).r2 + tol)
    ball b = ball1(p[0]);
    for (int i = 1; i < n; ++i) {
        if (!OUTSIDE(b, p[i])) continue;
        b = ball1(p[i]);
        for (int j = 0; j < i; ++j) {
            if (!OUTSIDE(b, p[j])) continue;
            b = ball2(p[i], p[j]);
            for (int k = 0; k < j; ++k) {
                if (!OUTSIDE(b, p[k])) continue;
                b = ball3(p[i], p[j], p[k]);
                for (int l = 0; l < k; ++l)
                    if (OUTSIDE(b, p[l])) b = ball4(p[i], p[j], p[k], p[l]);
            }
        }
    }
    return b;
#undef OUTSIDE
}

static cc_status make_sphere(const cc_vec3* pts, int n, int shape, int mesh, approx_result* out)
{
    double diameter = points_diameter(pts, n);
    if (!(diameter > 0.0))
        return cc_fail(CC_ERR_INVALID_SIZE, "%s: shape %d: every vertex of mesh %d lies at one point; a sphere of radius 0 is no shape", WHAT, shape, mesh);
    d3* p = (d3*)cc_host_alloc(sizeof(d3) * (size_t)n);
    if (!p) return cc_fail(CC_ERR_OUT_OF_MEMORY, "%s: out of host memory", WHAT);
    for (int i = 0; i < n; ++i) p[i] = d3_of(pts[i]);
    /* A fixed pseudo-random order keeps the expected linear time and the
     * result reproducible. */
    uint64_t state = 0x9E3779B97F4A7C15ull;
    for (int i = n - 1; i > 0; --i) {
        state = state * 6364136223846793005ull + 1442695040888963407ull;
        int j = (int)((state >> 33) % (uint64_t)(i + 1));
        d3 t = p[i];
        p[i] = p[j];
        p[j] = t;
    }
    ball b = min_ball(p, n, 1e-12 * diameter * diameter);
    cc_vec3 cf = {(float)b.c.x, (float)b.c.y, (float)b.c.z};
    d3 cd = d3_of(cf);
    double r2 = 0.0;
    for (int i = 0; i < n; ++i) r2 = fmax(r2, d3_len2(d3_sub(p[i], cd)));
    cc_host_free(p);
    out->type = CC_SHAPE_SPHERE;
    out->size.x = round_up(sqrt(r2));
    out->size.y = 0.0f;
    out->size.z = 0.0f;
    out->source = -1;
    out->center = cf;
    out->rotation.x = out->rotation.y = out->rotation.z = 0.0f;
    out->rotation.w = 1.0f;
    return CC_OK;
}

/* --- convex hull ----------------------------------------------------------- */

static cc_status make_hull(cc_builder* b, const cc_vec3* pts, int n, int shape, int mesh, approx_result* out)
{
    cc_convex_hull_def def = cc_default_convex_hull_def();
    int hull = -1;
    cc_status s = cc_builder_add_convex_hull_data(b, pts, n, &def, &hull);
    if (s != CC_OK) {
        char why[512];
        const char* msg = cc_last_error_message();
        strncpy(why, msg ? msg : "", sizeof why - 1);
        why[sizeof why - 1] = '\0';
        return cc_fail(s, "%s: shape %d: mesh %d has no convex hull (%s); use CC_MESH_APPROX_BOX for flat meshes", WHAT, shape, mesh, why);
    }
    out->type = CC_SHAPE_CONVEX_HULL;
    out->size.x = out->size.y = out->size.z = 1.0f;
    out->source = hull;
    out->center.x = out->center.y = out->center.z = 0.0f;
    out->rotation.x = out->rotation.y = out->rotation.z = 0.0f;
    out->rotation.w = 1.0f;
    return CC_OK;
}

/* --- the public call ------------------------------------------------------- */

/* A selected shape with the key it is memoised under. */
typedef struct approx_item {
    int mesh;
    uint32_t sx, sy, sz; /* scale, bit for bit */
    int shape;
} approx_item;

static uint32_t float_bits(float f)
{
    uint32_t u;
    memcpy(&u, &f, sizeof u);
    return u;
}

static int same_key(const approx_item* a, const approx_item* b)
{
    return a->mesh == b->mesh && a->sx == b->sx && a->sy == b->sy && a->sz == b->sz;
}

static int item_compare(const void* pa, const void* pb)
{
    const approx_item *a = (const approx_item*)pa, *b = (const approx_item*)pb;
    if (a->mesh != b->mesh) return a->mesh < b->mesh ? -1 : 1;
    if (a->sx != b->sx) return a->sx < b->sx ? -1 : 1;
    if (a->sy != b->sy) return a->sy < b->sy ? -1 : 1;
    if (a->sz != b->sz) return a->sz < b->sz ? -1 : 1;
    return (a->shape > b->shape) - (a->shape < b->shape);
}

/* Mesh pose composed with the approximation's placement (in the scaled
 * mesh frame): local * (center, rotation). */
static cc_transform compose(cc_transform local, const approx_result* r)
{
    dq q = dq_of(local.q);
    cc_transform t = local; /* a hull (and a sphere's rotation) keep the mesh pose bit for bit */
    if (r->center.x != 0.0f || r->center.y != 0.0f || r->center.z != 0.0f) {
        d3 p = d3_add(d3_of(local.p), dq_rotate(q, d3_of(r->center)));
        t.p.x = (float)p.x, t.p.y = (float)p.y, t.p.z = (float)p.z;
    }
    if (r->rotation.x != 0.0f || r->rotation.y != 0.0f || r->rotation.z != 0.0f)
        t.q = quat_to_float(dq_mul(q, dq_of(r->rotation)));
    return t;
}

/* Blocks whose copies would stop matching turn irregular: a block where
 * copies differ in which shapes were approximated, or (keep_visual) one
 * whose worlds receive the appended visual shapes. */
static void mark_blocks(cc_builder* b, const char* selected, int keep_visual)
{
    for (int k = 0; k < b->block_count; ++k) {
        cc_replica_block* blk = &b->blocks[k];
        if (blk->irregular) continue;
        int end_world = blk->first_world + blk->copies;
        if (keep_visual)
            for (int s = 0; s < b->shape_count && !blk->irregular; ++s)
                if (selected[s] && b->shapes[s].world >= blk->first_world && b->shapes[s].world < end_world)
                    blk->irregular = 1;
        for (int o = 0; o < blk->shape_stride && !blk->irregular; ++o) {
            char first = selected[blk->first_shape + o];
            for (int c = 1; c < blk->copies; ++c)
                if (selected[blk->first_shape + c * blk->shape_stride + o] != first) {
                    blk->irregular = 1;
                    break;
                }
        }
    }
}

cc_status cc_builder_approximate_meshes(cc_builder* b, const int* shapes, int count,
                                        cc_mesh_approximation method, int keep_visual)
{
    if (!b) return cc_fail(CC_ERR_INVALID_ARGUMENT, "%s: builder is NULL", WHAT);
    if ((int)method < (int)CC_MESH_APPROX_CONVEX_HULL || (int)method > (int)CC_MESH_APPROX_SPHERE)
        return cc_fail(CC_ERR_INVALID_ARGUMENT, "%s: method %d is not a cc_mesh_approximation value; use CC_MESH_APPROX_CONVEX_HULL, CC_MESH_APPROX_BOX or CC_MESH_APPROX_SPHERE", WHAT, (int)method);
    if (shapes && count < 0)
        return cc_fail(CC_ERR_INVALID_ARGUMENT, "%s: count %d is negative; give the number of indices in shapes", WHAT, count);
    if (shapes)
        for (int i = 0; i < count; ++i) {
            int s = shapes[i];
            if (s < 0 || s >= b->shape_count)
                return cc_fail(CC_ERR_INVALID_SHAPE, "%s: shapes[%d] = %d is not a shape (the builder holds %d)", WHAT, i, s, b->shape_count);
            if (b->shapes[s].type != CC_SHAPE_MESH)
                return cc_fail(CC_ERR_INVALID_SHAPE, "%s: shapes[%d] = %d is a %s, not a mesh; list only mesh shapes, or pass NULL for every colliding mesh shape", WHAT, i, s, cc_shape_type_name((cc_shape_type)b->shapes[s].type));
        }

    int n_shapes = b->shape_count;
    char* selected = (char*)cc_host_calloc((size_t)n_shapes + 1, 1);
    if (!selected) return cc_fail(CC_ERR_OUT_OF_MEMORY, "%s: out of host memory", WHAT);
    int nsel = 0;
    if (shapes) {
        for (int i = 0; i < count; ++i)
            if (!selected[shapes[i]]) selected[shapes[i]] = 1, ++nsel;
    } else {
        for (int s = 0; s < n_shapes; ++s)
            if (b->shapes[s].type == CC_SHAPE_MESH && b->shapes[s].has_shape_collision) selected[s] = 1, ++nsel;
    }
    if (nsel == 0) {
        cc_host_free(selected);
        return cc_ok();
    }
    approx_item* items = (approx_item*)cc_host_alloc(sizeof(approx_item) * (size_t)nsel);
    int* result_of = (int*)cc_host_alloc(sizeof(int) * (size_t)n_shapes);
    approx_result* results = (approx_result*)cc_host_alloc(sizeof(approx_result) * (size_t)nsel);
    if (!items || !result_of || !results ||
        (keep_visual && !cc_reserve((void**)&b->shapes, &b->shape_capacity, n_shapes + nsel, sizeof *b->shapes))) {
        cc_host_free(selected), cc_host_free(items), cc_host_free(result_of), cc_host_free(results);
        return cc_fail(CC_ERR_OUT_OF_MEMORY, "%s: out of host memory", WHAT);
    }
    for (int s = 0, k = 0; s < n_shapes; ++s)
        if (selected[s]) {
            const cc_shape_record* r = &b->shapes[s];
            items[k].mesh = r->source;
            items[k].sx = float_bits(r->size.x);
            items[k].sy = float_bits(r->size.y);
            items[k].sz = float_bits(r->size.z);
            items[k].shape = s;
            ++k;
        }
    qsort(items, (size_t)nsel, sizeof *items, item_compare);

    /* One approximation per distinct (mesh, scale); hulls added here are
     * dropped again if a later one fails. */
    cc_builder_mark mark = cc_builder_get_mark(b);
    cc_status st = CC_OK;
    int nres = 0;
    for (int i = 0; i < nsel && st == CC_OK; ++i) {
        if (i > 0 && same_key(&items[i], &items[i - 1])) {
            result_of[items[i].shape] = nres - 1;
            continue;
        }
        const cc_shape_record* r = &b->shapes[items[i].shape];
        const cc_mesh_data* m = &b->meshes[r->source];
        cc_vec3* pts = scaled_vertices(m, r->size);
        if (!pts) {
            st = cc_fail(CC_ERR_OUT_OF_MEMORY, "%s: out of host memory", WHAT);
            break;
        }
        approx_result* res = &results[nres];
        if (method == CC_MESH_APPROX_CONVEX_HULL) st = make_hull(b, pts, m->vertex_count, items[i].shape, r->source, res);
        else if (method == CC_MESH_APPROX_BOX) st = make_box(pts, m->vertex_count, items[i].shape, r->source, res);
        else st = make_sphere(pts, m->vertex_count, items[i].shape, r->source, res);
        cc_host_free(pts);
        if (st == CC_OK) result_of[items[i].shape] = nres++;
    }
    if (st != CC_OK) {
        cc_builder_rollback(b, &mark);
        cc_host_free(selected), cc_host_free(items), cc_host_free(result_of), cc_host_free(results);
        return st;
    }

    /* Nothing below can fail. */
    mark_blocks(b, selected, keep_visual);
    for (int s = 0; s < n_shapes; ++s) {
        if (!selected[s]) continue;
        cc_shape_record* r = &b->shapes[s];
        if (keep_visual) {
            cc_shape_record visual = *r;
            visual.has_shape_collision = 0;
            visual.density = 0.0f; /* the approximation carries the mass */
            b->shapes[b->shape_count++] = visual; /* capacity reserved above: r stays valid */
        }
        const approx_result* res = &results[result_of[s]];
        r->local = compose(r->local, res);
        r->type = res->type;
        r->size = res->size;
        r->source = res->source;
    }
    cc_host_free(selected), cc_host_free(items), cc_host_free(result_of), cc_host_free(results);
    return cc_ok();
}
