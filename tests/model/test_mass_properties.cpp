// Mass properties of uniform solids (host/model/mass_properties.h): every
// primitive against its textbook closed form and against an independent
// slice integration (solids of revolution); convex hulls (a box's corners
// equal the box, sampled spheres and cones converge to the solid); closed
// triangle meshes (a box, scaled and mirrored; inside out is rejected);
// moving a solid to a parent frame (R I R^T, centre R c + p); sums by the
// parallel-axis theorem (two half boxes make the box, a zero mass changes
// nothing); and the inverse of an inertia tensor.
//
// Sizes are exact in float (the API takes float sizes). Tolerances: 1e-12
// relative where the answer is exact in double (closed forms, box hulls and
// meshes whose float vertices are exact); 1e-6 where float vertices are
// rounded (rotated points); convergence bounds for sampled curved solids.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <utility>
#include <vector>

#include "tests/support/owned_hull.h"
#include "host/model/mass_properties.h"

namespace {

constexpr double kPi = 3.14159265358979323846;
constexpr double kExact = 1e-12;

cc_vec3 v3(double x, double y, double z)
{
    cc_vec3 v;
    v.x = (float)x;
    v.y = (float)y;
    v.z = (float)z;
    return v;
}

cc_quat quat_axis_angle(double ax, double ay, double az, double angle)
{
    double n = std::sqrt(ax * ax + ay * ay + az * az);
    double s = std::sin(angle / 2) / n;
    cc_quat q;
    q.x = (float)(ax * s);
    q.y = (float)(ay * s);
    q.z = (float)(az * s);
    q.w = (float)std::cos(angle / 2);
    return q;
}

cc_transform pose(cc_vec3 p, cc_quat q)
{
    cc_transform t;
    t.p = p;
    t.q = q;
    return t;
}

cc_quat quat_identity()
{
    cc_quat q;
    q.x = q.y = q.z = 0.0f;
    q.w = 1.0f;
    return q;
}

// Rotation matrix of the (float) quaternion, normalized in double, built by
// rotating the basis vectors with v' = v + 2w (u x v) + 2 u x (u x v):
// a different route from the library's matrix formula.
void rotation_of(cc_quat qf, double r[3][3])
{
    double n = std::sqrt((double)qf.x * qf.x + (double)qf.y * qf.y + (double)qf.z * qf.z + (double)qf.w * qf.w);
    double u[3] = {qf.x / n, qf.y / n, qf.z / n}, w = qf.w / n;
    for (int col = 0; col < 3; ++col) {
        double v[3] = {0, 0, 0};
        v[col] = 1;
        double t[3] = {2 * (u[1] * v[2] - u[2] * v[1]), 2 * (u[2] * v[0] - u[0] * v[2]), 2 * (u[0] * v[1] - u[1] * v[0])};
        double ut[3] = {u[1] * t[2] - u[2] * t[1], u[2] * t[0] - u[0] * t[2], u[0] * t[1] - u[1] * t[0]};
        for (int i = 0; i < 3; ++i) r[i][col] = v[i] + w * t[i] + ut[i];
    }
}

cc_solid_mass diagonal_solid(double mass, double cx, double cy, double cz, double ixx, double iyy, double izz)
{
    cc_solid_mass s;
    std::memset(&s, 0, sizeof s);
    s.mass = mass;
    s.center[0] = cx;
    s.center[1] = cy;
    s.center[2] = cz;
    s.inertia[0][0] = ixx;
    s.inertia[1][1] = iyy;
    s.inertia[2][2] = izz;
    return s;
}

// Textbook box of half extents (a, b, c) centred at (cx, cy, cz).
cc_solid_mass box_solid(double density, double a, double b, double c, double cx = 0, double cy = 0, double cz = 0)
{
    double m = density * 8 * a * b * c;
    return diagonal_solid(m, cx, cy, cz, m * (b * b + c * c) / 3, m * (a * a + c * c) / 3, m * (a * a + b * b) / 3);
}

double max_abs_inertia(const cc_solid_mass& s)
{
    double m = 0;
    for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j) m = std::max(m, std::fabs(s.inertia[i][j]));
    return m;
}

// Mass relative to the expected mass; centre relative to `length` (a size
// of the solid); inertia entries relative to the largest expected entry.
void expect_solid_near(const cc_solid_mass& got, const cc_solid_mass& want, double tol, double length)
{
    EXPECT_NEAR(got.mass, want.mass, tol * std::fabs(want.mass));
    for (int i = 0; i < 3; ++i) EXPECT_NEAR(got.center[i], want.center[i], tol * length) << "center[" << i << "]";
    double scale = max_abs_inertia(want);
    for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j)
            EXPECT_NEAR(got.inertia[i][j], want.inertia[i][j], tol * scale) << "inertia[" << i << "][" << j << "]";
}

