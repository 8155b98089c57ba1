// Host-side convex hulls (cc_hull_build, with qhull): exact results on a
// box, a tetrahedron and a sampled cylinder (coplanar facets merged into
// one polygon each); general properties on sphere samples (every input point
// inside every face plane, face corners on their plane, faces convex and
// counter-clockwise seen from outside, a closed surface with V - E + F = 2);
// the vertex limit; rejected input (status, message, untouched output); and
// identical output for identical input.
#include <gtest/gtest.h>

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>
#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "tests/support/owned_hull.h"
#include "host/internal.h"
#include "kernels/shapes/hull.h"
#include "host/geometry/hull_build.h"

namespace {

// Distance tolerance for hulls of unit-sized point sets [m]: float rounding
// of normals and offsets stays well below it.
constexpr float kTol = 1e-5f;

// Owns a built hull.
using Hull = OwnedHull;

cc_vec3 v3(float x, float y, float z) { return cc_v3(x, y, z); }

bool is_zeroed(const cc_hull_data& h)
{
    cc_hull_data zero;
    std::memset(&zero, 0, sizeof zero);
    return std::memcmp(&h, &zero, sizeof h) == 0;
}

std::vector<cc_vec3> box_corners(cc_vec3 half)
{
    std::vector<cc_vec3> p;
    for (int i = 0; i < 8; ++i)
        p.push_back(v3(i & 1 ? half.x : -half.x, i & 2 ? half.y : -half.y, i & 4 ? half.z : -half.z));
    return p;
}

// n points spread evenly over the unit sphere (golden-angle spiral).
std::vector<cc_vec3> fibonacci_sphere(int n)
{
    std::vector<cc_vec3> p;
    const double golden = M_PI * (3.0 - std::sqrt(5.0));
    for (int i = 0; i < n; ++i) {
        double z = 1.0 - (2.0 * i + 1.0) / n;
        double r = std::sqrt(1.0 - z * z);
        p.push_back(v3((float)(r * std::cos(golden * i)), (float)(r * std::sin(golden * i)), (float)z));
    }
    return p;
}

// Deterministic pseudo-random numbers in [-1, 1).
struct Lcg {
    uint32_t state = 12345u;
    float next()
    {
        state = state * 1664525u + 1013904223u;
        return (float)(state >> 8) / (float)(1u << 23) - 1.0f;
    }
};

bool same_point(cc_vec3 a, cc_vec3 b) { return a.x == b.x && a.y == b.y && a.z == b.z; }

// Every property a hull of `input` must have, with distances within kTol.
void expect_valid_hull(const cc_hull_data& h, const std::vector<cc_vec3>& input)
{
    ASSERT_GE(h.vertex_count, 4);
    ASSERT_GE(h.face_count, 4);
    ASSERT_NE(h.vertices, nullptr);
    ASSERT_NE(h.faces, nullptr);
    ASSERT_NE(h.indices, nullptr);

    // Vertices come from the input; bounds are theirs.
    cc_vec3 lo = h.vertices[0], hi = h.vertices[0];
    for (int i = 0; i < h.vertex_count; ++i) {
        bool found = false;
        for (const cc_vec3& p : input) found = found || same_point(p, h.vertices[i]);
        EXPECT_TRUE(found) << "vertex " << i << " is not an input point";
        lo = cc_v3_min(lo, h.vertices[i]);
        hi = cc_v3_max(hi, h.vertices[i]);
    }
    EXPECT_TRUE(same_point(h.lower, lo));
    EXPECT_TRUE(same_point(h.upper, hi));

    int corners = 0;
    std::map<std::pair<int, int>, int> directed_edges;
    std::vector<int> vertex_used(h.vertex_count, 0);
    for (int f = 0; f < h.face_count; ++f) {
        const cc_hull_face& face = h.faces[f];
        ASSERT_GE(face.count, 3) << "face " << f;
        ASSERT_GE(face.first, 0);
        ASSERT_LE(face.first + face.count, h.index_count);
        corners += face.count;
        EXPECT_NEAR(cc_v3_length(face.normal), 1.0f, 1e-6f) << "face " << f;
        for (int k = 0; k < face.count; ++k) {
            int a = h.indices[face.first + k];
            int b = h.indices[face.first + (k + 1) % face.count];
            int c = h.indices[face.first + (k + 2) % face.count];
            ASSERT_TRUE(a >= 0 && a < h.vertex_count) << "face " << f;
            vertex_used[a] = 1;
            cc_vec3 va = h.vertices[a], vb = h.vertices[b], vc = h.vertices[c];
            EXPECT_NEAR(cc_v3_dot(face.normal, va), face.offset, kTol) << "face " << f << " corner " << k;
            // Convex and counter-clockwise seen from outside: each turn is
            // to the left about the outward normal.
            float turn = cc_v3_dot(cc_v3_cross(cc_v3_sub(vb, va), cc_v3_sub(vc, vb)), face.normal);
            EXPECT_GT(turn, 0.0f) << "face " << f << " corner " << k;
            directed_edges[{a, b}] += 1;
        }
        for (const cc_vec3& p : input)
            EXPECT_LE(cc_v3_dot(face.normal, p), face.offset + kTol) << "face " << f;
    }
    EXPECT_EQ(corners, h.index_count);
    for (int i = 0; i < h.vertex_count; ++i) EXPECT_TRUE(vertex_used[i]) << "vertex " << i << " is in no face";

    // Closed and consistently oriented: every edge is walked once each way.
    for (const auto& e : directed_edges) {
        EXPECT_EQ(e.second, 1) << "edge " << e.first.first << "-" << e.first.second;
        auto back = directed_edges.find({e.first.second, e.first.first});
        EXPECT_TRUE(back != directed_edges.end() && back->second == 1)
            << "edge " << e.first.first << "-" << e.first.second << " has no twin";
    }
    int edges = (int)directed_edges.size() / 2;
    EXPECT_EQ(h.vertex_count - edges + h.face_count, 2) << "Euler characteristic";
}

TEST(ConvexHullBuild, BoxCornersGiveSixQuads)
{
    const cc_vec3 half = v3(0.5f, 1.0f, 1.5f);
    std::vector<cc_vec3> pts = box_corners(half);
    Hull hull;
    ASSERT_EQ(cc_hull_build(pts.data(), (int)pts.size(), 64, "box", &hull.h), CC_OK) << cc_last_error_message();
    const cc_hull_data& h = hull.h;
    expect_valid_hull(h, pts);
    EXPECT_EQ(h.vertex_count, 8);
    ASSERT_EQ(h.face_count, 6);
    EXPECT_EQ(h.index_count, 24);
    std::set<std::pair<int, int>> axes_seen; // (axis, sign)
    for (int f = 0; f < h.face_count; ++f) {
        const cc_hull_face& face = h.faces[f];
        EXPECT_EQ(face.count, 4);
        int axis = std::fabs(face.normal.x) > 0.5f ? 0 : (std::fabs(face.normal.y) > 0.5f ? 1 : 2);
        float along = cc_v3_get(face.normal, axis);
        EXPECT_EQ(std::fabs(along), 1.0f) << "face " << f;
        EXPECT_FLOAT_EQ(cc_v3_length(face.normal), 1.0f);
        EXPECT_FLOAT_EQ(face.offset, cc_v3_get(half, axis)) << "face " << f;
        axes_seen.insert({axis, along > 0.0f ? 1 : -1});
        // Every corner of the face lies on its side of the box.
        for (int k = 0; k < face.count; ++k)
            EXPECT_EQ(cc_v3_get(h.vertices[h.indices[face.first + k]], axis), along * cc_v3_get(half, axis));
    }
    EXPECT_EQ(axes_seen.size(), 6u);
    EXPECT_TRUE(same_point(h.lower, cc_v3_neg(half)));
    EXPECT_TRUE(same_point(h.upper, half));
}

TEST(ConvexHullBuild, InteriorPointsAndDuplicatesDoNotChangeTheHull)
{
    const cc_vec3 half = v3(1.0f, 2.0f, 0.5f);
    std::vector<cc_vec3> corners = box_corners(half);
    std::vector<cc_vec3> pts;
    Lcg rng;
    for (int i = 0; i < 50; ++i)
        pts.push_back(v3(rng.next() * half.x * 0.9f, rng.next() * half.y * 0.9f, rng.next() * half.z * 0.9f));
    // Points on the faces and edges are not vertices either.
    pts.push_back(v3(half.x, 0.0f, 0.0f));
    pts.push_back(v3(0.0f, -half.y, 0.1f));
    pts.push_back(v3(half.x, half.y, 0.0f));
    pts.push_back(v3(-half.x, 0.3f, -half.z));
    for (const cc_vec3& c : corners) {
        pts.push_back(c);
        pts.push_back(c);
    }
    pts.push_back(corners[3]);
    Hull hull;
    ASSERT_EQ(cc_hull_build(pts.data(), (int)pts.size(), 64, "box", &hull.h), CC_OK) << cc_last_error_message();
    expect_valid_hull(hull.h, pts);
    ASSERT_EQ(hull.h.vertex_count, 8);
    for (int i = 0; i < 8; ++i) {
        bool is_corner = false;
        for (const cc_vec3& c : corners) is_corner = is_corner || same_point(c, hull.h.vertices[i]);
        EXPECT_TRUE(is_corner) << "vertex " << i;
    }
    ASSERT_EQ(hull.h.face_count, 6);
    for (int f = 0; f < 6; ++f) EXPECT_EQ(hull.h.faces[f].count, 4);
}

TEST(ConvexHullBuild, RotatedBoxFacesStayMergedDespiteFloatRounding)
{
    // Rotating in float leaves each face's corners off a common plane by
    // float rounding; the faces must still come out as quads.
    std::vector<cc_vec3> pts = box_corners(v3(0.3f, 0.7f, 1.1f));
    const float c = std::cos(0.7f), s = std::sin(0.7f), c2 = std::cos(0.3f), s2 = std::sin(0.3f);
    for (cc_vec3& p : pts) {
        cc_vec3 q = v3(c * p.x - s * p.y, s * p.x + c * p.y, p.z);
        p = v3(q.x, c2 * q.y - s2 * q.z, s2 * q.y + c2 * q.z);
        p = cc_v3_add(p, v3(10.0f, -3.0f, 2.0f));
    }
    Hull hull;
    ASSERT_EQ(cc_hull_build(pts.data(), (int)pts.size(), 64, "box", &hull.h), CC_OK) << cc_last_error_message();
    expect_valid_hull(hull.h, pts);
    EXPECT_EQ(hull.h.vertex_count, 8);
    ASSERT_EQ(hull.h.face_count, 6);
    for (int f = 0; f < 6; ++f) EXPECT_EQ(hull.h.faces[f].count, 4);
}

TEST(ConvexHullBuild, TetrahedronGivesFourTriangles)
{
    std::vector<cc_vec3> pts = {v3(0, 0, 0), v3(1, 0, 0), v3(0, 1, 0), v3(0, 0, 1)};
    Hull hull;
    ASSERT_EQ(cc_hull_build(pts.data(), 4, 4, "tetrahedron", &hull.h), CC_OK) << cc_last_error_message();
    expect_valid_hull(hull.h, pts);
    EXPECT_EQ(hull.h.vertex_count, 4);
    ASSERT_EQ(hull.h.face_count, 4);
    EXPECT_EQ(hull.h.index_count, 12);
    // Vertices keep the input order.
    for (int i = 0; i < 4; ++i) EXPECT_TRUE(same_point(hull.h.vertices[i], pts[i]));
    int slanted = 0;
    for (int f = 0; f < 4; ++f) {
        const cc_hull_face& face = hull.h.faces[f];
        EXPECT_EQ(face.count, 3);
        if (face.offset > 0.1f) {
            ++slanted;
            const float k = 1.0f / std::sqrt(3.0f);
            EXPECT_NEAR(face.normal.x, k, 1e-6f);
            EXPECT_NEAR(face.normal.y, k, 1e-6f);
            EXPECT_NEAR(face.normal.z, k, 1e-6f);
            EXPECT_NEAR(face.offset, k, 1e-6f);
        } else {
            EXPECT_NEAR(face.offset, 0.0f, 1e-7f);
            EXPECT_NEAR(face.normal.x + face.normal.y + face.normal.z, -1.0f, 1e-6f);
        }
    }
    EXPECT_EQ(slanted, 1);
}

TEST(ConvexHullBuild, SpherePointsGiveAValidHull)
{
    std::vector<cc_vec3> pts = fibonacci_sphere(500);
    Hull hull;
    ASSERT_EQ(cc_hull_build(pts.data(), (int)pts.size(), CC_HULL_VERTEX_LIMIT, "sphere", &hull.h), CC_OK)
        << cc_last_error_message();
    expect_valid_hull(hull.h, pts);
    // Every point of a sphere sample is extreme.
    EXPECT_EQ(hull.h.vertex_count, 500);
}

TEST(ConvexHullBuild, CylinderCapsAreSinglePolygons)
{
    const int n = 32;
    const float radius = 0.4f, half_height = 0.25f;
    std::vector<cc_vec3> pts;
    for (int cap = 0; cap < 2; ++cap)
        for (int i = 0; i < n; ++i) {
            double a = 2.0 * M_PI * i / n;
            pts.push_back(v3((float)(radius * std::cos(a)), (float)(radius * std::sin(a)),
                             cap ? half_height : -half_height));
        }
    pts.push_back(v3(0.0f, 0.0f, 0.0f)); // inside
    Hull hull;
    ASSERT_EQ(cc_hull_build(pts.data(), (int)pts.size(), 256, "cylinder", &hull.h), CC_OK) << cc_last_error_message();
    expect_valid_hull(hull.h, pts);
    EXPECT_EQ(hull.h.vertex_count, 2 * n);
    int caps = 0, sides = 0;
    for (int f = 0; f < hull.h.face_count; ++f) {
        const cc_hull_face& face = hull.h.faces[f];
        if (std::fabs(face.normal.z) > 0.999f) {
            ++caps;
            EXPECT_EQ(face.count, n);
            EXPECT_FLOAT_EQ(face.offset, half_height);
        } else {
            ++sides;
            EXPECT_NEAR(face.normal.z, 0.0f, 1e-6f);
            EXPECT_EQ(face.count, 4); // each side rectangle is merged too
        }
    }
    EXPECT_EQ(caps, 2);
    EXPECT_EQ(sides, n);
}

TEST(ConvexHullBuild, VertexLimitKeepsAValidSubsetHull)
{
    std::vector<cc_vec3> pts = fibonacci_sphere(500);
    for (int limit : {32, 4, 5, 6, 7, 100}) {
        SCOPED_TRACE(limit);
        Hull hull;
        ASSERT_EQ(cc_hull_build(pts.data(), (int)pts.size(), limit, "sphere", &hull.h), CC_OK)
            << cc_last_error_message();
        EXPECT_LE(hull.h.vertex_count, limit);
        EXPECT_EQ(hull.h.vertex_count, limit); // sampled sphere points all stay extreme
        // Valid, with its own vertices inside every face (input points may
        // now lie outside: the simplified hull is smaller).
        std::vector<cc_vec3> own(hull.h.vertices, hull.h.vertices + hull.h.vertex_count);
        expect_valid_hull(hull.h, own);
        // The six axis extremes are kept (limit >= 10), so the bounds match.
        if (limit >= 10) {
            EXPECT_NEAR(hull.h.upper.z, pts.front().z, 1e-7f);
            EXPECT_NEAR(hull.h.lower.z, pts.back().z, 1e-7f);
        }
    }
    // Exactly at the limit: nothing is simplified.
    std::vector<cc_vec3> box = box_corners(v3(1, 1, 1));
    Hull hull;
    ASSERT_EQ(cc_hull_build(box.data(), 8, 8, "box", &hull.h), CC_OK);
    EXPECT_EQ(hull.h.vertex_count, 8);
    EXPECT_EQ(hull.h.face_count, 6);
}

TEST(ConvexHullBuild, OutputIsDeterministic)
{
    std::vector<cc_vec3> pts = fibonacci_sphere(300);
    Lcg rng;
    for (int i = 0; i < 100; ++i) pts.push_back(v3(rng.next() * 0.5f, rng.next() * 0.5f, rng.next() * 0.5f));
    for (int limit : {CC_HULL_VERTEX_LIMIT, 40}) {
        Hull a, b;
        ASSERT_EQ(cc_hull_build(pts.data(), (int)pts.size(), limit, "a", &a.h), CC_OK);
        ASSERT_EQ(cc_hull_build(pts.data(), (int)pts.size(), limit, "b", &b.h), CC_OK);
        ASSERT_EQ(a.h.vertex_count, b.h.vertex_count);
        ASSERT_EQ(a.h.face_count, b.h.face_count);
        ASSERT_EQ(a.h.index_count, b.h.index_count);
        EXPECT_EQ(std::memcmp(a.h.vertices, b.h.vertices, sizeof(cc_vec3) * a.h.vertex_count), 0);
        EXPECT_EQ(std::memcmp(a.h.faces, b.h.faces, sizeof(cc_hull_face) * a.h.face_count), 0);
        EXPECT_EQ(std::memcmp(a.h.indices, b.h.indices, sizeof(int) * a.h.index_count), 0);
        EXPECT_TRUE(same_point(a.h.lower, b.h.lower) && same_point(a.h.upper, b.h.upper));
    }
}

TEST(ConvexHullBuild, FreeZeroesTheStruct)
{
    std::vector<cc_vec3> pts = box_corners(v3(1, 1, 1));
    cc_hull_data h;
    std::memset(&h, 0, sizeof h);
    ASSERT_EQ(cc_hull_build(pts.data(), 8, 8, "box", &h), CC_OK);
    EXPECT_FALSE(is_zeroed(h));
    cc_hull_data_free(&h);
    EXPECT_TRUE(is_zeroed(h));
    cc_hull_data_free(&h); // freeing twice is harmless
    cc_hull_data_free(nullptr);
}

// One rejected input: its status, a message that starts with `what` and
// contains `word`, and an output left zeroed.
void expect_rejected(const std::vector<cc_vec3>& pts, int max_vertices, cc_status expected, const char* word)
{
    cc_hull_data h;
    std::memset(&h, 0, sizeof h);
    cc_status s = cc_hull_build(pts.empty() ? nullptr : pts.data(), (int)pts.size(), max_vertices, "hull_test", &h);
    EXPECT_EQ(s, expected) << cc_status_string(s) << ": " << cc_last_error_message();
    std::string msg = cc_last_error_message();
    EXPECT_EQ(msg.rfind("hull_test: ", 0), 0u) << msg;
    EXPECT_NE(msg.find(word), std::string::npos) << "message lacks \"" << word << "\": " << msg;
    EXPECT_TRUE(is_zeroed(h));
}

TEST(ConvexHullBuild, RejectsDegenerateInput)
{
    const float nan = std::numeric_limits<float>::quiet_NaN();
    const float inf = std::numeric_limits<float>::infinity();
    {
        SCOPED_TRACE("no points");
        expect_rejected({}, 16, CC_ERR_INVALID_SIZE, "at least 4");
    }
    {
        SCOPED_TRACE("3 points");
        expect_rejected({v3(0, 0, 0), v3(1, 0, 0), v3(0, 1, 0)}, 16, CC_ERR_INVALID_SIZE, "at least 4");
    }
    {
        SCOPED_TRACE("4 coplanar points");
        expect_rejected({v3(0, 0, 0), v3(1, 0, 0), v3(0, 1, 0), v3(1, 1, 0)}, 16, CC_ERR_INVALID_SIZE, "plane");
    }
    {
        SCOPED_TRACE("100 coplanar points on a tilted plane");
        std::vector<cc_vec3> pts;
        for (int i = 0; i < 10; ++i)
            for (int j = 0; j < 10; ++j) {
                float u = (float)i * 0.1f, v = (float)j * 0.1f;
                pts.push_back(v3(u, v, 0.3f * u - 0.2f * v + 1.0f));
            }
        expect_rejected(pts, 16, CC_ERR_INVALID_SIZE, "plane");
    }
    {
        SCOPED_TRACE("10 copies of one point");
        expect_rejected(std::vector<cc_vec3>(10, v3(1, 2, 3)), 16, CC_ERR_INVALID_SIZE, "all 10 points are at one position");
    }
    {
        SCOPED_TRACE("3 distinct points and near-duplicates");
        expect_rejected({v3(0, 0, 0), v3(1, 0, 0), v3(0, 1, 0), v3(1, 1e-8f, 1e-8f), v3(0, 0, 1e-8f)}, 16,
                        CC_ERR_INVALID_SIZE, "distinct");
    }
    {
        SCOPED_TRACE("4 collinear points");
        expect_rejected({v3(0, 0, 0), v3(1, 1, 1), v3(2, 2, 2), v3(3, 3, 3)}, 16, CC_ERR_INVALID_SIZE, "line");
    }
    {
        SCOPED_TRACE("a box thinner than the flatness tolerance");
        std::vector<cc_vec3> pts = box_corners(v3(1, 1, 1e-7f));
        expect_rejected(pts, 16, CC_ERR_INVALID_SIZE, "plane");
    }
    {
        SCOPED_TRACE("NaN");
        std::vector<cc_vec3> pts = box_corners(v3(1, 1, 1));
        pts[5].y = nan;
        expect_rejected(pts, 16, CC_ERR_NOT_FINITE, "point 5");
    }
    {
        SCOPED_TRACE("infinity");
        std::vector<cc_vec3> pts = box_corners(v3(1, 1, 1));
        pts[2].z = -inf;
        expect_rejected(pts, 16, CC_ERR_NOT_FINITE, "point 2");
    }
    std::vector<cc_vec3> box = box_corners(v3(1, 1, 1));
    {
        SCOPED_TRACE("max_vertices 3");
        expect_rejected(box, 3, CC_ERR_INVALID_ARGUMENT, "max_vertices");
    }
    {
        SCOPED_TRACE("max_vertices above the limit");
        expect_rejected(box, CC_HULL_VERTEX_LIMIT + 1, CC_ERR_INVALID_ARGUMENT, "max_vertices");
    }
}

TEST(ConvexHullBuild, RejectsNullArguments)
{
    cc_hull_data h;
    std::memset(&h, 0, sizeof h);
    EXPECT_EQ(cc_hull_build(nullptr, 8, 16, "hull_test", &h), CC_ERR_INVALID_ARGUMENT);
    EXPECT_NE(std::string(cc_last_error_message()).find("points is NULL"), std::string::npos);
    EXPECT_TRUE(is_zeroed(h));
    std::vector<cc_vec3> box = box_corners(v3(1, 1, 1));
    EXPECT_EQ(cc_hull_build(box.data(), 8, 16, "hull_test", nullptr), CC_ERR_INVALID_ARGUMENT);
    EXPECT_NE(std::string(cc_last_error_message()).find("out is NULL"), std::string::npos);
    EXPECT_EQ(cc_hull_build(box.data(), -1, 16, "hull_test", &h), CC_ERR_INVALID_ARGUMENT);
    EXPECT_TRUE(is_zeroed(h));
}

TEST(ConvexHullBuild, SuccessClearsTheLastError)
{
    std::vector<cc_vec3> box = box_corners(v3(1, 1, 1));
    cc_hull_data h;
    std::memset(&h, 0, sizeof h);
    EXPECT_NE(cc_hull_build(box.data(), 3, 16, "hull_test", &h), CC_OK);
    ASSERT_EQ(cc_hull_build(box.data(), 8, 16, "hull_test", &h), CC_OK);
    EXPECT_STREQ(cc_last_error_message(), "");
    cc_hull_data_free(&h);
}

} // namespace
