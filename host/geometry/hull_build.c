/* Convex hulls of point sets, built with qhull (the reentrant libqhull_r).
 *
 * Steps: validate the points; reject sets that are flat or too few (our own
 * checks, so that the message says what is wrong); run qhull with facet
 * merging; when the hull has more vertices than allowed, pick a subset of
 * them and run qhull again; then write the hull in the kernels' layout:
 * vertices in input order, each face a convex polygon with its vertices
 * counter-clockwise seen from outside and its outward plane.
 *
 * qhull never prints: its messages go to /dev/null, and every failure is
 * read from qh_new_qhull's return code (qhull longjmps back into it). */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libqhull_r/qhull_ra.h>

#include "host/geometry/hull_build.h"
#include "host/geometry/vec3d.h"

/* --- A set of points: all of an array, or those an index list names -------- */

typedef struct point_view {
    const cc_vec3* points;
    const int* ids; /* NULL: point i is points[i] */
    int count;
} point_view;

static int view_id(const point_view* v, int i) { return v->ids ? v->ids[i] : i; }
static d3 view_point(const point_view* v, int i) { return d3_of(v->points[view_id(v, i)]); }

/* Up to `limit` points that lie farther than tol from each other, taken
 * greedily in order; enough to tell "3 distinct points" from "4". */
static int count_distinct(const point_view* v, double tol, int limit)
{
    d3 kept[4];
    int n = 0;
    if (limit > 4) limit = 4;
    for (int i = 0; i < v->count && n < limit; ++i) {
        d3 p = view_point(v, i);
        int is_new = 1;
        for (int k = 0; k < n && is_new; ++k) is_new = d3_length(d3_sub(p, kept[k])) > tol;
        if (is_new) kept[n++] = p;
    }
    return n;
}

/* Four points that span the set as widely as a greedy search finds, as
 * positions in the view: c[0] has the lowest x, c[1] is the farthest from
 * c[0], c[2] the farthest from the line c[0]c[1], c[3] the farthest from
 * the plane of the first three. span[k] is the distance c[k+1] achieved:
 * how far the set is from being one point, one line, one plane. Each
 * corner is an extreme point of the set (a farthest point always is), so
 * it is a hull vertex. Ties go to the lowest position. */
typedef struct simplex {
    int c[4];
    double span[3];
} simplex;

static simplex find_simplex(const point_view* v)
{
    simplex s;
    memset(&s, 0, sizeof s);
    for (int i = 1; i < v->count; ++i)
        if (view_point(v, i).x < view_point(v, s.c[0]).x) s.c[0] = i;
    d3 p0 = view_point(v, s.c[0]);
    for (int i = 0; i < v->count; ++i) {
        double d = d3_length(d3_sub(view_point(v, i), p0));
        if (d > s.span[0]) {
            s.span[0] = d;
            s.c[1] = i;
        }
    }
    if (!(s.span[0] > 0.0)) return s;
    d3 axis = d3_scale(d3_sub(view_point(v, s.c[1]), p0), 1.0 / s.span[0]);
    for (int i = 0; i < v->count; ++i) {
        double d = d3_length(d3_cross(d3_sub(view_point(v, i), p0), axis));
        if (d > s.span[1]) {
            s.span[1] = d;
            s.c[2] = i;
        }
    }
    if (!(s.span[1] > 0.0)) return s;
    d3 normal = d3_cross(axis, d3_sub(view_point(v, s.c[2]), p0));
    normal = d3_scale(normal, 1.0 / d3_length(normal));
    for (int i = 0; i < v->count; ++i) {
        double d = fabs(d3_dot(d3_sub(view_point(v, i), p0), normal));
        if (d > s.span[2]) {
            s.span[2] = d;
            s.c[3] = i;
        }
    }
    return s;
}

/* --- Input checks --------------------------------------------------------- */

