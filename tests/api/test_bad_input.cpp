// Bad input is rejected at the boundary: every row of the validation table
// returns its own cc_status, leaves a last-error sentence that names the
// problem, changes nothing (builder counts, state poses), and leaves the
// object usable (a following valid call succeeds, and the builder still
// finalizes into a model that collides). Also: distinct status names,
// capacities, devices, definition cookies, NULL arguments, mismatched
// objects, and non-finite poses written straight into the state's array.
#include <cctype>
#include <cmath>
#include <cstring>
#include <initializer_list>
#include <limits>
#include <set>
#include <string>
#include <vector>

#include "tests/support/test_support.h"

using namespace cctest;

namespace {

constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();
constexpr float kInf = std::numeric_limits<float>::infinity();

std::string lower(std::string s)
{
    for (char& c : s) c = (char)std::tolower((unsigned char)c);
    return s;
}

// The last error message, checked to be a non-empty sentence containing every
// word in `words` (case-insensitive).
::testing::AssertionResult message_names(std::initializer_list<const char*> words)
{
    std::string msg = cc_last_error_message();
    if (msg.empty()) return ::testing::AssertionFailure() << "cc_last_error_message() is empty";
    std::string lm = lower(msg);
    for (const char* w : words)
        if (lm.find(lower(w)) == std::string::npos)
            return ::testing::AssertionFailure() << "message \"" << msg << "\" does not contain \"" << w << "\"";
    return ::testing::AssertionSuccess();
}

struct Counts {
    int bodies, shapes, worlds;
    bool operator==(const Counts& o) const { return bodies == o.bodies && shapes == o.shapes && worlds == o.worlds; }
};
std::ostream& operator<<(std::ostream& os, const Counts& c)
{
    return os << "{bodies " << c.bodies << ", shapes " << c.shapes << ", worlds " << c.worlds << "}";
}
Counts counts_of(const cc_builder* b)
{
    return {cc_builder_body_count(b), cc_builder_shape_count(b), cc_builder_world_count(b)};
}

// Status check with the message in the failure output.
#define EXPECT_STATUS(call, want)                                                                   \
    do {                                                                                            \
        cc_status got_ = (call);                                                                    \
        EXPECT_EQ(got_, (want)) << "got " << cc_status_string(got_) << ", want "                    \
                                << cc_status_string(want) << ": " << cc_last_error_message();       \
    } while (0)

// A builder holding a ground plane and `spheres` unit-diameter spheres, each
// resting 0.05 m deep in the plane at x = 3i: exactly one contact each.
class BadInput : public ::testing::Test {
  protected:
    void SetUp() override
    {
        b_ = make_builder();
        ASSERT_TRUE(b_);
        CC_ASSERT_OK(cc_builder_add_plane(b_.get(), CC_BODY_WORLD, 0.0f, 0.0f, nullptr, &plane_));
        add_resting_sphere();
        add_resting_sphere();
        before_ = counts_of(b_.get());
    }

    // Adds one sphere body; returns false (with a test failure) if rejected.
    bool add_resting_sphere()
    {
        cc_body_def bd = cc_default_body_def();
        bd.pose.p = {3.0f * (float)spheres_, 0.0f, 0.45f};
        int body = -1, shape = -1;
        cc_status s = cc_builder_add_body(b_.get(), &bd, &body);
        EXPECT_EQ(s, CC_OK) << cc_last_error_message();
        if (s != CC_OK) return false;
        s = cc_builder_add_sphere(b_.get(), body, 0.5f, nullptr, &shape);
        EXPECT_EQ(s, CC_OK) << cc_last_error_message();
        if (s != CC_OK) return false;
        ++spheres_;
        return true;
    }

    // Nothing changed since SetUp (or since `before_` was last taken).
    void expect_unchanged() { EXPECT_EQ(counts_of(b_.get()), before_) << "a rejected call changed the builder"; }

    // The builder still accepts a valid body and shape (whose indices follow
    // the old counts, and which clear the last error), and finalizes into a
    // model that collides with one contact per sphere.
    void expect_usable()
    {
        Counts c = counts_of(b_.get());
        cc_body_def bd = cc_default_body_def();
        bd.pose.p = {3.0f * (float)spheres_, 0.0f, 0.45f};
        int body = -1, shape = -1;
        CC_ASSERT_OK(cc_builder_add_body(b_.get(), &bd, &body));
        EXPECT_EQ(body, c.bodies);
        EXPECT_STREQ(cc_last_error_message(), "") << "success must clear the last error";
        CC_ASSERT_OK(cc_builder_add_sphere(b_.get(), body, 0.5f, nullptr, &shape));
        EXPECT_EQ(shape, c.shapes);
        ++spheres_;

        World w;
        CC_ASSERT_OK(make_world(b_.get(), cc_device_cpu(), cc_default_pipeline_def(), &w));
        EXPECT_EQ(cc_model_shape_count(w.model.get()), c.shapes + 1);
        std::vector<cc_contact> got = collide(w);
        ASSERT_EQ((int)got.size(), spheres_);
        for (const cc_contact& k : got) {
            EXPECT_EQ(k.shape0, plane_);
            EXPECT_NEAR(k.distance, -0.05f, 1e-5f);
            EXPECT_NEAR(k.normal.z, 1.0f, 1e-6f);
        }
    }