void expect_zero_solid(const cc_solid_mass& s)
{
    EXPECT_EQ(s.mass, 0.0);
    for (int i = 0; i < 3; ++i) {
        EXPECT_EQ(s.center[i], 0.0);
        for (int j = 0; j < 3; ++j) EXPECT_EQ(s.inertia[i][j], 0.0);
    }
}

void expect_identical(const cc_solid_mass& a, const cc_solid_mass& b)
{
    EXPECT_EQ(a.mass, b.mass);
    for (int i = 0; i < 3; ++i) {
        EXPECT_EQ(a.center[i], b.center[i]);
        for (int j = 0; j < 3; ++j) EXPECT_EQ(a.inertia[i][j], b.inertia[i][j]);
    }
}

cc_solid_mass shape_mass(int type, cc_vec3 size, double density)
{
    cc_solid_mass s;
    EXPECT_EQ(cc_shape_solid_mass(type, size, density, nullptr, nullptr, &s), 1);
    return s;
}

// --- Independent check for solids of revolution about z --------------------
// The solid is a stack of disks of squared radius R2(z), a polynomial of
// degree <= 2 on each piece, so every integrand below is a polynomial of
// degree <= 4 and 5-point Gauss-Legendre is exact on each piece.
struct Piece {
    double z0, z1;
    double c0, c1, c2; // R2(z) = c0 + c1 z + c2 z^2
};

cc_solid_mass revolution_solid(const std::vector<Piece>& pieces, double density)
{
    static const double node[5] = {0.0, -0.5384693101056831, 0.5384693101056831, -0.9061798459386640,
                                   0.9061798459386640};
    static const double weight[5] = {0.5688888888888889, 0.4786286704993665, 0.4786286704993665,
                                     0.2369268850561891, 0.2369268850561891};
    double m = 0, mz = 0, izz = 0, ixx_origin = 0;
    for (const Piece& p : pieces) {
        double half = (p.z1 - p.z0) / 2, mid = (p.z0 + p.z1) / 2;
        for (int k = 0; k < 5; ++k) {
            double z = mid + half * node[k];
            double r2 = p.c0 + p.c1 * z + p.c2 * z * z;
            double dm = density * kPi * r2 * half * weight[k]; // disk of thickness dz
            m += dm;
            mz += dm * z;
            izz += dm * r2 / 2;
            ixx_origin += dm * (r2 / 4 + z * z);
        }
    }
    double zc = mz / m;
    return diagonal_solid(m, 0, 0, zc, ixx_origin - m * zc * zc, ixx_origin - m * zc * zc, izz);
}

// --- Primitives ---------------------------------------------------------------

TEST(MassPropertiesPrimitives, Sphere)
{
    const double r = 0.75, rho = 1200;
    cc_solid_mass s = shape_mass(CC_SHAPE_SPHERE, v3(r, 0, 0), rho);
    double m = rho * 4.0 / 3.0 * kPi * r * r * r;
    expect_solid_near(s, diagonal_solid(m, 0, 0, 0, 0.4 * m * r * r, 0.4 * m * r * r, 0.4 * m * r * r), kExact, r);
    expect_solid_near(s, revolution_solid({{-r, r, r * r, 0, -1}}, rho), kExact, r);
}

TEST(MassPropertiesPrimitives, CapsuleKnownValues)
{
    // r = 1, half segment 1, density 1: cylinder 2 pi, two hemispheres 4 pi / 3;
    // Ixx = 2 pi (1/4 + 1/3) + 4 pi / 3 (2/5 + 1 + 3/4) = 121 pi / 30,
    // Izz = pi + 2/5 (4 pi / 3) = 23 pi / 15.
    cc_solid_mass s = shape_mass(CC_SHAPE_CAPSULE, v3(1, 1, 0), 1);
    expect_solid_near(s, diagonal_solid(10 * kPi / 3, 0, 0, 0, 121 * kPi / 30, 121 * kPi / 30, 23 * kPi / 15), kExact, 1);
}

