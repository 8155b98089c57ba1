// Contact matching across passes (CC_MATCHING_LATEST and CC_MATCHING_STICKY)
// and the new/broken contact reports.
//
// Semantics under test (docs: "Contact Matching", "Contact Reports"):
// - match_index[i] is the row of the previous pass's buffer (whichever
//   buffer that pass wrote) that row i continues, or -1 for a new contact;
//   match_generation is that buffer's generation when the previous pass
//   wrote this buffer, else -1; generation counts the passes that wrote it.
// - A candidate has the same shape pair, normal dot >= the normal threshold
//   and distance <= the position threshold; latest measures the world
//   midpoint 0.5 (world(point0) + world(point1)), sticky the larger distance
//   between each saved body-frame witness moved by its body's current pose
//   and the fresh point. Each row takes its closest candidate; one previous
//   row goes to the closest claimant, ties to the lower row.
// - Sticky replays the previous body-frame points and normal into matched
//   rows whose fresh contact penetrates (distance < 0); the replayed
//   geometry is the history of the next pass.
// - Reports: new = rows with match_index -1 ascending; broken = previous
//   rows no row matched, ascending.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "host/testing.h"
#include "kernels/contacts/matching.h"
#include "tests/support/test_support.h"

using namespace cctest;

namespace {

// ---------------------------------------------------------------- double math

struct V {
    double x, y, z;
};
V operator+(V a, V b) { return {a.x + b.x, a.y + b.y, a.z + b.z}; }
V operator-(V a, V b) { return {a.x - b.x, a.y - b.y, a.z - b.z}; }
V operator*(V a, double s) { return {a.x * s, a.y * s, a.z * s}; }
double dot(V a, V b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
V cross(V a, V b) { return {a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x}; }
double norm(V a) { return std::sqrt(dot(a, a)); }
V from_cc(cc_vec3 v) { return {v.x, v.y, v.z}; }
cc_vec3 to_cc(V v) { return {(float)v.x, (float)v.y, (float)v.z}; }

struct Q {
    double x, y, z, w;
};
Q qmul(Q a, Q b)
{
    return {a.w * b.x + a.x * b.w + a.y * b.z - a.z * b.y, a.w * b.y - a.x * b.z + a.y * b.w + a.z * b.x,
            a.w * b.z + a.x * b.y - a.y * b.x + a.z * b.w, a.w * b.w - a.x * b.x - a.y * b.y - a.z * b.z};
}
V rot(Q q, V v)
{
    V u{q.x, q.y, q.z};
    V t = cross(u, v) * 2.0;
    return v + t * q.w + cross(u, t);
}
Q axis_angle(V axis, double angle)
{
    V u = axis * (1.0 / norm(axis));
    double s = std::sin(0.5 * angle);
    return {u.x * s, u.y * s, u.z * s, std::cos(0.5 * angle)};
}
Q from_cc(cc_quat q) { return {q.x, q.y, q.z, q.w}; }
cc_quat to_cc(Q q)
{
    double l = std::sqrt(q.x * q.x + q.y * q.y + q.z * q.z + q.w * q.w);
    return {(float)(q.x / l), (float)(q.y / l), (float)(q.z / l), (float)(q.w / l)};
}
const Q kIdQ{0, 0, 0, 1};

cc_transform pose(V p, Q q = kIdQ)
{
    cc_transform t;
    t.p = to_cc(p);
    t.q = to_cc(q);
    return t;
}
// A rigid motion applied to a pose: rotate by q about `pivot`, then translate.
cc_transform moved(cc_transform t, V pivot, Q q, V shift = {0, 0, 0})
{
    V p = pivot + rot(q, from_cc(t.p) - pivot) + shift;
    return pose(p, qmul(q, from_cc(t.q)));
}

// World point of a body-frame point (body -1: already world).
V world(const std::vector<cc_transform>& poses, int body, cc_vec3 p)
{
    if (body < 0) return from_cc(p);
    const cc_transform& t = poses[(size_t)body];
    return from_cc(t.p) + rot(from_cc(t.q), from_cc(p));
}

const double kDeg = M_PI / 180.0;
constexpr float kDefaultPos = 0.0005f;
constexpr float kDefaultDot = 0.9f;

const char* mode_name(cc_contact_matching m) { return m == CC_MATCHING_LATEST ? "latest" : "sticky"; }

// ---------------------------------------------------------------- one pass

struct Pass {
    std::vector<cc_contact> rows;
    std::vector<cc_transform> poses;  // body poses the pass collided
    int generation = -9, match_generation = -9;
    std::vector<int> new_idx, broken_idx;
};

// A model, its state and a matching pipeline with reports, plus the body of
// each shape for the reference computations.
struct Rig {
    World w;
    std::vector<int> shape_body;
    int bodies = 0;
    cc_contact_matching mode = CC_MATCHING_LATEST;
    float pos = kDefaultPos, dot = kDefaultDot;
};

struct SceneBuilder {
    Builder b = make_builder(0.01f);  // gaps 0.01 + 0.01: contacts up to 2 cm apart
    std::vector<int> shape_body;
    int add(int body, cc_shape_type type, cc_vec3 size, cc_transform local = pose({0, 0, 0}))
    {
        cc_shape_def d = cc_default_shape_def();
        d.local = local;
        int s = -1;
        EXPECT_EQ(cc_builder_add_shape(b.get(), body, type, size, &d, &s), CC_OK) << cc_last_error_message();
        if (s >= 0) {
            if ((size_t)s >= shape_body.size()) shape_body.resize((size_t)s + 1, -1);
            shape_body[(size_t)s] = body;
        }
        return s;
    }
    int body(cc_transform t)
    {
        return add_body(b.get(), t.p, t.q);
    }
};

void make_rig(const SceneBuilder& sb, cc_device dev, cc_contact_matching mode, Rig* r, float pos = kDefaultPos,
              float dot = kDefaultDot)
{
    cc_pipeline_def d = cc_default_pipeline_def();
    d.contact_matching = mode;
    d.contact_matching_pos_threshold = pos;
    d.contact_matching_normal_dot_threshold = dot;
    d.contact_report = 1;
    d.rigid_contact_max = 4096;
    ASSERT_EQ(make_world(sb.b.get(), dev, d, &r->w), CC_OK) << cc_last_error_message();
    r->shape_body = sb.shape_body;
    r->bodies = cc_builder_body_count(sb.b.get());
    r->mode = mode;
    r->pos = pos;
    r->dot = dot;
}

void set_pose(Rig& r, int body, cc_transform t)
{
    ASSERT_EQ(cc_state_set_body_poses(r.w.state.get(), body, 1, &t), CC_OK) << cc_last_error_message();
}

// Collides into `contacts` (the rig's own buffer by default) and reads back
// everything the pass produced.
Pass run(Rig& r, cc_contacts* contacts = nullptr)
{
    if (!contacts) contacts = r.w.contacts.get();
    Pass p;
    EXPECT_EQ(cc_collide(r.w.pipeline.get(), r.w.state.get(), contacts, nullptr), CC_OK) << cc_last_error_message();
    cc_overflow ov;
    EXPECT_EQ(cc_pipeline_get_overflow(r.w.pipeline.get(), &ov), CC_OK);
    EXPECT_FALSE(ov.contacts_overflowed);
    int cap = cc_contacts_capacity(contacts);
    p.rows.resize((size_t)cap);
    int n = -1;
    EXPECT_EQ(cc_contacts_download(contacts, r.w.state.get(), p.rows.data(), cap, &n), CC_OK) << cc_last_error_message();
    p.rows.resize((size_t)std::max(0, std::min(n, cap)));
    p.poses.resize((size_t)r.bodies);
    if (r.bodies) {
        EXPECT_EQ(cc_state_get_body_poses(r.w.state.get(), 0, r.bodies, p.poses.data()), CC_OK);
    }
    EXPECT_EQ(cc_contacts_generations(contacts, &p.generation, &p.match_generation), CC_OK) << cc_last_error_message();
    int nn = -1, nb = -1;
    std::vector<int> ni((size_t)cap), bi((size_t)cap);
    EXPECT_EQ(cc_contacts_download_report(contacts, ni.data(), cap, &nn, bi.data(), cap, &nb), CC_OK)
        << cc_last_error_message();
    EXPECT_GE(nn, 0);
    EXPECT_GE(nb, 0);
    p.new_idx.assign(ni.begin(), ni.begin() + std::max(0, std::min(nn, cap)));
    p.broken_idx.assign(bi.begin(), bi.begin() + std::max(0, std::min(nb, cap)));
    return p;
}

std::vector<int> match_indices(const Pass& p)
{
    std::vector<int> m;
    for (const cc_contact& c : p.rows) m.push_back(c.match_index);
    return m;
}
std::vector<int> iota(int n, int from = 0)
{
    std::vector<int> v;
    for (int i = 0; i < n; ++i) v.push_back(from + i);
    return v;
}
const std::vector<int> kNone;

bool same_bits(cc_vec3 a, cc_vec3 b) { return std::memcmp(&a, &b, sizeof a) == 0; }
std::string str(cc_vec3 v)
{
    return "(" + std::to_string(v.x) + ", " + std::to_string(v.y) + ", " + std::to_string(v.z) + ")";
}

// For each row of `cur`, the row of `prev` with the same body-frame point1
// (a box corner), or -1.
std::vector<int> same_corner(const Pass& prev, const Pass& cur)
{
    std::vector<int> out;
    for (const cc_contact& c : cur.rows) {
        int found = -1;
        for (size_t j = 0; j < prev.rows.size(); ++j)
            if (norm(from_cc(c.point1) - from_cc(prev.rows[j].point1)) < 1e-4) found = (int)j;
        out.push_back(found);
    }
    return out;
}

// ---------------------------------------------------------------- reference

// Distance of the matching metric between current row c (fresh geometry,
// current poses) and previous row p (the previous buffer's final rows,
// previous poses), as the docs define it, in double precision.
double metric(const Rig& r, const cc_contact& c, const std::vector<cc_transform>& cur_poses, const cc_contact& p,
              const std::vector<cc_transform>& prev_poses)
{
    int b0 = r.shape_body[(size_t)c.shape0], b1 = r.shape_body[(size_t)c.shape1];
    V w0 = world(cur_poses, b0, c.point0), w1 = world(cur_poses, b1, c.point1);
    if (r.mode == CC_MATCHING_STICKY) {
        V s0 = world(cur_poses, b0, p.point0), s1 = world(cur_poses, b1, p.point1);
        return std::max(norm(s0 - w0), norm(s1 - w1));
    }
    V mid = (w0 + w1) * 0.5;
    V pmid = (world(prev_poses, b0, p.point0) + world(prev_poses, b1, p.point1)) * 0.5;
    return norm(mid - pmid);
}

// The matching the docs specify, computed from scratch: each current row
// takes its closest candidate (lowest previous row on ties), each previous
// row goes to its closest claimant (lowest current row on ties). Exact
// arithmetic is assumed (use with scenes whose values are exact).
std::vector<int> reference_matching(const Rig& r, const Pass& prev, const std::vector<cc_contact>& fresh,
                                    const std::vector<cc_transform>& cur_poses, int* claim_ties)
{
    size_t n = fresh.size(), m = prev.rows.size();
    std::vector<int> best(n, -1);
    std::vector<double> best_d(n, 0.0);
    for (size_t i = 0; i < n; ++i) {
        for (size_t j = 0; j < m; ++j) {
            const cc_contact &c = fresh[i], &p = prev.rows[j];
            if (c.shape0 != p.shape0 || c.shape1 != p.shape1) continue;
            if (!(dot(from_cc(c.normal), from_cc(p.normal)) >= (double)r.dot)) continue;
            double d = metric(r, c, cur_poses, p, prev.poses);
            if (d <= (double)r.pos && (best[i] < 0 || d < best_d[i])) {
                best[i] = (int)j;
                best_d[i] = d;
            }
        }
    }
    std::vector<int> out(n, -1);
    *claim_ties = 0;
    for (size_t j = 0; j < m; ++j) {
        int winner = -1;
        for (size_t i = 0; i < n; ++i) {
            if (best[i] != (int)j) continue;
            if (winner >= 0 && best_d[i] == best_d[(size_t)winner]) ++*claim_ties;
            if (winner < 0 || best_d[i] < best_d[(size_t)winner]) winner = (int)i;
        }
        if (winner >= 0) out[(size_t)winner] = (int)j;
    }
    return out;
}

// Reports recomputed from the buffers: rows with match -1, previous rows no
// row matched, both ascending.
void expect_reports_consistent(const Pass& cur, int prev_count)
{
    std::vector<int> expect_new, expect_broken;
    std::vector<char> matched((size_t)std::max(prev_count, 0), 0);
    for (size_t i = 0; i < cur.rows.size(); ++i) {
        int j = cur.rows[i].match_index;
        if (j < 0) {
            expect_new.push_back((int)i);
        } else if (j < prev_count) {
            matched[(size_t)j] = 1;
        }
    }
    for (int j = 0; j < prev_count; ++j)
        if (!matched[(size_t)j]) expect_broken.push_back(j);
    EXPECT_EQ(cur.new_idx, expect_new);
    EXPECT_EQ(cur.broken_idx, expect_broken);
}

// ---------------------------------------------------------------- kernel level

// The claim step alone, with hand-made rows on body -1 (world points): the
// winner of a contested previous row does not depend on the order in which
// the claim threads run.
struct KernelCase {
    std::vector<cc_vec3> mids;    // current rows (point0 = point1 = mid)
    std::vector<cc_vec3> normals; // current normals
    cc_vec3 prev_mid{0, 0, 0};
    cc_vec3 prev_normal{0, 0, 1};
    float pos = 1.0f, dot = 0.9f;
};

std::vector<int> run_kernel(const KernelCase& k, bool reverse)
{
    int n = (int)k.mids.size();
    cc_shape_geometry geom[2];
    std::memset(geom, 0, sizeof geom);
    geom[0].body = -1;
    geom[1].body = -1;
    cc_model_view mv;
    std::memset(&mv, 0, sizeof mv);
    mv.shape_count = 2;
    mv.shape_geom = geom;
    cc_key_layout l = cc_key_layout_make(CC_KEY_SUB_BITS_SIMPLE);
    std::vector<uint64_t> keys((size_t)n), prev_keys(1);
    std::vector<unsigned long long> claims((size_t)std::max(n, 1), CC_CLAIM_NONE);
    std::vector<cc_vec3> prev_mid(1, k.prev_mid), prev_normal(1, k.prev_normal);
    for (int i = 0; i < n; ++i) keys[(size_t)i] = cc_contact_key(l, 0, 1, i);
    prev_keys[0] = cc_contact_key(l, 0, 1, 0);
    cc_match_state state = {1, -1, -1};
    cc_match_view v;
    std::memset(&v, 0, sizeof v);
    v.mode = CC_MATCHING_LATEST;
    v.pos_threshold = k.pos;
    v.normal_dot_threshold = k.dot;
    v.layout = l;
    v.keys = keys.data();
    v.prev_keys = prev_keys.data();
    v.claims = claims.data();
    v.prev_mid = prev_mid.data();
    v.prev_normal = prev_normal.data();
    v.state = &state;
    std::vector<int> s0((size_t)n, 0), s1((size_t)n, 1), match((size_t)n, -7);
    std::vector<cc_vec3> p0(k.mids), p1(k.mids), nrm(k.normals);
    std::vector<float> t((size_t)n, 0.0f), dist((size_t)n, 0.0f);
    cc_contacts_view c;
    std::memset(&c, 0, sizeof c);
    c.count = &n;
    c.capacity = n;
    c.shape0 = s0.data();
    c.shape1 = s1.data();
    c.point0 = p0.data();
    c.point1 = p1.data();
    c.normal = nrm.data();
    c.thickness0 = t.data();
    c.thickness1 = t.data();
    c.distance = dist.data();
    c.match_index = match.data();
    for (int r = 0; r < n; ++r) cc_match_claim_thread(reverse ? n - 1 - r : r, &v, &mv, nullptr, c);
    for (int r = 0; r < n; ++r) cc_match_resolve_thread(reverse ? n - 1 - r : r, &v, &mv, nullptr, c);
    return match;
}

TEST(MatchingKernel, ContestedRowGoesToTheClosestThenTheLowerRowInAnyThreadOrder)
{
    const cc_vec3 up{0, 0, 1};
    for (bool reverse : {false, true}) {
        SCOPED_TRACE(reverse ? "claims in reverse row order" : "claims in row order");
        KernelCase tie;  // rows 0 and 1 equally close, row 2 farther
        tie.mids = {{0.1f, 0, 0}, {-0.1f, 0, 0}, {0, 0.2f, 0}};
        tie.normals = {up, up, up};
        EXPECT_EQ(run_kernel(tie, reverse), (std::vector<int>{0, -1, -1}));
        KernelCase closer = tie;  // row 1 closer than row 0
        closer.mids[1] = {-0.05f, 0, 0};
        EXPECT_EQ(run_kernel(closer, reverse), (std::vector<int>{-1, 0, -1}));
        KernelCase last = tie;  // the highest row is the closest
        last.mids[2] = {0, 0.01f, 0};
        EXPECT_EQ(run_kernel(last, reverse), (std::vector<int>{-1, -1, 0}));
    }
}

// The matcher finds a pair's first previous row by galloping out from a
// hint (the contact's own row); the result must be the lower bound for
// every hint, including hints outside [0, n), on keys with long runs of
// equal values (a pair's rows share their pair bits).
TEST(MatchingKernel, GallopingLowerBoundEqualsBinarySearch)
{
    std::mt19937 rng(9);
    int checked = 0;
    for (int n = 0; n <= 70; ++n) {
        for (int trial = 0; trial < 6; ++trial) {
            std::uniform_int_distribution<int> val(0, trial < 3 ? 6 : 1000);
            std::vector<uint64_t> keys((size_t)n);
            for (auto& k : keys) k = 10 * (uint64_t)val(rng);
            std::sort(keys.begin(), keys.end());
            std::vector<uint64_t> probes = {0, 1, CC_KEY_EMPTY};
            for (uint64_t k : keys) {
                probes.push_back(k);
                probes.push_back(k + 1);
                probes.push_back(k - 1);
            }
            for (uint64_t k : probes) {
                int expect = (int)(std::lower_bound(keys.begin(), keys.end(), k) - keys.begin());
                for (int hint = -3; hint <= n + 3; ++hint) {
                    ASSERT_EQ(cc_lower_bound_near_u64(keys.data(), n, k, hint), expect)
                        << "n " << n << " key " << k << " hint " << hint;
                    ++checked;
                }
            }
        }
    }
    EXPECT_GT(checked, 100000);
}

TEST(MatchingKernel, ThresholdsAreInclusiveAndBothApply)
{
    const cc_vec3 up{0, 0, 1};
    KernelCase k;
    k.pos = 0.5f;
    k.dot = 0.8f;
    k.mids = {{0.5f, 0, 0}};  // distance exactly the threshold
    k.normals = {up};
    EXPECT_EQ(run_kernel(k, false), (std::vector<int>{0}));
    k.mids = {{0.5000001f, 0, 0}};  // just beyond
    EXPECT_EQ(run_kernel(k, false), (std::vector<int>{-1}));
    k.mids = {{0, 0, 0}};
    k.normals = {{0, 0.6f, 0.8f}};  // dot exactly the threshold
    EXPECT_EQ(run_kernel(k, false), (std::vector<int>{0}));
    k.normals = {{0, 0.6f, 0.79f}};  // just below
    EXPECT_EQ(run_kernel(k, false), (std::vector<int>{-1}));
    k.normals = {{0, 0, -1}};  // opposite normal at the same point
    EXPECT_EQ(run_kernel(k, false), (std::vector<int>{-1}));
}

// ---------------------------------------------------------------- pipeline

class Matching : public DeviceTest {
  protected:
    // A unit-half-extent box (half 0.5) at height z over a ground plane on
    // the world body. Shape 0 is the plane, shape 1 the box (body 0).
    SceneBuilder box_on_ground(double z)
    {
        SceneBuilder sb;
        sb.add(CC_BODY_WORLD, CC_SHAPE_PLANE, {0, 0, 0});
        int body = sb.body(pose({0, 0, z}));
        sb.add(body, CC_SHAPE_BOX, {0.5f, 0.5f, 0.5f});
        return sb;
    }
};

const cc_contact_matching kModes[] = {CC_MATCHING_LATEST, CC_MATCHING_STICKY};

// A box resting on a plane keeps all four matches for 100 frames of small
// horizontal jitter (+-0.1 mm around a fixed centre, no rotation, so the
// manifold order and hence the row order are stable). The box penetrates by
// 0.2 mm, so sticky replays every frame.
TEST_P(Matching, RestingBoxKeepsAllFourMatchesFor100Frames)
{
    const double z = 0.5 - 0.0002;
    for (cc_contact_matching mode : kModes) {
        SCOPED_TRACE(mode_name(mode));
        Rig r;
        make_rig(box_on_ground(z), device(), mode, &r);
        std::mt19937 rng(3);
        std::uniform_real_distribution<double> j(-0.0001, 0.0001);
        Pass first;
        for (int f = 0; f < 100; ++f) {
            SCOPED_TRACE(testing::Message() << "frame " << f);
            V c{f == 0 ? 0.0 : j(rng), f == 0 ? 0.0 : j(rng), z};
            set_pose(r, 0, pose(c));
            Pass p = run(r);
            ASSERT_EQ(p.rows.size(), 4u);
            EXPECT_EQ(p.generation, f + 1);
            if (f == 0) {
                EXPECT_EQ(p.match_generation, -1);
                EXPECT_EQ(match_indices(p), (std::vector<int>{-1, -1, -1, -1}));
                EXPECT_EQ(p.new_idx, iota(4));
                EXPECT_EQ(p.broken_idx, kNone);
                first = p;
                continue;
            }
            EXPECT_EQ(p.match_generation, f);
            EXPECT_EQ(match_indices(p), iota(4));
            EXPECT_EQ(p.new_idx, kNone);
            EXPECT_EQ(p.broken_idx, kNone);
            for (int i = 0; i < 4; ++i) {
                const cc_contact &a = p.rows[(size_t)i], &b = first.rows[(size_t)i];
                // The same corner of the box (body frame) in the same row.
                EXPECT_LT(norm(from_cc(a.point1) - from_cc(b.point1)), 1e-6) << "row " << i;
                if (mode == CC_MATCHING_STICKY) {
                    // Replayed: the points and normal of the first frame.
                    EXPECT_TRUE(same_bits(a.point0, b.point0)) << "row " << i << ": " << str(a.point0);
                    EXPECT_TRUE(same_bits(a.point1, b.point1)) << "row " << i << ": " << str(a.point1);
                    EXPECT_TRUE(same_bits(a.normal, b.normal)) << "row " << i << ": " << str(a.normal);
                } else {
                    // Fresh: the plane point under the corner now.
                    V corner = world(p.poses, 0, a.point1);
                    EXPECT_NEAR(a.point0.x, corner.x, 1e-6) << "row " << i;
                    EXPECT_NEAR(a.point0.y, corner.y, 1e-6) << "row " << i;
                }
            }
        }
    }
}

// Latest measures the world midpoint: lifting the box by h moves each
// midpoint by h / 2. Sticky keeps the match on a lift (each witness stays
// on its own surface) but not on a horizontal jump.
TEST_P(Matching, JumpsBeyondTheThresholdBreakAllFour)
{
    struct Step {
        V shift;
        bool breaks_latest, breaks_sticky;
    };
    const Step steps[] = {
        {{0, 0, 0.0009}, false, false},  // midpoints move 0.45 mm
        {{0, 0, 0.0012}, true, false},   // midpoints move 0.6 mm
        {{0, 0, 0.002}, true, false},    // 2 mm lift, still within the gap
        {{0, 0, -0.002}, true, false},   // and back down
        {{0.002, 0, 0}, true, true},     // 2 mm sideways
        {{0, 0.0003, 0}, false, false},  // 0.3 mm sideways
    };
    for (cc_contact_matching mode : kModes) {
        SCOPED_TRACE(mode_name(mode));
        Rig r;
        make_rig(box_on_ground(0.5), device(), mode, &r);
        V c{0, 0, 0.5};
        Pass p = run(r);
        ASSERT_EQ(p.rows.size(), 4u);
        p = run(r);
        EXPECT_EQ(match_indices(p), iota(4));
        int k = 0;
        for (const Step& s : steps) {
            SCOPED_TRACE(testing::Message() << "step " << k++);
            c = c + s.shift;
            set_pose(r, 0, pose(c));
            p = run(r);
            ASSERT_EQ(p.rows.size(), 4u);
            bool breaks = mode == CC_MATCHING_LATEST ? s.breaks_latest : s.breaks_sticky;
            if (breaks) {
                EXPECT_EQ(match_indices(p), (std::vector<int>{-1, -1, -1, -1}));
                EXPECT_EQ(p.new_idx, iota(4));
                EXPECT_EQ(p.broken_idx, iota(4));
            } else {
                EXPECT_EQ(match_indices(p), iota(4));
                EXPECT_EQ(p.new_idx, kNone);
                EXPECT_EQ(p.broken_idx, kNone);
            }
            // The same pose again: everything matches.
            p = run(r);
            EXPECT_EQ(match_indices(p), iota(4));
            EXPECT_EQ(p.new_idx, kNone);
            EXPECT_EQ(p.broken_idx, kNone);
        }
    }
}

// A sphere (radius 0.1, 0.1 mm above the plane: separated, so sticky keeps
// fresh geometry) sliding by 0.2 mm a frame keeps its match in both modes.
TEST_P(Matching, SlidingSphereKeepsItsMatch)
{
    const double r0 = 0.1, z = r0 + 0.0001;
    for (cc_contact_matching mode : kModes) {
        SCOPED_TRACE(mode_name(mode));
        SceneBuilder sb;
        sb.add(CC_BODY_WORLD, CC_SHAPE_PLANE, {0, 0, 0});
        int body = sb.body(pose({0, 0, z}));
        sb.add(body, CC_SHAPE_SPHERE, {(float)r0, 0, 0});
        Rig r;
        make_rig(sb, device(), mode, &r);
        for (int f = 0; f < 30; ++f) {
            SCOPED_TRACE(testing::Message() << "frame " << f);
            set_pose(r, body, pose({0.0002 * f, 0, z}));
            Pass p = run(r);
            ASSERT_EQ(p.rows.size(), 1u);
            EXPECT_GT(p.rows[0].distance, 0.0f);
            EXPECT_NEAR(p.rows[0].point0.x, 0.0002 * f, 1e-6) << "fresh plane point";
            EXPECT_EQ(p.rows[0].match_index, f == 0 ? -1 : 0);
            EXPECT_EQ(p.new_idx, f == 0 ? std::vector<int>{0} : kNone);
            EXPECT_EQ(p.broken_idx, kNone);
        }
    }
}

// The same slide with the sphere penetrating by 1 mm: latest keeps the match
// with fresh geometry; sticky replays the first plane point, which the
// sphere leaves behind: 0.2, 0.4 mm (matched), 0.6 mm (broken, new, and the
// new contact is the next anchor).
TEST_P(Matching, PenetratingSlideReplaysTheAnchorInSticky)
{
    const double r0 = 0.1, z = r0 - 0.001;
    for (cc_contact_matching mode : kModes) {
        SCOPED_TRACE(mode_name(mode));
        SceneBuilder sb;
        sb.add(CC_BODY_WORLD, CC_SHAPE_PLANE, {0, 0, 0});
        int body = sb.body(pose({0, 0, z}));
        sb.add(body, CC_SHAPE_SPHERE, {(float)r0, 0, 0});
        Rig r;
        make_rig(sb, device(), mode, &r);
        double anchor = 0.0;
        for (int f = 0; f < 12; ++f) {
            SCOPED_TRACE(testing::Message() << "frame " << f);
            double x = 0.0002 * f;
            set_pose(r, body, pose({x, 0, z}));
            Pass p = run(r);
            ASSERT_EQ(p.rows.size(), 1u);
            const cc_contact& c = p.rows[0];
            EXPECT_NEAR(c.distance, -0.001, 1e-6);
            bool expect_new = f == 0 || (mode == CC_MATCHING_STICKY && f % 3 == 0);
            EXPECT_EQ(c.match_index, expect_new ? -1 : 0);
            EXPECT_EQ(p.new_idx, expect_new ? std::vector<int>{0} : kNone);
            EXPECT_EQ(p.broken_idx, expect_new && f > 0 ? std::vector<int>{0} : kNone);
            if (expect_new) anchor = x;
            double expect_x = mode == CC_MATCHING_STICKY ? anchor : x;
            EXPECT_NEAR(c.point0.x, expect_x, 1e-6) << "plane point";
        }
    }
}

// A spinning surface: the plane is on a body that turns about the vertical
// axis under a sphere resting 1 m from the axis. The world contact stays put,
// so latest keeps the match; the plane's body-frame witness moves by
// 1 m * angle, so sticky breaks it when that exceeds the threshold.
// (Rolling a sphere cannot move its body-frame witness: a sphere's core
// point is its centre, which rotation about the centre leaves in place.)
TEST_P(Matching, SpinningSurfaceBreaksStickyOnly)
{
    const double r0 = 0.05, z = r0 + 0.0001;
    struct Case {
        double step;  // rad per frame
        bool breaks_sticky;
    };
    for (Case cs : {Case{0.002, true}, Case{0.0002, false}}) {
        for (cc_contact_matching mode : kModes) {
            SCOPED_TRACE(testing::Message() << mode_name(mode) << " step " << cs.step);
            SceneBuilder sb;
            int table = sb.body(pose({0, 0, 0}));
            sb.add(table, CC_SHAPE_PLANE, {0, 0, 0});
            int ball = sb.body(pose({1, 0, z}));
            sb.add(ball, CC_SHAPE_SPHERE, {(float)r0, 0, 0});
            Rig r;
            make_rig(sb, device(), mode, &r);
            for (int f = 0; f < 8; ++f) {
                SCOPED_TRACE(testing::Message() << "frame " << f);
                set_pose(r, table, pose({0, 0, 0}, axis_angle({0, 0, 1}, cs.step * f)));
                Pass p = run(r);
                ASSERT_EQ(p.rows.size(), 1u);
                bool breaks = f > 0 && mode == CC_MATCHING_STICKY && cs.breaks_sticky;
                EXPECT_EQ(p.rows[0].match_index, f == 0 || breaks ? -1 : 0);
                EXPECT_EQ(p.new_idx, f == 0 || breaks ? std::vector<int>{0} : kNone);
                EXPECT_EQ(p.broken_idx, breaks ? std::vector<int>{0} : kNone);
            }
        }
    }
}

// The normal threshold: a plane on a body with a box resting on it, the
// whole rig rotated rigidly about the box's bottom centre (so contacts stay
// on their surfaces). With the position threshold out of the way, a turn of
// 24 degrees keeps the matches and 26 degrees breaks them (threshold
// cos 25 degrees).
TEST_P(Matching, NormalThresholdBreaksMatchesOnRotation)
{
    const double thr = std::cos(25 * kDeg);
    for (cc_contact_matching mode : kModes) {
        SCOPED_TRACE(mode_name(mode));
        SceneBuilder sb;
        const cc_transform table0 = pose({0, 0, 0}), box0 = pose({0, 0, 0.5 + 0.0001});
        int table = sb.body(table0);
        sb.add(table, CC_SHAPE_PLANE, {0, 0, 0});
        int box = sb.body(box0);
        sb.add(box, CC_SHAPE_BOX, {0.5f, 0.5f, 0.5f});
        Rig r;
        make_rig(sb, device(), mode, &r, 10.0f, (float)thr);
        Pass p = run(r);
        ASSERT_EQ(p.rows.size(), 4u);
        Pass prev = p;
        double angle = 0;
        struct Step {
            double turn;
            bool breaks;
        };
        int k = 0;
        for (Step s : {Step{24, false}, Step{0, false}, Step{-26, true}, Step{0, false}, Step{26, true},
                       Step{-24, false}}) {
            SCOPED_TRACE(testing::Message() << "step " << k++ << " turn " << s.turn);
            angle += s.turn * kDeg;
            Q q = axis_angle({1, 0.3, 0}, angle);
            set_pose(r, table, moved(table0, {0, 0, 0}, q));
            set_pose(r, box, moved(box0, {0, 0, 0}, q));
            p = run(r);
            ASSERT_EQ(p.rows.size(), 4u);
            V n = rot(q, {0, 0, 1});
            EXPECT_NEAR(dot(from_cc(p.rows[0].normal), n), 1.0, 1e-5);
            if (s.breaks) {
                EXPECT_EQ(match_indices(p), (std::vector<int>{-1, -1, -1, -1}));
                EXPECT_EQ(p.new_idx, iota(4));
                EXPECT_EQ(p.broken_idx, iota(4));
            } else {
                // Rounding in the rotated frames may reorder the manifold, so
                // each row must continue the previous row of the same corner.
                EXPECT_EQ(same_corner(prev, p), match_indices(p));
                EXPECT_EQ(p.new_idx, kNone);
                EXPECT_EQ(p.broken_idx, kNone);
            }
            prev = p;
        }
    }
}

// Uniqueness: a capsule tilted on the plane (one end touching: one contact)
// then lying flat (both ends: two contacts of the same pair, both within the
// position threshold of the previous contact). Only the end that was
// touching continues the contact; the other is new. Done with either end
// down, so that once the closer row is the lower one and once the higher.
TEST_P(Matching, TwoCandidatesNeverClaimOnePreviousContact)
{
    const double rad = 0.05, hh = 0.2, tilt = 0.3;
    for (cc_contact_matching mode : kModes) {
        for (int low_end : {-1, +1}) {  // which local z end touches first
            SCOPED_TRACE(testing::Message() << mode_name(mode) << " low end " << low_end);
            SceneBuilder sb;
            sb.add(CC_BODY_WORLD, CC_SHAPE_PLANE, {0, 0, 0});
            // Lying flat: local z along world x, centre at height rad.
            Q flat = axis_angle({0, 1, 0}, M_PI / 2);
            V low{low_end * hh, 0, rad};  // the touching end, world
            // Tilted about the touching end so the other end rises.
            Q tilt_q = axis_angle({0, 1, 0}, low_end * tilt);
            cc_transform flat_pose = pose({0, 0, rad + 0.0001}, flat);
            cc_transform tilted = moved(flat_pose, low + V{0, 0, 0.0001}, tilt_q);
            int body = sb.body(tilted);
            sb.add(body, CC_SHAPE_CAPSULE, {(float)rad, (float)hh, 0});
            Rig r;
            make_rig(sb, device(), mode, &r, 1.0f, kDefaultDot);
            Pass p0 = run(r);
            ASSERT_EQ(p0.rows.size(), 1u);
            EXPECT_NEAR(p0.rows[0].point0.x, low.x, 1e-3) << "the touching end";
            set_pose(r, body, flat_pose);
            Pass p1 = run(r);
            ASSERT_EQ(p1.rows.size(), 2u);
            int same_end = std::fabs(p1.rows[0].point0.x - low.x) < std::fabs(p1.rows[1].point0.x - low.x) ? 0 : 1;
            std::vector<int> expect(2, -1);
            expect[(size_t)same_end] = 0;
            EXPECT_EQ(match_indices(p1), expect);
            EXPECT_EQ(p1.new_idx, std::vector<int>{1 - same_end});
            EXPECT_EQ(p1.broken_idx, kNone);
        }
    }
}

// Ties: a box (identity rotation, exact coordinates) shifted by half its
// width, so that two current corners are exactly as far (0.5 m) from one
// previous corner. The result equals the documented rule computed from the
// buffers, and (latest) at least one previous row had a tied claim.
TEST_P(Matching, ClaimTiesGoToTheLowerRow)
{
    for (cc_contact_matching mode : kModes) {
        int ties_seen = 0;
        for (double shift : {-0.5, 0.5}) {
            SCOPED_TRACE(testing::Message() << mode_name(mode) << " shift " << shift);
            Rig r;
            make_rig(box_on_ground(0.5), device(), mode, &r, 10.0f, kDefaultDot);
            Pass p0 = run(r);
            ASSERT_EQ(p0.rows.size(), 4u);
            set_pose(r, 0, pose({shift, 0, 0.5}));
            Pass p1 = run(r);
            ASSERT_EQ(p1.rows.size(), 4u);
            for (const cc_contact& c : p1.rows) ASSERT_GE(c.distance, 0.0f) << "no replay expected";
            int ties = 0;
            std::vector<int> expect = reference_matching(r, p0, p1.rows, p1.poses, &ties);
            ties_seen += ties;
            EXPECT_EQ(match_indices(p1), expect);
            expect_reports_consistent(p1, 4);
        }
        if (mode == CC_MATCHING_LATEST) {
            EXPECT_GT(ties_seen, 0) << "the scene should contest a previous row";
        }
    }
}

// Sticky replay: a small sphere (radius 1 cm) on a plane body; the plane
// tilts by 2 degrees about the contact point, which moves the fresh plane
// witness by ~0.3 mm (within the threshold) and tilts the fresh normal.
// Penetrating: sticky keeps the first frame's body-frame points and normal
// (and the next pass too), with the distance recomputed from them.
// Separated: fresh geometry. Latest: always fresh.
TEST_P(Matching, StickyReplaysPenetratingGeometryOnly)
{
    const double rad = 0.01;
    for (cc_contact_matching mode : kModes) {
        for (double z : {rad - 0.001, rad + 0.001}) {
            bool penetrating = z < rad;
            SCOPED_TRACE(testing::Message() << mode_name(mode) << (penetrating ? " penetrating" : " separated"));
            SceneBuilder sb;
            int table = sb.body(pose({0, 0, 0}));
            sb.add(table, CC_SHAPE_PLANE, {0, 0, 0});
            int ball = sb.body(pose({0, 0, z}));
            sb.add(ball, CC_SHAPE_SPHERE, {(float)rad, 0, 0});
            Rig r;
            make_rig(sb, device(), mode, &r);
            Pass p0 = run(r);
            ASSERT_EQ(p0.rows.size(), 1u);
            EXPECT_NEAR(p0.rows[0].distance, z - rad, 1e-7);
            Q tilt = axis_angle({1, 0, 0}, 2 * kDeg);
            set_pose(r, table, pose({0, 0, 0}, tilt));
            V fresh_n = rot(tilt, {0, 0, 1});
            for (int f = 1; f <= 2; ++f) {
                SCOPED_TRACE(testing::Message() << "frame " << f);
                Pass p = run(r);
                ASSERT_EQ(p.rows.size(), 1u);
                const cc_contact &c = p.rows[0], &old = p0.rows[0];
                EXPECT_EQ(c.match_index, 0);
                EXPECT_EQ(p.new_idx, kNone);
                EXPECT_EQ(p.broken_idx, kNone);
                if (mode == CC_MATCHING_STICKY && penetrating) {
                    EXPECT_TRUE(same_bits(c.point0, old.point0)) << str(c.point0) << " vs " << str(old.point0);
                    EXPECT_TRUE(same_bits(c.point1, old.point1)) << str(c.point1) << " vs " << str(old.point1);
                    EXPECT_TRUE(same_bits(c.normal, old.normal)) << str(c.normal) << " vs " << str(old.normal);
                    // d = n . (world(p1) - world(p0)) - t0 - t1 with the replayed values.
                    V w0 = world(p.poses, table, c.point0), w1 = world(p.poses, ball, c.point1);
                    double d = dot(from_cc(c.normal), w1 - w0) - c.thickness0 - c.thickness1;
                    EXPECT_NEAR(c.distance, d, 1e-6);
                    // The friction offsets follow the replayed normal.
                    V o1 = rot(from_cc(p.poses[(size_t)ball].q), from_cc(c.offset1));
                    EXPECT_NEAR(o1.z, -rad, 1e-6);
                } else {
                    EXPECT_NEAR(dot(from_cc(c.normal), fresh_n), 1.0, 1e-6) << "fresh normal " << str(c.normal);
                    EXPECT_FALSE(same_bits(c.point0, old.point0)) << "fresh plane witness expected";
                    EXPECT_NEAR(c.distance, z * std::cos(2 * kDeg) - rad, 1e-6);
                }
            }
        }
    }
}

// Replay needs penetration (distance < 0): a box touching the plane exactly
// (distance 0, exact coordinates) that moves 0.3 mm sideways keeps its
// matches with fresh geometry in sticky too.
TEST_P(Matching, TouchingContactIsNotReplayed)
{
    for (cc_contact_matching mode : kModes) {
        SCOPED_TRACE(mode_name(mode));
        Rig r;
        make_rig(box_on_ground(0.5), device(), mode, &r);
        Pass p0 = run(r);
        ASSERT_EQ(p0.rows.size(), 4u);
        set_pose(r, 0, pose({0.0003, 0, 0.5}));
        Pass p1 = run(r);
        ASSERT_EQ(p1.rows.size(), 4u);
        EXPECT_EQ(match_indices(p1), iota(4));
        for (int i = 0; i < 4; ++i) {
            const cc_contact& c = p1.rows[(size_t)i];
            ASSERT_EQ(c.distance, 0.0f) << "row " << i << ": the scene should touch exactly";
            V corner = world(p1.poses, 0, c.point1);
            EXPECT_NEAR(c.point0.x, corner.x, 1e-7) << "row " << i << ": fresh plane point expected";
            EXPECT_NEAR(c.point0.x, p0.rows[(size_t)i].point0.x + 0.0003, 1e-6) << "row " << i;
        }
    }
}

// Generations with two buffers of one pipeline, written A A B A B B: a
// buffer's match_generation is its own previous generation only when the
// previous pass wrote it; match_index still refers to the previous pass's
// rows, whichever buffer holds them.
TEST_P(Matching, MatchGenerationTracksWhichBufferThePreviousPassWrote)
{
    for (cc_contact_matching mode : kModes) {
        SCOPED_TRACE(mode_name(mode));
        Rig r;
        make_rig(box_on_ground(0.5), device(), mode, &r);
        cc_contacts* b_raw = nullptr;
        ASSERT_EQ(cc_contacts_create(r.w.pipeline.get(), &b_raw), CC_OK) << cc_last_error_message();
        Contacts b(b_raw);
        cc_contacts* a = r.w.contacts.get();
        int g = -9, mg = -9;
        ASSERT_EQ(cc_contacts_generations(b.get(), &g, &mg), CC_OK);
        EXPECT_EQ(g, 0);
        EXPECT_EQ(mg, -1);
        struct Step {
            bool to_a;
            int gen, match_gen;
        };
        const Step steps[] = {{true, 1, -1}, {true, 2, 1}, {false, 1, -1}, {true, 3, -1}, {false, 2, -1}, {false, 3, 2}};
        int gen_a = 0, gen_b = 0, k = 0;
        for (const Step& s : steps) {
            SCOPED_TRACE(testing::Message() << "pass " << k << (s.to_a ? " into A" : " into B"));
            Pass p = run(r, s.to_a ? a : b.get());
            ASSERT_EQ(p.rows.size(), 4u);
            EXPECT_EQ(p.generation, s.gen);
            EXPECT_EQ(p.match_generation, s.match_gen);
            EXPECT_EQ(match_indices(p), (k == 0 ? std::vector<int>{-1, -1, -1, -1} : iota(4)));
            EXPECT_EQ(p.new_idx, k == 0 ? iota(4) : kNone);
            EXPECT_EQ(p.broken_idx, kNone);
            (s.to_a ? gen_a : gen_b) = s.gen;
            // The other buffer is untouched.
            ASSERT_EQ(cc_contacts_generations(s.to_a ? b.get() : a, &g, &mg), CC_OK);
            EXPECT_EQ(g, s.to_a ? gen_b : gen_a);
            ++k;
        }
        // A jump while alternating: broken rows index the other buffer's rows.
        set_pose(r, 0, pose({0.01, 0, 0.5}));
        Pass p = run(r, a);  // previous pass wrote B
        EXPECT_EQ(p.match_generation, -1);
        EXPECT_EQ(match_indices(p), (std::vector<int>{-1, -1, -1, -1}));
        EXPECT_EQ(p.broken_idx, iota(4));
        EXPECT_EQ(p.new_idx, iota(4));
    }
}

// Buffers made by another matching pipeline of the same model, with fewer
// or more rows than this pipeline's history. The pipeline may refuse them
// (CC_ERR_MISMATCH, naming rigid_contact_max); a refused pass must change
// nothing: neither the buffer nor the pipeline's history. If it accepts
// one, matching and reports must stay right. Three boxes on the ground
// (rows 0-3, 4-7, 8-11 by shape order) collide twice into the pipeline's own
// buffer; then the third box is lifted clear and the pass (8 contacts) goes
// into the foreign buffer: rows 0-7 continue, previous rows 8-11 are broken.
TEST_P(Matching, ForeignBufferOfAnotherSizeIsRefusedOrHandled)
{
    for (cc_contact_matching mode : kModes) {
        for (int foreign_rows : {8, 8192}) {
            SCOPED_TRACE(testing::Message() << mode_name(mode) << " foreign rows " << foreign_rows);
            SceneBuilder sb;
            sb.add(CC_BODY_WORLD, CC_SHAPE_PLANE, {0, 0, 0});
            int boxes[3];
            for (int k = 0; k < 3; ++k) {
                boxes[k] = sb.body(pose({3.0 * k, 0, 0.5}));
                sb.add(boxes[k], CC_SHAPE_BOX, {0.5f, 0.5f, 0.5f});
            }
            Rig r;
            make_rig(sb, device(), mode, &r);
            cc_pipeline_def d = cc_default_pipeline_def();
            d.contact_matching = mode;
            d.contact_report = 1;
            d.rigid_contact_max = foreign_rows;
            cc_pipeline* q_raw = nullptr;
            ASSERT_EQ(cc_pipeline_create(r.w.model.get(), &d, &q_raw), CC_OK) << cc_last_error_message();
            Pipeline q(q_raw);
            cc_contacts* f_raw = nullptr;
            ASSERT_EQ(cc_contacts_create(q.get(), &f_raw), CC_OK) << cc_last_error_message();
            Contacts foreign(f_raw);
            ASSERT_EQ(cc_contacts_capacity(foreign.get()), foreign_rows);

            Pass p = run(r);
            ASSERT_EQ(p.rows.size(), 12u);
            p = run(r);
            EXPECT_EQ(match_indices(p), iota(12));
            set_pose(r, boxes[2], pose({6.0, 0, 1.5}));
            cc_status s = cc_collide(r.w.pipeline.get(), r.w.state.get(), foreign.get(), nullptr);
            if (s == CC_ERR_MISMATCH) {
                EXPECT_NE(std::string(cc_last_error_message()).find("rigid_contact_max"), std::string::npos)
                    << cc_last_error_message();
                // Nothing happened: the buffer is as created...
                int n = -1, g = -9, mg = -9;
                ASSERT_EQ(cc_contacts_count(foreign.get(), &n), CC_OK);
                EXPECT_EQ(n, 0);
                ASSERT_EQ(cc_contacts_generations(foreign.get(), &g, &mg), CC_OK);
                EXPECT_EQ(g, 0);
                EXPECT_EQ(mg, -1);
                // ...and the next pass continues from the last accepted one.
                p = run(r);
                ASSERT_EQ(p.rows.size(), 8u);
                EXPECT_EQ(p.generation, 3);
                EXPECT_EQ(p.match_generation, 2);
                EXPECT_EQ(match_indices(p), iota(8));
                EXPECT_EQ(p.new_idx, kNone);
                EXPECT_EQ(p.broken_idx, iota(4, 8));
                continue;
            }
            ASSERT_EQ(s, CC_OK) << cc_last_error_message();
            cc_overflow ov;
            ASSERT_EQ(cc_pipeline_get_overflow(r.w.pipeline.get(), &ov), CC_OK);
            EXPECT_FALSE(ov.contacts_overflowed);
            std::vector<cc_contact> rows(8);
            int n = -1;
            ASSERT_EQ(cc_contacts_download(foreign.get(), r.w.state.get(), rows.data(), 8, &n), CC_OK);
            ASSERT_EQ(n, 8);
            for (int i = 0; i < 8; ++i) EXPECT_EQ(rows[(size_t)i].match_index, i) << "row " << i;
            int nn = -1, nb = -1;
            std::vector<int> ni(8, -7), bi(8, -7);
            ASSERT_EQ(cc_contacts_download_report(foreign.get(), ni.data(), 8, &nn, bi.data(), 8, &nb), CC_OK);
            EXPECT_EQ(nn, 0);
            EXPECT_EQ(nb, 4);
            bi.resize((size_t)std::max(0, std::min(nb, 8)));
            EXPECT_EQ(bi, iota(4, 8));
        }
    }
}

// The broken list can be longer than a smaller foreign buffer's rows: 12
// contacts go into the pipeline's own buffer, then two boxes are lifted
// clear and the pass (4 contacts) goes into a 4-row foreign buffer. Eight
// previous rows (4-11) ended. Refusing the buffer is fine; accepting it, the
// report must not write more indices than the buffer holds, the count is
// the full one and the indices kept are the first ones. On the CPU the
// scenario runs in a child process (a death-test fork), so that a write
// past the buffer's block, which corrupts the heap, fails this test without
// taking the rest of the executable down. (Before the pipeline refused
// such buffers, the CPU report appended all 8 broken rows to the 4-entry
// list: "munmap_chunk(): invalid pointer", and AddressSanitizer's
// heap-buffer-overflow in cpu_run_stage.)
// Returns a description of what went wrong, or "" when all is well.
std::string broken_list_scenario(cc_device dev, cc_contact_matching mode)
{
    SceneBuilder sb;
    sb.add(CC_BODY_WORLD, CC_SHAPE_PLANE, {0, 0, 0});
    int boxes[3];
    for (int k = 0; k < 3; ++k) {
        boxes[k] = sb.body(pose({3.0 * k, 0, 0.5}));
        sb.add(boxes[k], CC_SHAPE_BOX, {0.5f, 0.5f, 0.5f});
    }
    Rig r;
    make_rig(sb, dev, mode, &r);
    if (!r.w.contacts) return "setup failed";
    cc_pipeline_def d = cc_default_pipeline_def();
    d.contact_matching = mode;
    d.contact_report = 1;
    d.rigid_contact_max = 4;
    cc_pipeline* q_raw = nullptr;
    if (cc_pipeline_create(r.w.model.get(), &d, &q_raw) != CC_OK) return "small pipeline create failed";
    Pipeline q(q_raw);
    cc_contacts* small_raw = nullptr;
    if (cc_contacts_create(q.get(), &small_raw) != CC_OK) return "small buffer create failed";
    Contacts small(small_raw);
    // A second buffer made right after the first: on glibc its block sits
    // just past the first one, so a write past the first block corrupts its
    // chunk header and freeing it aborts.
    cc_contacts* canary_raw = nullptr;
    if (cc_contacts_create(q.get(), &canary_raw) != CC_OK) return "canary buffer create failed";
    Contacts canary(canary_raw);
    Pass p = run(r);
    if (p.rows.size() != 12u) return "expected 12 contacts, got " + std::to_string(p.rows.size());
    set_pose(r, boxes[1], pose({3.0, 0, 1.5}));
    set_pose(r, boxes[2], pose({6.0, 0, 1.5}));
    cc_status s = cc_collide(r.w.pipeline.get(), r.w.state.get(), small.get(), nullptr);
    std::string err;
    if (s == CC_OK) {
        int nn = -1, nb = -1;
        std::vector<int> ni(4, -7), bi(4, -7);
        if (cc_contacts_download_report(small.get(), ni.data(), 4, &nn, bi.data(), 4, &nb) != CC_OK)
            return "download_report failed";
        if (nn != 0) err += "new_count " + std::to_string(nn) + " (expected 0); ";
        if (nb != 8) err += "broken_count " + std::to_string(nb) + " (expected 8); ";
        if (bi != iota(4, 4)) {
            err += "broken indices";
            for (int x : bi) err += " " + std::to_string(x);
            err += " (expected 4 5 6 7); ";
        }
    } else if (s != CC_ERR_MISMATCH) {  // refusing the buffer is also fine
        return std::string("collide failed: ") + cc_last_error_message();
    }
    int canary_count = -1;
    if (cc_contacts_count(canary.get(), &canary_count) != CC_OK || canary_count != 0)
        err += "a buffer that was never written has count " + std::to_string(canary_count) + "; ";
    small.reset();  // freeing the blocks is where glibc notices a corrupted heap
    canary.reset();
    q.reset();
    p = run(r);  // the pipeline still works with its own buffer
    if (p.rows.size() != 4u) err += "next pass gave " + std::to_string(p.rows.size()) + " contacts (expected 4)";
    return err;
}

TEST_P(Matching, BrokenListLongerThanASmallerForeignBufferStaysInside)
{
    for (cc_contact_matching mode : kModes) {
        SCOPED_TRACE(mode_name(mode));
        if (GetParam() == CC_DEVICE_CPU) {
            GTEST_FLAG_SET(death_test_style, "threadsafe");
            EXPECT_EXIT(
                {
                    std::string err = broken_list_scenario(device(), mode);
                    std::fprintf(stderr, "%s\n", err.empty() ? "scenario ok" : err.c_str());
                    std::fflush(stderr);
                    std::_Exit(err.empty() ? 0 : 1);
                },
                ::testing::ExitedWithCode(0), "scenario ok");
        } else {
            EXPECT_EQ(broken_list_scenario(device(), mode), "");
        }
    }
}

// ---------------------------------------------------------------- brute force

// A small pile: a row of touching spheres, flat capsules and boxes on the
// ground, a second layer of spheres on top; all slightly penetrating.
struct SmallPile {
    SceneBuilder sb;
    std::vector<cc_transform> base;
};

SmallPile make_small_pile()
{
    SmallPile p;
    p.sb.add(CC_BODY_WORLD, CC_SHAPE_PLANE, {0, 0, 0});
    const double pen = 0.0003;
    auto add = [&](cc_shape_type t, cc_vec3 size, cc_transform tf) {
        int body = p.sb.body(tf);
        p.sb.add(body, t, size);
        p.base.push_back(tf);
    };
    const double r = 0.05;
    for (int i = 0; i < 4; ++i) add(CC_SHAPE_SPHERE, {(float)r, 0, 0}, pose({2 * r * i - 0.0002 * i, 0, r - pen}));
    // Capsules along x lying in a row behind the spheres, touching them.
    Q along_x = axis_angle({0, 1, 0}, M_PI / 2);
    for (int i = 0; i < 3; ++i)
        add(CC_SHAPE_CAPSULE, {(float)r, 0.05f, 0}, pose({0.2 * i, 2 * r - 0.0002, r - pen}, along_x));
    for (int i = 0; i < 3; ++i)
        add(CC_SHAPE_BOX, {0.05f, 0.05f, 0.05f}, pose({0.1 * i + 0.05, -2 * r + 0.0002, 0.05 - pen}));
    // Second layer: spheres in the hollows of the first row.
    for (int i = 0; i < 3; ++i)
        add(CC_SHAPE_SPHERE, {(float)r, 0, 0}, pose({2 * r * i + r, 0, r + std::sqrt(3.0) * r - 0.0004}));
    return p;
}

// 30 frames of random pose perturbations (mostly sub-threshold steps, some
// jumps of millimetres and centiradians). Every frame the reports equal the
// lists recomputed from the buffers, every match is valid and unique, each
// row's match is its closest candidate and an unmatched row lost its
// closest candidate to a row at least as close. A deterministic pipeline
// without matching, run on the same state, gives the fresh geometry, which
// latest must return unchanged and sticky must return except where it
// replays.
TEST_P(Matching, ReportsMatchABruteForceReference)
{
    const double eps = 2e-6, dot_eps = 2e-6;
    for (cc_contact_matching mode : kModes) {
        SCOPED_TRACE(mode_name(mode));
        SmallPile pile = make_small_pile();
        Rig r;
        make_rig(pile.sb, device(), mode, &r);
        World fresh_world;
        {
            cc_pipeline_def d = cc_default_pipeline_def();
            d.deterministic = 1;
            d.rigid_contact_max = 4096;
            ASSERT_EQ(make_world(pile.sb.b.get(), device(), d, &fresh_world), CC_OK) << cc_last_error_message();
        }
        const int nb = (int)pile.base.size();
        std::mt19937 rng(mode == CC_MATCHING_LATEST ? 101 : 202);
        std::uniform_real_distribution<double> u(-1.0, 1.0), u01(0.0, 1.0);
        std::vector<V> dp((size_t)nb, V{0, 0, 0}), dr((size_t)nb, V{0, 0, 0});
        Pass prev;
        int total_matched = 0, total_new = 0, total_broken = 0, total_replayed = 0, total_lost_claims = 0;
        int total_shifted = 0;  // matches whose previous row has another index
        std::vector<int> counts;
        for (int f = 0; f < 30; ++f) {
            SCOPED_TRACE(testing::Message() << "frame " << f);
            std::vector<cc_transform> poses((size_t)nb);
            for (int b = 0; b < nb; ++b) {
                V& p = dp[(size_t)b];
                V& a = dr[(size_t)b];
                if (f > 0) {
                    if (u01(rng) < 0.75) {  // a small step
                        p = p + V{u(rng), u(rng), u(rng)} * 0.00015;
                        a = a + V{u(rng), u(rng), u(rng)} * 0.0005;
                    } else {  // a jump
                        p = V{u(rng), u(rng), u(rng)} * 0.002;
                        a = V{u(rng), u(rng), u(rng)} * 0.02;
                    }
                    p = {std::clamp(p.x, -0.003, 0.003), std::clamp(p.y, -0.003, 0.003), std::clamp(p.z, -0.002, 0.002)};
                    a = {std::clamp(a.x, -0.03, 0.03), std::clamp(a.y, -0.03, 0.03), std::clamp(a.z, -0.03, 0.03)};
                }
                // Now and then a body is lifted 5 cm for one frame, so that
                // contacts vanish and come back and later rows shift.
                V lift{0, 0, f > 0 && u01(rng) < 0.08 ? 0.05 : 0.0};
                const cc_transform& base = pile.base[(size_t)b];
                Q q = norm(a) > 0 ? axis_angle(a, norm(a)) : kIdQ;
                poses[(size_t)b] = pose(from_cc(base.p) + p + lift, qmul(q, from_cc(base.q)));
            }
            ASSERT_EQ(cc_state_set_body_poses(r.w.state.get(), 0, nb, poses.data()), CC_OK);
            ASSERT_EQ(cc_state_set_body_poses(fresh_world.state.get(), 0, nb, poses.data()), CC_OK);
            Pass cur = run(r);
            std::vector<cc_contact> fresh = collide(fresh_world);
            ASSERT_EQ(cur.rows.size(), fresh.size());
            ASSERT_GT(cur.rows.size(), 20u);
            counts.push_back((int)cur.rows.size());
            EXPECT_EQ(cur.generation, f + 1);
            EXPECT_EQ(cur.match_generation, f == 0 ? -1 : f);
            const int n = (int)cur.rows.size(), m = (int)prev.rows.size();

            // Reports equal the lists recomputed from the buffers.
            expect_reports_consistent(cur, m);

            // The matching metric from fresh geometry.
            auto cand = [&](int i, int j, double* d, double* nd) {
                const cc_contact &c = fresh[(size_t)i], &p = prev.rows[(size_t)j];
                if (c.shape0 != p.shape0 || c.shape1 != p.shape1) return false;
                *nd = dot(from_cc(c.normal), from_cc(p.normal));
                *d = metric(r, c, cur.poses, p, prev.poses);
                return true;
            };
            // Each row's closest clear candidate (strictly inside both thresholds).
            std::vector<int> best((size_t)n, -1);
            std::vector<double> best_d((size_t)n, 1e30);
            for (int i = 0; i < n; ++i)
                for (int j = 0; j < m; ++j) {
                    double d, nd;
                    if (cand(i, j, &d, &nd) && nd >= r.dot + dot_eps && d <= r.pos - eps && d < best_d[(size_t)i]) {
                        best[(size_t)i] = j;
                        best_d[(size_t)i] = d;
                    }
                }

            std::vector<int> matched_by((size_t)std::max(m, 1), -1);
            for (int i = 0; i < n; ++i) {
                SCOPED_TRACE(testing::Message() << "row " << i << " shapes (" << cur.rows[(size_t)i].shape0 << ", "
                                                << cur.rows[(size_t)i].shape1 << ")");
                const cc_contact& c = cur.rows[(size_t)i];
                const cc_contact& fr = fresh[(size_t)i];
                ASSERT_EQ(c.shape0, fr.shape0);
                ASSERT_EQ(c.shape1, fr.shape1);
                int j = c.match_index;
                ASSERT_GE(j, -1);
                ASSERT_LT(j, m);
                bool replayed = mode == CC_MATCHING_STICKY && j >= 0 && fr.distance < 0.0f;
                if (replayed) {
                    const cc_contact& p = prev.rows[(size_t)j];
                    EXPECT_TRUE(same_bits(c.point0, p.point0) && same_bits(c.point1, p.point1) &&
                                same_bits(c.normal, p.normal))
                        << "sticky must replay the previous geometry of a matched penetrating contact";
                    int b0 = r.shape_body[(size_t)c.shape0], b1 = r.shape_body[(size_t)c.shape1];
                    double d = dot(from_cc(c.normal), world(cur.poses, b1, c.point1) - world(cur.poses, b0, c.point0)) -
                               c.thickness0 - c.thickness1;
                    EXPECT_NEAR(c.distance, d, 1e-6);
                    ++total_replayed;
                } else {
                    EXPECT_EQ(std::memcmp(&c, &fr, offsetof(cc_contact, match_index)), 0)
                        << "a row that is not replayed must keep its fresh geometry";
                }
                if (j < 0) {
                    ++total_new;
                    continue;
                }
                ++total_matched;
                total_shifted += j != i;
                // Valid: same pair, within both thresholds.
                double d = 0, nd = 0;
                ASSERT_TRUE(cand(i, j, &d, &nd)) << "matched a row of another shape pair";
                EXPECT_GE(nd, r.dot - dot_eps) << "normal dot below the threshold";
                EXPECT_LE(d, r.pos + eps) << "distance above the threshold";
                // Unique.
                EXPECT_EQ(matched_by[(size_t)j], -1) << "previous row " << j << " matched twice";
                matched_by[(size_t)j] = i;
                // The closest candidate.
                if (best[(size_t)i] >= 0) {
                    EXPECT_LE(d, best_d[(size_t)i] + eps) << "a closer candidate was passed over";
                }
            }
            // An unmatched row with a clear candidate lost its closest one to
            // a row at least as close.
            for (int i = 0; i < n; ++i) {
                if (cur.rows[(size_t)i].match_index >= 0 || best[(size_t)i] < 0) continue;
                ++total_lost_claims;
                bool explained = false;
                for (int j = 0; j < m && !explained; ++j) {
                    double d, nd;
                    if (!cand(i, j, &d, &nd) || d > best_d[(size_t)i] + eps || nd < r.dot - dot_eps) continue;
                    int w = matched_by[(size_t)j];
                    double dw, ndw;
                    if (w >= 0 && cand(w, j, &dw, &ndw) && dw <= d + eps)
                        explained = true;
                }
                EXPECT_TRUE(explained) << "row " << i << " had a candidate (previous row " << best[(size_t)i]
                                       << ", distance " << best_d[(size_t)i] << ") but was left unmatched";
            }
            // Claims: no row lost to a farther claimant.
            for (int i = 0; i < n; ++i) {
                int j = cur.rows[(size_t)i].match_index;
                if (j < 0) continue;
                double d = 0, nd = 0;
                if (!cand(i, j, &d, &nd)) continue;  // reported above
                for (int i2 = 0; i2 < n; ++i2) {
                    if (i2 == i || best[(size_t)i2] != j) continue;
                    EXPECT_FALSE(best_d[(size_t)i2] < d - eps)
                        << "previous row " << j << " went to row " << i << " though row " << i2 << " is closer";
                }
            }
            total_broken += (int)cur.broken_idx.size();
            prev = cur;
        }
        // The sequence exercised every outcome.
        EXPECT_GT(total_matched, 100);
        EXPECT_GT(total_new, 50);
        EXPECT_GT(total_broken, 50);
        EXPECT_GT(total_shifted, 50) << "rows should shift between frames";
        EXPECT_GT(std::set<int>(counts.begin(), counts.end()).size(), 5u) << "the contact count should vary";
        if (mode == CC_MATCHING_STICKY) {
            EXPECT_GT(total_replayed, 20);
        }
        const std::string m = mode_name(mode);
        RecordProperty(m + "_matched", total_matched);
        RecordProperty(m + "_new", total_new);
        RecordProperty(m + "_broken", total_broken);
        RecordProperty(m + "_replayed", total_replayed);
        RecordProperty(m + "_lost_claims", total_lost_claims);
        RecordProperty(m + "_shifted", total_shifted);
    }
}

CC_INSTANTIATE_DEVICE_TEST(Matching);

}  // namespace
