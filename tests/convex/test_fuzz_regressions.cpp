// Pairs that fuzzing found wrong once, scored by the fuzz harness's
// independent checks (tests/support/fuzz_pairs.h) and, where the answer has
// a closed form, against it: a small sphere inside a long thin rotated
// cone, a tiny ellipsoid touching a huge flat hull, a cone touching a small
// tetrahedron, two nearly parallel touching cylinders, a large capsule
// against a tiny box (at most two contacts), and long nearly parallel
// capsules (no tilted normal, the same answer in either order), small
// shapes at a cone's centre (the best of the side normals around the axis),
// a tilted cylinder on a large box (its exact deepest rim point), caps
// overlapping in a lens thinner than their polygons reach, small
// shapes beside long cones (GJK on sliver simplices), and contact points
// where the shapes touch: a sphere on a cylinder's cap beside the cap's
// inscribed polygon, a sphere on a hull's edge; a capsule through a thin
// hull, small shapes deep inside round many-faced hulls, cones touching
// hulls beside a face, long ellipsoids crossed at one centre, small shapes
// at the waist of a long ellipsoid, small shapes a little apart from long
// cones (GJK certifies the climb), shapes on a hull's roof so flat that its
// two faces tie in float, small hulls touching shapes a thousand times
// their size, polytopes a little into each other near a ridge of their
// difference (EPA finds the shallowest facet), deep overlaps whose search
// stops where EPA's bound certifies the answer, small hulls whose corner
// touches a long edge (the perpendicular, and the edge's point beside the
// corner), long capsules along a box face (its normal, untilted), small
// capsules deep inside long ellipsoids (Newton's method past the climb's
// stall), round shapes beside the middle of a long edge (the secant
// along its ridge), side lines lying flat on a round surface (the end
// that dips), cone apexes under a box face beside its edge, and small
// boxes at a large box's rim (the route that realises the distance, not
// a face within the large pair's tolerance), round rims apart from a
// long box edge (the edge's point opposite the rim's, not its end), cone
// apexes just past a round rim (the cone's side, a little way round), a
// small cone deep in a large one along its axis (a unit normal), small
// boxes and hulls deep in cylinders and cones (the best edge of their
// outline across the side), and cones and cylinders just touching hulls
// (no overlap found where they are apart within GJK's skin).
#include <gtest/gtest.h>

#include <cmath>

#include "kernels/math/quat.h"
#include "tests/support/fuzz_pairs.h"

using namespace ccfuzz;