static cc_status check_arguments(const cc_vec3* points, int count, int max_vertices,
                                 const char* what, const cc_hull_data* out)
{
    if (!out)
        return cc_fail(CC_ERR_INVALID_ARGUMENT, "%s: out is NULL; pass the address of a cc_hull_data to receive the hull", what);
    if (count < 0)
        return cc_fail(CC_ERR_INVALID_ARGUMENT, "%s: point count %d is negative", what, count);
    if (!points && count > 0)
        return cc_fail(CC_ERR_INVALID_ARGUMENT, "%s: points is NULL but count is %d; pass an array of count points", what, count);
    if (max_vertices < 4 || max_vertices > CC_HULL_VERTEX_LIMIT)
        return cc_fail(CC_ERR_INVALID_ARGUMENT, "%s: max_vertices %d is outside 4..%d; a hull needs at least 4 vertices", what, max_vertices, CC_HULL_VERTEX_LIMIT);
    if (count < 4)
        return cc_fail(CC_ERR_INVALID_SIZE, "%s: %d points given; a convex hull needs at least 4 points that are not coplanar", what, count);
    for (int i = 0; i < count; ++i)
        if (!cc_is_finite_vec3(points[i]))
            return cc_fail(CC_ERR_NOT_FINITE, "%s: point %d holds NaN or infinity; give finite coordinates", what, i);
    return CC_OK;
}

/* Bounding-box diagonal of the points: the length the tolerances scale with. */
static double points_extent(const cc_vec3* points, int count)
{
    d3 lo = d3_of(points[0]), hi = lo;
    for (int i = 1; i < count; ++i) {
        d3 p = d3_of(points[i]);
        lo = d3_make(fmin(lo.x, p.x), fmin(lo.y, p.y), fmin(lo.z, p.z));
        hi = d3_make(fmax(hi.x, p.x), fmax(hi.y, p.y), fmax(hi.z, p.z));
    }
    return d3_length(d3_sub(hi, lo));
}

/* Rejects sets with fewer than 4 distinct points, or all on a line or in a
 * plane, within tol. qhull would fail on them too, with a less useful
 * message (and a nearly flat set would give a hull of slivers). */
static cc_status check_spans_volume(const point_view* v, double tol, const char* what)
{
    simplex s = find_simplex(v);
    if (s.span[0] > tol && s.span[1] > tol && s.span[2] > tol) return CC_OK;
    int distinct = count_distinct(v, tol, 4);
    if (distinct <= 1)
        return cc_fail(CC_ERR_INVALID_SIZE, "%s: all %d points are at one position; a convex hull needs at least 4 points that are not coplanar", what, v->count);
    if (distinct < 4)
        return cc_fail(CC_ERR_INVALID_SIZE, "%s: the %d points hold only %d distinct positions (closer than %g count as one); a convex hull needs at least 4 points that are not coplanar", what, v->count, distinct, tol);
    if (!(s.span[1] > tol))
        return cc_fail(CC_ERR_INVALID_SIZE, "%s: all %d points lie on one line (within %g); a convex hull needs points that span a volume (use a capsule or a box for thin shapes)", what, v->count, tol);
    return cc_fail(CC_ERR_INVALID_SIZE, "%s: all %d points lie in one plane (within %g); a convex hull needs points that span a volume (give the shape some thickness, or use a box)", what, v->count, tol);
}

/* --- Running qhull -------------------------------------------------------- */

/* A hull as qhull gives it: faces as unordered sets of input point ids. */
typedef struct raw_hull {
    int face_count;
    int* face_first; /* (face_count + 1) starts into ids */
    int* ids;        /* input point index of each face corner */
    double* normals; /* (face_count x 3) qhull's outward unit normals */
} raw_hull;

static void raw_hull_free(raw_hull* r)
{
    cc_host_free(r->face_first);
    cc_host_free(r->ids);
    cc_host_free(r->normals);
    memset(r, 0, sizeof *r);
}

