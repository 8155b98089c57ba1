/* Supporting features of convex cores: the face, edge or vertex of a shape
 * that touches a plane with a given outward normal.
 *
 * The manifold builder clips the two shapes' features against each other,
 * so a feature must be a real piece of the surface: a face polygon (box
 * face, cylinder cap as an inscribed polygon, cone base, hull face), a
 * segment (box edge, capsule core, cylinder or cone side line) or a single
 * support point. A face or segment is chosen when the direction is within
 * CC_FEATURE_ANGLE of its normal; the clipped points then carry their own
 * exact distances, and those too far away are dropped by the threshold. */
#ifndef CC_KERNELS_CONVEX_FEATURE_H
#define CC_KERNELS_CONVEX_FEATURE_H

#include "kernels/shapes/support.h"

/* Most vertices a feature polygon keeps (larger hull faces are sampled). */
#define CC_FEATURE_MAX 16
/* Vertices of the polygon inscribed in a cylinder cap or cone base. */
#define CC_FEATURE_DISK_VERTICES 8
/* cos and sin of CC_FEATURE_ANGLE (5 degrees). */
#define CC_FEATURE_COS 0.9961947f
#define CC_FEATURE_SIN 0.0871557f
/* Segments within CC_FEATURE_ANGLE of parallel touch along the stretch
 * where their lines, seen along the normal, stay within this fraction of
 * the shorter one's length of each other. */
#define CC_FEATURE_DRIFT 1.0e-3f

typedef struct cc_feature {
    int count;                  /* 1: point, 2: segment, >= 3: polygon */
    cc_vec3 normal;             /* outward unit normal of a polygon's plane */
    cc_vec3 edge;               /* a point on a sharp circular edge (cylinder or cone rim):
                                   the edge's unit tangent there; zero otherwise */
    cc_vec3 p[CC_FEATURE_MAX];  /* pair coordinates; polygons counter-clockwise about normal */
} cc_feature;

/* Unit circle at 8 evenly spaced angles, counter-clockwise from +x. */
CC_HD void cc_feature_disk_dir(int i, float* c, float* s)
{
    const float k = 0.70710678f;
    const float cs[8] = {1.0f, k, 0.0f, -k, -1.0f, -k, 0.0f, k};
    const float sn[8] = {0.0f, k, 1.0f, k, 0.0f, -k, -1.0f, -k};
    *c = cs[i & 7];
    *s = sn[i & 7];
}

/* Disk of radius r at height z in the local frame, counter-clockwise about
 * the outward normal (0, 0, sign(z_side)). */
CC_HD void cc_feature_disk(const cc_convex* c, float r, float z, float side, cc_feature* f)
{
    f->count = CC_FEATURE_DISK_VERTICES;
    f->normal = cc_frame_vector_out(&c->f, cc_v3(0.0f, 0.0f, side));
    for (int i = 0; i < CC_FEATURE_DISK_VERTICES; ++i) {
        float cx, sy;
        cc_feature_disk_dir(side > 0.0f ? i : CC_FEATURE_DISK_VERTICES - i, &cx, &sy);
        f->p[i] = cc_frame_point_out(&c->f, cc_v3(r * cx, r * sy, z));
    }
}

CC_HD void cc_feature_point(const cc_convex* c, cc_vec3 local_point, cc_feature* f)
{
    f->count = 1;
    f->p[0] = cc_frame_point_out(&c->f, local_point);
}

/* A support point on a circular rim around local z: its tangent is
 * z x (radial direction). */
CC_HD void cc_feature_rim_point(const cc_convex* c, cc_vec3 local_point, cc_feature* f)
{
    cc_feature_point(c, local_point, f);
    float r = sqrtf(local_point.x * local_point.x + local_point.y * local_point.y);
    if (r > 0.0f) f->edge = cc_frame_vector_out(&c->f, cc_v3(-local_point.y / r, local_point.x / r, 0.0f));
}

CC_HD void cc_feature_segment(const cc_convex* c, cc_vec3 p0, cc_vec3 p1, cc_feature* f)
{
    f->count = 2;
    f->p[0] = cc_frame_point_out(&c->f, p0);
    f->p[1] = cc_frame_point_out(&c->f, p1);
}