namespace {

Shape shape(cc_shape_type type, cc_vec3 size, cc_vec3 p, cc_quat q, float margin = 0.0f, float gap = 0.0f)
{
    Shape s;
    s.type = type;
    s.size = size;
    s.pose = {p, q};
    s.margin = margin;
    s.gap = gap;
    return s;
}

cc_quat normalized(cc_quat q)
{
    double l = std::sqrt((double)q.x * q.x + (double)q.y * q.y + (double)q.z * q.z + (double)q.w * q.w);
    return {(float)(q.x / l), (float)(q.y / l), (float)(q.z / l), (float)(q.w / l)};
}

std::vector<cc_contact> contacts(const Pair& p, bool swap = false)
{
    std::string error;
    std::vector<std::vector<cc_contact>> c = collide_pairs({p}, swap, cc_device_cpu(), &error);
    EXPECT_TRUE(error.empty()) << error;
    return c.empty() ? std::vector<cc_contact>() : c[0];
}

// No finding of any check, in either order (but the witness check, when
// `witness` is false).
void expect_clean(const Pair& p, bool witness = true)
{
    std::vector<cc_contact> ab = contacts(p), ba = contacts(p, true);
    for (const Finding& f : score(p, ab))
        if (witness || f.check != kWitness)
            ADD_FAILURE() << check_name(f.check) << ": " << f.detail << " -- " << describe(p);
    for (const Finding& f : score(p, ba))
        if (witness || f.check != kWitness) ADD_FAILURE() << check_name(f.check) << " (swapped): " << f.detail;
    if (p.a.type == p.b.type) {
        for (const Finding& f : score_swap(p, ab, ba)) ADD_FAILURE() << "swap: " << f.detail;
    }
}

// Every check but one passes, in either order: for classes whose findings
// of that check are bounded rather than absent. Returns whether that check
// failed, and raises *worst to its excess.
bool clean_but(const Pair& q, int check, double* worst)
{
    bool failed = false;
    for (int swap = 0; swap < 2; ++swap)
        for (const Finding& f : score(q, contacts(q, swap == 1))) {
            if (f.check == check) {
                failed = true;
                *worst = std::max(*worst, f.excess);
                continue;
            }
            ADD_FAILURE() << check_name(f.check) << ": " << f.detail << " -- " << describe(q);
        }
    return failed;
}

// B moved along the reference normal until the surfaces are `gap` apart.
void place_touching(Pair* p, double gap)
{
    for (int it = 0; it < 4; ++it) {
        Reference ref = reference(*p);
        double surface = ref.distance - core_radius(p->a) - core_radius(p->b) - p->a.margin - p->b.margin;
        V c = to_v(p->b.pose.p) + ref.normal * (gap - surface);
        p->b.pose.p = {(float)c.x, (float)c.y, (float)c.z};
    }
}

float min_distance(const std::vector<cc_contact>& cs)
{
    float d = INFINITY;
    for (const cc_contact& c : cs) d = std::min(d, c.distance);
    return d;
}

TEST(FuzzRegressions, SphereInsideALongRotatedConeKeepsItsDepth)
{
    // A sphere of radius 0.02 at the centre of a cone of base radius 0.07 and
    // half height 3: the centre lies 0.035 cos(atan(0.07 / 6)) from the side,
    // whatever the cone's rotation.
    for (cc_quat q : {cc_quat{0, 0, 0, 1}, normalized({0.405534592f, 0.783862346f, -0.436924603f, -0.173776893f})}) {
        Pair p;
        p.a = shape(CC_SHAPE_CONE, {0.07f, 3.0f, 0}, {0, 0, 0}, q);
        p.b = shape(CC_SHAPE_SPHERE, {0.02f, 0, 0}, {0, 0, 0}, {0, 0, 0, 1});
        p.pose_class = kCoincident;
        std::vector<cc_contact> c = contacts(p);
        ASSERT_EQ(c.size(), 1u);
        double side = 0.035 * std::cos(std::atan(0.07 / 6.0));
        EXPECT_NEAR(c[0].distance, -side - 0.02, 1e-6);
        expect_clean(p);
    }
}

TEST(FuzzRegressions, TinyEllipsoidTouchingAHugeFlatHull)
{
    const std::vector<cc_vec3> cuboctahedron = {{0, 1, 1},  {0, 1, -1}, {0, -1, 1},  {0, -1, -1}, {1, 0, 1},  {1, 0, -1},
                                                {-1, 0, 1}, {-1, 0, -1}, {1, 1, 0},  {1, -1, 0},  {-1, 1, 0}, {-1, -1, 0}};
    Random r(3);
    for (int k = 0; k < 20; ++k) {
        Pair p;
        p.a = shape(CC_SHAPE_CONVEX_HULL, {43.0f, 106.0f, 4533.0f}, {0, 0, 0}, r.rotation());
        p.a.hull = cuboctahedron;
        p.b = shape(CC_SHAPE_ELLIPSOID, {0.005f, 0.004f, 0.003f}, {0, 0, 0}, r.rotation());
        V d = r.direction() * 5000.0;
        p.b.pose.p = {(float)d.x, (float)d.y, (float)d.z};
        p.pose_class = kTouching;
        place_touching(&p, 0.0);
        std::vector<cc_contact> c = contacts(p);
        // Touching: a contact within float rounding of the coordinates.
        if (!c.empty()) {
            EXPECT_GT(min_distance(c), -0.01f);
        }
        expect_clean(p);
    }
}

TEST(FuzzRegressions, ConeTouchingASmallTetrahedron)
{
    Random r(4);
    for (int k = 0; k < 40; ++k) {
        Pair p;
        p.a = shape(CC_SHAPE_CONE, {(float)r.uniform(0.5, 2), (float)r.uniform(1, 4), 0}, {0, 0, 0}, r.rotation());
        p.b = shape(CC_SHAPE_CONVEX_HULL, {0.05f, 0.07f, 0.06f}, {0, 0, 0}, r.rotation());
        p.b.hull = {{1, 1, 1}, {1, -1, -1}, {-1, 1, -1}, {-1, -1, 1}};
        V d = r.direction() * 5.0;
        p.b.pose.p = {(float)d.x, (float)d.y, (float)d.z};
        p.a.gap = 1e-4f;
        p.pose_class = kTouching;
        place_touching(&p, 0.0);
        std::vector<cc_contact> c = contacts(p);
        ASSERT_FALSE(c.empty());
        // Touching, not the cone's height deep; the normal separates them
        // (expect_clean certifies it: at an apex against a corner many
        // normals do, not only the reference's).
        EXPECT_NEAR(min_distance(c), 0.0f, 1e-5f);
        expect_clean(p);
    }
}

TEST(FuzzRegressions, NearlyParallelTouchingCylinders)
{
    Pair p;
    p.a = shape(CC_SHAPE_CYLINDER, {2.71109772f, 2.38559651f, 0}, {0, 0, 0},
                normalized({0.210922775f, 0.436079378f, 0.681989066f, -0.547939115f}), 0.342250079f, 0.0945602432f);
    p.b = shape(CC_SHAPE_CYLINDER, {0.0270961132f, 0.00952380244f, 0}, {-2.5501519f, 0.0525591439f, -0.995754123f},
                normalized({0.210922538f, 0.436079798f, 0.681989011f, -0.54793894f}), 0.0f, 0.0012188527f);
    p.pose_class = kParallel;
    std::vector<cc_contact> c = contacts(p);
    ASSERT_FALSE(c.empty());
    // The reference's surface distance, about -2.6e-5 m.
    Reference ref = reference(p);
    double surface = ref.distance - p.a.margin - p.b.margin;
    EXPECT_NEAR(min_distance(c), surface, 2e-6);
    expect_clean(p);
}

TEST(FuzzRegressions, LargeCapsuleOnATinyBoxHasAtMostTwoContacts)
{
    Pair p;
    p.a = shape(CC_SHAPE_CAPSULE, {26.7949963f, 39.9988747f, 0}, {0, 0, 0},
                normalized({0.923971058f, -0.214266166f, 0.0283741858f, -0.315535099f}), 0.0f, 0.363514304f);
    p.b = shape(CC_SHAPE_BOX, {0.00581689738f, 0.00727073615f, 0.00127624685f}, {0, 0, 0},
                normalized({0.157536406f, 0.00965651708f, -0.986476447f, 0.0441956122f}), 0.0f, 0.000333249569f);
    p.pose_class = kCoincident;
    std::vector<cc_contact> c = contacts(p);
    EXPECT_LE(c.size(), 2u);
    expect_clean(p);
}

TEST(FuzzRegressions, LongNearlyParallelCapsulesKeepAnUntiltedNormal)
{
    Random r(5);
    for (int k = 0; k < 40; ++k) {
        Pair p;
        cc_quat q = r.rotation();
        p.a = shape(CC_SHAPE_CAPSULE, {0.05f, 2.0f, 0}, {0, 0, 0}, q);
        // B turned by 1e-5..1e-3 rad about a random axis, beside A.
        V axis = r.direction();
        double ang = r.log_uniform(1e-5, 1e-3), s = std::sin(0.5 * ang);
        cc_quat d = {(float)(axis.x * s), (float)(axis.y * s), (float)(axis.z * s), (float)std::cos(0.5 * ang)};
        p.b = shape(CC_SHAPE_CAPSULE, {0.05f, 1.5f, 0}, {0, 0, 0},
                    normalized({d.w * q.x + d.x * q.w + d.y * q.z - d.z * q.y, d.w * q.y - d.x * q.z + d.y * q.w + d.z * q.x,
                                d.w * q.z + d.x * q.y - d.y * q.x + d.z * q.w, d.w * q.w - d.x * q.x - d.y * q.y - d.z * q.z}));
        convref::Pose pa = pose_of(p.a);
        V side = convref::unit(convref::cross(pa.col[2], r.direction()));
        V c = side * 0.1 + pa.col[2] * r.uniform(-1, 1);
        p.b.pose.p = {(float)c.x, (float)c.y, (float)c.z};
        p.a.gap = p.b.gap = 0.01f;
        p.pose_class = kParallel;
        place_touching(&p, r.uniform(-0.01, 0.01));
        expect_clean(p);
    }
}

TEST(FuzzRegressions, SmallShapeAtAConeCentreFindsItsBestSide)
{
    // At the centre of a cone every side normal is an equal optimum for a
    // point; a small box or tetrahedron there breaks the tie into several
    // local optima around the axis, one per side it turns outward. The
    // deepest answer once came from the wrong one, 6 % of the small size
    // too deep. The pair as found, then random rotations of both.
    Pair found;
    found.a = shape(CC_SHAPE_BOX, {0.00233775261f, 0.00356644392f, 0.000693377922f}, {0, 0, 0},
                    {-0.125111818f, -0.526727378f, 0.822418153f, 0.174738839f});
    found.b = shape(CC_SHAPE_CONE, {5.60949087f, 6.08483791f, 0}, {0, 0, 0},
                    {0.783039272f, 0.24772577f, 0.544118702f, 0.171511576f}, 0.0f, 0.104277864f);
    found.pose_class = kCoincident;
    expect_clean(found);
    Random r(12);
    for (int k = 0; k < 60; ++k) {
        Pair p;
        float h = (float)r.uniform(0.5, 3);
        p.a = shape(CC_SHAPE_CONE, {(float)r.uniform(0.3, 2) * h, h, 0}, {0, 0, 0}, r.rotation());
        if (k % 2 == 0) {
            p.b = shape(CC_SHAPE_BOX, {(float)r.uniform(0.001, 0.01), (float)r.uniform(0.001, 0.01), (float)r.uniform(0.0005, 0.005)},
                        {0, 0, 0}, r.rotation());
        } else {
            p.b = shape(CC_SHAPE_CONVEX_HULL, {(float)r.uniform(0.001, 0.01), (float)r.uniform(0.001, 0.01), (float)r.uniform(0.001, 0.01)},
                        {0, 0, 0}, r.rotation());
            p.b.hull = {{1, 1, 1}, {1, -1, -1}, {-1, 1, -1}, {-1, -1, 1}};
        }
        V d = r.direction() * 0.01;
        p.b.pose.p = {(float)d.x, (float)d.y, (float)d.z};
        p.pose_class = kCoincident;
        ASSERT_FALSE(contacts(p).empty());
        expect_clean(p);
    }
}

TEST(FuzzRegressions, TiltedCylinderOnALargeBoxKeepsItsDeepestRimPoint)
{
    // The exact deepest rim point joins the manifold when it is deeper than
    // every corner of the cap's polygon; the margin it had to beat them by
    // once scaled with the pair's size, so on a large box the rim point
    // between two corners was left out and the contact came out up to
    // r (1 - cos 22.5 deg) sin(tilt) too shallow (a cap tilted by a degree
    // still clips as a face). Closed form: a cylinder of radius r and half
    // height h tilted by t from the face normal reaches h cos t + r sin t
    // below its centre, whatever the tilt's azimuth.
    const float r = 0.3f, h = 0.2f, tilt = 0.017453293f, sink = 0.05f;
    for (int k = 0; k < 24; ++k) {
        float azimuth = 6.2831853f * (float)k / 24.0f;
        // Tilt about the horizontal axis at `azimuth`.
        cc_quat q = {std::cos(azimuth) * std::sin(0.5f * tilt), std::sin(azimuth) * std::sin(0.5f * tilt), 0.0f,
                     std::cos(0.5f * tilt)};
        float reach = h * std::cos(tilt) + r * std::sin(tilt);
        Pair p;
        p.a = shape(CC_SHAPE_BOX, {100.0f, 80.0f, 1.0f}, {0, 0, 0}, {0, 0, 0, 1});
        p.b = shape(CC_SHAPE_CYLINDER, {r, h, 0}, {0.37f, -0.21f, 1.0f + reach - sink}, q);
        p.pose_class = kRandom;
        std::vector<cc_contact> c = contacts(p);
        ASSERT_FALSE(c.empty());
        EXPECT_NEAR(min_distance(c), -sink, 2e-5f) << "azimuth " << azimuth;
        expect_clean(p);
    }
}

TEST(FuzzRegressions, SmallShapesBesideLongConesGetTheirGap)
{
    // A small shape touching a cone metres long near its rim: GJK's simplex
    // becomes a sliver (the apex metres from the rim point, the origin
    // within millimetres of the triangle), and blending its vertices by the
    // region tests' weights left the nearest point off the triangle's plane:
    // GJK stalled with its bounds apart and the answer came out up to 12 %
    // of the gap short (box beside cone: 0.000470 against 0.000532).
    Pair found;
    found.a = shape(CC_SHAPE_BOX, {0.0870643035f, 0.0310534947f, 0.0078391768f}, {0.0151240844f, 0.124825306f, 0.285564065f},
                    {0.0297947656f, 0.384413302f, 0.66716671f, 0.63735956f}, 0.000531729776f, 0.000313203025f);
    found.b = shape(CC_SHAPE_CONE, {6.55064678f, 23.9330597f, 0}, {1.29168224f, 6.4352231f, -1.20141065f},
                    {0.516520858f, 0.533538342f, -0.477217972f, 0.469900042f}, 0.0f, 1.1934464f);
    found.pose_class = kTouching;
    expect_clean(found);
    // The class: boxes, capsules and hulls of 5 mm to 10 cm beside cones of
    // 10 to 50 m, a tenth of their size or less apart.
    Random r(20261204);
    const cc_shape_type small[] = {CC_SHAPE_BOX, CC_SHAPE_CAPSULE, CC_SHAPE_CONVEX_HULL, CC_SHAPE_CYLINDER};
    for (int i = 0; i < 120; ++i) {
        Pair p;
        double radius = r.log_uniform(1.0, 10.0), half = r.log_uniform(5.0, 25.0);
        p.b = shape(CC_SHAPE_CONE, {(float)radius, (float)half, 0}, {0, 0, 0}, r.rotation());
        p.a = random_shape(r, small[i % 4], r.log_uniform(0.005, 0.1));
        // Beside the rim, on the base's outer side of the cone.
        convref::Pose cone = pose_of(p.b);
        double azimuth = r.uniform(0.0, 6.2831853);
        V rim = convref::to_world(cone, convref::v3(radius * std::cos(azimuth), radius * std::sin(azimuth),
                                                    -half * r.uniform(0.7, 1.0)));
        V out = convref::to_world_dir(cone, convref::v3(std::cos(azimuth), std::sin(azimuth), 0.0));
        V c = rim + out * extent(p.a) * 2.0;
        p.a.pose.p = {(float)c.x, (float)c.y, (float)c.z};
        p.pose_class = kTouching;
        place_touching(&p, extent(p.a) * r.log_uniform(1e-4, 0.1));
        expect_clean(p);
    }
}

TEST(FuzzRegressions, SphereOverACylinderCapTouchesItUnderItsCentre)
{
    // A sphere resting on a large cylinder's cap beside the cap's inscribed
    // octagon (between its corners, where the disk reaches 8 % farther):
    // the cylinder's contact point was the octagon's nearest edge point,
    // up to 1.9 m from the touching point on a 25 m cap. Closed form: the
    // cap point under the sphere's centre.
    const float radius = 24.9329147f, half = 3.87215471f, ball = 0.00932606496f;
    for (int k = 0; k < 16; ++k) {
        float azimuth = 6.2831853f * ((float)k + 0.5f) / 16.0f, at = 0.96f * radius;
        Pair p;
        p.a = shape(CC_SHAPE_SPHERE, {ball, 0, 0}, {at * std::cos(azimuth), at * std::sin(azimuth), half + ball + 1e-4f},
                    {0, 0, 0, 1}, 0.0f, 1e-3f);
        p.b = shape(CC_SHAPE_CYLINDER, {radius, half, 0}, {0, 0, 0}, {0, 0, 0, 1});
        std::vector<cc_contact> c = contacts(p);
        ASSERT_EQ(c.size(), 1u);
        EXPECT_NEAR(c[0].point1.x, p.a.pose.p.x, 1e-5f) << "azimuth " << azimuth;
        EXPECT_NEAR(c[0].point1.y, p.a.pose.p.y, 1e-5f) << "azimuth " << azimuth;
        EXPECT_NEAR(c[0].point1.z, half, 1e-5f) << "azimuth " << azimuth;
        expect_clean(p);
    }
}

TEST(FuzzRegressions, CapsOverlappingInAThinLensTouchInsideTheLens)
{
    // A cylinder's bottom cap on the top cap of a cylinder, the base of a
    // cone or the top face of a box beside it, their disks (or the disk and
    // the face) overlapping in a lens narrower than the 8 % by which a
    // cap's inscribed octagon falls short of its rim. The octagons did not
    // overlap, and the contact kept the query's support points on the two
    // rims: 4.5 cm to 730 m apart across the normal (cylinders of radius
    // 168 and 722). Closed form: the depth as placed along the common axis
    // (the lens is wider than it is deep), and every contact point inside
    // both the disk and the other cap.
    Random rnd(2711);
    const cc_shape_type others[3] = {CC_SHAPE_CYLINDER, CC_SHAPE_CONE, CC_SHAPE_BOX};
    for (int i = 0; i < 90; ++i) {
        cc_shape_type other = others[i % 3];
        float r1 = (float)rnd.log_uniform(0.01, 500.0), r2 = r1 * (float)rnd.log_uniform(0.2, 5.0);
        float h1 = r1 * (float)rnd.uniform(0.2, 2.0), h2 = r2 * (float)rnd.uniform(0.2, 2.0);
        float lens = std::min(r1, r2) * (float)rnd.uniform(0.005, 0.07);
        float depth = lens * (float)rnd.uniform(0.02, 0.2), azimuth = (float)rnd.uniform(0.0, 6.2831853);
        float ux = std::cos(azimuth), uy = std::sin(azimuth);
        Pair p;
        p.pose_class = kParallel;
        p.a = shape(CC_SHAPE_CYLINDER, {r1, h1, 0}, {0, 0, 0}, {0, 0, 0, 1});
        float z = -(h1 + h2) + depth, apart = r1 + r2 - lens;
        if (other == CC_SHAPE_BOX) {
            // Its face's near edge square to the offset, r1 - lens from the axis.
            float s = std::sin(0.5f * azimuth), c = std::cos(0.5f * azimuth);
            p.b = shape(CC_SHAPE_BOX, {r2, r2, h2}, {ux * apart, uy * apart, z}, {0, 0, s, c});
        } else {
            // A cone turned over: its base on top.
            cc_quat q = other == CC_SHAPE_CONE ? cc_quat{1, 0, 0, 0} : cc_quat{0, 0, 0, 1};
            p.b = shape(other, {r2, h2, 0}, {ux * apart, uy * apart, z}, q);
        }
        std::vector<cc_contact> c = contacts(p);
        ASSERT_FALSE(c.empty()) << describe(p);
        float tol = 2e-5f * (r1 + r2 + h1 + h2);
        EXPECT_NEAR(min_distance(c), -depth, tol) << describe(p);
        for (const cc_contact& k : c)
            for (cc_vec3 x : {k.point0, k.point1}) {
                float along = x.x * ux + x.y * uy, across = -x.x * uy + x.y * ux;
                EXPECT_LE(std::hypot(x.x, x.y), r1 + tol) << describe(p);
                if (other == CC_SHAPE_BOX) EXPECT_GE(along, r1 - lens - tol) << describe(p);
                else EXPECT_LE(std::hypot(along - apart, across), r2 + tol) << describe(p);
            }
        expect_clean(p);
    }
}

TEST(FuzzRegressions, LongHullEdgesFlatOnACapTouchWhereTheyCrossIt)
{
    // A hull whose lowest edge lies flat across a cylinder's cap, both ends
    // beyond the rim, and whose face nearest the normal, at one end, does
    // not hold the edge. In the pair fuzzing found (a cylinder of radius 13
    // deep under an 89-point hull; here its hull's 28 vertices) the hull's
    // feature was that face, its support set the edge's end alone, and the
    // contact paired that end with the nearest rim point, 11 m apart
    // across the normal.
    Pair found;
    ASSERT_TRUE(parse_pair(
        "[parallel] A: cylinder size (13.3713264 16.2138824 0) margin 0.685836732 gap 1.0136373 at (153.660126 -126.2"
        "21092 -151.50145) q (0.143957913 -0.423053265 0.872735202 -0.196558803); B: convex hull size (77.3290253 9.8"
        "4877777 8.76940632) margin 2.66837692 gap 0.532324076 at (139.581161 -127.961693 -155.758194) q (0.143602833"
        " -0.42301935 0.873313427 -0.194310799) (28 hull points) points {0.839876056 -0.426250875 -0.456594676, 0.570"
        "564389 -0.848260701 -0.93299669, 0.297818542 0.952326953 -0.845354915, -0.79992342 0.144099593 0.943686485, "
        "0.666395783 0.521207213 -0.984242976, -0.943394184 0.709810078 0.920677245, 0.394841462 0.216703087 0.955680"
        "668, -0.97150135 -0.556975603 0.778197825, -0.809273481 0.782926083 0.873841882, -0.566997647 0.980689645 -0"
        ".53528285, -0.258484602 0.982967496 -0.11539641, 0.916274667 0.750544786 -0.458723575, -0.950912535 -0.88175"
        "3385 -0.475925595, -0.935962141 0.57036072 -0.929199874, 0.305228442 0.990410626 -0.826598167, 0.900038421 -"
        "0.17393297 0.971207559, -0.416349202 -0.978016019 -0.467371494, -0.313778281 -0.881997883 -0.826280475, 0.74"
        "2416203 0.952525079 -0.0185868926, 0.813199997 -0.72657764 0.842229247, 0.945678055 0.743099093 0.750566542,"
        " 0.147339717 0.683667123 0.893315792, 0.798371375 0.557231247 -0.778668046, 0.977000892 0.390420079 -0.08614"
        "37991, 0.637187183 -0.853056967 0.843122661, -0.952290118 0.78061986 -0.0475924462, -0.721003413 0.945832551"
        " -0.52682507, -0.475141436 0.292768925 0.994375706}",
        &found));
    expect_clean(found);
    // Then the class in closed form, the face a 2-degree slope beyond the
    // low end: the edge dips `depth` below the cap at that end (the
    // other end rises by 1e-4 of its length), so the contact is as deep as
    // the edge where it enters the cap, along the cap's normal, with its
    // points over the cap. Random sizes, depths and turns about the axis.
    Random rnd(4409);
    for (int i = 0; i < 60; ++i) {
        float r = (float)rnd.log_uniform(0.01, 100.0), h = r * (float)rnd.uniform(0.3, 2.0);
        float len = r * (float)rnd.uniform(2.2, 4.0); // the edge, centred over the axis
        float w2 = r * (float)rnd.uniform(0.1, 0.3), d = 3.0f * w2, t = std::tan(2.0f * 3.14159265f / 180.0f);
        float depth = r * (float)rnd.uniform(0.001, 0.02), turn = (float)rnd.uniform(0.0, 6.2831853);
        Pair p;
        p.pose_class = kParallel;
        p.a = shape(CC_SHAPE_CYLINDER, {r, h, 0}, {0, 0, 0}, {0, 0, 0, 1});
        // Hull frame: the edge from (0, 0, 0) to (-len, 0, 0); the sloped
        // face through (0, 0, 0) and (d, +-w2, d t); a roof high above.
        p.b = shape(CC_SHAPE_CONVEX_HULL, {1, 1, 1}, {0, 0, 0}, {0, 0, 0, 1});
        // The far end a hair higher (within the query's accuracy of level),
        // so that the near end is the support vertex.
        float rise = 1e-4f * len;
        p.b.hull = {{0, 0, 0}, {-len, 0, rise}, {d, w2, d * t}, {d, -w2, d * t}, {-0.5f * len, r, 2.0f * r},
                    {-0.5f * len, -r, 2.0f * r}};
        float c = std::cos(0.5f * turn), sn = std::sin(0.5f * turn);
        cc_vec3 at = {0.5f * len * std::cos(turn), 0.5f * len * std::sin(turn), h - depth};
        p.b.pose = {at, {0, 0, sn, c}};
        std::vector<cc_contact> cs = contacts(p);
        ASSERT_FALSE(cs.empty()) << describe(p);
        float tol = 2e-5f * (r + h + len);
        // Deepest where the edge enters the cap, len / 2 - r from its low end.
        EXPECT_NEAR(min_distance(cs), -depth + rise * (0.5f * len - r) / len, tol) << describe(p);
        for (const cc_contact& k : cs) {
            EXPECT_NEAR(k.normal.z, 1.0f, 1e-5f) << describe(p);
            for (cc_vec3 x : {k.point0, k.point1}) EXPECT_LE(std::hypot(x.x, x.y), r + tol) << describe(p);
        }
        expect_clean(p);
    }
}

TEST(FuzzRegressions, SphereOnAHullEdgeTouchesTheEdge)
{
    // A small sphere touching an edge of a seven-point hull scaled 20 x 5 x
    // 3 mm: the face whose normal lies nearest the contact normal is not
    // one of the edge's two faces, and the hull's contact point was that
    // face's corner, 2 mm from the touching point on the edge. Then the
    // class, generated.
    Pair p;
    ASSERT_TRUE(parse_pair(
        "[touching] A: sphere size (0.00706915557 0 0) margin 0 gap 0 at (-0.0442810282 -0.252070546 -0.260865808) q "
        "(0.549214125 0.394876689 0.0400174744 -0.735414743); B: convex hull size (0.0196904764 0.00528973201 "
        "0.00266988063) margin 7.45832003e-05 gap 0.000230799065 at (-0.0347237401 -0.260756165 -0.254592448) q "
        "(-0.118921138 -0.892804205 -0.035480354 -0.433012187) (7 hull points) points {-0.510487258 -0.291839629 "
        "0.808846354, -0.19826287 -0.475684255 -0.85698092, -0.499133468 -0.391799331 -0.772890031, 0.583028853 "
        "-0.812416077 0.00758486055, 0.185554639 -0.282464534 -0.941160619, -0.0118175698 0.184849128 0.982695878, "
        "0.683210313 0.203384519 0.701326191}",
        &p));
    std::vector<cc_contact> c = contacts(p);
    ASSERT_EQ(c.size(), 1u);
    // The sphere's centre moved along the normal by the core distance.
    double core = (double)c[0].distance + c[0].thickness0 + c[0].thickness1;
    V expected = to_v(p.a.pose.p) + convref::unit(to_v(c[0].normal)) * core;
    EXPECT_LT(convref::norm(to_v(c[0].point1) - expected), 1e-6);
    expect_clean(p);
    // The class: small spheres touching random hulls under non-uniform
    // scales, each from the direction halfway between an edge's two face
    // normals (in the edge's normal cone, where the edge is the support set).
    Random r(7140);
    for (int i = 0; i < 150; ++i) {
        Pair q;
        q.b = random_shape(r, CC_SHAPE_CONVEX_HULL, r.log_uniform(0.01, 10.0));
        q.b.pose.q = r.rotation();
        std::vector<V> local;
        for (const cc_vec3& h : q.b.hull) local.push_back(convref::v3(h.x * q.b.size.x, h.y * q.b.size.y, h.z * q.b.size.z));
        HullTopology topo = hull_topology(local);
        ASSERT_FALSE(topo.edges.empty());
        const HullEdge& e = topo.edges[(size_t)r.below((int)topo.edges.size())];
        V out = convref::to_world_dir(pose_of(q.b), convref::unit(e.n0 + e.n1));
        q.a = random_shape(r, CC_SHAPE_SPHERE, extent(q.b) * r.log_uniform(0.01, 0.3));
        q.a.gap = (float)(0.1 * extent(q.a));
        V c0 = to_v(q.b.pose.p) + out * (2.0 * extent(q.b));
        q.a.pose.p = {(float)c0.x, (float)c0.y, (float)c0.z};
        q.pose_class = kTouching;
        // place_touching moves the second shape: swap so the sphere moves.
        std::swap(q.a, q.b);
        place_touching(&q, extent(q.b) * r.log_uniform(1e-4, 0.05));
        std::swap(q.a, q.b);
        expect_clean(q);
    }
}

TEST(FuzzRegressions, CapsuleThroughAThinHullLeavesPastTheNearerRim)
{
    // A capsule's segment through a thin six-point hull: pushed out past
    // one rim it is 3.5 mm deep, past the other 20 mm; the ray from the
    // centres chose the second. A segment is a polytope's edge: the optima
    // lie on edge pairs, which EPA and the separating axes cover. Then the
    // class: capsules through random hulls flattened to plates.
    Pair p;
    ASSERT_TRUE(parse_pair(
        "[random] A: capsule size (0.308093667 1.27214122 0) margin 0 gap 0 at (-16.8669739 -0.780031621 16.0085106) q "
        "(0.684556663 0.545758605 -0.482875764 0.0189917665); B: convex hull size (1.14111269 0.374527931 0.197810888) "
        "margin 0 gap 0 at (-16.7006798 -0.39424476 16.0742092) q (0.90302974 0.261613905 0.317071825 -0.124743521) "
        "(6 hull points) points {0.84154582 -0.28979516 0.300418168, 0.961765647 -0.024629144 0.528628945, 0.125791907 "
        "-0.805336356 -0.243285909, -0.226007417 -0.970283985 -0.89415282, 0.934000313 0.388437003 -0.0256245118, "
        "0.800767303 -0.369071841 0.401319116}",
        &p));
    std::vector<cc_contact> c = contacts(p);
    ASSERT_EQ(c.size(), 1u);
    EXPECT_NEAR((double)c[0].distance + c[0].thickness0 + c[0].thickness1, reference(p).distance, 2e-5);
    expect_clean(p);
    Random r(5210);
    for (int i = 0; i < 200; ++i) {
        Pair q;
        double scale = r.log_uniform(0.01, 10.0);
        q.b = random_shape(r, CC_SHAPE_CONVEX_HULL, scale);
        q.b.size.z = std::max(CC_SIZE_MIN, (float)(q.b.size.z * r.log_uniform(0.01, 0.3)));
        q.a = random_shape(r, CC_SHAPE_CAPSULE, scale);
        V off = r.direction() * (extent(q.b) * r.uniform(0.0, 0.5));
        V at = to_v(q.b.pose.p) + off;
        q.a.pose.p = {(float)at.x, (float)at.y, (float)at.z};
        q.pose_class = kRandom;
        expect_clean(q);
    }
}

TEST(FuzzRegressions, SmallShapeDeepInsideARoundHullFindsTheNearestFacet)
{
    // A tetrahedron of 14 mm at the centre of a 175-point hull of 1 m: the
    // difference of the two has hundreds of facets, EPA's pools filled
    // before its bounds met, and the climbs from its faces ended 5 mm too
    // deep. Then the class: small boxes, hulls and capsules anywhere
    // inside hulls of 60 to 240 points on an ellipsoid.
    Random r(6130);
    for (int i = 0; i < 120; ++i) {
        Pair q;
        double scale = r.log_uniform(0.01, 10.0);
        q.b.type = CC_SHAPE_CONVEX_HULL;
        int n = 60 + r.below(180);
        for (int k = 0; k < n; ++k) {
            V d = r.direction();
            q.b.hull.push_back({(float)d.x, (float)d.y, (float)d.z});
        }
        q.b.size = {(float)(scale * r.uniform(0.7, 1.0)), (float)(scale * r.uniform(0.7, 1.0)),
                    (float)(scale * r.uniform(0.7, 1.0))};
        q.b.pose = {{(float)r.uniform(-scale, scale), 0.0f, 0.0f}, r.rotation()};
        const cc_shape_type small[3] = {CC_SHAPE_BOX, CC_SHAPE_CONVEX_HULL, CC_SHAPE_CAPSULE};
        q.a = random_shape(r, small[i % 3], scale * r.log_uniform(0.005, 0.1));
        V at = to_v(q.b.pose.p) + r.direction() * (scale * r.uniform(0.0, 0.5));
        q.a.pose.p = {(float)at.x, (float)at.y, (float)at.z};
        q.pose_class = kCoincident;
        expect_clean(q);
    }
}

TEST(FuzzRegressions, ConeTouchingAHullBesideAFaceTakesTheFace)
{
    // A cone 3 um into a large tetrahedron's face: the ray from the centres
    // left through a neighbouring face and the climb stopped on that
    // side's optimum, 2.1 mm deep. The faces meeting where each shape
    // supports the answer are tried. Then the class: cones, cylinders and
    // boxes just touching large random hulls; the depth and normal checks
    // (where a cone's rim point lies along a hull edge is the witness
    // check's, which a few of these still miss).
    Pair p;
    ASSERT_TRUE(parse_pair(
        "[touching] A: cone size (1.28506064 4.4792428 0) margin 0 gap 0.680114567 at (-7.57046413 12.4366016 "
        "2.04529977) q (-0.636781037 -0.563723266 -0.429905295 -0.303162336); B: convex hull size (49.0658226 "
        "28.7006073 325.478699) margin 0 gap 0 at (-33.7516937 69.7130508 -10.913228) q (-0.408883274 -0.242827475 "
        "-0.611235797 -0.632645309) (4 hull points) points {1 1 1, 1 -1 -1, -1 1 -1, -1 -1 1}",
        &p));
    std::vector<cc_contact> c = contacts(p);
    ASSERT_FALSE(c.empty());
    // The cone and the hull have no core radius: the distance is the core's.
    EXPECT_NEAR(min_distance(c), reference(p).distance, 1e-5);
    expect_clean(p);
    Random r(8310);
    const cc_shape_type kinds[3] = {CC_SHAPE_CONE, CC_SHAPE_CYLINDER, CC_SHAPE_BOX};
    for (int i = 0; i < 300; ++i) {
        Pair q = random_pair(r, kinds[i % 3], CC_SHAPE_CONVEX_HULL, kTouching);
        expect_clean(q, false);
    }
}

// Side lines crossing at a small angle: a capsule or cylinder lying across a
// cylinder's side, or a capsule across a box's edge, their lines turned
// 0.01 to 5 degrees apart (within the angle the manifold takes as
// parallel), touching, a little apart or a little into each other. The two
// points of such a contact were the ends of the segments' common stretch,
// each lifted onto the other line: seen along the normal the lines drift
// apart there by the stretch's length times the angle's sine, so the two
// points of a contact missed each other across the normal by up to a
// twentieth of the side's length. Now they touch where the lines cross.
TEST(FuzzRegressions, SideLinesCrossingAtASmallAngleTouchWhereTheyCross)
{
    Random r(5150);
    auto mul = [](cc_quat a, cc_quat b) -> cc_quat {
        return {a.w * b.x + a.x * b.w + a.y * b.z - a.z * b.y, a.w * b.y - a.x * b.z + a.y * b.w + a.z * b.x,
                a.w * b.z + a.x * b.y - a.y * b.x + a.z * b.w, a.w * b.w - a.x * b.x - a.y * b.y - a.z * b.z};
    };
    for (int i = 0; i < 300; ++i) {
        Pair p;
        double scale = r.log_uniform(0.01, 100.0);
        bool box = i % 3 == 2;
        p.a.type = box ? CC_SHAPE_BOX : CC_SHAPE_CYLINDER;
        p.a.size = box ? cc_vec3{(float)(scale * r.uniform(0.2, 1)), (float)(scale * r.uniform(0.2, 1)), (float)scale}
                       : cc_vec3{(float)(scale * r.uniform(0.2, 1)), (float)scale, 0.0f};
        p.b.type = i % 3 == 1 ? CC_SHAPE_CYLINDER : CC_SHAPE_CAPSULE;
        p.b.size = {(float)(scale * r.log_uniform(0.02, 0.3)), (float)(scale * r.uniform(0.3, 1)), 0.0f};
        // Both turned by one random rotation; B's axis also by a small angle
        // about the line between them (x).
        cc_quat turn = r.rotation();
        double angle = r.log_uniform(1.7e-4, 8.7e-2) * (r.chance(0.5) ? 1 : -1);
        p.a.pose = {{0, 0, 0}, turn};
        p.b.pose.q = normalized(mul(turn, {(float)std::sin(0.5 * angle), 0.0f, 0.0f, (float)std::cos(0.5 * angle)}));
        // B's side over A's side line at angle 0 (a box: its edge at +x +y).
        convref::Pose pose = convref::pose_from_quat(turn.x, turn.y, turn.z, turn.w, convref::v3(0, 0, 0));
        V out = box ? convref::unit(convref::v3(1, 1, 0)) : convref::v3(1, 0, 0);
        V on = box ? convref::v3(p.a.size.x, p.a.size.y, 0) : convref::v3(p.a.size.x, 0, 0);
        V c = convref::to_world(pose, on + out * (double)(p.b.size.x * 1.5) + convref::v3(0, 0, scale * r.uniform(-0.3, 0.3)));
        p.b.pose.p = {(float)c.x, (float)c.y, (float)c.z};
        p.pose_class = kTouching;
        place_touching(&p, scale * (r.chance(0.3) ? 0.0 : r.uniform(-1e-2, 1e-2)));
        expect_clean(p);
    }
}

} // namespace

