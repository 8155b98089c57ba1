// The MJCF loader: every pose and size form against hand-computed values,
// default classes and childclass, joints and welding, contype/conaffinity
// and <exclude> through the pipeline, the margin/gap mapping, batched
// worlds, assets (STL binary and ASCII, OBJ, inline meshes, PNG and inline
// heightfields), and each error case with its own message naming file and
// line.
#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <unistd.h>
#include <set>
#include <string>
#include <vector>

#include "tests/support/test_support.h"

using namespace cctest;

namespace {

constexpr float kTol = 1e-5f;
const float kH = std::sqrt(0.5f); // cos 45 deg = sin 45 deg

// Log messages received while a LogCapture lives.
struct LogCapture {
    std::vector<std::string> messages;
    LogCapture() { cc_set_log_callback(&LogCapture::sink, this); }
    ~LogCapture() { cc_set_log_callback(nullptr, nullptr); }
    static void sink(cc_log_level, const char* m, void* user) { static_cast<LogCapture*>(user)->messages.push_back(m); }
    int count_containing(const std::string& s) const
    {
        int n = 0;
        for (const auto& m : messages) n += m.find(s) != std::string::npos;
        return n;
    }
};

Builder load(const std::string& xml, const cc_mjcf_options* o = nullptr, const char* base_dir = nullptr)
{
    Builder b = make_builder();
    cc_status s = cc_builder_load_mjcf_string(b.get(), xml.c_str(), base_dir, o);
    EXPECT_EQ(s, CC_OK) << cc_status_string(s) << ": " << cc_last_error_message();
    return b;
}

std::string scene(const std::string& body, const std::string& head = "")
{
    return "<mujoco>" + head + "<worldbody>" + body + "</worldbody></mujoco>";
}

cc_shape_info shape(const cc_builder* b, int i)
{
    cc_shape_info si;
    EXPECT_EQ(cc_builder_get_shape_info(b, i, &si), CC_OK) << cc_last_error_message();
    return si;
}

// Quaternions equal up to sign.
::testing::AssertionResult same_rotation(cc_quat a, cc_quat b)
{
    float d = a.x * b.x + a.y * b.y + a.z * b.z + a.w * b.w;
    if (std::fabs(std::fabs(d) - 1.0f) < 1e-5f) return ::testing::AssertionSuccess();
    return ::testing::AssertionFailure() << "(" << a.x << ", " << a.y << ", " << a.z << ", " << a.w << ") vs (" << b.x << ", "
                                         << b.y << ", " << b.z << ", " << b.w << ")";
}

void expect_vec(cc_vec3 v, float x, float y, float z)
{
    EXPECT_NEAR(v.x, x, kTol);
    EXPECT_NEAR(v.y, y, kTol);
    EXPECT_NEAR(v.z, z, kTol);
}

// A directory of the test's own, removed when the binary exits.
std::string temp_dir() { return scratch_dir("cc_mjcf_"); }

void write_file(const std::string& path, const std::string& text)
{
    std::ofstream f(path, std::ios::binary);
    f << text;
}

} // namespace

// ------------------------------------------------------------------- poses

TEST(MjcfPose, EveryOrientationFormMatchesItsQuaternion)
{
    struct Case {
        const char* attr;
        cc_quat q; // (x, y, z, w)
    } cases[] = {
        {"quat=\"0.7071068 0 0.7071068 0\"", {0, kH, 0, kH}},        // MJCF order is w x y z
        {"quat=\"2 0 0 0\"", {0, 0, 0, 1}},                          // normalised
        {"axisangle=\"0 0 1 90\"", {0, 0, kH, kH}},                  // degrees by default
        {"axisangle=\"0 0 3 90\"", {0, 0, kH, kH}},                  // axis normalised
        {"euler=\"90 0 0\"", {kH, 0, 0, kH}},                        // about x
        {"euler=\"90 90 0\"", {0.5f, 0.5f, 0.5f, 0.5f}},             // Rx(90) Ry(90), intrinsic xyz
        {"xyaxes=\"0 1 0 -1 0 0\"", {0, 0, kH, kH}},                 // x -> +y: 90 deg about z
        {"xyaxes=\"0 2 0 -1 0.5 0\"", {0, 0, kH, kH}},               // y made orthogonal to x
        {"zaxis=\"1 0 0\"", {0, kH, 0, kH}},                         // +z -> +x: 90 deg about y
        {"zaxis=\"0 0 -1\"", {1, 0, 0, 0}},                          // half a turn
        {"zaxis=\"0 0 1\"", {0, 0, 0, 1}},
    };
    for (const Case& c : cases) {
        SCOPED_TRACE(c.attr);
        Builder b = load(scene(std::string("<geom type=\"sphere\" size=\"0.1\" pos=\"1 2 3\" ") + c.attr + "/>"));
        ASSERT_EQ(cc_builder_shape_count(b.get()), 1);
        cc_shape_info s = shape(b.get(), 0);
        expect_vec(s.local.p, 1, 2, 3);
        EXPECT_TRUE(same_rotation(s.local.q, c.q));
    }
}

TEST(MjcfPose, CompilerAngleAndEulerSequence)
{
    // Radians.
    Builder r = load(scene("<geom type=\"sphere\" size=\"0.1\" axisangle=\"0 0 1 1.5707963\"/>", "<compiler angle=\"radian\"/>"));
    EXPECT_TRUE(same_rotation(shape(r.get(), 0).local.q, {0, 0, kH, kH}));
    // Extrinsic XYZ: Ry(90) Rx(90), which differs from intrinsic xyz in z's sign.
    Builder e = load(scene("<geom type=\"sphere\" size=\"0.1\" euler=\"90 90 0\"/>", "<compiler eulerseq=\"XYZ\"/>"));
    EXPECT_TRUE(same_rotation(shape(e.get(), 0).local.q, {0.5f, 0.5f, -0.5f, 0.5f}));
    // zyx: first about z by 90, then about the new y by 0, then x by 0.
    Builder z = load(scene("<geom type=\"sphere\" size=\"0.1\" euler=\"90 0 0\"/>", "<compiler eulerseq=\"zyx\"/>"));
    EXPECT_TRUE(same_rotation(shape(z.get(), 0).local.q, {0, 0, kH, kH}));
}

TEST(MjcfPose, BodiesWithoutJointsWeldToTheirParent)
{
    // A static chain: body at (1,0,0) turned 90 deg about z, geom at (1,0,0) in it.
    Builder b = load(scene("<body pos=\"1 0 0\" euler=\"0 0 90\"><body pos=\"0 0 1\">"
                           "<geom type=\"box\" size=\"0.1 0.1 0.1\" pos=\"1 0 0\"/></body></body>"));
    ASSERT_EQ(cc_builder_shape_count(b.get()), 1);
    EXPECT_EQ(cc_builder_body_count(b.get()), 0); // static geometry hangs on the world
    cc_shape_info s = shape(b.get(), 0);
    EXPECT_EQ(s.body, CC_BODY_WORLD);
    EXPECT_EQ(s.world, CC_WORLD_GLOBAL);
    expect_vec(s.local.p, 1, 1, 1);
    EXPECT_TRUE(same_rotation(s.local.q, {0, 0, kH, kH}));

    // A free body with a welded child: both geoms on the one dynamic body.
    Builder d = load(scene("<body pos=\"0 0 1\" euler=\"0 0 90\"><freejoint/>"
                           "<geom type=\"sphere\" size=\"0.1\" pos=\"0.5 0 0\"/>"
                           "<body pos=\"0 1 0\"><geom type=\"sphere\" size=\"0.1\"/></body></body>"));
    ASSERT_EQ(cc_builder_body_count(d.get()), 1);
    cc_body_info body;
    ASSERT_EQ(cc_builder_get_body_info(d.get(), 0, &body), CC_OK);
    EXPECT_FALSE(body.is_static);
    EXPECT_EQ(body.world, 0);
    expect_vec(body.pose.p, 0, 0, 1);
    EXPECT_TRUE(same_rotation(body.pose.q, {0, 0, kH, kH}));
    ASSERT_EQ(cc_builder_shape_count(d.get()), 2);
    EXPECT_EQ(shape(d.get(), 0).body, 0);
    EXPECT_EQ(shape(d.get(), 1).body, 0);
    expect_vec(shape(d.get(), 0).local.p, 0.5f, 0, 0);
    expect_vec(shape(d.get(), 1).local.p, 0, 1, 0);
}

TEST(MjcfPose, FramesComposeLikeWeldedBodies)
{
    Builder b = load(scene("<frame pos=\"0 0 2\" zaxis=\"1 0 0\"><geom type=\"sphere\" size=\"0.1\" pos=\"0 0 1\"/></frame>"));
    cc_shape_info s = shape(b.get(), 0);
    expect_vec(s.local.p, 1, 0, 2);
    EXPECT_TRUE(same_rotation(s.local.q, {0, kH, 0, kH}));
}

// ------------------------------------------------------------------- sizes

