// Contact reduction for mesh and heightfield pairs (kernels/contacts/reduction.h).
//
// Semantics under test (docs: "Contact Reduction", "Geometry-Pair Contact
// Behavior", mesh rows: reduced maximum 240 per pair):
// - raw contacts are binned by the nearest of the 20 icosahedron face
//   directions; each bin keeps its deepest contact (slot 0) and the
//   extremes of 11 in-plane directions (slots 1..11), by a 64-bit max on
//   (order-preserving score bits, fingerprint);
// - pass 1 votes every raw contact, pass 2 asks each whether it is kept:
//   a kept contact is emitted exactly once, with sub_key = bin * 12 + its
//   first winning slot, so at most 12 per bin and 240 per pair are kept and
//   sub-keys are unique;
// - the kept set and sub-keys depend only on the raw contact set, not on
//   the order of either pass;
// - a flat footprint (square, disk, L) keeps >= 90% of its raw hull area,
//   however finely the supporting mesh is tessellated;
// - non-finite contacts never vote and are never kept.
// The two passes are simulated on the CPU with the host definitions of the
// kernel bodies (the same code nvcc compiles for the GPU).
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <limits>
#include <map>
#include <numeric>
#include <random>
#include <set>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include "kernels/contacts/reduction.h"

namespace {

struct Raw {
    cc_vec3 p;
    cc_vec3 n;
    float d;
    unsigned fp;
};

struct Kept {
    unsigned fp;
    int sub_key;
    bool operator<(const Kept& o) const { return fp != o.fp ? fp < o.fp : sub_key < o.sub_key; }
    bool operator==(const Kept& o) const { return fp == o.fp && sub_key == o.sub_key; }
};

struct Result {
    std::vector<unsigned long long> slots;
    std::vector<Kept> kept;     // in pass-2 order
    std::vector<size_t> index;  // raw index of each kept contact
};

// Pass 1 in order1, pass 2 in order2 (identity when empty).
Result reduce(const std::vector<Raw>& raw, std::vector<size_t> order1 = {}, std::vector<size_t> order2 = {})
{
    if (order1.empty()) {
        order1.resize(raw.size());
        std::iota(order1.begin(), order1.end(), size_t(0));
    }
    if (order2.empty()) {
        order2.resize(raw.size());
        std::iota(order2.begin(), order2.end(), size_t(0));
    }
    Result r;
    r.slots.assign(CC_REDUCE_SLOTS, 0xdeadbeefull);
    cc_reduce_clear(r.slots.data());
    for (size_t i : order1) cc_reduce_vote(r.slots.data(), raw[i].p, raw[i].n, raw[i].d, raw[i].fp);
    for (size_t i : order2) {
        int sub = -7;
        if (cc_reduce_kept(r.slots.data(), raw[i].p, raw[i].n, raw[i].d, raw[i].fp, &sub)) {
            r.kept.push_back({raw[i].fp, sub});
            r.index.push_back(i);
        }
    }
    return r;
}

std::vector<Kept> sorted_kept(const Result& r)
{
    std::vector<Kept> k = r.kept;
    std::sort(k.begin(), k.end());
    return k;
}

// Index of the deepest raw contact (ties: larger fingerprint), finite ones only.
size_t deepest(const std::vector<Raw>& raw)
{
    size_t best = SIZE_MAX;
    for (size_t i = 0; i < raw.size(); ++i) {
        if (!cc_reduce_contact_valid(raw[i].p, raw[i].n, raw[i].d)) continue;
        if (best == SIZE_MAX || raw[i].d < raw[best].d || (raw[i].d == raw[best].d && raw[i].fp > raw[best].fp))
            best = i;
    }
    return best;
}

// Checks shared by every set: bounds, unique sub-keys, each kept contact
// held by the slot its sub-key names, one per non-empty slot at most,
// deepest kept.
void check_invariants(const std::vector<Raw>& raw, const Result& r)
{
    ASSERT_LE(r.kept.size(), size_t(CC_REDUCE_SLOTS));
    std::set<int> subs;
    std::set<unsigned> fps;
    std::vector<int> per_bin(CC_REDUCE_BINS, 0);
    for (size_t k = 0; k < r.kept.size(); ++k) {
        const Raw& c = raw[r.index[k]];
        int sub = r.kept[k].sub_key;
        ASSERT_GE(sub, 0);
        ASSERT_LT(sub, CC_REDUCE_SLOTS);
        EXPECT_TRUE(subs.insert(sub).second) << "duplicate sub_key " << sub;
        EXPECT_TRUE(fps.insert(c.fp).second) << "contact emitted twice: fp " << c.fp;
        EXPECT_EQ(sub / CC_REDUCE_SLOTS_PER_BIN, cc_reduce_bin(c.n));
        EXPECT_EQ(unsigned(r.slots[sub] & 0xffffffffull), c.fp);
        per_bin[sub / CC_REDUCE_SLOTS_PER_BIN]++;
    }
    for (int b = 0; b < CC_REDUCE_BINS; ++b) EXPECT_LE(per_bin[b], CC_REDUCE_SLOTS_PER_BIN);
    // Every non-empty slot's holder is emitted (with this or an earlier slot).
    std::set<unsigned> holders;
    for (int s = 0; s < CC_REDUCE_SLOTS; ++s)
        if (r.slots[s] != 0) holders.insert(unsigned(r.slots[s] & 0xffffffffull));
    EXPECT_EQ(holders, fps);
    size_t dp = deepest(raw);
    if (dp != SIZE_MAX) {
        EXPECT_EQ(fps.count(raw[dp].fp), 1u) << "deepest contact not kept";
        for (size_t k = 0; k < r.kept.size(); ++k) {
            if (r.index[k] == dp) {
                EXPECT_EQ(r.kept[k].sub_key % CC_REDUCE_SLOTS_PER_BIN, 0);
            }
        }
    }
}

// ---------------------------------------------------------------- 2-D hull

struct P2 {
    double x, y;
};

double cross2(P2 o, P2 a, P2 b) { return (a.x - o.x) * (b.y - o.y) - (a.y - o.y) * (b.x - o.x); }

double hull_area(std::vector<P2> p)
{
    if (p.size() < 3) return 0.0;
    std::sort(p.begin(), p.end(), [](P2 a, P2 b) { return a.x != b.x ? a.x < b.x : a.y < b.y; });
    std::vector<P2> h(2 * p.size());
    size_t k = 0;
    for (size_t i = 0; i < p.size(); ++i) {
        while (k >= 2 && cross2(h[k - 2], h[k - 1], p[i]) <= 0) k--;
        h[k++] = p[i];
    }
    for (size_t i = p.size() - 1, t = k + 1; i > 0; --i) {
        while (k >= t && cross2(h[k - 2], h[k - 1], p[i - 1]) <= 0) k--;
        h[k++] = p[i - 1];
    }
    h.resize(k - 1);
    double a = 0;
    for (size_t i = 0; i < h.size(); ++i) {
        const P2& u = h[i];
        const P2& v = h[(i + 1) % h.size()];
        a += u.x * v.y - v.x * u.y;
    }
    return 0.5 * std::fabs(a);
}

// ------------------------------------------------------------ patch builder

// A flat patch: 2-D sample points (patch coordinates) mapped to 3-D with
// origin o and orthonormal in-plane axes e1, e2; all normals n.
struct Patch {
    std::vector<Raw> raw;
    std::vector<P2> uv;  // patch coordinates of raw[i]
};

cc_vec3 add3(cc_vec3 o, cc_vec3 a, double s, cc_vec3 b, double t)
{
    return cc_v3(float(o.x + a.x * s + b.x * t), float(o.y + a.y * s + b.y * t), float(o.z + a.z * s + b.z * t));
}

// In-plane axes for normal n, rotated by angle about n.
void plane_axes(cc_vec3 n, double angle, cc_vec3* e1, cc_vec3* e2)
{
    double nx = n.x, ny = n.y, nz = n.z;
    double ax = std::fabs(nx) < 0.6 ? 1 : 0, ay = ax ? 0 : 1, az = 0;
    // t = normalize(a - (a.n) n)
    double an = ax * nx + ay * ny + az * nz;
    double tx = ax - an * nx, ty = ay - an * ny, tz = az - an * nz;
    double tl = std::sqrt(tx * tx + ty * ty + tz * tz);
    tx /= tl, ty /= tl, tz /= tl;
    double bx = ny * tz - nz * ty, by = nz * tx - nx * tz, bz = nx * ty - ny * tx;
    double c = std::cos(angle), s = std::sin(angle);
    *e1 = cc_v3(float(c * tx + s * bx), float(c * ty + s * by), float(c * tz + s * bz));
    *e2 = cc_v3(float(-s * tx + c * bx), float(-s * ty + c * by), float(-s * tz + c * bz));
}

// Grid of (cells+1)^2 nodes over [-h, h]^2 with spacing 2h/cells, filtered
// by inside(x, y); depth -1 mm with +-0.1 mm noise; fingerprint i*8+3.
template <class Inside>
Patch make_patch(int cells, double h, Inside inside, cc_vec3 n, double angle, cc_vec3 origin, unsigned seed)
{
    Patch pt;
    cc_vec3 e1, e2;
    plane_axes(n, angle, &e1, &e2);
    std::mt19937 rng(seed);
    std::uniform_real_distribution<float> noise(-1.0e-4f, 1.0e-4f);
    unsigned idx = 0;
    for (int i = 0; i <= cells; ++i) {
        for (int j = 0; j <= cells; ++j) {
            double x = -h + 2 * h * i / cells, y = -h + 2 * h * j / cells;
            if (!inside(x, y)) continue;
            Raw r;
            r.p = add3(origin, e1, x, e2, y);
            r.n = n;
            r.d = -1.0e-3f + noise(rng);
            r.fp = idx++ * 8u + 3u;
            pt.raw.push_back(r);
            pt.uv.push_back({x, y});
        }
    }
    return pt;
}

double coverage(const Patch& pt, const Result& r)
{
    std::vector<P2> kept;
    for (size_t i : r.index) kept.push_back(pt.uv[i]);
    return hull_area(kept) / hull_area(pt.uv);
}

cc_vec3 unit(double x, double y, double z)
{
    double l = std::sqrt(x * x + y * y + z * z);
    return cc_v3(float(x / l), float(y / l), float(z / l));
}

std::vector<size_t> shuffled(size_t n, std::mt19937& rng)
{
    std::vector<size_t> o(n);
    std::iota(o.begin(), o.end(), size_t(0));
    std::shuffle(o.begin(), o.end(), rng);
    return o;
}

// Patch normals: up, down, a wall, and two tilted ones (not bin centres).
const cc_vec3 kPatchNormals[] = {cc_v3(0, 0, 1), cc_v3(0, 0, -1), cc_v3(1, 0, 0), unit(0.2, -0.1, 1.0),
                                 unit(-0.3, 0.9, 0.25)};

// ------------------------------------------------------------------- tests

TEST(ContactReduction, LayoutConstants)
{
    EXPECT_EQ(CC_REDUCE_BINS, 20);
    EXPECT_EQ(CC_REDUCE_SLOTS_PER_BIN, 12);
    EXPECT_EQ(CC_REDUCE_SLOTS, CC_REDUCE_BINS * CC_REDUCE_SLOTS_PER_BIN);
    EXPECT_EQ(CC_REDUCE_SLOTS, 240);
}

TEST(ContactReduction, BinDirectionsAreIcosahedronFaces)
{
    double min_angle = 180;
    for (int b = 0; b < CC_REDUCE_BINS; ++b) {
        cc_vec3 n = cc_reduce_bin_direction(b);
        EXPECT_NEAR(cc_v3_length(n), 1.0f, 1e-6f);
        EXPECT_EQ(cc_reduce_bin(n), b);
        // Centrally symmetric: the opposite direction is another face.
        int opp = cc_reduce_bin(cc_v3_neg(n));
        EXPECT_NEAR(cc_v3_dot(cc_reduce_bin_direction(opp), n), -1.0f, 1e-6f);
        cc_vec3 u, v;
        cc_reduce_bin_frame(b, &u, &v);
        EXPECT_NEAR(cc_v3_length(u), 1.0f, 1e-6f);
        EXPECT_NEAR(cc_v3_length(v), 1.0f, 1e-6f);
        EXPECT_NEAR(cc_v3_dot(u, n), 0.0f, 1e-6f);
        EXPECT_NEAR(cc_v3_dot(v, n), 0.0f, 1e-6f);
        EXPECT_NEAR(cc_v3_dot(u, v), 0.0f, 1e-6f);
        // Right-handed (u, v, n).
        EXPECT_NEAR(cc_v3_dot(cc_v3_cross(u, v), n), 1.0f, 1e-6f);
        for (int c = 0; c < b; ++c) {
            double d = cc_v3_dot(n, cc_reduce_bin_direction(c));
            min_angle = std::min(min_angle, std::acos(std::min(1.0, d)) * 180 / M_PI);
        }
    }
    // Neighbouring face normals of a regular icosahedron: 41.81 degrees.
    EXPECT_NEAR(min_angle, 41.81, 0.01);
    // Axis normals fall on bin centres, not between two bins.
    EXPECT_EQ(cc_reduce_bin(cc_v3(0, 0, 1)), 0);
    EXPECT_EQ(cc_reduce_bin(cc_v3(0, 0, -1)), 19);
    EXPECT_EQ(cc_reduce_bin(cc_v3(1, 0, 0)), 4);
    EXPECT_EQ(cc_reduce_bin(cc_v3(-1, 0, 0)), 13);
    EXPECT_EQ(cc_reduce_bin(cc_v3(0, 1, 0)), 5);
    EXPECT_EQ(cc_reduce_bin(cc_v3(0, -1, 0)), 14);
    // A normal within 20 degrees of +z stays in the +z bin.
    for (int a = 0; a < 36; ++a) {
        double t = 20.0 * M_PI / 180, phi = a * 10.0 * M_PI / 180;
        EXPECT_EQ(cc_reduce_bin(unit(std::sin(t) * std::cos(phi), std::sin(t) * std::sin(phi), std::cos(t))), 0);
    }
    // Scale does not matter.
    EXPECT_EQ(cc_reduce_bin(cc_v3(0, 0, 1e-3f)), 0);
    EXPECT_EQ(cc_reduce_bin(cc_v3(0, 5, 0)), 5);
}

TEST(ContactReduction, BinTiesAndNonFiniteNormals)
{
    // All dot products equal: the lowest index.
    EXPECT_EQ(cc_reduce_bin(cc_v3(0, 0, 0)), 0);
    const float nan = std::numeric_limits<float>::quiet_NaN();
    const float inf = std::numeric_limits<float>::infinity();
    const cc_vec3 bad[] = {cc_v3(nan, 0, 1), cc_v3(0, nan, 0), cc_v3(nan, nan, nan), cc_v3(inf, 0, 0),
                           cc_v3(-inf, inf, 0), cc_v3(inf, inf, inf)};
    for (cc_vec3 n : bad) {
        int b = cc_reduce_bin(n);
        EXPECT_GE(b, 0);
        EXPECT_LT(b, CC_REDUCE_BINS);
        EXPECT_EQ(cc_reduce_bin(n), b);  // deterministic
    }
    EXPECT_EQ(cc_reduce_bin(cc_v3(nan, nan, nan)), 0);
}

TEST(ContactReduction, OrderBitsPreserveOrderAndKeysAreNeverZero)
{
    const float inf = std::numeric_limits<float>::infinity();
    const float vals[] = {-inf, -3.0e38f, -1.0f, -1e-30f, -1e-45f, -0.0f, 0.0f, 1e-45f, 1e-30f, 1.0f, 3.0e38f, inf};
    for (size_t i = 0; i + 1 < sizeof vals / sizeof vals[0]; ++i)
        EXPECT_LE(cc_float_order_bits(vals[i]), cc_float_order_bits(vals[i + 1])) << vals[i];
    EXPECT_LT(cc_float_order_bits(-1.0f), cc_float_order_bits(-0.5f));
    EXPECT_GT(cc_float_order_bits(-inf), 0u);
    // Fingerprint 0 and the lowest score still give a non-zero key.
    for (int j = 0; j < CC_REDUCE_SLOTS_PER_BIN; ++j) {
        EXPECT_NE(cc_reduce_slot_key(j, -3.0e38f, -3.0e38f, 3.0e38f, 0u), 0ull);
        EXPECT_NE(cc_reduce_slot_key(j, 0.0f, 0.0f, 0.0f, 0u), 0ull);
    }
    // Slot 0 ranks by depth, ties to the larger fingerprint.
    EXPECT_GT(cc_reduce_slot_key(0, 0, 0, -0.002f, 1u), cc_reduce_slot_key(0, 5, 5, -0.001f, 9u));
    EXPECT_GT(cc_reduce_slot_key(0, 0, 0, -0.001f, 9u), cc_reduce_slot_key(0, 0, 0, -0.001f, 8u));
    // Extreme slot 1 (scan direction u): further along u wins; equally far,
    // the deeper one; equally deep, the larger fingerprint.
    EXPECT_GT(cc_reduce_slot_key(1, 0.5f, 0, 0.0f, 1u), cc_reduce_slot_key(1, 0.4f, 0, -0.5f, 2u));
    EXPECT_GT(cc_reduce_slot_key(1, 0.5f, 0, -0.002f, 1u), cc_reduce_slot_key(1, 0.5f, 0, -0.001f, 2u));
    EXPECT_GT(cc_reduce_slot_key(1, 0.5f, 0, -0.001f, 2u), cc_reduce_slot_key(1, 0.5f, 0, -0.001f, 1u));
}

TEST(ContactReduction, SingleContactIsKeptOnceWithSlotZero)
{
    std::vector<Raw> raw = {{cc_v3(0.1f, 0.2f, 0.3f), cc_v3(0, 0, 1), -0.01f, 42u}};
    Result r = reduce(raw);
    ASSERT_EQ(r.kept.size(), 1u);
    EXPECT_EQ(r.kept[0].sub_key, 0);  // bin 0, slot 0 first
    int n = 0;
    for (unsigned long long s : r.slots) n += s != 0;
    EXPECT_EQ(n, CC_REDUCE_SLOTS_PER_BIN);  // it holds all 12 slots of its bin
    // Not voted: nothing kept, sub_key untouched.
    std::vector<unsigned long long> empty(CC_REDUCE_SLOTS, 0ull);
    int sub = -5;
    EXPECT_EQ(cc_reduce_kept(empty.data(), raw[0].p, raw[0].n, raw[0].d, raw[0].fp, &sub), 0);
    EXPECT_EQ(sub, -5);
}

// A box face resting on a finely tessellated plane: a 40x40 grid.
TEST(ContactReduction, FlatSquarePatch)
{
    std::mt19937 rng(7);
    std::uniform_real_distribution<double> ang(0, 2 * M_PI);
    double worst = 1;
    for (cc_vec3 n : kPatchNormals) {
        for (int rot = 0; rot < 4; ++rot) {
            double angle = rot == 0 ? 0.0 : ang(rng);
            Patch pt = make_patch(39, 0.25, [](double, double) { return true; }, n, angle,
                                  cc_v3(0.4f, -0.3f, 0.05f), 100 + rot);
            ASSERT_EQ(pt.raw.size(), 1600u);
            int bin = cc_reduce_bin(n);
            for (const Raw& c : pt.raw) ASSERT_EQ(cc_reduce_bin(c.n), bin);
            Result r = reduce(pt.raw);
            check_invariants(pt.raw, r);
            EXPECT_LE(r.kept.size(), size_t(CC_REDUCE_SLOTS_PER_BIN));
            EXPECT_GE(r.kept.size(), 4u);
            double cov = coverage(pt, r);
            EXPECT_GE(cov, 0.90) << "normal " << n.x << "," << n.y << "," << n.z << " angle " << angle;
            worst = std::min(worst, cov);
        }
    }
    std::printf("square 40x40: worst hull coverage %.4f\n", worst);
}

TEST(ContactReduction, FlatDiskPatch)
{
    std::mt19937 rng(8);
    std::uniform_real_distribution<double> ang(0, 2 * M_PI);
    double worst = 1;
    size_t raw_n = 0, kept_max = 0;
    for (cc_vec3 n : kPatchNormals) {
        for (int rot = 0; rot < 4; ++rot) {
            Patch pt = make_patch(40, 0.2, [](double x, double y) { return x * x + y * y <= 0.2 * 0.2 + 1e-12; },
                                  n, ang(rng), cc_v3(-0.2f, 0.7f, 0.1f), 200 + rot);
            raw_n = pt.raw.size();
            Result r = reduce(pt.raw);
            check_invariants(pt.raw, r);
            EXPECT_LE(r.kept.size(), size_t(CC_REDUCE_SLOTS_PER_BIN));
            kept_max = std::max(kept_max, r.kept.size());
            double cov = coverage(pt, r);
            EXPECT_GE(cov, 0.90);
            worst = std::min(worst, cov);
        }
    }
    std::printf("disk (%zu raw): worst hull coverage %.4f, kept <= %zu\n", raw_n, worst, kept_max);
}

TEST(ContactReduction, FlatLShapedPatch)
{
    std::mt19937 rng(9);
    std::uniform_real_distribution<double> ang(0, 2 * M_PI);
    double worst = 1;
    size_t raw_n = 0;
    for (cc_vec3 n : kPatchNormals) {
        for (int rot = 0; rot < 4; ++rot) {
            // [-0.3, 0.3]^2 minus the upper-right quadrant.
            Patch pt = make_patch(40, 0.3, [](double x, double y) { return !(x > 1e-9 && y > 1e-9); }, n, ang(rng),
                                  cc_v3(0.0f, 0.0f, 0.0f), 300 + rot);
            raw_n = pt.raw.size();
            Result r = reduce(pt.raw);
            check_invariants(pt.raw, r);
            EXPECT_LE(r.kept.size(), size_t(CC_REDUCE_SLOTS_PER_BIN));
            double cov = coverage(pt, r);
            EXPECT_GE(cov, 0.90);
            worst = std::min(worst, cov);
        }
    }
    std::printf("L (%zu raw): worst hull coverage %.4f\n", raw_n, worst);
}

// Far from the reference point (mesh origin 50 m away): float rounding of
// the projections must not break coverage.
TEST(ContactReduction, FlatPatchFarFromReference)
{
    Patch pt = make_patch(39, 0.25, [](double, double) { return true; }, cc_v3(0, 0, 1), 0.3,
                          cc_v3(50.0f, -30.0f, 2.0f), 400);
    Result r = reduce(pt.raw);
    check_invariants(pt.raw, r);
    EXPECT_LE(r.kept.size(), size_t(CC_REDUCE_SLOTS_PER_BIN));
    EXPECT_GE(coverage(pt, r), 0.90);
}

// Sphere cap: normals spread over several bins.
std::vector<Raw> sphere_cap(int rings, int sectors, double half_angle, unsigned seed)
{
    std::mt19937 rng(seed);
    std::uniform_real_distribution<float> depth(-4.0e-3f, 0.0f);
    std::vector<Raw> raw;
    const double R = 0.5;
    unsigned idx = 0;
    for (int i = 0; i <= rings; ++i) {
        double t = half_angle * i / rings;
        int ns = i == 0 ? 1 : sectors;
        for (int j = 0; j < ns; ++j) {
            double phi = 2 * M_PI * j / ns;
            cc_vec3 n = unit(std::sin(t) * std::cos(phi), std::sin(t) * std::sin(phi), std::cos(t));
            Raw r;
            r.p = cc_v3(float(0.1 + R * n.x), float(-0.2 + R * n.y), float(0.3 + R * n.z));
            r.n = n;
            r.d = depth(rng);
            r.fp = idx++ * 8u + 1u;
            raw.push_back(r);
        }
    }
    return raw;
}

TEST(ContactReduction, CurvedPatch)
{
    std::vector<Raw> raw = sphere_cap(60, 120, 70.0 * M_PI / 180, 11);
    std::set<int> bins;
    for (const Raw& c : raw) bins.insert(cc_reduce_bin(c.n));
    EXPECT_GE(bins.size(), 6u);
    Result r = reduce(raw);
    check_invariants(raw, r);
    std::set<int> kept_bins;
    for (const Kept& k : r.kept) kept_bins.insert(k.sub_key / CC_REDUCE_SLOTS_PER_BIN);
    EXPECT_EQ(kept_bins, bins);  // every occupied bin keeps something
    EXPECT_LE(r.kept.size(), bins.size() * CC_REDUCE_SLOTS_PER_BIN);
    std::printf("sphere cap: %zu raw over %zu bins -> %zu kept\n", raw.size(), bins.size(), r.kept.size());
}

std::vector<Raw> random_soup(size_t n, unsigned seed)
{
    std::mt19937 rng(seed);
    std::normal_distribution<double> g(0, 1);
    std::uniform_real_distribution<float> pos(-1.0f, 1.0f), dist(-0.05f, 0.02f);
    std::vector<Raw> raw(n);
    std::vector<unsigned> fps(n);
    std::iota(fps.begin(), fps.end(), 0u);
    std::shuffle(fps.begin(), fps.end(), rng);
    for (size_t i = 0; i < n; ++i) {
        raw[i].p = cc_v3(pos(rng), pos(rng), pos(rng));
        raw[i].n = unit(g(rng), g(rng), g(rng));
        raw[i].d = dist(rng);
        raw[i].fp = fps[i] * 8u + unsigned(i % 5);
    }
    return raw;
}

TEST(ContactReduction, RandomSoup)
{
    for (size_t n : {size_t(50), size_t(1000), size_t(20000)}) {
        std::vector<Raw> raw = random_soup(n, 12 + unsigned(n));
        Result r = reduce(raw);
        check_invariants(raw, r);
        EXPECT_LE(r.kept.size(), size_t(CC_REDUCE_SLOTS));
        if (n == 20000) {
            EXPECT_GT(r.kept.size(), size_t(CC_REDUCE_SLOTS) / 2);  // every bin is busy
        }
        std::printf("soup: %zu raw -> %zu kept\n", n, r.kept.size());
    }
}

// Duplicate points (a vertex shared by several triangles, each reporting
// it with its own fingerprint): ties go to the larger fingerprint, and
// still one contact per slot.
TEST(ContactReduction, CoincidentPointsTieOnFingerprint)
{
    std::vector<Raw> raw;
    for (unsigned k = 0; k < 6; ++k) raw.push_back({cc_v3(0.2f, 0.1f, 0.0f), cc_v3(0, 0, 1), -0.002f, 100u + k * 8u});
    raw.push_back({cc_v3(-0.2f, -0.1f, 0.0f), cc_v3(0, 0, 1), -0.001f, 7u});
    Result r = reduce(raw);
    check_invariants(raw, r);
    std::vector<Kept> k = sorted_kept(r);
    ASSERT_EQ(k.size(), 2u);
    EXPECT_EQ(k[0].fp, 7u);
    EXPECT_EQ(k[1].fp, 140u);
    EXPECT_EQ(k[1].sub_key, 0);
}

// Pass 1 in one shuffled order, pass 2 in another: same slots, same kept
// set, same sub-keys.
TEST(ContactReduction, IndependentOfThreadOrder)
{
    std::vector<std::vector<Raw>> sets;
    sets.push_back(make_patch(39, 0.25, [](double, double) { return true; }, cc_v3(0, 0, 1), 0.0,
                              cc_v3(0.4f, -0.3f, 0.05f), 500)
                       .raw);
    sets.push_back(sphere_cap(40, 80, 70.0 * M_PI / 180, 501));
    sets.push_back(random_soup(5000, 502));
    std::mt19937 rng(503);
    for (const std::vector<Raw>& raw : sets) {
        Result base = reduce(raw);
        std::vector<Kept> want = sorted_kept(base);
        for (int t = 0; t < 20; ++t) {
            Result r = reduce(raw, shuffled(raw.size(), rng), shuffled(raw.size(), rng));
            EXPECT_EQ(r.slots, base.slots);
            EXPECT_EQ(sorted_kept(r), want) << "shuffle " << t;
        }
    }
}

// A box face (0.4 x 0.4) resting on a plane tessellated into n x n cells of
// two triangles; every triangle under the face reports its three vertices
// (a shared vertex is reported once per triangle, fingerprint tri*8 + k).
TEST(ContactReduction, TessellationDoesNotGrowReducedCount)
{
    std::mt19937 rng(600);
    std::uniform_real_distribution<float> noise(-5.0e-5f, 5.0e-5f);
    size_t prev_raw = 0;
    for (int cells : {10, 20, 40, 80}) {
        const double h = 0.2;
        std::vector<Raw> raw;
        std::vector<P2> uv;
        // Per-vertex depth (identical for every triangle that shares it).
        std::vector<float> depth((cells + 1) * (cells + 1));
        for (float& d : depth) d = -1.0e-3f + noise(rng);
        for (int i = 0; i < cells; ++i) {
            for (int j = 0; j < cells; ++j) {
                int v00 = i * (cells + 1) + j, v10 = v00 + cells + 1, v01 = v00 + 1, v11 = v10 + 1;
                int tris[2][3] = {{v00, v10, v11}, {v00, v11, v01}};
                for (int t = 0; t < 2; ++t) {
                    unsigned tri = unsigned((i * cells + j) * 2 + t);
                    for (int k = 0; k < 3; ++k) {
                        int v = tris[t][k];
                        double x = -h + 2 * h * (v / (cells + 1)) / cells, y = -h + 2 * h * (v % (cells + 1)) / cells;
                        raw.push_back(
                            {cc_v3(float(x), float(y), 0.0f), cc_v3(0, 0, 1), depth[v], tri * 8u + unsigned(k)});
                        uv.push_back({x, y});
                    }
                }
            }
        }
        EXPECT_GT(raw.size(), prev_raw);
        prev_raw = raw.size();
        Result r = reduce(raw);
        check_invariants(raw, r);
        EXPECT_LE(r.kept.size(), size_t(CC_REDUCE_SLOTS_PER_BIN));
        std::vector<P2> kept;
        for (size_t i : r.index) kept.push_back(uv[i]);
        double cov = hull_area(kept) / hull_area(uv);
        EXPECT_GE(cov, 0.90);
        std::printf("grid %dx%d: %zu raw -> %zu kept, hull coverage %.4f\n", cells, cells, raw.size(), r.kept.size(),
                    cov);
    }
}

// Non-finite contacts never vote and are never kept: the result equals the
// result without them, in any order.
TEST(ContactReduction, NonFiniteContactsAreIgnored)
{
    const float nan = std::numeric_limits<float>::quiet_NaN();
    const float inf = std::numeric_limits<float>::infinity();
    std::vector<Raw> good = random_soup(2000, 700);
    std::vector<Raw> bad = {
        {cc_v3(0, 0, 0), cc_v3(0, 0, 1), nan, 0xfffffff0u},
        {cc_v3(0, 0, 0), cc_v3(0, 0, 1), -inf, 0xfffffff1u},
        {cc_v3(0, 0, 0), cc_v3(nan, 0, 1), -1.0f, 0xfffffff2u},
        {cc_v3(0, 0, 0), cc_v3(nan, nan, nan), -1.0f, 0xfffffff3u},
        {cc_v3(nan, 0, 0), cc_v3(0, 0, 1), -1.0f, 0xfffffff4u},
        {cc_v3(inf, 0, 0), cc_v3(0, 0, 1), -1.0f, 0xfffffff5u},
        {cc_v3(0, -inf, 0), cc_v3(1, 0, 0), -1.0f, 0xfffffff6u},
        {cc_v3(0, 0, 0), cc_v3(inf, 0, 0), -1.0f, 0xfffffff7u},
        {cc_v3(-0.5f, 0.5f, 0), cc_v3(0, 0, 1), -nan, 0xfffffff8u},
    };
    for (const Raw& c : bad) {
        EXPECT_FALSE(cc_reduce_contact_valid(c.p, c.n, c.d));
    }
    std::vector<Raw> mixed = good;
    mixed.insert(mixed.end(), bad.begin(), bad.end());
    Result want = reduce(good);
    std::vector<Kept> want_kept = sorted_kept(want);
    std::mt19937 rng(701);
    for (int t = 0; t < 20; ++t) {
        Result r = reduce(mixed, shuffled(mixed.size(), rng), shuffled(mixed.size(), rng));
        EXPECT_EQ(r.slots, want.slots);
        EXPECT_EQ(sorted_kept(r), want_kept);
        for (size_t i : r.index) EXPECT_LT(i, good.size());
    }
    // Even against filled slots a non-finite contact is not kept.
    for (const Raw& c : bad) {
        int sub = -3;
        EXPECT_EQ(cc_reduce_kept(want.slots.data(), c.p, c.n, c.d, c.fp, &sub), 0);
        EXPECT_EQ(sub, -3);
    }
    // Only non-finite contacts: nothing voted, nothing kept.
    Result none = reduce(bad);
    for (unsigned long long s : none.slots) EXPECT_EQ(s, 0ull);
    EXPECT_TRUE(none.kept.empty());
}

// Finite but huge coordinates overflow the projections (inf - inf = NaN in
// some slots): no crash, bounds hold, deterministic.
TEST(ContactReduction, HugeCoordinatesStayDeterministic)
{
    std::vector<Raw> raw = random_soup(300, 800);
    for (unsigned k = 0; k < 40; ++k) {
        float s = (k & 1) ? 3.0e38f : -3.0e38f;
        raw.push_back({cc_v3(s, -s, (k & 2) ? s : 0.0f), unit(1, 1, 0.1 * k), -3.0e38f, 0x10000000u + k});
    }
    Result base = reduce(raw);
    check_invariants(raw, base);
    std::mt19937 rng(801);
    for (int t = 0; t < 20; ++t) {
        Result r = reduce(raw, shuffled(raw.size(), rng), shuffled(raw.size(), rng));
        EXPECT_EQ(r.slots, base.slots);
        EXPECT_EQ(sorted_kept(r), sorted_kept(base));
    }
}

}  // namespace