TEST(FuzzRegressions, LongEllipsoidsCrossedAtOneCentreTakeTheThinWay)
{
    // Two long ellipsoids at one centre: each one's thin axis holds an
    // optimum, and the axis that separated most at the start (a middle
    // one) climbed to the shallower, 319 deep where 314 exists. Then the
    // class: random long ellipsoids crossed at one centre.
    Pair p;
    ASSERT_TRUE(parse_pair(
        "[coincident] A: ellipsoid size (23.0148258 146.340454 623.332458) margin 0 gap 0 at (506.018341 307.896881 "
        "430.959686) q (-0.147169217 -0.240011439 0.473698199 -0.834473372); B: ellipsoid size (171.846985 660.828979 "
        "173.557037) margin 0 gap 0 at (506.018341 307.896881 430.959686) q (0.486123264 0.456542492 -0.429677546 "
        "-0.608794212)",
        &p));
    std::vector<cc_contact> c = contacts(p);
    ASSERT_EQ(c.size(), 1u);
    EXPECT_NEAR((double)c[0].distance, reference(p).distance, 2e-3);
    expect_clean(p);
    Random r(7410);
    for (int i = 0; i < 200; ++i) {
        Pair q;
        double scale = r.log_uniform(0.01, 100.0);
        for (Shape* s : {&q.a, &q.b}) {
            s->type = CC_SHAPE_ELLIPSOID;
            s->size = {(float)(scale * r.log_uniform(0.05, 1.0)), (float)(scale * r.log_uniform(0.05, 1.0)),
                       (float)(scale * r.log_uniform(1.0, 10.0))};
            s->pose = {{(float)scale, 0.0f, 0.0f}, r.rotation()};
        }
        q.pose_class = kCoincident;
        expect_clean(q);
    }
}

TEST(FuzzRegressions, SmallShapesAtTheWaistOfALongEllipsoidFollowTheValley)
{
    // A cone of 0.8 beside the waist of a 243 x 15.4 x 16.0 ellipsoid: the
    // separation is a narrow curved valley around the near-round waist,
    // the steepest steps zigzagged across it and stopped 0.7 mm short.
    // Then the class: small shapes of every kind at the waist of long,
    // nearly round ellipsoids (a small box makes an optimum at each of its
    // corners along the waist, 1e-5 of the box apart: the neighbouring
    // corners' regions of an uncertified answer are climbed too), held to
    // every check but the witness (deep in a round shape the witness points
    // of a right answer can still miss each other: the fuzz tool counts
    // those).
    Pair p;
    ASSERT_TRUE(parse_pair(
        "[random] A: cone size (0.810592175 0.137145564 0) margin 0 gap 0 at (-0.315415233 0.29409045 -1.72066855) q "
        "(-0.203855366 0.958353877 0.167357802 -0.109508909); B: ellipsoid size (242.996597 15.3950624 16.0337315) "
        "margin 0 gap 0 at (-0.397070199 -0.362632662 -2.41883183) q (-0.215697542 -0.449603707 -0.413481712 "
        "0.761816204)",
        &p));
    std::vector<cc_contact> c = contacts(p);
    ASSERT_EQ(c.size(), 1u);
    EXPECT_NEAR((double)c[0].distance, reference(p).distance, 4e-4); // 0.67 mm off before; rounding at 243 m
    expect_clean(p);
    Random r(7420);
    const cc_shape_type small[5] = {CC_SHAPE_CONE, CC_SHAPE_BOX, CC_SHAPE_ELLIPSOID, CC_SHAPE_CAPSULE, CC_SHAPE_CYLINDER};
    for (int i = 0; i < 250; ++i) {
        Pair q;
        double scale = r.log_uniform(0.01, 100.0), round = scale * r.uniform(0.5, 1.0);
        q.b.type = CC_SHAPE_ELLIPSOID;
        q.b.size = {(float)(scale * r.uniform(5.0, 30.0)), (float)round, (float)(round * r.uniform(1.0, 1.05))};
        q.b.pose = {{0.0f, 0.0f, 0.0f}, r.rotation()};
        q.a = random_shape(r, small[i % 5], scale * r.log_uniform(0.002, 0.1));
        V at = r.direction() * (round * r.uniform(0.0, 1.0));
        q.a.pose.p = {(float)at.x, (float)at.y, (float)at.z};
        q.pose_class = kCoincident;
        expect_clean(q, false);
    }
}

TEST(FuzzRegressions, SmallShapesApartFromLongConesAreCertifiedByGJK)
{
    // A 6 mm box 16 mm from a cone 9 m long: the climb from GJK's coarse
    // normal stopped on a crease of the box, 7 um (0.2 % of the box) short
    // of the distance. Apart, sep has one local optimum, so a gap left
    // between the witness points' distance and sep is a stall: GJK runs
    // again to the query's tolerance from there and the climb restarts
    // from its normal. Then the class: small shapes a little apart from
    // long cones, anywhere around them.
    Pair p;
    ASSERT_TRUE(parse_pair(
        "[touching] A: box size (0.00352989999 0.005270564 0.00631892402) margin 0 gap 0 at (0.0301954597 "
        "-0.0970513299 -0.0928010345) q (-0.183762774 -0.720709741 0.662279725 -0.0905224755); B: cone size "
        "(0.42133972 4.59184122 0) margin 0.0158444922 gap 0.136572778 at (0.477577895 -0.0224245079 0.576916456) q "
        "(0.4249551 -0.839485765 0.0281176697 0.337470144)",
        &p));
    std::vector<cc_contact> c = contacts(p);
    ASSERT_EQ(c.size(), 1u);
    EXPECT_NEAR((double)c[0].distance + p.b.margin, reference(p).distance, 2e-6);
    expect_clean(p);
    Random r(7430);
    const cc_shape_type small[] = {CC_SHAPE_BOX, CC_SHAPE_CONVEX_HULL, CC_SHAPE_CYLINDER, CC_SHAPE_CONE};
    for (int i = 0; i < 200; ++i) {
        Pair q;
        double radius = r.log_uniform(0.05, 1.0), half = radius * r.log_uniform(2.0, 30.0);
        q.b = shape(CC_SHAPE_CONE, {(float)radius, (float)half, 0}, {0, 0, 0}, r.rotation());
        q.a = random_shape(r, small[i % 4], radius * r.log_uniform(0.005, 0.05));
        V c0 = r.direction() * (half * 2.0);
        q.a.pose.p = {(float)c0.x, (float)c0.y, (float)c0.z};
        q.pose_class = kTouching;
        place_touching(&q, extent(q.a) * r.log_uniform(0.1, 3.0));
        expect_clean(q);
    }
}