/* Copies qhull's facets into r, naming vertices by their index in the
 * view's array (qh_pointid gives the position in the array qhull read). */
static int copy_facets(qhT* qh, const point_view* v, raw_hull* r)
{
    int faces = 0, corners = 0;
    for (facetT* f = qh->facet_list; f && f->next; f = f->next) {
        ++faces;
        corners += qh_setsize(qh, f->vertices);
    }
    r->face_count = faces;
    r->face_first = (int*)cc_host_alloc(sizeof(int) * ((size_t)faces + 1));
    r->ids = (int*)cc_host_alloc(sizeof(int) * (size_t)corners);
    r->normals = (double*)cc_host_alloc(sizeof(double) * 3 * (size_t)faces);
    if (!r->face_first || !r->ids || !r->normals) return 0;
    int face = 0, corner = 0;
    for (facetT* f = qh->facet_list; f && f->next; f = f->next, ++face) {
        r->face_first[face] = corner;
        for (int k = 0; k < 3; ++k) r->normals[3 * face + k] = f->normal[k];
        int n = qh_setsize(qh, f->vertices);
        for (int k = 0; k < n; ++k) {
            vertexT* vertex = SETelemt_(f->vertices, k, vertexT);
            r->ids[corner++] = view_id(v, qh_pointid(qh, vertex->point));
        }
    }
    r->face_first[faces] = corner;
    return 1;
}

static cc_status qhull_failure(int exitcode, const char* what)
{
    if (exitcode == qh_ERRmem) return cc_fail(CC_ERR_OUT_OF_MEMORY, "%s: qhull ran out of memory", what);
    if (exitcode == qh_ERRsingular)
        return cc_fail(CC_ERR_INVALID_SIZE, "%s: qhull found the points flat (a flat initial simplex); a convex hull needs points that span a volume", what);
    return cc_fail(CC_ERR_INVALID_SIZE, "%s: qhull could not build the hull (qhull error code %d, a precision or topology problem); remove nearly coincident points or give the shape more thickness", what, exitcode);
}

/* Runs qhull on the view's points.
 *   Qs      search all points for the initial simplex (robust on flat-ish sets)
 *   C-<tol> merge facets whose centrums are within tol of a neighbour's
 *           plane while building the hull ('pre-merge'), so coplanar faces
 *           come out as one convex polygon; without 'Qt' they stay merged.
 * qhull is deterministic without its random options ('QR', 'QJ'). */
static cc_status run_qhull(const point_view* v, double tol, const char* what, raw_hull* r)
{
    memset(r, 0, sizeof *r);
    coordT* coords = (coordT*)cc_host_alloc(sizeof(coordT) * 3 * (size_t)v->count);
    qhT* qh = (qhT*)cc_host_alloc(sizeof(qhT));
    FILE* quiet = fopen("/dev/null", "w");
    if (!quiet) quiet = tmpfile();
    cc_status status = CC_OK;
    if (!coords || !qh) {
        status = cc_fail(CC_ERR_OUT_OF_MEMORY, "%s: out of host memory", what);
    } else if (!quiet) {
        status = cc_fail(CC_ERR_UNSUPPORTED, "%s: cannot open /dev/null or a temporary file to silence qhull", what);
    } else {
        for (int i = 0; i < v->count; ++i) {
            d3 p = view_point(v, i);
            coords[3 * i + 0] = p.x;
            coords[3 * i + 1] = p.y;
            coords[3 * i + 2] = p.z;
        }
        char options[64];
        snprintf(options, sizeof options, "qhull Qs C-%.9g", tol);
        qh_zero(qh, quiet);
        int exitcode = qh_new_qhull(qh, 3, v->count, coords, False, options, NULL, quiet);
        if (exitcode) status = qhull_failure(exitcode, what);
        else if (!copy_facets(qh, v, r)) status = cc_fail(CC_ERR_OUT_OF_MEMORY, "%s: out of host memory", what);
        /* Also after an error: the hull's memory, then qhull's allocator. */
        int long_pieces, long_bytes;
        qh_freeqhull(qh, !qh_ALL);
        qh_memfreeshort(qh, &long_pieces, &long_bytes);
    }
    if (status != CC_OK) raw_hull_free(r);
    if (quiet) fclose(quiet);
    cc_host_free(qh);
    cc_host_free(coords);
    return status;
}