TEST(MjcfSize, EachTypeReadsMujocoSizes)
{
    Builder b = load(scene("<geom type=\"sphere\" size=\"0.3\"/>"
                           "<geom type=\"capsule\" size=\"0.1 0.4\"/>"
                           "<geom type=\"cylinder\" size=\"0.2 0.5\"/>"
                           "<geom type=\"box\" size=\"0.1 0.2 0.3\"/>"
                           "<geom type=\"ellipsoid\" size=\"0.1 0.2 0.3\"/>"
                           "<geom type=\"plane\" size=\"2 3 0.1\"/>"
                           "<geom size=\"0.25\"/>")); // sphere is the default type
    ASSERT_EQ(cc_builder_shape_count(b.get()), 7);
    struct {
        cc_shape_type type;
        cc_vec3 size;
    } want[] = {{CC_SHAPE_SPHERE, {0.3f, 0, 0}},      {CC_SHAPE_CAPSULE, {0.1f, 0.4f, 0}},
                {CC_SHAPE_CYLINDER, {0.2f, 0.5f, 0}}, {CC_SHAPE_BOX, {0.1f, 0.2f, 0.3f}},
                {CC_SHAPE_ELLIPSOID, {0.1f, 0.2f, 0.3f}}, {CC_SHAPE_PLANE, {0, 0, 0}}, // infinite, as MuJoCo collides it
                {CC_SHAPE_SPHERE, {0.25f, 0, 0}}};
    for (int i = 0; i < 7; ++i) {
        SCOPED_TRACE(i);
        cc_shape_info s = shape(b.get(), i);
        EXPECT_EQ(s.type, want[i].type);
        expect_vec(s.size, want[i].size.x, want[i].size.y, want[i].size.z);
    }
    cc_mjcf_options o = cc_default_mjcf_options();
    o.finite_planes = 1;
    Builder f = load(scene("<geom type=\"plane\" size=\"2 3 0.1\"/><geom type=\"plane\" size=\"0 0 1\"/>"), &o);
    expect_vec(shape(f.get(), 0).size, 2, 3, 0);
    expect_vec(shape(f.get(), 1).size, 0, 0, 0);
}

TEST(MjcfSize, FromtoPlacesCapsulesCylindersAndBoxes)
{
    Builder b = load(scene("<geom type=\"capsule\" size=\"0.1\" fromto=\"0 0 0 0 0 2\"/>"
                           "<geom type=\"cylinder\" size=\"0.1\" fromto=\"1 0 0 3 0 0\"/>"
                           "<geom type=\"box\" size=\"0.1 0.2\" fromto=\"0 0 0 0 0 1\"/>"
                           "<geom type=\"capsule\" size=\"0.05\" fromto=\"0 0 1 0 0 0\" pos=\"9 9 9\"/>"));
    cc_shape_info c = shape(b.get(), 0);
    expect_vec(c.size, 0.1f, 1.0f, 0);
    expect_vec(c.local.p, 0, 0, 1);
    EXPECT_TRUE(same_rotation(c.local.q, {0, 0, 0, 1}));
    cc_shape_info y = shape(b.get(), 1);
    EXPECT_EQ(y.type, CC_SHAPE_CYLINDER);
    expect_vec(y.size, 0.1f, 1.0f, 0);
    expect_vec(y.local.p, 2, 0, 0);
    EXPECT_TRUE(same_rotation(y.local.q, {0, kH, 0, kH}));
    expect_vec(shape(b.get(), 2).size, 0.1f, 0.2f, 0.5f);
    cc_shape_info down = shape(b.get(), 3); // fromto overrides pos; points down
    expect_vec(down.local.p, 0, 0, 0.5f);
    EXPECT_TRUE(same_rotation(down.local.q, {1, 0, 0, 0}));
}

// --------------------------------------------------------- default classes

TEST(MjcfDefaults, ClassesNestAndChildclassApplies)
{
    const char* head =
        "<default>"
        "  <geom type=\"box\" size=\"0.1 0.1 0.1\" contype=\"3\"/>"
        "  <default class=\"big\"><geom size=\"1 1 1\"/>"
        "    <default class=\"ball\"><geom type=\"sphere\" size=\"0.5\" conaffinity=\"4\"/></default>"
        "  </default>"
        "</default>";
    Builder b = load(scene("<geom/>"                                  // main: box 0.1, contype 3
                           "<geom class=\"big\"/>"                    // box 1, inherited contype
                           "<body childclass=\"ball\"><geom/>"        // sphere 0.5 through childclass
                           "  <geom class=\"big\"/>"                  // class beats childclass
                           "  <body><geom size=\"0.25\"/></body>"     // inherited by nested bodies
                           "</body>",
                           head));
    ASSERT_EQ(cc_builder_shape_count(b.get()), 5);
    cc_shape_info s0 = shape(b.get(), 0), s1 = shape(b.get(), 1), s2 = shape(b.get(), 2), s3 = shape(b.get(), 3),
                  s4 = shape(b.get(), 4);
    EXPECT_EQ(s0.type, CC_SHAPE_BOX);
    expect_vec(s0.size, 0.1f, 0.1f, 0.1f);
    EXPECT_EQ(s0.collision_type_bits, 3u);
    EXPECT_EQ(s0.collision_affinity_bits, 1u);
    EXPECT_EQ(s1.type, CC_SHAPE_BOX);
    expect_vec(s1.size, 1, 1, 1);
    EXPECT_EQ(s1.collision_type_bits, 3u);
    EXPECT_EQ(s2.type, CC_SHAPE_SPHERE);
    EXPECT_NEAR(s2.size.x, 0.5f, kTol);
    EXPECT_EQ(s2.collision_type_bits, 3u);
    EXPECT_EQ(s2.collision_affinity_bits, 4u);
    EXPECT_EQ(s3.type, CC_SHAPE_BOX);
    expect_vec(s3.size, 1, 1, 1);
    EXPECT_EQ(s4.type, CC_SHAPE_SPHERE);
    EXPECT_NEAR(s4.size.x, 0.25f, kTol);
}

TEST(MjcfDefaults, DefaultsMayComeAfterTheWorldbody)
{
    Builder b = load("<mujoco><worldbody><geom/></worldbody><default><geom type=\"box\" size=\"1 2 3\"/></default></mujoco>");
    EXPECT_EQ(shape(b.get(), 0).type, CC_SHAPE_BOX);
}

// ------------------------------------------------------------------ joints

TEST(MjcfJoints, FreeAndOtherJointsMakeDynamicBodies)
{
    LogCapture log;
    Builder b = load(scene("<body name=\"root\"><freejoint/><geom size=\"0.1\"/>"
                           "  <body name=\"arm\"><joint type=\"hinge\"/><geom size=\"0.1\"/>"
                           "    <body name=\"hand\"><joint/><geom size=\"0.1\"/></body>"
                           "  </body>"
                           "</body>"
                           "<body><joint type=\"free\"/><geom size=\"0.1\"/></body>"
                           "<body mocap=\"true\"><geom size=\"0.1\"/></body>"));
    ASSERT_EQ(cc_builder_body_count(b.get()), 5);
    cc_body_info info[5];
    for (int i = 0; i < 5; ++i) ASSERT_EQ(cc_builder_get_body_info(b.get(), i, &info[i]), CC_OK);
    EXPECT_EQ(info[0].parent, -1);
    EXPECT_EQ(info[1].parent, 0);
    EXPECT_EQ(info[2].parent, 1);
    EXPECT_EQ(info[3].parent, -1);
    for (int i = 0; i < 4; ++i) EXPECT_FALSE(info[i].is_static);
    EXPECT_TRUE(info[4].is_static); // mocap
    // Two hinge joints (the default type), reported once.
    EXPECT_EQ(log.count_containing("hinge joints"), 1);
}

TEST(MjcfJoints, ParentChildPairsAreSkipped)
{
    // Arm and hand overlap their parents; only the grandparent pair collides.
    Builder b = load(scene("<body><freejoint/><geom size=\"0.1\"/>"
                           "  <body><joint/><geom size=\"0.1\" pos=\"0.15 0 0\"/>"
                           "    <body><joint/><geom size=\"0.1\" pos=\"0.1 0 0\"/></body>"
                           "  </body>"
                           "</body>"));
    World w;
    cc_pipeline_def d = cc_default_pipeline_def();
    ASSERT_EQ(make_world(b.get(), cc_device_cpu(), d, &w), CC_OK) << cc_last_error_message();
    auto c = collide(w);
    ASSERT_EQ(c.size(), 1u);
    EXPECT_EQ(c[0].shape0, 0);
    EXPECT_EQ(c[0].shape1, 2);
}

// ---------------------------------------------------------------- reports

TEST(MjcfReports, NotesAreCountedOneLinePerKind)
{
    LogCapture log;
    Builder b = load("<mujoco model=\"m\"><option timestep=\"0.01\"/><worldbody>\n"
                     "<geom size=\"0.1\" rgba=\"1 0 0 1\"/><geom size=\"0.1\" rgba=\"0 1 0 1\" mass=\"2\"/>\n"
                     "<site name=\"s\"/><site name=\"t\"/></worldbody><tendon/><tendon/></mujoco>");
    EXPECT_EQ(cc_builder_shape_count(b.get()), 2);
    // Elements: one line per kind, with the count and the first place.
    EXPECT_EQ(log.count_containing("<site> is not used for collisions; skipped (2 times, first at <string>:3)"), 1);
    EXPECT_EQ(log.count_containing("<tendon>"), 1);
    EXPECT_EQ(log.count_containing("<option> is not used for collisions; skipped (at <string>:1)"), 1);
    // Attributes without meaning for collisions share one line.
    EXPECT_EQ(log.count_containing("3 attributes of 2 kinds with no meaning for collisions ignored: geom rgba x2, geom mass x1"), 1);
    EXPECT_EQ(log.messages.size(), 4u);
}