TEST(FuzzRegressions, RoundSurfacesTouchWhereTheNormalMeetsBoth)
{
    // A sphere 0.77 a hair apart from a 4.5 x 2.5 x 4.4 ellipsoid: the
    // ascent stops where sep stops changing in float, 2e-3 rad off, and the
    // ellipsoid's point slid 1.8 cm along its surface (2 % of the sphere).
    // Then the class: round surfaces (and a box's edges and corners, a
    // capsule's core, side lines) touching or a little apart, whose two
    // points must face each other along the normal within 1e-2 of the
    // smaller size (the fuzz tool also allows 1e-3 of the larger). Where
    // a disk's rim meets a round surface the normal is the least sharp.
    Pair p;
    ASSERT_TRUE(parse_pair(
        "[touching] A: sphere size (0.772075176 0 0) margin 0 gap 0.0189852994 at (6.0911603 -6.12710714 7.61648607) q "
        "(0.815338731 -0.532336175 0.167181149 0.154568374); B: ellipsoid size (4.38093519 2.51259613 4.53926468) "
        "margin 0 gap 0.0728414655 at (7.89537811 -7.10767031 4.87123346) q (0.798378527 0.0552998893 0.216362566 "
        "-0.559214532)",
        &p));
    expect_clean(p);
    const cc_shape_type pairs[][2] = {
        {CC_SHAPE_SPHERE, CC_SHAPE_ELLIPSOID},   {CC_SHAPE_CAPSULE, CC_SHAPE_ELLIPSOID},
        {CC_SHAPE_ELLIPSOID, CC_SHAPE_ELLIPSOID}, {CC_SHAPE_BOX, CC_SHAPE_ELLIPSOID},
        {CC_SHAPE_CYLINDER, CC_SHAPE_ELLIPSOID}, {CC_SHAPE_CONE, CC_SHAPE_ELLIPSOID},
        {CC_SHAPE_SPHERE, CC_SHAPE_CYLINDER},    {CC_SHAPE_CAPSULE, CC_SHAPE_CONE}};
    Random r(7540);
    double worst = 0;
    for (const auto& types : pairs) {
        for (int i = 0; i < 150; ++i) {
            Pair q;
            double scale = r.log_uniform(0.01, 100.0);
            q.a = random_shape(r, types[0], scale);
            q.b = random_shape(r, types[1], scale * r.log_uniform(0.3, 3.0));
            V c0 = r.direction() * ((extent(q.a) + extent(q.b)) * 0.8);
            q.b.pose.p = {(float)c0.x, (float)c0.y, (float)c0.z};
            q.pose_class = kTouching;
            place_touching(&q, std::min(extent(q.a), extent(q.b)) * r.uniform(-1e-4, 0.3));
            std::vector<cc_contact> cs = contacts(q);
            double small = std::min(extent(q.a), extent(q.b));
            for (const cc_contact& c : cs) {
                double miss = witness_miss(c);
                worst = std::max(worst, miss / small);
                EXPECT_LE(miss, pair_tolerance(q) + 1e-2 * small) << describe(q);
            }
        }
    }
    std::printf("worst miss: %.3g of the smaller size\n", worst);
    EXPECT_LT(worst, 5e-3);
}

TEST(FuzzRegressions, NearlyFlatHullRoofsTouchOnTheFaceThatSupports)
{
    // A capsule at the centre of a 17-point hull scaled 23 x 3 x 10 km: two
    // neighbouring faces of the hull lie within float's resolution of the
    // normal, the first of them was taken, and it tilts away by 2.5 m; the
    // hull's contact point was a corner 3.1 km from the capsule's. Then
    // the class: shapes touching either face of a roof so flat (1e-5 to
    // 3e-4 rad) that the two faces' normals tie in float.
    Pair p;
    ASSERT_TRUE(parse_pair(
        "[coincident] A: capsule size (48.6313667 26.8460064 0) margin 0 gap 0 at (-222.879486 -10.3880749 "
        "-107.461731) q (0.968404114 0.146404445 -0.140667379 -0.144816801); B: convex hull size (23339.5723 "
        "3181.21899 10429.0703) margin 102.330002 gap 6260.4165 at (-222.879486 -10.3880749 -107.461731) q "
        "(-0.150161386 -0.800905824 0.082937859 -0.573692203) (17 hull points) points {0.152388349 -0.843423128 "
        "0.515184641, 0.229571223 -0.903339803 0.36231789, -0.520328581 0.483190238 -0.704120278, 0.6165815 "
        "0.787252486 -0.00779200392, -0.913492858 0.405997843 0.0263922382, -0.157948047 0.614727378 0.772763014, "
        "0.491926968 0.860338151 0.133514449, -0.00601444067 0.703862667 -0.710310638, 0.359357923 0.845282614 "
        "-0.395422757, 0.0870528519 0.40048027 0.912160814, -0.921576738 -0.217002124 -0.321879476, -0.395424694 "
        "-0.900912642 0.178873539, 0.178606257 0.0670788661 -0.981631398, 0.703542531 -0.623134315 0.341659933, "
        "-0.170008287 -0.0060818973 0.985423863, 0.250321209 -0.398682088 -0.88226521, 0.362324566 -0.102903187 "
        "-0.926354051}",
        &p));
    expect_clean(p);
    Random r(8150);
    const cc_shape_type others[4] = {CC_SHAPE_SPHERE, CC_SHAPE_CAPSULE, CC_SHAPE_ELLIPSOID, CC_SHAPE_CYLINDER};
    for (int i = 0; i < 200; ++i) {
        Pair q;
        double scale = r.log_uniform(0.1, 1000.0), roof = r.log_uniform(1e-5, 3e-4);
        q.b.type = CC_SHAPE_CONVEX_HULL;
        // A box whose top is a roof: its ridge along y at x = 0.
        q.b.hull = {{-1, -1, -1}, {1, -1, -1}, {-1, 1, -1}, {1, 1, -1},        {-1, -1, 1},
                    {1, -1, 1},   {-1, 1, 1},  {1, 1, 1},   {0, -1, (float)(1 + roof)}, {0, 1, (float)(1 + roof)}};
        q.b.size = {(float)(scale * r.uniform(0.5, 1.0)), (float)(scale * r.uniform(0.5, 1.0)),
                    (float)(scale * r.uniform(0.05, 1.0))};
        q.b.pose = {{0, 0, 0}, r.rotation()};
        q.a = random_shape(r, others[i % 4], scale * r.log_uniform(0.01, 0.2));
        // Over a point of one roof face, a quarter to three quarters out.
        V local = convref::v3(q.b.size.x * r.uniform(0.25, 0.75) * (r.chance(0.5) ? 1 : -1),
                              q.b.size.y * r.uniform(-0.5, 0.5), q.b.size.z * 3.0);
        V at = convref::to_world(pose_of(q.b), local);
        q.a.pose.p = {(float)at.x, (float)at.y, (float)at.z};
        q.pose_class = kTouching;
        std::swap(q.a, q.b); // place_touching moves B: the small shape
        place_touching(&q, extent(q.b) * r.uniform(-0.01, 0.01));
        std::swap(q.a, q.b);
        expect_clean(q);
    }
}

TEST(FuzzRegressions, SmallHullsBesideLargeShapesTouchAtTheirCorner)
{
    // A 5 x 20 x 5 cm hull at the middle of a capsule 1.6 km long: the
    // support sets were cut ten pair tolerances (4 mm here) below the top,
    // which took a face of the small hull tilted by 3 mm as its support;
    // the face and the capsule's core did not overlap seen along the
    // normal, and the capsule's point fell back to an end of its core, 788
    // m away. Then the class: small hulls just touching shapes 10^3 to
    // 10^4 times their size.
    Pair p;
    ASSERT_TRUE(parse_pair(
        "[coincident] A: capsule size (32.4227715 788.483948 0) margin 12.385067 gap 0 at (-1147.62122 -1323.68909 "
        "324.276337) q (0.387773424 0.429892361 0.116770171 -0.806962848); B: convex hull size (0.0510434248 "
        "0.195413798 0.0470483899) margin 0 gap 0.00075623329 at (-1147.62122 -1323.68909 324.276337) q "
        "(-0.62041682 -0.00559937861 0.653457046 0.433642119) (8 hull points) points {-0.500935912 0.998645067 "
        "0.964390278, -0.348754108 0.740699768 -0.60634464, -0.407833427 0.0659221634 0.535785437, 0.660252392 "
        "0.374529779 -0.0529296882, 0.834756255 -0.419069916 0.680041969, -0.598105907 -0.842059255 "
        "-0.0886520222, -0.555066228 0.395214319 0.127432972, 0.374907702 -0.395180106 -0.114173241}",
        &p));
    expect_clean(p);
    Random r(8270);
    const cc_shape_type large[4] = {CC_SHAPE_CAPSULE, CC_SHAPE_BOX, CC_SHAPE_CYLINDER, CC_SHAPE_CONVEX_HULL};
    for (int i = 0; i < 200; ++i) {
        Pair q;
        double scale = r.log_uniform(10.0, 1e4);
        q.a = random_shape(r, large[i % 4], scale);
        q.a.pose.p = {0, 0, 0};
        q.b = random_shape(r, CC_SHAPE_CONVEX_HULL, scale * r.log_uniform(1e-4, 1e-3));
        V c0 = r.direction() * (extent(q.a) * 2.0);
        q.b.pose.p = {(float)c0.x, (float)c0.y, (float)c0.z};
        q.pose_class = kTouching;
        place_touching(&q, extent(q.b) * r.uniform(-0.01, 0.01));
        expect_clean(q);
    }
}

TEST(FuzzRegressions, ShallowPolytopeOverlapsFindTheShallowestFacet)
{
    // Two hulls 7 cm into each other (0.5 % of the smaller): the climb from
    // MPR's direction stopped on an edge pair 8.6 cm deep, a local optimum
    // of the Minkowski difference beside the 6.8 cm facet; EPA, which
    // finds the nearest facet, ran only from 0.5 % of the size. (EPA's
    // tolerance is now the smaller polytope's, so that it resolves small
    // overlaps of a small shape beside a large one.) Then the
    // class: boxes, hulls and capsules against hulls and boxes, 1e-5 to
    // 1e-2 of the smaller size into each other.
    Pair p;
    ASSERT_TRUE(parse_pair(
        "[touching] A: convex hull size (12.5060902 86.9440308 18.7649803) margin 0 gap 0.0675576478 at "
        "(117.232964 -131.458908 -114.810364) q (0.0924857631 -0.268560946 -0.444668621 0.849465251) (13 hull "
        "points) points {-0.364356607 0.764791548 -0.531355023, -0.266814977 -0.829745889 0.490236223, "
        "-0.285507619 0.0385893174 0.957599223, -0.0605111234 0.503697038 -0.86175853, -0.28912425 0.484905809 "
        "-0.825392962, -0.482509345 0.66617614 -0.568677485, 0.600307465 0.568670154 -0.56235683, 0.226843566 "
        "-0.0764592662 0.970925331, 0.244184092 -0.901602745 -0.357052654, -0.664245844 -0.661678135 "
        "0.347792387, -0.695957363 0.612708807 -0.374474674, 0.324206054 0.173253208 -0.929985881, -0.121925786 "
        "-0.989769161 -0.0741016716}; B: convex hull size (94.8483658 245.249329 277.005341) margin 0 gap "
        "0.275991529 at (41.583725 -173.550369 -242.666733) q (-0.500552773 -0.514258385 0.587042868 "
        "-0.374654412) (6 hull points) points {1 0 0, -1 0 0, 0 1 0, 0 -1 0, 0 0 1, 0 0 -1}",
        &p));
    std::vector<cc_contact> c = contacts(p);
    ASSERT_FALSE(c.empty());
    EXPECT_NEAR(min_distance(c), -0.0681, 1e-3);
    expect_clean(p);
    // A 9 mm box 10 um into a 16 cm hull: below EPA's resolution when its
    // tolerance was relative to the pair (1.7 um), 3.6 um too deep.
    ASSERT_TRUE(parse_pair(
        "[touching] A: box size (0.00858648121 0.00259822747 0.00357799232) margin 0 gap 4.42014752e-05 at (0"
        ".105024852 -0.134685442 -0.0837766528) q (-0.426291287 0.428967893 -0.789478004 -0.104817882); B: co"
        "nvex hull size (0.120420352 0.0845162123 0.158733293) margin 0 gap 0.0179462507 at (0.0854666084 -0."
        "0767140985 0.0267133471) q (0.671310127 -0.495987743 0.252710372 0.489363194) (9 hull points) points"
        " {0.798315525 -0.148445755 -0.452996016, 0.466593176 -0.834036767 -0.308617502, 0.295369089 0.836146"
        "653 0.168364093, -0.390615225 -0.73055023 0.605525494, -0.858008444 0.18404676 0.319331378, 0.715057"
        "909 0.826004922 0.0672252327, -0.731414378 0.173444733 0.126767904, 0.932342887 -0.788870811 -0.0897"
        "013471, 0.95801729 0.879915595 0.947984993}",
        &p));
    c = contacts(p);
    ASSERT_FALSE(c.empty());
    EXPECT_NEAR(min_distance(c), -9.66e-6, 1e-7);
    expect_clean(p);
    Random r(8390);
    const cc_shape_type as[3] = {CC_SHAPE_BOX, CC_SHAPE_CONVEX_HULL, CC_SHAPE_CAPSULE};
    const cc_shape_type bs[2] = {CC_SHAPE_CONVEX_HULL, CC_SHAPE_BOX};
    for (int i = 0; i < 300; ++i) {
        Pair q;
        double scale = r.log_uniform(0.01, 100.0);
        q.a = random_shape(r, as[i % 3], scale);
        q.a.pose.p = {0, 0, 0};
        q.b = random_shape(r, bs[(i / 3) % 2], scale * r.log_uniform(0.3, 3.0));
        V c0 = r.direction() * ((extent(q.a) + extent(q.b)) * 0.8);
        q.b.pose.p = {(float)c0.x, (float)c0.y, (float)c0.z};
        q.pose_class = kTouching;
        place_touching(&q, -std::min(extent(q.a), extent(q.b)) * r.log_uniform(1e-5, 1e-2));
        expect_clean(q, false);
    }
}

