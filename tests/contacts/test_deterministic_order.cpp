// Deterministic contact order: with cc_pipeline_def.deterministic (or any
// matching mode) the contact buffer is sorted by the 64-bit key
// (shape0, shape1, manifold index) every pass, so that reruns give
// byte-identical buffers however the narrow phase's threads were scheduled.
//
// On the CPU backend cc_testing_shuffle_narrowphase scrambles the order in
// which the narrow phase runs its pairs (and so the order of the raw rows),
// as GPU scheduling would; the tests first show that the scramble does
// change the plain (non-deterministic) buffer, then that the deterministic
// buffer is byte-identical whatever the scramble.
//
// Also: the key layout at its limits (cc_testing_key_layout,
// cc_contact_key / cc_contact_key_decode), the resolved settings reported by
// cc_pipeline_info, overflow in deterministic mode, and the validation of
// the matching and report settings.
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <map>
#include <random>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "host/testing.h"
#include "tests/support/mesh_util.h"
#include "tests/support/test_support.h"

using namespace cctest;

namespace {

// ---------------------------------------------------------------- the pile

cc_quat random_quat(std::mt19937& rng)
{
    std::normal_distribution<double> n(0.0, 1.0);
    double x = n(rng), y = n(rng), z = n(rng), w = n(rng);
    double l = std::sqrt(x * x + y * y + z * z + w * w);
    return {(float)(x / l), (float)(y / l), (float)(z / l), (float)(w / l)};
}

// A pile of spheres, capsules and boxes on a 3-D lattice (spacing 0.1 m,
// jittered, neighbours touching or overlapping) in a bin of four static
// walls per world, over one global ground plane. Every shape is on its own
// dynamic body. worlds * nx * ny * nz shapes plus 4 walls per world and the
// ground.
struct Pile {
    Builder builder;
    int shapes = 0;
};

Pile make_pile(int worlds, int nx, int ny, int nz, uint32_t seed)
{
    Pile p;
    p.builder = make_builder(0.005f);
    cc_builder* b = p.builder.get();
    std::mt19937 rng(seed);
    std::uniform_real_distribution<float> jitter(-0.002f, 0.002f), u01(0.0f, 1.0f);
    int ground = -1;
    EXPECT_EQ(cc_builder_add_plane(b, CC_BODY_WORLD, 0, 0, nullptr, &ground), CC_OK) << cc_last_error_message();
    const float s = 0.1f;
    const float x0 = -0.5f * s * (float)(nx - 1), y0 = -0.5f * s * (float)(ny - 1);
    for (int w = 0; w < worlds; ++w) {
        int world = -1;
        EXPECT_EQ(cc_builder_begin_world(b, &world), CC_OK) << cc_last_error_message();
        // Walls: inner faces at the outermost lattice centres +- 0.05 m.
        float wx = -x0 + 0.05f + 0.01f, wy = -y0 + 0.05f + 0.01f, hz = 0.05f * (float)nz + 0.05f;
        const cc_vec3 wall_pos[4] = {{wx, 0, hz}, {-wx, 0, hz}, {0, wy, hz}, {0, -wy, hz}};
        const cc_vec3 wall_half[4] = {{0.01f, wy + 0.01f, hz}, {0.01f, wy + 0.01f, hz}, {wx + 0.01f, 0.01f, hz},
                                      {wx + 0.01f, 0.01f, hz}};
        for (int k = 0; k < 4; ++k) {
            cc_shape_def d = cc_default_shape_def();
            d.local.p = wall_pos[k];
            int shape = -1;
            EXPECT_EQ(cc_builder_add_box(b, CC_BODY_WORLD, wall_half[k], &d, &shape), CC_OK) << cc_last_error_message();
        }
        for (int iz = 0; iz < nz; ++iz)
            for (int iy = 0; iy < ny; ++iy)
                for (int ix = 0; ix < nx; ++ix) {
                    cc_vec3 c = {x0 + s * (float)ix + jitter(rng), y0 + s * (float)iy + jitter(rng),
                                 0.048f + s * (float)iz + jitter(rng)};
                    float t = u01(rng);
                    cc_quat q = random_quat(rng);
                    int body = add_body(b, c, q);
                    int shape = -1;
                    cc_status st;
                    if (t < 0.4f)
                        st = cc_builder_add_sphere(b, body, 0.05f + 0.004f * u01(rng), nullptr, &shape);
                    else if (t < 0.7f)
                        st = cc_builder_add_capsule(b, body, 0.035f, 0.015f, nullptr, &shape);
                    else
                        st = cc_builder_add_box(b, body, {0.045f, 0.045f, 0.045f}, nullptr, &shape);
                    EXPECT_EQ(st, CC_OK) << cc_last_error_message();
                }
        EXPECT_EQ(cc_builder_end_world(b), CC_OK);
    }
    p.shapes = cc_builder_shape_count(b);
    return p;
}

// ---------------------------------------------------------------- snapshots

// A contact buffer after a pass: its count, every column's bytes up to the
// count (concatenated column by column) and each row's bytes (the row's
// entry of every column, concatenated).
struct Snapshot {
    int count = -1;
    std::vector<uint8_t> bytes;
    std::vector<std::vector<uint8_t>> rows;
    std::vector<std::pair<int, int>> shapes;  // (shape0, shape1) per row
};

template <typename T>
void append_column(Snapshot& s, const T* column)
{
    ASSERT_NE(column, nullptr);
    const uint8_t* p = reinterpret_cast<const uint8_t*>(column);
    s.bytes.insert(s.bytes.end(), p, p + sizeof(T) * (size_t)s.count);
    for (int i = 0; i < s.count; ++i) s.rows[(size_t)i].insert(s.rows[(size_t)i].end(), p + sizeof(T) * (size_t)i,
                                                            p + sizeof(T) * (size_t)(i + 1));
}

// On the CPU the raw columns are read through the device view (host
// pointers); elsewhere the rows are downloaded (cc_contact has no padding,
// and its derived offsets are a function of the columns and the poses).
Snapshot snapshot(World& w, bool on_cpu)
{
    Snapshot s;
    EXPECT_EQ(cc_contacts_count(w.contacts.get(), &s.count), CC_OK) << cc_last_error_message();
    EXPECT_GE(s.count, 0);
    EXPECT_LE(s.count, cc_contacts_capacity(w.contacts.get()));
    s.count = std::max(0, std::min(s.count, cc_contacts_capacity(w.contacts.get())));
    s.rows.assign((size_t)s.count, {});
    if (on_cpu) {
        cc_contacts_view v = cc_contacts_device_view(w.contacts.get());
        append_column(s, v.shape0);
        append_column(s, v.shape1);
        append_column(s, v.point0);
        append_column(s, v.point1);
        append_column(s, v.normal);
        append_column(s, v.thickness0);
        append_column(s, v.thickness1);
        append_column(s, v.distance);
        append_column(s, v.speculative);
        if (v.match_index) append_column(s, v.match_index);
        for (int i = 0; i < s.count; ++i) s.shapes.emplace_back(v.shape0[i], v.shape1[i]);
    } else {
        std::vector<cc_contact> c((size_t)s.count + 1);
        int n = -1;
        EXPECT_EQ(cc_contacts_download(w.contacts.get(), w.state.get(), c.data(), (int)c.size(), &n), CC_OK)
            << cc_last_error_message();
        EXPECT_EQ(n, s.count);
        static_assert(sizeof(cc_contact) == 22 * 4, "cc_contact has padding");
        for (int i = 0; i < s.count; ++i) {
            const uint8_t* p = reinterpret_cast<const uint8_t*>(&c[(size_t)i]);
            s.rows[(size_t)i].assign(p, p + sizeof(cc_contact));
            s.bytes.insert(s.bytes.end(), p, p + sizeof(cc_contact));
            s.shapes.emplace_back(c[(size_t)i].shape0, c[(size_t)i].shape1);
        }
    }
    return s;
}

std::vector<std::vector<uint8_t>> sorted_rows(const Snapshot& s)
{
    std::vector<std::vector<uint8_t>> r = s.rows;
    std::sort(r.begin(), r.end());
    return r;
}

// Rows of each shape pair, in buffer order.
std::map<std::pair<int, int>, std::vector<std::vector<uint8_t>>> rows_by_pair(const Snapshot& s)
{
    std::map<std::pair<int, int>, std::vector<std::vector<uint8_t>>> m;
    for (int i = 0; i < s.count; ++i) m[s.shapes[(size_t)i]].push_back(s.rows[(size_t)i]);
    return m;
}

cc_overflow overflow_of(World& w)
{
    cc_overflow ov;
    std::memset(&ov, 0x5a, sizeof ov);
    EXPECT_EQ(cc_pipeline_get_overflow(w.pipeline.get(), &ov), CC_OK) << cc_last_error_message();
    return ov;
}

void collide_pass(World& w)
{
    ASSERT_EQ(cc_collide(w.pipeline.get(), w.state.get(), w.contacts.get(), nullptr), CC_OK)
        << cc_last_error_message();
}

class DeterministicOrder : public DeviceTest {
  protected:
    bool on_cpu() const { return GetParam() == CC_DEVICE_CPU; }

