// Overflow is never a silent drop and never an out-of-bounds write. A scene
// with a known answer (N spheres and M boxes resting apart on a ground plane:
// N + M candidate pairs, C = N + 4M contacts) is collided with capacities
// one below what it needs: the overflow record gives the exact need, the
// buffer holds exactly its capacity of valid rows from the full answer, and
// rows past the count are untouched. The default capacity estimate never
// overflows for small scenes.
//
// Writes past the end of a buffer are also caught by AddressSanitizer in the
// CUCONTACT_SANITIZE CI build. The scene is sized so that C - 1 = 16 rows
// fill every contact column exactly (no alignment padding): a row written
// past the capacity of one column lands on row 0 of the next column (or past
// the block for the last one), which the row validity checks here catch.
#include <cmath>
#include <cstring>
#include <vector>

#include "tests/support/test_support.h"

using namespace cctest;

namespace {

constexpr float kTol = 1e-5f;
const cc_broad_phase kBroadPhases[] = {CC_BROAD_PHASE_NXN, CC_BROAD_PHASE_SAP, CC_BROAD_PHASE_EXPLICIT};

const char* broad_phase_name(cc_broad_phase bp)
{
    switch (bp) {
    case CC_BROAD_PHASE_NXN: return "nxn";
    case CC_BROAD_PHASE_SAP: return "sap";
    case CC_BROAD_PHASE_EXPLICIT: return "explicit";
    default: return "auto";
    }
}

// N unit spheres and M unit cubes resting exactly on an infinite ground
// plane, far enough apart that only shape-plane pairs exist.
struct RestingScene {
    Builder builder;
    int plane = -1;
    std::vector<cc_contact> expected;  // the full answer, in no particular order
    int pairs = 0;
};

RestingScene make_resting_scene(int spheres, int boxes)
{
    RestingScene s;
    s.builder = make_builder(0.1f);
    EXPECT_EQ(cc_builder_add_plane(s.builder.get(), CC_BODY_WORLD, 0, 0, nullptr, &s.plane), CC_OK);
    auto row = [&](int shape, cc_vec3 p0, cc_vec3 p1, float t1) {
        cc_contact c{};
        c.shape0 = s.plane;
        c.shape1 = shape;
        c.point0 = p0;
        c.point1 = p1;
        c.normal = {0, 0, 1};
        c.thickness0 = 0.0f;
        c.thickness1 = t1;
        c.distance = 0.0f;
        c.offset0 = {0, 0, 0};
        c.offset1 = {0, 0, -t1};
        s.expected.push_back(c);
    };
    for (int i = 0; i < spheres; ++i) {
        float x = 3.0f * (float)i;
        int body = add_body(s.builder.get(), {x, 0.0f, 0.5f});
        int shape = -1;
        EXPECT_EQ(cc_builder_add_sphere(s.builder.get(), body, 0.5f, nullptr, &shape), CC_OK);
        row(shape, {x, 0.0f, 0.0f}, {0, 0, 0}, 0.5f);
        s.pairs++;
    }
    for (int i = 0; i < boxes; ++i) {
        float x = 3.0f * (float)i, y = 6.0f;
        int body = add_body(s.builder.get(), {x, y, 0.5f});
        int shape = -1;
        EXPECT_EQ(cc_builder_add_box(s.builder.get(), body, {0.5f, 0.5f, 0.5f}, nullptr, &shape), CC_OK);
        for (int k = 0; k < 4; ++k) {
            float sx = (k & 1) ? 0.5f : -0.5f, sy = (k & 2) ? 0.5f : -0.5f;
            row(shape, {x + sx, y + sy, 0.0f}, {sx, sy, -0.5f}, 0.0f);
        }
        s.pairs++;
    }
    return s;
}

bool finite3(cc_vec3 v) { return std::isfinite(v.x) && std::isfinite(v.y) && std::isfinite(v.z); }
bool near3(cc_vec3 a, cc_vec3 b, float tol)
{
    return std::fabs(a.x - b.x) <= tol && std::fabs(a.y - b.y) <= tol && std::fabs(a.z - b.z) <= tol;
}
bool same_contact(const cc_contact& a, const cc_contact& e)
{
    return a.shape0 == e.shape0 && a.shape1 == e.shape1 && near3(a.point0, e.point0, kTol) &&
           near3(a.point1, e.point1, kTol) && near3(a.normal, e.normal, kTol) &&
           std::fabs(a.thickness0 - e.thickness0) <= kTol && std::fabs(a.thickness1 - e.thickness1) <= kTol &&
           std::fabs(a.distance - e.distance) <= kTol && near3(a.offset0, e.offset0, kTol) &&
           near3(a.offset1, e.offset1, kTol);
}

// Every row is a well-formed contact equal to a distinct row of `expected`.
void expect_rows_from(const std::vector<cc_contact>& got, const std::vector<cc_contact>& expected, int shape_count)
{
    std::vector<char> used(expected.size(), 0);
    for (size_t i = 0; i < got.size(); ++i) {
        const cc_contact& c = got[i];
        SCOPED_TRACE(testing::Message() << "row " << i << " shapes (" << c.shape0 << ", " << c.shape1 << ")");
        ASSERT_GE(c.shape0, 0);
        ASSERT_LT(c.shape0, shape_count);
        ASSERT_GE(c.shape1, 0);
        ASSERT_LT(c.shape1, shape_count);
        EXPECT_NE(c.shape0, c.shape1);
        EXPECT_TRUE(finite3(c.point0) && finite3(c.point1) && finite3(c.normal) && finite3(c.offset0) &&
                    finite3(c.offset1) && std::isfinite(c.distance) && std::isfinite(c.thickness0) &&
                    std::isfinite(c.thickness1));
        float len = std::sqrt(c.normal.x * c.normal.x + c.normal.y * c.normal.y + c.normal.z * c.normal.z);
        EXPECT_NEAR(len, 1.0f, 1e-5f);
        bool matched = false;
        for (size_t k = 0; k < expected.size() && !matched; ++k) {
            if (!used[k] && same_contact(c, expected[k])) {
                used[k] = 1;
                matched = true;
            }
        }
        EXPECT_TRUE(matched) << "not a contact of the full answer (or a duplicate): point0 (" << c.point0.x << ", "
                             << c.point0.y << ", " << c.point0.z << ") point1 (" << c.point1.x << ", " << c.point1.y
                             << ", " << c.point1.z << ") distance " << c.distance;
    }
}

std::vector<cc_contact> download_all(World& w)
{
    int cap = cc_contacts_capacity(w.contacts.get());
    std::vector<cc_contact> rows((size_t)cap + 4);
    int n = -1;
    EXPECT_EQ(cc_contacts_download(w.contacts.get(), w.state.get(), rows.data(), (int)rows.size(), &n), CC_OK)
        << cc_last_error_message();
    EXPECT_GE(n, 0);
    EXPECT_LE(n, cap) << "the published count exceeds the capacity";
    rows.resize((size_t)std::max(0, std::min(n, cap)));
    return rows;
}

// Sentinel values written through the view before a pass.
constexpr int kSentinelIndex = -12345;
const float kSentinelFloat = -777.25f;

// Fills rows [first, capacity) of every column with the sentinel (host
// pointers on the CPU backend).
void fill_sentinel(const cc_contacts_view& v, int first)
{
    for (int i = first; i < v.capacity; ++i) {
        v.shape0[i] = kSentinelIndex;
        v.shape1[i] = kSentinelIndex;
        v.point0[i] = {kSentinelFloat, kSentinelFloat, kSentinelFloat};
        v.point1[i] = {kSentinelFloat, kSentinelFloat, kSentinelFloat};
        v.normal[i] = {kSentinelFloat, kSentinelFloat, kSentinelFloat};
        v.thickness0[i] = kSentinelFloat;
        v.thickness1[i] = kSentinelFloat;
        v.distance[i] = kSentinelFloat;
    }
}

bool is_sentinel_row(const cc_contacts_view& v, int i)
{
    auto s3 = [](cc_vec3 p) { return p.x == kSentinelFloat && p.y == kSentinelFloat && p.z == kSentinelFloat; };
    return v.shape0[i] == kSentinelIndex && v.shape1[i] == kSentinelIndex && s3(v.point0[i]) && s3(v.point1[i]) &&
           s3(v.normal[i]) && v.thickness0[i] == kSentinelFloat && v.thickness1[i] == kSentinelFloat &&
           v.distance[i] == kSentinelFloat;
}

// Rows [count, capacity) still hold the sentinel; rows below count do not.
void expect_untouched_past_count(const cc_contacts_view& v, int count)
{
    int stale = 0, touched = 0;
    for (int i = 0; i < v.capacity; ++i) {
        if (i < count) stale += is_sentinel_row(v, i);
        else touched += !is_sentinel_row(v, i);
    }
    EXPECT_EQ(stale, 0) << "rows below the count were never written";
    EXPECT_EQ(touched, 0) << "rows past the count were written";
}

cc_overflow overflow_of(World& w)
{
    cc_overflow ov;
    std::memset(&ov, 0x5a, sizeof ov);
    EXPECT_EQ(cc_pipeline_get_overflow(w.pipeline.get(), &ov), CC_OK) << cc_last_error_message();
    return ov;
}

class Overflow : public DeviceTest {
  protected:
    static constexpr int kSpheres = 5, kBoxes = 3;  // C = 17, C - 1 = 16
    void SetUp() override
    {
        DeviceTest::SetUp();
        if (IsSkipped()) return;
        scene_ = make_resting_scene(kSpheres, kBoxes);
        contacts_ = (int)scene_.expected.size();
        shapes_ = cc_builder_shape_count(scene_.builder.get());
        ASSERT_EQ(contacts_, kSpheres + 4 * kBoxes);
        ASSERT_EQ(scene_.pairs, kSpheres + kBoxes);
    }
    bool on_cpu() const { return GetParam() == CC_DEVICE_CPU; }