/* Marks the input points that are hull vertices (used[i] = 1); returns how
 * many there are. */
static int mark_vertices(const raw_hull* r, int point_count, char* used)
{
    memset(used, 0, (size_t)point_count);
    int n = 0;
    for (int k = 0; k < r->face_first[r->face_count]; ++k)
        if (!used[r->ids[k]]) {
            used[r->ids[k]] = 1;
            ++n;
        }
    return n;
}

/* --- Simplification to at most max_vertices ------------------------------- */

/* Picks `keep` of the hull's vertices (ids, n of them) into sample:
 *   1. the greedy spanning simplex (find_simplex), so the sample is never flat;
 *   2. the lowest and highest vertex along x, y and z, so the bounds survive;
 *   3. then farthest-point sampling: repeatedly the vertex farthest from
 *      everything chosen so far, which spreads the rest evenly over the
 *      surface (ties go to the lowest position; nothing is random).
 * Every sampled point is a vertex of the exact hull, so it is extreme in
 * the sample too: the hull of the sample has exactly these vertices (up to
 * qhull's merging), never more than keep, and no second round is needed. */
static int choose_sample(const point_view* v, int keep, double* nearest, char* chosen, int* sample)
{
    int n = 0;
    for (int i = 0; i < v->count; ++i) {
        nearest[i] = DBL_MAX;
        chosen[i] = 0;
    }
    int seeds[10];
    simplex s = find_simplex(v);
    for (int k = 0; k < 4; ++k) seeds[k] = s.c[k];
    for (int axis = 0; axis < 3; ++axis) {
        int lo = 0, hi = 0;
        for (int i = 1; i < v->count; ++i) {
            if (d3_get(view_point(v, i), axis) < d3_get(view_point(v, lo), axis)) lo = i;
            if (d3_get(view_point(v, i), axis) > d3_get(view_point(v, hi), axis)) hi = i;
        }
        seeds[4 + 2 * axis] = lo;
        seeds[5 + 2 * axis] = hi;
    }
    for (int k = 0; n < keep; ++k) {
        int next = -1;
        if (k < 10) {
            if (chosen[seeds[k]]) continue;
            next = seeds[k];
        } else {
            for (int i = 0; i < v->count; ++i)
                if (!chosen[i] && (next < 0 || nearest[i] > nearest[next])) next = i;
        }
        chosen[next] = 1;
        sample[n++] = view_id(v, next);
        d3 p = view_point(v, next);
        for (int i = 0; i < v->count; ++i) nearest[i] = fmin(nearest[i], d3_length(d3_sub(view_point(v, i), p)));
    }
    return n;
}

/* Replaces r by the hull of max_vertices of its vertices. */
static cc_status simplify(const cc_vec3* points, int count, const char* used, int vertex_count,
                          int max_vertices, double tol, const char* what, raw_hull* r)
{
    int* ids = (int*)cc_host_alloc(sizeof(int) * (size_t)vertex_count);
    int* sample = (int*)cc_host_alloc(sizeof(int) * (size_t)max_vertices);
    double* nearest = (double*)cc_host_alloc(sizeof(double) * (size_t)vertex_count);
    char* chosen = (char*)cc_host_alloc((size_t)vertex_count);
    cc_status status = CC_OK;
    if (!ids || !sample || !nearest || !chosen) {
        status = cc_fail(CC_ERR_OUT_OF_MEMORY, "%s: out of host memory", what);
    } else {
        int n = 0;
        for (int i = 0; i < count; ++i)
            if (used[i]) ids[n++] = i;
        point_view hull_vertices = {points, ids, n};
        point_view subset = {points, sample, choose_sample(&hull_vertices, max_vertices, nearest, chosen, sample)};
        raw_hull_free(r);
        status = run_qhull(&subset, tol, what, r);
    }
    cc_host_free(chosen);
    cc_host_free(nearest);
    cc_host_free(sample);
    cc_host_free(ids);
    return status;
}