CC_HD void cc_feature_box(const cc_convex* c, cc_vec3 d, cc_feature* f)
{
    cc_vec3 h = c->size, ad = cc_v3_abs(d);
    float sx = cc_sign_or_plus(d.x), sy = cc_sign_or_plus(d.y), sz = cc_sign_or_plus(d.z);
    int axis = ad.x >= ad.y && ad.x >= ad.z ? 0 : (ad.y >= ad.z ? 1 : 2);
    float da[3] = {d.x, d.y, d.z};
    if (fabsf(da[axis]) >= CC_FEATURE_COS) {
        /* Face: the two other axes (u, v) ordered so that u x v = outward normal. */
        int u = axis == 0 ? 1 : (axis == 1 ? 2 : 0), v = axis == 0 ? 2 : (axis == 1 ? 0 : 1);
        float side = cc_sign_or_plus(da[axis]);
        float hc[3] = {h.x, h.y, h.z};
        const float su[4] = {-1.0f, 1.0f, 1.0f, -1.0f}, sv[4] = {-1.0f, -1.0f, 1.0f, 1.0f};
        f->count = 4;
        float n[3] = {0.0f, 0.0f, 0.0f};
        n[axis] = side;
        f->normal = cc_frame_vector_out(&c->f, cc_v3(n[0], n[1], n[2]));
        for (int i = 0; i < 4; ++i) {
            int k = side > 0.0f ? i : 3 - i;
            float q[3];
            q[axis] = side * hc[axis];
            q[u] = su[k] * hc[u];
            q[v] = sv[k] * hc[v];
            f->p[i] = cc_frame_point_out(&c->f, cc_v3(q[0], q[1], q[2]));
        }
        return;
    }
    int small = ad.x <= ad.y && ad.x <= ad.z ? 0 : (ad.y <= ad.z ? 1 : 2);
    cc_vec3 corner = cc_v3(sx * h.x, sy * h.y, sz * h.z);
    if (fabsf(da[small]) <= CC_FEATURE_SIN) {
        cc_vec3 other = corner;
        if (small == 0) other.x = -other.x;
        else if (small == 1) other.y = -other.y;
        else other.z = -other.z;
        cc_feature_segment(c, corner, other, f);
        return;
    }
    cc_feature_point(c, corner, f);
}

CC_HD void cc_feature_cylinder(const cc_convex* c, cc_vec3 d, cc_feature* f)
{
    float r = c->size.x, h = c->size.y;
    float rxy = sqrtf(d.x * d.x + d.y * d.y);
    if (fabsf(d.z) >= CC_FEATURE_COS) {
        float side = cc_sign_or_plus(d.z);
        cc_feature_disk(c, r, side * h, side, f);
        return;
    }
    if (fabsf(d.z) <= CC_FEATURE_SIN && rxy > 0.0f) {
        cc_vec3 rim = cc_v3(r * d.x / rxy, r * d.y / rxy, 0.0f);
        cc_feature_segment(c, cc_v3(rim.x, rim.y, -h), cc_v3(rim.x, rim.y, h), f);
        return;
    }
    cc_feature_rim_point(c, cc_support_local(c, d), f);
}

CC_HD void cc_feature_cone(const cc_convex* c, cc_vec3 d, cc_feature* f)
{
    float r = c->size.x, h = c->size.y;
    if (-d.z >= CC_FEATURE_COS) {
        cc_feature_disk(c, r, -h, -1.0f, f);
        return;
    }
    float rxy = sqrtf(d.x * d.x + d.y * d.y);
    if (rxy > 0.0f) {
        /* The side line at d's azimuth has outward normal (2h u, r) / |.|. */
        float len = sqrtf(4.0f * h * h + r * r);
        float along = (2.0f * h * rxy + r * d.z) / len;
        if (along >= CC_FEATURE_COS) {
            cc_feature_segment(c, cc_v3(r * d.x / rxy, r * d.y / rxy, -h), cc_v3(0.0f, 0.0f, h), f);
            return;
        }
    }
    cc_vec3 top = cc_support_local(c, d);
    if (top.z < 0.0f) cc_feature_rim_point(c, top, f);
    else cc_feature_point(c, top, f);
}