    Builder b_;
    int plane_ = -1;
    int spheres_ = 0;
    Counts before_{};
};

// ---------------------------------------------------------------- sizes

TEST_F(BadInput, NegativeSphereRadius)
{
    int out = -7;
    EXPECT_STATUS(cc_builder_add_sphere(b_.get(), 0, -1.0f, nullptr, &out), CC_ERR_INVALID_SIZE);
    EXPECT_TRUE(message_names({"sphere", "radius", "-1"}));
    EXPECT_EQ(out, -7) << "the out index must not be written on failure";
    expect_unchanged();
    expect_usable();
}

TEST_F(BadInput, NegativeBoxHalfExtent)
{
    EXPECT_STATUS(cc_builder_add_box(b_.get(), 0, {0.5f, -0.25f, 0.5f}, nullptr, nullptr), CC_ERR_INVALID_SIZE);
    EXPECT_TRUE(message_names({"box", "half extents", "-0.25"}));
    expect_unchanged();
    expect_usable();
}

TEST_F(BadInput, NegativeCapsuleRadius)
{
    EXPECT_STATUS(cc_builder_add_capsule(b_.get(), 0, -0.5f, 1.0f, nullptr, nullptr), CC_ERR_INVALID_SIZE);
    EXPECT_TRUE(message_names({"capsule", "radius", "-0.5"}));
    expect_unchanged();
    expect_usable();
}

TEST_F(BadInput, NegativeCapsuleHalfHeight)
{
    EXPECT_STATUS(cc_builder_add_capsule(b_.get(), 0, 0.5f, -1.5f, nullptr, nullptr), CC_ERR_INVALID_SIZE);
    EXPECT_TRUE(message_names({"capsule", "half height", "-1.5"}));
    expect_unchanged();
    expect_usable();
}

TEST_F(BadInput, NegativePlaneHalfExtents)
{
    EXPECT_STATUS(cc_builder_add_plane(b_.get(), CC_BODY_WORLD, -1.0f, -1.0f, nullptr, nullptr), CC_ERR_INVALID_SIZE);
    EXPECT_TRUE(message_names({"plane", "half extents", "-1"}));
    expect_unchanged();
    expect_usable();
}

TEST_F(BadInput, ZeroSphereRadius)
{
    EXPECT_STATUS(cc_builder_add_sphere(b_.get(), 0, 0.0f, nullptr, nullptr), CC_ERR_INVALID_SIZE);
    EXPECT_TRUE(message_names({"sphere", "radius", "0"}));
    expect_unchanged();
    expect_usable();
}

TEST_F(BadInput, ZeroBoxHalfExtent)
{
    EXPECT_STATUS(cc_builder_add_box(b_.get(), 0, {0.5f, 0.5f, 0.0f}, nullptr, nullptr), CC_ERR_INVALID_SIZE);
    EXPECT_TRUE(message_names({"box", "half extents"}));
    expect_unchanged();
    expect_usable();
}

TEST_F(BadInput, ZeroCapsuleRadius)
{
    EXPECT_STATUS(cc_builder_add_capsule(b_.get(), 0, 0.0f, 1.0f, nullptr, nullptr), CC_ERR_INVALID_SIZE);
    EXPECT_TRUE(message_names({"capsule", "radius"}));
    expect_unchanged();
    expect_usable();
}

TEST_F(BadInput, PlaneWithOneZeroAndOnePositiveHalfExtent)
{
    EXPECT_STATUS(cc_builder_add_plane(b_.get(), CC_BODY_WORLD, 0.0f, 2.0f, nullptr, nullptr), CC_ERR_INVALID_SIZE);
    EXPECT_TRUE(message_names({"plane", "half extents", "2"}));
    expect_unchanged();
    EXPECT_STATUS(cc_builder_add_plane(b_.get(), CC_BODY_WORLD, 3.0f, 0.0f, nullptr, nullptr), CC_ERR_INVALID_SIZE);
    EXPECT_TRUE(message_names({"plane", "half extents", "3"}));
    expect_unchanged();
    expect_usable();
}

// ---------------------------------------------------------------- non-finite values

struct PoseCase {
    const char* name;
    cc_transform pose;
};

std::vector<PoseCase> non_finite_poses()
{
    cc_transform id = {{0, 0, 0}, {0, 0, 0, 1}};
    std::vector<PoseCase> v;
    for (float bad : {kNaN, kInf, -kInf}) {
        const char* tag = std::isnan(bad) ? "nan" : (bad > 0 ? "+inf" : "-inf");
        cc_transform t = id;
        t.p.x = bad;
        v.push_back({tag, t});
        t = id;
        t.p.z = bad;
        v.push_back({tag, t});
        t = id;
        t.q.w = bad;
        v.push_back({tag, t});
        t = id;
        t.q.y = bad;
        v.push_back({tag, t});
    }
    return v;
}

TEST_F(BadInput, NonFiniteBodyPose)
{
    for (const PoseCase& c : non_finite_poses()) {
        SCOPED_TRACE(c.name);
        cc_body_def d = cc_default_body_def();
        d.pose = c.pose;
        int out = -7;
        EXPECT_STATUS(cc_builder_add_body(b_.get(), &d, &out), CC_ERR_NOT_FINITE);
        EXPECT_TRUE(message_names({"pose", "NaN or infinity"}));
        EXPECT_EQ(out, -7);
        expect_unchanged();
    }
    expect_usable();
}

TEST_F(BadInput, NonFiniteLocalTransform)
{
    for (const PoseCase& c : non_finite_poses()) {
        SCOPED_TRACE(c.name);
        cc_shape_def d = cc_default_shape_def();
        d.local = c.pose;
        EXPECT_STATUS(cc_builder_add_sphere(b_.get(), 0, 0.5f, &d, nullptr), CC_ERR_NOT_FINITE);
        EXPECT_TRUE(message_names({"pose", "NaN or infinity"}));
        EXPECT_STATUS(cc_builder_add_box(b_.get(), CC_BODY_WORLD, {1, 1, 1}, &d, nullptr), CC_ERR_NOT_FINITE);
        expect_unchanged();
    }
    expect_usable();
}

TEST_F(BadInput, NonFiniteSize)
{
    for (float bad : {kNaN, kInf, -kInf}) {
        SCOPED_TRACE(bad);
        EXPECT_STATUS(cc_builder_add_sphere(b_.get(), 0, bad, nullptr, nullptr), CC_ERR_NOT_FINITE);
        EXPECT_TRUE(message_names({"sphere", "size", "NaN or infinity"}));
        EXPECT_STATUS(cc_builder_add_box(b_.get(), 0, {0.5f, bad, 0.5f}, nullptr, nullptr), CC_ERR_NOT_FINITE);
        EXPECT_TRUE(message_names({"box", "size"}));
        EXPECT_STATUS(cc_builder_add_capsule(b_.get(), 0, 0.5f, bad, nullptr, nullptr), CC_ERR_NOT_FINITE);
        EXPECT_TRUE(message_names({"capsule", "size"}));
        EXPECT_STATUS(cc_builder_add_plane(b_.get(), CC_BODY_WORLD, bad, 1.0f, nullptr, nullptr), CC_ERR_NOT_FINITE);
        EXPECT_TRUE(message_names({"plane", "size"}));
        // The unused third component of a sphere's size is checked too.
        EXPECT_STATUS(cc_builder_add_shape(b_.get(), 0, CC_SHAPE_SPHERE, {0.5f, 0.0f, bad}, nullptr, nullptr),
                      CC_ERR_NOT_FINITE);
        expect_unchanged();
    }
    expect_usable();
}

TEST_F(BadInput, NonFiniteMargin)
{
    for (float bad : {kNaN, kInf, -kInf}) {
        SCOPED_TRACE(bad);
        cc_shape_def d = cc_default_shape_def();
        d.margin = bad;
        EXPECT_STATUS(cc_builder_add_sphere(b_.get(), 0, 0.5f, &d, nullptr), CC_ERR_NOT_FINITE);
        EXPECT_TRUE(message_names({"margin", "not finite"}));
        expect_unchanged();
    }
    expect_usable();
}

TEST_F(BadInput, NonFiniteGap)
{
    for (float bad : {kNaN, kInf, -kInf}) {
        SCOPED_TRACE(bad);
        cc_shape_def d = cc_default_shape_def();
        d.gap = bad;
        EXPECT_STATUS(cc_builder_add_sphere(b_.get(), 0, 0.5f, &d, nullptr), CC_ERR_NOT_FINITE);
        EXPECT_TRUE(message_names({"gap", "not finite"}));
        expect_unchanged();
    }
    expect_usable();
}

TEST_F(BadInput, NonFiniteBuilderGap)
{
    for (float bad : {kNaN, kInf}) {
        cc_builder_def d = cc_default_builder_def();
        d.rigid_gap = bad;
        cc_builder* b = reinterpret_cast<cc_builder*>(0x1);
        EXPECT_STATUS(cc_builder_create(&d, &b), CC_ERR_NOT_FINITE);
        EXPECT_TRUE(message_names({"rigid_gap", "not finite"}));
        EXPECT_EQ(b, reinterpret_cast<cc_builder*>(0x1)) << "out must not be written on failure";
    }
    cc_builder_def d = cc_default_builder_def();
    d.rigid_gap = -0.5f;
    cc_builder* b = nullptr;
    EXPECT_STATUS(cc_builder_create(&d, &b), CC_ERR_INVALID_ARGUMENT);
    EXPECT_TRUE(message_names({"rigid_gap", "-0.5"}));
    EXPECT_EQ(b, nullptr);
}

TEST_F(BadInput, ZeroLengthQuaternion)
{
    cc_body_def bd = cc_default_body_def();
    bd.pose.q = {0, 0, 0, 0};
    EXPECT_STATUS(cc_builder_add_body(b_.get(), &bd, nullptr), CC_ERR_INVALID_ARGUMENT);
    EXPECT_TRUE(message_names({"quaternion", "zero length"}));
    expect_unchanged();
    cc_shape_def sd = cc_default_shape_def();
    sd.local.q = {0, 0, 0, 0};
    EXPECT_STATUS(cc_builder_add_box(b_.get(), 0, {1, 1, 1}, &sd, nullptr), CC_ERR_INVALID_ARGUMENT);
    EXPECT_TRUE(message_names({"quaternion", "zero length"}));
    expect_unchanged();
    expect_usable();
}

// A finite, nonzero quaternion too large to square in float still describes
// a rotation: it must be normalised to a unit quaternion (or rejected), never
// stored as a zero quaternion.
TEST_F(BadInput, HugeQuaternionIsNormalisedNotZeroed)
{
    cc_body_def bd = cc_default_body_def();
    bd.pose.p = {0, 0, 5};
    bd.pose.q = {0, 0, 0, 1e30f};
    int body = -1;
    cc_status s = cc_builder_add_body(b_.get(), &bd, &body);
    if (s != CC_OK) {
        EXPECT_EQ(s, CC_ERR_INVALID_ARGUMENT) << cc_last_error_message();
        EXPECT_TRUE(message_names({"quaternion"}));
        expect_unchanged();
        return;
    }
    cc_model* m = nullptr;
    CC_ASSERT_OK(cc_builder_finalize(b_.get(), cc_device_cpu(), &m));
    Model model(m);
    cc_state* st = nullptr;
    CC_ASSERT_OK(cc_state_create(m, &st));
    State state(st);
    cc_transform got{};
    CC_ASSERT_OK(cc_state_get_body_poses(st, body, 1, &got));
    // Squaring 1e30 in float overflows: the builder must scale first.
    EXPECT_NEAR(got.q.w, 1.0f, 1e-6f);
    EXPECT_NEAR(std::sqrt(got.q.x * got.q.x + got.q.y * got.q.y + got.q.z * got.q.z + got.q.w * got.q.w), 1.0f, 1e-6f);
}

// ---------------------------------------------------------------- indices

TEST_F(BadInput, ShapeOnBodyPastTheCount)
{
    int n = cc_builder_body_count(b_.get());
    EXPECT_STATUS(cc_builder_add_sphere(b_.get(), n, 0.5f, nullptr, nullptr), CC_ERR_INVALID_BODY);
    EXPECT_TRUE(message_names({"body", std::to_string(n).c_str()}));
    expect_unchanged();
    EXPECT_STATUS(cc_builder_add_box(b_.get(), 1000, {1, 1, 1}, nullptr, nullptr), CC_ERR_INVALID_BODY);
    EXPECT_TRUE(message_names({"body 1000"}));
    expect_unchanged();
    expect_usable();
}

TEST_F(BadInput, ShapeOnBodyBelowMinusOne)
{
    EXPECT_STATUS(cc_builder_add_sphere(b_.get(), -2, 0.5f, nullptr, nullptr), CC_ERR_INVALID_BODY);
    EXPECT_TRUE(message_names({"body -2"}));
    EXPECT_STATUS(cc_builder_add_capsule(b_.get(), -100, 0.5f, 0.5f, nullptr, nullptr), CC_ERR_INVALID_BODY);
    EXPECT_TRUE(message_names({"body -100"}));
    expect_unchanged();
    expect_usable();
}

TEST_F(BadInput, BodyParentPastTheCount)
{
    cc_body_def d = cc_default_body_def();
    d.parent = cc_builder_body_count(b_.get());  // the body being added is not yet a parent
    EXPECT_STATUS(cc_builder_add_body(b_.get(), &d, nullptr), CC_ERR_INVALID_BODY);
    EXPECT_TRUE(message_names({"parent", std::to_string(d.parent).c_str()}));
    expect_unchanged();
    d.parent = 77;
    EXPECT_STATUS(cc_builder_add_body(b_.get(), &d, nullptr), CC_ERR_INVALID_BODY);
    EXPECT_TRUE(message_names({"parent body 77"}));
    expect_unchanged();
    expect_usable();
}

TEST_F(BadInput, BodyParentBelowMinusOne)
{
    cc_body_def d = cc_default_body_def();
    d.parent = -2;
    EXPECT_STATUS(cc_builder_add_body(b_.get(), &d, nullptr), CC_ERR_INVALID_BODY);
    EXPECT_TRUE(message_names({"parent body -2"}));
    expect_unchanged();
    expect_usable();
}

TEST_F(BadInput, FilterPairWithInvalidShape)
{
    int n = cc_builder_shape_count(b_.get());
    EXPECT_STATUS(cc_builder_add_filter_pair(b_.get(), 0, n), CC_ERR_INVALID_SHAPE);
    EXPECT_TRUE(message_names({std::to_string(n).c_str()}));
    EXPECT_STATUS(cc_builder_add_filter_pair(b_.get(), -1, 1), CC_ERR_INVALID_SHAPE);
    EXPECT_TRUE(message_names({"-1"}));
    EXPECT_STATUS(cc_builder_add_filter_pair(b_.get(), 99, -5), CC_ERR_INVALID_SHAPE);
    EXPECT_TRUE(message_names({"99", "-5"}));
    EXPECT_STATUS(cc_builder_add_filter_pair(b_.get(), 1, 1), CC_ERR_INVALID_ARGUMENT);
    EXPECT_TRUE(message_names({"itself"}));
    expect_unchanged();
    // The rejected pairs added no filter: both spheres still touch the plane.
    expect_usable();
}

// ---------------------------------------------------------------- shape types

TEST_F(BadInput, ReservedShapeTypesAreUnsupported)
{
    int out = -7;
    EXPECT_STATUS(cc_builder_add_shape(b_.get(), 0, CC_SHAPE_SDF, {0.5f, 0.5f, 0.5f}, nullptr, &out), CC_ERR_UNSUPPORTED);
    EXPECT_TRUE(message_names({cc_shape_type_name(CC_SHAPE_SDF), "not supported"}));
    EXPECT_EQ(out, -7);
    EXPECT_STATUS(cc_builder_add_shape(b_.get(), CC_BODY_WORLD, CC_SHAPE_SDF, {1, 1, 1}, nullptr, nullptr), CC_ERR_UNSUPPORTED);
    expect_unchanged();
    // Meshes and heightfields are stored, but need their data first.
    EXPECT_STATUS(cc_builder_add_shape(b_.get(), 0, CC_SHAPE_MESH, {1, 1, 1}, nullptr, &out), CC_ERR_INVALID_ARGUMENT);
    EXPECT_TRUE(message_names({"cc_builder_add_mesh_data", "cc_builder_add_mesh"}));
    EXPECT_STATUS(cc_builder_add_shape(b_.get(), CC_BODY_WORLD, CC_SHAPE_HEIGHTFIELD, {1, 1, 1}, nullptr, &out), CC_ERR_INVALID_ARGUMENT);
    EXPECT_TRUE(message_names({"cc_builder_add_heightfield_data", "cc_builder_add_heightfield"}));
    EXPECT_EQ(out, -7);
    expect_unchanged();
    expect_usable();
}

TEST_F(BadInput, ConvexHullNeedsItsPoints)
{
    int out = -7;
    EXPECT_STATUS(cc_builder_add_shape(b_.get(), 0, CC_SHAPE_CONVEX_HULL, {1, 1, 1}, nullptr, &out),
                  CC_ERR_INVALID_ARGUMENT);
    EXPECT_TRUE(message_names({"cc_builder_add_convex_hull_data", "cc_builder_add_convex_hull"}));
    EXPECT_EQ(out, -7);
    EXPECT_STATUS(cc_builder_add_convex_hull(b_.get(), 0, 0, {1, 1, 1}, nullptr, &out), CC_ERR_INVALID_ARGUMENT);
    EXPECT_TRUE(message_names({"hull 0", "does not exist"}));
    EXPECT_EQ(out, -7);
    expect_unchanged();
    const cc_vec3 corners[8] = {{-1, -1, -1}, {1, -1, -1}, {-1, 1, -1}, {1, 1, -1},
                                {-1, -1, 1},  {1, -1, 1},  {-1, 1, 1},  {1, 1, 1}};
    int hull = -1;
    CC_ASSERT_OK(cc_builder_add_convex_hull_data(b_.get(), corners, 8, nullptr, &hull));
    for (cc_vec3 scale : {cc_vec3{0, 1, 1}, cc_vec3{1, -1, 1}, cc_vec3{1, 1, NAN}}) {
        EXPECT_NE(cc_builder_add_convex_hull(b_.get(), 0, hull, scale, nullptr, &out), CC_OK);
        EXPECT_EQ(out, -7);
    }
    expect_unchanged();
    expect_usable();
}

TEST_F(BadInput, NewPrimitiveSizes)
{
    int out = -7;
    EXPECT_STATUS(cc_builder_add_cylinder(b_.get(), 0, 0.0f, 1.0f, nullptr, &out), CC_ERR_INVALID_SIZE);
    EXPECT_TRUE(message_names({"cylinder", "radius"}));
    EXPECT_STATUS(cc_builder_add_cylinder(b_.get(), 0, 1.0f, -1.0f, nullptr, &out), CC_ERR_INVALID_SIZE);
    EXPECT_STATUS(cc_builder_add_cone(b_.get(), 0, 1.0f, 0.0f, nullptr, &out), CC_ERR_INVALID_SIZE);
    EXPECT_TRUE(message_names({"cone", "half height"}));
    EXPECT_STATUS(cc_builder_add_cone(b_.get(), 0, NAN, 1.0f, nullptr, &out), CC_ERR_NOT_FINITE);
    EXPECT_STATUS(cc_builder_add_ellipsoid(b_.get(), 0, {1, 0, 1}, nullptr, &out), CC_ERR_INVALID_SIZE);
    EXPECT_TRUE(message_names({"ellipsoid", "semi-axes"}));
    EXPECT_EQ(out, -7);
    expect_unchanged();
    expect_usable();
}

TEST(Names, BroadPhases)
{
    EXPECT_STREQ(cc_broad_phase_name(CC_BROAD_PHASE_AUTO), "auto");
    EXPECT_STREQ(cc_broad_phase_name(CC_BROAD_PHASE_NXN), "nxn");
    EXPECT_STREQ(cc_broad_phase_name(CC_BROAD_PHASE_SAP), "sap");
    EXPECT_STREQ(cc_broad_phase_name(CC_BROAD_PHASE_EXPLICIT), "explicit");
    EXPECT_STREQ(cc_broad_phase_name((cc_broad_phase)42), "unknown");
}

TEST_F(BadInput, ShapeTypeOutsideTheEnum)
{
    for (int t : {(int)CC_SHAPE_TYPE_COUNT, 42, -1}) {
        SCOPED_TRACE(t);
        EXPECT_STATUS(cc_builder_add_shape(b_.get(), 0, (cc_shape_type)t, {0.5f, 0.5f, 0.5f}, nullptr, nullptr),
                      CC_ERR_INVALID_ARGUMENT);
        EXPECT_TRUE(message_names({"shape type", std::to_string(t).c_str()}));
        expect_unchanged();
    }
    EXPECT_STREQ(cc_shape_type_name((cc_shape_type)42), "unknown");
    expect_usable();
}

// ---------------------------------------------------------------- worlds

TEST_F(BadInput, WorldIndexNotCreated)
{
    ASSERT_EQ(cc_builder_world_count(b_.get()), 0);
    cc_body_def bd = cc_default_body_def();
    bd.world = 5;
    EXPECT_STATUS(cc_builder_add_body(b_.get(), &bd, nullptr), CC_ERR_WORLD_OUT_OF_RANGE);
    EXPECT_TRUE(message_names({"world 5"}));
    expect_unchanged();
    cc_shape_def sd = cc_default_shape_def();
    sd.world = 5;
    EXPECT_STATUS(cc_builder_add_plane(b_.get(), CC_BODY_WORLD, 0, 0, &sd, nullptr), CC_ERR_WORLD_OUT_OF_RANGE);
    EXPECT_TRUE(message_names({"world 5"}));
    expect_unchanged();
    // World 0 exists only once created.
    bd.world = 0;
    EXPECT_STATUS(cc_builder_add_body(b_.get(), &bd, nullptr), CC_ERR_WORLD_OUT_OF_RANGE);
    EXPECT_TRUE(message_names({"world 0"}));
    expect_unchanged();
    expect_usable();
}

TEST_F(BadInput, WorldIndexBelowGlobal)
{
    cc_body_def bd = cc_default_body_def();
    bd.world = -3;
    EXPECT_STATUS(cc_builder_add_body(b_.get(), &bd, nullptr), CC_ERR_WORLD_OUT_OF_RANGE);
    EXPECT_TRUE(message_names({"world -3"}));
    expect_unchanged();
    cc_shape_def sd = cc_default_shape_def();
    sd.world = -3;
    EXPECT_STATUS(cc_builder_add_sphere(b_.get(), CC_BODY_WORLD, 0.5f, &sd, nullptr), CC_ERR_WORLD_OUT_OF_RANGE);
    EXPECT_TRUE(message_names({"world -3"}));
    expect_unchanged();
    expect_usable();
}

TEST_F(BadInput, ShapeWorldDiffersFromItsBody)
{
    int w = -1;
    CC_ASSERT_OK(cc_builder_begin_world(b_.get(), &w));
    CC_ASSERT_OK(cc_builder_end_world(b_.get()));
    before_ = counts_of(b_.get());
    // Body 0 is global; a shape on it cannot claim world 0.
    cc_shape_def sd = cc_default_shape_def();
    sd.world = w;
    EXPECT_STATUS(cc_builder_add_sphere(b_.get(), 0, 0.5f, &sd, nullptr), CC_ERR_WORLD_OUT_OF_RANGE);
    EXPECT_TRUE(message_names({"world 0"}));
    expect_unchanged();
    expect_usable();
}

TEST_F(BadInput, EndWorldWithoutBegin)
{
    EXPECT_STATUS(cc_builder_end_world(b_.get()), CC_ERR_INVALID_STATE);
    EXPECT_TRUE(message_names({"no world is open", "begin_world"}));
    expect_unchanged();
    expect_usable();
}

TEST_F(BadInput, BeginWorldTwice)
{
    int w = -1;
    CC_ASSERT_OK(cc_builder_begin_world(b_.get(), &w));
    EXPECT_EQ(w, 0);
    before_ = counts_of(b_.get());
    int w2 = -7;
    EXPECT_STATUS(cc_builder_begin_world(b_.get(), &w2), CC_ERR_INVALID_STATE);
    EXPECT_TRUE(message_names({"world 0", "still open", "end_world"}));
    EXPECT_EQ(w2, -7);
    expect_unchanged();
    // The open world is still world 0 and still takes entities.
    int body = -1;
    CC_ASSERT_OK(cc_builder_add_body(b_.get(), nullptr, &body));
    CC_ASSERT_OK(cc_builder_end_world(b_.get()));
    EXPECT_EQ(cc_builder_world_count(b_.get()), 1);
    expect_usable();
}

TEST_F(BadInput, FinalizeWithAnOpenWorld)
{
    CC_ASSERT_OK(cc_builder_begin_world(b_.get(), nullptr));
    before_ = counts_of(b_.get());
    cc_model* m = reinterpret_cast<cc_model*>(0x1);
    EXPECT_STATUS(cc_builder_finalize(b_.get(), cc_device_cpu(), &m), CC_ERR_INVALID_STATE);
    EXPECT_TRUE(message_names({"world 0", "open", "end_world"}));
    EXPECT_EQ(m, reinterpret_cast<cc_model*>(0x1));
    expect_unchanged();
    CC_ASSERT_OK(cc_builder_end_world(b_.get()));
    expect_usable();
}

TEST_F(BadInput, MagnitudesOutsideTheValidRanges)
{
    // Sizes, margins and densities that float arithmetic cannot carry into a
    // mass and a contact are refused, naming the range.
    int body = add_body(b_.get(), {0, 0, 1});
    const int shapes = cc_builder_shape_count(b_.get());
    EXPECT_STATUS(cc_builder_add_box(b_.get(), body, {1e30f, 1, 1}, nullptr, nullptr), CC_ERR_INVALID_SIZE);
    EXPECT_TRUE(message_names({"box", "outside", "1e+06"}));
    EXPECT_STATUS(cc_builder_add_box(b_.get(), body, {FLT_MAX, FLT_MAX, FLT_MAX}, nullptr, nullptr), CC_ERR_INVALID_SIZE);
    EXPECT_STATUS(cc_builder_add_sphere(b_.get(), body, 1e-45f, nullptr, nullptr), CC_ERR_INVALID_SIZE);
    EXPECT_TRUE(message_names({"sphere", "1e-06"}));
    cc_shape_def d = cc_default_shape_def();
    d.margin = 1e30f;
    EXPECT_STATUS(cc_builder_add_sphere(b_.get(), body, 0.1f, &d, nullptr), CC_ERR_INVALID_ARGUMENT);
    EXPECT_TRUE(message_names({"margin"}));
    d = cc_default_shape_def();
    d.density = 1e30f;
    EXPECT_STATUS(cc_builder_add_sphere(b_.get(), body, 0.1f, &d, nullptr), CC_ERR_INVALID_ARGUMENT);
    EXPECT_TRUE(message_names({"density"}));
    EXPECT_EQ(cc_builder_shape_count(b_.get()), shapes);
    // The range's ends are accepted.
    EXPECT_EQ(cc_builder_add_sphere(b_.get(), body, CC_SIZE_MIN, nullptr, nullptr), CC_OK);
    EXPECT_EQ(cc_builder_add_box(b_.get(), body, {CC_SIZE_MAX, 1, 1}, nullptr, nullptr), CC_OK);
}

TEST_F(BadInput, ReplicateBeyondTheWorldLimit)
{
    // An empty template copied two billion times, twice: the world count
    // must not wrap negative.
    Builder empty = make_builder();
    EXPECT_STATUS(cc_builder_replicate(b_.get(), empty.get(), 2000000000, nullptr), CC_ERR_INVALID_ARGUMENT);
    EXPECT_TRUE(message_names({"2000000000", "worlds"}));
    expect_unchanged();
    ASSERT_EQ(cc_builder_replicate(b_.get(), empty.get(), CC_MAX_WORLDS - 1, nullptr), CC_OK);
    EXPECT_STATUS(cc_builder_replicate(b_.get(), empty.get(), 2, nullptr), CC_ERR_INVALID_ARGUMENT);
    EXPECT_EQ(cc_builder_world_count(b_.get()), CC_MAX_WORLDS - 1);
    int w = -1;
    ASSERT_EQ(cc_builder_begin_world(b_.get(), &w), CC_OK);
    EXPECT_EQ(w, CC_MAX_WORLDS - 1);
    ASSERT_EQ(cc_builder_end_world(b_.get()), CC_OK);
    EXPECT_STATUS(cc_builder_begin_world(b_.get(), &w), CC_ERR_INVALID_ARGUMENT);
    EXPECT_EQ(cc_builder_world_count(b_.get()), CC_MAX_WORLDS);
}

TEST_F(BadInput, ReplicateWithNoCopies)
{
    Builder t = make_builder();
    add_body(t.get(), {0, 0, 1});
    for (int copies : {0, -1}) {
        SCOPED_TRACE(copies);
        int first = -7;
        EXPECT_STATUS(cc_builder_replicate(b_.get(), t.get(), copies, &first), CC_ERR_INVALID_ARGUMENT);
        EXPECT_TRUE(message_names({"copies", std::to_string(copies).c_str()}));
        EXPECT_EQ(first, -7);
        expect_unchanged();
    }
    EXPECT_STATUS(cc_builder_replicate(b_.get(), b_.get(), 2, nullptr), CC_ERR_INVALID_ARGUMENT);
    EXPECT_TRUE(message_names({"template"}));
    expect_unchanged();
    expect_usable();
}

TEST_F(BadInput, ReplicateWithAnOpenWorld)
{
    Builder t = make_builder();
    add_body(t.get(), {0, 0, 1});
    CC_ASSERT_OK(cc_builder_begin_world(b_.get(), nullptr));
    before_ = counts_of(b_.get());
    EXPECT_STATUS(cc_builder_replicate(b_.get(), t.get(), 2, nullptr), CC_ERR_INVALID_STATE);
    EXPECT_TRUE(message_names({"open", "end_world"}));
    expect_unchanged();
    CC_ASSERT_OK(cc_builder_end_world(b_.get()));
    expect_usable();
}

// ---------------------------------------------------------------- margin and gap

TEST_F(BadInput, NegativeMargin)
{
    cc_shape_def d = cc_default_shape_def();
    d.margin = -0.5f;
    EXPECT_STATUS(cc_builder_add_sphere(b_.get(), 0, 0.5f, &d, nullptr), CC_ERR_INVALID_ARGUMENT);
    EXPECT_TRUE(message_names({"margin", "-0.5", "negative"}));
    expect_unchanged();
    expect_usable();
}

TEST_F(BadInput, NegativeGapOtherThanFromBuilder)
{
    for (float g : {-0.5f, -2.0f, std::nextafter(CC_GAP_FROM_BUILDER, 0.0f)}) {
        SCOPED_TRACE(g);
        cc_shape_def d = cc_default_shape_def();
        d.gap = g;
        EXPECT_STATUS(cc_builder_add_sphere(b_.get(), 0, 0.5f, &d, nullptr), CC_ERR_INVALID_ARGUMENT);
        EXPECT_TRUE(message_names({"gap", "negative"}));
        expect_unchanged();
    }
    // CC_GAP_FROM_BUILDER itself is accepted.
    cc_shape_def d = cc_default_shape_def();
    d.gap = CC_GAP_FROM_BUILDER;
    CC_ASSERT_OK(cc_builder_add_sphere(b_.get(), 0, 0.25f, &d, nullptr));
}

// ---------------------------------------------------------------- uninitialised defs

TEST_F(BadInput, ZeroedDefsAreUninitialised)
{
    cc_builder_def bdef;
    std::memset(&bdef, 0, sizeof bdef);
    cc_builder* nb = nullptr;
    EXPECT_STATUS(cc_builder_create(&bdef, &nb), CC_ERR_UNINITIALIZED_DEF);
    EXPECT_TRUE(message_names({"cc_default_builder_def"}));
    EXPECT_EQ(nb, nullptr);

    cc_body_def body;
    std::memset(&body, 0, sizeof body);
    EXPECT_STATUS(cc_builder_add_body(b_.get(), &body, nullptr), CC_ERR_UNINITIALIZED_DEF);
    EXPECT_TRUE(message_names({"cc_default_body_def"}));
    expect_unchanged();

    cc_shape_def shape;
    std::memset(&shape, 0, sizeof shape);
    EXPECT_STATUS(cc_builder_add_sphere(b_.get(), 0, 0.5f, &shape, nullptr), CC_ERR_UNINITIALIZED_DEF);
    EXPECT_TRUE(message_names({"cc_default_shape_def"}));
    // The cookie is checked before anything else in the def or the call.
    EXPECT_STATUS(cc_builder_add_shape(b_.get(), 0, CC_SHAPE_MESH, {1, 1, 1}, &shape, nullptr), CC_ERR_UNINITIALIZED_DEF);
    expect_unchanged();

    cc_model* m = nullptr;
    CC_ASSERT_OK(cc_builder_finalize(b_.get(), cc_device_cpu(), &m));
    Model model(m);
    cc_pipeline_def pdef;
    std::memset(&pdef, 0, sizeof pdef);
    cc_pipeline* p = nullptr;
    EXPECT_STATUS(cc_pipeline_create(m, &pdef, &p), CC_ERR_UNINITIALIZED_DEF);
    EXPECT_TRUE(message_names({"cc_default_pipeline_def"}));
    EXPECT_EQ(p, nullptr);
    expect_usable();
}

// ---------------------------------------------------------------- capacities and devices

TEST_F(BadInput, ZeroAndNegativeCapacities)
{
    cc_model* m = nullptr;
    CC_ASSERT_OK(cc_builder_finalize(b_.get(), cc_device_cpu(), &m));
    Model model(m);
    int64_t allocs = cc_allocation_count();
    struct Row {
        int contacts, pairs;
        const char* word;
    } rows[] = {{0, CC_CAPACITY_AUTO, "rigid_contact_max 0"},
                {CC_CAPACITY_AUTO, 0, "shape_pairs_max 0"},
                {-2, CC_CAPACITY_AUTO, "rigid_contact_max -2"},
                {16, -5, "shape_pairs_max -5"}};
    for (const Row& r : rows) {
        SCOPED_TRACE(r.word);
        cc_pipeline_def d = cc_default_pipeline_def();
        d.rigid_contact_max = r.contacts;
        d.shape_pairs_max = r.pairs;
        cc_pipeline* p = nullptr;
        EXPECT_STATUS(cc_pipeline_create(m, &d, &p), CC_ERR_INVALID_CAPACITY);
        EXPECT_TRUE(message_names({r.word}));
        EXPECT_EQ(p, nullptr);
    }
    EXPECT_EQ(cc_allocation_count(), allocs) << "a rejected pipeline allocated buffers";
    cc_pipeline_def d = cc_default_pipeline_def();
    d.broad_phase = (cc_broad_phase)9;
    cc_pipeline* p = nullptr;
    EXPECT_STATUS(cc_pipeline_create(m, &d, &p), CC_ERR_INVALID_ARGUMENT);
    EXPECT_TRUE(message_names({"broad_phase 9"}));
    // The model still takes a valid pipeline with explicit capacities.
    d = cc_default_pipeline_def();
    d.rigid_contact_max = 4;
    d.shape_pairs_max = 4;
    CC_ASSERT_OK(cc_pipeline_create(m, &d, &p));
    Pipeline pipeline(p);
    cc_pipeline_info info;
    CC_ASSERT_OK(cc_pipeline_get_info(p, &info));
    EXPECT_EQ(info.rigid_contact_max, 4);
    EXPECT_EQ(info.shape_pairs_max, 4);
    expect_usable();
}

TEST_F(BadInput, CudaDeviceThatDoesNotExist)
{
    for (int ordinal : {99, -1}) {
        SCOPED_TRACE(ordinal);
        cc_model* m = reinterpret_cast<cc_model*>(0x1);
        int64_t allocs = cc_allocation_count();
        EXPECT_STATUS(cc_builder_finalize(b_.get(), cc_device_cuda(ordinal), &m), CC_ERR_NO_DEVICE);
        EXPECT_TRUE(message_names({"CUDA", ("device " + std::to_string(ordinal)).c_str()}));
        EXPECT_EQ(m, reinterpret_cast<cc_model*>(0x1));
        EXPECT_EQ(cc_allocation_count(), allocs);
        char name[64];
        EXPECT_STATUS(cc_device_describe(cc_device_cuda(ordinal), name, sizeof name, nullptr), CC_ERR_NO_DEVICE);
        expect_unchanged();
    }
    cc_device bogus = {(cc_device_kind)7, 0};
    cc_model* m = nullptr;
    EXPECT_STATUS(cc_builder_finalize(b_.get(), bogus, &m), CC_ERR_INVALID_ARGUMENT);
    EXPECT_TRUE(message_names({"device kind 7"}));
    EXPECT_EQ(m, nullptr);
    expect_usable();
}

// ---------------------------------------------------------------- NULL arguments

TEST_F(BadInput, NullArguments)
{
    auto expect_null = [](cc_status s, const char* call) {
        EXPECT_EQ(s, CC_ERR_INVALID_ARGUMENT) << call << ": " << cc_status_string(s);
        EXPECT_TRUE(message_names({"NULL"})) << call;
    };
    cc_builder* b = b_.get();
    expect_null(cc_builder_create(nullptr, nullptr), "cc_builder_create");
    expect_null(cc_builder_add_body(nullptr, nullptr, nullptr), "cc_builder_add_body");
    expect_null(cc_builder_add_shape(nullptr, 0, CC_SHAPE_SPHERE, {1, 0, 0}, nullptr, nullptr), "cc_builder_add_shape");
    expect_null(cc_builder_add_sphere(nullptr, -1, 1.0f, nullptr, nullptr), "cc_builder_add_sphere");
    expect_null(cc_builder_add_filter_pair(nullptr, 0, 1), "cc_builder_add_filter_pair");
    expect_null(cc_builder_begin_world(nullptr, nullptr), "cc_builder_begin_world");
    expect_null(cc_builder_end_world(nullptr), "cc_builder_end_world");
    expect_null(cc_builder_replicate(b, nullptr, 1, nullptr), "cc_builder_replicate");
    expect_null(cc_builder_replicate(nullptr, b, 1, nullptr), "cc_builder_replicate");
    expect_null(cc_builder_add_world(b, nullptr, nullptr), "cc_builder_add_world");
    expect_null(cc_builder_finalize(nullptr, cc_device_cpu(), nullptr), "cc_builder_finalize");
    expect_null(cc_builder_finalize(b, cc_device_cpu(), nullptr), "cc_builder_finalize");
    expect_unchanged();
    EXPECT_EQ(cc_builder_body_count(nullptr), 0);

    World w;
    CC_ASSERT_OK(make_world(b, cc_device_cpu(), cc_default_pipeline_def(), &w));
    cc_model* m = w.model.get();
    cc_state* s = w.state.get();
    cc_pipeline* p = w.pipeline.get();
    cc_contacts* c = w.contacts.get();
    expect_null(cc_state_create(nullptr, &s), "cc_state_create");
    expect_null(cc_state_create(m, nullptr), "cc_state_create");
    expect_null(cc_state_set_body_poses(nullptr, 0, 1, nullptr), "cc_state_set_body_poses");
    expect_null(cc_state_set_body_poses(s, 0, 1, nullptr), "cc_state_set_body_poses");
    expect_null(cc_state_get_body_poses(s, 0, 1, nullptr), "cc_state_get_body_poses");
    cc_vec3 v[1] = {{0, 0, 0}};
    expect_null(cc_state_set_body_velocities(s, 0, 1, v, nullptr), "cc_state_set_body_velocities");
    expect_null(cc_state_get_body_velocities(s, 0, 1, nullptr, v), "cc_state_get_body_velocities");
    expect_null(cc_pipeline_create(nullptr, nullptr, &p), "cc_pipeline_create");
    expect_null(cc_pipeline_create(m, nullptr, nullptr), "cc_pipeline_create");
    expect_null(cc_pipeline_get_info(p, nullptr), "cc_pipeline_get_info");
    expect_null(cc_contacts_create(nullptr, &c), "cc_contacts_create");
    expect_null(cc_contacts_create(p, nullptr), "cc_contacts_create");
    expect_null(cc_collide(nullptr, s, c, nullptr), "cc_collide");
    expect_null(cc_collide(p, nullptr, c, nullptr), "cc_collide");
    expect_null(cc_collide(p, s, nullptr, nullptr), "cc_collide");
    expect_null(cc_pipeline_get_overflow(p, nullptr), "cc_pipeline_get_overflow");
    expect_null(cc_pipeline_get_overflow(nullptr, nullptr), "cc_pipeline_get_overflow");
    int n = 0;
    expect_null(cc_contacts_count(c, nullptr), "cc_contacts_count");
    expect_null(cc_contacts_count(nullptr, &n), "cc_contacts_count");
    expect_null(cc_contacts_download(c, nullptr, nullptr, 0, &n), "cc_contacts_download");
    expect_null(cc_contacts_download(c, s, nullptr, 4, &n), "cc_contacts_download");
    expect_null(cc_contacts_download(c, s, nullptr, 0, nullptr), "cc_contacts_download");
    expect_null(cc_pipeline_download_pairs(p, nullptr, 4, &n), "cc_pipeline_download_pairs");
    expect_null(cc_pipeline_get_route_stats(p, nullptr, 4, &n), "cc_pipeline_get_route_stats");
    expect_null(cc_pipeline_set_profiling(nullptr, 1), "cc_pipeline_set_profiling");
    expect_null(cc_pipeline_get_stage_times(p, nullptr), "cc_pipeline_get_stage_times");
    // The untouched objects still work.
    EXPECT_EQ(w.model.get(), m);
    std::vector<cc_contact> got = collide(w);
    EXPECT_EQ((int)got.size(), spheres_);
    // Destroy functions accept NULL.
    cc_builder_destroy(nullptr);
    cc_model_destroy(nullptr);
    cc_state_destroy(nullptr);
    cc_pipeline_destroy(nullptr);
    cc_contacts_destroy(nullptr);
    expect_usable();
}

// ---------------------------------------------------------------- state

class BadState : public BadInput {
  protected:
    void SetUp() override
    {
        BadInput::SetUp();
        if (HasFatalFailure()) return;
        ASSERT_EQ(make_world(b_.get(), cc_device_cpu(), cc_default_pipeline_def(), &w_), CC_OK) << cc_last_error_message();
        n_ = cc_model_body_count(w_.model.get());
        ASSERT_EQ(n_, 2);
        old_.resize((size_t)n_);
        CC_ASSERT_OK(cc_state_get_body_poses(w_.state.get(), 0, n_, old_.data()));
    }
    void expect_poses_unchanged()
    {
        std::vector<cc_transform> now((size_t)n_);
        CC_ASSERT_OK(cc_state_get_body_poses(w_.state.get(), 0, n_, now.data()));
        EXPECT_EQ(std::memcmp(now.data(), old_.data(), sizeof(cc_transform) * (size_t)n_), 0)
            << "a rejected cc_state_set_body_poses changed the state";
    }
    // The state still collides: one contact per sphere.
    void expect_state_usable()
    {
        std::vector<cc_transform> moved = old_;
        moved[1].p.z = 0.4f;
        CC_ASSERT_OK(cc_state_set_body_poses(w_.state.get(), 1, 1, &moved[1]));
        std::vector<cc_contact> got = collide(w_);
        ASSERT_EQ(got.size(), 2u);
        float d1 = got[0].shape1 == 2 ? got[0].distance : got[1].distance;
        EXPECT_NEAR(d1, -0.1f, 1e-5f) << "the valid pose set after the rejection was not applied";
    }
    World w_;
    int n_ = 0;
    std::vector<cc_transform> old_;
};

TEST_F(BadState, SetBodyPosesWithNaN)
{
    for (const PoseCase& c : non_finite_poses()) {
        SCOPED_TRACE(c.name);
        // A valid pose first, the bad one second: the valid one must not land either.
        cc_transform poses[2] = {{{5, 5, 5}, {0, 0, 0, 1}}, c.pose};
        EXPECT_STATUS(cc_state_set_body_poses(w_.state.get(), 0, 2, poses), CC_ERR_NOT_FINITE);
        EXPECT_TRUE(message_names({"body 1", "NaN or infinity", "nothing was changed"}));
        expect_poses_unchanged();
    }
    expect_state_usable();
}

TEST_F(BadState, SetBodyPosesOutOfRange)
{
    cc_transform poses[3] = {{{1, 1, 1}, {0, 0, 0, 1}}, {{1, 1, 1}, {0, 0, 0, 1}}, {{1, 1, 1}, {0, 0, 0, 1}}};
    struct Range {
        int first, count;
    } rows[] = {{0, 3}, {2, 1}, {-1, 1}, {1, -1}, {3, 0}, {1, 2}, {INT32_MIN, 1}, {-1, INT32_MAX}};
    for (const Range& r : rows) {
        SCOPED_TRACE(testing::Message() << "first " << r.first << " count " << r.count);
        EXPECT_STATUS(cc_state_set_body_poses(w_.state.get(), r.first, r.count, poses), CC_ERR_INVALID_BODY);
        EXPECT_TRUE(message_names({"outside"}));
        expect_poses_unchanged();
        cc_transform out[3];
        EXPECT_STATUS(cc_state_get_body_poses(w_.state.get(), r.first, r.count, out), CC_ERR_INVALID_BODY);
    }
    // Empty ranges inside the model are fine.
    CC_ASSERT_OK(cc_state_set_body_poses(w_.state.get(), 2, 0, poses));
    expect_poses_unchanged();
    expect_state_usable();
}

// Ranges whose end does not fit in an int are rejected like any other.
TEST_F(BadState, SetBodyPosesRangeEndPastIntMax)
{
    cc_transform pose = {{1, 1, 1}, {0, 0, 0, 1}};
    struct Range {
        int first, count;
    } rows[] = {{INT32_MAX, 1}, {1, INT32_MAX}, {INT32_MAX, INT32_MAX}};
    for (const Range& r : rows) {
        SCOPED_TRACE(testing::Message() << "first " << r.first << " count " << r.count);
        // first + count overflows int: neither the check nor its message may
        // compute it in int (the sanitizer build would abort).
        EXPECT_STATUS(cc_state_set_body_poses(w_.state.get(), r.first, r.count, &pose), CC_ERR_INVALID_BODY);
        EXPECT_TRUE(message_names({"outside"}));
        expect_poses_unchanged();
    }
    expect_state_usable();
}

TEST_F(BadState, SetVelocitiesWithNaN)
{
    cc_vec3 lin[2] = {{1, 0, 0}, {0, 0, 0}}, ang[2] = {{0, 0, 0}, {0, kNaN, 0}};
    EXPECT_STATUS(cc_state_set_body_velocities(w_.state.get(), 0, 2, lin, ang), CC_ERR_NOT_FINITE);
    EXPECT_TRUE(message_names({"body 1", "nothing was changed"}));
    cc_vec3 gl[2], ga[2];
    CC_ASSERT_OK(cc_state_get_body_velocities(w_.state.get(), 0, 2, gl, ga));
    EXPECT_EQ(gl[0].x, 0.0f) << "the valid velocity of body 0 landed although the call failed";
    expect_state_usable();
}

TEST_F(BadState, ObjectsFromAnotherModel)
{
    // A second, identical model: same counts, different object.
    World other;
    CC_ASSERT_OK(make_world(b_.get(), cc_device_cpu(), cc_default_pipeline_def(), &other));
    int n = -7;
    EXPECT_STATUS(cc_collide(w_.pipeline.get(), other.state.get(), w_.contacts.get(), nullptr), CC_ERR_MISMATCH);
    EXPECT_TRUE(message_names({"model"}));
    EXPECT_STATUS(cc_collide(w_.pipeline.get(), w_.state.get(), other.contacts.get(), nullptr), CC_ERR_MISMATCH);
    EXPECT_TRUE(message_names({"model"}));
    EXPECT_STATUS(cc_collide(w_.pipeline.get(), other.state.get(), other.contacts.get(), nullptr), CC_ERR_MISMATCH);
    std::vector<cc_contact> rows(8);
    CC_ASSERT_OK(cc_collide(w_.pipeline.get(), w_.state.get(), w_.contacts.get(), nullptr));
    EXPECT_STATUS(cc_contacts_download(w_.contacts.get(), other.state.get(), rows.data(), 8, &n), CC_ERR_MISMATCH);
    EXPECT_TRUE(message_names({"model"}));
    EXPECT_EQ(n, -7);
    // The rejected collides did not run: the other buffer is still empty.
    CC_ASSERT_OK(cc_contacts_count(other.contacts.get(), &n));
    EXPECT_EQ(n, 0);
    expect_state_usable();
    std::vector<cc_contact> o = collide(other);
    EXPECT_EQ(o.size(), 2u);
}

// A contact buffer made by one pipeline, filled by another pipeline of the
// same model with a larger capacity: the pipeline must either refuse it
// (CC_ERR_MISMATCH) or report the overflow against the buffer it filled;
// dropping contacts silently is the one thing it may not do.
TEST_F(BadState, ContactsFromAnotherPipelineNeverDropSilently)
{
    cc_pipeline_def small = cc_default_pipeline_def();
    small.rigid_contact_max = 1;
    cc_pipeline* ps = nullptr;
    CC_ASSERT_OK(cc_pipeline_create(w_.model.get(), &small, &ps));
    Pipeline p_small(ps);
    cc_contacts* cs = nullptr;
    CC_ASSERT_OK(cc_contacts_create(ps, &cs));
    Contacts c_small(cs);
    ASSERT_EQ(cc_contacts_capacity(cs), 1);

    cc_status s = cc_collide(w_.pipeline.get(), w_.state.get(), cs, nullptr);
    if (s == CC_ERR_MISMATCH) {
        EXPECT_TRUE(message_names({"pipeline"}));
        return;
    }
    ASSERT_EQ(s, CC_OK) << cc_last_error_message();
    int n = 0;
    CC_ASSERT_OK(cc_contacts_count(cs, &n));
    EXPECT_EQ(n, 1);
    cc_overflow ov;
    CC_ASSERT_OK(cc_pipeline_get_overflow(w_.pipeline.get(), &ov));
    EXPECT_EQ(ov.contacts_needed, 2);
    // The overflow record must compare against the buffer the pass filled,
    // not the pipeline's own rigid_contact_max (256).
    EXPECT_TRUE(ov.contacts_overflowed) << "2 contacts went into a 1-row buffer without an overflow report";
    EXPECT_EQ(ov.contacts_capacity, 1);
}

// Component k of a pose: p.x p.y p.z q.x q.y q.z q.w.
void set_pose_field(cc_transform* t, int k, float value)
{
    float* f[7] = {&t->p.x, &t->p.y, &t->p.z, &t->q.x, &t->q.y, &t->q.z, &t->q.w};
    *f[k] = value;
}

// Poses written straight into the state's array bypass validation; the pass
// must survive them (any contacts, but no crash and a bounded count) on
// every broad phase.
TEST_F(BadInput, NonFinitePosesInTheStateArrayDoNotCrashCollide)
{
    // A richer scene: every shape type, touching pairs of each route.
    int body = add_body(b_.get(), {0, 4, 0.45f});
    CC_ASSERT_OK(cc_builder_add_box(b_.get(), body, {0.5f, 0.5f, 0.5f}, nullptr, nullptr));
    body = add_body(b_.get(), {0.9f, 4, 0.45f});
    CC_ASSERT_OK(cc_builder_add_capsule(b_.get(), body, 0.3f, 0.4f, nullptr, nullptr));
    body = add_body(b_.get(), {0, 4, 1.4f});
    CC_ASSERT_OK(cc_builder_add_box(b_.get(), body, {0.5f, 0.5f, 0.5f}, nullptr, nullptr));
    CC_ASSERT_OK(cc_builder_add_plane(b_.get(), CC_BODY_WORLD, 20.0f, 20.0f, nullptr, nullptr));
    const float bads[] = {kNaN, kInf, -kInf, 1e38f};
    for (cc_broad_phase bp : {CC_BROAD_PHASE_NXN, CC_BROAD_PHASE_SAP, CC_BROAD_PHASE_EXPLICIT}) {
        SCOPED_TRACE(testing::Message() << "broad phase " << (int)bp);
        cc_pipeline_def d = cc_default_pipeline_def();
        d.broad_phase = bp;
        World w;
        CC_ASSERT_OK(make_world(b_.get(), cc_device_cpu(), d, &w));
        int nb = cc_model_body_count(w.model.get());
        int ns = cc_model_shape_count(w.model.get());
        std::vector<cc_transform> good((size_t)nb);
        CC_ASSERT_OK(cc_state_get_body_poses(w.state.get(), 0, nb, good.data()));
        int cap = cc_contacts_capacity(w.contacts.get());
        for (float bad : bads) {
            for (int field = 0; field < 7; ++field) {
                for (int which = -1; which < nb; ++which) {  // -1: every body
                    SCOPED_TRACE(testing::Message() << "value " << bad << " field " << field << " body " << which);
                    cc_transform* dev = cc_state_body_poses_device(w.state.get());
                    ASSERT_NE(dev, nullptr);
                    for (int i = 0; i < nb; ++i) {
                        dev[i] = good[(size_t)i];
                        if (which >= 0 && i != which) continue;
                        set_pose_field(&dev[i], field, bad);
                    }
                    ASSERT_EQ(cc_collide(w.pipeline.get(), w.state.get(), w.contacts.get(), nullptr), CC_OK)
                        << cc_last_error_message();
                    int n = -1;
                    CC_ASSERT_OK(cc_contacts_count(w.contacts.get(), &n));
                    EXPECT_GE(n, 0);
                    EXPECT_LE(n, cap);
                    cc_overflow ov;
                    CC_ASSERT_OK(cc_pipeline_get_overflow(w.pipeline.get(), &ov));
                    EXPECT_LE(ov.pairs_needed, ns * (ns - 1) / 2);
                    std::vector<cc_contact> rows((size_t)cap);
                    int got = 0;
                    CC_ASSERT_OK(cc_contacts_download(w.contacts.get(), w.state.get(), rows.data(), cap, &got));
                    for (int i = 0; i < std::min(got, cap); ++i) {
                        EXPECT_GE(rows[(size_t)i].shape0, 0);
                        EXPECT_LT(rows[(size_t)i].shape0, ns);
                        EXPECT_GE(rows[(size_t)i].shape1, 0);
                        EXPECT_LT(rows[(size_t)i].shape1, ns);
                    }
                }
            }
        }
        // Restored poses collide normally again.
        CC_ASSERT_OK(cc_state_set_body_poses(w.state.get(), 0, nb, good.data()));
        std::vector<cc_contact> clean = collide(w);
        EXPECT_GE(clean.size(), 2u + 4u);
    }
}

// ---------------------------------------------------------------- status names

TEST(StatusNames, EveryStatusHasItsOwnName)
{
    const struct {
        cc_status s;
        const char* name;
    } all[] = {{CC_OK, "CC_OK"},
               {CC_ERR_INVALID_ARGUMENT, "CC_ERR_INVALID_ARGUMENT"},
               {CC_ERR_INVALID_SIZE, "CC_ERR_INVALID_SIZE"},
               {CC_ERR_NOT_FINITE, "CC_ERR_NOT_FINITE"},
               {CC_ERR_INVALID_BODY, "CC_ERR_INVALID_BODY"},
               {CC_ERR_UNSUPPORTED, "CC_ERR_UNSUPPORTED"},
               {CC_ERR_WORLD_OUT_OF_RANGE, "CC_ERR_WORLD_OUT_OF_RANGE"},
               {CC_ERR_INVALID_CAPACITY, "CC_ERR_INVALID_CAPACITY"},
               {CC_ERR_NO_DEVICE, "CC_ERR_NO_DEVICE"},
               {CC_ERR_OUT_OF_MEMORY, "CC_ERR_OUT_OF_MEMORY"},
               {CC_ERR_CUDA, "CC_ERR_CUDA"},
               {CC_ERR_INVALID_STATE, "CC_ERR_INVALID_STATE"},
               {CC_ERR_UNINITIALIZED_DEF, "CC_ERR_UNINITIALIZED_DEF"},
               {CC_ERR_MISMATCH, "CC_ERR_MISMATCH"},
               {CC_ERR_INVALID_SHAPE, "CC_ERR_INVALID_SHAPE"},
               {CC_ERR_IO, "CC_ERR_IO"},
               {CC_ERR_PARSE, "CC_ERR_PARSE"}};
    std::set<std::string> names;
    for (const auto& e : all) {
        const char* n = cc_status_string(e.s);
        ASSERT_NE(n, nullptr);
        EXPECT_STREQ(n, e.name);
        names.insert(n);
    }
    EXPECT_EQ(names.size(), sizeof all / sizeof all[0]);
    // Values are the stable numbers 0..16.
    for (int i = 0; i < (int)(sizeof all / sizeof all[0]); ++i) EXPECT_EQ((int)all[i].s, i);
    // Unknown values still get a name that is none of the real ones.
    for (int v : {17, 99, -1}) {
        const char* n = cc_status_string((cc_status)v);
        ASSERT_NE(n, nullptr);
        EXPECT_EQ(names.count(n), 0u) << v;
    }
}

TEST(StatusNames, SuccessClearsTheLastError)
{
    cc_builder* b = nullptr;
    EXPECT_EQ(cc_builder_create(nullptr, nullptr), CC_ERR_INVALID_ARGUMENT);
    EXPECT_STRNE(cc_last_error_message(), "");
    ASSERT_EQ(cc_builder_create(nullptr, &b), CC_OK);
    Builder owner(b);
    EXPECT_STREQ(cc_last_error_message(), "");
}

}  // namespace