TEST(MjcfReports, EveryNoteWhereItOccursWhenAsked)
{
    LogCapture log;
    cc_mjcf_options o = cc_default_mjcf_options();
    o.report_every_note = 1;
    Builder b = load("<mujoco><worldbody>\n<geom size=\"0.1\" rgba=\"1 0 0 1\"/>\n<geom size=\"0.1\" rgba=\"0 1 0 1\"/>"
                     "</worldbody></mujoco>",
                     &o);
    EXPECT_EQ(log.count_containing("<string>:2: attribute 'rgba' of <geom>"), 1);
    EXPECT_EQ(log.count_containing("<string>:3: attribute 'rgba' of <geom>"), 1);
    EXPECT_EQ(log.messages.size(), 2u);
}

// ------------------------------------------- contype/conaffinity, exclude

class MjcfFilter : public DeviceTest {};

TEST_P(MjcfFilter, ContypeConaffinityTruthTable)
{
    struct Row {
        unsigned t1, a1, t2, a2;
        bool collides;
    } rows[] = {
        {1, 1, 1, 1, true},  {1, 0, 1, 0, false}, {1, 0, 0, 1, true},  {0, 1, 1, 0, true},
        {2, 2, 1, 1, false}, {3, 0, 0, 2, true},  {0, 0, 1, 1, false}, {5, 8, 8, 2, true},
        {4, 4, 3, 3, false},
    };
    for (const Row& r : rows) {
        SCOPED_TRACE(::testing::Message() << r.t1 << "/" << r.a1 << " vs " << r.t2 << "/" << r.a2);
        char xml[512];
        std::snprintf(xml, sizeof xml,
                      "<mujoco><worldbody>"
                      "<body><freejoint/><geom size=\"0.1\" contype=\"%u\" conaffinity=\"%u\"/></body>"
                      "<body pos=\"0.15 0 0\"><freejoint/><geom size=\"0.1\" contype=\"%u\" conaffinity=\"%u\"/></body>"
                      "</worldbody></mujoco>",
                      r.t1, r.a1, r.t2, r.a2);
        Builder b = load(xml);
        World w;
        ASSERT_EQ(make_world(b.get(), device(), cc_default_pipeline_def(), &w), CC_OK) << cc_last_error_message();
        EXPECT_EQ(collide(w).size(), r.collides ? 1u : 0u);
    }
}

TEST_P(MjcfFilter, BitmasksThroughTheCApi)
{
    // The same rule straight from shape defs, next to the collision groups.
    for (uint32_t ta : {0u, 1u, 2u, 3u})
        for (uint32_t ab : {0u, 1u, 2u}) {
            Builder b = make_builder();
            cc_shape_def d0 = cc_default_shape_def(), d1 = cc_default_shape_def();
            d0.collision_type_bits = ta;
            d0.collision_affinity_bits = 0;
            d1.collision_type_bits = 0;
            d1.collision_affinity_bits = ab;
            int b0 = add_body(b.get(), {0, 0, 0}), b1 = add_body(b.get(), {0.15f, 0, 0});
            ASSERT_EQ(cc_builder_add_sphere(b.get(), b0, 0.1f, &d0, nullptr), CC_OK);
            ASSERT_EQ(cc_builder_add_sphere(b.get(), b1, 0.1f, &d1, nullptr), CC_OK);
            World w;
            ASSERT_EQ(make_world(b.get(), device(), cc_default_pipeline_def(), &w), CC_OK);
            EXPECT_EQ(collide(w).size(), (ta & ab) ? 1u : 0u) << ta << " " << ab;
        }
}

TEST_P(MjcfFilter, ExcludedBodiesNeverCollide)
{
    const std::string body = "<body name=\"a\"><freejoint/><geom size=\"0.1\"/><geom size=\"0.1\" pos=\"0 0 0.05\"/></body>"
                             "<body name=\"b\" pos=\"0.15 0 0\"><freejoint/><geom size=\"0.1\"/></body>"
                             "<body name=\"c\" pos=\"-0.15 0 0\"><freejoint/><geom size=\"0.1\"/></body>"
                             "<geom name=\"floor\" type=\"box\" size=\"1 1 0.1\" pos=\"0 0 -0.195\"/>";
    // Without exclusions: a-b (2 geoms of a), a-c (2), and floor with a, b, c.
    auto count = [&](const std::string& contact, int worlds) {
        cc_mjcf_options o = cc_default_mjcf_options();
        o.worlds = worlds;
        Builder b = load("<mujoco><worldbody>" + body + "</worldbody>" + contact + "</mujoco>", &o);
        World w;
        cc_pipeline_def d = cc_default_pipeline_def();
        EXPECT_EQ(make_world(b.get(), device(), d, &w), CC_OK) << cc_last_error_message();
        int pairs_ab = 0, with_floor = 0;
        for (const cc_contact& c : collide(w)) {
            const char* n0 = cc_builder_shape_name(b.get(), c.shape0);
            const char* n1 = cc_builder_shape_name(b.get(), c.shape1);
            if ((n0 && !std::strcmp(n0, "floor")) || (n1 && !std::strcmp(n1, "floor"))) with_floor++;
            else pairs_ab++;
        }
        return std::make_pair(pairs_ab, with_floor);
    };
    auto all = count("", 1);
    EXPECT_EQ(all.first, 4);
    EXPECT_GT(all.second, 0);
    auto no_ab = count("<contact><exclude body1=\"a\" body2=\"b\"/></contact>", 1);
    EXPECT_EQ(no_ab.first, 2);
    EXPECT_EQ(no_ab.second, all.second);
    // The world body: its geoms against c, in every replicated world.
    auto no_floor_c = count("<contact><exclude body1=\"world\" body2=\"c\"/></contact>", 3);
    auto base3 = count("", 3);
    EXPECT_EQ(no_floor_c.first, base3.first);
    EXPECT_LT(no_floor_c.second, base3.second);
    EXPECT_EQ(base3.first, 3 * all.first);
}

CC_INSTANTIATE_DEVICE_TEST(MjcfFilter);

// ------------------------------------------------------- margin and gap

TEST(MjcfMargin, MarginAndGapAreTheGeomsOwnAsInMujoco4)
{
    Builder b = load(scene("<geom size=\"0.1\" margin=\"0.01\" gap=\"0.004\"/><geom size=\"0.1\"/>"));
    EXPECT_EQ(shape(b.get(), 0).margin, 0.01f);
    EXPECT_EQ(shape(b.get(), 0).gap, 0.004f);
    EXPECT_EQ(shape(b.get(), 1).margin, 0.0f);
    EXPECT_EQ(shape(b.get(), 1).gap, 0.0f); // MuJoCo's defaults, not the builder's rigid_gap

    // Two spheres of radius 0.1, margins 0.01 and gaps 0.005 each: MuJoCo 4.0
    // detects the pair below 0.03 of separation and lets it act below 0.02
    // (measured with MuJoCo 4.0.0: 0.015 active, 0.025 and 0.029 in the gap
    // band, 0.031 nothing). The contact-space distance is separation - 0.02.
    for (float sep : {0.015f, 0.025f, 0.029f, 0.031f}) {
        char xml[512];
        std::snprintf(xml, sizeof xml,
                      "<mujoco><default><geom margin=\"0.01\" gap=\"0.005\"/></default><worldbody>"
                      "<body><freejoint/><geom size=\"0.1\"/></body>"
                      "<body pos=\"%.4f 0 0\"><freejoint/><geom size=\"0.1\"/></body></worldbody></mujoco>",
                      0.2f + sep);
        Builder p = load(xml);
        World w;
        ASSERT_EQ(make_world(p.get(), cc_device_cpu(), cc_default_pipeline_def(), &w), CC_OK);
        auto c = collide(w);
        if (sep < 0.03f) {
            ASSERT_EQ(c.size(), 1u) << sep;
            EXPECT_NEAR(c[0].distance, sep - 0.02f, 1e-5f);
            EXPECT_EQ(c[0].distance < 0.0f, sep < 0.02f) << "acts below the summed margins";
        } else {
            EXPECT_TRUE(c.empty()) << sep;
        }
    }
}

TEST(MjcfMargin, TouchingSurfacesWithoutMarginOrGapMakeNoContact)
{
    // MuJoCo keeps a contact only where dist < margin: two boxes face to face
    // at exactly zero distance are no contact; 1 um of overlap is one.
    for (float lift : {0.0f, -1.0e-3f}) {
        char xml[512];
        std::snprintf(xml, sizeof xml,
                      "<mujoco><worldbody><geom type=\"plane\" size=\"1 1 0.1\"/>"
                      "<body pos=\"0 0 %.6f\"><freejoint/><geom type=\"box\" size=\"0.25 0.25 0.25\"/></body>"
                      "</worldbody></mujoco>",
                      0.25f + lift);
        Builder p = load(xml);
        World w;
        ASSERT_EQ(make_world(p.get(), cc_device_cpu(), cc_default_pipeline_def(), &w), CC_OK);
        auto c = collide(w);
        EXPECT_EQ(c.size(), lift < 0.0f ? 4u : 0u) << lift;
    }
}