TEST(FuzzRegressions, DeepOverlapsStopWhereEPACertifiesTheAnswer)
{
    // Deep overlaps stop climbing their starts once one comes within the
    // slack of EPA's lower bound. A capsule's segment through a small
    // cylinder: the best separating direction EPA saw is the start that
    // climbs to the optimum (its nearest faces, with the pools full, lay
    // beside it: 0.0023 deep where 0.0021 exists).
    Pair p;
    ASSERT_TRUE(parse_pair(
        "[random] A: capsule size (0.000654111151 0.00332376314 0) margin 0 gap 0 at (0.00363919255 -0.0112244515 "
        "0.00915742572) q (-0.19164224 -0.928952932 -0.289899141 0.127585948); B: cylinder size (0.0121919364 "
        "0.00202153297 0) margin 7.38346716e-05 gap 0 at (0.00890940148 -0.0213401895 0.0146331713) q (-0.587459326 "
        "-0.784770906 0.100847811 -0.169870213)",
        &p));
    expect_clean(p);
    // A box at the centre of a cone a hundred times its size: beside a
    // shape that large, rounding of the coordinates is coarser than the
    // slack, and every start climbs as before (39.26 deep where 39.20
    // exists, when the bound certified a climb).
    ASSERT_TRUE(parse_pair(
        "[coincident] A: box size (2.0545013 1.1181519 2.13923883) margin 0.00371745904 gap 0.105919406 at "
        "(-9.99399376 11.2975807 -5.09041119) q (-0.0889119133 -0.0482151955 0.726433218 0.679753482); B: cone size "
        "(75.5032272 186.248703 0) margin 0 gap 85.9460144 at (-9.99399376 11.2975807 -5.09041119) q (0.312286854 "
        "-0.588702261 -0.52609098 0.528332114)",
        &p));
    expect_clean(p);
    // A cylinder at the waist of an ellipsoid 170 times longer, where EPA
    // keeps its own tolerance: a finer one filled its pools, and its
    // facets climbed 1.2e-4 too deep.
    ASSERT_TRUE(parse_pair(
        "[coincident] A: cylinder size (0.16969806 0.329250664 0) margin 5.86178066e-05 gap 0.00854259729 at "
        "(4.20374393 -5.62597752 -3.98529601) q (0.577758849 -0.15093106 -0.801774919 0.0239050165); B: ellipsoid "
        "size (64.5004578 2.46189237 2.74815464) margin 0.0950624347 gap 0 at (4.20374393 -5.62597752 -3.98529601) q "
        "(-0.188084245 0.473005146 -0.674583972 -0.534627795)",
        &p));
    expect_clean(p);
    // The class: round and polytope shapes of similar sizes (where the
    // bound certifies) deep into each other, and a capsule's segment
    // through small shapes (EPA's faces along the segment are slivers,
    // whose rounded normals overstate one corner's height).
    Random r(9120);
    const cc_shape_type types[6] = {CC_SHAPE_CAPSULE, CC_SHAPE_BOX,       CC_SHAPE_CYLINDER,
                                    CC_SHAPE_CONE,    CC_SHAPE_ELLIPSOID, CC_SHAPE_CONVEX_HULL};
    for (int i = 0; i < 400; ++i) {
        Pair q;
        double scale = r.log_uniform(0.01, 100.0);
        q.a = random_shape(r, types[i % 6], scale);
        q.b = random_shape(r, types[(i / 6) % 6], scale * r.log_uniform(0.2, 5.0));
        q.a.pose.p = {0, 0, 0};
        V c0 = r.direction() * ((extent(q.a) + extent(q.b)) * r.uniform(0.0, 0.5));
        q.b.pose.p = {(float)c0.x, (float)c0.y, (float)c0.z};
        q.pose_class = kRandom;
        expect_clean(q, false);
    }
}

TEST(FuzzRegressions, SmallHullCornersOnLongEdgesTakeThePerpendicular)
{
    // A 12 m cuboctahedron touching, with one corner, a long edge of an
    // octahedron 29 km long: the pair's tolerance follows its coordinates
    // (9 mm), a hundred of them spanned the small hull's face, and the
    // polish took that face where the corner supports. The normal stayed a
    // hair off the perpendicular from the corner to the edge, which loses
    // the edge's half length times that angle: 4 cm too deep. Then the
    // class: small hulls at the long edges of boxes and octahedra 10^3 to
    // 10^4 times their size.
    Pair p;
    ASSERT_TRUE(parse_pair(
        "[touching] A: convex hull size (1.37624061 2.63655996 11.5803804) margin 0 gap 0 at (-6.06794167 -2.0364747 "
        "3.67182636) q (-0.100588933 -0.817259908 -0.0285199862 0.566705167) (12 hull points) points {0 -1 -1, 0 -1 "
        "1, 0 1 -1, 0 1 1, -1 0 -1, 1 0 -1, -1 0 1, 1 0 1, -1 -1 0, -1 1 0, 1 -1 0, 1 1 0}; B: convex hull size "
        "(747.255432 14560.0361 1705.56958) margin 20.2766323 gap 0 at (869.771606 4910.42383 1083.47656) q "
        "(0.748380423 0.0418758877 -0.639924943 -0.169320017) (6 hull points) points {1 0 0, -1 0 0, 0 1 0, 0 -1 0, "
        "0 0 1, 0 0 -1}",
        &p));
    expect_clean(p);
    Random r(1204);
    for (int i = 0; i < 300; ++i) {
        Pair q;
        double scale = r.log_uniform(0.01, 100.0);
        q.a = random_shape(r, CC_SHAPE_CONVEX_HULL, scale);
        q.a.margin = 0;
        q.b.type = i % 2 ? CC_SHAPE_BOX : CC_SHAPE_CONVEX_HULL;
        if (q.b.type == CC_SHAPE_CONVEX_HULL) q.b.hull = {{1, 0, 0}, {-1, 0, 0}, {0, 1, 0}, {0, -1, 0}, {0, 0, 1}, {0, 0, -1}};
        double length = scale * r.log_uniform(1e3, 1e4);
        q.b.size = {(float)length, (float)(scale * r.log_uniform(1.0, 100.0)), (float)(scale * r.log_uniform(1.0, 100.0))};
        q.b.pose.q = r.rotation();
        q.b.pose.p = {(float)(scale * r.uniform(-100, 100)), (float)(scale * r.uniform(-100, 100)), 0.0f};
        // A point along a long edge (+x to +y of the octahedron, +y +z of
        // the box) and a direction out of it, between its faces' normals.
        double u = r.uniform(0.05, 0.95), phi = r.uniform(0.05, 1.5);
        V edge = q.b.type == CC_SHAPE_BOX ? convref::v3(length * (2 * u - 1), q.b.size.y, q.b.size.z)
                                          : convref::v3(length * (1 - u), q.b.size.y * u, 0.0);
        V out = q.b.type == CC_SHAPE_BOX ? convref::v3(0, std::cos(phi), std::sin(phi))
                                         : convref::unit(convref::v3(q.b.size.y, length, 0)) * std::cos(phi - 0.75) +
                                               convref::v3(0, 0, std::sin(phi - 0.75));
        convref::Pose pb = pose_of(q.b);
        V c = convref::to_world(pb, edge + out * (3.0 * extent(q.a)));
        q.a.pose.p = {(float)c.x, (float)c.y, (float)c.z};
        q.pose_class = kTouching;
        std::swap(q.a, q.b); // place_touching moves B: the small hull
        place_touching(&q, extent(q.b) * r.uniform(-0.001, 0.001));
        expect_clean(q);
    }
}

TEST(FuzzRegressions, CapsuleAlongABoxFaceKeepsTheFaceNormal)
{
    // A capsule 111 m long parallel to a 2 m box's face, just over it: all
    // along the face the segment is equally close, and rounding put its
    // closest point 4 um past the face's rim, which tilted the normal by
    // 4.4e-5 rad; across the segment's half length the tilted normal
    // separated 2.5 mm less than the distance claimed. Then the class:
    // long capsules parallel to a face, over it, in either order.
    Pair p;
    ASSERT_TRUE(parse_pair(
        "[parallel] A: capsule size (26.7389069 55.6770172 0) margin 0 gap 1.54607582 at (-384.121155 252.372284 "
        "204.526138) q (0.109616794 0.479389071 0.710849762 -0.502854705); B: box size (0.980114639 2.76453972 "
        "1.29898822) margin 0 gap 0 at (-383.812317 251.800049 205.883652) q (0.109616809 0.479389101 0.710849762 "
        "-0.502854764)",
        &p));
    expect_clean(p);
    Random r(1206);
    for (int i = 0; i < 300; ++i) {
        Pair q;
        double scale = r.log_uniform(0.01, 100.0);
        q.b = random_shape(r, CC_SHAPE_BOX, scale);
        q.b.margin = 0;
        q.b.pose.p = {(float)(scale * r.uniform(-100, 100)), (float)(scale * r.uniform(-100, 100)), 0.0f};
        q.a.type = CC_SHAPE_CAPSULE;
        q.a.size = {(float)(scale * r.log_uniform(0.01, 10.0)), (float)(scale * r.log_uniform(3.0, 100.0)), 0.0f};
        // The capsule's axis along the box's z, over its +x face (within the
        // face's y range), at a small gap; its orientation the box's, to
        // rounding.
        q.a.pose.q = q.b.pose.q;
        convref::Pose pb = pose_of(q.b);
        double gap = extent(q.b) * r.log_uniform(1e-4, 0.1);
        V c = convref::to_world(pb, convref::v3(q.b.size.x + gap + q.a.size.x, q.b.size.y * r.uniform(-0.9, 0.9),
                                                 q.b.size.z * r.uniform(-0.9, 0.9)));
        q.a.pose.p = {(float)c.x, (float)c.y, (float)c.z};
        q.a.gap = (float)(2 * gap);
        q.pose_class = kParallel;
        expect_clean(q);
    }
}

TEST(FuzzRegressions, SmallCapsulesDeepInsideLongEllipsoidsLeaveThroughTheTiltedWaist)
{
    // A capsule 4 m long at the centre of a 477 x 6188 x 490 ellipsoid: the
    // climb stopped on the ellipsoid's thin axis, 3 degrees and 3.6 cm (ten
    // tolerances) deeper than the optimum, where the segment's tilt is
    // traded against the nearly round waist. Each step along that valley
    // gains less than float resolves at 477 m, so the steps stopped; Newton's
    // method on the gradient walks it, and where the capsule's ends nearly
    // tie, the secant along its ridge. Then the class: small capsules at or
    // near the centre of long ellipsoids with a nearly round waist (13 of
    // these 300 were too deep before).
    Pair p;
    ASSERT_TRUE(parse_pair(
        "[coincident] A: capsule size (1.48189354 2.15065622 0) margin 0 gap 0.0713754296 at (-48.8056679 "
        "-41.4459953 -21.4826565) q (-0.192895293 -0.761143208 -0.618231535 -0.0352457203); B: ellipsoid size "
        "(477.169708 6188.54443 489.948975) margin 3.15595818 gap 1.22153664 at (-48.8056679 -41.4459953 "
        "-21.4826565) q (-0.03974206 -0.587094367 0.315591425 0.744407713)",
        &p));
    std::vector<cc_contact> c = contacts(p);
    ASSERT_EQ(c.size(), 1u);
    EXPECT_NEAR((double)c[0].distance + p.b.margin + p.a.size.x, reference(p).distance, 2e-3); // 3.6 cm before
    expect_clean(p, false);
    Random r(1207);
    for (int i = 0; i < 300; ++i) {
        Pair q;
        double waist = r.log_uniform(0.1, 1000.0);
        q.b.type = CC_SHAPE_ELLIPSOID;
        q.b.size = {(float)waist, (float)(waist * r.uniform(5.0, 20.0)), (float)(waist * r.uniform(1.0, 1.1))};
        q.b.pose = {{0.0f, 0.0f, 0.0f}, r.rotation()};
        q.a.type = CC_SHAPE_CAPSULE;
        q.a.size = {(float)(waist * r.log_uniform(1e-3, 1e-2)), (float)(waist * r.log_uniform(1e-3, 2e-2)), 0.0f};
        q.a.pose.q = r.rotation();
        V at = r.direction() * (waist * r.uniform(0.0, 0.01));
        q.a.pose.p = {(float)at.x, (float)at.y, (float)at.z};
        q.pose_class = kCoincident;
        expect_clean(q, false);
    }
}

TEST(FuzzRegressions, RoundShapesBesideALongEdgeFollowItsRidge)
{
    // A cone's rim 7 cm from the middle of a tetrahedron's 53 m edge: the
    // secant along the edge's ridge took its slope through a tangent from
    // the difference of two rounded directions, which leaned 1e-4 along the
    // edge; times the 25 m to the edge's far end that swamped the slope,
    // and the answer stayed 2 degrees off, 0.15 mm (two tolerances) short.
    // Likewise a small ellipsoid beside a 7 m edge. Then the class: small
    // round shapes near the middle of an edge 30 to 300 times their size,
    // of a scaled tetrahedron, a little apart. (Of 3,000 such pairs 4
    // failed before and one, 2 um short at a cone's rim, still does; this
    // runs the first 1,000. Edges thousands of times the shape's size
    // still fail about once in a thousand.)
    const char* samples[] = {
        "[touching] A: cone size (0.22069329 0.111644894 0) margin 0 gap 0.00120944413 at (-0.247373372 "
        "-0.872996211 0.252815694) q (0.790009975 -0.5485605 0.0362329707 0.271390527); B: convex hull size "
        "(5.82244968 11.1641865 53.0779686) margin 0.0705348477 gap 0 at (-4.38292551 2.49470162 -3.3138206) q "
        "(-0.319646835 -0.932873785 -0.0505500585 -0.158168048) (4 hull points) points {1 1 1, 1 -1 -1, -1 1 -1, "
        "-1 -1 1}",
        "[touching] A: ellipsoid size (0.0085521508 0.0218445975 0.0051748585) margin 0 gap 4.14124806e-05 at "
        "(-0.0661854446 0.113756545 0.016090339) q (-0.257496476 0.0240745209 -0.949489594 0.177723035); B: convex "
        "hull size (0.15449214 0.290259928 3.68153477) margin 0 gap 0 at (-0.0133064007 0.276395351 -0.25539279) q "
        "(-0.350888491 0.393636018 -0.457095325 -0.716234446) (4 hull points) points {1 1 1, 1 -1 -1, -1 1 -1, -1 "
        "-1 1}"};
    for (const char* s : samples) {
        Pair p;
        ASSERT_TRUE(parse_pair(s, &p));
        expect_clean(p);
    }
    Random r(1208);
    const cc_shape_type round[] = {CC_SHAPE_CONE, CC_SHAPE_ELLIPSOID, CC_SHAPE_CYLINDER, CC_SHAPE_CAPSULE};
    for (int i = 0; i < 1000; ++i) {
        Pair q;
        double scale = r.log_uniform(0.01, 10.0);
        q.a.type = CC_SHAPE_CONVEX_HULL;
        q.a.hull = {{1, 1, 1}, {1, -1, -1}, {-1, 1, -1}, {-1, -1, 1}};
        q.a.size = {(float)(scale * r.log_uniform(1.0, 30.0)), (float)(scale * r.log_uniform(1.0, 30.0)),
                    (float)(scale * r.log_uniform(30.0, 300.0))};
        q.a.pose = {{(float)(scale * r.uniform(-10, 10)), (float)(scale * r.uniform(-10, 10)), 0.0f}, r.rotation()};
        q.b = random_shape(r, round[i % 4], scale);
        // A point on the edge from (1, 1, 1) to (1, -1, -1), away from its
        // ends, and a direction out of it between its two faces' normals
        // (+x, tilted towards y - z or y + z).
        double u = r.uniform(0.2, 0.8), tilt = r.uniform(-0.6, 0.6);
        V edge = convref::v3(q.a.size.x, q.a.size.y * (1 - 2 * u), q.a.size.z * (1 - 2 * u));
        V out = convref::unit(convref::v3(1.0, tilt, tilt));
        V c = convref::to_world(pose_of(q.a), edge + out * (3.0 * extent(q.b)));
        q.b.pose.p = {(float)c.x, (float)c.y, (float)c.z};
        q.pose_class = kTouching;
        place_touching(&q, extent(q.b) * r.log_uniform(1e-3, 0.3));
        expect_clean(q);
    }
}