TEST(MassPropertiesPrimitives, CapsuleAgainstSliceIntegration)
{
    const double r = 0.375, h = 0.8125, rho = 950;
    cc_solid_mass s = shape_mass(CC_SHAPE_CAPSULE, v3(r, h, 0), rho);
    // Lower cap: R2 = r^2 - (z + h)^2, upper cap: r^2 - (z - h)^2.
    cc_solid_mass ref = revolution_solid({{-h - r, -h, r * r - h * h, -2 * h, -1},
                                          {-h, h, r * r, 0, 0},
                                          {h, h + r, r * r - h * h, 2 * h, -1}},
                                         rho);
    expect_solid_near(s, ref, kExact, r + h);
    // A capsule with a zero half height is a sphere.
    expect_solid_near(shape_mass(CC_SHAPE_CAPSULE, v3(r, 0, 0), rho), shape_mass(CC_SHAPE_SPHERE, v3(r, 0, 0), rho),
                      kExact, r);
}

TEST(MassPropertiesPrimitives, Box)
{
    // Half extents (0.5, 1.5, 2), density 3: m = 36, I = m (b^2 + c^2) / 3 ... = (75, 51, 30).
    cc_solid_mass s = shape_mass(CC_SHAPE_BOX, v3(0.5, 1.5, 2.0), 3);
    expect_solid_near(s, diagonal_solid(36, 0, 0, 0, 75, 51, 30), kExact, 2);
}

TEST(MassPropertiesPrimitives, Cylinder)
{
    const double r = 0.25, h = 1.125, rho = 7800;
    cc_solid_mass s = shape_mass(CC_SHAPE_CYLINDER, v3(r, h, 0), rho);
    double m = rho * kPi * r * r * 2 * h, len = 2 * h;
    double ixx = m * (3 * r * r + len * len) / 12;
    expect_solid_near(s, diagonal_solid(m, 0, 0, 0, ixx, ixx, m * r * r / 2), kExact, h);
    expect_solid_near(s, revolution_solid({{-h, h, r * r, 0, 0}}, rho), kExact, h);
}

TEST(MassPropertiesPrimitives, ConeCentroidBelowTheMiddle)
{
    // Base of radius r at z = -h, apex at +h: height H = 2h, centroid H/4
    // above the base, i.e. at z = -h/2.
    const double r = 0.625, h = 0.875, rho = 500;
    cc_solid_mass s = shape_mass(CC_SHAPE_CONE, v3(r, h, 0), rho);
    double H = 2 * h, m = rho * kPi * r * r * H / 3;
    double ixx = 3.0 / 20.0 * m * r * r + 3.0 / 80.0 * m * H * H;
    expect_solid_near(s, diagonal_solid(m, 0, 0, -h / 2, ixx, ixx, 3.0 / 10.0 * m * r * r), kExact, h);
    EXPECT_LT(s.center[2], 0.0);
    // R(z) = r (h - z) / (2h): R2 = r^2 / (4h^2) (h^2 - 2hz + z^2).
    double k = r * r / (4 * h * h);
    expect_solid_near(s, revolution_solid({{-h, h, k * h * h, -2 * k * h, k}}, rho), kExact, h);
}

TEST(MassPropertiesPrimitives, Ellipsoid)
{
    const double a = 0.5, b = 1.25, c = 2.0, rho = 2.5;
    cc_solid_mass s = shape_mass(CC_SHAPE_ELLIPSOID, v3(a, b, c), rho);
    double m = rho * 4.0 / 3.0 * kPi * a * b * c;
    expect_solid_near(s, diagonal_solid(m, 0, 0, 0, m * (b * b + c * c) / 5, m * (a * a + c * c) / 5, m * (a * a + b * b) / 5),
                      kExact, c);
    // Equal semi-axes: a sphere.
    expect_solid_near(shape_mass(CC_SHAPE_ELLIPSOID, v3(b, b, b), rho), shape_mass(CC_SHAPE_SPHERE, v3(b, 0, 0), rho), kExact, b);
}

TEST(MassPropertiesPrimitives, ZeroDensityGivesZeroMass)
{
    cc_solid_mass s = shape_mass(CC_SHAPE_BOX, v3(1, 2, 3), 0);
    expect_zero_solid(s);
}