TEST(MjcfMargin, Mujoco3RuleSplitsMarginMinusGapBetweenThePair)
{
    cc_mjcf_options o = cc_default_mjcf_options();
    o.margin_semantics = CC_MJCF_MARGIN_MUJOCO3;
    Builder b = load(scene("<geom size=\"0.1\" margin=\"0.01\" gap=\"0.004\"/><geom size=\"0.1\"/>"
                           "<geom size=\"0.1\" margin=\"0.002\" gap=\"0.005\"/>"),
                     &o);
    cc_shape_info s = shape(b.get(), 0);
    EXPECT_NEAR(s.margin, 0.003f, 1e-7f); // (margin - gap) / 2
    EXPECT_NEAR(s.gap, 0.002f, 1e-7f);    // gap / 2
    EXPECT_EQ(shape(b.get(), 1).margin, 0.0f);
    EXPECT_EQ(shape(b.get(), 2).margin, 0.0f);

    // Two equal geoms act as MuJoCo 3.4's pair: detected below margin (0.01),
    // active (d < 0) below margin - gap (0.006).
    for (float sep : {0.005f, 0.008f, 0.012f}) {
        char xml[512];
        std::snprintf(xml, sizeof xml,
                      "<mujoco><default><geom margin=\"0.01\" gap=\"0.004\"/></default><worldbody>"
                      "<body><freejoint/><geom size=\"0.1\"/></body>"
                      "<body pos=\"%.4f 0 0\"><freejoint/><geom size=\"0.1\"/></body></worldbody></mujoco>",
                      0.2f + sep);
        Builder p = load(xml, &o);
        World w;
        ASSERT_EQ(make_world(p.get(), cc_device_cpu(), cc_default_pipeline_def(), &w), CC_OK);
        auto c = collide(w);
        if (sep < 0.01f) {
            ASSERT_EQ(c.size(), 1u) << sep;
            EXPECT_NEAR(c[0].distance, sep - 0.006f, 1e-5f);
        } else {
            EXPECT_TRUE(c.empty()) << sep;
        }
    }
}

// ---------------------------------------------------------------- worlds

TEST(MjcfWorlds, ReplicatesAllButTheStaticGeoms)
{
    const std::string xml = scene("<geom name=\"floor\" type=\"plane\"/>"
                                  "<body name=\"table\"><geom name=\"top\" type=\"box\" size=\"1 1 0.1\" pos=\"0 0 1\"/></body>"
                                  "<body pos=\"0 0 1.195\"><freejoint/><geom name=\"ball\" size=\"0.1\"/></body>"
                                  "<body pos=\"0 0 0.095\"><freejoint/><geom name=\"pebble\" size=\"0.1\"/></body>");
    cc_mjcf_options o = cc_default_mjcf_options();
    o.worlds = 5;
    Builder b = load(xml, &o);
    EXPECT_EQ(cc_builder_world_count(b.get()), 5);
    EXPECT_EQ(cc_builder_shape_count(b.get()), 2 + 5 * 2);
    EXPECT_EQ(cc_builder_body_count(b.get()), 5 * 2);
    EXPECT_EQ(shape(b.get(), 0).world, CC_WORLD_GLOBAL);
    EXPECT_EQ(shape(b.get(), 1).world, CC_WORLD_GLOBAL);
    for (int w = 0; w < 5; ++w) {
        EXPECT_EQ(shape(b.get(), 2 + 2 * w).world, w);
        EXPECT_STREQ(cc_builder_shape_name(b.get(), 2 + 2 * w), "ball");
    }
    World wd;
    ASSERT_EQ(make_world(b.get(), cc_device_cpu(), cc_default_pipeline_def(), &wd), CC_OK);
    auto c = collide(wd);
    EXPECT_EQ(c.size(), 5u * 2u); // ball on the table top, pebble on the floor
    // Per-world static copies.
    o.static_geoms_global = 0;
    Builder p = load(xml, &o);
    EXPECT_EQ(cc_builder_shape_count(p.get()), 5 * 4);
    for (int i = 0; i < cc_builder_shape_count(p.get()); ++i) EXPECT_GE(shape(p.get(), i).world, 0);
    World wp;
    ASSERT_EQ(make_world(p.get(), cc_device_cpu(), cc_default_pipeline_def(), &wp), CC_OK);
    EXPECT_EQ(collide(wp).size(), 5u * 2u);
}

// ----------------------------------------------------------------- assets

TEST(MjcfAssets, StlBinaryAsciiObjAndInlineMeshes)
{
    std::string dir = temp_dir();
    // ASCII STL: a unit tetrahedron, 4 facets, written with shared corners.
    const char* tet[4][3] = {{"0 0 0", "0 1 0", "1 0 0"}, {"0 0 0", "1 0 0", "0 0 1"},
                             {"0 0 0", "0 0 1", "0 1 0"}, {"1 0 0", "0 1 0", "0 0 1"}};
    std::string ascii = "solid tet\n";
    for (auto& f : tet) {
        ascii += " facet normal 0 0 0\n  outer loop\n";
        for (int k = 0; k < 3; ++k) ascii += std::string("   vertex ") + f[k] + "\n";
        ascii += "  endloop\n endfacet\n";
    }
    ascii += "endsolid tet\n";
    write_file(dir + "/tet.stl", ascii);
    // Binary STL of the same tetrahedron (whose header even starts with "solid").
    std::string bin(80, ' ');
    bin.replace(0, 5, "solid");
    uint32_t n = 4;
    bin.append(reinterpret_cast<const char*>(&n), 4);
    for (auto& f : tet) {
        float rec[12] = {0};
        for (int k = 0; k < 3; ++k) std::sscanf(f[k], "%f %f %f", &rec[3 + 3 * k], &rec[4 + 3 * k], &rec[5 + 3 * k]);
        bin.append(reinterpret_cast<const char*>(rec), sizeof rec);
        bin.append(2, '\0');
    }
    write_file(dir + "/tet_bin.stl", bin);
    // OBJ: a unit cube of 6 quads.
    write_file(dir + "/cube.obj", "v 0 0 0\nv 1 0 0\nv 1 1 0\nv 0 1 0\nv 0 0 1\nv 1 0 1\nv 1 1 1\nv 0 1 1\n"
                                  "f 1 4 3 2\nf 5 6 7 8\nf 1 2 6 5\nf 2 3 7 6\nf 3 4 8 7\nf 4 1 5 8\n");
    std::string xml = "<mujoco><compiler meshdir=\"" + dir + "\"/><asset>"
                      "<mesh name=\"a\" file=\"tet.stl\" scale=\"2 2 2\"/><mesh file=\"tet_bin.stl\"/>"
                      "<mesh name=\"cube\" file=\"cube.obj\"/>"
                      "<mesh name=\"inline\" vertex=\"0 0 0 1 0 0 0 1 0 0 0 1\" face=\"0 2 1 0 1 3 0 3 2 1 2 3\"/>"
                      "</asset><worldbody><body><freejoint/>"
                      "<geom type=\"mesh\" mesh=\"a\"/><geom type=\"mesh\" mesh=\"tet_bin\"/>"
                      "<geom type=\"mesh\" mesh=\"cube\"/><geom type=\"mesh\" mesh=\"inline\"/><geom type=\"mesh\" mesh=\"a\"/>"
                      "</body></worldbody></mujoco>";
    cc_mjcf_options as_mesh = cc_default_mjcf_options();
    as_mesh.mesh_mode = CC_MJCF_MESH_AS_MESH;
    Builder b = load(xml, &as_mesh);
    ASSERT_EQ(cc_builder_mesh_count(b.get()), 4); // "a" stored once for two geoms
    int v = 0, t = 0;
    ASSERT_EQ(cc_builder_get_mesh_info(b.get(), 0, &v, &t), CC_OK);
    EXPECT_EQ(v, 4); // corners welded
    EXPECT_EQ(t, 4);
    std::vector<cc_vec3> verts(4);
    ASSERT_EQ(cc_builder_get_mesh_vertices(b.get(), 0, verts.data(), 4), CC_OK);
    float top = 0;
    for (auto& p : verts) top = std::max(top, p.x);
    EXPECT_FLOAT_EQ(top, 2.0f); // scaled
    ASSERT_EQ(cc_builder_get_mesh_info(b.get(), 1, &v, &t), CC_OK);
    EXPECT_EQ(v, 4);
    EXPECT_EQ(t, 4);
    ASSERT_EQ(cc_builder_get_mesh_info(b.get(), 2, &v, &t), CC_OK);
    EXPECT_EQ(v, 8);
    EXPECT_EQ(t, 12); // quads triangulated
    ASSERT_EQ(cc_builder_get_mesh_info(b.get(), 3, &v, &t), CC_OK);
    EXPECT_EQ(v, 4);
    EXPECT_EQ(t, 4);
    for (int i = 0; i < 5; ++i) EXPECT_EQ(shape(b.get(), i).type, CC_SHAPE_MESH);
    EXPECT_EQ(shape(b.get(), 4).source, shape(b.get(), 0).source);

    // As convex hulls by default (MuJoCo collides meshes so).
    Builder h = load(xml);
    cc_mjcf_options o;
    for (int i = 0; i < 5; ++i) EXPECT_EQ(shape(h.get(), i).type, CC_SHAPE_CONVEX_HULL);
    EXPECT_EQ(cc_builder_mesh_count(h.get()), 0);
    // The options' asset_dir replaces meshdir.
    o = as_mesh;
    o.asset_dir = dir.c_str();
    Builder a = load("<mujoco><compiler meshdir=\"/nowhere\"/><asset><mesh file=\"cube.obj\"/></asset>"
                     "<worldbody><geom type=\"mesh\" mesh=\"cube\"/></worldbody></mujoco>",
                     &o);
    EXPECT_EQ(cc_builder_mesh_count(a.get()), 1);
}