/* --- Writing the result --------------------------------------------------- */

typedef struct corner {
    double angle;
    int id;
} corner;

static int compare_corners(const void* a, const void* b)
{
    const corner* x = (const corner*)a;
    const corner* y = (const corner*)b;
    if (x->angle != y->angle) return x->angle < y->angle ? -1 : 1;
    return (x->id > y->id) - (x->id < y->id);
}

/* Sorts a face's corners counter-clockwise seen from outside: by angle
 * around their centroid, measured in a basis (u, w) of the face plane with
 * u x w = n, so increasing angle turns counter-clockwise about n. */
static void order_corners(const cc_vec3* points, d3 n, corner* c, int count)
{
    d3 centroid = d3_make(0.0, 0.0, 0.0);
    for (int k = 0; k < count; ++k) centroid = d3_add(centroid, d3_of(points[c[k].id]));
    centroid = d3_scale(centroid, 1.0 / count);
    int axis = fabs(n.x) <= fabs(n.y) && fabs(n.x) <= fabs(n.z) ? 0 : (fabs(n.y) <= fabs(n.z) ? 1 : 2);
    d3 u = d3_cross(d3_make(axis == 0, axis == 1, axis == 2), n);
    u = d3_scale(u, 1.0 / d3_length(u));
    d3 w = d3_cross(n, u);
    for (int k = 0; k < count; ++k) {
        d3 d = d3_sub(d3_of(points[c[k].id]), centroid);
        c[k].angle = atan2(d3_dot(d, w), d3_dot(d, u));
    }
    qsort(c, (size_t)count, sizeof *c, compare_corners);
}

/* Plane of an ordered polygon: the normal of its vector area (Newell's
 * method, the average plane of all its corners, which suits merged faces),
 * falling back on qhull's normal if the area vanishes; the offset is the
 * largest dot(normal, corner), so every corner lies on or below the plane. */
static void face_plane(const cc_vec3* points, d3 qhull_normal, const corner* c, int count,
                       cc_hull_face* face)
{
    d3 area = d3_make(0.0, 0.0, 0.0);
    d3 origin = d3_of(points[c[0].id]);
    for (int k = 1; k + 1 < count; ++k) {
        d3 a = d3_sub(d3_of(points[c[k].id]), origin);
        d3 b = d3_sub(d3_of(points[c[k + 1].id]), origin);
        area = d3_add(area, d3_cross(a, b));
    }
    double length = d3_length(area);
    d3 n = length > 0.0 && d3_dot(area, qhull_normal) > 0.0 ? d3_scale(area, 1.0 / length) : qhull_normal;
    face->normal = cc_v3((float)n.x, (float)n.y, (float)n.z);
    d3 stored = d3_of(face->normal);
    double offset = -DBL_MAX;
    for (int k = 0; k < count; ++k) offset = fmax(offset, d3_dot(stored, d3_of(points[c[k].id])));
    face->offset = (float)offset;
}

static void hull_data_release(cc_hull_data* h)
{
    cc_host_free(h->vertices);
    cc_host_free(h->faces);
    cc_host_free(h->indices);
    memset(h, 0, sizeof *h);
}

/* Fills h from r: vertices in input order, faces ordered and with planes.
 * used marks the vertex_count input points that are hull vertices. */