TEST(FuzzRegressions, SideLinesLyingFlatOnARoundSurfaceTouchAtTheEndThatDips)
{
    // A cylinder 2.5 mm across lying on its side on an ellipsoid that
    // curves about a metre under it, nearest at one end: the secant along
    // the side's ridge made the normal square to the side, where either end
    // supports it; the sharpening kept the end nearer the ellipsoid, but
    // the contact took the other, 3.3 mm (1.6 sizes) across the normal from
    // the ellipsoid's point. Likewise a 7 m cylinder on an ellipsoid 1.5 km
    // across. Then the class: small cylinders and capsules lying along a
    // large flat ellipsoid, one end dipping a little more than the
    // ellipsoid curves away under it (the nearest point at that end), a
    // little apart. (Of these 600, 20 missed by up to 2.2 sizes before.)
    const char* samples[] = {
        "[touching] A: cylinder size (0.00126393896 0.0014427281 0) margin 0 gap 4.57258238e-06 at (-0.007337288 "
        "0.0166272428 0.00370439212) q (-0.0241825543 0.139335215 -0.30795452 0.940832019); B: ellipsoid size "
        "(0.192455918 0.0368901044 0.221692041) margin 0.00645560585 gap 0 at (0.0964091644 0.00574222393 "
        "0.0132998396) q (-0.572565317 -0.0269266926 -0.800569832 0.174733698)",
        "[touching] A: cylinder size (7.37409592 4.25985909 0) margin 0.0477715619 gap 0.458600134 at (14.0449286 "
        "15.9742994 1.65524828) q (-0.985469699 0.0800294429 0.070895426 -0.131979436); B: ellipsoid size "
        "(1490.37561 8735.39258 5177.5957) margin 91.1398239 gap 238.667572 at (-1659.59766 -3933.61914 "
        "-670.349731) q (0.981359363 0.00888857339 -0.150947198 0.118616082)"};
    for (const char* s : samples) {
        Pair p;
        ASSERT_TRUE(parse_pair(s, &p));
        expect_clean(p);
    }
    Random r(4412);
    double worst = 0;
    for (int i = 0; i < 600; ++i) {
        Pair q;
        double scale = r.log_uniform(0.01, 100.0);
        q.a.type = CC_SHAPE_ELLIPSOID;
        q.a.size = {(float)scale, (float)(scale * r.log_uniform(0.1, 1.0)), (float)(scale * r.log_uniform(1.0, 3.0))};
        q.a.pose = {{0, 0, 0}, {0, 0, 0, 1}};
        q.b = random_shape(r, i % 2 ? CC_SHAPE_CYLINDER : CC_SHAPE_CAPSULE, scale * r.log_uniform(1e-3, 1e-2));
        // A point of the ellipsoid, its normal, and a tangent there tilted
        // towards the ellipsoid by a small angle: the side's direction.
        V u = r.direction(), k = to_v(q.a.size);
        V s = convref::v3(k.x * u.x, k.y * u.y, k.z * u.z);
        V m = convref::unit(convref::v3(s.x / (k.x * k.x), s.y / (k.y * k.y), s.z / (k.z * k.z)));
        V t = r.direction();
        t = convref::unit(t - m * convref::dot(t, m));
        // Along the side the gap grows by kappa / 2 per square metre (the
        // ellipsoid's normal curvature along t) and falls by the dip per
        // metre: a dip a little past kappa times the half length puts the
        // nearest point at an end, nearly tied with the side's middle.
        V g = convref::v3(s.x / (k.x * k.x), s.y / (k.y * k.y), s.z / (k.z * k.z));
        double kappa = (t.x * t.x / (k.x * k.x) + t.y * t.y / (k.y * k.y) + t.z * t.z / (k.z * k.z)) / convref::norm(g);
        double dip = kappa * q.b.size.y * (1.0 + r.log_uniform(1e-4, 1.0)) * (r.chance(0.5) ? 1 : -1);
        V axis = convref::unit(t * std::cos(dip) - m * std::sin(dip));
        // The rotation taking local z to the axis.
        V z = convref::v3(0, 0, 1), turn = convref::cross(z, axis);
        double sn = convref::norm(turn), cs = convref::dot(z, axis), half = 0.5 * std::atan2(sn, cs);
        V w = sn > 0 ? turn * (std::sin(half) / sn) : convref::v3(1, 0, 0) * std::sin(half);
        q.b.pose.q = normalized({(float)w.x, (float)w.y, (float)w.z, (float)std::cos(half)});
        double small = extent(q.b);
        V c = s + m * (q.b.size.x + small * r.log_uniform(1e-4, 0.3));
        q.b.pose.p = {(float)c.x, (float)c.y, (float)c.z};
        q.pose_class = kTouching;
        for (const cc_contact& ct : contacts(q)) {
            double miss = witness_miss(ct);
            worst = std::max(worst, miss / small);
            EXPECT_LE(miss, pair_tolerance(q) + 1e-2 * small) << describe(q);
        }
    }
    std::printf("worst miss: %.3g of the smaller size\n", worst);
}

// A long capsule sunk by nearly its radius into a box ten to a thousand
// times shorter, lying across the direction between them, away from the
// origin. The closest pair's direction came from points a few ulps of the
// segment's coordinates apart across a gap of the box's size, so it leaned
// along the segment, and over the segment's length that normal separated
// less than the contact's distance (fuzzing found it on boxes of a
// micrometre; this class failed in 164 of 300 pairs). The fuzz finding,
// then the class.
TEST(FuzzRegressions, LongCapsulesSunkIntoSmallBoxesKeepASeparatingNormal)
{
    Pair p;
    ASSERT_TRUE(parse_pair(
        "[random] A: capsule size (0.00601077359 0.00710935611 0) margin 0 gap 0.000180594376 at (-0.0439496152 "
        "-0.0756122023 0.0602163039) q (-0.365443051 0.699124455 -0.353260666 -0.50287503); B: box size "
        "(0.00036168014 0.000143281068 0.000202770781) margin 3.18685088e-05 gap 2.03285563e-05 at (-0.0442436747 "
        "-0.0757044852 0.0599735305) q (-0.152959913 0.08589302 -0.842334807 -0.509605467)",
        &p));
    expect_clean(p);
    Random r(2207);
    for (int i = 0; i < 300; ++i) {
        Pair q;
        double box = r.log_uniform(3e-6, 1e-2);
        q.b.type = CC_SHAPE_BOX;
        q.b.size = {(float)(box * r.uniform(0.3, 1)), (float)(box * r.uniform(0.3, 1)), (float)(box * r.uniform(0.3, 1))};
        double half = box * r.log_uniform(10, 1e3);
        q.a.type = CC_SHAPE_CAPSULE;
        q.a.size = {(float)(half * r.log_uniform(0.05, 1)), (float)half, 0.0f};
        // The capsule's axis square to u, the direction from the box to it,
        // within a degree; the box's nearest point faces the segment's
        // inside.
        V u = r.direction();
        V axis = r.direction();
        axis = convref::unit(axis - u * convref::dot(axis, u) + u * r.uniform(-0.017, 0.017));
        if (axis.z < 0) axis = axis * -1.0;
        double qn = std::sqrt(axis.x * axis.x + axis.y * axis.y + (1 + axis.z) * (1 + axis.z));
        q.a.pose.q = {(float)(-axis.y / qn), (float)(axis.x / qn), 0.0f, (float)((1 + axis.z) / qn)};
        V offset = r.direction() * (half * r.uniform(1, 20));
        V c = offset + u * (q.a.size.x + 2.0 * box) + axis * (half * r.uniform(-0.8, 0.8));
        q.a.pose.p = {(float)c.x, (float)c.y, (float)c.z};
        q.b.pose = {{(float)offset.x, (float)offset.y, (float)offset.z}, r.rotation()};
        q.pose_class = kTouching;
        // The segment a thousandth of the box to the box's size from it:
        // the capsule deep in the box, by nearly its radius.
        place_touching(&q, box * r.log_uniform(1e-3, 1) - q.a.size.x);
        expect_clean(q);
    }
}

// A cone's apex a little under a box's face and next to one of its edges
// (m inside the edge, d under the face, m < 0.41 d): the face's normal
// separates by -d, the edge's bisector by -(d + m) / sqrt(2), and the
// optimum lies beyond the bisector, where the edge meets the cone's side.
// With the apex on the edge's line, sep has zero slope at the face's normal
// and the climb stopped there, twice as deep as the pair overlaps (fuzzing
// found the apex 2e-6 m inside the edge). The near faces' bisectors with
// the answer are now starts too. The fuzz finding, then the class: before,
// 32 of its 300 pairs came out too deep; now 3 still do (cones that lean
// well over the edge), by at most 0.15 % of the box, and nothing else is
// found. The bounds below leave room for rounding on other compilers.
TEST(FuzzRegressions, ConeApexesUnderABoxFaceBesideAnEdgeMeetTheEdge)
{
    Pair p;
    ASSERT_TRUE(parse_pair(
        "[touching] A: box size (0.183154091 0.384512365 0.657731771) margin 0 gap 0 at (4.57299423 4.28526926 "
        "6.55308294) q (-0.402084202 0.188964844 -0.570191026 0.69101578); B: cone size (0.915457606 1.55270159 0) "
        "margin 0 gap 0.0200798642 at (5.29127455 2.82432413 7.08307838) q (-0.350710094 0.72749263 0.538767517 "
        "0.239763439)",
        &p));
    expect_clean(p);
    Random r(20261207);
    int deep_pairs = 0;
    double worst_deep = 0.0;
    for (int i = 0; i < 300; ++i) {
        Pair q;
        double box = r.log_uniform(1e-3, 1.0);
        q.a.type = CC_SHAPE_BOX;
        V h = {box * r.uniform(0.3, 1), box * r.uniform(0.3, 1), box * r.uniform(0.3, 1)};
        q.a.size = {(float)h.x, (float)h.y, (float)h.z};
        q.a.pose = {{0.0f, 0.0f, 0.0f}, {0.0f, 0.0f, 0.0f, 1.0f}};
        q.b.type = CC_SHAPE_CONE;
        double radius = box * r.log_uniform(0.5, 5), half = box * r.log_uniform(0.5, 5);
        q.b.size = {(float)radius, (float)half, 0.0f};
        // The apex d under the +x face and m inside its edge with +y; the
        // axis (base to apex) into the box, leaning over either side.
        double d = box * r.log_uniform(1e-4, 1e-2), m = d * r.uniform(0.0, 0.4);
        V apex = {h.x - d, h.y - m, h.z * r.uniform(-0.8, 0.8)};
        V axis = convref::unit(V{-1.0, r.uniform(-0.7, 0.7), r.uniform(-0.7, 0.7)});
        double qn = std::sqrt(axis.x * axis.x + axis.y * axis.y + (1 + axis.z) * (1 + axis.z));
        q.b.pose.q = {(float)(-axis.y / qn), (float)(axis.x / qn), 0.0f, (float)((1 + axis.z) / qn)};
        V c = apex - axis * half;
        q.b.pose.p = {(float)c.x, (float)c.y, (float)c.z};
        q.pose_class = kTouching;
        deep_pairs += clean_but(q, kDeep, &worst_deep);
    }
    EXPECT_LE(deep_pairs, 6);
    EXPECT_LE(worst_deep, 0.005);
}

TEST(FuzzRegressions, SmallBoxesAtALargeBoxsRimTakeTheirExactDistance)
{
    // A 2 mm box 22 um from a metre-sized box beside its face's rim: the
    // face manifold (26 um along the face normal) was accepted within the
    // pair's linear tolerance (6 um, grown with the large box), although
    // the nearest corner lies 21.7 um from the rim. And a 1 m box sunk
    // 0.7 mm into a 170 m one across an edge: the face axis, 0.34 mm
    // deeper, was preferred within that tolerance.
    const char* found[2] = {
        "[touching] A: box size (0.00201575877 0.00352987018 0.00315209804) margin 2.17272627e-05 gap 0.000238811394 "
        "at (-0.00251172995 -0.00541040208 0.00798930973) q (0.717327714 0.259222776 -0.197390139 0.615858436); B: "
        "box size (0.364273161 0.725491047 0.675266683) margin 0 gap 0 at (0.50453037 -0.105714731 -0.620555818) q "
        "(0.0422037095 -0.515365303 -0.517147303 -0.682038248)",
        "[touching] A: box size (0.0509155206 1.00279725 0.504580557) margin 0 gap 0 at (-1.47932327 0.827547908 "
        "-1.8965708) q (0.573021293 -0.573026896 -0.153360412 -0.565479755); B: box size (85.4677887 26.7835255 "
        "5.08827925) margin 0 gap 0 at (12.1690359 -5.25341988 35.3326874) q (-0.0543041751 0.740170658 "
        "0.625648856 0.240337119)"};
    for (const char* text : found) {
        Pair p;
        ASSERT_TRUE(parse_pair(text, &p));
        expect_clean(p);
    }
    // The class: boxes 10^2 to 10^3 times smaller than the other, a little
    // apart from or into it at random poses near its rim (an edge or a
    // corner of the large box within reach).
    Random r(20261208);
    for (int i = 0; i < 400; ++i) {
        Pair q;
        double big = r.log_uniform(0.1, 100.0);
        q.a.type = q.b.type = CC_SHAPE_BOX;
        q.a.size = {(float)(big * r.uniform(0.3, 1)), (float)(big * r.uniform(0.3, 1)), (float)(big * r.uniform(0.3, 1))};
        q.a.pose = {{(float)r.uniform(-big, big), (float)r.uniform(-big, big), (float)r.uniform(-big, big)}, r.rotation()};
        double small = big * r.log_uniform(1e-3, 1e-2);
        q.b.size = {(float)(small * r.uniform(0.3, 1)), (float)(small * r.uniform(0.3, 1)),
                    (float)(small * r.uniform(0.3, 1))};
        q.b.pose.q = r.rotation();
        // Start beyond a corner of the large box, off its diagonal by up to
        // the small box's size on each axis, so that faces, edges and the
        // corner all compete for the nearest feature.
        V corner = {q.a.size.x * (r.chance(0.5) ? 1.0 : -1.0), q.a.size.y * (r.chance(0.5) ? 1.0 : -1.0),
                    q.a.size.z * (r.chance(0.5) ? 1.0 : -1.0)};
        V local = corner + V{r.uniform(-3, 1), r.uniform(-3, 1), r.uniform(-3, 1)} * small;
        V c = convref::to_world(pose_of(q.a), local);
        q.b.pose.p = {(float)c.x, (float)c.y, (float)c.z};
        q.pose_class = kTouching;
        place_touching(&q, small * r.uniform(-0.02, 0.02));
        expect_clean(q);
    }
}

TEST(FuzzRegressions, RoundRimsApartFromALongEdgeFaceItsNearestPoint)
{
    // A cone's rim 0.61 m from the middle of a 26 m box edge: the normal
    // converges slowly against a curved rim and came out 2 mrad off
    // square to the edge, so the edge's support set along it was its end
    // vertex, 0.58 m along the edge from the point opposite the rim's.
    Pair p;
    ASSERT_TRUE(parse_pair(
        "[touching] A: box size (0.883603036 4.48400068 13.0041752) margin 0.00752589945 gap 0.582662106 at "
        "(9.97036171 22.70158 1.1618247) q (-0.00977410097 -0.44264105 -0.0739766136 -0.893588722); B: cone size "
        "(7.06848431 6.82197332 0) margin 0.605666518 gap 0 at (9.69051647 13.7092047 -3.84694862) q (0.251344979 "
        "-0.0161762033 0.912075222 -0.323547155)",
        &p));
    expect_clean(p);
    // The class: cylinders, cones and ellipsoids a little apart from a long
    // edge of a box, beside its middle, in the edge's wedge.
    Random r(20261209);
    const cc_shape_type round[3] = {CC_SHAPE_CYLINDER, CC_SHAPE_CONE, CC_SHAPE_ELLIPSOID};
    int deep_pairs = 0;
    double worst_deep = 0.0;
    for (int i = 0; i < 300; ++i) {
        Pair q;
        double size = r.log_uniform(0.01, 10.0);
        q.a.type = CC_SHAPE_BOX;
        V h = {size * r.uniform(0.05, 0.5), size * r.uniform(2, 10), size * r.uniform(0.05, 0.5)};
        q.a.size = {(float)h.x, (float)h.y, (float)h.z};
        q.a.pose = {{(float)r.uniform(-size, size), (float)r.uniform(-size, size), (float)r.uniform(-size, size)},
                    r.rotation()};
        q.b = random_shape(r, round[i % 3], h.y * r.log_uniform(0.1, 1.0));
        double phi = r.uniform(0.1, 1.47);
        V out = {std::cos(phi), 0.0, std::sin(phi)};
        V edge = {h.x, h.y * r.uniform(-0.5, 0.5), h.z};
        V c = convref::to_world(pose_of(q.a), edge + out * (2.0 * extent(q.b)));
        q.b.pose.p = {(float)c.x, (float)c.y, (float)c.z};
        q.pose_class = kTouching;
        place_touching(&q, extent(q.b) * r.log_uniform(1e-3, 0.1));
        deep_pairs += clean_but(q, kDeep, &worst_deep);
    }
    // What is left of the class: a small cylinder a millimetre from the
    // edge can have its climb stop on the face beside it, its distance a
    // few 1e-5 of its size short (once in 300 pairs of a sample with
    // smaller round shapes, none in this one); a probe turn that gains
    // there would overshoot past the long edge's far end.
    EXPECT_LE(deep_pairs, 2);
    EXPECT_LE(worst_deep, 1e-4);
}