CC_HD void cc_feature_capsule(const cc_convex* c, cc_vec3 d, cc_feature* f)
{
    float h = c->size.y;
    if (fabsf(d.z) <= CC_FEATURE_SIN && h > 0.0f) {
        cc_feature_segment(c, cc_v3(0.0f, 0.0f, -h), cc_v3(0.0f, 0.0f, h), f);
        return;
    }
    cc_feature_point(c, cc_support_local(c, d), f);
}

/* The edge of hull c through its vertex `top` (the support vertex along
 * local d) whose other end is highest, among those whose other end lies
 * within `drop` plus `sin_drop` of the edge's length below the top: that
 * end's index, or -1. Every face around the vertex is searched: the face
 * nearest d need not hold the touching edge (a long edge's normal cone
 * reaches past its two faces' normals, most of all under a non-uniform
 * scale). */
CC_HD int cc_hull_edge_at(const cc_convex* c, cc_vec3 d, int top, float sin_drop, float drop)
{
    const cc_hull_ref* hr = &c->hull;
    cc_vec3 tp = cc_v3_mul(hr->vertices[top], c->size);
    float top_h = cc_v3_dot(tp, d), best = -3.0e38f;
    int other = -1, corner, end;
    for (cc_hull_corners_of(hr, top, &corner, &end); corner < end; ++corner) {
        cc_hull_face fc = hr->faces[cc_hull_corner_face(hr, corner)];
        const int* idx = hr->indices + fc.first;
        for (int i = 0; i < fc.count; ++i) {
            int i0 = idx[i] - hr->vertex_first, i1 = idx[(i + 1) % fc.count] - hr->vertex_first;
            if (i0 != top && i1 != top) continue;
            int o = i0 == top ? i1 : i0;
            cc_vec3 q = cc_v3_mul(hr->vertices[o], c->size);
            float h = cc_v3_dot(q, d);
            if (h <= best || h < top_h - drop - sin_drop * cc_v3_length(cc_v3_sub(q, tp))) continue;
            best = h;
            other = o;
        }
    }
    return other;
}

/* Hull: the face whose (scaled) normal is closest to d; when it is not
 * close enough, an edge through the support vertex nearly square to d, or
 * that vertex. */
CC_HD void cc_feature_hull(const cc_convex* c, cc_vec3 d, cc_feature* f)
{
    const cc_hull_ref* hr = &c->hull;
    cc_vec3 inv = cc_v3(1.0f / c->size.x, 1.0f / c->size.y, 1.0f / c->size.z);
    int best = 0;
    float best_dot = -2.0f;
    /* A uniform scale keeps the face normals as they are. */
    int uniform = c->size.x == c->size.y && c->size.y == c->size.z;
    /* Candidate faces: those around the support vertex (d lies in that
     * vertex's normal cone, spanned by their normals, so the closest of
     * them is the face). A hull without a graph offers every face, and the
     * face nearest d overall need not hold the vertex (a long thin face's
     * normal can lie nearer than those of the faces that touch) nor touch
     * at all: then the search runs again over the faces that hold it. */
    int top_vertex = cc_hull_support_vertex(hr, cc_v3_mul(c->size, d));
    CC_NO_UNROLL
    for (int holding = 0; holding < 2; ++holding) {
        int corner, end;
        for (cc_hull_corners_of(hr, top_vertex, &corner, &end); corner < end; ++corner) {
            int i = cc_hull_corner_face(hr, corner);
            cc_vec3 n = uniform ? hr->faces[i].normal : cc_v3_normalize(cc_v3_mul(hr->faces[i].normal, inv));
            float t = cc_v3_dot(n, d);
            if (t > best_dot && (!holding || cc_hull_face_holds(hr, i, top_vertex))) {
                best_dot = t;
                best = i;
            }
        }
        if (hr->graph || cc_hull_face_holds(hr, best, top_vertex)) break;
        best_dot = -2.0f;
    }
    cc_hull_face face = hr->faces[best];
    const int* idx = hr->indices + face.first;
    if (best_dot >= CC_FEATURE_COS) {
        int n = face.count < CC_FEATURE_MAX ? face.count : CC_FEATURE_MAX;
        f->count = n;
        f->normal = cc_frame_vector_out(&c->f, cc_v3_normalize(cc_v3_mul(face.normal, inv)));
        for (int i = 0; i < n; ++i) {
            int k = (int)((long long)i * face.count / n); /* evenly spaced when sampled */
            f->p[i] = cc_frame_point_out(&c->f, cc_v3_mul(hr->vertices[idx[k] - hr->vertex_first], c->size));
        }
        return;
    }
    /* Edge: through the support vertex, nearly perpendicular to d. */
    int other = cc_hull_edge_at(c, d, top_vertex, CC_FEATURE_SIN, 0.0f);
    cc_vec3 top = cc_v3_mul(hr->vertices[top_vertex], c->size);
    if (other >= 0) {
        cc_feature_segment(c, top, cc_v3_mul(hr->vertices[other], c->size), f);
        return;
    }
    cc_feature_point(c, top, f);
}