TEST(MassPropertiesPrimitives, NoVolumeAndRejectedInput)
{
    cc_solid_mass s;
    std::memset(&s, 0xff, sizeof s);
    EXPECT_EQ(cc_shape_solid_mass(CC_SHAPE_PLANE, v3(0, 0, 0), 1000, nullptr, nullptr, &s), 0);
    expect_zero_solid(s);
    std::memset(&s, 0xff, sizeof s);
    EXPECT_EQ(cc_shape_solid_mass(CC_SHAPE_HEIGHTFIELD, v3(1, 1, 1), 1000, nullptr, nullptr, &s), 0);
    expect_zero_solid(s);

    struct Bad {
        int type;
        cc_vec3 size;
        double density;
    } bad[] = {
        {CC_SHAPE_SPHERE, v3(0, 0, 0), 1},        {CC_SHAPE_BOX, v3(1, -1, 1), 1},
        {CC_SHAPE_CAPSULE, v3(1, -0.5, 0), 1},    {CC_SHAPE_CONE, v3(1, 0, 0), 1},
        {CC_SHAPE_BOX, v3(1, 1, 1), -1},          {CC_SHAPE_BOX, v3(1, 1, 1), NAN},
        {CC_SHAPE_SPHERE, v3(INFINITY, 0, 0), 1}, {CC_SHAPE_SDF, v3(1, 1, 1), 1},
        {CC_SHAPE_CONVEX_HULL, v3(1, 1, 1), 1},   {CC_SHAPE_MESH, v3(1, 1, 1), 1},
        {-1, v3(1, 1, 1), 1},                     {CC_SHAPE_TYPE_COUNT, v3(1, 1, 1), 1},
    };
    for (const Bad& b : bad) {
        std::memset(&s, 0xff, sizeof s);
        EXPECT_EQ(cc_shape_solid_mass(b.type, b.size, b.density, nullptr, nullptr, &s), -1) << "type " << b.type;
        expect_zero_solid(s);
    }
    EXPECT_EQ(cc_shape_solid_mass(CC_SHAPE_BOX, v3(1, 1, 1), 1, nullptr, nullptr, nullptr), -1);
}

// --- Convex hulls ---------------------------------------------------------------

using Hull = OwnedHull;

std::vector<cc_vec3> box_corners(double a, double b, double c, double cx, double cy, double cz)
{
    std::vector<cc_vec3> p;
    for (int i = 0; i < 8; ++i)
        p.push_back(v3(cx + ((i & 1) ? a : -a), cy + ((i & 2) ? b : -b), cz + ((i & 4) ? c : -c)));
    return p;
}

cc_solid_mass hull_mass(const cc_hull_data& h, cc_vec3 size, double density)
{
    cc_solid_mass s;
    EXPECT_EQ(cc_shape_solid_mass(CC_SHAPE_CONVEX_HULL, size, density, &h, nullptr, &s), 1);
    return s;
}

TEST(MassPropertiesHull, BoxCornersGiveTheBox)
{
    // Off-centre corners (exact in float), so the centroid is tested too.
    std::vector<cc_vec3> p = box_corners(0.5, 1.5, 2.0, 1.0, -2.0, 0.5);
    Hull hull;
    ASSERT_EQ(cc_hull_build(p.data(), (int)p.size(), 64, "test", &hull.h), CC_OK);
    expect_solid_near(hull_mass(hull.h, v3(1, 1, 1), 3), box_solid(3, 0.5, 1.5, 2.0, 1.0, -2.0, 0.5), kExact, 2);
    // Scaled per axis: the box of scaled half extents about the scaled centre.
    expect_solid_near(hull_mass(hull.h, v3(2, 0.5, 3), 3), box_solid(3, 1.0, 0.75, 6.0, 2.0, -1.0, 1.5), kExact, 6);
}

TEST(MassPropertiesHull, RotatedBoxCornersGiveTheRotatedBox)
{
    cc_quat q = quat_axis_angle(1, 2, 3, 0.7);
    double r[3][3];
    rotation_of(q, r);
    std::vector<cc_vec3> p;
    for (const cc_vec3& c : box_corners(0.5, 1.5, 2.0, 0, 0, 0)) {
        double x = c.x, y = c.y, z = c.z;
        p.push_back(v3(r[0][0] * x + r[0][1] * y + r[0][2] * z + 0.25, r[1][0] * x + r[1][1] * y + r[1][2] * z - 1,
                       r[2][0] * x + r[2][1] * y + r[2][2] * z + 2));
    }
    Hull hull;
    ASSERT_EQ(cc_hull_build(p.data(), (int)p.size(), 64, "test", &hull.h), CC_OK);
    cc_solid_mass box = box_solid(3, 0.5, 1.5, 2.0);
    cc_solid_mass want = cc_solid_mass_transform(&box, pose(v3(0.25, -1, 2), q));
    // Corners rounded to float: 1e-6 relative.
    expect_solid_near(hull_mass(hull.h, v3(1, 1, 1), 3), want, 1e-6, 2);
}