TEST(FuzzRegressions, CapsNearlyParallelApartTouchAtTheRimPointThatSupports)
{
    // A cylinder of radius 4.3 over the cap of one of radius 25, 0.1 apart,
    // its cap tilted a little: the witness was the deepest corner of the
    // caps' inscribed polygons' overlap, 0.19 from the other cap, where the
    // rim point between two corners lies 0.10 from it.
    Pair p;
    ASSERT_TRUE(parse_pair(
        "[touching] A: cylinder size (4.31259871 1.95250559 0) margin 0.0470957011 gap 0 at (33.991375 -4.53070736 "
        "-20.0368118) q (-0.30972442 0.386911005 0.694185734 -0.521993101); B: cylinder size (25.0958538 12.2851028 0) "
        "margin 0.0550920963 gap 1.35010469 at (25.6063042 -16.4744091 2.01311994) q (-0.374471426 0.343320549 "
        "0.78000927 -0.365359634)",
        &p));
    expect_clean(p);
    // The class: a cylinder or cone standing on its cap (a cone on its
    // base) over a larger cap or box face near its rim, tilted by 0.1 to 5
    // degrees (the caps still faces) along the overhang, a little apart,
    // with margins and a gap, everything turned at random. (Without the
    // margins and the gap no pair of the class failed before the fix; with
    // them 16 of 300 did.)
    Random r(20261211);
    int witness_pairs = 0;
    double worst_witness = 0.0;
    const cc_shape_type under[2] = {CC_SHAPE_CYLINDER, CC_SHAPE_BOX};
    const cc_shape_type over[2] = {CC_SHAPE_CYLINDER, CC_SHAPE_CONE};
    for (int i = 0; i < 300; ++i) {
        Pair q;
        double big = r.log_uniform(0.01, 100.0);
        q.b.type = under[i % 2];
        q.b.size = q.b.type == CC_SHAPE_BOX ? cc_vec3{(float)big, (float)big, (float)(big * r.uniform(0.1, 1))}
                                            : cc_vec3{(float)big, (float)(big * r.uniform(0.1, 1)), 0.0f};
        double radius = big * r.log_uniform(0.05, 0.4), half = radius * r.log_uniform(0.2, 3);
        q.a.type = over[(i / 2) % 2];
        q.a.size = {(float)radius, (float)half, 0.0f};
        q.a.margin = (float)(0.01 * radius);
        q.b.margin = (float)(0.002 * big);
        q.b.gap = (float)(0.05 * big);
        // A's centre from its radius inside the rim to half of it past, its
        // base down (a cylinder's either cap; a cone's base is its -z end),
        // tilted across the rim: about the azimuth's tangent, +-17 degrees.
        double at = r.uniform(0.0, 2.0 * M_PI), out = big + r.uniform(-1.0, 0.5) * radius;
        double tilt = r.uniform(0.1, 5.0) * M_PI / 180.0, yaw = at + (i % 3 ? 0.5 : -0.5) * M_PI + r.uniform(-0.3, 0.3);
        double sh = std::sin(0.5 * tilt);
        cc_quat qa = {(float)(std::cos(yaw) * sh), (float)(std::sin(yaw) * sh), 0.0f, (float)std::cos(0.5 * tilt)};
        double top = q.b.type == CC_SHAPE_BOX ? q.b.size.z : q.b.size.y;
        V c = {out * std::cos(at), out * std::sin(at), top + half + 0.05 * radius};
        cc_quat turn = r.rotation();
        q.a.pose = {{0, 0, 0}, normalized(cc_q_mul(turn, qa))};
        q.b.pose = {{0, 0, 0}, turn};
        V w = convref::to_world(pose_of(q.b), c);
        q.a.pose.p = {(float)w.x, (float)w.y, (float)w.z};
        q.pose_class = kTouching;
        place_touching(&q, radius * r.log_uniform(1e-3, 0.1));
        witness_pairs += clean_but(q, kWitness, &worst_witness);
    }
    // What is left: 11 pairs whose witness still misses, by at most 0.034
    // of the smaller size, where no rim point realises the distance to the
    // tolerance (the step takes none that does not: a rim point lifted 0.002
    // short of the distance put a cone's contact off its base).
    EXPECT_LE(witness_pairs, 11);
    EXPECT_LE(worst_witness, 0.04);
}

// A cone's apex just past a flat round shape's rim: the two meet at points
// (apex and rim, or apex and a cylinder's side line) along one normal, and
// a little way round the cone's side touches the rim, which is the
// shallower way out. The side normal tried beside the answer, at the
// answer's azimuth, separated by a large fraction of the size less than
// the side's optimum a few degrees round, and no climb was made from it:
// 0.104 deep against 0.071 (two cones 264 and 306 in size, 1,000 m from
// the origin). Of the 300 generated pairs, 5 were too deep before.
TEST(FuzzRegressions, ConeApexesJustPastARimLeaveThroughTheConesSide)
{
    Pair p;
    ASSERT_TRUE(parse_pair(
        "[touching] A: cone size (46.0230865 263.957153 0) margin 0.132909164 gap 0.200869858 at (-338.198883 "
        "485.964386 -803.34729) q (0.598276317 0.21812056 -0.650592387 0.413785458); B: cone size (306.393707 "
        "26.8427868 0) margin 0 gap 0 at (-613.72168 321.177063 -1034.61902) q (-0.752175033 0.302388638 "
        "-0.27963832 0.514389217)",
        &p));
    expect_clean(p);
    Random r(20261208);
    int deep_pairs = 0;
    double worst_deep = 0.0;
    for (int i = 0; i < 300; ++i) {
        Pair q;
        double size = r.log_uniform(1e-2, 300.0);
        double ha = size, ra = ha * r.uniform(0.1, 0.5);
        double rb = size * r.log_uniform(0.5, 3.0), hb = rb * r.uniform(0.05, 0.3);
        q.a = shape(CC_SHAPE_CONE, {(float)ra, (float)ha, 0.0f}, {0.0f, 0.0f, 0.0f}, {0.0f, 0.0f, 0.0f, 1.0f});
        q.b = shape(r.chance(0.5) ? CC_SHAPE_CONE : CC_SHAPE_CYLINDER, {(float)rb, (float)hb, 0.0f},
                    {0.0f, 0.0f, 0.0f}, r.rotation());
        // A rim point of B's base at A's apex, then B moved along the
        // reference normal to a small overlap; the pair far from the origin.
        double phi = r.uniform(0.0, 6.283185307);
        cc_vec3 rim = cc_q_rotate(q.b.pose.q, {(float)(rb * std::cos(phi)), (float)(rb * std::sin(phi)), (float)-hb});
        V offset = r.direction() * (size * r.uniform(0.0, 4.0));
        q.a.pose.p = {(float)offset.x, (float)offset.y, (float)offset.z};
        q.b.pose.p = {(float)(offset.x - rim.x), (float)(offset.y - rim.y), (float)(offset.z + ha - rim.z)};
        place_touching(&q, -size * r.log_uniform(1e-5, 1e-3));
        q.pose_class = kTouching;
        deep_pairs += clean_but(q, kDeep, &worst_deep);
    }
    EXPECT_EQ(deep_pairs, 0) << "worst excess " << worst_deep;
}

// A small cone deep inside a large one, one of its side lines within 3
// degrees of the large cone's side: the secant along the small cone's
// ridge of side normals took a step whose tangent overflowed, and the sharpened normal came out 0.35 long (and 0.6 too
// shallow). Found by a million-pair run of the cone-cone route.
TEST(FuzzRegressions, RidgeSecantStepsNeverLeaveTheUnitSphere)
{
    Pair p;
    ASSERT_TRUE(parse_pair(
        "[random] A: cone size (0.0151039874 0.0202941857 0) margin 0.0016994857 gap 7.33660199e-05 at "
        "(-0.64057982 0.311887115 -0.207141161) q (-0.718924999 0.599659085 0.338599771 -0.0943715125); B: cone "
        "size (19.7983246 16.1684818 0) margin 1.96199226 gap 0.00696195522 at (-0.549322009 -4.35694027 "
        "-0.989173114) q (0.0224931836 -0.197659716 0.918798327 0.340931505)",
        &p));
    expect_clean(p);
    for (const cc_contact& c : contacts(p)) {
        double l = std::sqrt((double)c.normal.x * c.normal.x + (double)c.normal.y * c.normal.y +
                             (double)c.normal.z * c.normal.z);
        EXPECT_NEAR(l, 1.0, 1e-5);
    }
    // The flat slope is a thin set of poses: the pair turned and moved a
    // little (A by up to 1e-3 rad and 1e-2 m) meets it about once in four
    // without the guard, and a 1e-2 rad turn about once in forty.
    Random r(20261207);
    int non_unit = 0;
    for (int i = 0; i < 200; ++i) {
        Pair q = p;
        double amp = r.log_uniform(1e-5, 1e-3);
        V w = r.direction() * amp, o = r.direction() * (10.0 * amp);
        q.a.pose.q = normalized(cc_q_mul(normalized({(float)w.x, (float)w.y, (float)w.z, 1.0f}), q.a.pose.q));
        q.a.pose.p = {q.a.pose.p.x + (float)o.x, q.a.pose.p.y + (float)o.y, q.a.pose.p.z + (float)o.z};
        for (int swap = 0; swap < 2; ++swap)
            for (const cc_contact& c : contacts(q, swap == 1)) {
                double l = std::sqrt((double)c.normal.x * c.normal.x + (double)c.normal.y * c.normal.y +
                                     (double)c.normal.z * c.normal.z);
                non_unit += std::fabs(l - 1.0) > 1e-5;
            }
        expect_clean(q, false);
    }
    EXPECT_EQ(non_unit, 0);
}

// The class of the pair above: small cones deep inside large ones, one of
// the small cone's side lines within a few degrees of lying along the
// large cone's side where the small one is nearest to it, so the
// sharpening's secant runs along the small cone's ridge of side normals.
TEST(FuzzRegressions, SmallConesDeepInsideLargeOnesKeepUnitNormals)
{
    Random r(20261207);
    for (int i = 0; i < 300; ++i) {
        double size = r.log_uniform(1e-2, 1e4);
        double rb = size * r.uniform(0.4, 1.5), hb = size;
        double ha = size * r.log_uniform(1e-4, 0.2), ra = ha * r.uniform(0.3, 1.5);
        Pair q;
        q.b = shape(CC_SHAPE_CONE, {(float)rb, (float)hb, 0.0f}, {0.0f, 0.0f, 0.0f}, r.rotation(),
                    (float)(size * r.uniform(0.0, 0.1)), (float)(size * r.log_uniform(1e-6, 1e-3)));
        // A point well inside B, in B's frame (B's radius at height z is
        // rb (hb - z) / (2 hb)), and B's outward side normal there.
        double phi = r.uniform(0.0, 6.283185307), z = hb * r.uniform(-0.6, 0.6);
        double rho = r.uniform(0.0, 0.7) * rb * (hb - z) / (2.0 * hb);
        double lb = std::sqrt(4.0 * hb * hb + rb * rb);
        V side = to_v(cc_q_rotate(q.b.pose.q, {(float)(2.0 * hb * std::cos(phi) / lb),
                                               (float)(2.0 * hb * std::sin(phi) / lb), (float)(rb / lb)}));
        cc_vec3 at = cc_q_rotate(q.b.pose.q, {(float)(rho * std::cos(phi)), (float)(rho * std::sin(phi)), (float)z});
        // A's axis at A's side-normal angle from -side (give or take 3
        // degrees), turned about it at random: A's side line facing B's
        // side then lies nearly along it.
        double la = std::sqrt(4.0 * ha * ha + ra * ra);
        double theta = std::acos(ra / la) + r.uniform(-0.05, 0.05);
        V e = r.direction();
        e = e - side * convref::dot(e, side);
        e = e * (1.0 / std::sqrt(convref::dot(e, e)));
        V axis = side * -std::cos(theta) + e * std::sin(theta);
        cc_quat turn = axis.z > -0.999 ? normalized({(float)-axis.y, (float)axis.x, 0.0f, (float)(1.0 + axis.z)})
                                       : cc_quat{1.0f, 0.0f, 0.0f, 0.0f};
        q.a = shape(CC_SHAPE_CONE, {(float)ra, (float)ha, 0.0f}, at, turn, (float)(ha * r.uniform(0.0, 0.1)),
                    (float)(ha * r.log_uniform(1e-6, 1e-2)));
        q.pose_class = kRandom;
        std::vector<cc_contact> ab = contacts(q), ba = contacts(q, true);
        for (const std::vector<cc_contact>* cs : {&ab, &ba})
            for (const cc_contact& c : *cs) {
                double l = std::sqrt((double)c.normal.x * c.normal.x + (double)c.normal.y * c.normal.y +
                                     (double)c.normal.z * c.normal.z);
                EXPECT_NEAR(l, 1.0, 1e-5) << describe(q);
            }
        std::vector<Finding> f = score(q, ab), g = score(q, ba), s = score_swap(q, ab, ba);
        for (const std::vector<Finding>* fs : {&f, &g, &s})
            for (const Finding& x : *fs) ADD_FAILURE() << check_name(x.check) << ": " << x.detail << " -- " << describe(q);
    }
}

// A long thin cylinder whose end lies under a flat cylinder's rim,
// overlapping it by a fifth of its radius: 0.05 of its length, too shallow
// against the extent for any start but the centres' ray, which climbed to
// the end cap (10 % too deep). Overlaps are measured against the cores'
// thinnest half width now. Found by a million-pair run of the
// cylinder-cylinder route; the family: long thin cylinders and boxes,
// their ends under the rim of a flat cylinder or box, overlapping it by
// 6 to 40 % of their thickness.
TEST(FuzzRegressions, LongThinShapesEndingUnderARimLeaveThroughTheirSide)
{
    Pair p;
    ASSERT_TRUE(parse_pair(
        "[random] A: cylinder size (0.35240528 1.63274586 0) margin 0 gap 0 at (-1.37048864 -0.321093142 -1.778144) q "
        "(0.422811061 0.06619142 -0.355797589 -0.830817401); B: cylinder size (2.06727266 0.450978786 0) margin "
        "0.181152165 gap 0.146893531 at (-1.87507784 2.63499236 0.371555328) q (-0.382112443 -0.443574727 "
        "-0.602271557 -0.542679012)",
        &p));
    expect_clean(p, false);
    EXPECT_NEAR(min_distance(contacts(p)), -0.0720891559 - 0.181152165, 2e-4);
    Random r(20261209);
    int deep_pairs = 0;
    double worst_deep = 0.0;
    for (int i = 0; i < 400; ++i) {
        double size = r.log_uniform(1e-2, 100.0);
        // B, flat, in its own frame: a disk of radius R or a square plate
        // of half side R, half thickness H.
        bool disk = r.chance(0.5);
        double R = size, H = size * r.uniform(0.05, 0.4);
        // A, long and thin: radius (or half width) t, half length L.
        bool rod = r.chance(0.5);
        double t = size * r.uniform(0.05, 0.3), L = size * r.uniform(0.8, 2.0);
        // A's end under B's rim at azimuth phi (a plate's rim: its face's
        // edge along x), A coming in from outside.
        double phi = disk ? r.uniform(0.0, 6.283185307) : 0.0;
        V out = convref::v3(std::cos(phi), std::sin(phi), 0.0), side = convref::v3(-std::sin(phi), std::cos(phi), 0.0);
        double turn = r.uniform(-0.7, 0.7), tilt = r.uniform(-0.15, 0.15);
        V axis = out * -std::cos(turn) + side * std::sin(turn) + convref::v3(0.0, 0.0, tilt);
        axis = axis * (1.0 / std::sqrt(convref::dot(axis, axis)));
        double overlap = t * r.uniform(0.06, 0.4);
        V end = out * (R + t * r.uniform(-0.5, 0.5)) + convref::v3(0.0, 0.0, -H - t + overlap);
        V centre = end - axis * L;
        // Into the world: one rotation and offset for both.
        cc_quat w = r.rotation();
        V at = r.direction() * (size * r.uniform(0.0, 5.0));
        cc_vec3 ca = cc_q_rotate(w, {(float)centre.x, (float)centre.y, (float)centre.z});
        cc_quat qa = axis.z > -0.999 ? normalized({(float)-axis.y, (float)axis.x, 0.0f, (float)(1.0 + axis.z)})
                                     : cc_quat{1.0f, 0.0f, 0.0f, 0.0f};
        Pair q;
        q.a = shape(rod ? CC_SHAPE_CYLINDER : CC_SHAPE_BOX,
                    rod ? cc_vec3{(float)t, (float)L, 0.0f} : cc_vec3{(float)t, (float)(t * r.uniform(1.0, 2.0)), (float)L},
                    {(float)(at.x + ca.x), (float)(at.y + ca.y), (float)(at.z + ca.z)}, normalized(cc_q_mul(w, qa)));
        q.b = shape(disk ? CC_SHAPE_CYLINDER : CC_SHAPE_BOX,
                    disk ? cc_vec3{(float)R, (float)H, 0.0f} : cc_vec3{(float)R, (float)R, (float)H},
                    {(float)at.x, (float)at.y, (float)at.z}, w, (float)(size * r.uniform(0.0, 0.1)));
        q.pose_class = kTouching;
        deep_pairs += clean_but(q, kDeep, &worst_deep);
    }
    EXPECT_EQ(deep_pairs, 0) << "worst excess " << worst_deep;
}

