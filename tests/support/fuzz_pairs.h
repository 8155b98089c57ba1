// Fuzzing the convex narrow phase through the public API, scored against
// independent references (nothing here comes from kernels/): the
// double-precision support-function reference of convex_reference.h for the
// signed distance, and exact distance functions of each core for the
// points. Used by tests/convex/test_fuzz_convex.cpp (a seeded run in CI) and
// by tools/fuzz (millions of pairs on demand, with the per-route table).
//
// A pair of random shapes (every convex type and planes, sizes over six
// orders of magnitude, margins and gaps) is posed in one of several classes:
// random overlaps, coincident centres, nearly parallel orientations,
// exactly touching or within rounding of touching, and far apart. Each pair
// sits alone in its own world of one model; one collide answers thousands.
//
// Checks, per pair (core distance c = d + thickness0 + thickness1 of a
// contact; D the reference core signed distance, LB <= D its certified lower
// bound, sep(n) for any unit n):
//   nan        a non-finite distance, point or normal;
//   normal     a normal whose length differs from 1 by more than 1e-5;
//   deep       a contact deeper than any direction allows: c < LB - tol;
//   certify    a one- or two-point contact's normal separates less than
//              its distance claims: sep(normal) < c_min - tol (tilted);
//   shallow    the deepest contact is shallower than the pair's signed
//              distance: c_min > D + tol;
//   off        a core point farther than tol from its core's boundary;
//   witness    the two core points do not lie across the core distance
//              along the normal (see witness_tolerance);
//   count      more contacts than the reference table allows;
//   missing    no contact although D <= gap - tol;
//   beyond     a contact although LB > gap + tol;
//   swap       the two orders of a same-type pair disagree by more than
//              1e-5 of the smaller size in distance, or in count.
// tol = 1e-4 of the smaller shape's size plus rounding of the pair's
// coordinates (8 float ulps of their magnitude): float32 cannot resolve a
// 5 mm shape at 1e-4 of its size beside a 4 km one.
#ifndef CC_TESTS_FUZZ_PAIRS_H
#define CC_TESTS_FUZZ_PAIRS_H

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "cucontact/cucontact.h"
#include "tests/support/convex_reference.h"