// Fibonacci points on a sphere of radius r.
std::vector<cc_vec3> sphere_points(int n, double r)
{
    std::vector<cc_vec3> p;
    const double golden = kPi * (3 - std::sqrt(5.0));
    for (int i = 0; i < n; ++i) {
        double z = 1 - (2 * i + 1.0) / n, s = std::sqrt(1 - z * z), t = golden * i;
        p.push_back(v3(r * s * std::cos(t), r * s * std::sin(t), r * z));
    }
    return p;
}

TEST(MassPropertiesHull, SampledSphereConverges)
{
    const double r = 0.8, rho = 1000;
    cc_solid_mass sphere = shape_mass(CC_SHAPE_SPHERE, v3(r, 0, 0), rho);
    double prev_mass_err = 1e300, prev_inertia_err = 1e300;
    for (int n : {32, 128, 512, 2048}) {
        Hull hull;
        std::vector<cc_vec3> p = sphere_points(n, r);
        ASSERT_EQ(cc_hull_build(p.data(), n, CC_HULL_VERTEX_LIMIT, "test", &hull.h), CC_OK);
        cc_solid_mass s = hull_mass(hull.h, v3(1, 1, 1), rho);
        double mass_err = std::fabs(s.mass - sphere.mass) / sphere.mass;
        double inertia_err = 0;
        for (int i = 0; i < 3; ++i)
            for (int j = 0; j < 3; ++j)
                inertia_err = std::max(inertia_err, std::fabs(s.inertia[i][j] - sphere.inertia[i][j]) / sphere.inertia[0][0]);
        // Inscribed: smaller than the sphere.
        EXPECT_LT(s.mass, sphere.mass) << n;
        EXPECT_LT(mass_err, prev_mass_err) << n;
        EXPECT_LT(inertia_err, prev_inertia_err) << n;
        for (int i = 0; i < 3; ++i) EXPECT_NEAR(s.center[i], 0.0, 0.05 * r) << n;
        prev_mass_err = mass_err;
        prev_inertia_err = inertia_err;
    }
    EXPECT_LT(prev_mass_err, 0.01);
    EXPECT_LT(prev_inertia_err, 0.01);
}

TEST(MassPropertiesHull, PyramidOnRegularPolygonApproachesTheCone)
{
    // Apex at +h, a regular n-gon inscribed in the base circle at -h: a
    // pyramid, whose volume is area * H / 3 and whose centroid is H/4
    // above the base for any n (z = -h/2, like the cone).
    const double r = 0.6, h = 0.9, rho = 500;
    cc_solid_mass cone = shape_mass(CC_SHAPE_CONE, v3(r, h, 0), rho);
    for (int n : {16, 256}) {
        std::vector<cc_vec3> p;
        p.push_back(v3(0, 0, h));
        for (int i = 0; i < n; ++i) p.push_back(v3(r * std::cos(2 * kPi * i / n), r * std::sin(2 * kPi * i / n), -h));
        Hull hull;
        ASSERT_EQ(cc_hull_build(p.data(), (int)p.size(), CC_HULL_VERTEX_LIMIT, "test", &hull.h), CC_OK);
        cc_solid_mass s = hull_mass(hull.h, v3(1, 1, 1), rho);
        double area = n / 2.0 * r * r * std::sin(2 * kPi / n);
        EXPECT_NEAR(s.mass, rho * area * 2 * h / 3, 1e-6 * s.mass) << n;
        EXPECT_NEAR(s.center[2], (double)(float)(-h / 2), 1e-6 * h) << n;
        if (n == 256) {
            expect_solid_near(s, cone, 1e-3, h);
        }
    }
}

// --- Meshes -----------------------------------------------------------------------

// Owns a cc_mesh_data built from vertex and triangle arrays.
struct Mesh {
    std::vector<cc_vec3> vertices;
    std::vector<int> triangles;
    cc_mesh_data m;
    Mesh(std::vector<cc_vec3> v, std::vector<int> t) : vertices(std::move(v)), triangles(std::move(t))
    {
        std::memset(&m, 0, sizeof m);
        m.vertices = vertices.data();
        m.vertex_count = (int)vertices.size();
        m.triangles = triangles.data();
        m.triangle_count = (int)triangles.size() / 3;
        m.lower = m.upper = vertices.empty() ? v3(0, 0, 0) : vertices[0];
        for (const cc_vec3& p : vertices) {
            m.lower = v3(std::min(m.lower.x, p.x), std::min(m.lower.y, p.y), std::min(m.lower.z, p.z));
            m.upper = v3(std::max(m.upper.x, p.x), std::max(m.upper.y, p.y), std::max(m.upper.z, p.z));
        }
    }
};

