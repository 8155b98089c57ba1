// Mesh against mesh through SDFs: two box meshes against the analytic
// box-box depth, normal and support polygon; a plank across a narrow box
// (edges crossing edges, where no vertex touches); the BVH route for a
// mesh without an SDF; both orders; reduction; determinism; random poses
// against the exact primitive pairs.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <string>
#include <random>

#include "kernels/contacts/reduction.h"
#include "kernels/math/quat.h"
#include "benchmarks/scene_meshes.h"
#include "tests/support/mesh_util.h"
#include "tests/support/narrowphase_util.h"

using namespace cctest;

namespace {

class SdfContacts : public DeviceTest {};

// A box mesh of half extents h with an SDF of max_resolution `res`; -1 for none.
int add_box_mesh(cc_builder* b, cc_vec3 h, int res, float* voxel = nullptr)
{
    int mesh = add_mesh_data(b, box_mesh(h));
    if (res > 0) {
        cc_sdf_def d = cc_default_sdf_def();
        d.max_resolution = res;
        int sdf = -1;
        EXPECT_EQ(cc_builder_build_mesh_sdf(b, mesh, &d, &sdf), CC_OK) << cc_last_error_message();
        cc_sdf_info info;
        EXPECT_EQ(cc_builder_get_sdf_info(b, sdf, &info), CC_OK);
        if (voxel) *voxel = info.voxel_size;
    }
    return mesh;
}

// A contact's point on the static shape `fixed` (world frame: its body is the world).
cc_vec3 fixed_point(const cc_contact& c, int fixed) { return c.shape0 == fixed ? c.point0 : c.point1; }

TEST_P(SdfContacts, BoxOnBoxMatchesTheAnalyticDepthNormalAndSupport)
{
    // A small box mesh sunk 2 mm into a large one: the depth of the
    // analytic pair within a voxel, the normal within 2 degrees, and
    // contacts at the four corners of the small box's bottom face.
    for (int order = 0; order < 2; ++order) {
        Builder b = make_builder(0.01f);
        float voxel = 0.0f;
        int big = -1, small = -1;
        if (order == 0) {
            big = add_box_mesh(b.get(), {0.5f, 0.5f, 0.5f}, 64, &voxel);
            small = add_box_mesh(b.get(), {0.1f, 0.1f, 0.1f}, 64);
        } else {
            small = add_box_mesh(b.get(), {0.1f, 0.1f, 0.1f}, 64);
            big = add_box_mesh(b.get(), {0.5f, 0.5f, 0.5f}, 64, &voxel);
        }
        int body = add_body(b.get(), {0.1f, 0.05f, 0.598f});
        int fixed = -1;
        ASSERT_EQ(cc_builder_add_mesh(b.get(), CC_BODY_WORLD, big, {1, 1, 1}, nullptr, &fixed), CC_OK);
        ASSERT_EQ(cc_builder_add_mesh(b.get(), body, small, {1, 1, 1}, nullptr, nullptr), CC_OK);
        World w;
        ASSERT_EQ(make_world(b.get(), device(), plain_def(), &w), CC_OK) << cc_last_error_message();
        std::vector<cc_contact> c = collide(w);
        ASSERT_GE(c.size(), 4u);
        EXPECT_NEAR(min_distance(c), -0.002f, voxel);
        float lo_x = INFINITY, hi_x = -INFINITY, lo_y = INFINITY, hi_y = -INFINITY;
        for (const auto& x : c) {
            EXPECT_GT(x.normal.z, std::cos(2.0f * 3.14159265f / 180.0f)) << "d " << x.distance;
            cc_vec3 p = fixed_point(x, fixed);
            EXPECT_NEAR(p.z, 0.5f, voxel);
            lo_x = std::min(lo_x, p.x), hi_x = std::max(hi_x, p.x), lo_y = std::min(lo_y, p.y), hi_y = std::max(hi_y, p.y);
        }
        // The support polygon: the bottom face [0, 0.2] x [-0.05, 0.15].
        EXPECT_NEAR(lo_x, 0.0f, 1e-4f);
        EXPECT_NEAR(hi_x, 0.2f, 1e-4f);
        EXPECT_NEAR(lo_y, -0.05f, 1e-4f);
        EXPECT_NEAR(hi_y, 0.15f, 1e-4f);
    }
}

TEST_P(SdfContacts, RandomPosesAgreeWithTheExactPairWithinAVoxel)
{
    // Two meshes with SDFs (a box and a box, a box and a sphere) at random
    // orientations, from 2 cm apart to 2 cm deep, each pair beside the
    // same pair of primitives, whose routes are exact: the SDF route's
    // deepest contact lies within a voxel and a half of the exact distance
    // (the field interpolates exact samples, errs by at most 0.87 voxel,
    // and an edge's sampled minimum by a little more), never deeper, and a
    // pair farther apart than the threshold by that much has none.
    const cc_vec3 ha = {0.1f, 0.08f, 0.06f}, hb = {0.12f, 0.05f, 0.09f};
    const float r = 0.08f, gap = 0.01f;
    MeshData sphere = sphere_mesh(r, 4);
    std::mt19937 rng(23);
    for (int kind = 0; kind < 2; ++kind) {
        const int n = 160;
        Builder meshes = make_builder(gap), prims = make_builder(gap);
        float voxel = 0.0f, voxel_b = 0.0f;
        int ma = add_box_mesh(meshes.get(), ha, 64, &voxel), mb = -1;
        if (kind == 0) {
            mb = add_box_mesh(meshes.get(), hb, 64, &voxel_b);
        } else {
            mb = add_mesh_data(meshes.get(), sphere);
            cc_sdf_def d = cc_default_sdf_def();
            int sdf = -1;
            ASSERT_EQ(cc_builder_build_mesh_sdf(meshes.get(), mb, &d, &sdf), CC_OK) << cc_last_error_message();
            cc_sdf_info info;
            ASSERT_EQ(cc_builder_get_sdf_info(meshes.get(), sdf, &info), CC_OK);
            voxel_b = info.voxel_size;
        }
        voxel = std::max(voxel, voxel_b);
        // The sphere mesh lies inside the sphere by at most its sagitta.
        const float inscribed = kind == 1 ? 0.002f * r : 0.0f;
        for (int i = 0; i < n; ++i) {
            cc_quat qa = nptest::random_quat(rng), qb = nptest::random_quat(rng);
            cc_vec3 u = cc_v3_normalize(nptest::random_vec(rng, -1.0f, 1.0f));
            float reach = kind == 0 ? cc_v3_length(ha) + cc_v3_length(hb) : cc_v3_length(ha) + r;
            cc_vec3 pa = {10.0f * (float)i, 0.0f, 0.0f};
            cc_vec3 pb = cc_v3_madd(pa, u, nptest::uniform(rng, 0.5f, 0.9f) * reach);
            int a_body = add_body(meshes.get(), pa, qa, 1), b_body = add_body(meshes.get(), pb, qb);
            ASSERT_EQ(cc_builder_add_mesh(meshes.get(), a_body, ma, {1, 1, 1}, nullptr, nullptr), CC_OK);
            ASSERT_EQ(cc_builder_add_mesh(meshes.get(), b_body, mb, {1, 1, 1}, nullptr, nullptr), CC_OK);
            a_body = add_body(prims.get(), pa, qa, 1), b_body = add_body(prims.get(), pb, qb);
            ASSERT_EQ(cc_builder_add_box(prims.get(), a_body, ha, nullptr, nullptr), CC_OK);
            if (kind == 0) ASSERT_EQ(cc_builder_add_box(prims.get(), b_body, hb, nullptr, nullptr), CC_OK);
            else ASSERT_EQ(cc_builder_add_sphere(prims.get(), b_body, r, nullptr, nullptr), CC_OK);
        }
        World wm, wp;
        ASSERT_EQ(make_world(meshes.get(), device(), plain_def(), &wm), CC_OK) << cc_last_error_message();
        ASSERT_EQ(make_world(prims.get(), device(), plain_def(), &wp), CC_OK) << cc_last_error_message();
        std::vector<float> got(n, INFINITY), exact(n, INFINITY);
        for (const cc_contact& c : collide(wm)) got[c.shape0 / 2] = std::min(got[c.shape0 / 2], c.distance);
        for (const cc_contact& c : collide(wp)) exact[c.shape0 / 2] = std::min(exact[c.shape0 / 2], c.distance);
        const float threshold = 2.0f * gap, tol = 1.5f * voxel + inscribed;
        int compared = 0;
        for (int i = 0; i < n; ++i) {
            SCOPED_TRACE("kind " + std::to_string(kind) + " pose " + std::to_string(i));
            // Deeper than 2 cm (a fifth of the boxes) the pair's depth is
            // no feature's: each vertex measures its own way out.
            if (std::isfinite(exact[i]) && exact[i] < threshold - tol && exact[i] > -0.02f) {
                ASSERT_TRUE(std::isfinite(got[i])) << "exact " << exact[i];
                EXPECT_NEAR(got[i], exact[i], tol);
                ++compared;
            }
            if (std::isfinite(got[i])) {
                EXPECT_GE(got[i], exact[i] - tol);
            }
        }
        std::printf("kind %d: %d of %d poses within reach of the exact pair compared\n", kind, compared, n);
        EXPECT_GE(compared, 30) << "kind " << kind;
    }
}

TEST_P(SdfContacts, APlankAcrossANarrowBoxRestsOnTheCrossingsOfTheirEdges)
{
    // No vertex of either box lies over the other: the contacts come from
    // the edges, where the plank's bottom edges cross the narrow box's top
    // edges, at (+-0.1, +-0.1). Without SDFs the vertex route finds none.
    for (int res : {0, 64}) {
        Builder b = make_builder(0.01f);
        float voxel = 0.0f;
        int narrow = add_box_mesh(b.get(), {0.1f, 0.5f, 0.1f}, res, &voxel);
        int plank = add_box_mesh(b.get(), {0.5f, 0.1f, 0.02f}, res);
        int fixed = -1;
        ASSERT_EQ(cc_builder_add_mesh(b.get(), CC_BODY_WORLD, narrow, {1, 1, 1}, nullptr, &fixed), CC_OK);
        int body = add_body(b.get(), {0.0f, 0.0f, 0.119f});
        ASSERT_EQ(cc_builder_add_mesh(b.get(), body, plank, {1, 1, 1}, nullptr, nullptr), CC_OK);
        World w;
        ASSERT_EQ(make_world(b.get(), device(), plain_def(), &w), CC_OK) << cc_last_error_message();
        std::vector<cc_contact> c = collide(w);
        if (res == 0) {
            EXPECT_EQ(c.size(), 0u) << "the vertex route misses crossing edges";
            continue;
        }
        ASSERT_GE(c.size(), 4u);
        EXPECT_NEAR(min_distance(c), -0.001f, voxel);
        int corners[4] = {0, 0, 0, 0};
        for (const auto& x : c) {
            EXPECT_GT(x.normal.z, 0.999f);
            cc_vec3 p = fixed_point(x, fixed);
            EXPECT_LE(std::fabs(p.x), 0.1f + voxel);
            EXPECT_LE(std::fabs(p.y), 0.1f + voxel);
            if (std::fabs(std::fabs(p.x) - 0.1f) < voxel && std::fabs(std::fabs(p.y) - 0.1f) < voxel)
                corners[(p.x > 0) + 2 * (p.y > 0)]++;
        }
        for (int k = 0; k < 4; ++k) EXPECT_GE(corners[k], 1) << "corner " << k;
    }
}

TEST_P(SdfContacts, AMeshWithoutAnSdfIsQueriedThroughTheOtherOnesField)
{
    // Only the large box has an SDF: the small box's corners and edges go
    // through it; the large box's vertices go through the small one's BVH.
    Builder b = make_builder(0.01f);
    float voxel = 0.0f;
    int big = add_box_mesh(b.get(), {0.5f, 0.5f, 0.5f}, 64, &voxel);
    int small = add_box_mesh(b.get(), {0.1f, 0.1f, 0.1f}, 0);
    ASSERT_EQ(cc_builder_add_mesh(b.get(), CC_BODY_WORLD, big, {1, 1, 1}, nullptr, nullptr), CC_OK);
    int body = add_body(b.get(), {0.1f, 0.05f, 0.598f});
    ASSERT_EQ(cc_builder_add_mesh(b.get(), body, small, {1, 1, 1}, nullptr, nullptr), CC_OK);
    World w;
    ASSERT_EQ(make_world(b.get(), device(), plain_def(), &w), CC_OK) << cc_last_error_message();
    std::vector<cc_contact> c = collide(w);
    ASSERT_EQ(c.size(), 4u);
    for (const auto& x : c) {
        EXPECT_NEAR(x.distance, -0.002f, voxel);
        EXPECT_GT(x.normal.z, 0.9995f);
    }
}

TEST_P(SdfContacts, AnSdfAtAnotherScaleLeavesTheShapeOnTheBvhRoute)
{
    // The SDF was built at scale 1; a shape of the mesh at scale 2 keeps
    // the vertex route, with the right (scaled) answer.
    Builder b = make_builder(0.01f);
    int big = add_box_mesh(b.get(), {0.25f, 0.25f, 0.25f}, 64);
    int small = add_box_mesh(b.get(), {0.1f, 0.1f, 0.1f}, 64);
    ASSERT_EQ(cc_builder_add_mesh(b.get(), CC_BODY_WORLD, big, {2, 2, 2}, nullptr, nullptr), CC_OK);
    int body = add_body(b.get(), {0.1f, 0.05f, 0.598f});
    ASSERT_EQ(cc_builder_add_mesh(b.get(), body, small, {1, 1, 1}, nullptr, nullptr), CC_OK);
    World w;
    ASSERT_EQ(make_world(b.get(), device(), plain_def(), &w), CC_OK) << cc_last_error_message();
    std::vector<cc_contact> c = collide(w);
    ASSERT_GE(c.size(), 4u);
    EXPECT_NEAR(min_distance(c), -0.002f, 1e-5f);
}

TEST_P(SdfContacts, ContactsRepeatToTheBitAndStayWithinTheReductionBound)
{
    // A tessellated box lying tilted in another: many raw contacts, reduced
    // to the per-pair bound, the same rows on every call.
    Builder b = make_builder(0.01f);
    int big = add_mesh_data(b.get(), tessellated_box_mesh({0.5f, 0.5f, 0.5f}, 8));
    int small = add_mesh_data(b.get(), tessellated_box_mesh({0.2f, 0.15f, 0.1f}, 6));
    cc_sdf_def d = cc_default_sdf_def();
    ASSERT_EQ(cc_builder_build_mesh_sdf(b.get(), big, &d, nullptr), CC_OK) << cc_last_error_message();
    ASSERT_EQ(cc_builder_build_mesh_sdf(b.get(), small, &d, nullptr), CC_OK) << cc_last_error_message();
    ASSERT_EQ(cc_builder_add_mesh(b.get(), CC_BODY_WORLD, big, {1, 1, 1}, nullptr, nullptr), CC_OK);
    const cc_quat q = {0.0499792f, 0.0299875f, 0.0f, 0.998300f};
    int body = add_body(b.get(), {0.05f, -0.1f, 0.59f}, q);
    ASSERT_EQ(cc_builder_add_mesh(b.get(), body, small, {1, 1, 1}, nullptr, nullptr), CC_OK);
    World w;
    cc_pipeline_def def = plain_def();
    def.deterministic = 1;
    ASSERT_EQ(make_world(b.get(), device(), def, &w), CC_OK) << cc_last_error_message();
    std::vector<cc_contact> first = collide(w), second = collide(w);
    ASSERT_GT(first.size(), 2u);
    EXPECT_LE(first.size(), (size_t)CC_REDUCE_SLOTS);
    ASSERT_EQ(first.size(), second.size());
    for (size_t i = 0; i < first.size(); ++i) EXPECT_EQ(std::memcmp(&first[i], &second[i], sizeof first[i]), 0) << i;
    // The deepest contact is the small box's lowest corner, straight up.
    float lowest = INFINITY;
    for (int k = 0; k < 8; ++k) {
        cc_vec3 corner = {(k & 1) ? 0.2f : -0.2f, (k & 2) ? 0.15f : -0.15f, (k & 4) ? 0.1f : -0.1f};
        lowest = std::min(lowest, 0.59f + cc_q_rotate(cc_q_normalize(q), corner).z);
    }
    auto deepest = std::min_element(first.begin(), first.end(),
                                    [](const cc_contact& a, const cc_contact& c) { return a.distance < c.distance; });
    float voxel = (1.0f + 0.1f) / 64.0f;
    EXPECT_NEAR(deepest->distance, lowest - 0.5f, voxel);
    EXPECT_GT(deepest->normal.z, std::cos(2.0f * 3.14159265f / 180.0f));
}

// An SDF of mesh `mesh` at scale `scale` (max_resolution `res`); its voxel.
float build_sdf(cc_builder* b, int mesh, cc_vec3 scale, int res)
{
    cc_sdf_def d = cc_default_sdf_def();
    d.scale = scale;
    d.max_resolution = res;
    int sdf = -1;
    EXPECT_EQ(cc_builder_build_mesh_sdf(b, mesh, &d, &sdf), CC_OK) << cc_last_error_message();
    cc_sdf_info info{};
    EXPECT_EQ(cc_builder_get_sdf_info(b, sdf, &info), CC_OK);
    return info.voxel_size;
}

TEST_P(SdfContacts, APegInAHoleTouchesTheWallOrTheFloorOnly)
{
    // A block (0.2 m square, 0.1 m tall) with a blind square hole (0.1 m,
    // floor at 0.02 m) and a peg (0.08 m square) in it that sticks out of
    // the opening: pressed 0.5 mm into the +x wall, 1 cm above the floor
    // and clear of the other walls, its contacts lie on that wall (normal
    // along x); standing 0.5 mm deep on the floor, clear of every wall, on
    // the floor (along z). None lies on the opening or the other walls.
    // (A peg corner pressed into the wall and the floor at once sits on a
    // ridge of the field, where interpolation blends the two normals.)
    for (int on_floor = 0; on_floor < 2; ++on_floor) {
        Builder b = make_builder(0.0f);
        int block = -1;
        ASSERT_EQ(scene_add_cup(b.get(), 4, 0.1f * std::sqrt(2.0f), 0.05f * std::sqrt(2.0f), 0.1f, 0.02f, &block), CC_OK);
        int peg = add_mesh_data(b.get(), box_mesh({0.04f, 0.04f, 0.06f}));
        float voxel = build_sdf(b.get(), block, {1, 1, 1}, 128);
        build_sdf(b.get(), peg, {1, 1, 1}, 64);
        int fixed = -1;
        ASSERT_EQ(cc_builder_add_mesh(b.get(), CC_BODY_WORLD, block, {1, 1, 1}, nullptr, &fixed), CC_OK);
        cc_vec3 at = on_floor ? cc_vec3{0.0f, 0.0f, 0.0795f} : cc_vec3{0.0105f, 0.0f, 0.09f};
        int body = add_body(b.get(), at);
        ASSERT_EQ(cc_builder_add_mesh(b.get(), body, peg, {1, 1, 1}, nullptr, nullptr), CC_OK);
        World w;
        ASSERT_EQ(make_world(b.get(), device(), plain_def(), &w), CC_OK) << cc_last_error_message();
        std::vector<cc_contact> c = collide(w);
        ASSERT_GE(c.size(), 2u) << on_floor;
        const float cos2 = std::cos(2.0f * 3.14159265f / 180.0f);
        for (const auto& x : c) {
            cc_vec3 p = fixed_point(x, fixed);
            EXPECT_LE(p.z, 0.1f + voxel) << "nothing on the opening";
            EXPECT_NEAR(x.distance, -0.0005f, 0.5f * voxel);
            if (on_floor) {
                EXPECT_GT(std::fabs(x.normal.z), cos2);
                EXPECT_NEAR(p.z, 0.02f, voxel);
                EXPECT_LE(std::fabs(p.x), 0.04f + voxel);
            } else {
                EXPECT_GT(std::fabs(x.normal.x), cos2);
                EXPECT_NEAR(p.x, 0.05f, voxel);
                EXPECT_GE(p.z, 0.03f - voxel);
            }
            EXPECT_LE(std::fabs(p.y), 0.04f + voxel) << "nothing on the side walls";
        }
    }
}

TEST_P(SdfContacts, ATorusOnASlabRestsOnItsContactCircle)
{
    // A torus (R 0.1, r 0.03) lying 1 mm deep in a slab: its contacts lie on
    // the circle of radius R under it (within the 7.7 mm half width of the
    // overlap), along z, all the way round.
    Builder b = make_builder(0.0f);
    int torus = -1;
    ASSERT_EQ(scene_add_torus(b.get(), 0.1f, 0.03f, 96, 32, &torus), CC_OK);
    int slab = add_mesh_data(b.get(), tessellated_box_mesh({0.3f, 0.3f, 0.05f}, 4));
    float voxel = build_sdf(b.get(), torus, {1, 1, 1}, 128);
    build_sdf(b.get(), slab, {1, 1, 1}, 64);
    int fixed = -1;
    ASSERT_EQ(cc_builder_add_mesh(b.get(), CC_BODY_WORLD, slab, {1, 1, 1}, nullptr, &fixed), CC_OK);
    int body = add_body(b.get(), {0.0f, 0.0f, 0.05f + 0.03f - 0.001f});
    ASSERT_EQ(cc_builder_add_mesh(b.get(), body, torus, {1, 1, 1}, nullptr, nullptr), CC_OK);
    World w;
    ASSERT_EQ(make_world(b.get(), device(), plain_def(), &w), CC_OK) << cc_last_error_message();
    std::vector<cc_contact> c = collide(w);
    ASSERT_GE(c.size(), 8u);
    int sectors[8] = {};
    for (const auto& x : c) {
        cc_vec3 p = fixed_point(x, fixed);
        EXPECT_NEAR(std::sqrt(p.x * p.x + p.y * p.y), 0.1f, 0.008f);
        EXPECT_NEAR(p.z, 0.05f, 0.5f * voxel);
        EXPECT_GT(std::fabs(x.normal.z), std::cos(2.0f * 3.14159265f / 180.0f));
        EXPECT_GE(x.distance, -0.001f - 0.5f * voxel);
        EXPECT_LT(x.distance, 0.0f);
        double a = std::atan2(p.y, p.x) + 3.14159265358979;
        sectors[std::min(7, (int)(a / (2.0 * 3.14159265358979) * 8.0))]++;
    }
    for (int k = 0; k < 8; ++k) EXPECT_GE(sectors[k], 1) << "sector " << k;
    EXPECT_NEAR(min_distance(c), -0.001f, 0.5f * voxel);
}

TEST_P(SdfContacts, AHeightfieldPeakUnderAMeshWithAnSdfPushesItUp)
{
    // A flat 1 m heightfield with one peak 5 cm high under the middle of a
    // box mesh (0.2 m half width) whose bottom is 1 mm below the peak's
    // top: only the peak touches. Through the mesh's SDF the peak's sample
    // and the grid edges up to it make the contact; without an SDF the
    // mesh's vertices (all far above the ground) find nothing.
    for (int res : {0, 64}) {
        Builder b = make_builder(0.0f);
        const int n = 9;
        std::vector<float> heights(n * n, 0.0f);
        heights[(n / 2) * n + n / 2] = 1.0f;
        int hf = -1, hs = -1;
        ASSERT_EQ(cc_builder_add_heightfield_data(b.get(), n, n, heights.data(), &hf), CC_OK);
        ASSERT_EQ(cc_builder_add_heightfield(b.get(), CC_BODY_WORLD, hf, {0.5f, 0.5f, 0.05f}, nullptr, &hs), CC_OK);
        float voxel = 0.0f;
        int box = add_box_mesh(b.get(), {0.2f, 0.2f, 0.05f}, res, &voxel);
        int body = add_body(b.get(), {0.01f, -0.02f, 0.05f + 0.05f - 0.001f});
        ASSERT_EQ(cc_builder_add_mesh(b.get(), body, box, {1, 1, 1}, nullptr, nullptr), CC_OK);
        World w;
        ASSERT_EQ(make_world(b.get(), device(), plain_def(), &w), CC_OK) << cc_last_error_message();
        std::vector<cc_contact> c = collide(w);
        if (res == 0) {
            EXPECT_EQ(c.size(), 0u) << "the vertex route misses a peak under a face";
            continue;
        }
        ASSERT_GE(c.size(), 1u);
        for (const auto& x : c) {
            cc_vec3 p = fixed_point(x, hs);
            EXPECT_NEAR(p.x, 0.0f, voxel);
            EXPECT_NEAR(p.y, 0.0f, voxel);
            EXPECT_GT(std::fabs(x.normal.z), std::cos(2.0f * 3.14159265f / 180.0f));
        }
        EXPECT_NEAR(min_distance(c), -0.001f, 0.5f * voxel);
    }
}

TEST_P(SdfContacts, OverflowOfTheFeatureItemsIsReportedAndRefitsToTheSameContacts)
{
    // Too few work items for the features of two meshes through their
    // SDFs: reported with the count needed, nothing written past the
    // buffer; at that capacity the contacts are those of a roomy pipeline.
    Builder b = make_builder(0.01f);
    int big = add_mesh_data(b.get(), tessellated_box_mesh({0.5f, 0.5f, 0.5f}, 8));
    int small = add_mesh_data(b.get(), tessellated_box_mesh({0.2f, 0.15f, 0.1f}, 6));
    build_sdf(b.get(), big, {1, 1, 1}, 64);
    build_sdf(b.get(), small, {1, 1, 1}, 64);
    ASSERT_EQ(cc_builder_add_mesh(b.get(), CC_BODY_WORLD, big, {1, 1, 1}, nullptr, nullptr), CC_OK);
    int body = add_body(b.get(), {0.05f, -0.1f, 0.599f});
    ASSERT_EQ(cc_builder_add_mesh(b.get(), body, small, {1, 1, 1}, nullptr, nullptr), CC_OK);
    cc_pipeline_def d = plain_def();
    d.deterministic = 1;
    World roomy;
    ASSERT_EQ(make_world(b.get(), device(), d, &roomy), CC_OK) << cc_last_error_message();
    std::vector<cc_contact> want = collide(roomy);
    ASSERT_FALSE(want.empty());
    d.mesh_work_items_max = 4;
    World tight;
    ASSERT_EQ(make_world(b.get(), device(), d, &tight), CC_OK);
    collide(tight);
    cc_overflow o;
    ASSERT_EQ(cc_pipeline_get_overflow(tight.pipeline.get(), &o), CC_OK);
    EXPECT_TRUE(o.mesh_items_overflowed);
    EXPECT_EQ(o.mesh_items_capacity, 4);
    EXPECT_GT(o.mesh_items_needed, 4);
    d.mesh_work_items_max = o.mesh_items_needed;
    World fitted;
    ASSERT_EQ(make_world(b.get(), device(), d, &fitted), CC_OK);
    std::vector<cc_contact> got = collide(fitted);
    ASSERT_EQ(cc_pipeline_get_overflow(fitted.pipeline.get(), &o), CC_OK);
    EXPECT_FALSE(o.mesh_items_overflowed);
    ASSERT_EQ(got.size(), want.size());
    for (size_t i = 0; i < got.size(); ++i) EXPECT_EQ(std::memcmp(&got[i], &want[i], sizeof got[i]), 0) << i;
}

CC_INSTANTIATE_DEVICE_TEST(SdfContacts);

} // namespace