TEST(MjcfAssets, HeightfieldsFromPngAndInlineData)
{
    Builder b = load("<mujoco><compiler meshdir=\"assets\"/><asset>"
                     "<hfield name=\"png\" file=\"terrain.png\" size=\"2 3 0.5 0.1\"/>"
                     "<hfield name=\"grid\" nrow=\"2\" ncol=\"3\" elevation=\"1 2 3 4 5 9\" size=\"1 1 2 0\"/>"
                     "</asset><worldbody><geom type=\"hfield\" hfield=\"png\"/>"
                     "<body pos=\"5 0 0\"><geom type=\"hfield\" hfield=\"grid\"/></body></worldbody></mujoco>",
                     nullptr, CC_SCENES_DIR);
    ASSERT_EQ(cc_builder_heightfield_count(b.get()), 2);
    int rows, cols;
    float lo, hi;
    ASSERT_EQ(cc_builder_get_heightfield_info(b.get(), 0, &rows, &cols, &lo, &hi), CC_OK);
    EXPECT_EQ(rows, 64);
    EXPECT_EQ(cols, 64);
    EXPECT_FLOAT_EQ(lo, 0.0f); // normalised, as MuJoCo does
    EXPECT_FLOAT_EQ(hi, 1.0f);
    ASSERT_EQ(cc_builder_get_heightfield_info(b.get(), 1, &rows, &cols, &lo, &hi), CC_OK);
    EXPECT_EQ(rows, 2);
    EXPECT_EQ(cols, 3);
    cc_shape_info s = shape(b.get(), 0);
    EXPECT_EQ(s.type, CC_SHAPE_HEIGHTFIELD);
    expect_vec(s.size, 2, 3, 0.5f);
    EXPECT_EQ(shape(b.get(), 1).world, CC_WORLD_GLOBAL);
    expect_vec(shape(b.get(), 1).local.p, 5, 0, 0);
}

TEST(MjcfAssets, IncludeSplicesAnotherFile)
{
    std::string dir = temp_dir();
    write_file(dir + "/part.xml", "<mujoco><default><geom type=\"box\" size=\"1 1 1\"/></default></mujoco>");
    write_file(dir + "/body.xml", "<mujoco><geom name=\"included\"/></mujoco>");
    Builder b = load("<mujoco><include file=\"part.xml\"/><worldbody><include file=\"body.xml\"/>"
                     "<geom size=\"0.1\" type=\"sphere\"/></worldbody></mujoco>",
                     nullptr, dir.c_str());
    ASSERT_EQ(cc_builder_shape_count(b.get()), 2);
    EXPECT_STREQ(cc_builder_shape_name(b.get(), 0), "included");
    EXPECT_EQ(shape(b.get(), 0).type, CC_SHAPE_BOX);
    EXPECT_EQ(shape(b.get(), 1).type, CC_SHAPE_SPHERE);
}

// ------------------------------------------------- as MuJoCo 4 reads them

TEST(MjcfMujoco4, InlineHeightfieldRowsStartAtTheFarEdge)
{
    // The first elevation row given is the +y edge (MuJoCo 4.0.0 stores it
    // as its last data row). Two spheres over the +y and -y edges: only the
    // +y one meets the ramp z = y between the middle and far rows, at
    // (0.95 - 0.9) / sqrt(2) - 0.1 = -0.0646447 (MuJoCo: -0.0646447).
    Builder b = load("<mujoco><asset><hfield name=\"h\" nrow=\"3\" ncol=\"4\" size=\"1 1 1 0.1\" "
                     "elevation=\"1 1 1 1  0 0 0 0  0 0 0 0\"/></asset><worldbody><geom type=\"hfield\" hfield=\"h\"/>"
                     "<body name=\"far\" pos=\"0.5 0.9 0.95\"><freejoint/><geom name=\"far\" size=\"0.1\"/></body>"
                     "<body name=\"near\" pos=\"0.5 -0.9 0.95\"><freejoint/><geom name=\"near\" size=\"0.1\"/></body>"
                     "</worldbody></mujoco>");
    World w;
    ASSERT_EQ(make_world(b.get(), cc_device_cpu(), cc_default_pipeline_def(), &w), CC_OK);
    auto c = collide(w);
    ASSERT_FALSE(c.empty());
    float deepest = 0.0f;
    for (const auto& k : c) {
        EXPECT_STREQ(cc_builder_shape_name(b.get(), k.shape1 == 0 ? k.shape0 : k.shape1), "far");
        deepest = std::min(deepest, k.distance);
    }
    EXPECT_NEAR(deepest, -0.0646447f, 1e-5f);
}

TEST(MjcfMujoco4, IncludedFilesMayHaveAMujocoincludeRoot)
{
    std::string dir = temp_dir();
    write_file(dir + "/robot.xml", "<mujocoinclude><body name=\"b\"><freejoint/><geom name=\"g\" size=\"0.1\"/></body></mujocoinclude>");
    Builder b = load("<mujoco><worldbody><include file=\"robot.xml\"/></worldbody></mujoco>", nullptr, dir.c_str());
    ASSERT_EQ(cc_builder_shape_count(b.get()), 1);
    EXPECT_STREQ(cc_builder_shape_name(b.get(), 0), "g");
    write_file(dir + "/other.xml", "<robot/>");
    Builder e = make_builder();
    EXPECT_EQ(cc_builder_load_mjcf_string(e.get(), "<mujoco><include file=\"other.xml\"/></mujoco>", dir.c_str(), nullptr), CC_ERR_PARSE);
    EXPECT_NE(std::string(cc_last_error_message()).find("it must be <mujoco> or <mujocoinclude>"), std::string::npos) << cc_last_error_message();
}

TEST(MjcfMujoco4, TopLevelDefaultsAddToTheMainClass)
{
    // Measured with MuJoCo 4.0.0: sizes 0.3, 0.2, 0.1 and margins 0.02,
    // 0.01, 0.02. Class a starts from main as the first block left it.
    Builder b = load("<mujoco><default><geom size=\"0.3\" margin=\"0.01\"/><default class=\"a\"><geom size=\"0.2\"/></default></default>"
                     "<default><geom margin=\"0.02\"/><default class=\"b\"><geom size=\"0.1\"/></default></default>"
                     "<worldbody><geom name=\"g0\"/><geom name=\"g1\" class=\"a\"/><geom name=\"g2\" class=\"b\"/></worldbody></mujoco>");
    const float size[3] = {0.3f, 0.2f, 0.1f}, margin[3] = {0.02f, 0.01f, 0.02f};
    for (int i = 0; i < 3; ++i) {
        EXPECT_FLOAT_EQ(shape(b.get(), i).size.x, size[i]) << i;
        EXPECT_FLOAT_EQ(shape(b.get(), i).margin, margin[i]) << i;
    }
    // A nested class defined twice names both places.
    Builder e = make_builder();
    EXPECT_EQ(cc_builder_load_mjcf_string(e.get(), "<mujoco><default>\n<default class=\"a\"/></default><default>\n\n<default class=\"a\"/>"
                                                   "</default></mujoco>",
                                          nullptr, nullptr),
              CC_ERR_PARSE);
    EXPECT_NE(std::string(cc_last_error_message()).find("<string>:4: <default class=\"a\">: the class is defined twice (first at <string>:2)"),
              std::string::npos)
        << cc_last_error_message();
}

namespace {
void put_i32(std::string& s, int32_t v) { s.append(reinterpret_cast<const char*>(&v), 4); }
void put_f32(std::string& s, float v) { s.append(reinterpret_cast<const char*>(&v), 4); }
} // namespace

TEST(MjcfMujoco4, MshMeshesLoad)
{
    // A tetrahedron with normals and texture coordinates (which are skipped).
    std::string msh;
    for (int32_t n : {4, 4, 4, 4}) put_i32(msh, n);
    const float v[12] = {0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1};
    for (float f : v) put_f32(msh, f);
    for (int i = 0; i < 12; ++i) put_f32(msh, 0.5f);
    for (int i = 0; i < 8; ++i) put_f32(msh, 0.25f);
    for (int32_t k : {0, 2, 1, 0, 1, 3, 0, 3, 2, 1, 2, 3}) put_i32(msh, k);
    std::string dir = temp_dir();
    write_file(dir + "/tet.msh", msh);
    write_file(dir + "/short.msh", msh.substr(0, msh.size() - 4));
    cc_mjcf_options o = cc_default_mjcf_options();
    o.mesh_mode = CC_MJCF_MESH_AS_MESH;
    Builder b = load("<mujoco><compiler meshdir=\"" + dir + "\"/><asset><mesh file=\"tet.msh\" scale=\"2 2 2\"/></asset>"
                     "<worldbody><body><freejoint/><geom type=\"mesh\" mesh=\"tet\"/></body></worldbody></mujoco>",
                     &o);
    int vc = 0, tc = 0;
    ASSERT_EQ(cc_builder_get_mesh_info(b.get(), 0, &vc, &tc), CC_OK);
    EXPECT_EQ(vc, 4);
    EXPECT_EQ(tc, 4);
    std::vector<cc_vec3> got(4);
    ASSERT_EQ(cc_builder_get_mesh_vertices(b.get(), 0, got.data(), 4), CC_OK);
    expect_vec(got[3], 0, 0, 2);
    Builder e = make_builder();
    std::string bad = "<mujoco><compiler meshdir=\"" + dir + "\"/><asset>\n<mesh file=\"short.msh\"/></asset></mujoco>";
    EXPECT_EQ(cc_builder_load_mjcf_string(e.get(), bad.c_str(), nullptr, nullptr), CC_ERR_PARSE);
    std::string msg = cc_last_error_message();
    EXPECT_NE(msg.find("<string>:2"), std::string::npos) << msg;
    EXPECT_NE(msg.find("short.msh"), std::string::npos) << msg;
    EXPECT_NE(msg.find("need 192 bytes; the file has 188"), std::string::npos) << msg;
    EXPECT_EQ(cc_builder_shape_count(e.get()), 0);
}