// Box corners indexed by bits (x, y, z) and 12 triangles counter-clockwise
// seen from outside (two per face).
Mesh box_mesh(double a, double b, double c, double cx, double cy, double cz, bool inside_out = false)
{
    static const int quads[6][4] = {{1, 3, 7, 5}, {0, 4, 6, 2}, {2, 6, 7, 3}, {0, 1, 5, 4}, {4, 5, 7, 6}, {0, 2, 3, 1}};
    std::vector<int> tris;
    for (const auto& q : quads) {
        int t[6] = {q[0], q[1], q[2], q[0], q[2], q[3]};
        if (inside_out) {
            std::swap(t[1], t[2]);
            std::swap(t[4], t[5]);
        }
        tris.insert(tris.end(), t, t + 6);
    }
    return Mesh(box_corners(a, b, c, cx, cy, cz), tris);
}

cc_solid_mass mesh_mass(const cc_mesh_data& m, cc_vec3 size, double density, int expect = 1)
{
    cc_solid_mass s;
    EXPECT_EQ(cc_shape_solid_mass(CC_SHAPE_MESH, size, density, nullptr, &m, &s), expect);
    return s;
}

TEST(MassPropertiesMesh, ClosedBoxGivesTheBox)
{
    Mesh mesh = box_mesh(0.5, 1.5, 2.0, 1.0, -2.0, 0.5);
    expect_solid_near(mesh_mass(mesh.m, v3(1, 1, 1), 3), box_solid(3, 0.5, 1.5, 2.0, 1.0, -2.0, 0.5), kExact, 2);
}

TEST(MassPropertiesMesh, NonUniformScale)
{
    Mesh mesh = box_mesh(0.5, 1.5, 2.0, 1.0, -2.0, 0.5);
    expect_solid_near(mesh_mass(mesh.m, v3(2, 0.5, 3), 3), box_solid(3, 1.0, 0.75, 6.0, 2.0, -1.0, 1.5), kExact, 6);
    // A mirroring scale flips the orientation; the volume stays positive.
    expect_solid_near(mesh_mass(mesh.m, v3(-1, 1, 1), 3), box_solid(3, 0.5, 1.5, 2.0, -1.0, -2.0, 0.5), kExact, 2);
}

TEST(MassPropertiesMesh, TetrahedronMatchesTheHull)
{
    // A general tetrahedron: mesh and hull agree, and the centroid is the
    // mean of the corners.
    std::vector<cc_vec3> v = {v3(0.1, 0.2, 0.3), v3(1.5, 0.25, -0.5), v3(0.25, 2.0, 0.75), v3(0.5, 0.5, 1.75)};
    Mesh mesh(v, {0, 2, 1, 0, 1, 3, 0, 3, 2, 1, 2, 3});
    cc_solid_mass sm = mesh_mass(mesh.m, v3(1, 1, 1), 2);
    Hull hull;
    ASSERT_EQ(cc_hull_build(v.data(), 4, 16, "test", &hull.h), CC_OK);
    expect_solid_near(sm, hull_mass(hull.h, v3(1, 1, 1), 2), kExact, 2);
    for (int i = 0; i < 3; ++i) {
        double mean = 0;
        for (const cc_vec3& p : v) mean += (i == 0 ? p.x : i == 1 ? p.y : p.z) / 4.0;
        EXPECT_NEAR(sm.center[i], mean, kExact);
    }
}

TEST(MassPropertiesMesh, InsideOutIsRejected)
{
    Mesh mesh = box_mesh(0.5, 1.5, 2.0, 1.0, -2.0, 0.5, true);
    cc_solid_mass s = mesh_mass(mesh.m, v3(1, 1, 1), 3, -1);
    expect_zero_solid(s);
    // An index out of range and an empty mesh are rejected too.
    Mesh bad = box_mesh(0.5, 1.5, 2.0, 0, 0, 0);
    bad.triangles[5] = 8;
    expect_zero_solid(mesh_mass(bad.m, v3(1, 1, 1), 3, -1));
    Mesh empty({}, {});
    expect_zero_solid(mesh_mass(empty.m, v3(1, 1, 1), 3, -1));
}

// --- Transform and sum ---------------------------------------------------------------

