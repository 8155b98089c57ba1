// Plane against sphere, capsule, box and plane: analytic heights, finite
// footprints, the deepest-four rule for boxes, rigid-motion invariance, exact
// threshold filtering and randomized sweeps against brute-force vertex sets.
#include "kernels/narrowphase/plane.h"

#include "tests/support/narrowphase_util.h"

using namespace nptest;

namespace
{

const cc_quat kId = cc_q(0, 0, 0, 1);

cc_geom ground() { return make_geom(cc_v3(0, 0, 0), kId, cc_v3(0, 0, 0)); }
cc_geom finite_plane(cc_vec3 p, cc_quat q, float hx, float hy)
{
    return make_geom(p, q, cc_v3(hx, hy, 0));
}
cc_geom sphere(cc_vec3 p) { return make_geom(p, kId, cc_v3(0.3f, 0, 0)); }
cc_geom capsule(cc_vec3 c, cc_vec3 dir, float hh)
{
    return make_geom(c, quat_z_to(cc_v3_normalize(dir)), cc_v3(0.1f, hh, 0));
}
cc_geom box(cc_vec3 c, cc_quat q, cc_vec3 h) { return make_geom(c, q, h); }

// Signed height of a world point above the plane, in double.
double height(const cc_geom& plane, dvec x) { return to_local(plane, x).z; }
bool in_footprint(const cc_geom& plane, dvec x)
{
    if (!(plane.size.x > 0 || plane.size.y > 0)) return true;
    dvec l = to_local(plane, x);
    return std::fabs(l.x) <= plane.size.x && std::fabs(l.y) <= plane.size.y;
}

// The manifold's distances, shallowest last.
std::vector<float> sorted_distances(const cc_manifold& m)
{
    std::vector<float> d(m.distance, m.distance + m.count);
    std::sort(d.begin(), d.end());
    return d;
}

// --------------------------------------------------------------- plane-sphere

TEST(PlaneSphere, HeightAboveAndBelow)
{
    cc_manifold m = run(cc_collide_plane_sphere, ground(), sphere(cc_v3(1, 2, 0.7f)), kInf);
    ASSERT_EQ(m.count, 1);
    EXPECT_VEC_NEAR(m.normal, cc_v3(0, 0, 1), kTolValue);
    EXPECT_NEAR(m.distance[0], 0.7f, kTolValue);
    EXPECT_VEC_NEAR(core_a(m, 0), cc_v3(1, 2, 0), kTolValue);
    EXPECT_VEC_NEAR(core_b(m, 0), cc_v3(1, 2, 0.7f), kTolValue);

    m = run(cc_collide_plane_sphere, ground(), sphere(cc_v3(-3, 0.5f, -0.3f)), 0.0f);
    ASSERT_EQ(m.count, 1);
    EXPECT_NEAR(m.distance[0], -0.3f, kTolValue);
    EXPECT_VEC_NEAR(core_a(m, 0), cc_v3(-3, 0.5f, 0), kTolValue);
}

TEST(PlaneSphere, TiltedPlane)
{
    cc_quat q = quat_axis_angle(cc_v3(1, -2, 0.5f), 0.9f);
    cc_vec3 n = cc_q_rotate(q, cc_v3(0, 0, 1)), u = cc_q_rotate(q, cc_v3(1, 0, 0));
    cc_vec3 o = cc_v3(0.3f, -0.2f, 1.0f);
    cc_vec3 foot = cc_v3_madd(o, u, 2.0f);
    cc_manifold m = run(cc_collide_plane_sphere, make_geom(o, q, cc_v3(0, 0, 0)),
                        sphere(cc_v3_madd(foot, n, 0.5f)), kInf);
    ASSERT_EQ(m.count, 1);
    EXPECT_VEC_NEAR(m.normal, n, kTolValue);
    EXPECT_NEAR(m.distance[0], 0.5f, kTolValue);
    EXPECT_VEC_NEAR(core_a(m, 0), foot, kTolValue);
}

TEST(PlaneSphere, FiniteFootprint)
{
    cc_geom p = finite_plane(cc_v3(0, 0, 0), kId, 1.0f, 2.0f);
    EXPECT_EQ(run(cc_collide_plane_sphere, p, sphere(cc_v3(0.9f, 1.9f, 0.2f)), kInf).count, 1);
    EXPECT_EQ(run(cc_collide_plane_sphere, p, sphere(cc_v3(-0.9f, -1.9f, -0.2f)), kInf).count, 1);
    EXPECT_EQ(run(cc_collide_plane_sphere, p, sphere(cc_v3(1.1f, 0, 0.2f)), kInf).count, 0);
    EXPECT_EQ(run(cc_collide_plane_sphere, p, sphere(cc_v3(0, -2.1f, 0.2f)), kInf).count, 0);
    // Below a finite plane counts too (its half-space), inside the footprint.
    cc_manifold m = run(cc_collide_plane_sphere, p, sphere(cc_v3(0.5f, 0.5f, -0.4f)), kInf);
    ASSERT_EQ(m.count, 1);
    EXPECT_NEAR(m.distance[0], -0.4f, kTolValue);
}

TEST(PlaneSphere, RigidMotionInvariance)
{
    std::mt19937 rng(61);
    expect_motion_invariant(cc_collide_plane_sphere, ground(), sphere(cc_v3(0.3f, 0.2f, 0.4f)),
                            kInf, rng);
    expect_motion_invariant(cc_collide_plane_sphere, finite_plane(cc_v3(0, 0, 0), kId, 1, 1),
                            sphere(cc_v3(0.3f, 0.2f, -0.4f)), kInf, rng);
}

TEST(PlaneSphere, ThresholdIsExact)
{
    cc_geom p =
        make_geom(cc_v3(0.1f, 0.2f, 0.3f), quat_axis_angle(cc_v3(1, 1, 0), 0.3f), cc_v3(0, 0, 0));
    cc_geom s = sphere(cc_v3(0.5f, -0.4f, 0.9f));
    float d = run(cc_collide_plane_sphere, p, s, kInf).distance[0];
    expect_threshold_exact(cc_collide_plane_sphere, p, s, d, 1, 0);
}

TEST(PlaneSphere, RandomSweep)
{
    std::mt19937 rng(62);
    int failures = 0, contacts = 0;
    std::string first;
    for (int k = 0; k < 10000; ++k) {
        cc_geom p = make_geom(random_vec(rng, -1, 1), random_quat(rng),
                              k % 2 ? cc_v3(0, 0, 0)
                                    : cc_v3(uniform(rng, 0.2f, 1.5f), uniform(rng, 0.2f, 1.5f), 0));
        cc_geom s = sphere(random_vec(rng, -1.5f, 1.5f));
        float thr = k % 3 == 0 ? kInf : uniform(rng, -0.5f, 1.0f);
        cc_manifold m = run(cc_collide_plane_sphere, p, s, thr);
        std::string err = check_manifold(
            m, thr, 1, [&](cc_vec3 x) { return off_plane(p, x); },
            [&](cc_vec3 x) { return off_point(s, x); });
        dvec l = to_local(p, dv(s.xf.p));
        double hgt = l.z;
        bool expect = hgt <= thr && in_footprint(p, dv(s.xf.p));
        // Rounding decides within 1e-5 of the threshold or the rim.
        bool borderline = std::fabs(hgt - thr) < 1e-5 ||
                          (p.size.x > 0 && (std::fabs(std::fabs(l.x) - p.size.x) < 1e-5 ||
                                            std::fabs(std::fabs(l.y) - p.size.y) < 1e-5));
        if (err.empty() && !borderline && expect != (m.count == 1))
            err = "count disagrees with brute force";
        if (err.empty() && m.count == 1 && std::fabs(m.distance[0] - hgt) > 1e-5) err = "distance";
        contacts += m.count;
        if (!err.empty() && failures++ == 0) first = err + " at pose " + std::to_string(k);
    }
    EXPECT_EQ(failures, 0) << first;
    EXPECT_GT(contacts, 2000);
}

TEST(PlaneSphere, NaNInputIsSafe)
{
    expect_nan_safe(cc_collide_plane_sphere, finite_plane(cc_v3(0, 0, 0), kId, 1, 1),
                    sphere(cc_v3(0, 0, 0.5f)), 1);
}

// -------------------------------------------------------------- plane-capsule

TEST(PlaneCapsule, LyingFlatGivesBothEnds)
{
    cc_manifold m = run(cc_collide_plane_capsule, ground(),
                        capsule(cc_v3(0, 1, 0.3f), cc_v3(1, 0, 0), 0.5f), kInf);
    ASSERT_EQ(m.count, 2);
    EXPECT_VEC_NEAR(m.normal, cc_v3(0, 0, 1), kTolValue);
    int lo = m.point[0].x < m.point[1].x ? 0 : 1;
    EXPECT_VEC_NEAR(core_a(m, lo), cc_v3(-0.5f, 1, 0), kTolValue);
    EXPECT_VEC_NEAR(core_b(m, lo), cc_v3(-0.5f, 1, 0.3f), kTolValue);
    EXPECT_VEC_NEAR(core_a(m, 1 - lo), cc_v3(0.5f, 1, 0), kTolValue);
    EXPECT_VEC_NEAR(core_b(m, 1 - lo), cc_v3(0.5f, 1, 0.3f), kTolValue);
    EXPECT_NEAR(m.distance[0], 0.3f, kTolValue);
    EXPECT_NEAR(m.distance[1], 0.3f, kTolValue);
}

TEST(PlaneCapsule, TiltedAndVertical)
{
    // Ends at heights 0.1 and 0.5.
    cc_vec3 dir = cc_v3_normalize(cc_v3(0.3f, 0, 0.4f)); // rises 0.8 per unit length
    cc_manifold m =
        run(cc_collide_plane_capsule, ground(), capsule(cc_v3(0, 0, 0.3f), dir, 0.25f), kInf);
    ASSERT_EQ(m.count, 2);
    EXPECT_NEAR(std::min(m.distance[0], m.distance[1]), 0.1f, kTolValue);
    EXPECT_NEAR(std::max(m.distance[0], m.distance[1]), 0.5f, kTolValue);

    // Vertical, bottom end 0.2 above: the top end (1.2) only with a large threshold.
    cc_geom v = capsule(cc_v3(0, 0, 0.7f), cc_v3(0, 0, 1), 0.5f);
    m = run(cc_collide_plane_capsule, ground(), v, 0.5f);
    ASSERT_EQ(m.count, 1);
    EXPECT_NEAR(m.distance[0], 0.2f, kTolValue);
    EXPECT_VEC_NEAR(core_b(m, 0), cc_v3(0, 0, 0.2f), kTolValue);
    EXPECT_EQ(run(cc_collide_plane_capsule, ground(), v, kInf).count, 2);

    // Zero-length segment: one point.
    m = run(cc_collide_plane_capsule, ground(),
            make_geom(cc_v3(0, 0, -0.1f), kId, cc_v3(0.1f, 0, 0)), kInf);
    ASSERT_EQ(m.count, 1);
    EXPECT_NEAR(m.distance[0], -0.1f, kTolValue);
}

TEST(PlaneCapsule, FiniteFootprintClipsTheSegment)
{
    cc_geom p = finite_plane(cc_v3(0, 0, 0), kId, 1.0f, 1.0f);
    // Segment x in [0.5, 1.5] at height 0.2: clipped at x = 1.
    cc_manifold m =
        run(cc_collide_plane_capsule, p, capsule(cc_v3(1, 0.3f, 0.2f), cc_v3(1, 0, 0), 0.5f), kInf);
    ASSERT_EQ(m.count, 2);
    int lo = m.point[0].x < m.point[1].x ? 0 : 1;
    EXPECT_VEC_NEAR(core_b(m, lo), cc_v3(0.5f, 0.3f, 0.2f), kTolValue);
    EXPECT_VEC_NEAR(core_b(m, 1 - lo), cc_v3(1.0f, 0.3f, 0.2f), kTolValue);
    // Across the whole plane: both rims.
    m = run(cc_collide_plane_capsule, p, capsule(cc_v3(0, 0, 0.2f), cc_v3(0, 1, 0), 3.0f), kInf);
    ASSERT_EQ(m.count, 2);
    EXPECT_NEAR(std::fabs(core_a(m, 0).y), 1.0f, kTolValue);
    EXPECT_NEAR(std::fabs(core_a(m, 1).y), 1.0f, kTolValue);
    // Entirely outside the footprint.
    EXPECT_EQ(
        run(cc_collide_plane_capsule, p, capsule(cc_v3(3, 0, 0.2f), cc_v3(1, 0, 0), 0.5f), kInf)
            .count,
        0);
}

TEST(PlaneCapsule, RigidMotionInvariance)
{
    std::mt19937 rng(71);
    expect_motion_invariant(cc_collide_plane_capsule, ground(),
                            capsule(cc_v3(0, 0, 0.3f), cc_v3(1, 0.3f, 0.4f), 0.5f), kInf, rng);
    expect_motion_invariant(cc_collide_plane_capsule, finite_plane(cc_v3(0, 0, 0), kId, 1, 1),
                            capsule(cc_v3(1, 0.3f, 0.2f), cc_v3(1, 0.2f, 0.1f), 0.5f), kInf, rng);
}

TEST(PlaneCapsule, ThresholdIsExact)
{
    cc_geom c = capsule(cc_v3(0, 0, 0.3f), cc_v3(0.3f, 0, 0.4f), 0.5f);
    cc_manifold m = run(cc_collide_plane_capsule, ground(), c, kInf);
    ASSERT_EQ(m.count, 2);
    float lo = std::min(m.distance[0], m.distance[1]), hi = std::max(m.distance[0], m.distance[1]);
    expect_threshold_exact(cc_collide_plane_capsule, ground(), c, hi, 2, 1);
    expect_threshold_exact(cc_collide_plane_capsule, ground(), c, lo, 1, 0);
}

TEST(PlaneCapsule, RandomSweep)
{
    std::mt19937 rng(72);
    int failures = 0, contacts = 0;
    std::string first;
    for (int k = 0; k < 10000; ++k) {
        cc_geom p = make_geom(random_vec(rng, -1, 1), random_quat(rng),
                              k % 2 ? cc_v3(0, 0, 0)
                                    : cc_v3(uniform(rng, 0.2f, 1.5f), uniform(rng, 0.2f, 1.5f), 0));
        cc_geom c = make_geom(random_vec(rng, -1.5f, 1.5f), random_quat(rng),
                              cc_v3(0.1f, uniform(rng, 0.0f, 1.0f), 0));
        float thr = k % 3 == 0 ? kInf : uniform(rng, -0.5f, 1.0f);
        cc_manifold m = run(cc_collide_plane_capsule, p, c, thr);
        std::string err = check_manifold(
            m, thr, 2, [&](cc_vec3 x) { return off_plane(p, x); },
            [&](cc_vec3 x) { return off_segment(c, x); });
        // Brute force: the lowest sampled segment point inside the footprint
        // (the height is linear along the segment, so the samples at the
        // clipped ends bound it; 2001 samples resolve it to 1e-3 of length).
        dvec p0, p1;
        segment_ends(c, &p0, &p1);
        double lowest = 1e30;
        for (int i = 0; i <= 2000; ++i) {
            dvec x = p0 + (p1 - p0) * (i / 2000.0);
            if (in_footprint(p, x)) lowest = std::min(lowest, height(p, x));
        }
        double seg = 2.0 * c.size.y;
        if (err.empty() && m.count > 0 && min_distance(m) < lowest - seg * 1e-3 - 1e-5)
            err = "deeper than any point";
        if (err.empty() && m.count > 0 && min_distance(m) > lowest + 1e-5)
            err = "min distance above brute force";
        if (err.empty() && m.count == 0 && lowest < 1e29 && lowest < thr - seg * 1e-3 - 1e-5)
            err = "missed contact";
        contacts += m.count;
        if (!err.empty() && failures++ == 0) first = err + " at pose " + std::to_string(k);
    }
    EXPECT_EQ(failures, 0) << first;
    EXPECT_GT(contacts, 2000);
}

TEST(PlaneCapsule, NaNInputIsSafe)
{
    expect_nan_safe(cc_collide_plane_capsule, finite_plane(cc_v3(0, 0, 0), kId, 1, 1),
                    capsule(cc_v3(0, 0, 0.3f), cc_v3(1, 0, 0), 0.5f), 2);
}

// ------------------------------------------------------------------ plane-box

TEST(PlaneBox, RestingFlatGivesBottomCorners)
{
    cc_vec3 h = cc_v3(0.5f, 0.3f, 0.2f);
    for (float gap : {0.1f, 0.0f, -0.05f}) {
        SCOPED_TRACE(gap);
        cc_manifold m =
            run(cc_collide_plane_box, ground(), box(cc_v3(1, 2, h.z + gap), kId, h), 0.15f);
        ASSERT_EQ(m.count, 4);
        EXPECT_VEC_NEAR(m.normal, cc_v3(0, 0, 1), kTolValue);
        bool seen[4] = {false, false, false, false};
        for (int i = 0; i < 4; ++i) {
            EXPECT_NEAR(m.distance[i], gap, kTolValue);
            cc_vec3 b = core_b(m, i), a = core_a(m, i);
            EXPECT_NEAR(std::fabs(b.x - 1), 0.5f, kTolValue);
            EXPECT_NEAR(std::fabs(b.y - 2), 0.3f, kTolValue);
            EXPECT_NEAR(b.z, gap, kTolValue);
            EXPECT_VEC_NEAR(a, cc_v3(b.x, b.y, 0), kTolValue);
            seen[(b.x > 1 ? 1 : 0) + (b.y > 2 ? 2 : 0)] = true;
        }
        for (bool s : seen)
            EXPECT_TRUE(s);
    }
}

TEST(PlaneBox, TiltedKeepsVerticesWithinThreshold)
{
    // Cube of half size 0.5 rolled 30 degrees about y, lowest vertex edge at 0.
    float a = 0.5235988f, c = std::cos(a), s = std::sin(a);
    float low = 0.5f * (c + s); // centre height putting the lowest edge on the plane
    cc_geom b = box(cc_v3(0, 0, low), quat_axis_angle(cc_v3(0, 1, 0), a), cc_v3(0.5f, 0.5f, 0.5f));
    // Vertex heights: low + 0.5 * (+-c +-s) for local (x, z) signs.
    float h1 = low - 0.5f * (c + s), h2 = low + 0.5f * (s - c), h3 = low + 0.5f * (c - s);
    cc_manifold m = run(cc_collide_plane_box, ground(), b, 0.01f);
    ASSERT_EQ(m.count, 2); // the lowest edge's two vertices
    for (int i = 0; i < 2; ++i)
        EXPECT_NEAR(m.distance[i], h1, kTolValue);
    m = run(cc_collide_plane_box, ground(), b, h2 + 0.01f);
    ASSERT_EQ(m.count, 4);
    std::vector<float> d = sorted_distances(m);
    EXPECT_NEAR(d[0], h1, kTolValue);
    EXPECT_NEAR(d[1], h1, kTolValue);
    EXPECT_NEAR(d[2], h2, kTolValue);
    EXPECT_NEAR(d[3], h2, kTolValue);
    m = run(cc_collide_plane_box, ground(), b, kInf);
    ASSERT_EQ(m.count, 4); // never more than four, the deepest ones
    for (int i = 0; i < 4; ++i)
        EXPECT_LT(m.distance[i], h3 - 0.01f);
}

TEST(PlaneBox, CornerDownKeepsTheDeepestFour)
{
    // A cube balanced on a corner: one vertex lowest, three next, then three.
    // The rotation taking the local (1,1,1) diagonal onto -z.
    cc_vec3 diag = cc_v3_normalize(cc_v3(1, 1, 1));
    cc_quat q = quat_axis_angle(cc_v3_cross(diag, cc_v3(0, 0, -1)), std::acos(-diag.z));
    cc_geom b = box(cc_v3(0, 0, 0.9f), q, cc_v3(0.5f, 0.5f, 0.5f));
    cc_manifold m = run(cc_collide_plane_box, ground(), b, kInf);
    ASSERT_EQ(m.count, 4);
    float r = 0.5f * std::sqrt(3.0f),
          third = r / 3; // vertex heights below centre: r, r/3, -r/3, -r
    std::vector<float> d = sorted_distances(m);
    EXPECT_NEAR(d[0], 0.9f - r, kTolValue);
    for (int i = 1; i < 4; ++i)
        EXPECT_NEAR(d[i], 0.9f - third, kTolValue);
}

TEST(PlaneBox, FinitePlaneKeepsVerticesOverIt)
{
    cc_geom p = finite_plane(cc_v3(0, 0, 0), kId, 1.0f, 1.0f);
    // Box straddling the x = 1 rim: the four vertices at x = 0.5 are over
    // the plane (two bottom at 0.05, two top at 0.45), the rest are not.
    cc_geom b = box(cc_v3(1, 0, 0.25f), kId, cc_v3(0.5f, 0.5f, 0.2f));
    cc_manifold m = run(cc_collide_plane_box, p, b, kInf);
    ASSERT_EQ(m.count, 4);
    std::vector<float> d = sorted_distances(m);
    for (int i = 0; i < 4; ++i) {
        EXPECT_NEAR(core_b(m, i).x, 0.5f, kTolValue);
        EXPECT_NEAR(d[i], i < 2 ? 0.05f : 0.45f, kTolValue);
    }
    m = run(cc_collide_plane_box, p, b, 0.1f);
    ASSERT_EQ(m.count, 2);
    for (int i = 0; i < 2; ++i)
        EXPECT_NEAR(m.distance[i], 0.05f, kTolValue);
    // Entirely beside the plane: nothing.
    EXPECT_EQ(
        run(cc_collide_plane_box, p, box(cc_v3(2, 0, 0.1f), kId, cc_v3(0.5f, 0.5f, 0.2f)), kInf)
            .count,
        0);
}

TEST(PlaneBox, RigidMotionInvariance)
{
    std::mt19937 rng(81);
    expect_motion_invariant(cc_collide_plane_box, ground(),
                            box(cc_v3(0.2f, 0.1f, 0.25f), quat_axis_angle(cc_v3(1, 2, 0.5f), 0.4f),
                                cc_v3(0.3f, 0.2f, 0.25f)),
                            kInf, rng);
    // Flat: four equal depths, matched as a set after the motion.
    expect_motion_invariant(cc_collide_plane_box, ground(),
                            box(cc_v3(0.2f, 0.1f, 0.21f), kId, cc_v3(0.3f, 0.2f, 0.2f)), 0.1f, rng);
}

TEST(PlaneBox, ThresholdIsExact)
{
    cc_geom b = box(cc_v3(0.2f, 0.1f, 0.21f), kId, cc_v3(0.3f, 0.2f, 0.2f));
    cc_manifold m = run(cc_collide_plane_box, ground(), b, kInf);
    ASSERT_EQ(m.count, 4);
    // The four bottom corners share one distance (computed the same way).
    float d = std::max({m.distance[0], m.distance[1], m.distance[2], m.distance[3]});
    int at_d = 0;
    for (int i = 0; i < 4; ++i)
        at_d += m.distance[i] == d;
    expect_threshold_exact(cc_collide_plane_box, ground(), b, d, 4, 4 - at_d);
    cc_geom t = box(cc_v3(0.2f, 0.1f, 0.25f), quat_axis_angle(cc_v3(1, 2, 0.5f), 0.4f),
                    cc_v3(0.3f, 0.2f, 0.25f));
    m = run(cc_collide_plane_box, ground(), t, kInf);
    ASSERT_EQ(m.count, 4);
    std::vector<float> sd = sorted_distances(m);
    expect_threshold_exact(cc_collide_plane_box, ground(), t, sd[0], 1, 0);
    expect_threshold_exact(cc_collide_plane_box, ground(), t, sd[2], 3, 2);
}

TEST(PlaneBox, RandomSweepAgainstVertexBruteForce)
{
    std::mt19937 rng(82);
    int failures = 0, contacts = 0, four = 0;
    std::string first;
    for (int k = 0; k < 10000; ++k) {
        cc_geom p = make_geom(random_vec(rng, -1, 1), random_quat(rng),
                              k % 2 ? cc_v3(0, 0, 0)
                                    : cc_v3(uniform(rng, 0.2f, 1.5f), uniform(rng, 0.2f, 1.5f), 0));
        cc_geom b =
            box(random_vec(rng, -1.5f, 1.5f), random_quat(rng), random_vec(rng, 0.1f, 0.8f));
        float thr = k % 3 == 0 ? kInf : uniform(rng, -0.5f, 1.0f);
        cc_manifold m = run(cc_collide_plane_box, p, b, thr);
        std::string err = check_manifold(
            m, thr, 4, [&](cc_vec3 x) { return off_plane(p, x); },
            [&](cc_vec3 x) { return off_box(b, x); });
        // Brute force: all eight vertices, those over the plane and within
        // the threshold, sorted by height, first four.
        std::vector<double> want;
        for (int i = 0; i < 8; ++i) {
            dvec v = to_world(b, {(i & 1 ? 1.0 : -1.0) * b.size.x, (i & 2 ? 1.0 : -1.0) * b.size.y,
                                  (i & 4 ? 1.0 : -1.0) * b.size.z});
            double hv = height(p, v);
            if (in_footprint(p, v) && hv <= thr) want.push_back(hv);
        }
        std::sort(want.begin(), want.end());
        if (want.size() > 4) want.resize(4);
        std::vector<double> got(m.distance, m.distance + std::max(0, m.count));
        std::sort(got.begin(), got.end());
        // Rounding can move a vertex across the threshold or the rim; compare
        // only when every brute-force value is clear of those by 1e-4.
        bool clear = true;
        for (int i = 0; i < 8; ++i) {
            dvec v = to_world(b, {(i & 1 ? 1.0 : -1.0) * b.size.x, (i & 2 ? 1.0 : -1.0) * b.size.y,
                                  (i & 4 ? 1.0 : -1.0) * b.size.z});
            dvec l = to_local(p, v);
            if (std::fabs(l.z - thr) < 1e-4) clear = false;
            if ((p.size.x > 0) && (std::fabs(std::fabs(l.x) - p.size.x) < 1e-4 ||
                                   std::fabs(std::fabs(l.y) - p.size.y) < 1e-4))
                clear = false;
        }
        if (err.empty() && clear) {
            if (got.size() != want.size())
                err = "count " + std::to_string(got.size()) + " vs brute force " +
                      std::to_string(want.size());
            for (size_t i = 0; err.empty() && i < got.size(); ++i)
                if (std::fabs(got[i] - want[i]) > 1e-5)
                    err = "distance of the " + std::to_string(i) + "th deepest";
        }
        // Each core point on B is a vertex of the box.
        for (int i = 0; err.empty() && i < m.count; ++i) {
            dvec l = to_local(b, dv(core_b(m, i)));
            if (std::fabs(std::fabs(l.x) - b.size.x) > 1e-4 ||
                std::fabs(std::fabs(l.y) - b.size.y) > 1e-4 ||
                std::fabs(std::fabs(l.z) - b.size.z) > 1e-4)
                err = "core point on B is not a vertex";
        }
        contacts += m.count;
        four += m.count == 4;
        if (!err.empty() && failures++ == 0) first = err + " at pose " + std::to_string(k);
    }
    EXPECT_EQ(failures, 0) << first;
    EXPECT_GT(contacts, 4000);
    EXPECT_GT(four, 500);
}

TEST(PlaneBox, NaNInputIsSafe)
{
    expect_nan_safe(cc_collide_plane_box, finite_plane(cc_v3(0, 0, 0), kId, 1, 1),
                    box(cc_v3(0, 0, 0.3f), kId, cc_v3(0.5f, 0.5f, 0.5f)), 4);
}

// ---------------------------------------------------------------- plane-plane

TEST(PlanePlane, TwoInfinitePlanesGiveNothing)
{
    cc_geom b = make_geom(cc_v3(0, 0, 1), cc_q(1, 0, 0, 0), cc_v3(0, 0, 0)); // facing down
    cc_manifold m = run(cc_collide_plane_plane, ground(), b, kInf);
    EXPECT_EQ(m.count, 0);
}

TEST(PlanePlane, FiniteAboveGroundGivesItsCorners)
{
    // B: 1 x 0.5 plate facing down, 0.5 above the ground.
    cc_geom b = finite_plane(cc_v3(2, 1, 0.5f), cc_q(1, 0, 0, 0), 1.0f, 0.5f);
    cc_manifold m = run(cc_collide_plane_plane, ground(), b, kInf);
    ASSERT_EQ(m.count, 4);
    EXPECT_VEC_NEAR(m.normal, cc_v3(0, 0, 1), kTolValue);
    for (int i = 0; i < 4; ++i) {
        EXPECT_NEAR(m.distance[i], 0.5f, kTolValue);
        cc_vec3 cb = core_b(m, i);
        EXPECT_NEAR(std::fabs(cb.x - 2), 1.0f, kTolValue);
        EXPECT_NEAR(std::fabs(cb.y - 1), 0.5f, kTolValue);
        EXPECT_NEAR(cb.z, 0.5f, kTolValue);
        EXPECT_NEAR(core_a(m, i).z, 0.0f, kTolValue);
    }
}

TEST(PlanePlane, FiniteBelowInfiniteFacingIt)
{
    // A: finite plate facing up; B: infinite plane facing down 0.5 above.
    cc_geom a = finite_plane(cc_v3(0, 0, 0), kId, 1.0f, 1.0f);
    cc_geom b = make_geom(cc_v3(0, 0, 0.5f), cc_q(1, 0, 0, 0), cc_v3(0, 0, 0));
    cc_manifold m = run(cc_collide_plane_plane, a, b, kInf);
    ASSERT_EQ(m.count, 4);
    EXPECT_VEC_NEAR(m.normal, cc_v3(0, 0, 1), kTolValue);
    for (int i = 0; i < 4; ++i) {
        EXPECT_NEAR(m.distance[i], 0.5f, kTolValue);
        EXPECT_NEAR(std::fabs(core_a(m, i).x), 1.0f, kTolValue);
        EXPECT_NEAR(core_a(m, i).z, 0.0f, kTolValue);
        EXPECT_NEAR(core_b(m, i).z, 0.5f, kTolValue);
    }
    // Facing away (B's normal up too): A's corners have no contact.
    b.xf.q = kId;
    EXPECT_EQ(run(cc_collide_plane_plane, a, b, kInf).count, 0);
}

TEST(PlanePlane, TiltedPlateAndFootprints)
{
    // A tilted plate dips into the ground: two corners below, two above.
    cc_geom b = finite_plane(cc_v3(0, 0, 0.1f), quat_axis_angle(cc_v3(0, 1, 0), 0.3f), 1.0f, 0.5f);
    cc_manifold m = run(cc_collide_plane_plane, ground(), b, 0.0f);
    ASSERT_EQ(m.count, 2);
    for (int i = 0; i < 2; ++i)
        EXPECT_NEAR(m.distance[i], 0.1f - std::sin(0.3f), kTolValue);
    // Two finite plates: only B's corners over A's footprint and A's corners
    // whose ray along A's normal lands on B.
    // A spans [-1, 1]^2; C (facing down, 0.2 above) spans [0.5, 2.5] x
    // [-0.5, 1.5]: C's corner (0.5, -0.5) is over A, and A's corner (1, 1)
    // is under C; no other corner is.
    cc_geom a = finite_plane(cc_v3(0, 0, 0), kId, 1.0f, 1.0f);
    cc_geom c = finite_plane(cc_v3(1.5f, 0.5f, 0.2f), cc_q(1, 0, 0, 0), 1.0f, 1.0f);
    m = run(cc_collide_plane_plane, a, c, kInf);
    ASSERT_EQ(m.count, 2);
    int from_c = std::fabs(core_b(m, 0).x - 0.5f) < 1e-4f ? 0 : 1;
    EXPECT_VEC_NEAR(core_b(m, from_c), cc_v3(0.5f, -0.5f, 0.2f), kTolValue);
    EXPECT_VEC_NEAR(core_a(m, from_c), cc_v3(0.5f, -0.5f, 0), kTolValue);
    EXPECT_VEC_NEAR(core_a(m, 1 - from_c), cc_v3(1, 1, 0), kTolValue);
    EXPECT_VEC_NEAR(core_b(m, 1 - from_c), cc_v3(1, 1, 0.2f), kTolValue);
    for (int i = 0; i < 2; ++i)
        EXPECT_NEAR(m.distance[i], 0.2f, kTolValue);
}

TEST(PlanePlane, IdenticalPlatesKeepFourOfEight)
{
    // Two equal plates facing each other: all four corners of each lie on
    // the other's rim, eight valid candidates at one depth; four are kept.
    cc_geom a = finite_plane(cc_v3(0, 0, 0), kId, 0.5f, 0.25f);
    cc_geom b = finite_plane(cc_v3(0, 0, 0.125f), cc_q(1, 0, 0, 0), 0.5f, 0.25f);
    cc_manifold m = run(cc_collide_plane_plane, a, b, kInf);
    ASSERT_EQ(m.count, 4);
    for (int i = 0; i < 4; ++i) {
        EXPECT_EQ(m.distance[i], 0.125f);
        EXPECT_EQ(std::fabs(core_a(m, i).x), 0.5f);
        EXPECT_EQ(std::fabs(core_a(m, i).y), 0.25f);
    }
    // B tilted about y: its corners now project inside A (x = +-0.5 cos),
    // A's corners miss B; depths 0.125 -+ 0.5 sin(0.01).
    b.xf.q = cc_q_mul(quat_axis_angle(cc_v3(0, 1, 0), 0.01f), cc_q(1, 0, 0, 0));
    m = run(cc_collide_plane_plane, a, b, kInf);
    ASSERT_EQ(m.count, 4);
    std::vector<float> d = sorted_distances(m);
    float dz = 0.5f * std::sin(0.01f);
    EXPECT_NEAR(d[0], 0.125f - dz, kTolValue);
    EXPECT_NEAR(d[1], 0.125f - dz, kTolValue);
    EXPECT_NEAR(d[2], 0.125f + dz, kTolValue);
    EXPECT_NEAR(d[3], 0.125f + dz, kTolValue);
    for (int i = 0; i < 4; ++i)
        EXPECT_NEAR(std::fabs(core_a(m, i).x), 0.5f * std::cos(0.01f), kTolValue);
}

TEST(PlanePlane, RigidMotionInvariance)
{
    std::mt19937 rng(91);
    cc_geom b =
        finite_plane(cc_v3(0, 0, 0.1f), quat_axis_angle(cc_v3(0, 1, 0.2f), 0.3f), 1.0f, 0.5f);
    expect_motion_invariant(cc_collide_plane_plane, ground(), b, 0.0f, rng);
}

TEST(PlanePlane, RandomSweep)
{
    std::mt19937 rng(92);
    int failures = 0, contacts = 0;
    std::string first;
    for (int k = 0; k < 10000; ++k) {
        auto size = [&](int bit) {
            return (k >> bit) & 1 ? cc_v3(uniform(rng, 0.2f, 1.5f), uniform(rng, 0.2f, 1.5f), 0)
                                  : cc_v3(0, 0, 0);
        };
        cc_geom a = make_geom(random_vec(rng, -0.5f, 0.5f), random_quat(rng), size(0));
        cc_geom b = make_geom(random_vec(rng, -0.5f, 0.5f), random_quat(rng), size(1));
        float thr = k % 3 == 0 ? kInf : uniform(rng, -0.5f, 1.0f);
        cc_manifold m = run(cc_collide_plane_plane, a, b, thr);
        std::string err = check_manifold(
            m, thr, 5, [&](cc_vec3 x) { return off_plane(a, x); },
            [&](cc_vec3 x) { return off_plane(b, x); });
        if (err.empty() && m.count > 4) err = "more than four";
        if (err.empty() && m.count > 0 && !(a.size.x > 0) && !(b.size.x > 0))
            err = "two infinite planes";
        if (err.empty() && m.count > 0 &&
            cc_v3_dot(m.normal, cc_q_rotate(a.xf.q, cc_v3(0, 0, 1))) < 1 - 1e-5f)
            err = "normal is not A's normal";
        contacts += m.count;
        if (!err.empty() && failures++ == 0) first = err + " at pose " + std::to_string(k);
    }
    EXPECT_EQ(failures, 0) << first;
    EXPECT_GT(contacts, 2000);
}

TEST(PlanePlane, NaNInputIsSafe)
{
    expect_nan_safe(cc_collide_plane_plane, ground(),
                    finite_plane(cc_v3(0, 0, 0.5f), cc_q(1, 0, 0, 0), 1, 1), 5);
}

} // namespace