TEST(MjcfMujoco4, HullsKeepEveryVertexUnlessLimited)
{
    // 300 points on a sphere are all hull vertices: MuJoCo keeps them all
    // (maxhullvert -1), a mesh's maxhullvert or the options' limit caps them.
    std::string verts;
    for (int i = 0; i < 300; ++i) {
        double z = 1.0 - (2.0 * i + 1.0) / 300.0, r = std::sqrt(1.0 - z * z), phi = 2.39996322972865332 * i;
        verts += std::to_string(r * std::cos(phi)) + " " + std::to_string(r * std::sin(phi)) + " " + std::to_string(z) + " ";
    }
    auto xml = [&](const std::string& attr) {
        return "<mujoco><asset><mesh name=\"ball\" vertex=\"" + verts + "\"" + attr + "/></asset>"
               "<worldbody><body><freejoint/><geom type=\"mesh\" mesh=\"ball\"/></body></worldbody></mujoco>";
    };
    auto hull_vertices = [](const Builder& b) {
        int v = 0;
        EXPECT_EQ(cc_builder_get_convex_hull_info(b.get(), 0, &v, nullptr), CC_OK);
        return v;
    };
    EXPECT_EQ(hull_vertices(load(xml(""))), 300);
    EXPECT_EQ(hull_vertices(load(xml(" maxhullvert=\"16\""))), 16);
    cc_mjcf_options o = cc_default_mjcf_options();
    o.hull_max_vertices = 32;
    EXPECT_EQ(hull_vertices(load(xml(""), &o)), 32);
    EXPECT_EQ(hull_vertices(load(xml(" maxhullvert=\"-1\""), &o)), 32);
    Builder e = make_builder();
    EXPECT_EQ(cc_builder_load_mjcf_string(e.get(), xml(" maxhullvert=\"3\"").c_str(), nullptr, nullptr), CC_ERR_PARSE);
    EXPECT_NE(std::string(cc_last_error_message()).find("give -1 (no limit) or at least 4"), std::string::npos) << cc_last_error_message();
}

TEST(MjcfMujoco4, MeshNotesNameTheAssetAndItsLine)
{
    LogCapture log;
    cc_mjcf_options o = cc_default_mjcf_options();
    o.mesh_mode = CC_MJCF_MESH_AS_MESH;
    Builder b = load("<mujoco><asset>\n<mesh name=\"flat\" vertex=\"0 0 0 1 0 0 0 1 0 2 0 0\" face=\"0 1 2 0 1 3\"/></asset>"
                     "<worldbody><geom type=\"mesh\" mesh=\"flat\"/></worldbody></mujoco>",
                     &o);
    EXPECT_EQ(log.count_containing("<string>:2: <mesh name=\"flat\">"), 1) << (log.messages.empty() ? "" : log.messages[0]);
    EXPECT_EQ(log.count_containing("zero-area triangle"), 1);
    // An inside-out mesh on a moving body: finalize names the geom and the
    // asset in its note.
    Builder open = load("<mujoco><asset>\n<mesh name=\"sheet\" vertex=\"0 0 0 1 0 0 0 1 0 0 0 1\" face=\"0 1 2 0 3 1 0 2 3 1 3 2\"/></asset>"
                        "<worldbody><body><freejoint/><geom name=\"flap\" type=\"mesh\" mesh=\"sheet\"/></body></worldbody></mujoco>",
                        &o);
    cc_model* m = nullptr;
    ASSERT_EQ(cc_builder_finalize(open.get(), cc_device_cpu(), &m), CC_OK);
    cc_model_destroy(m);
    EXPECT_EQ(log.count_containing("shape 0 ('flap') uses mesh 0 ('sheet' at <string>:2)"), 1)
        << (log.messages.empty() ? "" : log.messages.back());
}

TEST(MjcfMujoco4, PairsCollideWithTheirOwnMarginAndGapInEveryWorld)
{
    // A ball 2 cm over a static shelf, met only through the pair's 3 cm gap,
    // in each of 3 worlds (the shelf is global); fingertips with contype 0
    // touching only through their pair; and the errors.
    cc_mjcf_options o = cc_default_mjcf_options();
    o.worlds = 3;
    Builder b = load("<mujoco><default><pair gap=\"0.03\"/></default><worldbody>"
                     "<geom name=\"shelf\" type=\"box\" size=\"0.2 0.2 0.02\" pos=\"0 0 0.5\"/>"
                     "<body pos=\"0 0 0.59\"><freejoint/><geom name=\"ball\" size=\"0.05\"/></body>"
                     "<body pos=\"1 0 0\"><freejoint/><geom name=\"t\" type=\"capsule\" size=\"0.01 0.03\" contype=\"0\" conaffinity=\"0\"/></body>"
                     "<body pos=\"1.0195 0 0\"><freejoint/><geom name=\"i\" type=\"capsule\" size=\"0.01 0.03\" contype=\"0\" conaffinity=\"0\"/></body>"
                     "</worldbody><contact><pair geom1=\"ball\" geom2=\"shelf\"/><pair geom1=\"t\" geom2=\"i\" gap=\"0\" condim=\"4\"/></contact></mujoco>",
                     &o);
    World w;
    ASSERT_EQ(make_world(b.get(), cc_device_cpu(), cc_default_pipeline_def(), &w), CC_OK);
    auto c = collide(w);
    int ball = 0, tips = 0;
    for (const auto& k : c) {
        std::string n0 = cc_builder_shape_name(b.get(), k.shape0), n1 = cc_builder_shape_name(b.get(), k.shape1);
        if (n0 == "ball" || n1 == "ball") {
            ++ball;
            EXPECT_NEAR(k.distance, 0.02f, 1e-5f);
        } else {
            ++tips;
            EXPECT_NEAR(k.distance, -0.0005f, 1e-5f);
        }
    }
    EXPECT_EQ(ball, 3);
    EXPECT_GE(tips, 3);
    struct Case {
        const char* xml;
        const char* words;
    } cases[] = {
        {"<mujoco><worldbody><geom name=\"a\" size=\"1\"/></worldbody><contact>\n<pair geom1=\"a\"/></contact></mujoco>", "<string>:2: <pair>: geom2 is missing"},
        {"<mujoco><worldbody><geom name=\"a\" size=\"1\"/></worldbody><contact>\n<pair geom1=\"a\" geom2=\"zz\"/></contact></mujoco>",
         "<string>:2: <pair geom2=\"zz\">: no geom of that name"},
        {"<mujoco><worldbody><body><freejoint/><geom name=\"a\" size=\"1\"/><geom name=\"b\" size=\"1\"/></body></worldbody><contact>\n"
         "<pair geom1=\"a\" geom2=\"b\" margin=\"-1\"/></contact></mujoco>",
         "margin must be >= 0"},
        {"<mujoco><worldbody><body><freejoint/><geom name=\"a\" size=\"1\"/><geom name=\"b\" size=\"1\"/></body></worldbody><contact>\n"
         "<pair geom1=\"a\" geom2=\"b\" friction=\"1 1 -0.1\"/></contact></mujoco>",
         "<string>:2: <pair friction=\"1 1 -0.1\">: friction coefficients must be >= 0"},
    };
    for (const auto& k : cases) {
        Builder e = make_builder();
        EXPECT_EQ(cc_builder_load_mjcf_string(e.get(), k.xml, nullptr, nullptr), CC_ERR_PARSE) << k.xml;
        EXPECT_NE(std::string(cc_last_error_message()).find(k.words), std::string::npos) << cc_last_error_message();
        EXPECT_EQ(cc_builder_shape_count(e.get()), 0);
    }
}

// ----------------------------------------------------------------- errors

struct ErrorCase {
    const char* what;
    std::string xml;
    cc_status status;
    int line;
    const char* words;
};