namespace ccfuzz
{

using convref::V;

// ---------------------------------------------------------------- shapes

struct Shape {
    cc_shape_type type = CC_SHAPE_SPHERE;
    cc_vec3 size{0, 0, 0};
    cc_transform pose{{0, 0, 0}, {0, 0, 0, 1}};
    float margin = 0.0f, gap = 0.0f;
    std::vector<cc_vec3> hull; // hull points before scaling (hulls only)
};

struct Pair {
    Shape a, b;
    int pose_class = 0;
};

enum PoseClass { kRandom, kCoincident, kParallel, kTouching, kFar, kPoseClasses };
inline const char* pose_class_name(int c)
{
    static const char* names[] = {"random", "coincident", "parallel", "touching", "far"};
    return names[c];
}

inline V to_v(cc_vec3 v) { return convref::v3(v.x, v.y, v.z); }

inline convref::Pose pose_of(const Shape& s)
{
    return convref::pose_from_quat(s.pose.q.x, s.pose.q.y, s.pose.q.z, s.pose.q.w, to_v(s.pose.p));
}

inline double core_radius(const Shape& s)
{
    return s.type == CC_SHAPE_SPHERE || s.type == CC_SHAPE_CAPSULE ? s.size.x : 0.0;
}

// The core as the reference sees it (a sphere's centre, a capsule's segment).
inline convref::Shape core_of(const Shape& s)
{
    convref::Pose p = pose_of(s);
    switch (s.type) {
    case CC_SHAPE_SPHERE: return convref::make_shape(convref::POINT, p, convref::v3(0, 0, 0));
    case CC_SHAPE_CAPSULE: return convref::make_shape(convref::SEGMENT, p, convref::v3(0, s.size.y, 0));
    case CC_SHAPE_BOX: return convref::make_shape(convref::BOX, p, to_v(s.size));
    case CC_SHAPE_CYLINDER: return convref::make_shape(convref::CYLINDER, p, convref::v3(s.size.x, s.size.y, 0));
    case CC_SHAPE_CONE: return convref::make_shape(convref::CONE, p, convref::v3(s.size.x, s.size.y, 0));
    case CC_SHAPE_ELLIPSOID: return convref::make_shape(convref::ELLIPSOID, p, to_v(s.size));
    default: {
        std::vector<V> pts;
        for (cc_vec3 q : s.hull) pts.push_back(to_v(q));
        return convref::make_hull(p, pts, to_v(s.size));
    }
    }
}

// Half the largest dimension, radius included (the library's extent).
inline double extent(const Shape& s)
{
    cc_vec3 k = s.size;
    switch (s.type) {
    case CC_SHAPE_PLANE: return 0.0;
    case CC_SHAPE_SPHERE: return k.x;
    case CC_SHAPE_CAPSULE: return k.x + k.y;
    case CC_SHAPE_BOX: return std::sqrt((double)k.x * k.x + (double)k.y * k.y + (double)k.z * k.z);
    case CC_SHAPE_CYLINDER:
    case CC_SHAPE_CONE: return std::hypot((double)k.x, (double)k.y);
    case CC_SHAPE_ELLIPSOID: return std::max({k.x, k.y, k.z});
    default: {
        double e = 0;
        for (cc_vec3 q : s.hull) e = std::max(e, convref::norm(convref::mul(to_v(q), to_v(k))));
        return e;
    }
    }
}

// ---------------------------------------------------------------- exact distances to cores

inline double box_sdf(V p, V h)
{
    V q = convref::v3(std::fabs(p.x) - h.x, std::fabs(p.y) - h.y, std::fabs(p.z) - h.z);
    V o = convref::v3(std::max(q.x, 0.0), std::max(q.y, 0.0), std::max(q.z, 0.0));
    return convref::norm(o) + std::min(std::max(q.x, std::max(q.y, q.z)), 0.0);
}

inline double cylinder_sdf(V p, double r, double h)
{
    double dx = std::hypot(p.x, p.y) - r, dz = std::fabs(p.z) - h;
    return std::min(std::max(dx, dz), 0.0) + std::hypot(std::max(dx, 0.0), std::max(dz, 0.0));
}

// A cone of base radius r at z = -h, apex at z = +h.
inline double cone_sdf(V p, double r, double h)
{
    double qx = std::hypot(p.x, p.y), qy = p.z;
    double cax = qx - std::min(qx, qy < 0 ? r : 0.0), cay = std::fabs(qy) - h;
    // The slant from the apex (0, h) to the base rim (r, -h).
    double k2x = -r, k2y = 2 * h;
    double t = std::min(1.0, std::max(0.0, ((0.0 - qx) * k2x + (h - qy) * k2y) / (k2x * k2x + k2y * k2y)));
    double cbx = qx - 0.0 + k2x * t, cby = qy - h + k2y * t;
    double s = (cbx < 0 && cay < 0) ? -1.0 : 1.0;
    return s * std::sqrt(std::min(cax * cax + cay * cay, cbx * cbx + cby * cby));
}

// Distance from p to the ellipsoid surface (semi-axes e), signed: the root
// of sum (e_i p_i / (t + e_i^2))^2 = 1 by bisection (Eberly), in the octant
// of p, with the axes sorted.
inline double ellipsoid_sdf(V p, V e)
{
    double a[3] = {e.x, e.y, e.z}, y[3] = {std::fabs(p.x), std::fabs(p.y), std::fabs(p.z)};
    double g = y[0] * y[0] / (a[0] * a[0]) + y[1] * y[1] / (a[1] * a[1]) + y[2] * y[2] / (a[2] * a[2]);
    if (g == 0) return -std::min({a[0], a[1], a[2]});
    // f(t) = sum (a_i y_i / (t + a_i^2))^2 - 1, decreasing in t > -min a_i^2.
    double amin2 = std::min({a[0] * a[0], a[1] * a[1], a[2] * a[2]});
    auto f = [&](double t) {
        double s = 0;
        for (int i = 0; i < 3; ++i) {
            double r = a[i] * y[i] / (t + a[i] * a[i]);
            s += r * r;
        }
        return s - 1;
    };
    double amax = std::max({a[0], a[1], a[2]});
    double lo = -amin2, hi = 2.0 * amax * std::sqrt(y[0] * y[0] + y[1] * y[1] + y[2] * y[2]); // f(hi) <= -3/4
    // Points with a zero coordinate on the smallest axis can have their root
    // at -amin2 exactly; the bisection then converges there.
    for (int it = 0; it < 200; ++it) {
        double mid = 0.5 * (lo + hi);
        if (mid <= lo || mid >= hi) break;
        if (f(mid) > 0) lo = mid;
        else hi = mid;
    }
    double t = 0.5 * (lo + hi);
    double d2 = 0;
    for (int i = 0; i < 3; ++i) {
        double x = a[i] * a[i] * y[i] / (t + a[i] * a[i]);
        // On the degenerate root, the coordinate beyond the axis is free.
        if (!(std::fabs(t + a[i] * a[i]) > 0)) x = a[i];
        d2 += (x - y[i]) * (x - y[i]);
    }
    return (g < 1 ? -1.0 : 1.0) * std::sqrt(d2);
}

// Topology of the convex hull of `pts`: its face planes (coplanar
// triangles merged) and its edges, each with the normals of its two faces.
// Built incrementally in double precision (each point added beyond the
// faces it sees, stitched to their horizon), O(n^2) for n points.
struct Plane {
    V n;
    double offset;
};
struct HullEdge {
    V direction;
    V n0, n1; // the two faces' outward normals
};
struct HullTopology {
    std::vector<Plane> planes;
    std::vector<HullEdge> edges;
};

inline HullTopology hull_topology(const std::vector<V>& pts)
{
    HullTopology topo;
    size_t n = pts.size();
    double scale = 0;
    for (const V& p : pts) scale = std::max(scale, convref::norm(p));
    const double eps = 1e-9 * scale;
    if (n < 4) return topo;
    // A starting tetrahedron of well-spread points.
    size_t i0 = 0, i1 = 0, i2 = 0, i3 = 0;
    for (size_t i = 1; i < n; ++i)
        if (pts[i].x < pts[i0].x) i0 = i;
    for (size_t i = 0; i < n; ++i)
        if (convref::norm(pts[i] - pts[i0]) > convref::norm(pts[i1] - pts[i0])) i1 = i;
    auto line = [&](size_t i) { return convref::norm(convref::cross(pts[i1] - pts[i0], pts[i] - pts[i0])); };
    for (size_t i = 0; i < n; ++i)
        if (line(i) > line(i2)) i2 = i;
    V base = convref::cross(pts[i1] - pts[i0], pts[i2] - pts[i0]);
    auto height = [&](size_t i) { return std::fabs(convref::dot(base, pts[i] - pts[i0])); };
    for (size_t i = 0; i < n; ++i)
        if (height(i) > height(i3)) i3 = i;
    if (!(height(i3) > 1e-12 * scale * convref::norm(base))) return topo; // flat: no volume
    V centre = (pts[i0] + pts[i1] + pts[i2] + pts[i3]) * 0.25;
    struct Face {
        size_t v[3];
        V n;
        double off;
        bool alive;
    };
    std::vector<Face> faces;
    auto add_face = [&](size_t a, size_t b, size_t c) {
        V nrm = convref::cross(pts[b] - pts[a], pts[c] - pts[a]);
        double len = convref::norm(nrm);
        if (!(len > 0)) return;
        nrm = nrm * (1.0 / len);
        faces.push_back({{a, b, c}, nrm, convref::dot(nrm, pts[a]), true});
    };
    size_t tet[4] = {i0, i1, i2, i3};
    for (int f = 0; f < 4; ++f) {
        size_t a = tet[f], b = tet[(f + 1) % 4], c = tet[(f + 2) % 4];
        V nrm = convref::cross(pts[b] - pts[a], pts[c] - pts[a]);
        if (convref::dot(nrm, centre - pts[a]) > 0) std::swap(b, c);
        add_face(a, b, c);
    }
    std::map<std::pair<size_t, size_t>, size_t> visible_edges;
    for (size_t p = 0; p < n; ++p) {
        if (p == i0 || p == i1 || p == i2 || p == i3) continue;
        visible_edges.clear();
        for (size_t f = 0; f < faces.size(); ++f) {
            if (!faces[f].alive || convref::dot(faces[f].n, pts[p]) - faces[f].off <= eps) continue;
            faces[f].alive = false;
            for (int e = 0; e < 3; ++e) visible_edges[{faces[f].v[e], faces[f].v[(e + 1) % 3]}] = f;
        }
        for (const auto& e : visible_edges)
            if (!visible_edges.count({e.first.second, e.first.first})) add_face(e.first.first, e.first.second, p);
    }
    std::map<std::pair<size_t, size_t>, size_t> owner;
    for (size_t f = 0; f < faces.size(); ++f) {
        if (!faces[f].alive) continue;
        const Face& x = faces[f];
        bool dup = false;
        for (const Plane& q : topo.planes) dup = dup || (convref::dot(q.n, x.n) > 1 - 1e-12 && std::fabs(q.offset - x.off) <= eps);
        if (!dup) topo.planes.push_back({x.n, x.off});
        for (int e = 0; e < 3; ++e) owner[{x.v[e], x.v[(e + 1) % 3]}] = f;
    }
    for (const auto& e : owner) {
        if (e.first.first > e.first.second) continue;
        auto other = owner.find({e.first.second, e.first.first});
        if (other == owner.end()) continue;
        V n0 = faces[e.second].n, n1 = faces[other->second].n;
        if (convref::dot(n0, n1) > 1 - 1e-12) continue; // inside a flat face
        topo.edges.push_back({convref::unit(pts[e.first.second] - pts[e.first.first]), n0, n1});
    }
    return topo;
}

inline std::vector<Plane> hull_planes(const std::vector<V>& pts) { return hull_topology(pts).planes; }

// Signed distance from world point x to the boundary of s's core.
struct CoreDistance {
    const Shape& s;
    convref::Shape core;
    std::vector<Plane> planes; // hulls, local frame
    explicit CoreDistance(const Shape& shape) : s(shape), core(core_of(shape))
    {
        if (s.type == CC_SHAPE_CONVEX_HULL) planes = hull_planes(core.points);
    }
    double operator()(V x) const
    {
        V p = convref::to_local(core.pose, x);
        cc_vec3 k = s.size;
        switch (s.type) {
        case CC_SHAPE_SPHERE: return convref::norm(p);
        case CC_SHAPE_CAPSULE: {
            double z = std::max(-(double)k.y, std::min((double)k.y, p.z));
            return convref::norm(p - convref::v3(0, 0, z));
        }
        case CC_SHAPE_BOX: return box_sdf(p, to_v(k));
        case CC_SHAPE_CYLINDER: return cylinder_sdf(p, k.x, k.y);
        case CC_SHAPE_CONE: return cone_sdf(p, k.x, k.y);
        case CC_SHAPE_ELLIPSOID: return ellipsoid_sdf(p, to_v(k));
        default: {
            double inside = -1e300;
            for (const Plane& q : planes) inside = std::max(inside, convref::dot(q.n, p) - q.offset);
            if (inside <= 0) return inside;
            // Outside: the distance to the hull, the unique maximum of
            // n.x - h(n) climbed from the most violated face's normal.
            convref::Shape pt = convref::make_shape(convref::POINT, core.pose, convref::v3(0, 0, 0));
            pt.pose.t = x;
            V seed = planes[0].n;
            double best = -1e300;
            for (const Plane& q : planes)
                if (convref::dot(q.n, p) - q.offset > best) best = convref::dot(q.n, p) - q.offset, seed = q.n;
            return convref::local_max(core, pt, convref::to_world_dir(core.pose, seed)).value;
        }
        }
    }
};

// ---------------------------------------------------------------- generation

struct Random {
    std::mt19937_64 rng;
    explicit Random(uint64_t seed) : rng(seed) {}
    double uniform(double lo, double hi) { return std::uniform_real_distribution<double>(lo, hi)(rng); }
    double log_uniform(double lo, double hi) { return std::exp(uniform(std::log(lo), std::log(hi))); }
    int below(int n) { return (int)std::uniform_int_distribution<int>(0, n - 1)(rng); }
    bool chance(double p) { return uniform(0, 1) < p; }
    cc_quat rotation()
    {
        std::normal_distribution<double> g(0, 1);
        double x = g(rng), y = g(rng), z = g(rng), w = g(rng), l = std::sqrt(x * x + y * y + z * z + w * w);
        return {(float)(x / l), (float)(y / l), (float)(z / l), (float)(w / l)};
    }
    V direction()
    {
        std::normal_distribution<double> g(0, 1);
        return convref::unit(convref::v3(g(rng), g(rng), g(rng)));
    }
};

// Hull point sets: a cuboctahedron, a tetrahedron, an octahedron, random
// clouds on an ellipsoid or in a box.
inline std::vector<cc_vec3> random_hull_points(Random& r)
{
    std::vector<cc_vec3> p;
    switch (r.below(5)) {
    case 0:
        for (int a = 0; a < 3; ++a)
            for (int s1 = -1; s1 <= 1; s1 += 2)
                for (int s2 = -1; s2 <= 1; s2 += 2) {
                    float v[3] = {0, 0, 0};
                    v[(a + 1) % 3] = (float)s1;
                    v[(a + 2) % 3] = (float)s2;
                    p.push_back({v[0], v[1], v[2]});
                }
        break;
    case 1: p = {{1, 1, 1}, {1, -1, -1}, {-1, 1, -1}, {-1, -1, 1}}; break;
    case 2: p = {{1, 0, 0}, {-1, 0, 0}, {0, 1, 0}, {0, -1, 0}, {0, 0, 1}, {0, 0, -1}}; break;
    default: {
        // Mostly small clouds; a quarter large ones, where a face holds
        // many points and the hull's faces are slivers.
        int n = r.chance(0.25) ? 40 + r.below(200) : 6 + r.below(20);
        bool on_sphere = r.chance(0.5);
        for (int i = 0; i < n; ++i) {
            V d = on_sphere ? r.direction() : convref::v3(r.uniform(-1, 1), r.uniform(-1, 1), r.uniform(-1, 1));
            p.push_back({(float)d.x, (float)d.y, (float)d.z});
        }
    }
    }
    return p;
}

// A shape of `type` about `scale` in size, with aspect ratios up to 30;
// no dimension below the library's CC_SIZE_MIN.
inline Shape random_shape(Random& r, cc_shape_type type, double scale)
{
    Shape s;
    s.type = type;
    auto dim = [&]() { return std::max(CC_SIZE_MIN, (float)(scale * r.log_uniform(1.0 / 30.0, 1.0))); };
    switch (type) {
    case CC_SHAPE_PLANE:
        if (r.chance(0.5)) s.size = {dim() * 4, dim() * 4, 0};
        break;
    case CC_SHAPE_SPHERE: s.size = {dim(), 0, 0}; break;
    case CC_SHAPE_CAPSULE:
    case CC_SHAPE_CYLINDER:
    case CC_SHAPE_CONE: s.size = {dim(), dim(), 0}; break;
    case CC_SHAPE_CONVEX_HULL:
        s.hull = random_hull_points(r);
        s.size = {dim(), dim(), dim()};
        break;
    default: s.size = {dim(), dim(), dim()};
    }
    if (r.chance(0.5)) s.margin = (float)(extent(s) * r.log_uniform(1e-4, 0.1));
    if (r.chance(0.6)) s.gap = (float)(std::max(extent(s), scale) * r.log_uniform(1e-4, 0.1));
    s.pose.q = r.rotation();
    return s;
}

inline double pair_tolerance(const Pair& p)
{
    double ea = p.a.type == CC_SHAPE_PLANE ? extent(p.b) : extent(p.a), eb = extent(p.b);
    // Rounding: of the pair's own coordinates, and of the world positions
    // the contact points are stored at (body frames turned back to world).
    V pa = to_v(p.a.pose.p), pb = to_v(p.b.pose.p);
    double coords = convref::norm(pa - pb) + ea + eb + std::max(convref::norm(pa), convref::norm(pb));
    return 1e-4 * std::min(ea, eb) + 8.0 * 1.1920929e-7 * coords;
}

// Edges of a polytope core (box or hull) in world coordinates, each with
// its two faces' normals where known (a box's three edge directions stand
// for all twelve, without them); false for other types.
inline bool polytope_edges(const Shape& s, std::vector<HullEdge>* edges, std::vector<V>* normals, bool* arcs)
{
    convref::Shape c = core_of(s);
    *arcs = false;
    if (s.type == CC_SHAPE_BOX) {
        for (int k = 0; k < 3; ++k) edges->push_back({c.pose.col[k], {}, {}}), normals->push_back(c.pose.col[k]);
        return true;
    }
    if (s.type != CC_SHAPE_CONVEX_HULL) return false;
    HullTopology topo = hull_topology(c.points);
    for (const Plane& q : topo.planes) normals->push_back(convref::to_world_dir(c.pose, q.n));
    for (const HullEdge& e : topo.edges)
        edges->push_back({convref::to_world_dir(c.pose, e.direction), convref::to_world_dir(c.pose, e.n0),
                          convref::to_world_dir(c.pose, e.n1)});
    *arcs = true;
    return true;
}

// Whether edge x of A and edge y of B can meet on the boundary of A - B:
// the arcs of their face normals on the Gauss map (A's, and B's negated)
// cross. Generous at ties: an axis kept in vain only costs time.
inline bool edges_may_meet(const HullEdge& x, const HullEdge& y)
{
    V a = x.n0, b = x.n1, c = -y.n0, d = -y.n1;
    V bxa = convref::cross(b, a), dxc = convref::cross(d, c);
    double cba = convref::dot(c, bxa), dba = convref::dot(d, bxa), adc = convref::dot(a, dxc), bdc = convref::dot(b, dxc);
    const double slack = 1e-9;
    return cba * dba <= slack && adc * bdc <= slack && cba * bdc >= -slack;
}

// Candidate axes of two polytopes: both shapes' face normals (both signs)
// and the cross products of an edge of each (for two hulls, only of edges
// that can meet: the others' axes cannot be the maximum).
inline bool polytope_axes(const Shape& a, const Shape& b, std::vector<V>* axes)
{
    std::vector<HullEdge> ea, eb;
    std::vector<V> na, nb;
    bool arcs_a, arcs_b;
    if (!polytope_edges(a, &ea, &na, &arcs_a) || !polytope_edges(b, &eb, &nb, &arcs_b)) return false;
    for (const std::vector<V>* list : {&na, &nb})
        for (const V& n : *list) axes->push_back(n), axes->push_back(-n);
    for (const HullEdge& x : ea)
        for (const HullEdge& y : eb) {
            if (arcs_a && arcs_b && !edges_may_meet(x, y)) continue;
            V c = convref::cross(x.direction, y.direction);
            if (convref::norm(c) > 1e-9) axes->push_back(convref::unit(c)), axes->push_back(-convref::unit(c));
        }
    return true;
}

// Reference signed core distance and its normal (A -> B). Planes are
// half-spaces below z in their frame: sep(n) is only finite along the
// plane's normal, so their distance is that direction's separation. Finite
// planes are measured as the infinite plane (an upper bound of depth that
// the scoring treats accordingly).
struct Reference {
    double distance; // D (for planes: along the normal)
    V normal;
    bool finite_plane = false;
};

inline Reference reference(const Pair& p)
{
    Reference ref;
    if (p.a.type == CC_SHAPE_PLANE) {
        convref::Pose pa = pose_of(p.a);
        V n = pa.col[2];
        convref::Shape b = core_of(p.b);
        ref.distance = -convref::dot(pa.t, n) - convref::support_height(b, -n);
        ref.normal = n;
        ref.finite_plane = p.a.size.x > 0 && p.a.size.y > 0;
        return ref;
    }
    // The global-then-local search of convex_reference.h, lighter: 1024
    // directions plus the shapes' own face and axis directions (where sep
    // has its kinks: a point deep in a cylinder leaves through a cap, a
    // maximum no sample lands on), then the three best starts at least 10
    // degrees apart, each refined to 1e-8 rad; the best polished.
    convref::Shape a = core_of(p.a), b = core_of(p.b);
    static const std::vector<V> sphere = convref::fibonacci_sphere(1024);
    std::vector<V> dirs = sphere;
    for (const convref::Shape* s : {&a, &b})
        for (int k = 0; k < 3; ++k) dirs.push_back(s->pose.col[k]), dirs.push_back(-s->pose.col[k]);
    for (const Shape* s : {&p.a, &p.b}) {
        if (s->type != CC_SHAPE_CONVEX_HULL) continue;
        convref::Shape c = core_of(*s);
        for (const Plane& q : hull_planes(c.points)) {
            V n = convref::to_world_dir(c.pose, q.n);
            dirs.push_back(s == &p.a ? n : -n);
        }
    }
    if (convref::norm(b.pose.t - a.pose.t) > 0) dirs.push_back(convref::unit(b.pose.t - a.pose.t));
    std::vector<std::pair<double, int>> scored(dirs.size());
    for (size_t i = 0; i < dirs.size(); ++i) scored[i] = {convref::sep(a, b, dirs[i]), (int)i};
    std::sort(scored.begin(), scored.end(),
              [](const std::pair<double, int>& x, const std::pair<double, int>& y) { return x.first > y.first; });
    std::vector<V> starts;
    for (size_t i = 0; i < scored.size() && starts.size() < 3; ++i) {
        V d = dirs[(size_t)scored[i].second];
        bool far = true;
        for (const V& q : starts) far = far && convref::angle(q, d) > 0.17;
        if (far) starts.push_back(d);
    }
    convref::Maximum best{starts[0], -1e300};
    for (const V& q : starts) {
        convref::Maximum m = convref::refine(a, b, q, 0.05, 1e-8);
        if (m.value > best.value) best = m;
    }
    best = convref::polish(a, b, best);
    // Two polytopes: the separating-axis theorem makes the maximum exact
    // over their face normals and the cross products of their edges.
    std::vector<V> axes;
    if (polytope_axes(p.a, p.b, &axes))
        for (const V& n : axes) {
            double s = convref::sep(a, b, n);
            if (s > best.value) best = {n, s};
        }
    ref.distance = best.value;
    ref.normal = best.n;
    return ref;
}

inline void place_b(Pair& p, V c) { p.b.pose.p = {(float)c.x, (float)c.y, (float)c.z}; }

// The largest ratio of the two shapes' sizes a pair is drawn with (the
// sizes themselves span six orders of magnitude).
inline double& max_size_ratio()
{
    static double ratio = 1e3;
    return ratio;
}

// A random pair of types (ta, tb) posed in class `pose_class`.
inline Pair random_pair(Random& r, cc_shape_type ta, cc_shape_type tb, int pose_class)
{
    Pair p;
    p.pose_class = pose_class;
    double scale_a = r.log_uniform(1e-3, 1e3);
    // Sizes of the two shapes differ by up to max_size_ratio either way.
    double ratio = max_size_ratio();
    double scale_b = scale_a * r.log_uniform(1.0 / ratio, ratio);
    if (r.chance(0.5)) scale_b = scale_a * r.log_uniform(std::max(0.3, 1.0 / ratio), std::min(3.0, ratio));
    p.a = random_shape(r, ta, scale_a);
    p.b = random_shape(r, tb, scale_b);
    p.a.pose.p = {(float)r.uniform(-2, 2) * (float)scale_a, (float)r.uniform(-2, 2) * (float)scale_a,
                  (float)r.uniform(-2, 2) * (float)scale_a};
    V ca = to_v(p.a.pose.p);
    double ea = ta == CC_SHAPE_PLANE ? extent(p.b) : extent(p.a), eb = extent(p.b);
    switch (pose_class) {
    case kCoincident: place_b(p, ca); break;
    case kParallel:
        p.b.pose.q = p.a.pose.q;
        {
            cc_quat t = r.rotation();
            double ang = r.log_uniform(1e-7, 1e-2);
            double s = std::sin(0.5 * ang) / std::sqrt(t.x * t.x + t.y * t.y + t.z * t.z);
            cc_quat d = {(float)(t.x * s), (float)(t.y * s), (float)(t.z * s), (float)std::cos(0.5 * ang)};
            cc_quat q = p.a.pose.q;
            p.b.pose.q = {d.w * q.x + d.x * q.w + d.y * q.z - d.z * q.y, d.w * q.y - d.x * q.z + d.y * q.w + d.z * q.x,
                          d.w * q.z + d.x * q.y - d.y * q.x + d.z * q.w, d.w * q.w - d.x * q.x - d.y * q.y - d.z * q.z};
        }
        place_b(p, ca + r.direction() * ((ea + eb) * r.uniform(0.0, 1.2)));
        break;
    case kFar: place_b(p, ca + r.direction() * ((ea + eb) * r.log_uniform(10, 1000))); break;
    case kTouching: {
        place_b(p, ca + r.direction() * ((ea + eb) * r.uniform(0.2, 1.0)));
        // Move B along the normal until the surfaces touch (or nearly).
        for (int it = 0; it < 3; ++it) {
            Reference ref = reference(p);
            double surface = ref.distance - core_radius(p.a) - core_radius(p.b) - p.a.margin - p.b.margin;
            double target = 0.0;
            switch (r.below(4)) {
            case 0: target = 0.0; break;
            case 1: target = (r.chance(0.5) ? 1 : -1) * 1e-6 * std::min(ea, eb); break;
            case 2: target = (r.chance(0.5) ? 1 : -1) * 1e-3 * std::min(ea, eb); break;
            default: target = p.a.gap + p.b.gap; break;
            }
            place_b(p, to_v(p.b.pose.p) + ref.normal * (target - surface));
        }
        break;
    }
    default: place_b(p, ca + r.direction() * ((ea + eb) * r.uniform(0.0, 1.3)));
    }
    if (ta == CC_SHAPE_PLANE) p.a.pose.p = {0, 0, 0}, place_b(p, to_v(p.b.pose.p) - ca);
    return p;
}

// ---------------------------------------------------------------- running

inline int add_shape(cc_builder* b, const Shape& s, std::map<std::vector<float>, int>* hulls)
{
    int body = CC_BODY_WORLD;
    if (s.type != CC_SHAPE_PLANE) {
        cc_body_def bd = cc_default_body_def();
        bd.pose = s.pose;
        if (cc_builder_add_body(b, &bd, &body) != CC_OK) return -1;
    }
    cc_shape_def d = cc_default_shape_def();
    d.margin = s.margin;
    d.gap = s.gap;
    if (s.type == CC_SHAPE_PLANE) d.local = s.pose;
    int id = -1;
    if (s.type == CC_SHAPE_CONVEX_HULL) {
        std::vector<float> key;
        for (cc_vec3 q : s.hull) key.insert(key.end(), {q.x, q.y, q.z});
        auto it = hulls->find(key);
        int hull = -1;
        if (it != hulls->end()) {
            hull = it->second;
        } else {
            // The whole hull: the references measure the points given,
            // not a simplification of them.
            cc_convex_hull_def hd = cc_default_convex_hull_def();
            hd.max_vertices = 4096;
            if (cc_builder_add_convex_hull_data(b, s.hull.data(), (int)s.hull.size(), &hd, &hull) != CC_OK) return -1;
            (*hulls)[key] = hull;
        }
        if (cc_builder_add_convex_hull(b, body, hull, s.size, &d, &id) != CC_OK) return -1;
        return id;
    }
    if (s.type == CC_SHAPE_PLANE) {
        if (cc_builder_add_plane(b, body, s.size.x, s.size.y, &d, &id) != CC_OK) return -1;
        return id;
    }
    if (cc_builder_add_shape(b, body, s.type, s.size, &d, &id) != CC_OK) return -1;
    return id;
}

// One model with each pair alone in its world (a plane goes into the world
// too, never global); `swap` adds shape b before shape a. Returns the
// contacts of each pair (empty on failure, with *error set).
inline std::vector<std::vector<cc_contact>> collide_pairs(const std::vector<Pair>& pairs, bool swap, cc_device dev,
                                                          std::string* error)
{
    std::vector<std::vector<cc_contact>> out(pairs.size());
    cc_builder_def bdef = cc_default_builder_def();
    bdef.gravity = {0, 0, 0};
    cc_builder* b = nullptr;
    cc_builder_create(&bdef, &b);
    std::map<std::vector<float>, int> hulls;
    std::vector<int> world_of_shape;
    for (size_t i = 0; i < pairs.size(); ++i) {
        int w = -1;
        cc_builder_begin_world(b, &w);
        const Shape& first = swap ? pairs[i].b : pairs[i].a;
        const Shape& second = swap ? pairs[i].a : pairs[i].b;
        if (add_shape(b, first, &hulls) < 0 || add_shape(b, second, &hulls) < 0) {
            *error = std::string("building pair ") + std::to_string(i) + ": " + cc_last_error_message();
            cc_builder_destroy(b);
            return {};
        }
        world_of_shape.push_back((int)i);
        world_of_shape.push_back((int)i);
        cc_builder_end_world(b);
    }
    cc_model* m = nullptr;
    cc_state* st = nullptr;
    cc_pipeline* pl = nullptr;
    cc_contacts* c = nullptr;
    cc_pipeline_def pd = cc_default_pipeline_def();
    pd.rigid_contact_max = (int)pairs.size() * 8 + 64;
    pd.shape_pairs_max = (int)pairs.size() + 64;
    cc_status s = cc_builder_finalize(b, dev, &m);
    if (s == CC_OK) s = cc_state_create(m, &st);
    if (s == CC_OK) s = cc_pipeline_create(m, &pd, &pl);
    if (s == CC_OK) s = cc_contacts_create(pl, &c);
    if (s == CC_OK) s = cc_collide(pl, st, c, nullptr);
    std::vector<cc_contact> rows((size_t)pd.rigid_contact_max);
    int n = 0;
    if (s == CC_OK) s = cc_contacts_download(c, st, rows.data(), (int)rows.size(), &n);
    cc_overflow ov{};
    if (s == CC_OK) s = cc_pipeline_get_overflow(pl, &ov);
    if (s != CC_OK) *error = cc_last_error_message();
    else if (ov.contacts_overflowed || ov.pairs_overflowed) *error = "capacity overflow";
    else
        for (int i = 0; i < n; ++i) {
            cc_contact r = rows[(size_t)i];
            size_t pair = (size_t)world_of_shape[(size_t)r.shape0];
            // World coordinates, shape a's side first whatever the order.
            bool a_first = (r.shape0 % 2 == 0) != swap;
            cc_contact w = r;
            cc_transform p0 = (r.shape0 % 2 == 0) == !swap ? pairs[pair].a.pose : pairs[pair].b.pose;
            cc_transform p1 = (r.shape1 % 2 == 0) == !swap ? pairs[pair].a.pose : pairs[pair].b.pose;
            const Shape& s0 = a_first ? pairs[pair].a : pairs[pair].b;
            const Shape& s1 = a_first ? pairs[pair].b : pairs[pair].a;
            auto world = [](const cc_transform& t, const Shape& sh, cc_vec3 v) {
                if (sh.type == CC_SHAPE_PLANE) return v; // planes hang on the world
                convref::Pose p = convref::pose_from_quat(t.q.x, t.q.y, t.q.z, t.q.w, to_v(t.p));
                V x = convref::to_world(p, to_v(v));
                return cc_vec3{(float)x.x, (float)x.y, (float)x.z};
            };
            w.point0 = world(p0, s0, r.point0);
            w.point1 = world(p1, s1, r.point1);
            if (!a_first) { // orient as a -> b
                std::swap(w.point0, w.point1);
                std::swap(w.thickness0, w.thickness1);
                w.normal = {-w.normal.x, -w.normal.y, -w.normal.z};
            }
            out[pair].push_back(w);
        }
    if (c) cc_contacts_destroy(c);
    if (pl) cc_pipeline_destroy(pl);
    if (st) cc_state_destroy(st);
    if (m) cc_model_destroy(m);
    cc_builder_destroy(b);
    if (!error->empty()) out.clear();
    return out;
}

// ---------------------------------------------------------------- scoring

// The reference table's largest per-pair count (lower type first).
inline int max_contacts(cc_shape_type ta, cc_shape_type tb)
{
    if (ta == CC_SHAPE_SPHERE || tb == CC_SHAPE_SPHERE || ta == CC_SHAPE_ELLIPSOID || tb == CC_SHAPE_ELLIPSOID) return 1;
    if (ta == CC_SHAPE_CAPSULE || tb == CC_SHAPE_CAPSULE) return 2;
    if (ta == CC_SHAPE_PLANE && tb == CC_SHAPE_PLANE) return 4;
    if ((ta == CC_SHAPE_PLANE && (tb == CC_SHAPE_BOX || tb == CC_SHAPE_CYLINDER)) || (ta == CC_SHAPE_BOX && tb == CC_SHAPE_BOX))
        return 4;
    return 5;
}

enum Check { kNan, kNormal, kDeep, kShallow, kCertify, kOff, kWitness, kCount, kMissing, kBeyond, kSwap, kChecks };
inline const char* check_name(int c)
{
    static const char* names[] = {"nan", "normal", "deep", "shallow", "certify", "off", "witness", "count", "missing", "beyond", "swap"};
    return names[c];
}

struct Finding {
    int check;
    double excess; // by how much the tolerance was exceeded, relative to the smaller size
    std::string detail;
};

// How far a contact's two core points are from lying across its core
// distance along its normal: |p1 - p0 - n (d + t0 + t1)|. A contact
// describes one touching: the point on A, the point on B and the normal
// between them. A normal off by an angle e moves the touching points of
// curved surfaces by about e times their radii of curvature while the
// distance changes by e^2 only, so the check allows, beside the position
// tolerance, 1e-2 of the smaller size and 1e-3 of the larger: what it finds
// are points misplaced along a surface (a cap's inscribed polygon in place
// of its disk: up to 8 % of the radius; a hull face that does not hold the
// touching point: up to the face's size).
inline double witness_tolerance(double tol, double small, double large) { return tol + 1e-2 * small + 1e-3 * large; }

inline double witness_miss(const cc_contact& c)
{
    double core = (double)c.distance + c.thickness0 + c.thickness1;
    V n = convref::unit(to_v(c.normal));
    return convref::norm(to_v(c.point1) - to_v(c.point0) - n * core);
}

// Scores one pair's contacts (oriented a -> b, world points).
inline std::vector<Finding> score(const Pair& p, const std::vector<cc_contact>& cs)
{
    std::vector<Finding> f;
    double tol = pair_tolerance(p);
    double small = std::min(p.a.type == CC_SHAPE_PLANE ? extent(p.b) : extent(p.a), extent(p.b));
    double large = std::max(p.a.type == CC_SHAPE_PLANE ? extent(p.b) : extent(p.a), extent(p.b));
    auto add = [&](int check, double amount, const std::string& d) { f.push_back({check, amount / small, d}); };
    double gap = p.a.gap + p.b.gap;
    double thick = core_radius(p.a) + core_radius(p.b) + p.a.margin + p.b.margin;
    Reference ref = reference(p);
    double contact_distance = ref.distance - thick; // d of the true contact
    int n = (int)cs.size();
    cc_shape_type ta = p.a.type, tb = p.b.type;
    if (ta > tb) std::swap(ta, tb);
    if (n > max_contacts(ta, tb)) add(kCount, n - max_contacts(ta, tb), std::to_string(n) + " contacts");
    bool plane = p.a.type == CC_SHAPE_PLANE;
    if (n == 0) {
        // A finite plane may miss a shape beside its rectangle: no claim.
        if (contact_distance <= gap - tol && !ref.finite_plane)
            add(kMissing, gap - tol - contact_distance, "true d " + std::to_string(contact_distance));
        return f;
    }
    convref::Shape ca = core_of(p.a), cb = core_of(p.b);
    CoreDistance da(p.a), db(p.b);
    // The reference maximum is a lower bound of D (planes: exact along the
    // normal), and so is the separation along the contact's own normal.
    double lb = ref.distance;
    if (!plane) lb = std::max(lb, convref::sep(ca, cb, convref::unit(to_v(cs[0].normal))));
    double cmin = 1e300;
    for (const cc_contact& c : cs) {
        const float* v = &c.point0.x;
        bool finite = std::isfinite(c.distance) && std::isfinite(c.thickness0) && std::isfinite(c.thickness1);
        for (int k = 0; k < 21 - 4 && finite; ++k) finite = std::isfinite(v[k]);
        if (!finite) {
            add(kNan, 1, "non-finite contact");
            return f;
        }
        double len = std::sqrt((double)c.normal.x * c.normal.x + (double)c.normal.y * c.normal.y + (double)c.normal.z * c.normal.z);
        if (std::fabs(len - 1) > 1e-5) add(kNormal, std::fabs(len - 1) * small, "normal length " + std::to_string(len));
        double core = (double)c.distance + c.thickness0 + c.thickness1;
        cmin = std::min(cmin, core);
        if (!ref.finite_plane && core < lb - tol) add(kDeep, lb - tol - core, "core " + std::to_string(core) + " < D " + std::to_string(lb));
        if (c.distance > gap + tol) add(kBeyond, c.distance - gap - tol, "d " + std::to_string(c.distance));
        // Core points on their cores (a plane's point on its plane).
        double off0 = plane ? std::fabs(convref::dot(to_v(c.point0) - convref::to_world(pose_of(p.a), convref::v3(0, 0, 0)),
                                                     pose_of(p.a).col[2]))
                            : std::fabs(da(to_v(c.point0)));
        double off1 = std::fabs(db(to_v(c.point1)));
        if (off0 > tol) add(kOff, off0 - tol, "point on a off by " + std::to_string(off0));
        if (off1 > tol) add(kOff, off1 - tol, "point on b off by " + std::to_string(off1));
        double across = witness_miss(c), witness_tol = witness_tolerance(tol, small, large);
        if (across > witness_tol)
            add(kWitness, across - witness_tol, "core points miss each other along the normal by " + std::to_string(across));
    }
    if (!plane && n <= 2) {
        // A one- or two-point contact's normal must separate the cores by
        // its deepest point's distance: otherwise it is tilted. (A face
        // manifold's normal is its reference face's, exact at its points
        // even where the other shape dips below that plane beyond the
        // face's rim.)
        V nrm = convref::unit(to_v(cs[0].normal));
        double s = convref::sep(ca, cb, nrm);
        if (s < cmin - tol) add(kCertify, cmin - tol - s, "sep(normal) " + std::to_string(s) + " < " + std::to_string(cmin));
    }
    if (!ref.finite_plane && cmin > lb + tol)
        add(kShallow, cmin - lb - tol, "core " + std::to_string(cmin) + " > D " + std::to_string(lb));
    if (contact_distance > gap + tol && cmin - thick > gap + tol)
        add(kBeyond, contact_distance - gap - tol, "true d " + std::to_string(contact_distance));
    return f;
}

// The two orders of a same-type pair: distance and count must agree.
inline std::vector<Finding> score_swap(const Pair& p, const std::vector<cc_contact>& ab, const std::vector<cc_contact>& ba)
{
    std::vector<Finding> f;
    double small = std::min(extent(p.a), extent(p.b));
    if (ab.size() != ba.size()) {
        f.push_back({kSwap, 1, "counts " + std::to_string(ab.size()) + " and " + std::to_string(ba.size())});
        return f;
    }
    if (ab.empty()) return f;
    double da = 1e300, db = 1e300;
    for (const cc_contact& c : ab) da = std::min(da, (double)c.distance);
    for (const cc_contact& c : ba) db = std::min(db, (double)c.distance);
    double tol = 1e-5 * small + 8.0 * 1.1920929e-7 * (std::fabs(da) + extent(p.a) + extent(p.b));
    if (std::fabs(da - db) > tol) f.push_back({kSwap, (std::fabs(da - db) - tol) / small, "d " + std::to_string(da) + " vs " + std::to_string(db)});
    return f;
}

// A pair as C source, for the report of a failure.
inline std::string describe(const Pair& p)
{
    auto shape = [](const Shape& s) {
        char t[400];
        std::string points;
        for (cc_vec3 q : s.hull) {
            char v[64];
            std::snprintf(v, sizeof v, "%s%.9g %.9g %.9g", points.empty() ? "" : ", ", q.x, q.y, q.z);
            points += v;
        }
        std::snprintf(t, sizeof t, "%s size (%.9g %.9g %.9g) margin %.9g gap %.9g at (%.9g %.9g %.9g) q (%.9g %.9g %.9g %.9g)%s",
                      cc_shape_type_name(s.type), s.size.x, s.size.y, s.size.z, s.margin, s.gap, s.pose.p.x, s.pose.p.y,
                      s.pose.p.z, s.pose.q.x, s.pose.q.y, s.pose.q.z, s.pose.q.w,
                      s.type == CC_SHAPE_CONVEX_HULL ? (" (" + std::to_string(s.hull.size()) + " hull points)").c_str() : "");
        return std::string(t) + (points.empty() ? "" : " points {" + points + "}");
    };
    // Whole, however many hull points: the text must replay.
    return std::string("[") + pose_class_name(p.pose_class) + "] A: " + shape(p.a) + "; B: " + shape(p.b);
}

// Reads one shape as describe() writes it ("<type> size (...) margin m gap g
// at (...) q (...) [(N hull points) points {...}]"). False when malformed.
inline bool parse_shape(const std::string& text, Shape* s)
{
    size_t at = text.find(" size (");
    if (at == std::string::npos) return false;
    std::string type = text.substr(0, at);
    while (!type.empty() && type[0] == ' ') type.erase(0, 1);
    int t = -1;
    for (int k = 0; k < CC_SHAPE_TYPE_COUNT; ++k)
        if (type == cc_shape_type_name((cc_shape_type)k)) t = k;
    if (t < 0) return false;
    s->type = (cc_shape_type)t;
    const char* c = text.c_str() + at;
    if (std::sscanf(c, " size (%f %f %f) margin %f gap %f at (%f %f %f) q (%f %f %f %f)", &s->size.x, &s->size.y,
                    &s->size.z, &s->margin, &s->gap, &s->pose.p.x, &s->pose.p.y, &s->pose.p.z, &s->pose.q.x,
                    &s->pose.q.y, &s->pose.q.z, &s->pose.q.w) != 12)
        return false;
    s->hull.clear();
    size_t open = text.find("points {");
    if (open == std::string::npos) return s->type != CC_SHAPE_CONVEX_HULL;
    const char* q = text.c_str() + open + 8;
    cc_vec3 v;
    int used = 0;
    while (std::sscanf(q, " %f %f %f%n", &v.x, &v.y, &v.z, &used) == 3) {
        s->hull.push_back(v);
        q += used;
        if (*q == ',') ++q;
    }
    return s->hull.size() >= 4;
}

// Reads a pair as describe() writes it: "[class] A: <shape>; B: <shape>".
inline bool parse_pair(const std::string& text, Pair* p)
{
    size_t a = text.find("A: "), b = text.find("; B: ");
    if (a == std::string::npos || b == std::string::npos || b < a) return false;
    p->pose_class = kRandom;
    for (int c = 0; c < kPoseClasses; ++c)
        if (text.find(std::string("[") + pose_class_name(c) + "]") != std::string::npos) p->pose_class = c;
    return parse_shape(text.substr(a + 3, b - a - 3), &p->a) && parse_shape(text.substr(b + 5), &p->b);
}

// ---------------------------------------------------------------- a run

struct RouteTally {
    long pairs = 0;
    long contacts = 0;
    long failures[kChecks] = {};
    double worst[kChecks] = {};
    std::string example[kChecks];  // the worst failure of each check
    std::vector<std::string> first; // the first few failures, of check `only` when set
    int only = -1;
    bool keeps(int check) const { return first.size() < 12 && (only < 0 || only == check); }
};

// Fuzzes `count` pairs of (ta, tb), batch by batch, tallying findings.
inline void fuzz_route(cc_shape_type ta, cc_shape_type tb, long count, uint64_t seed, cc_device dev, RouteTally* t,
                       std::string* error, int batch = 2000)
{
    Random r(seed * 1000003u + (uint64_t)ta * 131u + (uint64_t)tb);
    for (long done = 0; done < count && error->empty();) {
        int k = (int)std::min<long>(batch, count - done);
        std::vector<Pair> pairs;
        for (int i = 0; i < k; ++i) pairs.push_back(random_pair(r, ta, tb, r.below(kPoseClasses)));
        std::vector<std::vector<cc_contact>> ab = collide_pairs(pairs, false, dev, error);
        if (!error->empty()) return;
        std::vector<std::vector<cc_contact>> ba;
        if (ta == tb) ba = collide_pairs(pairs, true, dev, error);
        if (!error->empty()) return;
        for (int i = 0; i < k; ++i) {
            std::vector<Finding> f = score(pairs[(size_t)i], ab[(size_t)i]);
            if (ta == tb) {
                std::vector<Finding> g = score_swap(pairs[(size_t)i], ab[(size_t)i], ba[(size_t)i]);
                f.insert(f.end(), g.begin(), g.end());
            }
            t->pairs++;
            t->contacts += (long)ab[(size_t)i].size();
            bool seen[kChecks] = {};
            for (const Finding& x : f) {
                if (seen[x.check]) continue;
                seen[x.check] = true;
                t->failures[x.check]++;
                if (t->keeps(x.check)) t->first.push_back(std::string(check_name(x.check)) + ": " + x.detail + " -- " + describe(pairs[(size_t)i]));
                if (x.excess > t->worst[x.check]) {
                    t->worst[x.check] = x.excess;
                    t->example[x.check] = x.detail + " -- " + describe(pairs[(size_t)i]);
                }
            }
        }
        done += k;
    }
}

// Every route of the convex narrow phase: each pair of the convex types,
// lower type first, and planes against each convex type.
inline std::vector<std::pair<cc_shape_type, cc_shape_type>> convex_routes()
{
    std::vector<std::pair<cc_shape_type, cc_shape_type>> r;
    for (int a = CC_SHAPE_PLANE; a <= CC_SHAPE_CONVEX_HULL; ++a)
        for (int b = std::max(a, (int)CC_SHAPE_SPHERE); b <= CC_SHAPE_CONVEX_HULL; ++b)
            r.push_back({(cc_shape_type)a, (cc_shape_type)b});
    return r;
}

} // namespace ccfuzz

#endif