// A small cylinder lying across a large box's edge, sunk a little into
// one face: the climb from the centres' ray stopped on that face's normal
// (8.7e-5 deep), and the faces beside it were taken on the side of the
// normal's rounding noise, not the edge's, so the way out over the edge
// (7e-6) was never tried. The neighbouring faces are now those across the
// edges nearest the other shape's touching point. Found by a million-pair
// run of the box-cylinder route.
//
// The family around it (small shapes resting flat across a large box's
// edge, turned by up to 1e-3 rad) held another class: a side line lying
// across the edge, a little tilted, leaves by a small turn about the edge,
// which the answer (the face's normal) missed by the tilt times the line's
// length beyond the edge (8 deep findings and 10 witness findings in
// both orders of the 400 pairs, up to 5e-4 of the smaller size too deep).
// The ridge about each face edge that a supporting segment crosses is
// searched now (cc_convex_edge_ridges).
TEST(FuzzRegressions, SmallShapesAcrossALargeBoxsEdgeLeaveOverTheEdge)
{
    Pair p;
    ASSERT_TRUE(parse_pair(
        "[touching] A: box size (0.644983828 0.918336332 5.27635622) margin 0 gap 0.00166524993 at (-4.58540773 "
        "27.1395531 26.3928776) q (-0.204883844 -0.261609823 -0.811905026 -0.479992867); B: cylinder size "
        "(0.00360269914 0.00643579895 0) margin 0 gap 5.76447019e-05 at (-4.99451542 27.5440731 27.6961937) q "
        "(0.40240562 -0.557512045 0.725561142 -0.0284798481)",
        &p));
    expect_clean(p, false);
    EXPECT_GT(min_distance(contacts(p)), -7.43790378e-06 - 4e-6);
    Random r(20261210);
    const cc_shape_type small_types[] = {CC_SHAPE_CYLINDER, CC_SHAPE_CONE, CC_SHAPE_BOX, CC_SHAPE_ELLIPSOID};
    int deep_pairs = 0, witness_pairs = 0;
    double worst_deep = 0.0, worst_witness = 0.0;
    for (int i = 0; i < 400; ++i) {
        double big = r.log_uniform(1e-1, 100.0), small = big * r.log_uniform(1e-3, 0.1);
        Pair q;
        cc_vec3 half = {(float)(big * r.uniform(0.2, 1.0)), (float)(big * r.uniform(0.2, 1.0)), (float)big};
        q.a = shape(CC_SHAPE_BOX, half, {0.0f, 0.0f, 0.0f}, r.rotation());
        cc_shape_type t = small_types[r.below(4)];
        cc_vec3 size = t == CC_SHAPE_BOX || t == CC_SHAPE_ELLIPSOID
                           ? cc_vec3{(float)small, (float)(small * r.uniform(0.3, 1.0)), (float)(small * r.uniform(0.3, 1.0))}
                           : cc_vec3{(float)small, (float)(small * r.uniform(0.3, 2.0)), 0.0f};
        // Over the +z face's edge x = half.x (A's frame), the centre beyond
        // the edge or just inside it, sunk below the face's plane by a
        // little of its size.
        // Lying flat, as things rest: a box square to A, a cylinder's or
        // cone's side line on the face, then turned a little (up to 1e-3
        // rad) and about the face's normal at random.
        double x = half.x + small * r.uniform(-0.3, 0.8), y = half.y * r.uniform(-0.8, 0.8);
        double spin = r.uniform(0.0, 6.283185307);
        cc_quat flat = {0.0f, 0.0f, (float)std::sin(0.5 * spin), (float)std::cos(0.5 * spin)};
        if (t == CC_SHAPE_CYLINDER || t == CC_SHAPE_CONE) {
            // Axis along x; a cone's side line then tilts by its half angle.
            double lean = t == CC_SHAPE_CONE ? std::atan2(size.x, 2.0 * size.y) : 0.0;
            double ang = 0.5 * (1.5707963 + lean);
            flat = normalized(cc_q_mul(flat, {0.0f, (float)std::sin(ang), 0.0f, (float)std::cos(ang)}));
        }
        V jiggle = r.direction() * 1e-3;
        flat = normalized(cc_q_mul(normalized({(float)(0.5 * jiggle.x), (float)(0.5 * jiggle.y), (float)(0.5 * jiggle.z), 1.0f}), flat));
        q.b = shape(t, size, cc_q_rotate(q.a.pose.q, {(float)x, (float)y, 0.0f}), normalized(cc_q_mul(q.a.pose.q, flat)),
                    0.0f, (float)(small * r.log_uniform(1e-4, 1e-2)));
        V up = to_v(cc_q_rotate(q.a.pose.q, {0.0f, 0.0f, 1.0f}));
        double lowest = -convref::support_height(core_of(q.b), up * -1.0);
        V c = to_v(q.b.pose.p) + up * (half.z - small * r.log_uniform(1e-3, 5e-2) - lowest);
        q.b.pose.p = {(float)c.x, (float)c.y, (float)c.z};
        q.pose_class = kTouching;
        // Each order's deep and witness findings count (the class above).
        for (int swap = 0; swap < 2; ++swap)
            for (const Finding& f : score(q, contacts(q, swap == 1))) {
                if (f.check == kDeep) {
                    deep_pairs++;
                    worst_deep = std::max(worst_deep, f.excess);
                } else if (f.check == kWitness) {
                    witness_pairs++;
                    worst_witness = std::max(worst_witness, f.excess);
                } else {
                    ADD_FAILURE() << check_name(f.check) << ": " << f.detail << " -- " << describe(q);
                }
            }
    }
    std::printf("deep findings: %d, worst %.3g; witness findings: %d, worst %.3g of the smaller size\n", deep_pairs,
                worst_deep, witness_pairs, worst_witness);
    EXPECT_EQ(deep_pairs, 0);
    EXPECT_EQ(witness_pairs, 0);
}

// A small box or hull deep in a large cylinder or cone (at its centre, or
// anywhere well inside it) leaves through the round side. Along the ring
// of side normals sep has a maximum for each edge of the small shape's
// outline seen along the axis, and the query's climbs stopped on whichever
// their start led to: a cuboctahedron 0.5 mm across at the centre of a
// cylinder of radius 57 mm was 4.3e-5 too deep, 8 % of its size. The ring's
// normals square to each edge are tried in closed form now. Found by a
// million-pair run of the cylinder-hull route; of the family's 600 pairs
// (a thousandth to a hundredth of the radius, mostly at the centre), 7
// were too deep before.
TEST(FuzzRegressions, SmallPolytopesDeepInRoundShapesLeaveThroughTheBestEdge)
{
    Pair p;
    ASSERT_TRUE(parse_pair(
        "[coincident] A: cylinder size (0.0566043705 0.789799988 0) margin 0.0126828915 gap 0 at (-0.646428049 "
        "0.312661976 -0.0663254559) q (0.0103473468 0.0329540446 -0.815347075 0.577941239); B: convex hull size "
        "(0.000503567979 0.000560920336 0.000437135983) margin 0 gap 0 at (-0.646428049 0.312661976 -0.0663254559) "
        "q (-0.177951202 0.464689136 0.577692807 -0.64704591) (12 hull points) points {0 -1 -1, 0 -1 1, 0 1 -1, 0 1 "
        "1, -1 0 -1, 1 0 -1, -1 0 1, 1 0 1, -1 -1 0, -1 1 0, 1 -1 0, 1 1 0}",
        &p));
    expect_clean(p);
    EXPECT_NEAR(min_distance(contacts(p)), -0.0571681722 - 0.0126828915, 2e-6);
    Random r(20261211);
    int deep_pairs = 0;
    double worst_deep = 0.0;
    for (int i = 0; i < 600; ++i) {
        double size = r.log_uniform(1e-2, 100.0);
        bool cone = r.chance(0.5);
        // Longer than wide, so that the side is the way out.
        double R = size * r.uniform(0.2, 0.5), H = size * r.uniform(1.0, 3.0);
        Pair q;
        cc_quat qa = r.rotation();
        V at = r.direction() * (size * r.uniform(0.0, 3.0));
        q.a = shape(cone ? CC_SHAPE_CONE : CC_SHAPE_CYLINDER, {(float)R, (float)H, 0.0f},
                    {(float)at.x, (float)at.y, (float)at.z}, qa, (float)(size * r.uniform(0.0, 0.05)));
        double small = R * r.log_uniform(1e-3, 1e-2);
        bool box = r.chance(0.3);
        q.b = shape(box ? CC_SHAPE_BOX : CC_SHAPE_CONVEX_HULL,
                    {(float)(small * r.uniform(0.3, 1.0)), (float)(small * r.uniform(0.3, 1.0)),
                     (float)(small * r.uniform(0.3, 1.0))},
                    {(float)at.x, (float)at.y, (float)at.z}, r.rotation(), 0.0f, (float)(small * r.log_uniform(1e-4, 1e-2)));
        if (!box) q.b.hull = random_hull_points(r);
        q.pose_class = kCoincident;
        if (r.chance(0.2)) {
            // Off the centre, well inside: along the axis and across it
            // (a cone narrows towards its apex at +z).
            double z = H * r.uniform(-0.5, 0.3), phi = r.uniform(0.0, 6.283185307);
            double inside = cone ? R * (H - z) / (2.0 * H) : R;
            double rho = inside * r.uniform(0.0, 0.3);
            cc_vec3 off = cc_q_rotate(qa, {(float)(rho * std::cos(phi)), (float)(rho * std::sin(phi)), (float)z});
            q.b.pose.p = {q.b.pose.p.x + off.x, q.b.pose.p.y + off.y, q.b.pose.p.z + off.z};
            q.pose_class = kRandom;
        }
        deep_pairs += clean_but(q, kDeep, &worst_deep);
    }
    EXPECT_EQ(deep_pairs, 0) << "worst excess " << worst_deep;
    // A box turned as the cylinder is, up to rounding: its edges along the
    // axis have no ring normal square to them (the axis's part square to
    // such an edge is rounding noise, and the normal built from it was 3 %
    // short of unit length). Found by a million-pair run of the
    // box-cylinder route, 49 such normals before.
    Pair parallel;
    ASSERT_TRUE(parse_pair(
        "[parallel] A: box size (0.0716307759 0.755265236 0.370402724) margin 0.0323760994 gap 8.8579196e-05 at "
        "(0.771647751 -1.12970531 -0.939261019) q (-0.395637572 -0.0430670232 0.196142375 -0.896183193); B: "
        "cylinder size (23.3451996 14.6417761 0) margin 0 gap 0 at (5.44818068 -9.132164 -18.3383694) q "
        "(-0.39563778 -0.0430665687 0.196142569 -0.896183074)",
        &parallel));
    expect_clean(parallel);
}

// A cone just touching a hull (1.3e-6 apart, well within GJK's skin of a
// thousandth of the smaller size, where the query takes the overlap path):
// the climb from MPR's ray stopped where a rim point lay 0.024 under a
// hull face beside a sharp edge, outside the hull, and reported that as
// the overlap (the cone 14 m across). Another pair stopped on a rim point
// against a hull vertex, which is a saddle of sep, not an optimum. Such
// answers now run GJK to the tolerance, and where it does not show the
// origin inside the difference, climb from its direction. Found by a
// million-pair run of the cone-hull route; the family: cones and cylinders
// touching small random hulls (sharp edges and corners), within a
// thousandth of the smaller size either way (2 of its 400 pairs too deep
// before). Overlapping by that thousandth, the climb from MPR's ray can
// still end on another optimum near a sharp hull feature: with hulls of
// 4 to 6 points, 9 pairs in 1,000 (11 before).
TEST(FuzzRegressions, RoundShapesTouchingHullsAreNotTakenForOverlaps)
{
    Pair p;
    ASSERT_TRUE(parse_pair(
        "[touching] A: cone size (14.3651104 39.4254189 0) margin 0 gap 0 at (-2.82062817 152.709625 10.5689783) q "
        "(-0.458561271 -0.646681905 0.600644171 0.103685349); B: convex hull size (40.7696075 75.1554031 "
        "10.3494606) margin 0 gap 1.23722959 at (1.36563587 74.5209961 20.7954941) q (0.706817508 0.570321083 "
        "0.38441965 0.165421695) (8 hull points) points {0.985595167 0.154286832 0.169145316, 0.594413161 "
        "0.801341355 0.518459439, 0.956985831 -0.665376365 0.0884073898, 0.0193793867 0.263270617 0.930957019, "
        "-0.523978591 -0.298793137 -0.0353532843, 0.967172027 0.522394955 0.579217196, 0.267898649 0.185336247 "
        "0.987801969, 0.523298025 0.846650422 0.569278181}",
        &p));
    expect_clean(p);
    EXPECT_GT(min_distance(contacts(p)), -1e-4);
    Random r(20261212);
    int deep_pairs = 0;
    double worst_deep = 0.0;
    for (int i = 0; i < 400; ++i) {
        double size = r.log_uniform(1e-2, 100.0);
        Pair q;
        q.a = shape(r.chance(0.5) ? CC_SHAPE_CONE : CC_SHAPE_CYLINDER,
                    {(float)(size * r.uniform(0.2, 1.0)), (float)(size * r.uniform(0.2, 1.0)), 0.0f}, {0.0f, 0.0f, 0.0f},
                    r.rotation());
        double hull = size * r.log_uniform(0.3, 5.0);
        q.b = shape(CC_SHAPE_CONVEX_HULL,
                    {(float)(hull * r.uniform(0.2, 1.0)), (float)(hull * r.uniform(0.2, 1.0)), (float)(hull * r.uniform(0.2, 1.0))},
                    {0.0f, 0.0f, 0.0f}, r.rotation());
        int count = 4 + (int)r.below(6);
        for (int k = 0; k < count; ++k) {
            V v = r.direction() * r.uniform(0.3, 1.0);
            q.b.hull.push_back({(float)v.x, (float)v.y, (float)v.z});
        }
        V at = r.direction() * (size * r.uniform(0.0, 10.0)), off = r.direction() * (size + hull);
        q.a.pose.p = {(float)at.x, (float)at.y, (float)at.z};
        q.b.pose.p = {(float)(at.x + off.x), (float)(at.y + off.y), (float)(at.z + off.z)};
        place_touching(&q, size * r.uniform(-1e-3, 1e-3));
        q.pose_class = kTouching;
        deep_pairs += clean_but(q, kDeep, &worst_deep);
    }
    EXPECT_EQ(deep_pairs, 0) << "worst excess " << worst_deep;
}