TEST(MassPropertiesTransform, RotationGivesRIRt)
{
    cc_solid_mass box = box_solid(3, 0.5, 1.5, 2.0);
    cc_quat q = quat_axis_angle(1, 2, 3, 0.7);
    // Scale the quaternion off unit length: it is normalized.
    q.x *= 1.5f;
    q.y *= 1.5f;
    q.z *= 1.5f;
    q.w *= 1.5f;
    double r[3][3];
    rotation_of(q, r);
    cc_solid_mass s = cc_solid_mass_transform(&box, pose(v3(0, 0, 0), q));
    cc_solid_mass want = box;
    for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j) {
            double sum = 0;
            for (int k = 0; k < 3; ++k) sum += r[i][k] * box.inertia[k][k] * r[j][k];
            want.inertia[i][j] = sum;
        }
    expect_solid_near(s, want, kExact, 2);
    for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j) EXPECT_EQ(s.inertia[i][j], s.inertia[j][i]);
    EXPECT_NEAR(s.inertia[0][0] + s.inertia[1][1] + s.inertia[2][2], 75 + 51 + 30, kExact * 156);
}

TEST(MassPropertiesTransform, CentreIsRotatedThenTranslated)
{
    // The cone's centre (0, 0, -h/2), rotated 90 degrees about x, lands at
    // (0, h/2, 0); then translated by p.
    const double h = 0.9;
    cc_solid_mass cone = shape_mass(CC_SHAPE_CONE, v3(0.6, h, 0), 500);
    cc_solid_mass s = cc_solid_mass_transform(&cone, pose(v3(1, 2, 3), quat_axis_angle(1, 0, 0, kPi / 2)));
    EXPECT_NEAR(s.center[0], 1.0, kExact);
    EXPECT_NEAR(s.center[1], 2.0 + (double)(float)h / 2, kExact);
    EXPECT_NEAR(s.center[2], 3.0, kExact);
    // The axis is now y: Iyy is the axial moment.
    expect_solid_near(s, diagonal_solid(cone.mass, s.center[0], s.center[1], s.center[2], cone.inertia[0][0],
                                        cone.inertia[2][2], cone.inertia[0][0]),
                      kExact, h);
}

TEST(MassPropertiesTransform, TranslationAndParallelAxis)
{
    cc_solid_mass box = box_solid(3, 0.5, 1.5, 2.0);
    const double p[3] = {0.25, -0.5, 1.25}; // exact in float
    cc_solid_mass moved = cc_solid_mass_transform(&box, pose(v3(p[0], p[1], p[2]), quat_identity()));
    // A translation moves the centre; the inertia about the centre is unchanged.
    cc_solid_mass want = box;
    for (int i = 0; i < 3; ++i) want.center[i] = p[i];
    expect_identical(moved, want);
    // Two copies at +p and -p: centre 0, inertia 2 I + 2 m (|p|^2 E - p p^T).
    cc_solid_mass other = cc_solid_mass_transform(&box, pose(v3(-p[0], -p[1], -p[2]), quat_identity()));
    cc_solid_mass sum = cc_solid_mass_add(&moved, &other);
    double pp = p[0] * p[0] + p[1] * p[1] + p[2] * p[2];
    cc_solid_mass expect2 = box;
    expect2.mass = 2 * box.mass;
    for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j)
            expect2.inertia[i][j] = 2 * box.inertia[i][j] + 2 * box.mass * ((i == j ? pp : 0) - p[i] * p[j]);
    expect_solid_near(sum, expect2, kExact, 2);
}

TEST(MassPropertiesSum, TwoHalfBoxesMakeTheBox)
{
    const double a = 0.5, b = 1.5, c = 2.0, rho = 3;
    cc_solid_mass half = box_solid(rho, a / 2, b, c);
    cc_solid_mass left = cc_solid_mass_transform(&half, pose(v3(-a / 2, 0, 0), quat_identity()));
    cc_solid_mass right = cc_solid_mass_transform(&half, pose(v3(a / 2, 0, 0), quat_identity()));
    cc_solid_mass whole = box_solid(rho, a, b, c);
    expect_solid_near(cc_solid_mass_add(&left, &right), whole, kExact, c);
    // The same with the halves split along z, built from shapes, and the
    // whole body placed in a rotated, translated parent frame.
    cc_solid_mass lower = shape_mass(CC_SHAPE_BOX, v3(a, b, c / 2), rho);
    cc_solid_mass upper = lower;
    lower = cc_solid_mass_transform(&lower, pose(v3(0, 0, -c / 2), quat_identity()));
    upper = cc_solid_mass_transform(&upper, pose(v3(0, 0, c / 2), quat_identity()));
    cc_transform parent = pose(v3(0.3, -0.7, 1.9), quat_axis_angle(-2, 1, 0.5, 1.2));
    lower = cc_solid_mass_transform(&lower, parent);
    upper = cc_solid_mass_transform(&upper, parent);
    expect_solid_near(cc_solid_mass_add(&lower, &upper), cc_solid_mass_transform(&whole, parent), kExact, c);
}