TEST(MjcfBodies, FrictionDensityAndInertialBecomeMaterialsAndMass)
{
    Builder b = load(scene(
        "<geom type='plane' size='1 1 0.1' friction='0.3'/>"
        "<body pos='0 0 1'><freejoint/><geom type='box' size='0.1 0.2 0.3' density='500' friction='0.7 0.01 0.002'/></body>"
        "<body pos='1 0 1'><freejoint/><geom type='sphere' size='0.1'/>"
        "  <inertial pos='0 0 0.1' mass='2' diaginertia='1 2 3' quat='0.70710678 0 0 0.70710678'/></body>"));
    cc_shape_info ground = shape(b.get(), 0), box = shape(b.get(), 1);
    EXPECT_FLOAT_EQ(ground.material.mu, 0.3f);
    EXPECT_FLOAT_EQ(ground.compliant.coulomb_friction, 0.3f);
    EXPECT_FLOAT_EQ(ground.material.mu_torsional, 0.005f) << "missing entries keep MuJoCo's defaults";
    EXPECT_FLOAT_EQ(box.material.mu, 0.7f);
    EXPECT_FLOAT_EQ(box.material.mu_torsional, 0.01f);
    EXPECT_FLOAT_EQ(box.material.mu_rolling, 0.002f);
    EXPECT_FLOAT_EQ(box.density, 500.0f);
    cc_mass_properties mp;
    ASSERT_EQ(cc_builder_get_body_mass(b.get(), box.body, &mp), CC_OK);
    EXPECT_NEAR(mp.mass, 500.0 * 0.2 * 0.4 * 0.6, 1e-4);
    // The inertial's principal axes turned 90 degrees about z: x and y swap.
    ASSERT_EQ(cc_builder_get_body_mass(b.get(), shape(b.get(), 2).body, &mp), CC_OK);
    EXPECT_FLOAT_EQ(mp.mass, 2.0f);
    EXPECT_NEAR(mp.center.z, 0.1f, 1e-7);
    EXPECT_NEAR(mp.inertia[0], 2.0f, 1e-5);
    EXPECT_NEAR(mp.inertia[4], 1.0f, 1e-5);
    EXPECT_NEAR(mp.inertia[8], 3.0f, 1e-5);
    EXPECT_NEAR(mp.inertia[1], 0.0f, 1e-5);

    Builder bad = make_builder();
    EXPECT_EQ(cc_builder_load_mjcf_string(bad.get(), scene("<body><freejoint/><inertial mass='1'/></body>").c_str(), nullptr, nullptr),
              CC_ERR_PARSE);
    EXPECT_NE(std::string(cc_last_error_message()).find("diaginertia"), std::string::npos) << cc_last_error_message();
    EXPECT_EQ(cc_builder_load_mjcf_string(bad.get(), scene("<geom type='sphere' size='1' friction='-1'/>").c_str(), nullptr, nullptr),
              CC_ERR_PARSE);
    EXPECT_EQ(cc_builder_shape_count(bad.get()), 0);
}

TEST(MjcfErrors, EachFailureHasItsOwnMessageWithFileAndLine)
{
    std::vector<ErrorCase> cases = {
        {"malformed XML", "<mujoco>\n<worldbody>\n</mujoco>", CC_ERR_PARSE, 3, "malformed XML"},
        {"unknown geom type", "<mujoco>\n<worldbody>\n<geom type=\"teapot\"/></worldbody></mujoco>", CC_ERR_PARSE, 3, "unknown geom type"},
        {"missing mesh file", "<mujoco><asset>\n\n<mesh file=\"/nonexistent/dir/missing.stl\"/></asset></mujoco>", CC_ERR_IO, 3, "cannot open"},
        {"negative size", "<mujoco><worldbody>\n<geom type=\"box\" size=\"1 -1 1\"/></worldbody></mujoco>", CC_ERR_INVALID_SIZE, 2, "negative size"},
        {"invalid eulerseq", "<mujoco>\n<compiler eulerseq=\"xyq\"/></mujoco>", CC_ERR_PARSE, 2, "invalid euler sequence"},
        {"bad number", "<mujoco><worldbody>\n\n\n<geom pos=\"1 two 3\"/></worldbody></mujoco>", CC_ERR_PARSE, 4, "not a finite number"},
        {"too few numbers", "<mujoco><worldbody>\n<geom pos=\"1 2\"/></worldbody></mujoco>", CC_ERR_PARSE, 2, "expected 3 numbers"},
        {"missing size", "<mujoco><worldbody>\n<geom type=\"capsule\" size=\"0.1\"/></worldbody></mujoco>", CC_ERR_INVALID_SIZE, 2, "half length"},
        {"unknown mesh", "<mujoco><worldbody>\n<geom type=\"mesh\" mesh=\"nope\"/></worldbody></mujoco>", CC_ERR_PARSE, 2, "no mesh asset"},
        {"unknown class", "<mujoco><worldbody>\n<geom class=\"nope\"/></worldbody></mujoco>", CC_ERR_PARSE, 2, "no default class"},
        {"two orientations", "<mujoco><worldbody>\n<geom euler=\"0 0 0\" quat=\"1 0 0 0\"/></worldbody></mujoco>", CC_ERR_PARSE, 2, "orientation"},
        {"hfield on a moving body", "<mujoco><asset><hfield name=\"h\" nrow=\"2\" ncol=\"2\" size=\"1 1 1 0\"/></asset>"
                                    "<worldbody>\n<body><freejoint/>\n<geom type=\"hfield\" hfield=\"h\"/></body></worldbody></mujoco>",
         CC_ERR_UNSUPPORTED, 3, "static geometry"},
        {"unknown exclude body", "<mujoco><contact>\n<exclude body1=\"a\" body2=\"b\"/></contact></mujoco>", CC_ERR_PARSE, 2, "no body"},
        {"wrong root", "<robot>\n</robot>", CC_ERR_PARSE, 1, "<mujoco>"},
        {"unknown joint type", "<mujoco><worldbody><body>\n<joint type=\"spin\"/></body></worldbody></mujoco>", CC_ERR_PARSE, 2, "unknown joint type"},
        {"hexadecimal number", "<mujoco><worldbody>\n<geom type=\"sphere\" size=\"0x10\"/></worldbody></mujoco>", CC_ERR_PARSE, 2, "'0x10' is hexadecimal"},
        {"number beyond float", "<mujoco><worldbody>\n\n<geom type=\"sphere\" size=\"1e39\"/></worldbody></mujoco>", CC_ERR_PARSE, 3, "'1e39' exceeds the range of a float"},
        {"absurd size", "<mujoco><worldbody>\n<geom type=\"box\" size=\"1e30 1 1\"/></worldbody></mujoco>", CC_ERR_INVALID_SIZE, 2, "outside [1e-06, 1e+06]"},
        {"duplicate body name", "<mujoco><worldbody><body name=\"a\"/>\n<body name=\"a\"/></worldbody></mujoco>", CC_ERR_PARSE, 2, "taken by the body at <string>:1"},
        {"body named world", "<mujoco><worldbody>\n<body name=\"world\"/></worldbody></mujoco>", CC_ERR_PARSE, 2, "the world body's"},
        {"face index past the vertices", "<mujoco><asset>\n<mesh name=\"m\" vertex=\"0 0 0 1 0 0 0 1 0\" face=\"0 1 3\"/></asset></mujoco>", CC_ERR_PARSE, 2,
         "face index 3 names no vertex: the mesh has 3 (0..2)"},
        // rows x cols must not wrap in 32 bits (65536^2 is 2^32).
        {"huge heightfield", "<mujoco><asset>\n<hfield name=\"h\" nrow=\"65536\" ncol=\"65536\" elevation=\"\" size=\"1 1 1 0\"/></asset></mujoco>",
         CC_ERR_INVALID_SIZE, 2, "4294967296 samples"},
    };
    std::set<std::string> messages;
    for (const ErrorCase& c : cases) {
        SCOPED_TRACE(c.what);
        Builder b = make_builder();
        // Something already in the builder must survive the failed load.
        ASSERT_EQ(cc_builder_add_sphere(b.get(), CC_BODY_WORLD, 1.0f, nullptr, nullptr), CC_OK);
        cc_status s = cc_builder_load_mjcf_string(b.get(), c.xml.c_str(), nullptr, nullptr);
        EXPECT_EQ(s, c.status) << cc_status_string(s) << ": " << cc_last_error_message();
        std::string msg = cc_last_error_message();
        EXPECT_NE(msg.find("<string>:" + std::to_string(c.line) + ":"), std::string::npos) << msg;
        EXPECT_NE(msg.find(c.words), std::string::npos) << msg;
        messages.insert(msg);
        EXPECT_EQ(cc_builder_shape_count(b.get()), 1);
        EXPECT_EQ(cc_builder_body_count(b.get()), 0);
        EXPECT_EQ(cc_builder_world_count(b.get()), 0);
        EXPECT_EQ(cc_builder_mesh_count(b.get()), 0);
    }
    EXPECT_EQ(messages.size(), cases.size());
}

