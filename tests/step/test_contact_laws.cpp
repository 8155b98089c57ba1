// Contact laws at one point: the compliant model (C2 ramp, regularised
// Coulomb ramp, parameter combination, traction with alignment rejection and
// fading), the penalty model (spring, damping, capped viscous friction,
// adhesion) and the restitution calibration helpers. Closed-form checks with
// stated tolerances, plus a randomized comparison against a double-precision
// transcription of the formulas.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <random>
#include <sstream>

#include "cucontact/cucontact.h"
#include "kernels/step/law_compliant.h"
#include "kernels/step/law_penalty.h"

namespace
{

constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();
constexpr float kInf = std::numeric_limits<float>::infinity();

bool finite(cc_vec3 v) { return std::isfinite(v.x) && std::isfinite(v.y) && std::isfinite(v.z); }

// |a - b| <= tol componentwise.
::testing::AssertionResult vec_near(cc_vec3 a, cc_vec3 b, double tol)
{
    double d = std::fmax(std::fabs((double)a.x - b.x),
                         std::fmax(std::fabs((double)a.y - b.y), std::fabs((double)a.z - b.z)));
    if (d <= tol) return ::testing::AssertionSuccess();
    return ::testing::AssertionFailure() << "(" << a.x << ", " << a.y << ", " << a.z << ") vs ("
                                         << b.x << ", " << b.y << ", " << b.z << "): max diff "
                                         << d << " > " << tol;
}

cc_vec3 unit(float x, float y, float z) { return cc_v3_normalize(cc_v3(x, y, z)); }

// Unit vector at `deg` degrees from unit `a`, rotated toward unit `b` (b ⟂ a).
cc_vec3 at_angle(cc_vec3 a, cc_vec3 b, double deg)
{
    double r = deg * M_PI / 180.0;
    return cc_v3_add(cc_v3_scale(a, (float)std::cos(r)), cc_v3_scale(b, (float)std::sin(r)));
}

// ------------------------------------------------------------------- ramp

// Transcription of the ramp definition in double (eps^3 form).
double ref_h(double pen, double eps, double delta)
{
    double z = pen - (eps - delta);
    if (z <= -eps) return 0.0;
    if (z >= eps) return z;
    return 3.0 * eps / 16.0 + (0.5 + 3.0 * z / (8.0 * eps) - z * z * z / (16.0 * eps * eps * eps)) * z;
}
double ref_dh(double pen, double eps, double delta)
{
    double z = pen - (eps - delta);
    if (z <= -eps) return 0.0;
    if (z >= eps) return 1.0;
    return 0.5 + 3.0 * z / (4.0 * eps) - z * z * z / (4.0 * eps * eps * eps);
}

// With delta == eps the ramp variable z equals the penetration exactly, so
// these helpers evaluate h and h' at a chosen z without rounding in z.
float hz(float z, float eps) { return cc_ramp_h(z, eps, eps); }
float dhz(float z, float eps) { return cc_ramp_slope(z, eps, eps); }

class Ramp : public ::testing::TestWithParam<float>
{
};

TEST_P(Ramp, JointValues)
{
    float eps = GetParam();
    // Lower joint: value and slope vanish; upper joint: h = z, h' = 1.
    EXPECT_EQ(hz(-eps, eps), 0.0f);
    EXPECT_EQ(dhz(-eps, eps), 0.0f);
    EXPECT_EQ(hz(eps, eps), eps);
    EXPECT_EQ(dhz(eps, eps), 1.0f);
    for (float k : {1.0f, 1.5f, 3.0f, 100.0f}) {
        EXPECT_EQ(hz(k * eps, eps), k * eps);
        EXPECT_EQ(dhz(k * eps, eps), 1.0f);
        EXPECT_EQ(hz(-k * eps, eps), 0.0f);
        EXPECT_EQ(dhz(-k * eps, eps), 0.0f);
    }
    // Midpoint: h(0) = 3 eps / 16 (to 1 float ulp), h'(0) = 1/2.
    EXPECT_FLOAT_EQ(hz(0.0f, eps), 3.0f * eps / 16.0f);
    EXPECT_EQ(dhz(0.0f, eps), 0.5f);
}

TEST_P(Ramp, MatchesDoubleDefinition)
{
    // Float kernel vs the eps^3 formula in double over the whole range:
    // |dh| <= 1e-6 * eps + 1e-7 |z| (a few float ulps), |dh'| <= 1e-6.
    float eps = GetParam();
    for (float delta : {0.0f, 0.2f * eps, eps, 3.0f * eps}) {
        for (int i = 0; i <= 2000; ++i) {
            float pen = -delta + eps * (-1.5f + 4.0f * (float)i / 2000.0f);
            double zr = (double)pen - ((double)eps - delta);
            EXPECT_NEAR(cc_ramp_h(pen, eps, delta), ref_h(pen, eps, delta),
                        1e-6 * eps + 1e-7 * std::fabs(zr))
                << "pen " << pen;
            EXPECT_NEAR(cc_ramp_slope(pen, eps, delta), ref_dh(pen, eps, delta), 1e-6);
        }
    }
}

TEST_P(Ramp, C2AtBothJoints)
{
    // One-sided finite differences with step dz = 1e-3 eps on the smoothed
    // side. Outside the smoothed band h = 0 or h = z exactly (JointValues),
    // so continuity means: h -> 0 / z, h' -> 0 / 1, h'' -> 0 at the joints.
    // Truncation is O(dz/eps) relative to the curvature scale 3/(4 eps) (the
    // peak of h''), float noise in h' / dz is ~ 1e-7 eps/dz relative: a
    // tolerance of 1e-2 of that scale catches any jump.
    float eps = GetParam();
    float dz = 1e-3f * eps;
    double curv = 0.75 / eps;
    // Values: h deviates from its neighbours by O(dz^3/eps^2) only.
    EXPECT_NEAR(hz(-eps + dz, eps), 0.0, 1e-6 * eps);
    EXPECT_NEAR(hz(eps - dz, eps), eps - dz, 1e-6 * eps);
    // Slopes.
    EXPECT_NEAR(dhz(-eps + dz, eps), 0.0, 1e-5);
    EXPECT_NEAR(dhz(eps - dz, eps), 1.0, 1e-5);
    // Curvature from finite differences of h'.
    double h2_lo = (dhz(-eps + 2 * dz, eps) - dhz(-eps + dz, eps)) / dz;
    double h2_hi = (dhz(eps - dz, eps) - dhz(eps - 2 * dz, eps)) / dz;
    EXPECT_NEAR(h2_lo, 0.0, 1e-2 * curv);
    EXPECT_NEAR(h2_hi, 0.0, 1e-2 * curv);
    // The same difference in the middle does see the curvature (sanity of the
    // check above): h''(0) = 3/(4 eps).
    double h2_mid = (dhz(dz, eps) - dhz(-dz, eps)) / (2 * dz);
    EXPECT_NEAR(h2_mid, curv, 1e-2 * curv);
    // h' is the derivative of h: central differences agree to 1e-3.
    for (float t : {-0.9f, -0.5f, -0.1f, 0.0f, 0.3f, 0.7f, 0.95f}) {
        float z = t * eps;
        double fd = ((double)hz(z + dz, eps) - hz(z - dz, eps)) / (2.0 * dz);
        EXPECT_NEAR(fd, dhz(z, eps), 1e-3) << "t " << t;
    }
}

TEST_P(Ramp, ZeroFromThresholdAndMonotone)
{
    float eps = GetParam();
    const float delta = 0.2f * eps;
    // phi >= delta (penetration <= -delta): no activation, exactly.
    for (float phi : {delta * 1.0001f, delta + eps, 1.0f, 1e6f}) {
        EXPECT_EQ(cc_ramp_h(-phi, eps, delta), 0.0f) << phi;
        EXPECT_EQ(cc_ramp_slope(-phi, eps, delta), 0.0f) << phi;
    }
    // At phi = delta itself z = -eps up to rounding in z: h is O(ulp^3).
    EXPECT_LE(cc_ramp_h(-delta, eps, delta), 1e-12f * eps);
    // Non-decreasing h, slope in [0, 1] and non-decreasing (convex ramp).
    float prev_h = -1.0f, prev_s = -1.0f;
    for (int i = 0; i <= 4000; ++i) {
        float pen = -delta + eps * (-1.0f + 4.0f * (float)i / 4000.0f);
        float h = cc_ramp_h(pen, eps, delta), s = cc_ramp_slope(pen, eps, delta);
        EXPECT_GE(h, prev_h) << pen;
        EXPECT_GE(s, prev_s) << pen;
        EXPECT_GE(s, 0.0f);
        EXPECT_LE(s, 1.0f);
        prev_h = h;
        prev_s = s;
    }
}

INSTANTIATE_TEST_SUITE_P(Eps, Ramp, ::testing::Values(0.005f, 1.0f));

TEST(RampSharp, ZeroEpsIsASharpRamp)
{
    // eps = 0 has no smoothed band: max(z, 0) without dividing by eps.
    EXPECT_EQ(cc_ramp_h(0.5f, 0.0f, 0.1f), 0.6f);
    EXPECT_EQ(cc_ramp_h(-0.5f, 0.0f, 0.1f), 0.0f);
    EXPECT_EQ(cc_ramp_slope(0.5f, 0.0f, 0.1f), 1.0f);
    EXPECT_EQ(cc_ramp_slope(-0.5f, 0.0f, 0.1f), 0.0f);
}

TEST(FrictionRamp, SlopeValuesAndContinuity)
{
    const float vf = 0.01f;
    EXPECT_EQ(cc_friction_ramp_slope(0.0f, vf), 0.0f);
    EXPECT_EQ(cc_friction_ramp_slope(vf, vf), 1.0f);
    EXPECT_EQ(cc_friction_ramp_slope(10.0f * vf, vf), 1.0f);
    EXPECT_FLOAT_EQ(cc_friction_ramp_slope(0.5f * vf, vf), 0.75f);
    // rho' and rho'' continuous at vf: 1 - rho'(vf - dv) = (dv/vf)^2.
    float dv = 1e-3f * vf;
    EXPECT_NEAR(cc_friction_ramp_slope(vf - dv, vf), 1.0, 1e-5);
    double d2 = (cc_friction_ramp_slope(vf - dv, vf) - cc_friction_ramp_slope(vf - 2 * dv, vf)) / dv;
    EXPECT_NEAR(d2, 0.0, 1e-2 * (2.0 / vf)); // peak rho'' is 2/vf at 0
    // Monotone from 0 to 1.
    float prev = -1.0f;
    for (int i = 0; i <= 1000; ++i) {
        float s = cc_friction_ramp_slope(2.0f * vf * (float)i / 1000.0f, vf);
        EXPECT_GE(s, prev);
        EXPECT_LE(s, 1.0f);
        prev = s;
    }
    // rho'(v)/v is finite at rest and matches the slope elsewhere.
    EXPECT_FLOAT_EQ(cc_friction_ramp_ratio(0.0f, vf), 2.0f / vf);
    EXPECT_EQ(cc_friction_ramp_ratio(0.0f, 0.0f), 0.0f);
    for (float v : {0.1f * vf, 0.5f * vf, 0.99f * vf, vf, 3.0f * vf})
        EXPECT_NEAR(cc_friction_ramp_ratio(v, vf) * v, cc_friction_ramp_slope(v, vf), 1e-6);
}

// ---------------------------------------------------------------- combine

cc_compliant_params params(float k, float eps, float delta, float vf, float mu, float ct, float cn)
{
    cc_compliant_params p = cc_default_compliant_params();
    p.penalty_coefficient = k;
    p.smoothing_half_distance = eps;
    p.threshold = delta;
    p.friction_falloff_velocity = vf;
    p.coulomb_friction = mu;
    p.viscous_friction = ct;
    p.normal_damping = cn;
    return p;
}

TEST(CompliantCombine, GeometricMeansAndColliderFields)
{
    cc_compliant_params a = params(4e8f, 0.002f, 0.0005f, 0.02f, 0.2f, 0.5f, 2.0f);
    cc_compliant_params b = params(9e8f, 0.007f, 0.003f, 0.08f, 0.8f, 2.0f, 8.0f);
    a.max_alignment = 0.3f;
    b.max_alignment = -0.2f;
    a.friction_with_collider_normal = 1;
    b.friction_with_collider_normal = 0;
    a.fade_friction = 1;
    b.fade_friction = 0;
    a.threshold_extra_padding = 0.01f; // colliding is a collider: unused
    cc_compliant_pair p = cc_compliant_combine(&a, &b, 0);
    // Geometric means to 1 float ulp (one rounding in a*b, one in sqrt).
    EXPECT_FLOAT_EQ(p.mu, 0.4f);
    EXPECT_FLOAT_EQ(p.ct, 1.0f);
    EXPECT_FLOAT_EQ(p.cn, 4.0f);
    EXPECT_FLOAT_EQ(p.k, 6e8f);
    EXPECT_FLOAT_EQ(p.vf, 0.04f);
    // Field settings from the collider b, exactly.
    EXPECT_EQ(p.eps, 0.007f);
    EXPECT_EQ(p.delta, 0.003f);
    EXPECT_EQ(p.max_alignment, -0.2f);
    EXPECT_EQ(p.friction_with_collider_normal, 0);
    EXPECT_EQ(p.fade_friction, 0);

    // Roles swapped: same means, fields from a.
    cc_compliant_pair q = cc_compliant_combine(&b, &a, 0);
    EXPECT_EQ(q.mu, p.mu);
    EXPECT_EQ(q.k, p.k);
    EXPECT_EQ(q.eps, 0.002f);
    EXPECT_EQ(q.delta, 0.0005f);
    EXPECT_EQ(q.max_alignment, 0.3f);
    EXPECT_EQ(q.friction_with_collider_normal, 1);
    EXPECT_EQ(q.fade_friction, 1);
}

TEST(CompliantCombine, EqualValuesPassThroughExactly)
{
    // sqrt(fl(x*x)) == x in IEEE round-to-nearest.
    cc_compliant_params d = cc_default_compliant_params();
    cc_compliant_pair p = cc_compliant_combine(&d, &d, 0);
    EXPECT_EQ(p.k, d.penalty_coefficient);
    EXPECT_EQ(p.vf, d.friction_falloff_velocity);
    EXPECT_EQ(p.mu, d.coulomb_friction);
    EXPECT_EQ(p.ct, 0.0f);
    EXPECT_EQ(p.cn, 0.0f);
    EXPECT_EQ(p.eps, d.smoothing_half_distance);
    EXPECT_EQ(p.delta, d.threshold);
}

TEST(CompliantCombine, StaticColliderTakesStiffnessFromColliding)
{
    cc_compliant_params a = params(4e8f, 0.002f, 0.0005f, 0.02f, 0.2f, 0.5f, 2.0f);
    cc_compliant_params b = params(9e8f, 0.007f, 0.003f, 0.08f, 0.8f, 2.0f, 8.0f);
    cc_compliant_pair p = cc_compliant_combine(&a, &b, 1);
    EXPECT_EQ(p.k, 4e8f);
    EXPECT_EQ(p.vf, 0.02f);
    // Dissipation is still the geometric mean; fields still from b.
    EXPECT_FLOAT_EQ(p.mu, 0.4f);
    EXPECT_FLOAT_EQ(p.ct, 1.0f);
    EXPECT_FLOAT_EQ(p.cn, 4.0f);
    EXPECT_EQ(p.eps, 0.007f);
    EXPECT_EQ(p.delta, 0.003f);
}

TEST(CompliantCombine, PaddingOnlyForNonColliderColliding)
{
    cc_compliant_params a = params(1e9f, 0.005f, 0.001f, 0.01f, 0.5f, 0, 0);
    cc_compliant_params b = params(1e9f, 0.005f, 0.002f, 0.01f, 0.5f, 0, 0);
    a.threshold_extra_padding = 0.004f;
    b.threshold_extra_padding = 0.1f; // the collider's padding never applies
    a.is_collider = 1;
    EXPECT_EQ(cc_compliant_combine(&a, &b, 0).delta, 0.002f);
    a.is_collider = 0;
    EXPECT_EQ(cc_compliant_combine(&a, &b, 0).delta, 0.002f + 0.004f);
    EXPECT_EQ(cc_compliant_combine(&a, &b, 1).delta, 0.002f + 0.004f);
    // b not being a collider does not matter when it is the collider here.
    a.is_collider = 1;
    b.is_collider = 0;
    EXPECT_EQ(cc_compliant_combine(&a, &b, 0).delta, 0.002f);
}

// --------------------------------------------------------------- traction

cc_compliant_pair pair_with(float mu, float ct, float cn, float m, int fwcn, int fade)
{
    cc_compliant_pair p;
    p.k = 1e9f;
    p.eps = 0.005f;
    p.delta = 0.001f;
    p.vf = 0.01f;
    p.mu = mu;
    p.ct = ct;
    p.cn = cn;
    p.max_alignment = m;
    p.friction_with_collider_normal = fwcn;
    p.fade_friction = fade;
    return p;
}

// Normal load coefficient lambda_n = k h h' (float, as the kernel does).
float lambda_of(const cc_compliant_pair& p, float phi)
{
    return p.k * cc_ramp_h(-phi, p.eps, p.delta) * cc_ramp_slope(-phi, p.eps, p.delta);
}

const cc_vec3 kG = unit(0.6f, 0.0f, 0.8f);   // collider normal G_B
const cc_vec3 kT1 = unit(-0.8f, 0.0f, 0.6f); // tangents of G_B
const cc_vec3 kT2 = cc_v3(0.0f, 1.0f, 0.0f);

TEST(CompliantTraction, LinearRegionAtRestIsExact)
{
    cc_compliant_pair p = pair_with(0.5f, 0.3f, 0.2f, 0.0f, 1, 1);
    cc_vec3 na = cc_v3_neg(kG);
    for (float pen : {0.009f, 0.02f, 0.1f}) {
        float z = pen - (p.eps - p.delta); // >= eps: linear, h' = 1
        ASSERT_GE(z, p.eps);
        cc_vec3 t = cc_compliant_traction(&p, -pen, kG, &na, cc_v3(0, 0, 0));
        float lam = p.k * z;
        EXPECT_EQ(t.x, lam * kG.x);
        EXPECT_EQ(t.y, lam * kG.y);
        EXPECT_EQ(t.z, lam * kG.z);
        // Without a colliding normal the conservative part is the same.
        cc_vec3 t0 = cc_compliant_traction(&p, -pen, kG, nullptr, cc_v3(0, 0, 0));
        EXPECT_EQ(t0.x, t.x);
        EXPECT_EQ(t0.z, t.z);
    }
}

TEST(CompliantTraction, SmoothedRegionLoadIsKHHPrime)
{
    // lambda_n = k h h' (gradient of k/2 h^2), against the double formula to
    // 1e-5 relative. The reference starts from the float ramp variable
    // z = pen - (eps - delta), as the kernel does: near the onset h ~ (z+eps)^3
    // amplifies the rounding of z itself, which is not under test here.
    cc_compliant_pair p = pair_with(0.5f, 0, 0, 0.0f, 1, 1);
    for (float pen : {-0.0009f, 0.0f, 0.002f, 0.004f, 0.008f}) {
        float zf = pen - (p.eps - p.delta);
        double lam = 1e9 * ref_h(zf, 0.005f, 0.005f) * ref_dh(zf, 0.005f, 0.005f);
        ASSERT_GT(lam, 0.0);
        cc_vec3 t = cc_compliant_traction(&p, -pen, kG, nullptr, cc_v3(0, 0, 0));
        EXPECT_TRUE(vec_near(t, cc_v3_scale(kG, (float)lam), 1e-5 * lam)) << pen;
    }
}

TEST(CompliantTraction, ZeroOutsideThreshold)
{
    cc_compliant_pair p = pair_with(0.5f, 0.3f, 0.2f, 0.0f, 1, 1);
    cc_vec3 na = cc_v3_neg(kG);
    for (float phi : {0.0011f, 0.01f, 10.0f}) {
        cc_vec3 t = cc_compliant_traction(&p, phi, kG, &na, cc_v3(1, 2, 3));
        EXPECT_EQ(t.x, 0.0f);
        EXPECT_EQ(t.y, 0.0f);
        EXPECT_EQ(t.z, 0.0f);
    }
}

TEST(CompliantTraction, RejectsAlignedNormals)
{
    // m = 0: N_A at 60 degrees from +G_B gives s = 0.5 > 0 -> no traction at
    // all, even deep in contact. At 60 degrees from -G_B, s = -0.5: accepted.
    cc_compliant_pair p = pair_with(0.5f, 0.3f, 0.2f, 0.0f, 1, 1);
    cc_vec3 v = cc_v3(0.3f, -0.2f, 0.1f);
    cc_vec3 na_bad = at_angle(kG, kT1, 60.0);
    cc_vec3 t = cc_compliant_traction(&p, -0.02f, kG, &na_bad, v);
    EXPECT_EQ(t.x, 0.0f);
    EXPECT_EQ(t.y, 0.0f);
    EXPECT_EQ(t.z, 0.0f);
    cc_vec3 na_ok = at_angle(cc_v3_neg(kG), kT1, 60.0);
    cc_vec3 t2 = cc_compliant_traction(&p, -0.02f, kG, &na_ok, v);
    EXPECT_GT(cc_v3_dot(t2, kG), 0.0f);
    // A larger m accepts the first one; m = 0.4 still rejects it.
    p.max_alignment = 0.6f;
    EXPECT_GT(cc_v3_length(cc_compliant_traction(&p, -0.02f, kG, &na_bad, v)), 0.0f);
    p.max_alignment = 0.4f;
    EXPECT_EQ(cc_v3_length(cc_compliant_traction(&p, -0.02f, kG, &na_bad, v)), 0.0f);
    // No colliding normal: nothing is rejected.
    p.max_alignment = -1.0f;
    EXPECT_GT(cc_v3_length(cc_compliant_traction(&p, -0.02f, kG, nullptr, v)), 0.0f);
}

// Dissipative part: traction minus the conservative lambda_n G_B.
cc_vec3 dissipative(const cc_compliant_pair& p, float phi, const cc_vec3* na, cc_vec3 v)
{
    cc_vec3 t = cc_compliant_traction(&p, phi, kG, na, v);
    return cc_v3_sub(t, cc_v3_scale(kG, lambda_of(p, phi)));
}

TEST(CompliantTraction, FadingScalesDissipationByAlignment)
{
    // With fading on, the dissipative part is a = (m - s)/(m + 1) times the
    // full one; with fading off it does not depend on alignment. Tolerance
    // 1e-5 of the full dissipative magnitude.
    const float phi = -0.02f;
    cc_vec3 v = cc_v3_add(cc_v3_scale(kT1, 0.004f),
                          cc_v3_add(cc_v3_scale(kT2, 0.003f), cc_v3_scale(kG, -0.5f)));
    for (float m : {0.0f, 0.5f, -0.5f}) {
        cc_compliant_pair p = pair_with(0.5f, 0.3f, 0.2f, m, 1, 1);
        cc_vec3 na_full = cc_v3_neg(kG); // s = -1: a = 1
        cc_vec3 full = dissipative(p, phi, &na_full, v);
        cc_vec3 none = dissipative(p, phi, nullptr, v);
        double scale = cc_v3_length(full);
        ASSERT_GT(scale, 0.0);
        EXPECT_TRUE(vec_near(full, none, 1e-5 * scale)) << "a = 1 without N_A";
        for (double deg : {10.0, 40.0, 55.0}) {
            cc_vec3 na = at_angle(cc_v3_neg(kG), kT2, deg);
            float s = cc_v3_dot(kG, na);
            if (s > m) continue;
            float a = (m - s) / (m + 1.0f);
            cc_vec3 d = dissipative(p, phi, &na, v);
            EXPECT_TRUE(vec_near(d, cc_v3_scale(full, a), 1e-5 * scale)) << m << " " << deg;
            // Fading off: full strength at any accepted alignment.
            cc_compliant_pair q = p;
            q.fade_friction = 0;
            EXPECT_TRUE(vec_near(dissipative(q, phi, &na, v), full, 1e-5 * scale));
            // The conservative part never fades.
            cc_vec3 t = cc_compliant_traction(&p, phi, kG, &na, v);
            EXPECT_NEAR(cc_v3_dot(cc_v3_sub(t, d), kG), lambda_of(p, phi), 1e-6 * lambda_of(p, phi));
        }
    }
    // m = -1 with fading on: only s = -1 is accepted, at full strength.
    cc_compliant_pair p = pair_with(0.5f, 0.3f, 0.2f, -1.0f, 1, 1);
    cc_vec3 na = cc_v3_neg(kG);
    cc_vec3 d = dissipative(p, phi, &na, v);
    cc_vec3 ref = dissipative(p, phi, nullptr, v);
    EXPECT_TRUE(vec_near(d, ref, 1e-5 * cc_v3_length(ref)));
}

TEST(CompliantTraction, CoulombTermRampsAndSaturates)
{
    // Pure Coulomb (ct = cn = 0), a = 1: |T_t| = mu lambda_n rho'(V_t),
    // opposite to V_t; mu lambda_n once V_t >= V_f. 1e-5 relative.
    cc_compliant_pair p = pair_with(0.5f, 0, 0, 0.0f, 1, 1);
    const float phi = -0.02f;
    float lam = lambda_of(p, phi);
    cc_vec3 dir = cc_v3_normalize(cc_v3_add(cc_v3_scale(kT1, 0.8f), cc_v3_scale(kT2, 0.6f)));
    for (float vt : {0.0005f, 0.004f, 0.0099f, 0.01f, 0.05f, 1.0f, 100.0f}) {
        // A normal component does not change the Coulomb term (cn = 0).
        cc_vec3 v = cc_v3_add(cc_v3_scale(dir, vt), cc_v3_scale(kG, 0.25f));
        cc_vec3 d = dissipative(p, phi, nullptr, v);
        double expect = 0.5 * lam * cc_friction_ramp_slope(vt, p.vf);
        EXPECT_TRUE(vec_near(d, cc_v3_scale(dir, (float)-expect), 1e-5 * 0.5 * lam)) << vt;
    }
    // Saturation: far above V_f the magnitude is mu lambda_n.
    cc_vec3 d = dissipative(p, phi, nullptr, cc_v3_scale(dir, 10.0f));
    EXPECT_NEAR(cc_v3_length(d), 0.5 * lam, 1e-5 * 0.5 * lam);
    // At rest tangentially: no Coulomb term.
    cc_vec3 d0 = dissipative(p, phi, nullptr, cc_v3_scale(kG, 0.3f));
    EXPECT_LE(cc_v3_length(d0), 1e-6 * lam);
}

TEST(CompliantTraction, ViscousFrictionAndNormalDamping)
{
    // T_vt = -ct lambda_n V_t and T_vn = -cn lambda_n V_n N (a = 1, mu = 0).
    cc_compliant_pair p = pair_with(0.0f, 0.3f, 0.2f, 0.0f, 1, 1);
    const float phi = -0.02f;
    float lam = lambda_of(p, phi);
    for (float vn : {-2.0f, -0.7f, 0.0f, 0.4f}) {
        cc_vec3 vt = cc_v3_add(cc_v3_scale(kT1, 0.05f), cc_v3_scale(kT2, -0.02f));
        cc_vec3 v = cc_v3_add(vt, cc_v3_scale(kG, vn));
        cc_vec3 d = dissipative(p, phi, nullptr, v);
        cc_vec3 expect =
            cc_v3_add(cc_v3_scale(kG, -0.2f * lam * vn), cc_v3_scale(vt, -0.3f * lam));
        EXPECT_TRUE(vec_near(d, expect, 1e-5 * lam)) << vn;
        // Normal damping: the G_B component is -cn lambda_n V_n.
        EXPECT_NEAR(cc_v3_dot(d, kG), -0.2 * lam * vn, 1e-5 * lam);
    }
}

TEST(CompliantTraction, FrictionAlongCollidingNormal)
{
    // friction_with_collider_normal = 0: the split uses N = -N_A. Checked
    // against a double transcription (1e-5 of the load), plus the property
    // that Coulomb and viscous friction are then orthogonal to N_A.
    const float phi = -0.02f;
    cc_vec3 na = at_angle(cc_v3_neg(kG), kT1, 30.0); // s = -cos 30
    cc_vec3 v = cc_v3(0.004f, -0.003f, 0.002f);
    for (int fade = 0; fade <= 1; ++fade) {
        cc_compliant_pair p = pair_with(0.5f, 0.3f, 0.2f, 0.0f, 0, fade);
        float lam = lambda_of(p, phi);
        double s = cc_v3_dot(kG, na);
        double a = fade ? (0.0 - s) / 1.0 : 1.0;
        double N[3] = {-na.x, -na.y, -na.z};
        double V[3] = {v.x, v.y, v.z};
        double vn = N[0] * V[0] + N[1] * V[1] + N[2] * V[2];
        double Vt[3] = {V[0] - vn * N[0], V[1] - vn * N[1], V[2] - vn * N[2]};
        double vt = std::sqrt(Vt[0] * Vt[0] + Vt[1] * Vt[1] + Vt[2] * Vt[2]);
        double r = vt < 0.01 ? 2 * vt / 0.01 - vt * vt / 1e-4 : 1.0;
        double lh = a * lam;
        double E[3];
        for (int i = 0; i < 3; ++i)
            E[i] = -0.2 * lh * vn * N[i] - 0.3 * lh * Vt[i] - 0.5 * lh * r * Vt[i] / vt;
        cc_vec3 d = dissipative(p, phi, &na, v);
        EXPECT_TRUE(vec_near(d, cc_v3((float)E[0], (float)E[1], (float)E[2]), 1e-5 * lam));
        // Tangential part (all but normal damping) is orthogonal to N_A.
        cc_vec3 tang = cc_v3_sub(d, cc_v3_scale(cc_v3_neg(na), (float)(-0.2 * lh * vn)));
        EXPECT_NEAR(cc_v3_dot(tang, na), 0.0, 1e-5 * lam);
        // With the collider normal the result differs.
        cc_compliant_pair q = p;
        q.friction_with_collider_normal = 1;
        EXPECT_FALSE(vec_near(dissipative(q, phi, &na, v), d, 1e-3 * lam));
        // Without N_A the setting cannot apply: falls back to G_B.
        EXPECT_TRUE(vec_near(dissipative(p, phi, nullptr, v), dissipative(q, phi, nullptr, v), 0.0));
    }
}

TEST(CompliantTraction, NoNaNForDegenerateInputs)
{
    cc_vec3 zero = cc_v3(0, 0, 0);
    cc_vec3 na = cc_v3_neg(kG);
    cc_compliant_pair base = pair_with(0.5f, 0.3f, 0.2f, 0.0f, 1, 1);
    for (int variant = 0; variant < 8; ++variant) {
        cc_compliant_pair p = base;
        if (variant == 1) p.vf = 0.0f;
        if (variant == 2) p.eps = 0.0f;
        if (variant == 3) p.delta = 0.0f;
        if (variant == 4) p.max_alignment = -1.0f;
        if (variant == 5) p.friction_with_collider_normal = 0;
        if (variant == 6) p.k = 0.0f;
        if (variant == 7) p.max_alignment = 1.0f;
        for (int fwcn = 0; fwcn <= 1; ++fwcn) {
            p.friction_with_collider_normal = variant == 5 ? 0 : fwcn;
            for (float phi : {-1.0f, -0.02f, -0.003f, 0.0f, 0.0009f}) {
                const cc_vec3 gs[] = {kG, zero};
                const cc_vec3 nas[] = {na, zero};
                const cc_vec3 vs[] = {zero, cc_v3_scale(kG, 1.0f), cc_v3_scale(kT1, 1e-30f),
                                      cc_v3(1, 2, 3)};
                for (cc_vec3 g : gs)
                    for (cc_vec3 n : nas)
                        for (cc_vec3 v : vs) {
                            EXPECT_TRUE(finite(cc_compliant_traction(&p, phi, g, &n, v)))
                                << variant << " " << phi;
                            EXPECT_TRUE(finite(cc_compliant_traction(&p, phi, g, nullptr, v)));
                        }
            }
        }
    }
}

TEST(CompliantTraction, RandomizedAgainstDoubleReference)
{
    // Random unit normals, velocities, parameters: float kernel vs double
    // transcription of the traction model, 2e-4 of the traction scale
    // lambda_n (1 + mu + cn |V_n| + ct |V_t|). Contacts within 1e-4 of the
    // rejection threshold s = m are skipped (the decision is discontinuous).
    std::mt19937 rng(1234);
    std::uniform_real_distribution<float> u(-1.0f, 1.0f);
    int checked = 0;
    for (int it = 0; it < 4000; ++it) {
        cc_compliant_pair p;
        p.k = 1e9f * (0.1f + std::fabs(u(rng)));
        p.eps = 0.005f * (0.2f + std::fabs(u(rng)));
        p.delta = 0.002f * std::fabs(u(rng));
        p.vf = 0.01f * (0.1f + std::fabs(u(rng)));
        p.mu = std::fabs(u(rng));
        p.ct = std::fabs(u(rng));
        p.cn = std::fabs(u(rng));
        p.max_alignment = u(rng);
        p.friction_with_collider_normal = it & 1;
        p.fade_friction = (it >> 1) & 1;
        float phi = p.delta - 4.0f * p.eps * std::fabs(u(rng));
        cc_vec3 g = unit(u(rng), u(rng), u(rng));
        cc_vec3 na = unit(u(rng), u(rng), u(rng));
        float vs = (it % 3 == 0) ? 0.02f : 2.0f; // around and above V_f
        cc_vec3 v = cc_v3(vs * u(rng), vs * u(rng), vs * u(rng));
        bool has_na = (it % 5) != 0;

        double G[3] = {g.x, g.y, g.z}, NA[3] = {na.x, na.y, na.z}, V[3] = {v.x, v.y, v.z};
        double pen = -(double)phi;
        double lam = p.k * ref_h(pen, p.eps, p.delta) * ref_dh(pen, p.eps, p.delta);
        double a = 1.0;
        double N[3] = {G[0], G[1], G[2]};
        bool rejected = false;
        if (has_na) {
            double s = G[0] * NA[0] + G[1] * NA[1] + G[2] * NA[2];
            if (std::fabs(s - p.max_alignment) < 1e-4) continue;
            rejected = s > p.max_alignment;
            if (p.fade_friction && p.max_alignment > -1.0f)
                a = (p.max_alignment - s) / (p.max_alignment + 1.0);
            if (!p.friction_with_collider_normal)
                for (int i = 0; i < 3; ++i) N[i] = -NA[i];
        }
        double E[3] = {0, 0, 0};
        double vn = N[0] * V[0] + N[1] * V[1] + N[2] * V[2];
        double Vt[3] = {V[0] - vn * N[0], V[1] - vn * N[1], V[2] - vn * N[2]};
        double vt = std::sqrt(Vt[0] * Vt[0] + Vt[1] * Vt[1] + Vt[2] * Vt[2]);
        if (!rejected && lam > 0) {
            double lh = a * lam;
            double r = vt < p.vf ? 2 * vt / p.vf - vt * vt / ((double)p.vf * p.vf) : 1.0;
            for (int i = 0; i < 3; ++i) {
                E[i] = lam * G[i] - p.cn * lh * vn * N[i] - p.ct * lh * Vt[i];
                if (vt > 0) E[i] -= p.mu * lh * r * Vt[i] / vt;
            }
        }
        double scale = lam * (1.0 + p.mu + p.cn * std::fabs(vn) + p.ct * vt);
        cc_vec3 t = cc_compliant_traction(&p, phi, g, has_na ? &na : nullptr, v);
        ASSERT_TRUE(vec_near(t, cc_v3((float)E[0], (float)E[1], (float)E[2]), 2e-4 * scale + 1e-3))
            << "iteration " << it;
        ++checked;
    }
    EXPECT_GT(checked, 3900);
}

// ---------------------------------------------------------------- penalty

cc_material material(float mu, float ke, float kd, float kf, float ka)
{
    cc_material m = cc_default_material();
    m.mu = mu;
    m.ke = ke;
    m.kd = kd;
    m.kf = kf;
    m.ka = ka;
    return m;
}

TEST(PenaltyCombine, ArithmeticMeans)
{
    cc_material a = material(0.2f, 1000.0f, 10.0f, 100.0f, 0.0f);
    cc_material b = material(0.6f, 3000.0f, 30.0f, 500.0f, 0.02f);
    cc_penalty_pair p = cc_penalty_combine(&a, &b);
    EXPECT_FLOAT_EQ(p.mu, 0.4f);
    EXPECT_EQ(p.ke, 2000.0f);
    EXPECT_EQ(p.kd, 20.0f);
    EXPECT_EQ(p.kf, 300.0f);
    EXPECT_EQ(p.ka, 0.01f);
    cc_penalty_pair q = cc_penalty_combine(&b, &a); // symmetric
    EXPECT_EQ(q.mu, p.mu);
    EXPECT_EQ(q.ke, p.ke);
    EXPECT_EQ(q.ka, p.ka);
}

cc_penalty_pair ppair(float ke, float kd, float kf, float ka, float mu)
{
    cc_penalty_pair p;
    p.ke = ke;
    p.kd = kd;
    p.kf = kf;
    p.ka = ka;
    p.mu = mu;
    return p;
}

const cc_vec3 kN = unit(0.0f, 0.6f, 0.8f);
const cc_vec3 kU = unit(1.0f, 0.0f, 0.0f);   // tangent of kN
const cc_vec3 kW = unit(0.0f, -0.8f, 0.6f);  // tangent of kN

TEST(PenaltyForce, NormalSpringRepulsiveAttractiveAndCutoff)
{
    cc_penalty_pair p = ppair(2000.0f, 50.0f, 300.0f, 0.02f, 0.5f);
    // d < 0: pushes shape 1 along +n with ke |d| (1e-6 relative).
    cc_vec3 f = cc_penalty_force(&p, -0.01f, kN, cc_v3(0, 0, 0));
    EXPECT_TRUE(vec_near(f, cc_v3_scale(kN, 20.0f), 2e-5));
    // 0 < d < ka: pulls shape 1 back with ke d, no damping or friction even
    // with approach and sliding velocity.
    cc_vec3 v = cc_v3_add(cc_v3_scale(kN, -3.0f), cc_v3_scale(kU, 5.0f));
    f = cc_penalty_force(&p, 0.01f, kN, v);
    EXPECT_TRUE(vec_near(f, cc_v3_scale(kN, -20.0f), 2e-5));
    // d >= ka: nothing.
    for (float d : {0.02f, 0.021f, 1.0f}) {
        f = cc_penalty_force(&p, d, kN, v);
        EXPECT_EQ(cc_v3_length(f), 0.0f) << d;
    }
    // ka = 0: no force at d = 0 or above, repulsion below.
    p.ka = 0.0f;
    EXPECT_EQ(cc_v3_length(cc_penalty_force(&p, 0.0f, kN, v)), 0.0f);
    EXPECT_EQ(cc_v3_length(cc_penalty_force(&p, 0.01f, kN, v)), 0.0f);
    EXPECT_GT(cc_v3_dot(cc_penalty_force(&p, -1e-4f, kN, cc_v3(0, 0, 0)), kN), 0.0f);
}

TEST(PenaltyForce, DampingOnlyWhenApproaching)
{
    cc_penalty_pair p = ppair(2000.0f, 50.0f, 0.0f, 0.0f, 0.5f);
    // Approaching (v_n = -2): f_d = -100, force along n = 20 + 100.
    cc_vec3 f = cc_penalty_force(&p, -0.01f, kN, cc_v3_scale(kN, -2.0f));
    EXPECT_TRUE(vec_near(f, cc_v3_scale(kN, 120.0f), 1e-4));
    // Separating (v_n = +2): spring only.
    f = cc_penalty_force(&p, -0.01f, kN, cc_v3_scale(kN, 2.0f));
    EXPECT_TRUE(vec_near(f, cc_v3_scale(kN, 20.0f), 2e-5));
}

TEST(PenaltyForce, FrictionViscousBelowCapCoulombAbove)
{
    cc_penalty_pair p = ppair(2000.0f, 50.0f, 300.0f, 0.0f, 0.5f);
    const float d = -0.01f; // f_n = -20
    cc_vec3 dir = cc_v3_normalize(cc_v3_add(cc_v3_scale(kU, 0.6f), cc_v3_scale(kW, -0.8f)));
    // Approaching at v_n = -1: |f_n + f_d| = 70, cap mu * 70 = 35; the
    // viscous branch kf |v_t| reaches it at |v_t| = 35/300.
    for (float vt : {0.01f, 0.1f, 35.0f / 300.0f * 0.999f, 0.2f, 10.0f}) {
        cc_vec3 v = cc_v3_add(cc_v3_scale(dir, vt), cc_v3_scale(kN, -1.0f));
        cc_vec3 f = cc_penalty_force(&p, d, kN, v);
        double expect_t = std::fmin(300.0 * vt, 35.0);
        // Normal part: 70 along n; tangential: opposite v_t (1e-5 relative).
        EXPECT_NEAR(cc_v3_dot(f, kN), 70.0, 1e-4);
        cc_vec3 ft = cc_v3_madd(f, kN, -cc_v3_dot(f, kN));
        EXPECT_TRUE(vec_near(ft, cc_v3_scale(dir, (float)-expect_t), 1e-5 * 35.0)) << vt;
    }
    // Separating: the cap uses |f_n| = 20 only.
    cc_vec3 f = cc_penalty_force(&p, d, kN, cc_v3_add(cc_v3_scale(dir, 10.0f), cc_v3_scale(kN, 1.0f)));
    cc_vec3 ft = cc_v3_madd(f, kN, -cc_v3_dot(f, kN));
    EXPECT_TRUE(vec_near(ft, cc_v3_scale(dir, -10.0f), 1e-4));
    // Zero tangential velocity: no friction, no NaN.
    f = cc_penalty_force(&p, d, kN, cc_v3_scale(kN, -1.0f));
    EXPECT_TRUE(vec_near(f, cc_v3_scale(kN, 70.0f), 1e-4));
    // kf = 0 disables friction.
    p.kf = 0.0f;
    f = cc_penalty_force(&p, d, kN, cc_v3_scale(dir, 3.0f));
    EXPECT_TRUE(vec_near(f, cc_v3_scale(kN, 20.0f), 2e-5));
}

TEST(PenaltyForce, NoNaNForDegenerateInputs)
{
    cc_penalty_pair p = ppair(2000.0f, 50.0f, 300.0f, 0.01f, 0.5f);
    const cc_vec3 ns[] = {kN, cc_v3(0, 0, 0)};
    const cc_vec3 vs[] = {cc_v3(0, 0, 0), cc_v3(1e-30f, 0, 0), cc_v3(1, 2, 3)};
    for (float d : {-1.0f, -1e-6f, 0.0f, 0.005f, 0.01f})
        for (cc_vec3 n : ns)
            for (cc_vec3 v : vs) EXPECT_TRUE(finite(cc_penalty_force(&p, d, n, v))) << d;
}

// ------------------------------------------------------------ restitution

TEST(Restitution, ClosedFormPoints)
{
    // e = 1: no damping; c_n = 0: e = 1.
    EXPECT_EQ(cc_restitution_damping(1.0f, 2.0f), 0.0f);
    EXPECT_EQ(cc_restitution_from_damping(0.0f, 2.0f), 1.0f);
    // e = 1/2, v = 1: (1/2)(13/4) / ((1/2)(7/3)) = 39/28.
    EXPECT_FLOAT_EQ(cc_restitution_damping(0.5f, 1.0f), 39.0f / 28.0f);
    EXPECT_FLOAT_EQ(cc_restitution_from_damping(39.0f / 28.0f, 1.0f), 0.5f);
    // c_n scales as 1/v.
    EXPECT_FLOAT_EQ(cc_restitution_damping(0.5f, 4.0f), 39.0f / 112.0f);
}

TEST(Restitution, Limits)
{
    // e -> 1: Hunt-Crossley c_n ~ 3(1-e)/(2v); the fit's relative deviation
    // is about 0.91 (1-e): bound |ratio - 1| <= (1-e).
    for (float v : {0.1f, 1.0f, 10.0f})
        for (float e : {0.99f, 0.999f, 0.9999f}) {
            double ratio = cc_restitution_damping(e, v) * v / (1.5 * (1.0f - e));
            EXPECT_NEAR(ratio, 1.0, (1.0f - e)) << e;
        }
    // e -> 0: e v ~ 1/c_n; c_n e v = 1 + 5e/6 + O(e^2): bound by e.
    for (float v : {0.1f, 1.0f, 10.0f})
        for (float e : {1e-2f, 1e-3f, 1e-4f}) {
            double prod = (double)cc_restitution_damping(e, v) * e * v;
            EXPECT_NEAR(prod, 1.0, e) << e;
            EXPECT_GT(prod, 1.0);
        }
}

TEST(Restitution, InverseRoundTrips)
{
    // e -> c_n -> e over e in [0.05, 1], v in [0.1, 10]: 1e-5 relative.
    double worst = 0.0;
    for (int i = 0; i <= 190; ++i) {
        float e = 0.05f + 0.005f * (float)i;
        if (i == 190) e = 1.0f;
        for (int j = 0; j <= 40; ++j) {
            float v = 0.1f * std::pow(100.0f, (float)j / 40.0f);
            float cn = cc_restitution_damping(e, v);
            ASSERT_GE(cn, 0.0f);
            float e2 = cc_restitution_from_damping(cn, v);
            ASSERT_GT(e2, 0.0f);
            ASSERT_LE(e2, 1.0f);
            worst = std::fmax(worst, std::fabs(e2 - e) / e);
            EXPECT_NEAR(e2, e, 1e-5 * e) << "e " << e << " v " << v;
        }
    }
    std::ostringstream worst_text;
    worst_text << worst;
    RecordProperty("worst_relative_error", worst_text.str());
    // Large damping: e ~ 1/(c_n v) without cancellation.
    float e = cc_restitution_from_damping(1e6f, 1.0f);
    EXPECT_NEAR(e * 1e6, 1.0, 1e-5);
    EXPECT_EQ(cc_restitution_from_damping(kInf, 1.0f), 0.0f);
}

TEST(Restitution, InvalidArgumentsAreNegative)
{
    for (float e : {0.0f, -0.1f, 1.0001f, 2.0f, kNaN, -kInf, kInf})
        EXPECT_LT(cc_restitution_damping(e, 1.0f), 0.0f) << e;
    for (float v : {0.0f, -1.0f, kNaN, -kInf}) {
        EXPECT_LT(cc_restitution_damping(0.5f, v), 0.0f) << v;
        EXPECT_LT(cc_restitution_from_damping(1.0f, v), 0.0f) << v;
    }
    for (float cn : {-1e-6f, -1.0f, kNaN, -kInf})
        EXPECT_LT(cc_restitution_from_damping(cn, 1.0f), 0.0f) << cn;
}

TEST(Restitution, PublicWrappersMatchKernels)
{
    // Same code; within 4 ulps only because the library (C) and this test
    // (C++) may differ in multiply-add contraction on FMA targets.
    for (float e : {0.1f, 0.5f, 0.9f})
        EXPECT_FLOAT_EQ(cc_restitution_damping(e, 2.0f), cc_restitution_damping_hd(e, 2.0f));
    for (float cn : {0.0f, 0.3f, 30.0f})
        EXPECT_FLOAT_EQ(cc_restitution_from_damping(cn, 2.0f),
                        cc_restitution_from_damping_hd(cn, 2.0f));
}

// --------------------------------------------------------------- defaults

TEST(MaterialDefaults, MaterialAndCompliantParams)
{
    cc_material m = cc_default_material();
    EXPECT_EQ(m.mu, 1.0f);
    EXPECT_EQ(m.ke, 2.5e3f);
    EXPECT_EQ(m.kd, 100.0f);
    EXPECT_EQ(m.kf, 1000.0f);
    EXPECT_EQ(m.ka, 0.0f);
    EXPECT_EQ(m.restitution, 0.0f);
    EXPECT_EQ(m.mu_torsional, 0.005f);
    EXPECT_EQ(m.mu_rolling, 0.0001f);
    EXPECT_EQ(m.kh, 1e10f);
    cc_compliant_params c = cc_default_compliant_params();
    EXPECT_EQ(c.penalty_coefficient, 1e9f);
    EXPECT_EQ(c.smoothing_half_distance, 0.005f);
    EXPECT_EQ(c.threshold, 0.001f);
    EXPECT_EQ(c.threshold_extra_padding, 0.0f);
    EXPECT_EQ(c.friction_falloff_velocity, 0.01f);
    EXPECT_EQ(c.coulomb_friction, 0.5f);
    EXPECT_EQ(c.viscous_friction, 0.0f);
    EXPECT_EQ(c.normal_damping, 0.0f);
    EXPECT_EQ(c.max_alignment, 0.0f);
    EXPECT_EQ(c.friction_with_collider_normal, 1);
    EXPECT_EQ(c.fade_friction, 1);
    EXPECT_EQ(c.is_collider, 1);
}

} // namespace