TEST(MassPropertiesSum, ZeroMassChangesNothing)
{
    const cc_solid_mass local = box_solid(3, 0.5, 1.5, 2.0);
    cc_solid_mass box = cc_solid_mass_transform(&local, pose(v3(0.3, -0.7, 1.9), quat_axis_angle(1, 1, 0, 0.4)));
    cc_solid_mass plane;
    ASSERT_EQ(cc_shape_solid_mass(CC_SHAPE_PLANE, v3(0, 0, 0), 1000, nullptr, nullptr, &plane), 0);
    expect_identical(cc_solid_mass_add(&box, &plane), box);
    expect_identical(cc_solid_mass_add(&plane, &box), box);
    expect_zero_solid(cc_solid_mass_add(&plane, &plane));
}

// --- Inverse --------------------------------------------------------------------------

TEST(MassPropertiesInverse, InverseTimesInputIsIdentity)
{
    // A full symmetric positive-definite tensor: a rotated, off-centre body.
    const cc_solid_mass local = box_solid(3, 0.5, 1.5, 2.0);
    cc_solid_mass a = cc_solid_mass_transform(&local, pose(v3(0.5, 0, 0), quat_axis_angle(1, 2, 3, 0.7)));
    cc_solid_mass b = shape_mass(CC_SHAPE_CONE, v3(0.3, 0.4, 0), 800);
    cc_solid_mass body = cc_solid_mass_add(&a, &b);
    double inv[3][3];
    ASSERT_EQ(cc_inertia_inverse(body.inertia, inv), 1);
    for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j) {
            double p = 0, q = 0;
            for (int k = 0; k < 3; ++k) {
                p += inv[i][k] * body.inertia[k][j];
                q += body.inertia[i][k] * inv[k][j];
            }
            EXPECT_NEAR(p, i == j ? 1.0 : 0.0, kExact);
            EXPECT_NEAR(q, i == j ? 1.0 : 0.0, kExact);
        }
    // In place.
    double m[3][3];
    std::memcpy(m, body.inertia, sizeof m);
    ASSERT_EQ(cc_inertia_inverse(m, m), 1);
    for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j) EXPECT_EQ(m[i][j], inv[i][j]);
    // Tiny and thin bodies still invert: a 1 mm bead and a needle.
    cc_solid_mass bead = shape_mass(CC_SHAPE_SPHERE, v3(1e-3, 0, 0), 1000);
    EXPECT_EQ(cc_inertia_inverse(bead.inertia, inv), 1);
    EXPECT_NEAR(inv[0][0] * bead.inertia[0][0], 1.0, kExact);
    cc_solid_mass needle = shape_mass(CC_SHAPE_CAPSULE, v3(1e-3, 1, 0), 1000);
    EXPECT_EQ(cc_inertia_inverse(needle.inertia, inv), 1);
    EXPECT_NEAR(inv[2][2] * needle.inertia[2][2], 1.0, kExact);
}

TEST(MassPropertiesInverse, SingularOrInvalidReturnsZero)
{
    const double sentinel = 12345.0;
    auto check_rejected = [&](const double in[3][3]) {
        double out[3][3];
        for (auto& row : out)
            for (double& x : row) x = sentinel;
        EXPECT_EQ(cc_inertia_inverse(in, out), 0);
        for (auto& row : out)
            for (double x : row) EXPECT_EQ(x, sentinel);
    };
    const double zero[3][3] = {{0, 0, 0}, {0, 0, 0}, {0, 0, 0}};
    const double flat[3][3] = {{1, 0, 0}, {0, 2, 0}, {0, 0, 0}};
    // v v^T + w w^T: rank 2, not diagonal.
    const double v[3] = {1, 2, 3}, w[3] = {-1, 0.5, 2};
    double rank2[3][3];
    for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j) rank2[i][j] = v[i] * v[j] + w[i] * w[j];
    const double indefinite[3][3] = {{-1, 0, 0}, {0, -1, 0}, {0, 0, 1}};
    const double with_nan[3][3] = {{1, 0, 0}, {0, NAN, 0}, {0, 0, 1}};
    const double with_inf[3][3] = {{INFINITY, 0, 0}, {0, 1, 0}, {0, 0, 1}};
    check_rejected(zero);
    check_rejected(flat);
    check_rejected(rank2);
    check_rejected(indefinite);
    check_rejected(with_nan);
    check_rejected(with_inf);
}

} // namespace