/* The vertices of feature f whose height along d is within `slab` of the
 * highest: the exact support set of a polytope-like feature along d (a
 * feature chosen within CC_FEATURE_ANGLE can be larger than that). */
CC_HD void cc_feature_support_set(const cc_feature* f, cc_vec3 d, float slab, cc_feature* out)
{
    *out = *f;
    if (f->count < 2) return;
    float top = -3.0e38f;
    for (int i = 0; i < f->count; ++i) top = cc_maxf(top, cc_v3_dot(f->p[i], d));
    int k = 0;
    for (int i = 0; i < f->count; ++i)
        if (cc_v3_dot(f->p[i], d) >= top - slab) out->p[k++] = f->p[i];
    out->count = k;
}

/* Makes f the point p of c's surface; when p lies on a cylinder's or
 * cone's rim (a corner of the cap polygon or an end of a side line), its
 * edge is the rim's tangent there. */
CC_HD void cc_feature_rim_corner(const cc_convex* c, cc_vec3 p, cc_feature* f)
{
    f->count = 1;
    f->p[0] = p;
    f->edge = cc_v3(0.0f, 0.0f, 0.0f);
    if (c->type != CC_SHAPE_CYLINDER && c->type != CC_SHAPE_CONE) return;
    cc_vec3 l = cc_frame_point_in(&c->f, p);
    float r = sqrtf(l.x * l.x + l.y * l.y), h = c->size.y;
    int on_rim = fabsf(r - c->size.x) <= 1.0e-4f * c->extent &&
                 (fabsf(l.z + h) <= 1.0e-4f * c->extent || (c->type == CC_SHAPE_CYLINDER && fabsf(l.z - h) <= 1.0e-4f * c->extent));
    if (on_rim && r > 0.0f) f->edge = cc_frame_vector_out(&c->f, cc_v3(-l.y / r, l.x / r, 0.0f));
}

/* Feature of c's core touching a plane with outward unit normal d (pair
 * coordinates). */
CC_HD_CALL void cc_convex_feature(const cc_convex* c, cc_vec3 d_world, cc_feature* f)
{
    cc_vec3 d = cc_frame_vector_in(&c->f, d_world);
    f->normal = d_world;
    f->edge = cc_v3(0.0f, 0.0f, 0.0f);
    switch (c->type) {
    case CC_SHAPE_BOX: cc_feature_box(c, d, f); break;
    case CC_SHAPE_CYLINDER: cc_feature_cylinder(c, d, f); break;
    case CC_SHAPE_CONE: cc_feature_cone(c, d, f); break;
    case CC_SHAPE_CAPSULE: cc_feature_capsule(c, d, f); break;
    case CC_SHAPE_CONVEX_HULL: cc_feature_hull(c, d, f); break;
    default: cc_feature_point(c, cc_support_local(c, d), f); break;
    }
}

#endif