TEST(MjcfErrors, FilesNameThemselvesInMessages)
{
    std::string dir = temp_dir();
    std::string path = dir + "/broken.xml";
    write_file(path, "<mujoco>\n  <worldbody>\n    <body>\n      <freejoint/>\n      <geom type=\"box\" size=\"-1 1 1\"/>\n"
                     "    </body>\n  </worldbody>\n</mujoco>\n");
    Builder b = make_builder();
    EXPECT_EQ(cc_builder_load_mjcf(b.get(), path.c_str(), nullptr), CC_ERR_INVALID_SIZE);
    EXPECT_NE(std::string(cc_last_error_message()).find(path + ":5:"), std::string::npos) << cc_last_error_message();
    EXPECT_EQ(cc_builder_load_mjcf(b.get(), (dir + "/absent.xml").c_str(), nullptr), CC_ERR_IO);
    EXPECT_NE(std::string(cc_last_error_message()).find("absent.xml"), std::string::npos);
    // A missing asset names the scene's line and the file it tried.
    write_file(path, "<mujoco>\n<asset>\n<mesh file=\"gone.stl\"/>\n</asset>\n</mujoco>\n");
    EXPECT_EQ(cc_builder_load_mjcf(b.get(), path.c_str(), nullptr), CC_ERR_IO);
    std::string msg = cc_last_error_message();
    EXPECT_NE(msg.find(path + ":3:"), std::string::npos) << msg;
    EXPECT_NE(msg.find(dir + "/gone.stl"), std::string::npos) << msg;
    // A malformed STL.
    write_file(dir + "/bad.stl", "solid x\n facet normal 0 0 1\n  outer loop\n   vertex 0 0 0\n   vertex 1 0 0\n  endloop\n endfacet\nendsolid x\n");
    write_file(path, "<mujoco><asset><mesh file=\"bad.stl\"/></asset></mujoco>\n");
    EXPECT_EQ(cc_builder_load_mjcf(b.get(), path.c_str(), nullptr), CC_ERR_PARSE);
    EXPECT_NE(std::string(cc_last_error_message()).find("bad.stl:3"), std::string::npos) << cc_last_error_message();
}

TEST(MjcfErrors, ObjValuesAreCheckedLineByLine)
{
    // The OBJ parser reads "nan" as 0 and wraps indices past 32 bits: the
    // loader checks each vertex and face line itself and names it.
    std::string dir = temp_dir();
    const std::string tri = "v 0 0 0\nv 1 0 0\nv 0 1 0\nv 0 0 1\n";
    struct Case {
        const char* what;
        std::string obj;
        int line;
        const char* words;
    } cases[] = {
        {"nan", "v 0 0 0\nv nan 0 0\nv 0 1 0\nf 1 2 3\n", 2, "'nan' is not a finite number"},
        {"inf", "v 0 0 0\nv 1 0 0\nv 0 inf 0\nf 1 2 3\n", 3, "'inf' is not a finite number"},
        {"overflowing float", "v 0 0 0\nv 1e39 0 0\nv 0 1 0\nf 1 2 3\n", 2, "'1e39'"},
        {"hex", "v 0x10 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n", 1, "'0x10'"},
        {"index past 32 bits", tri + "f 1 2 4294967297\n", 5, "'4294967297' does not name one of the 4 vertices"},
        {"negative beyond the start", tri + "f -10 -11 -12\n", 5, "'-10' does not name one of the 4 vertices"},
        {"zero", tri + "f 0 1 2\n", 5, "'0'"},
        {"forward reference", "v 0 0 0\nv 1 0 0\nf 1 2 3\nv 0 1 0\n", 3, "'3' does not name one of the 2 vertices"},
    };
    for (const Case& c : cases) {
        SCOPED_TRACE(c.what);
        write_file(dir + "/bad.obj", c.obj);
        std::string xml = "<mujoco><compiler meshdir=\"" + dir + "\"/><asset><mesh file=\"bad.obj\"/></asset></mujoco>";
        Builder b = make_builder();
        EXPECT_EQ(cc_builder_load_mjcf_string(b.get(), xml.c_str(), nullptr, nullptr), CC_ERR_PARSE);
        std::string msg = cc_last_error_message();
        EXPECT_NE(msg.find("bad.obj:" + std::to_string(c.line) + ":"), std::string::npos) << msg;
        EXPECT_NE(msg.find(c.words), std::string::npos) << msg;
        EXPECT_EQ(cc_builder_mesh_count(b.get()), 0);
    }
    // Relative indices within range, texture and normal indices, comments and
    // a w coordinate still load.
    write_file(dir + "/good.obj", "# a tetrahedron\nv 0 0 0 1\nv 1 0 0\nv 0 1 0\nv 0 0 1\nvt 0 0\nvn 0 0 1\n"
                                  "f -4/1/1 -2/1/1 -3/1/1\nf 1 2 4\nf 1 4 3\nf 2 3 4\n");
    std::string xml = "<mujoco><compiler meshdir=\"" + dir + "\"/><asset><mesh file=\"good.obj\"/></asset>"
                      "<worldbody><body><freejoint/><geom type=\"mesh\" mesh=\"good\"/></body></worldbody></mujoco>";
    cc_mjcf_options as_mesh = cc_default_mjcf_options();
    as_mesh.mesh_mode = CC_MJCF_MESH_AS_MESH;
    Builder b = load(xml, &as_mesh);
    EXPECT_EQ(cc_builder_mesh_count(b.get()), 1);
}

TEST(MjcfErrors, OptionsAreChecked)
{
    Builder b = make_builder();
    cc_mjcf_options o;
    std::memset(&o, 0, sizeof o);
    EXPECT_EQ(cc_builder_load_mjcf_string(b.get(), "<mujoco/>", nullptr, &o), CC_ERR_UNINITIALIZED_DEF);
    o = cc_default_mjcf_options();
    o.worlds = 0;
    EXPECT_EQ(cc_builder_load_mjcf_string(b.get(), "<mujoco/>", nullptr, &o), CC_ERR_INVALID_ARGUMENT);
    EXPECT_EQ(cc_builder_load_mjcf_string(nullptr, "<mujoco/>", nullptr, nullptr), CC_ERR_INVALID_ARGUMENT);
    int w;
    ASSERT_EQ(cc_builder_begin_world(b.get(), &w), CC_OK);
    EXPECT_EQ(cc_builder_load_mjcf_string(b.get(), "<mujoco/>", nullptr, nullptr), CC_ERR_INVALID_STATE);
}

namespace {

std::string repeat(const std::string& s, int n)
{
    std::string out;
    out.reserve(s.size() * (size_t)n);
    for (int i = 0; i < n; ++i) out += s;
    return out;
}

TEST(MjcfHostile, DeepNestingLoadsWithoutRecursion)
{
    // A 20,000-link chain of hinged bodies (ropes and chains are real
    // inputs), 20,000 nested unknown elements and 5,000 nested default
    // classes: each walks on the heap, not the call stack.
    const int links = 20000;
    Builder chain = load("<mujoco><worldbody>" +
                         repeat("<body pos=\"0 0 0.01\"><joint/><geom type=\"sphere\" size=\"0.004\"/>", links) +
                         repeat("</body>", links) + "</worldbody></mujoco>");
    EXPECT_EQ(cc_builder_body_count(chain.get()), links);
    EXPECT_EQ(cc_builder_shape_count(chain.get()), links);
    cc_body_info last;
    ASSERT_EQ(cc_builder_get_body_info(chain.get(), links - 1, &last), CC_OK);
    EXPECT_NEAR(last.pose.p.z, 0.01 * links, 1e-3 * links * 1e-2);
    Builder unknown = load("<mujoco>" + repeat("<x>", 20000) + repeat("</x>", 20000) + "</mujoco>");
    EXPECT_EQ(cc_builder_shape_count(unknown.get()), 0);
    std::string classes;
    for (int i = 0; i < 5000; ++i) classes += "<default class=\"c" + std::to_string(i) + "\">";
    Builder defaults = load("<mujoco><default><geom size=\"0.25\"/>" + classes + repeat("</default>", 5000) +
                            "</default><worldbody><geom type=\"sphere\" class=\"c4999\"/></worldbody></mujoco>");
    ASSERT_EQ(cc_builder_shape_count(defaults.get()), 1);
    EXPECT_FLOAT_EQ(shape(defaults.get(), 0).size.x, 0.25f); // inherited through every level
}

TEST(MjcfHostile, IncludeAmplificationStopsAtTheTotalBudget)
{
    // 12 files, each including the next four times: 4^11 inclusions if
    // expanded. The total budget stops it with the file and line.
    std::string dir = temp_dir();
    for (int i = 0; i < 12; ++i) {
        std::string body = i < 11 ? repeat("<include file=\"f" + std::to_string(i + 1) + ".xml\"/>", 4)
                                  : "<worldbody><geom type=\"sphere\" size=\"1\"/></worldbody>";
        write_file(dir + "/f" + std::to_string(i) + ".xml", "<mujoco>" + body + "</mujoco>");
    }
    Builder b = make_builder();
    EXPECT_EQ(cc_builder_load_mjcf(b.get(), (dir + "/f0.xml").c_str(), nullptr), CC_ERR_PARSE);
    std::string msg = cc_last_error_message();
    EXPECT_NE(msg.find("more than " + std::to_string(CC_MJCF_MAX_INCLUDES) + " files"), std::string::npos) << msg;
    EXPECT_NE(msg.find(".xml:1:"), std::string::npos) << msg;
    EXPECT_EQ(cc_builder_shape_count(b.get()), 0);
    // Within the budget the same pattern loads: 4^3 copies of one sphere.
    for (int i = 0; i < 4; ++i) {
        std::string body = i < 3 ? repeat("<include file=\"g" + std::to_string(i + 1) + ".xml\"/>", 4)
                                 : "<worldbody><geom type=\"sphere\" size=\"1\"/></worldbody>";
        write_file(dir + "/g" + std::to_string(i) + ".xml", "<mujoco>" + body + "</mujoco>");
    }
    Builder ok = make_builder();
    ASSERT_EQ(cc_builder_load_mjcf(ok.get(), (dir + "/g0.xml").c_str(), nullptr), CC_OK) << cc_last_error_message();
    EXPECT_EQ(cc_builder_shape_count(ok.get()), 64);
}

} // namespace