static cc_status write_hull(const cc_vec3* points, int count, const raw_hull* r, const char* used,
                            int vertex_count, const char* what, cc_hull_data* h)
{
    int index_count = r->face_first[r->face_count];
    int max_corners = 0;
    for (int f = 0; f < r->face_count; ++f) {
        int n = r->face_first[f + 1] - r->face_first[f];
        if (n > max_corners) max_corners = n;
    }
    memset(h, 0, sizeof *h);
    int* remap = (int*)cc_host_alloc(sizeof(int) * (size_t)count);
    corner* corners = (corner*)cc_host_alloc(sizeof(corner) * (size_t)max_corners);
    h->vertices = (cc_vec3*)cc_host_alloc(sizeof(cc_vec3) * (size_t)vertex_count);
    h->faces = (cc_hull_face*)cc_host_alloc(sizeof(cc_hull_face) * (size_t)r->face_count);
    h->indices = (int*)cc_host_alloc(sizeof(int) * (size_t)index_count);
    int ok = remap && corners && h->vertices && h->faces && h->indices;
    if (ok) {
        for (int i = 0; i < count; ++i) {
            if (!used[i]) continue;
            remap[i] = h->vertex_count;
            h->vertices[h->vertex_count++] = points[i];
        }
        for (int f = 0; f < r->face_count; ++f) {
            int first = r->face_first[f], n = r->face_first[f + 1] - first;
            d3 qn = d3_make(r->normals[3 * f], r->normals[3 * f + 1], r->normals[3 * f + 2]);
            for (int k = 0; k < n; ++k) corners[k].id = r->ids[first + k];
            order_corners(points, qn, corners, n);
            face_plane(points, qn, corners, n, &h->faces[f]);
            h->faces[f].first = first;
            h->faces[f].count = n;
            for (int k = 0; k < n; ++k) h->indices[first + k] = remap[corners[k].id];
        }
        h->face_count = r->face_count;
        h->index_count = index_count;
        h->lower = h->upper = h->vertices[0];
        for (int i = 1; i < h->vertex_count; ++i) {
            h->lower = cc_v3_min(h->lower, h->vertices[i]);
            h->upper = cc_v3_max(h->upper, h->vertices[i]);
        }
    } else {
        hull_data_release(h);
    }
    cc_host_free(corners);
    cc_host_free(remap);
    return ok ? CC_OK : cc_fail(CC_ERR_OUT_OF_MEMORY, "%s: out of host memory", what);
}

/* --- Entry points --------------------------------------------------------- */

cc_status cc_hull_build(const cc_vec3* points, int count, int max_vertices, const char* what,
                        cc_hull_data* out)
{
    if (!what) what = "cc_hull_build";
    cc_status status = check_arguments(points, count, max_vertices, what, out);
    if (status != CC_OK) return status;
    double tol = CC_HULL_FLAT_TOLERANCE * points_extent(points, count);
    point_view all = {points, NULL, count};
    status = check_spans_volume(&all, tol, what);
    if (status != CC_OK) return status;

    char* used = (char*)cc_host_alloc((size_t)count);
    if (!used) return cc_fail(CC_ERR_OUT_OF_MEMORY, "%s: out of host memory", what);
    raw_hull r;
    int vertex_count = 0;
    status = run_qhull(&all, tol, what, &r);
    if (status == CC_OK) {
        vertex_count = mark_vertices(&r, count, used);
        if (vertex_count > max_vertices) {
            status = simplify(points, count, used, vertex_count, max_vertices, tol, what, &r);
            if (status == CC_OK) vertex_count = mark_vertices(&r, count, used);
        }
    }
    cc_hull_data h;
    if (status == CC_OK) status = write_hull(points, count, &r, used, vertex_count, what, &h);
    raw_hull_free(&r);
    cc_host_free(used);
    if (status != CC_OK) return status;
    *out = h;
    return cc_ok();
}

void cc_hull_data_free(cc_hull_data* h)
{
    if (h) hull_data_release(h);
}
