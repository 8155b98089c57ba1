// Capsule against capsule and box: analytic cases (crossing, parallel with
// two points, face contacts clipped to the face, edges, penetration),
// rigid-motion invariance, swap symmetry, exact threshold filtering and
// randomized sweeps against brute-force segment distances.
#include "kernels/narrowphase/capsule.h"

#include "tests/support/narrowphase_util.h"

using namespace nptest;

namespace
{

const cc_quat kId = cc_q(0, 0, 0, 1);

// Capsule along world direction `dir` centred at c with half height hh.
cc_geom capsule(cc_vec3 c, cc_vec3 dir, float hh, float r = 0.1f)
{
    return make_geom(c, quat_z_to(cc_v3_normalize(dir)), cc_v3(r, hh, 0));
}
cc_geom box(cc_vec3 c, cc_quat q, cc_vec3 h) { return make_geom(c, q, h); }

cc_geom random_capsule(std::mt19937& rng, float spread)
{
    return make_geom(random_vec(rng, -spread, spread), random_quat(rng),
                     cc_v3(0.1f, uniform(rng, 0.0f, 1.0f), 0));
}

// Brute-force segment-segment distance: ternary search over A's parameter of
// the exact point-segment distance (convex in s).
double brute_segment_distance(const cc_geom& a, const cc_geom& b)
{
    dvec a0, a1, b0, b1;
    segment_ends(a, &a0, &a1);
    segment_ends(b, &b0, &b1);
    return ternary_min(
        [&](double s) { return point_segment_distance(a0 + (a1 - a0) * s, b0, b1); });
}

// Brute-force segment-box distance, the same way (dist to a convex set).
double brute_segment_box_distance(const cc_geom& a, const cc_geom& b)
{
    dvec a0, a1;
    segment_ends(a, &a0, &a1);
    return ternary_min([&](double s) { return point_box_distance(b, a0 + (a1 - a0) * s); });
}

// Sorts a two-point manifold by the x coordinate of its points (for checks
// against analytic values that do not depend on emission order).
void sort_by_x(cc_manifold* m)
{
    if (m->count == 2 && m->point[0].x > m->point[1].x) {
        std::swap(m->point[0], m->point[1]);
        std::swap(m->distance[0], m->distance[1]);
    }
}

// ------------------------------------------------------------- capsule-capsule

TEST(CapsuleCapsule, CrossingSegments)
{
    cc_geom a = capsule(cc_v3(0, 0, 0), cc_v3(1, 0, 0), 1.0f);
    cc_geom b = capsule(cc_v3(0.25f, 0.5f, 1), cc_v3(0, 1, 0), 1.0f);
    cc_manifold m = run(cc_collide_capsule_capsule, a, b, kInf);
    ASSERT_EQ(m.count, 1);
    EXPECT_NEAR(m.distance[0], 1.0f, kTolValue);
    EXPECT_VEC_NEAR(m.normal, cc_v3(0, 0, 1), kTolValue);
    EXPECT_VEC_NEAR(core_a(m, 0), cc_v3(0.25f, 0, 0), kTolValue);
    EXPECT_VEC_NEAR(core_b(m, 0), cc_v3(0.25f, 0, 1), kTolValue);
}

TEST(CapsuleCapsule, EndToSide)
{
    // B's lower end (0.5, 0, 0.3) hangs above A's segment along x.
    cc_geom a = capsule(cc_v3(0, 0, 0), cc_v3(1, 0, 0), 1.0f);
    cc_geom b = capsule(cc_v3(0.5f, 0, 1.3f), cc_v3(0, 0, 1), 1.0f);
    cc_manifold m = run(cc_collide_capsule_capsule, a, b, kInf);
    ASSERT_EQ(m.count, 1);
    EXPECT_NEAR(m.distance[0], 0.3f, kTolValue);
    EXPECT_VEC_NEAR(core_a(m, 0), cc_v3(0.5f, 0, 0), kTolValue);
    EXPECT_VEC_NEAR(core_b(m, 0), cc_v3(0.5f, 0, 0.3f), kTolValue);
}

TEST(CapsuleCapsule, ParallelOverlapGivesBothEnds)
{
    cc_geom a = capsule(cc_v3(0, 0, 0), cc_v3(1, 0, 0), 1.0f);
    cc_geom b = capsule(cc_v3(0.5f, 0, 0.4f), cc_v3(1, 0, 0), 1.0f);
    cc_manifold m = run(cc_collide_capsule_capsule, a, b, kInf);
    ASSERT_EQ(m.count, 2);
    sort_by_x(&m);
    EXPECT_VEC_NEAR(m.normal, cc_v3(0, 0, 1), kTolValue);
    for (int i = 0; i < 2; ++i)
        EXPECT_NEAR(m.distance[i], 0.4f, kTolValue);
    EXPECT_VEC_NEAR(core_a(m, 0), cc_v3(-0.5f, 0, 0), kTolValue);
    EXPECT_VEC_NEAR(core_a(m, 1), cc_v3(1, 0, 0), kTolValue);
    EXPECT_VEC_NEAR(core_b(m, 0), cc_v3(-0.5f, 0, 0.4f), kTolValue);
    EXPECT_VEC_NEAR(core_b(m, 1), cc_v3(1, 0, 0.4f), kTolValue);

    // Antiparallel directions and a shorter B inside A's span.
    cc_geom c = capsule(cc_v3(0.2f, 0.3f, 0), cc_v3(-1, 0, 0), 0.25f);
    m = run(cc_collide_capsule_capsule, a, c, kInf);
    ASSERT_EQ(m.count, 2);
    sort_by_x(&m);
    EXPECT_VEC_NEAR(m.normal, cc_v3(0, 1, 0), kTolValue);
    EXPECT_VEC_NEAR(core_a(m, 0), cc_v3(-0.05f, 0, 0), kTolValue);
    EXPECT_VEC_NEAR(core_a(m, 1), cc_v3(0.45f, 0, 0), kTolValue);
    EXPECT_VEC_NEAR(core_b(m, 0), cc_v3(-0.05f, 0.3f, 0), kTolValue);
    EXPECT_NEAR(m.distance[0], 0.3f, kTolValue);
    EXPECT_NEAR(m.distance[1], 0.3f, kTolValue);
}

TEST(CapsuleCapsule, ParallelWithoutOverlapIsOnePoint)
{
    cc_geom a = capsule(cc_v3(0, 0, 0), cc_v3(1, 0, 0), 1.0f);
    cc_geom b = capsule(cc_v3(3, 0, 0), cc_v3(1, 0, 0), 1.0f);
    cc_manifold m = run(cc_collide_capsule_capsule, a, b, kInf);
    ASSERT_EQ(m.count, 1);
    EXPECT_NEAR(m.distance[0], 1.0f, kTolValue);
    EXPECT_VEC_NEAR(m.normal, cc_v3(1, 0, 0), kTolValue);
    EXPECT_VEC_NEAR(core_a(m, 0), cc_v3(1, 0, 0), kTolValue);
    EXPECT_VEC_NEAR(core_b(m, 0), cc_v3(2, 0, 0), kTolValue);

    // Side by side but offset past the end: the ends are closest.
    cc_geom c = capsule(cc_v3(2.5f, 0.5f, 0), cc_v3(1, 0, 0), 1.0f);
    m = run(cc_collide_capsule_capsule, a, c, kInf);
    ASSERT_EQ(m.count, 1);
    EXPECT_NEAR(m.distance[0], std::sqrt(0.25f + 0.25f), kTolValue);
}

TEST(CapsuleCapsule, DegenerateNormalsAreUnitAndDeterministic)
{
    // Crossing through each other: d1 x d2.
    cc_geom a = capsule(cc_v3(0, 0, 0), cc_v3(1, 0, 0), 1.0f);
    cc_geom b = capsule(cc_v3(0, 0, 0), cc_v3(0, 1, 0), 1.0f);
    cc_manifold m = run(cc_collide_capsule_capsule, a, b, 0.0f);
    ASSERT_EQ(m.count, 1);
    EXPECT_NEAR(m.distance[0], 0.0f, kTolValue);
    EXPECT_VEC_NEAR(m.normal, cc_v3(0, 0, 1), kTolValue);
    cc_manifold swapped = run(cc_collide_capsule_capsule, b, a, 0.0f);
    ASSERT_EQ(swapped.count, 1);
    EXPECT_VEC_NEAR(swapped.normal, cc_v3(0, 0, -1), kTolValue);

    // Collinear and overlapping: a perpendicular of the axis, two points.
    cc_geom c = capsule(cc_v3(0.5f, 0, 0), cc_v3(1, 0, 0), 1.0f);
    m = run(cc_collide_capsule_capsule, a, c, 0.0f);
    ASSERT_EQ(m.count, 2);
    EXPECT_NEAR(cc_v3_length(m.normal), 1.0f, kTolValue);
    EXPECT_NEAR(m.normal.x, 0.0f, kTolValue);

    // Two zero-length capsules at the same place: +z.
    cc_geom p = make_geom(cc_v3(1, 1, 1), kId, cc_v3(0.1f, 0, 0));
    m = run(cc_collide_capsule_capsule, p, p, 0.0f);
    ASSERT_EQ(m.count, 1);
    EXPECT_VEC_NEAR(m.normal, cc_v3(0, 0, 1), 0.0f);
    EXPECT_EQ(m.distance[0], 0.0f);
}

TEST(CapsuleCapsule, FallbackNormalKeepsTheSideOfB)
{
    // Closer than the rounding tolerance: the normal is +-(d1 x d2), turned
    // toward B, whichever order the axes come in.
    for (float z : {1e-7f, -1e-7f}) {
        for (int order = 0; order < 2; ++order) {
            cc_vec3 da = order ? cc_v3(0, 1, 0) : cc_v3(1, 0, 0);
            cc_vec3 db = order ? cc_v3(1, 0, 0) : cc_v3(0, 1, 0);
            cc_geom a = capsule(cc_v3(0, 0, 0), da, 1.0f), b = capsule(cc_v3(0, 0, z), db, 1.0f);
            cc_manifold m = run(cc_collide_capsule_capsule, a, b, kInf);
            ASSERT_EQ(m.count, 1);
            EXPECT_VEC_NEAR(m.normal, cc_v3(0, 0, z > 0 ? 1.0f : -1.0f), kTolValue);
            EXPECT_NEAR(m.distance[0], std::fabs(z), kTolValue);
        }
    }
}

TEST(CapsuleCapsule, ZeroLengthSegmentsArePoints)
{
    cc_geom a = make_geom(cc_v3(0, 0, 0), kId, cc_v3(0.1f, 0, 0));
    cc_geom b = capsule(cc_v3(0, 2, 0.5f), cc_v3(0, 0, 1), 1.0f);
    cc_manifold m = run(cc_collide_capsule_capsule, a, b, kInf);
    ASSERT_EQ(m.count, 1);
    EXPECT_NEAR(m.distance[0], 2.0f, kTolValue);
    EXPECT_VEC_NEAR(core_b(m, 0), cc_v3(0, 2, 0), kTolValue);
}

TEST(CapsuleCapsule, SwapFlipsNormalKeepsDistances)
{
    std::mt19937 rng(41);
    for (int k = 0; k < 300; ++k) {
        cc_geom a = random_capsule(rng, 1.0f), b = random_capsule(rng, 1.0f);
        // The normal of nearly touching segments is ill-conditioned
        // (rounding / distance); compare where it is well defined.
        if (brute_segment_distance(a, b) < 0.05) continue;
        SCOPED_TRACE(k);
        expect_swapped(run(cc_collide_capsule_capsule, a, b, kInf),
                       run(cc_collide_capsule_capsule, b, a, kInf));
    }
    cc_geom a = capsule(cc_v3(0, 0, 0), cc_v3(1, 0, 0), 1.0f);
    cc_geom b = capsule(cc_v3(0.5f, 0, 0.4f), cc_v3(1, 0, 0), 1.0f);
    cc_manifold m1 = run(cc_collide_capsule_capsule, a, b, kInf),
                m2 = run(cc_collide_capsule_capsule, b, a, kInf);
    ASSERT_EQ(m1.count, 2);
    expect_swapped(m1, m2);
}

TEST(CapsuleCapsule, RigidMotionInvariance)
{
    std::mt19937 rng(42);
    expect_motion_invariant(
        cc_collide_capsule_capsule, capsule(cc_v3(0, 0, 0), cc_v3(1, 0.2f, 0.1f), 0.7f),
        capsule(cc_v3(0.3f, 0.5f, 0.6f), cc_v3(-0.3f, 1, 0.4f), 0.4f), kInf, rng);
    // The parallel two-point case survives the rounding of a rigid motion.
    expect_motion_invariant(cc_collide_capsule_capsule,
                            capsule(cc_v3(0, 0, 0), cc_v3(1, 0, 0), 1.0f),
                            capsule(cc_v3(0.5f, 0, 0.4f), cc_v3(1, 0, 0), 1.0f), kInf, rng);
}

TEST(CapsuleCapsule, ThresholdIsExact)
{
    cc_geom a = capsule(cc_v3(0, 0, 0), cc_v3(1, 0.2f, 0.1f), 0.7f);
    cc_geom b = capsule(cc_v3(0.3f, 0.5f, 0.6f), cc_v3(-0.3f, 1, 0.4f), 0.4f);
    float d = run(cc_collide_capsule_capsule, a, b, kInf).distance[0];
    expect_threshold_exact(cc_collide_capsule_capsule, a, b, d, 1, 0);
    // Parallel pair: both points share one distance, kept and dropped
    // together.
    cc_geom c = capsule(cc_v3(0.5f, 0, 0.4f), cc_v3(1, 0, 0), 1.0f);
    cc_geom e = capsule(cc_v3(0, 0, 0), cc_v3(1, 0, 0), 1.0f);
    cc_manifold m = run(cc_collide_capsule_capsule, e, c, kInf);
    ASSERT_EQ(m.count, 2);
    expect_threshold_exact(cc_collide_capsule_capsule, e, c, std::max(m.distance[0], m.distance[1]),
                           2, m.distance[0] == m.distance[1] ? 0 : 1);
}

TEST(CapsuleCapsule, RandomSweepAgainstBruteForce)
{
    std::mt19937 rng(43);
    int failures = 0, contacts = 0;
    std::string first;
    for (int k = 0; k < 10000; ++k) {
        cc_geom a = random_capsule(rng, 1.0f), b = random_capsule(rng, 1.0f);
        float thr = k % 3 == 0 ? kInf : uniform(rng, 0.0f, 1.0f);
        cc_manifold m = run(cc_collide_capsule_capsule, a, b, thr);
        std::string err = check_manifold(
            m, thr, 2, [&](cc_vec3 x) { return off_segment(a, x); },
            [&](cc_vec3 x) { return off_segment(b, x); });
        double truth = brute_segment_distance(a, b);
        if (err.empty() && truth <= thr - 1e-4 && m.count == 0) err = "missed contact";
        if (err.empty() && m.count > 0 && truth <= thr - 1e-4 &&
            std::fabs(min_distance(m) - truth) > 1e-4)
            err = "min distance " + std::to_string(min_distance(m)) + " vs brute force " +
                  std::to_string(truth);
        // No point may be closer than the true distance.
        if (err.empty() && m.count > 0 && min_distance(m) < truth - 1e-4) err = "too deep";
        contacts += m.count;
        if (!err.empty() && failures++ == 0) first = err + " at pose " + std::to_string(k);
    }
    EXPECT_EQ(failures, 0) << first;
    EXPECT_GT(contacts, 3000);
}

// Random parallel pairs: two points whenever the projections overlap by more
// than a hair, each pair of core points at the line distance.
TEST(CapsuleCapsule, RandomParallelSweep)
{
    std::mt19937 rng(44);
    int two = 0, failures = 0;
    std::string first;
    for (int k = 0; k < 10000; ++k) {
        cc_quat q = random_quat(rng);
        cc_vec3 axis = cc_q_rotate(q, cc_v3(0, 0, 1));
        float hha = uniform(rng, 0.1f, 1.0f), hhb = uniform(rng, 0.1f, 1.0f),
              along = uniform(rng, -2.0f, 2.0f);
        cc_vec3 off = cc_v3_scale(cc_v3_any_perpendicular(axis), uniform(rng, 0.05f, 0.5f));
        cc_geom a = make_geom(random_vec(rng, -1, 1), q, cc_v3(0.1f, hha, 0));
        cc_geom b = make_geom(cc_v3_add(cc_v3_madd(a.xf.p, axis, along), off),
                              k % 2 ? q : cc_q_mul(q, cc_q(1, 0, 0, 0)), cc_v3(0.1f, hhb, 0));
        // q times a half turn about local x: antiparallel.
        cc_manifold m = run(cc_collide_capsule_capsule, a, b, kInf);
        std::string err = check_manifold(
            m, kInf, 2, [&](cc_vec3 x) { return off_segment(a, x); },
            [&](cc_vec3 x) { return off_segment(b, x); });
        float overlap = std::min(hha, along + hhb) - std::max(-hha, along - hhb);
        if (err.empty() && overlap > 1e-3f && m.count != 2) err = "expected two points";
        if (err.empty() && overlap < -1e-3f && m.count != 1) err = "expected one point";
        if (err.empty() && m.count == 2)
            for (int i = 0; i < 2; ++i)
                if (std::fabs(m.distance[i] - cc_v3_length(off)) > 1e-4f) err = "distance";
        two += m.count == 2;
        if (!err.empty() && failures++ == 0) first = err + " at pose " + std::to_string(k);
    }
    EXPECT_EQ(failures, 0) << first;
    EXPECT_GT(two, 3000);
}

TEST(CapsuleCapsule, NaNInputIsSafe)
{
    expect_nan_safe(cc_collide_capsule_capsule, capsule(cc_v3(0, 0, 0), cc_v3(1, 0, 0), 1.0f),
                    capsule(cc_v3(0, 0, 1), cc_v3(0, 1, 0), 1.0f), 2);
}

// ------------------------------------------------------------------ capsule-box

TEST(CapsuleBox, LyingOnFaceGivesTwoPoints)
{
    cc_geom b = box(cc_v3(0, 0, 0), kId, cc_v3(1, 1, 0.5f));
    cc_geom a = capsule(cc_v3(0.2f, 0.3f, 0.8f), cc_v3(1, 0, 0), 0.6f);
    cc_manifold m = run(cc_collide_capsule_box, a, b, kInf);
    ASSERT_EQ(m.count, 2);
    sort_by_x(&m);
    EXPECT_VEC_NEAR(m.normal, cc_v3(0, 0, -1), kTolValue);
    for (int i = 0; i < 2; ++i)
        EXPECT_NEAR(m.distance[i], 0.3f, kTolValue);
    EXPECT_VEC_NEAR(core_a(m, 0), cc_v3(-0.4f, 0.3f, 0.8f), kTolValue);
    EXPECT_VEC_NEAR(core_a(m, 1), cc_v3(0.8f, 0.3f, 0.8f), kTolValue);
    EXPECT_VEC_NEAR(core_b(m, 0), cc_v3(-0.4f, 0.3f, 0.5f), kTolValue);
    EXPECT_VEC_NEAR(core_b(m, 1), cc_v3(0.8f, 0.3f, 0.5f), kTolValue);
}

TEST(CapsuleBox, OverhangingFaceIsClippedToTheFace)
{
    cc_geom b = box(cc_v3(0, 0, 0), kId, cc_v3(1, 1, 0.5f));
    // Segment x in [-0.5, 1.5] at height 0.7: clipped to x in [-0.5, 1].
    cc_manifold m = run(cc_collide_capsule_box,
                        capsule(cc_v3(0.5f, -0.2f, 0.7f), cc_v3(1, 0, 0), 1.0f), b, kInf);
    ASSERT_EQ(m.count, 2);
    sort_by_x(&m);
    EXPECT_VEC_NEAR(core_a(m, 0), cc_v3(-0.5f, -0.2f, 0.7f), kTolValue);
    EXPECT_VEC_NEAR(core_a(m, 1), cc_v3(1, -0.2f, 0.7f), kTolValue);
    EXPECT_VEC_NEAR(core_b(m, 1), cc_v3(1, -0.2f, 0.5f), kTolValue);
    EXPECT_NEAR(m.distance[0], 0.2f, kTolValue);
    EXPECT_NEAR(m.distance[1], 0.2f, kTolValue);

    // Tilted on the face: each end keeps its own height.
    cc_vec3 dir = cc_v3_normalize(cc_v3(1, 0, 0.1f));
    m = run(cc_collide_capsule_box, capsule(cc_v3(0, 0, 0.7f), dir, 0.5f), b, kInf);
    ASSERT_EQ(m.count, 2);
    sort_by_x(&m);
    EXPECT_NEAR(m.distance[0], 0.2f - 0.5f * dir.z, kTolValue);
    EXPECT_NEAR(m.distance[1], 0.2f + 0.5f * dir.z, kTolValue);
    EXPECT_VEC_NEAR(m.normal, cc_v3(0, 0, -1), kTolValue);
}

TEST(CapsuleBox, OverhangingEdgeAndTiltedStillGivesTwoPoints)
{
    // Lower end past the edge x = 1: the closest box point is on the edge, a
    // little off the face normal; the contact still spans the segment.
    cc_geom b = box(cc_v3(0, 0, 0), kId, cc_v3(1, 1, 0.5f));
    cc_geom a = capsule(cc_v3(1.0f, 0.2f, 0.6f), cc_v3(1, 0, -0.05f), 0.3f);
    cc_manifold m = run(cc_collide_capsule_box, a, b, kInf);
    ASSERT_EQ(m.count, 2);
    EXPECT_GT(-m.normal.z, 0.99f);
    EXPECT_NEAR(min_distance(m), brute_segment_box_distance(a, b), kTolValue);
    for (int i = 0; i < 2; ++i) {
        EXPECT_LE(off_segment(a, core_a(m, i)), kTolCore);
        EXPECT_LE(off_box(b, core_b(m, i)), kTolCore);
        EXPECT_NEAR(core_b(m, i).z, 0.5f, kTolValue);
    }
    // The far end (x = 0.7) is a genuine pair along the normal.
    int far = m.point[0].x < m.point[1].x ? 0 : 1;
    EXPECT_NEAR(core_a(m, far).x, 1.0f - 0.3f / std::sqrt(1.0025f), kTolValue);
}

TEST(CapsuleBox, EndOnAboveFace)
{
    cc_geom b = box(cc_v3(0, 0, 0), kId, cc_v3(1, 1, 0.5f));
    cc_geom a = capsule(cc_v3(0.2f, 0.1f, 1.3f), cc_v3(0, 0, 1), 0.5f); // ends at z 0.8 and 1.8
    cc_manifold m = run(cc_collide_capsule_box, a, b, 0.5f);
    ASSERT_EQ(m.count, 1);
    EXPECT_NEAR(m.distance[0], 0.3f, kTolValue);
    EXPECT_VEC_NEAR(m.normal, cc_v3(0, 0, -1), kTolValue);
    EXPECT_VEC_NEAR(core_a(m, 0), cc_v3(0.2f, 0.1f, 0.8f), kTolValue);
    EXPECT_VEC_NEAR(core_b(m, 0), cc_v3(0.2f, 0.1f, 0.5f), kTolValue);
    // With an unbounded threshold both ends are within it (as for a plane).
    m = run(cc_collide_capsule_box, a, b, kInf);
    ASSERT_EQ(m.count, 2);
    EXPECT_NEAR(std::max(m.distance[0], m.distance[1]), 1.3f, kTolValue);
}

TEST(CapsuleBox, EdgeAndVertexGiveOnePoint)
{
    cc_geom b = box(cc_v3(0, 0, 0), kId, cc_v3(1, 1, 0.5f));
    // Parallel to the edge y = 1, z = 0.5, off diagonally.
    cc_manifold m = run(cc_collide_capsule_box,
                        capsule(cc_v3(0.1f, 1.5f, 1.0f), cc_v3(1, 0, 0), 0.5f), b, kInf);
    ASSERT_EQ(m.count, 1);
    EXPECT_NEAR(m.distance[0], std::sqrt(0.5f), kTolValue);
    EXPECT_VEC_NEAR(m.normal, cc_v3(0, -std::sqrt(0.5f), -std::sqrt(0.5f)), kTolValue);
    EXPECT_NEAR(core_b(m, 0).y, 1.0f, kTolValue);
    EXPECT_NEAR(core_b(m, 0).z, 0.5f, kTolValue);
    // Crossing over the same edge perpendicular to it, never above a face.
    m = run(cc_collide_capsule_box, capsule(cc_v3(0.2f, 1.5f, 1.0f), cc_v3(0, 1, -1), 2.0f), b,
            kInf);
    ASSERT_EQ(m.count, 1);
    EXPECT_NEAR(m.distance[0], std::sqrt(0.5f), kTolValue);
    EXPECT_VEC_NEAR(core_a(m, 0), cc_v3(0.2f, 1.5f, 1.0f), kTolValue);
    EXPECT_VEC_NEAR(core_b(m, 0), cc_v3(0.2f, 1, 0.5f), kTolValue);
    // End of the segment nearest a vertex.
    m = run(cc_collide_capsule_box, capsule(cc_v3(2, 2, 2.5f), cc_v3(1, 1, 1), 0.5f), b, kInf);
    ASSERT_EQ(m.count, 1);
    cc_vec3 end = cc_v3_sub(cc_v3(2, 2, 2.5f), cc_v3_scale(cc_v3_normalize(cc_v3(1, 1, 1)), 0.5f));
    EXPECT_VEC_NEAR(core_a(m, 0), end, kTolValue);
    EXPECT_VEC_NEAR(core_b(m, 0), cc_v3(1, 1, 0.5f), kTolValue);
    EXPECT_NEAR(m.distance[0], dist3(end, cc_v3(1, 1, 0.5f)), kTolValue);
}

TEST(CapsuleBox, PenetratingUsesLeastPenetrationFace)
{
    cc_geom b = box(cc_v3(0, 0, 0), kId, cc_v3(1, 1, 0.5f));
    // Through the box along x at height 0.3: leaves through +z (0.2).
    cc_manifold m =
        run(cc_collide_capsule_box, capsule(cc_v3(0, 0, 0.3f), cc_v3(1, 0, 0), 2.0f), b, 0.0f);
    ASSERT_EQ(m.count, 2);
    sort_by_x(&m);
    EXPECT_VEC_NEAR(m.normal, cc_v3(0, 0, -1), kTolValue);
    EXPECT_NEAR(m.distance[0], -0.2f, kTolValue);
    EXPECT_NEAR(m.distance[1], -0.2f, kTolValue);
    EXPECT_VEC_NEAR(core_a(m, 0), cc_v3(-1, 0, 0.3f), kTolValue);
    EXPECT_VEC_NEAR(core_b(m, 1), cc_v3(1, 0, 0.5f), kTolValue);

    // Lying flat, sunk 0.05 into the top face.
    m = run(cc_collide_capsule_box, capsule(cc_v3(0.1f, 0.2f, 0.45f), cc_v3(0, 1, 0), 0.4f), b,
            kInf);
    ASSERT_EQ(m.count, 2);
    for (int i = 0; i < 2; ++i)
        EXPECT_NEAR(m.distance[i], -0.05f, kTolValue);
    EXPECT_VEC_NEAR(m.normal, cc_v3(0, 0, -1), kTolValue);

    // Short vertical segment near the -y side: leaves through -y.
    m = run(cc_collide_capsule_box, capsule(cc_v3(0.2f, -0.9f, 0), cc_v3(0, 0, 1), 0.1f), b, 0.0f);
    ASSERT_EQ(m.count, 2);
    EXPECT_VEC_NEAR(m.normal, cc_v3(0, 1, 0), kTolValue);
    for (int i = 0; i < 2; ++i)
        EXPECT_NEAR(m.distance[i], -0.1f, kTolValue);

    // Long vertical segment through the box, off centre in x: pushing along
    // its own axis would take 2.5, through +x only 0.7.
    m = run(cc_collide_capsule_box, capsule(cc_v3(0.3f, 0, 0), cc_v3(0, 0, 1), 2.0f), b, 0.0f);
    ASSERT_EQ(m.count, 2);
    EXPECT_VEC_NEAR(m.normal, cc_v3(-1, 0, 0), kTolValue);
    for (int i = 0; i < 2; ++i) {
        EXPECT_NEAR(m.distance[i], -0.7f, kTolValue);
        EXPECT_NEAR(core_b(m, i).x, 1.0f, kTolValue);
        EXPECT_NEAR(std::fabs(core_b(m, i).z), 0.5f, kTolValue);
    }

    // A zero-length capsule at the box centre behaves like a sphere centre.
    m = run(cc_collide_capsule_box, make_geom(cc_v3(0, 0, 0.1f), kId, cc_v3(0.1f, 0, 0)), b, 0.0f);
    ASSERT_EQ(m.count, 1);
    EXPECT_NEAR(m.distance[0], -0.4f, kTolValue);
    EXPECT_VEC_NEAR(m.normal, cc_v3(0, 0, -1), kTolValue);
}

TEST(CapsuleBox, RigidMotionInvariance)
{
    std::mt19937 rng(51);
    cc_geom b =
        box(cc_v3(0.1f, 0, 0), quat_axis_angle(cc_v3(1, 2, 3), 0.4f), cc_v3(0.6f, 0.5f, 0.3f));
    expect_motion_invariant(cc_collide_capsule_box,
                            capsule(cc_v3(1.2f, 0.5f, 0.7f), cc_v3(0.2f, 1, 0.3f), 0.5f), b, kInf,
                            rng);
    // Face contact with two points, and a penetrating one.
    cc_geom flat = box(cc_v3(0, 0, 0), kId, cc_v3(1, 1, 0.5f));
    expect_motion_invariant(cc_collide_capsule_box,
                            capsule(cc_v3(0.2f, 0.3f, 0.8f), cc_v3(1, 0.1f, 0), 0.6f), flat, kInf,
                            rng);
    expect_motion_invariant(cc_collide_capsule_box,
                            capsule(cc_v3(0, 0.1f, 0.3f), cc_v3(1, 0.2f, 0), 2.0f), flat, kInf,
                            rng);
}

TEST(CapsuleBox, ThresholdIsExact)
{
    cc_geom b = box(cc_v3(0, 0, 0), kId, cc_v3(1, 1, 0.5f));
    cc_geom a = capsule(cc_v3(0, 0, 0.7f), cc_v3_normalize(cc_v3(1, 0, 0.1f)), 0.5f);
    cc_manifold m = run(cc_collide_capsule_box, a, b, kInf);
    ASSERT_EQ(m.count, 2);
    float lo = std::min(m.distance[0], m.distance[1]), hi = std::max(m.distance[0], m.distance[1]);
    expect_threshold_exact(cc_collide_capsule_box, a, b, hi, 2, 1);
    expect_threshold_exact(cc_collide_capsule_box, a, b, lo, 1, 0);
    cc_geom e = capsule(cc_v3(0.1f, 1.5f, 1.0f), cc_v3(1, 0, 0), 0.5f);
    float d = run(cc_collide_capsule_box, e, b, kInf).distance[0];
    expect_threshold_exact(cc_collide_capsule_box, e, b, d, 1, 0);
}

TEST(CapsuleBox, RandomSweepAgainstBruteForce)
{
    std::mt19937 rng(52);
    int failures = 0, contacts = 0, two = 0, crossing = 0;
    std::string first;
    for (int k = 0; k < 10000; ++k) {
        cc_geom a = random_capsule(rng, 1.5f);
        cc_geom b =
            box(random_vec(rng, -0.3f, 0.3f), random_quat(rng), random_vec(rng, 0.1f, 1.0f));
        float thr = k % 3 == 0 ? kInf : uniform(rng, 0.0f, 1.0f);
        cc_manifold m = run(cc_collide_capsule_box, a, b, thr);
        std::string err = check_manifold(
            m, thr, 2, [&](cc_vec3 x) { return off_segment(a, x); },
            [&](cc_vec3 x) { return off_box(b, x); });
        double truth = brute_segment_box_distance(a, b);
        if (err.empty() && truth <= thr - 1e-4 && m.count == 0) err = "missed contact";
        if (err.empty() && m.count > 0 && truth > 1e-4 && truth <= thr - 1e-4 &&
            std::fabs(min_distance(m) - truth) > 1e-4)
            err = "min distance " + std::to_string(min_distance(m)) + " vs brute force " +
                  std::to_string(truth);
        if (err.empty() && m.count > 0 && truth > 1e-4 && min_distance(m) < truth - 1e-4)
            err = "too deep";
        // Crossing segments: some point reports overlap.
        if (err.empty() && truth == 0.0 && m.count > 0 && min_distance(m) > 1e-4f)
            err = "crossing but separated";
        if (err.empty() && truth == 0.0 && thr >= 0.0f && m.count == 0)
            err = "crossing but no contact";
        // Never deeper than the least travel along a box face normal that
        // takes the whole segment out: h_i + |e_i| - |c_i|.
        if (err.empty() && truth == 0.0 && m.count > 0) {
            dvec a0, a1;
            segment_ends(a, &a0, &a1);
            dvec c = to_local(b, (a0 + a1) * 0.5), e = to_local(b, a1) - c;
            double sat = std::min({b.size.x + std::fabs(e.x) - std::fabs(c.x),
                                   b.size.y + std::fabs(e.y) - std::fabs(c.y),
                                   b.size.z + std::fabs(e.z) - std::fabs(c.z)});
            if (min_distance(m) < -sat - 1e-4) err = "deeper than the least face penetration";
        }
        // Every point is a genuine pair: the box point is on the surface.
        for (int i = 0; err.empty() && i < m.count; ++i) {
            dvec l = to_local(b, dv(core_b(m, i)));
            double face = std::max(
                {std::fabs(l.x) - b.size.x, std::fabs(l.y) - b.size.y, std::fabs(l.z) - b.size.z});
            if (std::fabs(face) > 1e-4) err = "box point not on the surface";
        }
        contacts += m.count;
        two += m.count == 2;
        crossing += truth == 0.0;
        if (!err.empty() && failures++ == 0) first = err + " at pose " + std::to_string(k);
    }
    EXPECT_EQ(failures, 0) << first;
    EXPECT_GT(contacts, 3000);
    EXPECT_GT(two, 100);
    EXPECT_GT(crossing, 500);
}

// Capsules lying almost flat on random faces: always two points with the
// box point on the face and distances equal to the heights of the ends.
TEST(CapsuleBox, RandomLyingOnFaceSweep)
{
    std::mt19937 rng(53);
    int failures = 0;
    std::string first;
    for (int k = 0; k < 10000; ++k) {
        cc_vec3 h = random_vec(rng, 0.3f, 1.0f);
        cc_geom b = box(random_vec(rng, -1, 1), random_quat(rng), h);
        // Entirely over the top face, at most 0.02 into it: the top face is
        // also the least-penetration face then (sides are >= 0.08 away).
        float height = uniform(rng, -0.02f, 0.3f);
        float ang = uniform(rng, 0.0f, 6.2831853f), hh = uniform(rng, 0.08f, 0.25f);
        cc_vec3 local_dir = cc_v3(std::cos(ang), std::sin(ang), uniform(rng, -0.05f, 0.05f));
        cc_vec3 local_c = cc_v3(uniform(rng, -1.0f, 1.0f) * (h.x - hh),
                                uniform(rng, -1.0f, 1.0f) * (h.y - hh), h.z + height);
        cc_vec3 dir = cc_tf_vector(b.xf, cc_v3_normalize(local_dir));
        cc_geom a = make_geom(cc_tf_point(b.xf, local_c), quat_z_to(dir), cc_v3(0.1f, hh, 0));
        cc_manifold m = run(cc_collide_capsule_box, a, b, kInf);
        std::string err = check_manifold(
            m, kInf, 2, [&](cc_vec3 x) { return off_segment(a, x); },
            [&](cc_vec3 x) { return off_box(b, x); });
        if (err.empty() && m.count != 2)
            err = "expected two points, got " + std::to_string(m.count);
        cc_vec3 up = cc_tf_vector(b.xf, cc_v3(0, 0, 1));
        if (err.empty() && cc_v3_dot(m.normal, up) > -1 + 1e-5f)
            err = "normal is not the face normal";
        for (int i = 0; err.empty() && i < m.count; ++i) {
            dvec l = to_local(b, dv(core_b(m, i)));
            if (std::fabs(l.z - h.z) > 1e-4) err = "box point not on the top face";
            dvec la = to_local(b, dv(core_a(m, i)));
            if (std::fabs(m.distance[i] - (la.z - h.z)) > 1e-4)
                err = "distance is not the end height";
        }
        if (!err.empty() && failures++ == 0) first = err + " at pose " + std::to_string(k);
    }
    EXPECT_EQ(failures, 0) << first;
}

TEST(CapsuleBox, NaNInputIsSafe)
{
    expect_nan_safe(cc_collide_capsule_box, capsule(cc_v3(0, 0, 1), cc_v3(1, 0, 0), 1.0f),
                    box(cc_v3(0, 0, 0), kId, cc_v3(1, 1, 0.5f)), 2);
}

} // namespace