    // A world with the given capacities and broad phase.
    void make(cc_broad_phase bp, int contact_max, int pairs_max, World* w)
    {
        cc_pipeline_def d = cc_default_pipeline_def();
        d.broad_phase = bp;
        d.rigid_contact_max = contact_max;
        d.shape_pairs_max = pairs_max;
        ASSERT_EQ(make_world(scene_.builder.get(), device(), d, w), CC_OK) << cc_last_error_message();
        cc_pipeline_info info;
        ASSERT_EQ(cc_pipeline_get_info(w->pipeline.get(), &info), CC_OK);
        ASSERT_EQ(info.broad_phase, bp);
        if (contact_max > 0) {
            ASSERT_EQ(cc_contacts_capacity(w->contacts.get()), contact_max);
        }
    }

    void collide_pass(World& w)
    {
        ASSERT_EQ(cc_collide(w.pipeline.get(), w.state.get(), w.contacts.get(), nullptr), CC_OK)
            << cc_last_error_message();
    }

    RestingScene scene_;
    int contacts_ = 0, shapes_ = 0;
};

TEST_P(Overflow, FullAnswerWithRoomToSpare)
{
    for (cc_broad_phase bp : kBroadPhases) {
        SCOPED_TRACE(broad_phase_name(bp));
        World w;
        make(bp, contacts_ + 8, CC_CAPACITY_AUTO, &w);
        if (on_cpu()) fill_sentinel(cc_contacts_device_view(w.contacts.get()), 0);
        collide_pass(w);
        cc_overflow ov = overflow_of(w);
        EXPECT_FALSE(ov.contacts_overflowed);
        EXPECT_FALSE(ov.pairs_overflowed);
        EXPECT_EQ(ov.contacts_needed, contacts_);
        EXPECT_EQ(ov.contacts_capacity, contacts_ + 8);
        EXPECT_EQ(ov.pairs_needed, scene_.pairs);
        int n = -1;
        ASSERT_EQ(cc_contacts_count(w.contacts.get(), &n), CC_OK);
        EXPECT_EQ(n, contacts_);
        std::vector<cc_contact> got = download_all(w);
        ASSERT_EQ((int)got.size(), contacts_);
        expect_rows_from(got, scene_.expected, shapes_);
        if (on_cpu()) expect_untouched_past_count(cc_contacts_device_view(w.contacts.get()), contacts_);
    }
}

TEST_P(Overflow, ContactCapacityOneShort)
{
    for (cc_broad_phase bp : kBroadPhases) {
        SCOPED_TRACE(broad_phase_name(bp));
        World w;
        make(bp, contacts_ - 1, CC_CAPACITY_AUTO, &w);
        // Every row is a sentinel before the pass; after it every row must
        // hold a real contact.
        if (on_cpu()) fill_sentinel(cc_contacts_device_view(w.contacts.get()), 0);
        for (int pass = 0; pass < 2; ++pass) {  // a second pass over a full buffer
            SCOPED_TRACE(pass);
            collide_pass(w);
            cc_overflow ov = overflow_of(w);
            EXPECT_TRUE(ov.contacts_overflowed);
            EXPECT_EQ(ov.contacts_needed, contacts_);
            EXPECT_EQ(ov.contacts_capacity, contacts_ - 1);
            EXPECT_FALSE(ov.pairs_overflowed);
            EXPECT_EQ(ov.pairs_needed, scene_.pairs);
            int n = -1;
            ASSERT_EQ(cc_contacts_count(w.contacts.get(), &n), CC_OK);
            EXPECT_EQ(n, contacts_ - 1);
            std::vector<cc_contact> got = download_all(w);
            ASSERT_EQ((int)got.size(), contacts_ - 1);
            expect_rows_from(got, scene_.expected, shapes_);
            if (on_cpu()) expect_untouched_past_count(cc_contacts_device_view(w.contacts.get()), contacts_ - 1);
        }
        // download with a smaller max reports the rows it copied (never
        // more than the array holds); cc_contacts_count has the total.
        std::vector<cc_contact> few(3);
        int n = -1;
        ASSERT_EQ(cc_contacts_download(w.contacts.get(), w.state.get(), few.data(), 3, &n), CC_OK);
        EXPECT_EQ(n, 3);
        expect_rows_from(few, scene_.expected, shapes_);
    }
}

TEST_P(Overflow, ContactCapacityFarTooSmall)
{
    for (int cap : {1, 2, 3, 4, 5, 6}) {
        SCOPED_TRACE(cap);
        World w;
        make(CC_BROAD_PHASE_NXN, cap, CC_CAPACITY_AUTO, &w);
        if (on_cpu()) fill_sentinel(cc_contacts_device_view(w.contacts.get()), 0);
        collide_pass(w);
        cc_overflow ov = overflow_of(w);
        EXPECT_TRUE(ov.contacts_overflowed);
        EXPECT_EQ(ov.contacts_needed, contacts_);
        EXPECT_EQ(ov.contacts_capacity, cap);
        std::vector<cc_contact> got = download_all(w);
        ASSERT_EQ((int)got.size(), cap);
        expect_rows_from(got, scene_.expected, shapes_);
        if (on_cpu()) expect_untouched_past_count(cc_contacts_device_view(w.contacts.get()), cap);
    }
}

TEST_P(Overflow, ExactContactCapacityDoesNotOverflow)
{
    for (cc_broad_phase bp : kBroadPhases) {
        SCOPED_TRACE(broad_phase_name(bp));
        World w;
        make(bp, contacts_, CC_CAPACITY_AUTO, &w);
        if (on_cpu()) fill_sentinel(cc_contacts_device_view(w.contacts.get()), 0);
        collide_pass(w);
        cc_overflow ov = overflow_of(w);
        EXPECT_FALSE(ov.contacts_overflowed);
        EXPECT_FALSE(ov.pairs_overflowed);
        EXPECT_EQ(ov.contacts_needed, contacts_);
        EXPECT_EQ(ov.contacts_capacity, contacts_);
        std::vector<cc_contact> got = download_all(w);
        ASSERT_EQ((int)got.size(), contacts_);
        expect_rows_from(got, scene_.expected, shapes_);
        if (on_cpu()) expect_untouched_past_count(cc_contacts_device_view(w.contacts.get()), contacts_);
    }
}

TEST_P(Overflow, PairCapacityOneShort)
{
    for (cc_broad_phase bp : kBroadPhases) {
        SCOPED_TRACE(broad_phase_name(bp));
        World w;
        int cap = contacts_ + 8;
        make(bp, cap, scene_.pairs - 1, &w);
        if (on_cpu()) fill_sentinel(cc_contacts_device_view(w.contacts.get()), 0);
        collide_pass(w);
        cc_overflow ov = overflow_of(w);
        EXPECT_TRUE(ov.pairs_overflowed);
        EXPECT_EQ(ov.pairs_needed, scene_.pairs);
        EXPECT_EQ(ov.pairs_capacity, scene_.pairs - 1);
        // One shape-plane pair was dropped: a sphere (1 contact) or a box (4).
        EXPECT_FALSE(ov.contacts_overflowed);
        EXPECT_TRUE(ov.contacts_needed == contacts_ - 1 || ov.contacts_needed == contacts_ - 4) << ov.contacts_needed;
        int n = -1;
        ASSERT_EQ(cc_contacts_count(w.contacts.get(), &n), CC_OK);
        EXPECT_EQ(n, ov.contacts_needed);
        std::vector<cc_contact> got = download_all(w);
        EXPECT_EQ((int)got.size(), n);
        expect_rows_from(got, scene_.expected, shapes_);
        if (on_cpu()) expect_untouched_past_count(cc_contacts_device_view(w.contacts.get()), n);

        // The pairs kept are valid, distinct shape-plane pairs.
        std::vector<int> ab(2 * (size_t)scene_.pairs + 8, -1);
        int np = -1;
        ASSERT_EQ(cc_pipeline_download_pairs(w.pipeline.get(), ab.data(), scene_.pairs + 4, &np), CC_OK);
        EXPECT_EQ(np, scene_.pairs - 1);
        std::vector<int> seen;
        for (int i = 0; i < np; ++i) {
            EXPECT_EQ(ab[2 * (size_t)i], scene_.plane);
            EXPECT_GT(ab[2 * (size_t)i + 1], scene_.plane);
            EXPECT_LT(ab[2 * (size_t)i + 1], shapes_);
            seen.push_back(ab[2 * (size_t)i + 1]);
        }
        std::sort(seen.begin(), seen.end());
        EXPECT_EQ(std::adjacent_find(seen.begin(), seen.end()), seen.end()) << "a pair was stored twice";
        EXPECT_EQ(ab[2 * (size_t)np], -1) << "pairs written past the count";
    }
}

TEST_P(Overflow, PairCapacityOneAndExact)
{
    for (cc_broad_phase bp : kBroadPhases) {
        SCOPED_TRACE(broad_phase_name(bp));
        {
            World w;
            make(bp, contacts_ + 8, 1, &w);
            collide_pass(w);
            cc_overflow ov = overflow_of(w);
            EXPECT_TRUE(ov.pairs_overflowed);
            EXPECT_EQ(ov.pairs_needed, scene_.pairs);
            EXPECT_EQ(ov.pairs_capacity, 1);
            std::vector<cc_contact> got = download_all(w);
            EXPECT_TRUE(got.size() == 1u || got.size() == 4u) << got.size();
            expect_rows_from(got, scene_.expected, shapes_);
        }
        {
            World w;
            make(bp, contacts_ + 8, scene_.pairs, &w);
            collide_pass(w);
            cc_overflow ov = overflow_of(w);
            EXPECT_FALSE(ov.pairs_overflowed);
            EXPECT_FALSE(ov.contacts_overflowed);
            EXPECT_EQ(ov.pairs_needed, scene_.pairs);
            EXPECT_EQ(ov.contacts_needed, contacts_);
            std::vector<cc_contact> got = download_all(w);
            EXPECT_EQ((int)got.size(), contacts_);
            expect_rows_from(got, scene_.expected, shapes_);
        }
    }
}

TEST_P(Overflow, BothCapacitiesShort)
{
    for (cc_broad_phase bp : kBroadPhases) {
        SCOPED_TRACE(broad_phase_name(bp));
        World w;
        make(bp, 2, scene_.pairs - 2, &w);
        collide_pass(w);
        cc_overflow ov = overflow_of(w);
        EXPECT_TRUE(ov.pairs_overflowed);
        EXPECT_EQ(ov.pairs_needed, scene_.pairs);
        EXPECT_TRUE(ov.contacts_overflowed);
        // A lower bound when pairs overflowed: at least 2 pairs' worth dropped.
        EXPECT_GE(ov.contacts_needed, contacts_ - 8);
        EXPECT_LE(ov.contacts_needed, contacts_ - 2);
        std::vector<cc_contact> got = download_all(w);
        EXPECT_EQ((int)got.size(), 2);
        expect_rows_from(got, scene_.expected, shapes_);
    }
}

// The record describes the last pass only: after an overflowing pass, a pass
// that fits reports no overflow, and the other way round.
TEST_P(Overflow, RecordFollowsTheLastPass)
{
    World w;
    make(CC_BROAD_PHASE_EXPLICIT, contacts_ - 1, CC_CAPACITY_AUTO, &w);
    collide_pass(w);
    EXPECT_TRUE(overflow_of(w).contacts_overflowed);
    // Lift one box clear of the plane (and its gap): 4 contacts fewer.
    int nb = cc_model_body_count(w.model.get());
    std::vector<cc_transform> poses((size_t)nb);
    ASSERT_EQ(cc_state_get_body_poses(w.state.get(), 0, nb, poses.data()), CC_OK);
    cc_transform lifted = poses[(size_t)nb - 1];
    lifted.p.z = 5.0f;
    ASSERT_EQ(cc_state_set_body_poses(w.state.get(), nb - 1, 1, &lifted), CC_OK);
    collide_pass(w);
    cc_overflow ov = overflow_of(w);
    EXPECT_FALSE(ov.contacts_overflowed);
    EXPECT_EQ(ov.contacts_needed, contacts_ - 4);
    EXPECT_EQ((int)download_all(w).size(), contacts_ - 4);
    ASSERT_EQ(cc_state_set_body_poses(w.state.get(), nb - 1, 1, &poses[(size_t)nb - 1]), CC_OK);
    collide_pass(w);
    ov = overflow_of(w);
    EXPECT_TRUE(ov.contacts_overflowed);
    EXPECT_EQ(ov.contacts_needed, contacts_);
}

// ---------------------------------------------------------------- default capacities

struct SmallScene {
    const char* name;
    Builder builder;
};

std::vector<SmallScene> small_scenes()
{
    std::vector<SmallScene> v;
    {  // one sphere on the ground
        SmallScene s{"one sphere", make_builder()};
        cc_builder_add_plane(s.builder.get(), CC_BODY_WORLD, 0, 0, nullptr, nullptr);
        cc_builder_add_sphere(s.builder.get(), add_body(s.builder.get(), {0, 0, 0.5f}), 0.5f, nullptr, nullptr);
        v.push_back(std::move(s));
    }
    {  // the resting scene of the overflow tests
        RestingScene r = make_resting_scene(5, 3);
        v.push_back({"resting spheres and boxes", std::move(r.builder)});
    }
    {  // a tower of 12 boxes, slightly interpenetrating
        SmallScene s{"box tower", make_builder()};
        cc_builder_add_plane(s.builder.get(), CC_BODY_WORLD, 0, 0, nullptr, nullptr);
        for (int i = 0; i < 12; ++i)
            cc_builder_add_box(s.builder.get(), add_body(s.builder.get(), {0, 0, 0.49f + 0.99f * (float)i}),
                               {0.5f, 0.5f, 0.5f}, nullptr, nullptr);
        v.push_back(std::move(s));
    }
    {  // a 3x3 floor of boxes touching side by side, a second layer on top
        SmallScene s{"box floor", make_builder()};
        cc_builder_add_plane(s.builder.get(), CC_BODY_WORLD, 0, 0, nullptr, nullptr);
        for (int k = 0; k < 2; ++k)
            for (int i = 0; i < 3; ++i)
                for (int j = 0; j < 3; ++j)
                    cc_builder_add_box(s.builder.get(),
                                       add_body(s.builder.get(), {(float)i, (float)j, 0.5f + (float)k}),
                                       {0.5f, 0.5f, 0.5f}, nullptr, nullptr);
        v.push_back(std::move(s));
    }
    {  // capsules lying crossed in a log pile
        SmallScene s{"capsule logs", make_builder()};
        cc_builder_add_plane(s.builder.get(), CC_BODY_WORLD, 0, 0, nullptr, nullptr);
        const float r = 0.2f, c = 0.70710678f;
        for (int layer = 0; layer < 4; ++layer)
            for (int i = 0; i < 4; ++i) {
                cc_quat q = layer % 2 ? cc_quat{c, 0, 0, c} : cc_quat{0, c, 0, c};
                cc_vec3 p = layer % 2 ? cc_vec3{0.0f, 0.5f * (float)i - 0.75f, r + 2 * r * (float)layer}
                                      : cc_vec3{0.5f * (float)i - 0.75f, 0.0f, r + 2 * r * (float)layer};
                cc_builder_add_capsule(s.builder.get(), add_body(s.builder.get(), p, q), r, 1.0f, nullptr, nullptr);
            }
        v.push_back(std::move(s));
    }
    {  // 32 replicated worlds, each a sphere, box and capsule resting on a shared plane
        SmallScene s{"replicated worlds", make_builder()};
        cc_builder_add_plane(s.builder.get(), CC_BODY_WORLD, 0, 0, nullptr, nullptr);
        Builder t = make_builder();
        cc_builder_add_sphere(t.get(), add_body(t.get(), {0, 0, 0.5f}), 0.5f, nullptr, nullptr);
        cc_builder_add_box(t.get(), add_body(t.get(), {1.0f, 0, 0.5f}), {0.5f, 0.5f, 0.5f}, nullptr, nullptr);
        cc_builder_add_capsule(t.get(), add_body(t.get(), {0.5f, 1.0f, 0.7f}), 0.2f, 0.5f, nullptr, nullptr);
        cc_builder_replicate(s.builder.get(), t.get(), 32, nullptr);
        v.push_back(std::move(s));
    }
    return v;
}

// Cubic lattices of touching spheres or unit boxes resting on the ground:
// every shape's AABB overlaps those of its 26 lattice neighbours.
Builder lattice_pile(cc_shape_type type, int n)
{
    Builder b = make_builder();
    cc_builder_add_plane(b.get(), CC_BODY_WORLD, 0, 0, nullptr, nullptr);
    for (int i = 0; i < n; ++i)
        for (int j = 0; j < n; ++j)
            for (int k = 0; k < n; ++k) {
                int body = add_body(b.get(), {(float)i, (float)j, 0.5f + (float)k});
                if (type == CC_SHAPE_SPHERE) cc_builder_add_sphere(b.get(), body, 0.5f, nullptr, nullptr);
                else cc_builder_add_box(b.get(), body, {0.5f, 0.5f, 0.5f}, nullptr, nullptr);
            }
    return b;
}

class DefaultCapacity : public Overflow {
  protected:
    // Collides the scene with default capacities on every broad phase and
    // expects no overflow.
    void expect_fits(const char* name, const cc_builder* b)
    {
        for (cc_broad_phase bp : kBroadPhases) {
            SCOPED_TRACE(testing::Message() << name << ", " << broad_phase_name(bp));
            cc_pipeline_def d = cc_default_pipeline_def();
            d.broad_phase = bp;
            World w;
            ASSERT_EQ(make_world(b, device(), d, &w), CC_OK) << cc_last_error_message();
            collide_pass(w);
            cc_overflow ov = overflow_of(w);
            EXPECT_FALSE(ov.pairs_overflowed) << ov.pairs_needed << " pairs, capacity " << ov.pairs_capacity;
            EXPECT_FALSE(ov.contacts_overflowed) << ov.contacts_needed << " contacts, capacity " << ov.contacts_capacity;
            EXPECT_GT(ov.contacts_needed, 0) << "the scene should touch";
            int n = -1;
            ASSERT_EQ(cc_contacts_count(w.contacts.get(), &n), CC_OK);
            EXPECT_EQ(n, std::min(ov.contacts_needed, ov.contacts_capacity));
            // The default buffers are sized for the scene, never tighter than it.
            cc_pipeline_info info;
            ASSERT_EQ(cc_pipeline_get_info(w.pipeline.get(), &info), CC_OK);
            EXPECT_GE(info.rigid_contact_max, ov.contacts_needed);
            EXPECT_GE(info.shape_pairs_max, ov.pairs_needed);
            EXPECT_EQ(cc_contacts_capacity(w.contacts.get()), info.rigid_contact_max);
        }
    }
};

TEST_P(DefaultCapacity, EstimateFitsSmallScenes)
{
    std::vector<SmallScene> scenes = small_scenes();
    for (SmallScene& s : scenes) expect_fits(s.name, s.builder.get());
    // Lattices small enough for the estimate's floor or its per-shape share.
    expect_fits("4x4x4 sphere lattice", lattice_pile(CC_SHAPE_SPHERE, 4).get());
    expect_fits("3x3x3 box lattice", lattice_pile(CC_SHAPE_BOX, 3).get());
}

// A pallet of 64 crates or a pile of 125 balls is still a small scene.
TEST_P(DefaultCapacity, EstimateFitsDenseLatticePiles)
{
    // A shape inside a lattice has 13 AABB-overlap pairs (26 neighbours,
    // each pair shared): 125 spheres need 1061 candidate pairs.
    expect_fits("5x5x5 sphere lattice", lattice_pile(CC_SHAPE_SPHERE, 5).get());
    // A box inside a lattice touches 26 neighbours (faces, edges and
    // corners, all within the gap): 64 boxes need 1180 contacts.
    expect_fits("4x4x4 box lattice", lattice_pile(CC_SHAPE_BOX, 4).get());
}

CC_INSTANTIATE_DEVICE_TEST(DefaultCapacity);

CC_INSTANTIATE_DEVICE_TEST(Overflow);

}  // namespace