    void make(const cc_builder* b, bool deterministic, cc_broad_phase bp, int contact_max, World* w,
              cc_contact_matching matching = CC_MATCHING_DISABLED)
    {
        cc_pipeline_def d = cc_default_pipeline_def();
        d.deterministic = deterministic ? 1 : 0;
        d.broad_phase = bp;
        d.rigid_contact_max = contact_max;
        d.contact_matching = matching;
        ASSERT_EQ(make_world(b, device(), d, w), CC_OK) << cc_last_error_message();
    }
};

constexpr int kPileCapacity = 1 << 16;

// ---------------------------------------------------------------- tests

// Without deterministic mode the shuffle changes the row order (so the
// byte-identity below is not vacuous) but not the set of rows.
TEST_P(DeterministicOrder, ShuffleChangesPlainOrderButNotTheSet)
{
    if (!on_cpu()) GTEST_SKIP() << "cc_testing_shuffle_narrowphase scrambles the CPU backend only";
    Pile pile = make_pile(1, 6, 6, 4, 7);
    World w;
    make(pile.builder.get(), false, CC_BROAD_PHASE_AUTO, kPileCapacity, &w);
    cc_pipeline_info info;
    ASSERT_EQ(cc_pipeline_get_info(w.pipeline.get(), &info), CC_OK);
    EXPECT_EQ(info.deterministic, 0);

    cc_testing_shuffle_narrowphase(w.pipeline.get(), 1);
    collide_pass(w);
    Snapshot a = snapshot(w, true);
    cc_testing_shuffle_narrowphase(w.pipeline.get(), 2);
    collide_pass(w);
    Snapshot b = snapshot(w, true);
    cc_overflow ov = overflow_of(w);
    ASSERT_FALSE(ov.contacts_overflowed);
    ASSERT_FALSE(ov.pairs_overflowed);

    ASSERT_GT(a.count, 200) << "the pile should be dense in contacts";
    ASSERT_EQ(a.count, b.count);
    EXPECT_NE(a.bytes, b.bytes) << "two shuffle seeds gave the same plain order: the shuffle hook does nothing";
    EXPECT_NE(a.shapes, b.shapes) << "the pair order did not change";
    EXPECT_EQ(sorted_rows(a), sorted_rows(b)) << "the shuffle changed the set of contacts";
}

// 50 passes of a ~1,000-shape pile, each with another narrow-phase order:
// every pass gives the same buffer, byte for byte (all columns).
TEST_P(DeterministicOrder, FiftyShuffledPassesAreByteIdentical)
{
    Pile pile = make_pile(4, 6, 6, 7, 11);  // 4 * 252 = 1008 pile shapes
    ASSERT_EQ(pile.shapes, 1 + 4 * (4 + 252));
    World w;
    make(pile.builder.get(), true, CC_BROAD_PHASE_AUTO, kPileCapacity, &w);

    Snapshot first;
    for (unsigned pass = 0; pass < 50; ++pass) {
        SCOPED_TRACE(testing::Message() << "pass " << pass);
        if (on_cpu()) cc_testing_shuffle_narrowphase(w.pipeline.get(), 1000u + 7919u * pass);
        collide_pass(w);
        cc_overflow ov = overflow_of(w);
        ASSERT_FALSE(ov.contacts_overflowed);
        ASSERT_FALSE(ov.pairs_overflowed);
        Snapshot s = snapshot(w, on_cpu());
        if (pass == 0) {
            ASSERT_GT(s.count, 2000) << "the pile should be dense in contacts";
            first = std::move(s);
            continue;
        }
        ASSERT_EQ(s.count, first.count);
        ASSERT_EQ(s.bytes.size(), first.bytes.size());
        if (s.bytes != first.bytes) {
            size_t k = 0;
            while (k < s.bytes.size() && s.bytes[k] == first.bytes[k]) ++k;
            FAIL() << "buffer differs from pass 0 at byte " << k << " of " << s.bytes.size();
        }
    }
}

// Rows are in ascending key order: (shape0, shape1) ascending, and within a
// pair in manifold order, which is the order in which the plain pipeline
// writes one pair's rows (one block per pair). The set of contacts equals the
// plain pipeline's.
TEST_P(DeterministicOrder, AscendingKeysAndSameSetAsPlainMode)
{
    Pile pile = make_pile(2, 6, 6, 5, 23);
    World det, plain;
    make(pile.builder.get(), true, CC_BROAD_PHASE_AUTO, kPileCapacity, &det);
    make(pile.builder.get(), false, CC_BROAD_PHASE_AUTO, kPileCapacity, &plain);
    if (on_cpu()) {
        cc_testing_shuffle_narrowphase(det.pipeline.get(), 12345);
        cc_testing_shuffle_narrowphase(plain.pipeline.get(), 54321);
    }
    collide_pass(det);
    collide_pass(plain);
    ASSERT_FALSE(overflow_of(det).contacts_overflowed);
    ASSERT_FALSE(overflow_of(plain).contacts_overflowed);
    Snapshot d = snapshot(det, on_cpu()), p = snapshot(plain, on_cpu());
    ASSERT_GT(d.count, 500);
    ASSERT_EQ(d.count, p.count);

    int pairs_with_several_rows = 0;
    for (int i = 0; i + 1 < d.count; ++i) {
        ASSERT_LE(d.shapes[(size_t)i], d.shapes[(size_t)i + 1])
            << "rows " << i << " and " << i + 1 << " are out of (shape0, shape1) order";
    }
    EXPECT_EQ(sorted_rows(d), sorted_rows(p)) << "deterministic mode changed the set of contacts";
    auto dp = rows_by_pair(d), pp = rows_by_pair(p);
    ASSERT_EQ(dp.size(), pp.size());
    for (const auto& kv : pp) {
        auto it = dp.find(kv.first);
        ASSERT_NE(it, dp.end());
        EXPECT_EQ(it->second, kv.second) << "rows of pair (" << kv.first.first << ", " << kv.first.second
                                         << ") are not in manifold (sub-key) order";
        pairs_with_several_rows += kv.second.size() > 1;
    }
    EXPECT_GT(pairs_with_several_rows, 20) << "the pile should have multi-point manifolds";
    // The plain buffer (shuffled) is not already sorted, so the sort did work.
    if (on_cpu()) {
        EXPECT_FALSE(std::is_sorted(p.shapes.begin(), p.shapes.end()));
    }
}

// The narrow phase's order also changes with the broad phase (each finds the
// candidate pairs in its own order); the deterministic buffer does not.
TEST_P(DeterministicOrder, SameBufferWithEveryBroadPhase)
{
    Pile pile = make_pile(2, 5, 5, 4, 31);
    Snapshot ref;
    for (cc_broad_phase bp : {CC_BROAD_PHASE_NXN, CC_BROAD_PHASE_SAP, CC_BROAD_PHASE_EXPLICIT}) {
        SCOPED_TRACE(testing::Message() << "broad phase " << (int)bp);
        World w;
        make(pile.builder.get(), true, bp, kPileCapacity, &w);
        collide_pass(w);
        ASSERT_FALSE(overflow_of(w).contacts_overflowed);
        Snapshot s = snapshot(w, on_cpu());
        if (bp == CC_BROAD_PHASE_NXN) {
            ASSERT_GT(s.count, 100);
            ref = std::move(s);
        } else {
            EXPECT_EQ(s.count, ref.count);
            EXPECT_TRUE(s.bytes == ref.bytes) << "the buffer depends on the broad phase";
        }
    }
}

// Matching pipelines are deterministic too: with the same state every pass,
// the whole buffer (match_index included) repeats from the second pass on.
TEST_P(DeterministicOrder, MatchingPipelinesRepeatUnderShuffle)
{
    Pile pile = make_pile(1, 6, 6, 4, 5);
    for (cc_contact_matching mode : {CC_MATCHING_LATEST, CC_MATCHING_STICKY}) {
        SCOPED_TRACE(mode == CC_MATCHING_LATEST ? "latest" : "sticky");
        World w;
        make(pile.builder.get(), false, CC_BROAD_PHASE_AUTO, kPileCapacity, &w, mode);
        Snapshot second;
        for (unsigned pass = 0; pass < 6; ++pass) {
            SCOPED_TRACE(pass);
            if (on_cpu()) cc_testing_shuffle_narrowphase(w.pipeline.get(), 77u + 31u * pass);
            collide_pass(w);
            Snapshot s = snapshot(w, on_cpu());
            if (pass == 1) {
                second = std::move(s);
            } else if (pass > 1) {
                EXPECT_TRUE(s.bytes == second.bytes) << "buffer differs from pass 1";
            }
        }
        ASSERT_GT(second.count, 100);
    }
}

// ---------------------------------------------------------------- large surfaces

// Keys stay unique on surfaces of any size. A 1024 x 1024 grid of 2^21
// triangles (2 m across) carries capsules lying along y across more than
// 512 rows, so that one capsule touches triangle t and triangle t + 2^20 in
// the same column: a sub-key narrower than the model's fingerprints would
// give both the same key, and their order would follow the narrow phase's
// scheduling. Unreduced, every triangle contact is a row of its own. A
// heightfield of 1100 x 1100 samples does the same with spheres in a row.
TEST_P(DeterministicOrder, KeysStayUniqueOnAMeshOf2To21Triangles)
{
    if (!on_cpu()) GTEST_SKIP() << "cc_testing_shuffle_narrowphase scrambles the CPU backend only";
    Builder b = make_builder(0.0f);
    MeshData grid = grid_mesh(1024, 1.0f);
    ASSERT_EQ(grid.triangle_count(), 1 << 21);
    int mesh = add_mesh_data(b.get(), grid);
    ASSERT_EQ(cc_builder_add_mesh(b.get(), CC_BODY_WORLD, mesh, {1, 1, 1}, nullptr, nullptr), CC_OK);
    for (int k = 0; k < 3; ++k) {
        // Half length 0.6 m along y: 0.6 / (2 / 1024) = 307 rows each way.
        int body = add_body(b.get(), {-0.5f + 0.37f * k, 0.05f * k, 0.0099f});
        cc_shape_def d = cc_default_shape_def();
        d.local.q = {0.70710678f, 0.0f, 0.0f, 0.70710678f}; /* segment from z to y */
        ASSERT_EQ(cc_builder_add_capsule(b.get(), body, 0.01f, 0.6f, &d, nullptr), CC_OK);
    }
    cc_pipeline_def d = cc_default_pipeline_def();
    d.deterministic = 1;
    d.reduce_contacts = 0;
    d.rigid_contact_max = 1 << 17;
    d.mesh_work_items_max = 1 << 17;
    World w;
    ASSERT_EQ(make_world(b.get(), device(), d, &w), CC_OK) << cc_last_error_message();
    cc_pipeline_info info;
    ASSERT_EQ(cc_pipeline_get_info(w.pipeline.get(), &info), CC_OK);
    EXPECT_GE(info.key_sub_bits, 24) << "2^21 triangles x 8 points need 24 bits";
    Snapshot first;
    for (unsigned pass = 0; pass < 3; ++pass) {
        cc_testing_shuffle_narrowphase(w.pipeline.get(), 17u + 7919u * pass);
        collide_pass(w);
        cc_overflow ov = overflow_of(w);
        ASSERT_FALSE(ov.contacts_overflowed || ov.mesh_items_overflowed);
        Snapshot now = snapshot(w, true);
        if (pass == 0) {
            ASSERT_GT(now.count, 3 * 2 * 512) << "each capsule should touch more than 512 rows";
            first = now;
        } else {
            ASSERT_EQ(now.count, first.count);
            EXPECT_EQ(now.bytes, first.bytes) << "the order of a pass followed the narrow phase's schedule";
        }
    }
}

TEST_P(DeterministicOrder, KeysStayUniqueOnAHeightfieldAbove1024Squared)
{
    if (!on_cpu()) GTEST_SKIP() << "cc_testing_shuffle_narrowphase scrambles the CPU backend only";
    const int n = 1100;
    Builder b = make_builder(0.0f);
    std::vector<float> heights((size_t)n * n, 0.0f);
    int hf = -1;
    ASSERT_EQ(cc_builder_add_heightfield_data(b.get(), n, n, heights.data(), &hf), CC_OK) << cc_last_error_message();
    ASSERT_EQ(cc_builder_add_heightfield(b.get(), CC_BODY_WORLD, hf, {1.0f, 1.0f, 1.0f}, nullptr, nullptr), CC_OK);
    int body = add_body(b.get(), {0.0f, 0.0f, 0.0099f});
    cc_shape_def sd = cc_default_shape_def();
    sd.local.q = {0.70710678f, 0.0f, 0.0f, 0.70710678f};
    ASSERT_EQ(cc_builder_add_capsule(b.get(), body, 0.01f, 0.9f, &sd, nullptr), CC_OK);
    cc_pipeline_def d = cc_default_pipeline_def();
    d.deterministic = 1;
    d.reduce_contacts = 0;
    d.rigid_contact_max = 1 << 17;
    d.mesh_work_items_max = 1 << 17;
    World w;
    ASSERT_EQ(make_world(b.get(), device(), d, &w), CC_OK) << cc_last_error_message();
    cc_pipeline_info info;
    ASSERT_EQ(cc_pipeline_get_info(w.pipeline.get(), &info), CC_OK);
    EXPECT_GE(info.key_sub_bits, 25) << "1099^2 cells x 2 triangles x 8 points need 25 bits";
    Snapshot first;
    for (unsigned pass = 0; pass < 3; ++pass) {
        cc_testing_shuffle_narrowphase(w.pipeline.get(), 5u + 104729u * pass);
        collide_pass(w);
        cc_overflow ov = overflow_of(w);
        ASSERT_FALSE(ov.contacts_overflowed || ov.mesh_items_overflowed);
        Snapshot now = snapshot(w, true);
        if (pass == 0) {
            ASSERT_GT(now.count, 1000);
            first = now;
        } else {
            ASSERT_EQ(now.count, first.count);
            EXPECT_EQ(now.bytes, first.bytes) << "the order of a pass followed the narrow phase's schedule";
        }
    }
}

// ---------------------------------------------------------------- key layout

TEST(KeyLayout, LimitsOfTheSimpleAndComplexLayouts)
{
    cc_key_layout l;
    // Primitive and convex models: 3-bit sub-key, 30 bits per shape.
    ASSERT_EQ(cc_testing_key_layout(1 << 30, 8, &l), CC_OK) << cc_last_error_message();
    EXPECT_EQ(l.shape_bits, 30);
    EXPECT_EQ(l.sub_bits, 3);
    EXPECT_EQ(cc_testing_key_layout((1 << 30) + 1, 8, &l), CC_ERR_INVALID_ARGUMENT);
    EXPECT_NE(std::string(cc_last_error_message()).find("2^30"), std::string::npos) << cc_last_error_message();
    // A surface of 2^20 triangles: 23-bit sub-key, 20 bits per shape.
    ASSERT_EQ(cc_testing_key_layout(1 << 20, (uint64_t)8 << 20, &l), CC_OK) << cc_last_error_message();
    EXPECT_EQ(l.shape_bits, 20);
    EXPECT_EQ(l.sub_bits, 23);
    EXPECT_EQ(cc_testing_key_layout((1 << 20) + 1, (uint64_t)8 << 20, &l), CC_ERR_INVALID_ARGUMENT);
    EXPECT_NE(std::string(cc_last_error_message()).find("2^20"), std::string::npos) << cc_last_error_message();
    // The sub-key grows with the surface (2^21 triangles: 24 bits) and the
    // shapes get what is left; a one-triangle sub-key more never fits in
    // fewer bits.
    ASSERT_EQ(cc_testing_key_layout(1000, (uint64_t)8 << 21, &l), CC_OK);
    EXPECT_EQ(l.sub_bits, 24);
    EXPECT_EQ(l.shape_bits, 19);
    ASSERT_EQ(cc_testing_key_layout(1000, ((uint64_t)8 << 21) + 1, &l), CC_OK);
    EXPECT_EQ(l.sub_bits, 25);
    // The complex layout's limit is the tighter one.
    EXPECT_EQ(cc_testing_key_layout(1 << 30, (uint64_t)8 << 20, &l), CC_ERR_INVALID_ARGUMENT);
    EXPECT_EQ(cc_testing_key_layout((1 << 20) + 1, 8, &l), CC_OK);
    EXPECT_EQ(cc_testing_key_layout(1, 8, &l), CC_OK);
}

struct KeyTuple {
    int s0, s1, sub;
};

void expect_round_trip(cc_key_layout l, KeyTuple t)
{
    uint64_t k = cc_contact_key(l, t.s0, t.s1, t.sub);
    EXPECT_EQ(k >> 63, 0u) << "bit 63 set for (" << t.s0 << ", " << t.s1 << ", " << t.sub << ")";
    KeyTuple r{-1, -1, -1};
    cc_contact_key_decode(l, k, &r.s0, &r.s1, &r.sub);
    EXPECT_EQ(r.s0, t.s0);
    EXPECT_EQ(r.s1, t.s1);
    EXPECT_EQ(r.sub, t.sub);
    EXPECT_EQ(cc_key_pair(l, k), ((uint64_t)t.s0 << l.shape_bits) | (uint64_t)t.s1);
    EXPECT_NE(k, CC_KEY_EMPTY);
    EXPECT_LT(k, CC_KEY_EMPTY);
}

TEST(KeyLayout, RoundTripAtTheLimitsWithBit63Clear)
{
    for (int complex : {0, 1}) {
        SCOPED_TRACE(complex ? "complex" : "simple");
        cc_key_layout l;
        int max_shapes = complex ? 1 << 20 : 1 << 30;
        ASSERT_EQ(cc_testing_key_layout(max_shapes, complex ? (uint64_t)8 << 20 : 8, &l), CC_OK);
        const int smax = max_shapes - 1;
        const int submax = (1 << l.sub_bits) - 1;
        EXPECT_EQ(submax, complex ? (1 << 23) - 1 : 7);
        // Every combination of extremes: a field leaking into its neighbour
        // shows up as a wrong decode.
        for (int s0 : {0, 1, smax - 1, smax})
            for (int s1 : {0, 1, smax - 1, smax})
                for (int sub : {0, 1, submax - 1, submax}) expect_round_trip(l, {s0, s1, sub});
        EXPECT_EQ(cc_contact_key(l, smax, smax, submax), ((uint64_t)1 << 63) - 1) << "the key should fill 63 bits";

        // Key order is (shape0, shape1, sub) order.
        std::mt19937 rng(complex ? 3 : 4);
        std::uniform_int_distribution<int> shape(0, smax), sub(0, submax), small(0, 3);
        std::vector<KeyTuple> t;
        for (int i = 0; i < 2000; ++i) {
            // Mix full-range values with near-equal ones, so ties on the
            // leading fields are common.
            KeyTuple k{shape(rng), shape(rng), sub(rng)};
            if (i % 2) k = {smax - small(rng), small(rng), submax - small(rng)};
            t.push_back(k);
            expect_round_trip(l, k);
        }
        for (size_t i = 0; i + 1 < t.size(); ++i) {
            const KeyTuple &a = t[i], &b = t[i + 1];
            bool tuple_less = std::make_tuple(a.s0, a.s1, a.sub) < std::make_tuple(b.s0, b.s1, b.sub);
            bool key_less = cc_contact_key(l, a.s0, a.s1, a.sub) < cc_contact_key(l, b.s0, b.s1, b.sub);
            ASSERT_EQ(tuple_less, key_less) << "key order differs from tuple order at " << i;
        }
    }
}

TEST_P(DeterministicOrder, InfoReportsTheKeyLayoutOfAPrimitiveModel)
{
    Builder b = make_builder(0.01f);
    ASSERT_EQ(cc_builder_add_plane(b.get(), CC_BODY_WORLD, 0, 0, nullptr, nullptr), CC_OK);
    int body = add_body(b.get(), {0, 0, 0.5f});
    ASSERT_EQ(cc_builder_add_box(b.get(), body, {0.5f, 0.5f, 0.5f}, nullptr, nullptr), CC_OK);
    {
        World w;
        make(b.get(), true, CC_BROAD_PHASE_AUTO, CC_CAPACITY_AUTO, &w);
        cc_pipeline_info info;
        ASSERT_EQ(cc_pipeline_get_info(w.pipeline.get(), &info), CC_OK);
        EXPECT_EQ(info.deterministic, 1);
        EXPECT_EQ(info.key_shape_bits, 30);
        EXPECT_EQ(info.key_sub_bits, 3);
    }
    {
        World w;
        make(b.get(), false, CC_BROAD_PHASE_AUTO, CC_CAPACITY_AUTO, &w);
        cc_pipeline_info info;
        ASSERT_EQ(cc_pipeline_get_info(w.pipeline.get(), &info), CC_OK);
        EXPECT_EQ(info.deterministic, 0);
    }
}

// ---------------------------------------------------------------- overflow

// Overflow in deterministic mode: the count is the capacity, the overflow
// record gives the full need, every row is a distinct contact of the full
// answer in ascending key order, and nothing is written past the buffer.
// The capacity is a multiple of 4, so the columns are packed without
// padding: a row written past one column lands on row 0 of the next (or on
// the matching header after the distance column), which the checks catch.
TEST_P(DeterministicOrder, OverflowNeverWritesPastTheBufferAndReportsTheNeed)
{
    Pile pile = make_pile(1, 5, 5, 4, 41);
    World full;
    make(pile.builder.get(), true, CC_BROAD_PHASE_AUTO, kPileCapacity, &full);
    collide_pass(full);
    ASSERT_FALSE(overflow_of(full).contacts_overflowed);
    Snapshot answer = snapshot(full, on_cpu());
    ASSERT_GT(answer.count, 100);
    std::vector<std::vector<uint8_t>> all = sorted_rows(answer);

    for (cc_contact_matching mode : {CC_MATCHING_DISABLED, CC_MATCHING_LATEST}) {
        for (int cap : {(answer.count / 2) & ~3, (answer.count - 1) & ~3, 4}) {
            SCOPED_TRACE(testing::Message() << "matching " << (int)mode << " capacity " << cap);
            World w;
            cc_pipeline_def d = cc_default_pipeline_def();
            d.deterministic = 1;
            d.rigid_contact_max = cap;
            d.contact_matching = mode;
            d.contact_report = mode != CC_MATCHING_DISABLED;
            ASSERT_EQ(make_world(pile.builder.get(), device(), d, &w), CC_OK) << cc_last_error_message();
            ASSERT_EQ(cc_contacts_capacity(w.contacts.get()), cap);
            for (unsigned pass = 0; pass < 3; ++pass) {
                SCOPED_TRACE(pass);
                if (on_cpu()) cc_testing_shuffle_narrowphase(w.pipeline.get(), 5u + pass);
                collide_pass(w);
                cc_overflow ov = overflow_of(w);
                EXPECT_TRUE(ov.contacts_overflowed);
                EXPECT_EQ(ov.contacts_needed, answer.count);
                EXPECT_EQ(ov.contacts_capacity, cap);
                EXPECT_FALSE(ov.pairs_overflowed);
                Snapshot s = snapshot(w, on_cpu());
                ASSERT_EQ(s.count, cap);
                for (int i = 0; i + 1 < s.count; ++i)
                    EXPECT_LE(s.shapes[(size_t)i], s.shapes[(size_t)i + 1]) << "row " << i;
                std::vector<cc_contact> rows((size_t)cap);
                int n = -1;
                ASSERT_EQ(cc_contacts_download(w.contacts.get(), w.state.get(), rows.data(), cap, &n), CC_OK);
                ASSERT_EQ(n, cap);
                std::vector<cc_contact> full_rows((size_t)answer.count);
                ASSERT_EQ(cc_contacts_download(full.contacts.get(), full.state.get(), full_rows.data(), answer.count, &n),
                          CC_OK);
                std::vector<char> used(full_rows.size(), 0);
                for (int i = 0; i < cap; ++i) {
                    const cc_contact& c = rows[(size_t)i];
                    bool found = false;
                    for (size_t k = 0; k < full_rows.size() && !found; ++k) {
                        const cc_contact& e = full_rows[k];
                        // Compare everything but match_index.
                        if (!used[k] && std::memcmp(&c, &e, offsetof(cc_contact, match_index)) == 0) {
                            used[k] = 1;
                            found = true;
                        }
                    }
                    EXPECT_TRUE(found) << "row " << i << " (shapes " << c.shape0 << ", " << c.shape1
                                       << ") is not a distinct contact of the full answer";
                }
                if (mode != CC_MATCHING_DISABLED) {
                    int gen = -9, mgen = -9;
                    ASSERT_EQ(cc_contacts_generations(w.contacts.get(), &gen, &mgen), CC_OK);
                    EXPECT_EQ(gen, (int)pass + 1) << "the generation header was overwritten";
                    EXPECT_EQ(mgen, pass == 0 ? -1 : (int)pass) << "the generation header was overwritten";
                    int nn = -1, nb = -1;
                    std::vector<int> ni((size_t)cap + 1), bi((size_t)cap + 1);
                    ASSERT_EQ(cc_contacts_download_report(w.contacts.get(), ni.data(), cap + 1, &nn, bi.data(), cap + 1,
                                                          &nb),
                              CC_OK);
                    EXPECT_GE(nn, 0);
                    EXPECT_LE(nn, cap);
                    EXPECT_GE(nb, 0);
                    EXPECT_LE(nb, cap);
                }
            }
        }
    }
}

// ---------------------------------------------------------------- validation

class DeterministicValidation : public DeviceTest {
  protected:
    void SetUp() override
    {
        DeviceTest::SetUp();
        if (IsSkipped()) return;
        builder_ = make_builder(0.01f);
        ASSERT_EQ(cc_builder_add_plane(builder_.get(), CC_BODY_WORLD, 0, 0, nullptr, nullptr), CC_OK);
        int body = add_body(builder_.get(), {0, 0, 0.5f});
        ASSERT_EQ(cc_builder_add_box(builder_.get(), body, {0.5f, 0.5f, 0.5f}, nullptr, nullptr), CC_OK);
        cc_model* m = nullptr;
        ASSERT_EQ(cc_builder_finalize(builder_.get(), device(), &m), CC_OK) << cc_last_error_message();
        model_.reset(m);
    }
    cc_status create(const cc_pipeline_def& d, cc_pipeline_info* info = nullptr)
    {
        cc_pipeline* p = nullptr;
        cc_status s = cc_pipeline_create(model_.get(), &d, &p);
        if (s == CC_OK) {
            EXPECT_NE(p, nullptr);
            if (info) {
                EXPECT_EQ(cc_pipeline_get_info(p, info), CC_OK);
            }
            cc_pipeline_destroy(p);
        } else {
            EXPECT_EQ(p, nullptr) << "a failed create handed out a pipeline";
        }
        return s;
    }
    Builder builder_;
    Model model_;
};

TEST_P(DeterministicValidation, ReportNeedsMatching)
{
    cc_pipeline_def d = cc_default_pipeline_def();
    d.contact_report = 1;
    EXPECT_EQ(create(d), CC_ERR_INVALID_ARGUMENT);
    EXPECT_NE(std::string(cc_last_error_message()).find("contact_report"), std::string::npos) << cc_last_error_message();
    d.deterministic = 1;  // deterministic alone is not enough
    EXPECT_EQ(create(d), CC_ERR_INVALID_ARGUMENT);
    for (cc_contact_matching mode : {CC_MATCHING_LATEST, CC_MATCHING_STICKY}) {
        d.contact_matching = mode;
        EXPECT_EQ(create(d), CC_OK) << cc_last_error_message();
    }
}

TEST_P(DeterministicValidation, BadThresholdsAndModesAreRejected)
{
    const float nan = std::nanf(""), inf = INFINITY;
    for (cc_contact_matching mode : {CC_MATCHING_LATEST, CC_MATCHING_STICKY}) {
        SCOPED_TRACE((int)mode);
        for (float pos : {nan, -0.001f, -inf, inf}) {
            cc_pipeline_def d = cc_default_pipeline_def();
            d.contact_matching = mode;
            d.contact_matching_pos_threshold = pos;
            EXPECT_EQ(create(d), CC_ERR_INVALID_ARGUMENT) << "pos threshold " << pos;
        }
        for (float dot : {nan, 1.0001f, 2.0f, -1.0001f, inf}) {
            cc_pipeline_def d = cc_default_pipeline_def();
            d.contact_matching = mode;
            d.contact_matching_normal_dot_threshold = dot;
            EXPECT_EQ(create(d), CC_ERR_INVALID_ARGUMENT) << "dot threshold " << dot;
        }
        // The ends of the ranges are valid.
        for (float pos : {0.0f, 10.0f}) {
            cc_pipeline_def d = cc_default_pipeline_def();
            d.contact_matching = mode;
            d.contact_matching_pos_threshold = pos;
            EXPECT_EQ(create(d), CC_OK) << "pos threshold " << pos << ": " << cc_last_error_message();
        }
        for (float dot : {-1.0f, 1.0f, 0.0f}) {
            cc_pipeline_def d = cc_default_pipeline_def();
            d.contact_matching = mode;
            d.contact_matching_normal_dot_threshold = dot;
            EXPECT_EQ(create(d), CC_OK) << "dot threshold " << dot << ": " << cc_last_error_message();
        }
    }
    cc_pipeline_def d = cc_default_pipeline_def();
    d.contact_matching = (cc_contact_matching)3;
    EXPECT_EQ(create(d), CC_ERR_INVALID_ARGUMENT);
    d.contact_matching = (cc_contact_matching)-1;
    EXPECT_EQ(create(d), CC_ERR_INVALID_ARGUMENT);
}

TEST_P(DeterministicValidation, MatchingImpliesDeterministic)
{
    for (cc_contact_matching mode : {CC_MATCHING_LATEST, CC_MATCHING_STICKY}) {
        cc_pipeline_def d = cc_default_pipeline_def();
        d.deterministic = 0;
        d.contact_matching = mode;
        cc_pipeline_info info;
        std::memset(&info, 0, sizeof info);
        ASSERT_EQ(create(d, &info), CC_OK) << cc_last_error_message();
        EXPECT_EQ(info.deterministic, 1) << "mode " << (int)mode;
        EXPECT_EQ(info.key_shape_bits, 30);
        EXPECT_EQ(info.key_sub_bits, 3);
    }
    cc_pipeline_def d = cc_default_pipeline_def();
    cc_pipeline_info info;
    std::memset(&info, 0x5a, sizeof info);
    ASSERT_EQ(create(d, &info), CC_OK);
    EXPECT_EQ(info.deterministic, 0);
}

CC_INSTANTIATE_DEVICE_TEST(DeterministicOrder);
CC_INSTANTIATE_DEVICE_TEST(DeterministicValidation);

}  // namespace
