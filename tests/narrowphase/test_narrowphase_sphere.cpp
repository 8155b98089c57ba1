// Sphere against sphere, capsule and box: analytic cases, rigid-motion
// invariance, swap symmetry, exact threshold filtering, and randomized sweeps
// against double-precision references.
#include "kernels/narrowphase/sphere.h"

#include "tests/support/narrowphase_util.h"

using namespace nptest;

namespace
{

const cc_quat kId = cc_q(0, 0, 0, 1);

cc_geom sphere(cc_vec3 p, float r = 0.5f) { return make_geom(p, kId, cc_v3(r, 0, 0)); }

// ---------------------------------------------------------------- sphere-sphere

TEST(SphereSphere, AnalyticDistanceNormalPoint)
{
    cc_manifold m =
        run(cc_collide_sphere_sphere, sphere(cc_v3(1, 1, 1)), sphere(cc_v3(4, 5, 1)), kInf);
    ASSERT_EQ(m.count, 1);
    EXPECT_NEAR(m.distance[0], 5.0f, kTolValue);
    EXPECT_VEC_NEAR(m.normal, cc_v3(0.6f, 0.8f, 0), kTolValue);
    EXPECT_VEC_NEAR(m.point[0], cc_v3(2.5f, 3, 1), kTolValue);
    EXPECT_VEC_NEAR(core_a(m, 0), cc_v3(1, 1, 1), kTolValue);
    EXPECT_VEC_NEAR(core_b(m, 0), cc_v3(4, 5, 1), kTolValue);
}

TEST(SphereSphere, RadiiAreNotUsed)
{
    cc_manifold m1 = run(cc_collide_sphere_sphere, sphere(cc_v3(0, 0, 0), 0.1f),
                         sphere(cc_v3(0, 2, 0), 0.2f), kInf);
    cc_manifold m2 = run(cc_collide_sphere_sphere, sphere(cc_v3(0, 0, 0), 3.0f),
                         sphere(cc_v3(0, 2, 0), 4.0f), kInf);
    ASSERT_EQ(m1.count, 1);
    ASSERT_EQ(m2.count, 1);
    EXPECT_EQ(m1.distance[0], 2.0f);
    EXPECT_EQ(m2.distance[0], 2.0f);
}

TEST(SphereSphere, CoincidentCentresFallBackToPlusZ)
{
    cc_manifold m =
        run(cc_collide_sphere_sphere, sphere(cc_v3(1, 2, 3)), sphere(cc_v3(1, 2, 3)), 0.0f);
    ASSERT_EQ(m.count, 1);
    EXPECT_EQ(m.distance[0], 0.0f);
    EXPECT_VEC_NEAR(m.normal, cc_v3(0, 0, 1), 0.0f);
}

TEST(SphereSphere, SwapFlipsNormalKeepsDistance)
{
    std::mt19937 rng(11);
    for (int k = 0; k < 200; ++k) {
        cc_geom a = sphere(random_vec(rng, -2, 2)), b = sphere(random_vec(rng, -2, 2));
        cc_manifold m1 = run(cc_collide_sphere_sphere, a, b, kInf);
        cc_manifold m2 = run(cc_collide_sphere_sphere, b, a, kInf);
        ASSERT_EQ(m1.count, 1);
        expect_swapped(m1, m2);
    }
}

TEST(SphereSphere, RigidMotionInvariance)
{
    std::mt19937 rng(12);
    expect_motion_invariant(cc_collide_sphere_sphere, sphere(cc_v3(0.2f, -0.3f, 0.1f)),
                            sphere(cc_v3(0.9f, 0.4f, -0.5f)), kInf, rng);
}

TEST(SphereSphere, ThresholdIsExact)
{
    cc_geom a = sphere(cc_v3(0, 0, 0)), b = sphere(cc_v3(0.3f, 0.4f, 0));
    float d = run(cc_collide_sphere_sphere, a, b, kInf).distance[0];
    expect_threshold_exact(cc_collide_sphere_sphere, a, b, d, 1, 0);
}

TEST(SphereSphere, RandomSweep)
{
    std::mt19937 rng(13);
    int failures = 0, contacts = 0;
    std::string first;
    for (int k = 0; k < 10000; ++k) {
        cc_geom a = sphere(random_vec(rng, -1, 1)), b = sphere(random_vec(rng, -1, 1));
        float thr = k % 3 == 0 ? kInf : uniform(rng, 0.0f, 2.0f);
        cc_manifold m = run(cc_collide_sphere_sphere, a, b, thr);
        std::string err = check_manifold(
            m, thr, 1, [&](cc_vec3 x) { return off_point(a, x); },
            [&](cc_vec3 x) { return off_point(b, x); });
        double truth = norm(dv(b.xf.p) - dv(a.xf.p));
        if (err.empty() && (truth <= thr - 1e-5) != (m.count == 1))
            err = "count disagrees with threshold";
        if (err.empty() && m.count == 1 && std::fabs(m.distance[0] - truth) > 1e-5)
            err = "distance";
        contacts += m.count;
        if (!err.empty() && failures++ == 0) first = err;
    }
    EXPECT_EQ(failures, 0) << first;
    EXPECT_GT(contacts, 3000);
}

TEST(SphereSphere, NaNInputIsSafe)
{
    expect_nan_safe(cc_collide_sphere_sphere, sphere(cc_v3(0, 0, 0)), sphere(cc_v3(1, 0, 0)), 1);
}

// --------------------------------------------------------------- sphere-capsule

// Capsule along world direction `dir` centred at c with half height hh.
cc_geom capsule(cc_vec3 c, cc_vec3 dir, float hh, float r = 0.2f)
{
    return make_geom(c, quat_z_to(cc_v3_normalize(dir)), cc_v3(r, hh, 0));
}

TEST(SphereCapsule, BesideTheSegment)
{
    cc_manifold m = run(cc_collide_sphere_capsule, sphere(cc_v3(2, 0, 0.5f)),
                        capsule(cc_v3(0, 0, 0), cc_v3(0, 0, 1), 1.0f), kInf);
    ASSERT_EQ(m.count, 1);
    EXPECT_NEAR(m.distance[0], 2.0f, kTolValue);
    EXPECT_VEC_NEAR(m.normal, cc_v3(-1, 0, 0), kTolValue);
    EXPECT_VEC_NEAR(core_a(m, 0), cc_v3(2, 0, 0.5f), kTolValue);
    EXPECT_VEC_NEAR(core_b(m, 0), cc_v3(0, 0, 0.5f), kTolValue);
}

TEST(SphereCapsule, BeyondAnEnd)
{
    // Capsule along x from (-1,1,0) to (1,1,0); sphere past the +x end.
    cc_manifold m = run(cc_collide_sphere_capsule, sphere(cc_v3(4, 5, 0)),
                        capsule(cc_v3(0, 1, 0), cc_v3(1, 0, 0), 1.0f), kInf);
    ASSERT_EQ(m.count, 1);
    EXPECT_NEAR(m.distance[0], 5.0f, kTolValue);
    EXPECT_VEC_NEAR(m.normal, cc_v3(-0.6f, -0.8f, 0), kTolValue);
    EXPECT_VEC_NEAR(core_b(m, 0), cc_v3(1, 1, 0), kTolValue);
}

TEST(SphereCapsule, CentreOnSegmentUsesPerpendicularFallback)
{
    // Exactly on the axis: the fallback is the capsule's local x axis.
    cc_geom cap = make_geom(cc_v3(1, 2, 3), kId, cc_v3(0.2f, 1.0f, 0));
    cc_manifold m = run(cc_collide_sphere_capsule, sphere(cc_v3(1, 2, 3.25f)), cap, 0.0f);
    ASSERT_EQ(m.count, 1);
    EXPECT_EQ(m.distance[0], 0.0f);
    EXPECT_VEC_NEAR(m.normal, cc_v3(1, 0, 0), 0.0f);
    EXPECT_VEC_NEAR(m.point[0], cc_v3(1, 2, 3.25f), 0.0f);
    // Off the axis by less than the rounding tolerance: the fallback axis
    // turned toward the segment.
    for (float dx : {1e-7f, -1e-7f}) {
        m = run(cc_collide_sphere_capsule, sphere(cc_v3(1 + dx, 2, 3.25f)), cap, kInf);
        ASSERT_EQ(m.count, 1);
        EXPECT_VEC_NEAR(m.normal, cc_v3(dx > 0 ? -1.0f : 1.0f, 0, 0), 0.0f);
        EXPECT_NEAR(m.distance[0], std::fabs((1 + dx) - 1), 1e-9f); // one ulp of 1
    }
    // On a tilted segment, up to rounding: still a unit normal
    // perpendicular to the segment, and a distance of zero.
    std::mt19937 rng(23);
    for (int k = 0; k < 100; ++k) {
        cc_geom tilted = make_geom(random_vec(rng, -2, 2), random_quat(rng), cc_v3(0.2f, 1.0f, 0));
        dvec p0, p1;
        segment_ends(tilted, &p0, &p1);
        dvec on = p0 + (p1 - p0) * uniform(rng, 0.05f, 0.95f);
        cc_vec3 axis = cc_q_rotate(tilted.xf.q, cc_v3(0, 0, 1));
        m = run(cc_collide_sphere_capsule, sphere(cc_v3((float)on.x, (float)on.y, (float)on.z)),
                tilted, 1e-5f);
        ASSERT_EQ(m.count, 1);
        EXPECT_NEAR(m.distance[0], 0.0f, kTolValue);
        EXPECT_NEAR(cc_v3_length(m.normal), 1.0f, kTolValue);
        EXPECT_NEAR(cc_v3_dot(m.normal, axis), 0.0f, kTolValue);
    }
}

TEST(SphereCapsule, ZeroLengthCapsuleIsAPoint)
{
    cc_manifold m = run(cc_collide_sphere_capsule, sphere(cc_v3(0, 0, 0)),
                        capsule(cc_v3(0, 3, 4), cc_v3(0, 0, 1), 0.0f), kInf);
    ASSERT_EQ(m.count, 1);
    EXPECT_NEAR(m.distance[0], 5.0f, kTolValue);
    EXPECT_VEC_NEAR(m.normal, cc_v3(0, 0.6f, 0.8f), kTolValue);
}

TEST(SphereCapsule, RigidMotionInvariance)
{
    std::mt19937 rng(21);
    expect_motion_invariant(cc_collide_sphere_capsule, sphere(cc_v3(0.7f, 0.2f, 0.3f)),
                            capsule(cc_v3(0, 0, 0), cc_v3(0.2f, 0.1f, 1), 0.8f), kInf, rng);
}

TEST(SphereCapsule, ThresholdIsExact)
{
    cc_geom a = sphere(cc_v3(0.7f, 0.2f, 0.3f)),
            b = capsule(cc_v3(0, 0, 0), cc_v3(0.2f, 0.1f, 1), 0.8f);
    float d = run(cc_collide_sphere_capsule, a, b, kInf).distance[0];
    expect_threshold_exact(cc_collide_sphere_capsule, a, b, d, 1, 0);
}

TEST(SphereCapsule, RandomSweepAgainstBruteForce)
{
    std::mt19937 rng(22);
    int failures = 0, contacts = 0;
    std::string first;
    for (int k = 0; k < 10000; ++k) {
        cc_geom a = sphere(random_vec(rng, -1.5f, 1.5f));
        cc_geom b = make_geom(random_vec(rng, -0.5f, 0.5f), random_quat(rng),
                              cc_v3(0.2f, uniform(rng, 0.0f, 1.0f), 0));
        float thr = k % 3 == 0 ? kInf : uniform(rng, 0.0f, 1.5f);
        cc_manifold m = run(cc_collide_sphere_capsule, a, b, thr);
        std::string err = check_manifold(
            m, thr, 1, [&](cc_vec3 x) { return off_point(a, x); },
            [&](cc_vec3 x) { return off_segment(b, x); });
        // Brute force: the sampled segment, refined by ternary search.
        dvec p0, p1;
        segment_ends(b, &p0, &p1);
        double truth =
            ternary_min([&](double s) { return norm(dv(a.xf.p) - (p0 + (p1 - p0) * s)); });
        if (err.empty() && (truth <= thr - 1e-5) != (m.count == 1))
            err = "count disagrees with threshold";
        if (err.empty() && m.count == 1 && std::fabs(m.distance[0] - truth) > 1e-5)
            err = "distance";
        contacts += m.count;
        if (!err.empty() && failures++ == 0) first = err + " at pose " + std::to_string(k);
    }
    EXPECT_EQ(failures, 0) << first;
    EXPECT_GT(contacts, 3000);
}

TEST(SphereCapsule, NaNInputIsSafe)
{
    expect_nan_safe(cc_collide_sphere_capsule, sphere(cc_v3(1, 0, 0)),
                    capsule(cc_v3(0, 0, 0), cc_v3(0, 0, 1), 1.0f), 1);
}

// ------------------------------------------------------------------- sphere-box

cc_geom box(cc_vec3 c, cc_quat q, cc_vec3 h) { return make_geom(c, q, h); }

TEST(SphereBox, FaceRegion)
{
    cc_manifold m = run(cc_collide_sphere_box, sphere(cc_v3(0.5f, -1, 5)),
                        box(cc_v3(0, 0, 0), kId, cc_v3(1, 2, 3)), kInf);
    ASSERT_EQ(m.count, 1);
    EXPECT_NEAR(m.distance[0], 2.0f, kTolValue);
    EXPECT_VEC_NEAR(m.normal, cc_v3(0, 0, -1), kTolValue);
    EXPECT_VEC_NEAR(core_a(m, 0), cc_v3(0.5f, -1, 5), kTolValue);
    EXPECT_VEC_NEAR(core_b(m, 0), cc_v3(0.5f, -1, 3), kTolValue);
}

TEST(SphereBox, EdgeAndVertexRegions)
{
    cc_geom b = box(cc_v3(0, 0, 0), kId, cc_v3(1, 2, 3));
    cc_manifold m = run(cc_collide_sphere_box, sphere(cc_v3(2, 3, 0.25f)), b, kInf);
    ASSERT_EQ(m.count, 1);
    EXPECT_NEAR(m.distance[0], std::sqrt(2.0f), kTolValue);
    EXPECT_VEC_NEAR(m.normal, cc_v3(-std::sqrt(0.5f), -std::sqrt(0.5f), 0), kTolValue);
    EXPECT_VEC_NEAR(core_b(m, 0), cc_v3(1, 2, 0.25f), kTolValue);

    m = run(cc_collide_sphere_box, sphere(cc_v3(-3, 4, 4)), b, kInf);
    ASSERT_EQ(m.count, 1);
    EXPECT_NEAR(m.distance[0], 3.0f, kTolValue);
    EXPECT_VEC_NEAR(core_b(m, 0), cc_v3(-1, 2, 3), kTolValue);
    EXPECT_VEC_NEAR(m.normal, cc_v3(2.0f / 3, -2.0f / 3, -1.0f / 3), kTolValue);
}

TEST(SphereBox, CentreInsideUsesLeastPenetrationFace)
{
    cc_geom b = box(cc_v3(0, 0, 0), kId, cc_v3(1, 2, 3));
    cc_manifold m = run(cc_collide_sphere_box, sphere(cc_v3(0.8f, 0.5f, -0.4f)), b, 0.0f);
    ASSERT_EQ(m.count, 1);
    EXPECT_NEAR(m.distance[0], -0.2f, kTolValue);
    EXPECT_VEC_NEAR(m.normal, cc_v3(-1, 0, 0), kTolValue);
    EXPECT_VEC_NEAR(core_a(m, 0), cc_v3(0.8f, 0.5f, -0.4f), kTolValue);
    EXPECT_VEC_NEAR(core_b(m, 0), cc_v3(1, 0.5f, -0.4f), kTolValue);

    m = run(cc_collide_sphere_box, sphere(cc_v3(0.1f, 0.2f, -2.5f)), b, 0.0f);
    ASSERT_EQ(m.count, 1);
    EXPECT_NEAR(m.distance[0], -0.5f, kTolValue);
    EXPECT_VEC_NEAR(m.normal, cc_v3(0, 0, 1), kTolValue);
    EXPECT_VEC_NEAR(core_b(m, 0), cc_v3(0.1f, 0.2f, -3), kTolValue);

    // Dead centre of a cube: a deterministic face (the first axis, + side).
    m = run(cc_collide_sphere_box, sphere(cc_v3(0, 0, 0)), box(cc_v3(0, 0, 0), kId, cc_v3(1, 1, 1)),
            0.0f);
    ASSERT_EQ(m.count, 1);
    EXPECT_NEAR(m.distance[0], -1.0f, kTolValue);
    EXPECT_VEC_NEAR(m.normal, cc_v3(-1, 0, 0), kTolValue);
}

TEST(SphereBox, CentreOnSurface)
{
    cc_manifold m = run(cc_collide_sphere_box, sphere(cc_v3(0.3f, 2, 0.1f)),
                        box(cc_v3(0, 0, 0), kId, cc_v3(1, 2, 3)), 0.0f);
    ASSERT_EQ(m.count, 1);
    EXPECT_NEAR(m.distance[0], 0.0f, kTolValue);
    EXPECT_VEC_NEAR(m.normal, cc_v3(0, -1, 0), kTolValue);
}

TEST(SphereBox, RigidMotionInvariance)
{
    std::mt19937 rng(31);
    cc_geom b =
        box(cc_v3(0.1f, 0, 0), quat_axis_angle(cc_v3(1, 2, 3), 0.7f), cc_v3(0.5f, 0.7f, 0.3f));
    expect_motion_invariant(cc_collide_sphere_box, sphere(cc_v3(1.2f, 0.3f, 0.2f)), b, kInf, rng);
    expect_motion_invariant(cc_collide_sphere_box, sphere(cc_v3(0.2f, 0.1f, 0.05f)), b, kInf, rng);
}

TEST(SphereBox, ThresholdIsExact)
{
    cc_geom a = sphere(cc_v3(1.2f, 0.3f, 0.2f));
    cc_geom b =
        box(cc_v3(0.1f, 0, 0), quat_axis_angle(cc_v3(1, 2, 3), 0.7f), cc_v3(0.5f, 0.7f, 0.3f));
    float d = run(cc_collide_sphere_box, a, b, kInf).distance[0];
    expect_threshold_exact(cc_collide_sphere_box, a, b, d, 1, 0);
    cc_geom inside = sphere(cc_v3(0.2f, 0.1f, 0.05f));
    d = run(cc_collide_sphere_box, inside, b, kInf).distance[0];
    ASSERT_LT(d, 0.0f);
    expect_threshold_exact(cc_collide_sphere_box, inside, b, d, 1, 0);
}

// The reported distance against a dense sample of the box surface: no sample
// is closer than reported, and the nearest one is within the grid spacing.
TEST(SphereBox, DenseSurfaceSample)
{
    std::mt19937 rng(32);
    const int n = 60;
    for (int k = 0; k < 30; ++k) {
        cc_geom b =
            box(random_vec(rng, -0.3f, 0.3f), random_quat(rng), random_vec(rng, 0.2f, 1.0f));
        cc_geom a = sphere(random_vec(rng, -2, 2));
        if (point_box_distance(b, dv(a.xf.p)) == 0.0) continue; // sampling measures outside only
        cc_manifold m = run(cc_collide_sphere_box, a, b, kInf);
        ASSERT_EQ(m.count, 1);
        double best = 1e30, h[3] = {b.size.x, b.size.y, b.size.z}, spacing = 0;
        for (int axis = 0; axis < 3; ++axis) {
            int u = (axis + 1) % 3, v = (axis + 2) % 3;
            spacing = std::max(spacing, 2.0 * std::hypot(h[u], h[v]) / n);
            for (int side = -1; side <= 1; side += 2)
                for (int i = 0; i <= n; ++i)
                    for (int j = 0; j <= n; ++j) {
                        double l[3];
                        l[axis] = side * h[axis];
                        l[u] = -h[u] + 2 * h[u] * i / n;
                        l[v] = -h[v] + 2 * h[v] * j / n;
                        dvec w = to_world(b, {l[0], l[1], l[2]});
                        best = std::min(best, norm(w - dv(a.xf.p)));
                    }
        }
        EXPECT_GE(best, m.distance[0] - 1e-5);
        EXPECT_LE(best, m.distance[0] + spacing);
    }
}

TEST(SphereBox, RandomSweepAgainstExactReference)
{
    std::mt19937 rng(33);
    int failures = 0, contacts = 0, inside = 0;
    std::string first;
    for (int k = 0; k < 10000; ++k) {
        cc_geom b =
            box(random_vec(rng, -0.3f, 0.3f), random_quat(rng), random_vec(rng, 0.1f, 1.0f));
        cc_geom a = sphere(random_vec(rng, -1.5f, 1.5f));
        float thr = k % 3 == 0 ? kInf : uniform(rng, -0.3f, 1.0f);
        cc_manifold m = run(cc_collide_sphere_box, a, b, thr);
        std::string err = check_manifold(
            m, thr, 1, [&](cc_vec3 x) { return off_point(a, x); },
            [&](cc_vec3 x) { return off_box(b, x); });
        // Reference signed distance: outside, the clamped point; inside,
        // minus the smallest distance to a face.
        dvec l = to_local(b, dv(a.xf.p));
        double truth = point_box_distance(b, dv(a.xf.p));
        if (truth == 0.0) {
            truth = -std::min(
                {b.size.x - std::fabs(l.x), b.size.y - std::fabs(l.y), b.size.z - std::fabs(l.z)});
            ++inside;
        }
        if (err.empty() && (truth <= thr - 1e-5) != (m.count == 1))
            err = "count disagrees with threshold";
        if (err.empty() && m.count == 1 && std::fabs(m.distance[0] - truth) > 1e-5)
            err = "distance";
        if (err.empty() && m.count == 1 && truth > 1e-4) {
            // Outside: the normal is the direction from the centre to the box.
            cc_vec3 dir = cc_v3_normalize(cc_v3_sub(core_b(m, 0), a.xf.p));
            if (cc_v3_dot(dir, m.normal) < 1 - 1e-5f) err = "normal not along the closest pair";
        }
        contacts += m.count;
        if (!err.empty() && failures++ == 0) first = err + " at pose " + std::to_string(k);
    }
    EXPECT_EQ(failures, 0) << first;
    EXPECT_GT(contacts, 3000);
    EXPECT_GT(inside, 100);
}

TEST(SphereBox, NaNInputIsSafe)
{
    expect_nan_safe(cc_collide_sphere_box, sphere(cc_v3(1, 0, 0)),
                    box(cc_v3(0, 0, 0), kId, cc_v3(1, 1, 1)), 1);
}

} // namespace
