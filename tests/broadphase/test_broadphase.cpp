// Broad phase: NXN, SAP and EXPLICIT against an independent brute force on
// large random multi-world scenes (world rule, collision groups, automatic
// filters, filter pairs, expanded AABBs); the collision-group truth table;
// replicated and heterogeneous worlds; EXPLICIT's once-per-template storage;
// AUTO's choice.
//
// The brute force computes every shape's world AABB in double precision from
// the shape's geometry, expanded by margin + gap. Pairs whose AABBs are
// within 1e-4 m of touching on some axis are ambiguous under float rounding
// and may go either way; every other pair must be reported exactly when it
// is expected.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <random>
#include <set>
#include <string>
#include <tuple>
#include <unordered_set>
#include <utility>
#include <vector>

#include "kernels/broadphase/explicit.h"
#include "kernels/broadphase/nxn.h"
#include "tests/support/test_support.h"

using namespace cctest;

namespace {

using Pair = std::pair<int, int>;

// ---------------------------------------------------------------- double math

struct V {
    double x, y, z;
};
V operator+(V a, V b) { return {a.x + b.x, a.y + b.y, a.z + b.z}; }
V operator-(V a, V b) { return {a.x - b.x, a.y - b.y, a.z - b.z}; }
V operator*(V a, double s) { return {a.x * s, a.y * s, a.z * s}; }
V cross(V a, V b) { return {a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x}; }
double get(V v, int k) { return k == 0 ? v.x : (k == 1 ? v.y : v.z); }

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
struct X {
    V p;
    Q q;
};
X xmul(X a, X b) { return {a.p + rot(a.q, b.p), qmul(a.q, b.q)}; }
X from_cc(cc_transform t) { return {{t.p.x, t.p.y, t.p.z}, {t.q.x, t.q.y, t.q.z, t.q.w}}; }

cc_quat random_quat(std::mt19937& rng)
{
    std::normal_distribution<float> n(0.0f, 1.0f);
    float x = n(rng), y = n(rng), z = n(rng), w = n(rng);
    float l = std::sqrt(x * x + y * y + z * z + w * w);
    return {x / l, y / l, z / l, w / l};
}
float uni(std::mt19937& rng, float lo, float hi) { return std::uniform_real_distribution<float>(lo, hi)(rng); }
cc_vec3 uni3(std::mt19937& rng, float lo, float hi) { return {uni(rng, lo, hi), uni(rng, lo, hi), uni(rng, lo, hi)}; }
bool chance(std::mt19937& rng, double p) { return std::uniform_real_distribution<double>(0, 1)(rng) < p; }

constexpr cc_quat kIdQ{0, 0, 0, 1};

// ---------------------------------------------------------------- scene records

struct RBody {
    cc_transform pose;
    bool is_static = false;
    int parent = -1;
    int world = -1;
};

struct RShape {
    cc_shape_type type;
    cc_vec3 size;
    int body = -1;
    int world = -1; // for body -1 shapes; shapes on bodies take the body's world
    cc_transform local{{0, 0, 0}, {0, 0, 0, 1}};
    float margin = 0.0f;
    float gap = -1.0f; // -1: from the builder
    int group = 1;
    bool filter_parent = true;
    bool has_collision = true;
};

// Bodies and shapes in the order they are added; world w's entities are
// contiguous and added between begin_world/end_world; globals first.
struct RScene {
    float rigid_gap = 0.05f;
    int worlds = 0;
    std::vector<RBody> bodies;
    std::vector<RShape> shapes;
    std::vector<Pair> filters;

    int shape_world(int s) const
    {
        const RShape& r = shapes[(size_t)s];
        return r.body >= 0 ? bodies[(size_t)r.body].world : r.world;
    }
    bool shape_static(int s) const
    {
        const RShape& r = shapes[(size_t)s];
        return r.body < 0 || bodies[(size_t)r.body].is_static;
    }
    float gap(int s) const { return shapes[(size_t)s].gap < 0 ? rigid_gap : shapes[(size_t)s].gap; }
};

bool is_infinite_plane(const RShape& s) { return s.type == CC_SHAPE_PLANE && !(s.size.x > 0 && s.size.y > 0); }

uint64_t key(int a, int b)
{
    if (a > b) std::swap(a, b);
    return ((uint64_t)(uint32_t)a << 32) | (uint32_t)b;
}

// The reference's rules, written from the spec, independent of the library.
bool groups_collide(int a, int b)
{
    if (a == 0 || b == 0) return false;
    if (a > 0 && b > 0) return a == b;
    if (a < 0 && b < 0) return a != b;
    return true;
}

enum Rule { kOk, kNoCollision, kStatic, kWorld, kGroup, kSameBody, kParent, kPlanes, kFilter, kRuleCount };

Rule pair_rule(const RScene& sc, const std::unordered_set<uint64_t>& filters, int a, int b)
{
    const RShape &sa = sc.shapes[(size_t)a], &sb = sc.shapes[(size_t)b];
    if (!sa.has_collision || !sb.has_collision || sa.group == 0 || sb.group == 0) return kNoCollision;
    if (sc.shape_static(a) && sc.shape_static(b)) return kStatic;
    int wa = sc.shape_world(a), wb = sc.shape_world(b);
    if (!(wa == -1 || wb == -1 || wa == wb)) return kWorld;
    if (!groups_collide(sa.group, sb.group)) return kGroup;
    if (sa.body >= 0 && sa.body == sb.body) return kSameBody;
    if ((sa.filter_parent || sb.filter_parent) && sa.body >= 0 && sb.body >= 0 &&
        (sc.bodies[(size_t)sa.body].parent == sb.body || sc.bodies[(size_t)sb.body].parent == sa.body))
        return kParent;
    if (is_infinite_plane(sa) && is_infinite_plane(sb)) return kPlanes;
    if (filters.count(key(a, b))) return kFilter;
    return kOk;
}

struct Box3 {
    double lo[3], hi[3];
};

// World AABB of a shape from its geometry, grown by `e` on every side.
Box3 shape_aabb(const RShape& s, X xf, double e)
{
    Box3 b;
    double ext[3] = {0, 0, 0};
    V ax = rot(xf.q, {1, 0, 0}), ay = rot(xf.q, {0, 1, 0}), az = rot(xf.q, {0, 0, 1});
    auto box_ext = [&](double hx, double hy, double hz) {
        for (int k = 0; k < 3; ++k)
            ext[k] = std::fabs(get(ax, k)) * hx + std::fabs(get(ay, k)) * hy + std::fabs(get(az, k)) * hz;
    };
    switch (s.type) {
    case CC_SHAPE_SPHERE:
        ext[0] = ext[1] = ext[2] = s.size.x;
        break;
    case CC_SHAPE_CAPSULE:
        for (int k = 0; k < 3; ++k) ext[k] = std::fabs(get(az, k)) * s.size.y + s.size.x;
        break;
    case CC_SHAPE_BOX:
        box_ext(s.size.x, s.size.y, s.size.z);
        break;
    case CC_SHAPE_PLANE:
        if (!is_infinite_plane(s)) {
            // The solid under the rectangle: open on the side each normal
            // component points away from.
            box_ext(s.size.x, s.size.y, 0.0);
            for (int k = 0; k < 3; ++k) {
                double n = get(az, k);
                b.lo[k] = n > 1e-6 ? -1e30 : get(xf.p, k) - ext[k] - e;
                b.hi[k] = n < -1e-6 ? 1e30 : get(xf.p, k) + ext[k] + e;
            }
            return b;
        }
        // The half-space below the plane: bounded only along an axis that
        // its normal is aligned with.
        for (int k = 0; k < 3; ++k) {
            double n = get(az, k);
            b.lo[k] = (n < -0.999999) ? get(xf.p, k) - e : -1e30;
            b.hi[k] = (n > 0.999999) ? get(xf.p, k) + e : 1e30;
        }
        return b;
    default:
        break;
    }
    for (int k = 0; k < 3; ++k) {
        b.lo[k] = get(xf.p, k) - ext[k] - e;
        b.hi[k] = get(xf.p, k) + ext[k] + e;
    }
    return b;
}

// Smallest overlap over the axes: > 0 overlapping, < 0 separated.
double overlap_slack(const Box3& a, const Box3& b)
{
    double s = 1e300;
    for (int k = 0; k < 3; ++k) s = std::min(s, std::min(b.hi[k] - a.lo[k], a.hi[k] - b.lo[k]));
    return s;
}

constexpr double kBand = 1e-4;

struct Expected {
    std::set<Pair> yes;       // must be reported
    std::set<Pair> ambiguous; // within kBand of touching: either way
    long rejected_by[kRuleCount] = {}; // overlapping pairs each rule rejects
    long yes_global_global = 0, yes_world_global = 0, yes_infinite_plane = 0;
};

// Brute force over every pair of every world (plus globals).
Expected brute_force(const RScene& sc, const std::vector<cc_transform>& body_pose)
{
    size_t n = sc.shapes.size();
    std::vector<Box3> box(n);
    for (size_t i = 0; i < n; ++i) {
        const RShape& s = sc.shapes[i];
        X xf = from_cc(s.local);
        if (s.body >= 0) xf = xmul(from_cc(body_pose[(size_t)s.body]), xf);
        box[i] = shape_aabb(s, xf, (double)s.margin + sc.gap((int)i));
    }
    std::unordered_set<uint64_t> filters;
    for (const Pair& p : sc.filters) filters.insert(key(p.first, p.second));
    std::vector<std::vector<int>> by_world((size_t)sc.worlds);
    std::vector<int> globals;
    for (size_t i = 0; i < n; ++i) {
        int w = sc.shape_world((int)i);
        (w < 0 ? globals : by_world[(size_t)w]).push_back((int)i);
    }
    Expected ex;
    auto consider = [&](int a, int b) {
        if (a > b) std::swap(a, b);
        double slack = overlap_slack(box[(size_t)a], box[(size_t)b]);
        if (slack < -kBand) return;
        Rule r = pair_rule(sc, filters, a, b);
        if (r != kOk) {
            ex.rejected_by[r]++;
            return;
        }
        if (slack <= kBand) {
            ex.ambiguous.insert({a, b});
            return;
        }
        ex.yes.insert({a, b});
        int wa = sc.shape_world(a), wb = sc.shape_world(b);
        if (wa < 0 && wb < 0) ex.yes_global_global++;
        else if (wa < 0 || wb < 0) ex.yes_world_global++;
        if (is_infinite_plane(sc.shapes[(size_t)a]) || is_infinite_plane(sc.shapes[(size_t)b])) ex.yes_infinite_plane++;
    };
    for (const auto& list : by_world) {
        for (size_t i = 0; i < list.size(); ++i) {
            for (size_t j = i + 1; j < list.size(); ++j) consider(list[i], list[j]);
            for (int g : globals) consider(list[i], g);
        }
    }
    for (size_t i = 0; i < globals.size(); ++i)
        for (size_t j = i + 1; j < globals.size(); ++j) consider(globals[i], globals[j]);
    // Cross-world pairs of worlds 0 and 1 that overlap in space, for the record.
    if (sc.worlds >= 2)
        for (int a : by_world[0])
            for (int b : by_world[1])
                if (overlap_slack(box[(size_t)a], box[(size_t)b]) > kBand) ex.rejected_by[kWorld]++;
    return ex;
}

// A scene finalized on the test's device, its state, and the poses the
// library holds (quaternions normalised in float), which the brute force
// must use.
struct Finalized {
    Model model;
    State state;
    std::vector<cc_transform> held;
};

// ---------------------------------------------------------------- building

Builder build(const RScene& sc)
{
    Builder b = make_builder(sc.rigid_gap);
    size_t nb = 0, ns = 0;
    for (int w = -1; w < sc.worlds; ++w) {
        if (w >= 0) {
            int got = -1;
            EXPECT_EQ(cc_builder_begin_world(b.get(), &got), CC_OK);
            EXPECT_EQ(got, w);
        }
        for (; nb < sc.bodies.size() && sc.bodies[nb].world == w; ++nb) {
            const RBody& r = sc.bodies[nb];
            cc_body_def d = cc_default_body_def();
            d.pose = r.pose;
            d.is_static = r.is_static;
            d.parent = r.parent;
            d.world = w < 0 ? CC_WORLD_GLOBAL : CC_WORLD_CURRENT;
            int id = -1;
            EXPECT_EQ(cc_builder_add_body(b.get(), &d, &id), CC_OK) << cc_last_error_message();
            EXPECT_EQ(id, (int)nb);
        }
        for (; ns < sc.shapes.size() && sc.shape_world((int)ns) == w; ++ns) {
            const RShape& r = sc.shapes[ns];
            cc_shape_def d = cc_default_shape_def();
            d.local = r.local;
            d.margin = r.margin;
            d.gap = r.gap < 0 ? CC_GAP_FROM_BUILDER : r.gap;
            d.collision_group = r.group;
            d.collision_filter_parent = r.filter_parent;
            d.has_shape_collision = r.has_collision;
            d.world = (r.body < 0 && w < 0) ? CC_WORLD_GLOBAL : CC_WORLD_CURRENT;
            int id = -1;
            EXPECT_EQ(cc_builder_add_shape(b.get(), r.body, r.type, r.size, &d, &id), CC_OK) << cc_last_error_message();
            EXPECT_EQ(id, (int)ns);
        }
        if (w >= 0) {
            EXPECT_EQ(cc_builder_end_world(b.get()), CC_OK);
        }
    }
    EXPECT_EQ(nb, sc.bodies.size()) << "bodies must be listed world by world, globals first";
    EXPECT_EQ(ns, sc.shapes.size()) << "shapes must be listed world by world, globals first";
    for (const Pair& p : sc.filters) EXPECT_EQ(cc_builder_add_filter_pair(b.get(), p.first, p.second), CC_OK);
    return b;
}

Finalized finalize(const Builder& b, const RScene& sc, cc_device device)
{
    Finalized f;
    cc_model* m = nullptr;
    EXPECT_EQ(cc_builder_finalize(b.get(), device, &m), CC_OK) << cc_last_error_message();
    f.model.reset(m);
    cc_state* st = nullptr;
    if (m) {
        EXPECT_EQ(cc_state_create(m, &st), CC_OK);
    }
    f.state.reset(st);
    f.held.resize(sc.bodies.size());
    if (st) {
        EXPECT_EQ(cc_state_get_body_poses(st, 0, (int)f.held.size(), f.held.data()), CC_OK);
    }
    return f;
}

RShape random_shape(std::mt19937& rng, bool allow_plane)
{
    RShape s;
    int t = std::discrete_distribution<int>({30, 25, 35, allow_plane ? 10.0 : 0.0})(rng);
    switch (t) {
    case 0:
        s.type = CC_SHAPE_SPHERE;
        s.size = {uni(rng, 0.05f, 0.3f), 0, 0};
        break;
    case 1:
        s.type = CC_SHAPE_CAPSULE;
        s.size = {uni(rng, 0.05f, 0.2f), chance(rng, 0.1) ? 0.0f : uni(rng, 0.05f, 0.4f), 0};
        break;
    case 2:
        s.type = CC_SHAPE_BOX;
        s.size = uni3(rng, 0.05f, 0.3f);
        break;
    default:
        s.type = CC_SHAPE_PLANE;
        s.size = {uni(rng, 0.1f, 0.5f), uni(rng, 0.1f, 0.5f), 0};
        break;
    }
    static const int groups[] = {0, 1, 2, -1, -2};
    s.group = groups[std::discrete_distribution<int>({5, 40, 20, 20, 15})(rng)];
    s.margin = chance(rng, 0.5) ? 0.0f : uni(rng, 0.0f, 0.03f);
    s.gap = chance(rng, 0.3) ? -1.0f : uni(rng, 0.0f, 0.08f);
    s.filter_parent = chance(rng, 0.5);
    s.has_collision = !chance(rng, 0.05);
    s.local.q = chance(rng, 0.2) ? kIdQ : random_quat(rng);
    return s;
}

// At least `per_world` shapes in each of `worlds` worlds, plus globals: an
// infinite ground plane, static global boxes, a finite global plane and
// dynamic global bodies. Worlds overlap in space.
RScene random_scene(uint32_t seed, int worlds, int per_world)
{
    std::mt19937 rng(seed);
    RScene sc;
    sc.worlds = worlds;
    const float L = 4.0f, H = 2.5f;
    auto region = [&]() { return cc_vec3{uni(rng, 0, L), uni(rng, 0, L), uni(rng, -0.3f, H)}; };

    // Globals.
    {
        RShape g;
        g.type = CC_SHAPE_PLANE;
        g.size = {0, 0, 0};
        g.group = -1;
        sc.shapes.push_back(g);
        for (int i = 0; i < 4; ++i) {
            RShape s = random_shape(rng, false);
            s.type = CC_SHAPE_BOX;
            s.size = uni3(rng, 0.2f, 0.5f);
            s.local.p = region();
            s.has_collision = true;
            s.group = i % 2 ? 1 : -2;
            sc.shapes.push_back(s);
        }
        RShape fp = random_shape(rng, true);
        fp.type = CC_SHAPE_PLANE;
        fp.size = {1.0f, 0.7f, 0};
        fp.local.p = region();
        fp.has_collision = true;
        fp.group = 2;
        sc.shapes.push_back(fp);
        // Dynamic global bodies placed to meet global box 1 (group 1), each
        // other, and the ground (group -1).
        cc_vec3 nb = sc.shapes[2].local.p;
        const cc_vec3 at[3] = {{nb.x + 0.2f, nb.y, nb.z}, {2.0f, 2.0f, 0.1f}, {nb.x + 0.5f, nb.y + 0.1f, nb.z}};
        const int body_group[3] = {-1, 1, 1};
        for (int i = 0; i < 3; ++i) {
            RBody body;
            body.pose = {at[i], random_quat(rng)};
            body.world = -1;
            sc.bodies.push_back(body);
        }
        for (int i = 0; i < 3; ++i) {
            for (int k = 0; k < 2; ++k) {
                RShape s = random_shape(rng, false);
                s.body = (int)sc.bodies.size() - 3 + i;
                s.local.p = uni3(rng, -0.2f, 0.2f);
                s.has_collision = true;
                s.group = body_group[i];
                sc.shapes.push_back(s);
            }
        }
    }
    // A few global filter pairs against the ground come later.
    for (int w = 0; w < worlds; ++w) {
        int body0 = (int)sc.bodies.size();
        std::vector<RBody> bodies;
        std::vector<RShape> shapes;
        int count = 0;
        while (count < per_world) {
            RBody b;
            b.pose = {region(), random_quat(rng)};
            b.world = w;
            b.is_static = chance(rng, 0.1);
            int here = body0 + (int)bodies.size();
            if (here > body0 && chance(rng, 0.25))
                b.parent = body0 + std::uniform_int_distribution<int>(0, (int)bodies.size() - 1)(rng);
            bodies.push_back(b);
            int k = std::uniform_int_distribution<int>(1, 3)(rng);
            for (int i = 0; i < k; ++i) {
                RShape s = random_shape(rng, true);
                s.body = here;
                s.local.p = uni3(rng, -0.3f, 0.3f);
                shapes.push_back(s);
                ++count;
            }
        }
        // Shapes fixed in the world frame of this world.
        for (int i = 0; i < 3; ++i) {
            RShape s = random_shape(rng, false);
            s.body = -1;
            s.world = w;
            s.local.p = region();
            shapes.push_back(s);
        }
        // Infinite planes on dynamic bodies: a tilted one, or a ceiling
        // facing down (exactly -z), in some worlds. Never paired with the
        // infinite ground.
        if (w % 8 == 0) {
            RBody b;
            b.world = w;
            b.pose = {{uni(rng, 0, L), uni(rng, 0, L), 3.0f}, w % 16 == 0 ? cc_quat{0.258819f, 0, 0, 0.9659258f}
                                                                         : cc_quat{1, 0, 0, 0}};
            bodies.push_back(b);
            RShape s;
            s.type = CC_SHAPE_PLANE;
            s.size = {0, 0, 0};
            s.body = body0 + (int)bodies.size() - 1;
            s.group = -2;
            shapes.push_back(s);
        }
        sc.bodies.insert(sc.bodies.end(), bodies.begin(), bodies.end());
        sc.shapes.insert(sc.shapes.end(), shapes.begin(), shapes.end());
    }
    return sc;
}

// Filter pairs between shapes that are close (so that they matter): within
// one world, and a few against the ground plane and a global box.
void add_random_filters(RScene& sc, const std::vector<cc_transform>& body_pose, uint32_t seed, int count)
{
    std::mt19937 rng(seed);
    auto centre = [&](int s) {
        const RShape& r = sc.shapes[(size_t)s];
        X xf = from_cc(r.local);
        if (r.body >= 0) xf = xmul(from_cc(body_pose[(size_t)r.body]), xf);
        return xf.p;
    };
    int n = (int)sc.shapes.size();
    std::uniform_int_distribution<int> pick(0, n - 1);
    int added = 0, tries = 0;
    while (added < count && tries < 200000) {
        ++tries;
        int a = pick(rng), b = pick(rng);
        if (a == b || sc.shape_world(a) != sc.shape_world(b) || sc.shape_world(a) < 0) continue;
        V d = centre(a) - centre(b);
        if (d.x * d.x + d.y * d.y + d.z * d.z > 0.5) continue;
        sc.filters.push_back({a, b});
        ++added;
    }
    int ground_filters = 0;
    for (int s = 0; s < n && ground_filters < 40; ++s)
        if (sc.shape_world(s) >= 0 && centre(s).z < 0.1 && chance(rng, 0.5)) {
            sc.filters.push_back({0, s});
            ++ground_filters;
        }
    for (int s = 0, k = 0; s < n && k < 10; ++s)
        if (sc.shape_world(s) >= 0 && chance(rng, 0.01)) {
            sc.filters.push_back({s, 1}); // global box 1, listed in reverse order
            ++k;
        }
}

// ---------------------------------------------------------------- pipelines

struct Pass {
    Pipeline p;
    Contacts c;
};

Pass make_pass(cc_model* m, cc_broad_phase bp, int pairs_max, int contacts_max)
{
    Pass out;
    cc_pipeline_def def = cc_default_pipeline_def();
    def.broad_phase = bp;
    def.shape_pairs_max = pairs_max;
    def.rigid_contact_max = contacts_max;
    cc_pipeline* p = nullptr;
    EXPECT_EQ(cc_pipeline_create(m, &def, &p), CC_OK) << cc_last_error_message();
    out.p.reset(p);
    cc_contacts* c = nullptr;
    if (p) {
        EXPECT_EQ(cc_contacts_create(p, &c), CC_OK) << cc_last_error_message();
    }
    out.c.reset(c);
    return out;
}

// Collides, checks nothing overflowed, returns the sorted candidate pairs and
// checks they are ordered a < b and unique.
std::vector<Pair> collide_pairs(Pass& pass, cc_state* st)
{
    std::vector<Pair> out;
    if (!pass.p || !pass.c) return out;
    EXPECT_EQ(cc_collide(pass.p.get(), st, pass.c.get(), nullptr), CC_OK) << cc_last_error_message();
    cc_overflow o;
    EXPECT_EQ(cc_pipeline_get_overflow(pass.p.get(), &o), CC_OK);
    EXPECT_FALSE(o.pairs_overflowed) << o.pairs_needed << " pairs needed, capacity " << o.pairs_capacity;
    EXPECT_FALSE(o.contacts_overflowed) << o.contacts_needed << " contacts needed, capacity " << o.contacts_capacity;
    cc_pipeline_info info;
    EXPECT_EQ(cc_pipeline_get_info(pass.p.get(), &info), CC_OK);
    std::vector<int> raw((size_t)info.shape_pairs_max * 2);
    int n = 0;
    EXPECT_EQ(cc_pipeline_download_pairs(pass.p.get(), raw.data(), info.shape_pairs_max, &n), CC_OK);
    EXPECT_EQ(n, o.pairs_needed);
    for (int i = 0; i < n && i < info.shape_pairs_max; ++i) {
        int a = raw[(size_t)2 * i], b = raw[(size_t)2 * i + 1];
        EXPECT_LT(a, b);
        out.push_back({a, b});
    }
    std::sort(out.begin(), out.end());
    EXPECT_EQ(std::adjacent_find(out.begin(), out.end()), out.end()) << "a candidate pair is reported twice";
    return out;
}

std::vector<cc_contact> download_contacts(Pass& pass, const cc_state* st)
{
    std::vector<cc_contact> out((size_t)cc_contacts_capacity(pass.c.get()));
    int n = 0;
    EXPECT_EQ(cc_contacts_download(pass.c.get(), st, out.data(), (int)out.size(), &n), CC_OK);
    out.resize((size_t)std::min<int>(n, (int)out.size()));
    return out;
}

// One contact row in comparable form.
struct Row {
    int s0, s1;
    float d, nx, ny, nz;
    bool operator<(const Row& o) const
    {
        return std::tie(s0, s1, d, nx, ny, nz) < std::tie(o.s0, o.s1, o.d, o.nx, o.ny, o.nz);
    }
    bool operator==(const Row& o) const { return !(*this < o) && !(o < *this); }
};

// Invariants every contact row satisfies (contacts.h): shape order, the pair
// is a candidate, unit normal, thickness, admission, and the distance column
// equal to dot(n, world(point1) - world(point0)) - t0 - t1.
std::vector<Row> check_contact_rows(const RScene& sc, const std::vector<cc_transform>& pose,
                                    const std::vector<Pair>& candidates, const std::vector<cc_contact>& cs)
{
    std::vector<Row> rows;
    int bad = 0;
    auto world_point = [&](int shape, cc_vec3 p) {
        int body = sc.shapes[(size_t)shape].body;
        X q{{p.x, p.y, p.z}, {0, 0, 0, 1}};
        return body >= 0 ? xmul(from_cc(pose[(size_t)body]), q).p : q.p;
    };
    for (const cc_contact& c : cs) {
        const RShape &a = sc.shapes[(size_t)c.shape0], &b = sc.shapes[(size_t)c.shape1];
        float ra = (a.type == CC_SHAPE_SPHERE || a.type == CC_SHAPE_CAPSULE) ? a.size.x : 0.0f;
        float rb = (b.type == CC_SHAPE_SPHERE || b.type == CC_SHAPE_CAPSULE) ? b.size.x : 0.0f;
        V n{c.normal.x, c.normal.y, c.normal.z};
        V w0 = world_point(c.shape0, c.point0), w1 = world_point(c.shape1, c.point1);
        V dw = w1 - w0;
        double identity = n.x * dw.x + n.y * dw.y + n.z * dw.z - c.thickness0 - c.thickness1;
        bool ok = (a.type < b.type || (a.type == b.type && c.shape0 < c.shape1)) &&
                  std::binary_search(candidates.begin(), candidates.end(),
                                     Pair{std::min(c.shape0, c.shape1), std::max(c.shape0, c.shape1)}) &&
                  std::fabs(std::sqrt(n.x * n.x + n.y * n.y + n.z * n.z) - 1.0) < 1e-5 &&
                  c.thickness0 == ra + a.margin && c.thickness1 == rb + b.margin &&
                  c.distance <= sc.gap(c.shape0) + sc.gap(c.shape1) + 1e-6f &&
                  std::fabs(identity - c.distance) < 1e-5;
        if (!ok && ++bad <= 5)
            ADD_FAILURE() << "contact row breaks the conventions: shapes " << c.shape0 << " (type " << a.type << "), "
                          << c.shape1 << " (type " << b.type << "), distance " << c.distance << ", identity "
                          << identity << ", thickness " << c.thickness0 << " / " << c.thickness1;
        rows.push_back({c.shape0, c.shape1, c.distance, c.normal.x, c.normal.y, c.normal.z});
    }
    EXPECT_EQ(bad, 0);
    std::sort(rows.begin(), rows.end());
    return rows;
}

const cc_broad_phase kAllPhases[] = {CC_BROAD_PHASE_NXN, CC_BROAD_PHASE_SAP, CC_BROAD_PHASE_EXPLICIT};
const char* phase_name(cc_broad_phase bp)
{
    switch (bp) {
    case CC_BROAD_PHASE_NXN: return "NXN";
    case CC_BROAD_PHASE_SAP: return "SAP";
    case CC_BROAD_PHASE_EXPLICIT: return "EXPLICIT";
    default: return "AUTO";
    }
}

std::string describe(const RScene& sc, Pair p)
{
    auto one = [&](int s) {
        const RShape& r = sc.shapes[(size_t)s];
        return "shape " + std::to_string(s) + " (type " + std::to_string((int)r.type) + ", world " +
               std::to_string(sc.shape_world(s)) + ", body " + std::to_string(r.body) + ", group " +
               std::to_string(r.group) + (sc.shape_static(s) ? ", static" : "") + ")";
    };
    return one(p.first) + " / " + one(p.second);
}

class Broadphase : public DeviceTest {};

// ---------------------------------------------------------------- random scenes

TEST_P(Broadphase, RandomScenesMatchBruteForce)
{
    const int worlds = 64, per_world = 158;
    RScene sc = random_scene(20240601u, worlds, per_world);
    ASSERT_GE((int)sc.shapes.size(), 10000);
    // Filter pairs are chosen among nearby shapes, so they need the poses.
    std::vector<cc_transform> poses;
    for (auto& b : sc.bodies) poses.push_back(b.pose);
    add_random_filters(sc, poses, 99u, 400);

    Builder b = build(sc);
    ASSERT_EQ(cc_builder_world_count(b.get()), worlds);
    Finalized f = finalize(b, sc, device());
    ASSERT_TRUE(f.state);
    cc_model* m = f.model.get();
    cc_state* s = f.state.get();
    const std::vector<cc_transform>& held = f.held;

    Expected ex = brute_force(sc, held);
    // The scene must exercise every rule, else this test proves little.
    EXPECT_GT(ex.yes.size(), 10000u);
    EXPECT_LT(ex.ambiguous.size(), ex.yes.size() / 1000 + 5) << "too many pairs within the rounding band";
    EXPECT_GT(ex.yes_global_global, 0);
    EXPECT_GT(ex.yes_world_global, 500);
    EXPECT_GT(ex.yes_infinite_plane, 500);
    const char* rule_names[] = {"ok", "no collision", "static-static", "world", "group", "same body", "parent", "two infinite planes", "filter pair"};
    for (int r = 1; r < kRuleCount; ++r) EXPECT_GT(ex.rejected_by[r], 0) << "no overlapping pair is rejected by rule: " << rule_names[r];

    int cap = (int)(ex.yes.size() + ex.ambiguous.size()) + 4096;
    std::vector<std::vector<Pair>> pairs_of;
    std::vector<std::vector<Row>> contacts_of;
    for (cc_broad_phase bp : kAllPhases) {
        SCOPED_TRACE(phase_name(bp));
        Pass pass = make_pass(m, bp, cap, 5 * cap);
        std::vector<Pair> got = collide_pairs(pass, s);
        pairs_of.push_back(got);
        contacts_of.push_back(check_contact_rows(sc, held, got, download_contacts(pass, s)));
        std::set<Pair> got_set(got.begin(), got.end());
        int missing = 0, extra = 0;
        for (const Pair& p : ex.yes)
            if (!got_set.count(p) && ++missing <= 5) ADD_FAILURE() << "missing pair " << describe(sc, p);
        for (const Pair& p : got)
            if (!ex.yes.count(p) && !ex.ambiguous.count(p) && ++extra <= 5) ADD_FAILURE() << "unexpected pair " << describe(sc, p);
        EXPECT_EQ(missing, 0);
        EXPECT_EQ(extra, 0);
    }
    // The three broad phases test the same float AABBs with the same rules,
    // so they find exactly the same pairs, hence exactly the same contacts.
    for (size_t k = 1; k < pairs_of.size(); ++k) {
        EXPECT_TRUE(pairs_of[k] == pairs_of[0]) << phase_name(kAllPhases[k]) << " and NXN find different pairs";
        EXPECT_TRUE(contacts_of[k] == contacts_of[0]) << phase_name(kAllPhases[k]) << " and NXN give different contacts";
    }
    EXPECT_GT(contacts_of[0].size(), 10000u);
}

// ---------------------------------------------------------------- groups

TEST_P(Broadphase, CollisionGroupTruthTable)
{
    struct GroupRow {
        int a, b;
        bool collide;
    };
    // The reference's table, row by row, plus the rows it implies.
    const GroupRow rows[] = {{0, 0, false},  {0, 1, false},   {0, -1, false}, {0, 2, false}, {0, -2, false},
                        {1, 1, true},   {1, 2, false},   {1, -2, true},  {-1, -1, false}, {-1, -2, true},
                        {2, 2, true},   {1, -1, true},   {-2, -2, false}};
    for (const GroupRow& r : rows) {
        for (int swap = 0; swap < 2; ++swap) {
            int ga = swap ? r.b : r.a, gb = swap ? r.a : r.b;
            Builder b = make_builder(0.01f);
            cc_shape_def da = cc_default_shape_def(), db = cc_default_shape_def();
            da.collision_group = ga;
            db.collision_group = gb;
            int b0 = add_body(b.get(), {0, 0, 0}), b1 = add_body(b.get(), {0.9f, 0, 0});
            CC_ASSERT_OK(cc_builder_add_sphere(b.get(), b0, 0.5f, &da, nullptr));
            CC_ASSERT_OK(cc_builder_add_sphere(b.get(), b1, 0.5f, &db, nullptr));
            for (cc_broad_phase bp : kAllPhases) {
                SCOPED_TRACE("groups " + std::to_string(ga) + " / " + std::to_string(gb) + " " + phase_name(bp));
                World w;
                cc_pipeline_def def = cc_default_pipeline_def();
                def.broad_phase = bp;
                CC_ASSERT_OK(make_world(b.get(), device(), def, &w));
                auto c = collide(w);
                ASSERT_EQ(c.size(), r.collide ? 1u : 0u);
                if (r.collide) {
                    EXPECT_NEAR(c[0].distance, -0.1f, 1e-6);
                }
                int pairs[2], n = -1;
                CC_ASSERT_OK(cc_pipeline_download_pairs(w.pipeline.get(), pairs, 1, &n));
                EXPECT_EQ(n, r.collide ? 1 : 0);
            }
        }
    }
}

// ---------------------------------------------------------------- worlds

// Environment: two touching spheres and a box, all resting on the ground.
// Alone with the ground it gives 7 contacts: sphere-sphere 1, each sphere
// on the ground 1, the box on the ground 4.
Builder resting_env()
{
    Builder t = make_builder(0.01f);
    int a = add_body(t.get(), {0, 0, 0.5f}), bb = add_body(t.get(), {0.95f, 0, 0.5f});
    int c = add_body(t.get(), {3.0f, 0, 0.25f});
    EXPECT_EQ(cc_builder_add_sphere(t.get(), a, 0.5f, nullptr, nullptr), CC_OK);
    EXPECT_EQ(cc_builder_add_sphere(t.get(), bb, 0.5f, nullptr, nullptr), CC_OK);
    EXPECT_EQ(cc_builder_add_box(t.get(), c, {0.25f, 0.25f, 0.25f}, nullptr, nullptr), CC_OK);
    return t;
}

void add_ground(cc_builder* b)
{
    cc_shape_def g = cc_default_shape_def();
    g.world = CC_WORLD_GLOBAL;
    EXPECT_EQ(cc_builder_add_plane(b, CC_BODY_WORLD, 0, 0, &g, nullptr), CC_OK);
}

// Contacts sorted into a canonical list of (shape0 - base0, shape1 - base1,
// distance) for comparing a world with the same world built alone.
struct Row3 {
    int a, b;
    float d;
    bool operator<(const Row3& o) const { return a != o.a ? a < o.a : (b != o.b ? b < o.b : d < o.d); }
};

TEST_P(Broadphase, WorldsNeverCollideAcrossAndGlobalsCollideWithAll)
{
    // Combined: ground (shape 0), 50 replicated copies all at the same place,
    // a heterogeneous world, one add_world copy, another heterogeneous world.
    // Every world occupies the same region of space.
    const int copies = 50;
    Builder env = resting_env();
    Builder b = make_builder(0.01f);
    add_ground(b.get());
    int first = -1;
    CC_ASSERT_OK(cc_builder_replicate(b.get(), env.get(), copies, &first));
    EXPECT_EQ(first, 0);
    // Which world each shape is in, and the first shape of each world.
    std::vector<int> world_of(1, -1), world_first;
    for (int c = 0; c < copies; ++c) {
        world_first.push_back(1 + 3 * c);
        for (int k = 0; k < 3; ++k) world_of.push_back(c);
    }
    auto hetero_a = [](cc_builder* bb) {
        // A capsule lying across the spheres' spot and a sphere on it.
        cc_quat zx{0, 0.70710677f, 0, 0.70710677f};
        int c = add_body(bb, {0.5f, 0, 0.2f}, zx);
        EXPECT_EQ(cc_builder_add_capsule(bb, c, 0.2f, 0.6f, nullptr, nullptr), CC_OK);
        int s = add_body(bb, {0.5f, 0, 0.69f});
        EXPECT_EQ(cc_builder_add_sphere(bb, s, 0.3f, nullptr, nullptr), CC_OK);
    };
    auto hetero_b = [](cc_builder* bb) {
        // Two boxes stacked where the box of the environment is.
        int lo = add_body(bb, {3.0f, 0, 0.3f});
        EXPECT_EQ(cc_builder_add_box(bb, lo, {0.3f, 0.3f, 0.3f}, nullptr, nullptr), CC_OK);
        int hi = add_body(bb, {3.0f, 0.05f, 0.75f});
        EXPECT_EQ(cc_builder_add_box(bb, hi, {0.2f, 0.2f, 0.15f}, nullptr, nullptr), CC_OK);
    };
    int w = -1;
    CC_ASSERT_OK(cc_builder_begin_world(b.get(), &w));
    EXPECT_EQ(w, copies);
    hetero_a(b.get());
    CC_ASSERT_OK(cc_builder_end_world(b.get()));
    world_first.push_back((int)world_of.size());
    world_of.insert(world_of.end(), 2, copies);
    CC_ASSERT_OK(cc_builder_add_world(b.get(), env.get(), &w));
    EXPECT_EQ(w, copies + 1);
    world_first.push_back((int)world_of.size());
    world_of.insert(world_of.end(), 3, copies + 1);
    CC_ASSERT_OK(cc_builder_begin_world(b.get(), &w));
    hetero_b(b.get());
    CC_ASSERT_OK(cc_builder_end_world(b.get()));
    world_first.push_back((int)world_of.size());
    world_of.insert(world_of.end(), 2, copies + 2);
    ASSERT_EQ(cc_builder_shape_count(b.get()), (int)world_of.size());
    const int W = copies + 3;

    // Each world alone with the ground, as the reference answer.
    std::vector<std::vector<Row3>> alone((size_t)W);
    for (int k = 0; k < 3; ++k) {
        Builder one = make_builder(0.01f);
        add_ground(one.get());
        if (k == 0) {
            CC_ASSERT_OK(cc_builder_add_world(one.get(), env.get(), nullptr));
        } else {
            CC_ASSERT_OK(cc_builder_begin_world(one.get(), nullptr));
            (k == 1 ? hetero_a : hetero_b)(one.get());
            CC_ASSERT_OK(cc_builder_end_world(one.get()));
        }
        World wo;
        CC_ASSERT_OK(make_world(one.get(), device(), cc_default_pipeline_def(), &wo));
        std::vector<Row3> rows;
        for (auto& c : collide(wo)) rows.push_back({c.shape0 == 0 ? -1 : c.shape0 - 1, c.shape1 - 1, c.distance});
        std::sort(rows.begin(), rows.end());
        for (int ww = 0; ww < W; ++ww) {
            int kind = ww < copies || ww == copies + 1 ? 0 : (ww == copies ? 1 : 2);
            if (kind == k) alone[(size_t)ww] = rows;
        }
    }
    ASSERT_EQ(alone[0].size(), 7u);
    ASSERT_GE(alone[(size_t)copies].size(), 3u);
    ASSERT_GE(alone[(size_t)copies + 2].size(), 8u);

    for (cc_broad_phase bp : kAllPhases) {
        SCOPED_TRACE(phase_name(bp));
        World wc;
        cc_pipeline_def def = cc_default_pipeline_def();
        def.broad_phase = bp;
        CC_ASSERT_OK(make_world(b.get(), device(), def, &wc));
        auto cs = collide(wc);
        std::vector<std::vector<Row3>> got((size_t)W);
        for (auto& c : cs) {
            int w0 = world_of[(size_t)c.shape0], w1 = world_of[(size_t)c.shape1];
            ASSERT_TRUE(w0 == w1 || w0 == -1 || w1 == -1)
                << "contact across worlds " << w0 << " and " << w1 << " (shapes " << c.shape0 << ", " << c.shape1 << ")";
            int ww = w0 >= 0 ? w0 : w1;
            int base = world_first[(size_t)ww];
            got[(size_t)ww].push_back({c.shape0 == 0 ? -1 : c.shape0 - base, c.shape1 - base, c.distance});
        }
        for (int ww = 0; ww < W; ++ww) {
            std::sort(got[(size_t)ww].begin(), got[(size_t)ww].end());
            const auto &g = got[(size_t)ww], &e = alone[(size_t)ww];
            ASSERT_EQ(g.size(), e.size()) << "world " << ww;
            for (size_t i = 0; i < g.size(); ++i) {
                EXPECT_EQ(g[i].a, e[i].a) << "world " << ww;
                EXPECT_EQ(g[i].b, e[i].b) << "world " << ww;
                EXPECT_NEAR(g[i].d, e[i].d, 1e-6) << "world " << ww;
            }
        }
        // Every world's shapes meet the global ground.
        for (int ww = 0; ww < W; ++ww) {
            int ground = 0;
            for (auto& r : got[(size_t)ww]) ground += r.a == -1;
            EXPECT_GE(ground, 2) << "world " << ww;
        }
    }
}

// ---------------------------------------------------------------- EXPLICIT storage

// A 200-shape environment: 100 bodies of two shapes each, mixed groups, a
// few parent links and filter pairs.
RScene environment_200(uint32_t seed)
{
    std::mt19937 rng(seed);
    RScene sc;
    sc.worlds = 1;
    sc.rigid_gap = 0.02f;
    for (int i = 0; i < 100; ++i) {
        RBody b;
        b.world = 0;
        b.pose = {{uni(rng, 0, 12), uni(rng, 0, 12), uni(rng, 0.0f, 3.0f)}, random_quat(rng)};
        b.is_static = i % 25 == 0;
        if (i > 0 && i % 10 == 0) b.parent = i - 1;
        sc.bodies.push_back(b);
    }
    static const int groups[] = {1, 2, -1};
    for (int i = 0; i < 200; ++i) {
        RShape s = random_shape(rng, false);
        s.body = i / 2;
        s.group = groups[i % 3];
        s.has_collision = true;
        s.local.p = uni3(rng, -0.2f, 0.2f);
        sc.shapes.push_back(s);
    }
    for (int i = 0; i < 10; ++i) sc.filters.push_back({7 * i, 7 * i + 50});
    return sc;
}

// Compatible pairs (by the reference's rules, poses ignored) of an
// environment placed in world 0 together with the globals of another scene.
long compatible_pairs(const RScene& env, const RScene& globals)
{
    RScene m = globals;
    int body_off = (int)m.bodies.size(), shape_off = (int)m.shapes.size();
    for (auto b : env.bodies) {
        if (b.parent >= 0) b.parent += body_off;
        b.world = 0;
        m.bodies.push_back(b);
    }
    for (auto s : env.shapes) {
        if (s.body >= 0) s.body += body_off;
        else s.world = 0;
        m.shapes.push_back(s);
    }
    for (auto f : env.filters) m.filters.push_back({f.first + shape_off, f.second + shape_off});
    m.worlds = 1;
    std::unordered_set<uint64_t> filters;
    for (const Pair& p : m.filters) filters.insert(key(p.first, p.second));
    long n = 0;
    for (int a = 0; a < (int)m.shapes.size(); ++a)
        for (int b = a + 1; b < (int)m.shapes.size(); ++b)
            if (pair_rule(m, filters, a, b) == kOk) ++n;
    return n;
}

TEST_P(Broadphase, ExplicitStoresReplicatedPairsOnce)
{
    const int copies = 1024;
    RScene env = environment_200(5u);
    Builder envb = build(env);

    // Globals: the ground, two static boxes, one dynamic global sphere.
    RScene globals;
    globals.rigid_gap = env.rigid_gap;
    {
        RShape g;
        g.type = CC_SHAPE_PLANE;
        g.size = {0, 0, 0};
        globals.shapes.push_back(g);
        for (int i = 0; i < 2; ++i) {
            RShape bx;
            bx.type = CC_SHAPE_BOX;
            bx.size = {0.5f, 0.5f, 0.5f};
            bx.local.p = {2.0f + 4.0f * i, 2.0f, 0.4f};
            globals.shapes.push_back(bx);
        }
        RBody body;
        body.world = -1;
        body.pose = {{6, 6, 1}, kIdQ};
        globals.bodies.push_back(body);
        RShape sp;
        sp.type = CC_SHAPE_SPHERE;
        sp.size = {0.3f, 0, 0};
        sp.body = 0;
        sp.group = -1;
        globals.shapes.push_back(sp);
    }
    Builder b = build(globals);
    int first_world = -1;
    CC_ASSERT_OK(cc_builder_replicate(b.get(), envb.get(), copies, &first_world));
    ASSERT_EQ(cc_builder_shape_count(b.get()), 4 + 200 * copies);

    // Independent counts: pairs inside the environment plus against the
    // globals (stored once for all copies), and among the globals.
    long gg = compatible_pairs(RScene{}, globals);
    long with_env = compatible_pairs(env, globals);
    long per_copy = with_env - gg;
    ASSERT_GT(per_copy, 1000);
    ASSERT_GT(gg, 0);

    cc_model* m = nullptr;
    CC_ASSERT_OK(cc_builder_finalize(b.get(), device(), &m));
    Model model(m);
    cc_state* s = nullptr;
    CC_ASSERT_OK(cc_state_create(m, &s));
    State state(s);
    // Move every copy's bodies differently so that copies have different
    // candidate pairs.
    {
        int nb = cc_model_body_count(m);
        std::vector<cc_transform> poses((size_t)nb);
        CC_ASSERT_OK(cc_state_get_body_poses(s, 0, nb, poses.data()));
        std::mt19937 rng(77);
        for (int i = 1; i < nb; ++i) {
            cc_vec3 d = uni3(rng, -0.3f, 0.3f);
            poses[(size_t)i].p.x += d.x;
            poses[(size_t)i].p.y += d.y;
            poses[(size_t)i].p.z += d.z;
        }
        CC_ASSERT_OK(cc_state_set_body_poses(s, 0, nb, poses.data()));
    }

    const int cap = 1 << 19;
    Pass ex = make_pass(m, CC_BROAD_PHASE_EXPLICIT, cap, cap);
    cc_pipeline_info info;
    CC_ASSERT_OK(cc_pipeline_get_info(ex.p.get(), &info));
    EXPECT_EQ(info.broad_phase, CC_BROAD_PHASE_EXPLICIT);
    EXPECT_EQ(info.explicit_pairs_stored, per_copy + gg);
    EXPECT_EQ(info.explicit_pairs_tested, per_copy * copies + gg);

    // AUTO takes SAP here: the stored pairs would fit its budget (a few
    // hundred kilobytes), but EXPLICIT would test every pair of 200 shapes in
    // each of 1024 worlds, and SAP's sweep is shorter.
    {
        cc_pipeline* p = nullptr;
        cc_pipeline_def def = cc_default_pipeline_def();
        def.shape_pairs_max = 1024;
        def.rigid_contact_max = 1024;
        CC_ASSERT_OK(cc_pipeline_create(m, &def, &p));
        Pipeline auto_p(p);
        cc_pipeline_info ai;
        CC_ASSERT_OK(cc_pipeline_get_info(p, &ai));
        EXPECT_EQ(ai.broad_phase, CC_BROAD_PHASE_SAP);
    }

    // The stored template pairs, offset per copy, find the same candidates as
    // NXN, which enumerates every copy.
    std::vector<Pair> pe = collide_pairs(ex, s);
    Pass nx = make_pass(m, CC_BROAD_PHASE_NXN, cap, cap);
    std::vector<Pair> pn = collide_pairs(nx, s);
    EXPECT_GT(pn.size(), (size_t)copies * 5);
    EXPECT_TRUE(pe == pn) << "EXPLICIT found " << pe.size() << " pairs, NXN " << pn.size();
}

// Filter pairs: one added to the template applies to every copy (and keeps
// the copies sharing one stored list); one added to a copy afterwards,
// including the first copy, filters only that copy's pair; a shape added to
// one copy afterwards meets its own world only.
TEST_P(Broadphase, FilterPairsOnTemplatesAndOnOneCopy)
{
    const int copies = 64;
    // Shapes per copy: 0 sphere A, 1 sphere B, 2 box C; the ground is shape 0
    // of the main builder, so copy c's shapes start at 1 + 3c.
    for (int variant = 0; variant < 2; ++variant) {
        Builder env = resting_env();
        if (variant == 0) {
            CC_ASSERT_OK(cc_builder_add_filter_pair(env.get(), 0, 1));
        }
        Builder b = make_builder(0.01f);
        add_ground(b.get());
        CC_ASSERT_OK(cc_builder_replicate(b.get(), env.get(), copies, nullptr));
        auto A = [](int c) { return 1 + 3 * c; };
        auto B = [](int c) { return 2 + 3 * c; };
        auto C = [](int c) { return 3 + 3 * c; };
        std::set<Pair> expected;
        for (int c = 0; c < copies; ++c) {
            if (variant == 0) {
                expected.insert({0, A(c)});
                expected.insert({0, B(c)});
                expected.insert({0, C(c)});
            } else {
                if (c != 0 && c != 17) expected.insert({A(c), B(c)});
                expected.insert({0, A(c)});
                expected.insert({0, B(c)});
                if (c != 5) expected.insert({0, C(c)});
            }
        }
        if (variant == 1) {
            CC_ASSERT_OK(cc_builder_add_filter_pair(b.get(), A(0), B(0)));
            CC_ASSERT_OK(cc_builder_add_filter_pair(b.get(), B(17), A(17)));
            CC_ASSERT_OK(cc_builder_add_filter_pair(b.get(), C(5), 0));
            // A shape added afterwards to copy 9's body B (bodies: A, B, C per
            // copy): same body as B, so it meets A and the ground only.
            int extra = -1;
            CC_ASSERT_OK(cc_builder_add_sphere(b.get(), 1 + 3 * 9, 0.5f, nullptr, &extra));
            ASSERT_EQ(extra, 1 + 3 * copies);
            expected.insert({A(9), extra});
            expected.insert({0, extra});
        }
        cc_model* m = nullptr;
        CC_ASSERT_OK(cc_builder_finalize(b.get(), device(), &m));
        Model model(m);
        cc_state* s = nullptr;
        CC_ASSERT_OK(cc_state_create(m, &s));
        State state(s);
        for (cc_broad_phase bp : kAllPhases) {
            SCOPED_TRACE(std::string("variant ") + std::to_string(variant) + " " + phase_name(bp));
            Pass pass = make_pass(m, bp, 4096, 4096);
            std::vector<Pair> got = collide_pairs(pass, s);
            std::set<Pair> got_set(got.begin(), got.end());
            EXPECT_TRUE(got_set == expected) << "got " << got_set.size() << " pairs, expected " << expected.size();
            for (const Pair& p : expected)
                if (!got_set.count(p)) ADD_FAILURE() << "missing " << p.first << "-" << p.second;
            for (const Pair& p : got_set)
                if (!expected.count(p)) ADD_FAILURE() << "unexpected " << p.first << "-" << p.second;
            auto cs = download_contacts(pass, s);
            // A-B 1, A and B on the ground 1 each, C on the ground 4.
            size_t want = variant == 0 ? (size_t)copies * 6 : (size_t)copies * 7 - 2 - 4 + 2;
            EXPECT_EQ(cs.size(), want);
            if (bp == CC_BROAD_PHASE_EXPLICIT && variant == 0) {
                cc_pipeline_info info;
                CC_ASSERT_OK(cc_pipeline_get_info(pass.p.get(), &info));
                // Compatible per copy: A-C, B-C, and the three against the ground.
                EXPECT_EQ(info.explicit_pairs_stored, 5);
                EXPECT_EQ(info.explicit_pairs_tested, 5 * copies);
            }
        }
    }
}

// ---------------------------------------------------------------- AUTO

TEST_P(Broadphase, AutoChoosesByTheExplicitBudget)
{
    Builder env = resting_env();
    int body = add_body(env.get(), {0, 0, 2});
    CC_ASSERT_OK(cc_builder_add_sphere(env.get(), body, 0.1f, nullptr, nullptr));
    cc_shape_def d = cc_default_shape_def();
    d.local.p = {0.3f, 0, 0};
    CC_ASSERT_OK(cc_builder_add_sphere(env.get(), body, 0.1f, &d, nullptr));
    // 5 shapes: 10 pairs, minus 1 same-body pair = 9, plus 5 against the
    // ground = 14 per template. AUTO's quick upper bound (15, same-body pair
    // included) exceeds a budget of 14 pairs, so that budget takes the exact
    // count; stored pairs are counted once however many copies there are.
    const int64_t stored = 14;
    for (int copies : {1, 256}) {
        Builder b = make_builder(0.01f);
        add_ground(b.get());
        CC_ASSERT_OK(cc_builder_replicate(b.get(), env.get(), copies, nullptr));
        cc_model* m = nullptr;
        CC_ASSERT_OK(cc_builder_finalize(b.get(), device(), &m));
        Model model(m);
        struct Case {
            size_t budget;
            cc_broad_phase want;
        };
        for (Case c : {Case{(size_t)64 << 20, CC_BROAD_PHASE_EXPLICIT}, Case{(size_t)stored * 8, CC_BROAD_PHASE_EXPLICIT},
                       Case{(size_t)stored * 8 - 1, CC_BROAD_PHASE_SAP}, Case{8, CC_BROAD_PHASE_SAP}}) {
            SCOPED_TRACE("copies " + std::to_string(copies) + " budget " + std::to_string(c.budget));
            cc_pipeline_def def = cc_default_pipeline_def();
            def.explicit_pair_budget_bytes = c.budget;
            cc_pipeline* p = nullptr;
            CC_ASSERT_OK(cc_pipeline_create(m, &def, &p));
            Pipeline pipe(p);
            cc_pipeline_info info;
            CC_ASSERT_OK(cc_pipeline_get_info(p, &info));
            EXPECT_EQ(info.broad_phase, c.want);
            if (c.want == CC_BROAD_PHASE_EXPLICIT) {
                EXPECT_EQ(info.explicit_pairs_stored, stored);
                EXPECT_EQ(info.explicit_pairs_tested, stored * copies);
            }
        }
    }
}

// AUTO by cost: one world of many shapes in separated pairs stores ~n^2/2
// pairs that EXPLICIT would test each pass, so AUTO takes SAP; the same
// pairs spread one per world store one pair per template, so it takes
// EXPLICIT; a small world takes EXPLICIT too. Either way the contacts are
// those of the other broad phase.
TEST_P(Broadphase, AutoTakesSapForLargeWorldsAndExplicitForSmallOnes)
{
    struct Case {
        int pairs_per_world, worlds;
        cc_broad_phase want;
    };
    for (Case k : {Case{200, 1, CC_BROAD_PHASE_SAP}, Case{1, 200, CC_BROAD_PHASE_EXPLICIT},
                   Case{8, 1, CC_BROAD_PHASE_EXPLICIT}, Case{100, 4, CC_BROAD_PHASE_SAP}}) {
        SCOPED_TRACE(std::to_string(k.worlds) + " worlds of " + std::to_string(k.pairs_per_world) + " pairs");
        Builder env = make_builder(0.01f);
        for (int i = 0; i < k.pairs_per_world; ++i) {
            for (int j = 0; j < 2; ++j) {
                int body = add_body(env.get(), {(float)(i % 20) + 0.19f * (float)j, (float)(i / 20), 1.0f});
                CC_ASSERT_OK(cc_builder_add_sphere(env.get(), body, 0.1f, nullptr, nullptr));
            }
        }
        Builder b = make_builder(0.01f);
        CC_ASSERT_OK(cc_builder_replicate(b.get(), env.get(), k.worlds, nullptr));
        size_t counts[2] = {0, 0};
        for (int pass = 0; pass < 2; ++pass) {
            cc_pipeline_def def = cc_default_pipeline_def();
            def.broad_phase = pass == 0 ? CC_BROAD_PHASE_AUTO
                                        : (k.want == CC_BROAD_PHASE_SAP ? CC_BROAD_PHASE_EXPLICIT : CC_BROAD_PHASE_SAP);
            World w;
            CC_ASSERT_OK(make_world(b.get(), device(), def, &w));
            cc_pipeline_info info;
            CC_ASSERT_OK(cc_pipeline_get_info(w.pipeline.get(), &info));
            if (pass == 0) {
                EXPECT_EQ(info.broad_phase, k.want);
            }
            counts[pass] = collide(w).size();
        }
        EXPECT_EQ(counts[0], (size_t)(k.pairs_per_world * k.worlds));
        EXPECT_EQ(counts[1], counts[0]);
    }
}

// ---------------------------------------------------------------- SAP axis

// A vertical column of spheres above an infinite ground plane: the centres
// spread only along z, so SAP sweeps along z, the plane's normal. The plane's
// AABB is unbounded below and ends at its height + margin + gap above; the
// ground contact of the lowest sphere must survive on every broad phase, for
// a plane at z = 0 (sphere inside the gap band) and for a raised plane.
TEST_P(Broadphase, SapKeepsGroundPairsWhenSweepingAlongThePlaneNormal)
{
    struct Case {
        float plane_z, sphere_gap; // lowest sphere's surface height above the plane
    };
    for (Case k : {Case{0.0f, 0.18f}, Case{2.0f, 0.05f}, Case{2.0f, -0.1f}}) {
        Builder b = make_builder(0.1f);
        cc_shape_def g = cc_default_shape_def();
        g.local.p = {0, 0, k.plane_z};
        CC_ASSERT_OK(cc_builder_add_plane(b.get(), CC_BODY_WORLD, 0, 0, &g, nullptr));
        for (int i = 0; i < 8; ++i) {
            int body = add_body(b.get(), {0, 0, k.plane_z + 0.5f + k.sphere_gap + 1.3f * i});
            CC_ASSERT_OK(cc_builder_add_sphere(b.get(), body, 0.5f, nullptr, nullptr));
        }
        for (cc_broad_phase bp : kAllPhases) {
            SCOPED_TRACE("plane at " + std::to_string(k.plane_z) + ", sphere " + std::to_string(k.sphere_gap) +
                         " above, " + phase_name(bp));
            World w;
            cc_pipeline_def def = cc_default_pipeline_def();
            def.broad_phase = bp;
            CC_ASSERT_OK(make_world(b.get(), device(), def, &w));
            auto cs = collide(w);
            // Guards SAP's projection of a half-unbounded AABB: computed as
            // centre +- half width from the +-1e30 stand-ins, its upper bound
            // on z rounded to 0 instead of plane_z + margin + gap.
            ASSERT_EQ(cs.size(), 1u);
            EXPECT_EQ(cs[0].shape0, 0);
            EXPECT_EQ(cs[0].shape1, 1);
            EXPECT_NEAR(cs[0].distance, k.sphere_gap, 1e-5);
        }
    }
}

// Ladders of equal boxes, two rows per world along x, y or z (so each axis
// is the sweep axis in turn), spaced so that neighbours' AABBs overlap by
// 0.5 mm: the two rows share their keys, so the sweep meets tied keys. A
// rail as long as the ladder touches every rung, so its sweep crosses the
// whole segment; ladder lengths around the sweep's block of eight test the
// block edges, the last block of a segment and the end of the array. A
// global box and a global plane appear in every segment. SAP must find the
// brute force's pairs and exactly NXN's.
TEST_P(Broadphase, SapFindsEveryPairInTiedLaddersAndAtBlockEdges)
{
    for (int axis = 0; axis < 3; ++axis) {
        for (int length : {1, 2, 7, 8, 9, 10, 16, 17, 23, 40}) {
            RScene sc;
            sc.rigid_gap = 0.0f;
            sc.worlds = 3;
            RShape plane;
            plane.type = CC_SHAPE_PLANE;
            plane.size = {0, 0, 0};
            plane.local = {{0, 0, -0.0495f}, {0, 0, 0, 1}};
            sc.shapes.push_back(plane);
            RShape global_box;
            global_box.type = CC_SHAPE_BOX;
            global_box.size = {0.05f, 0.05f, 0.05f};
            global_box.local = {{0, 0, 0.5f}, {0, 0, 0, 1}};
            sc.shapes.push_back(global_box);
            auto add_box = [&](int world, const float* pos, const float* half) {
                RBody body;
                body.world = world;
                body.pose = {{pos[0], pos[1], pos[2]}, {0, 0, 0, 1}};
                sc.bodies.push_back(body);
                RShape box;
                box.type = CC_SHAPE_BOX;
                box.size = {half[0], half[1], half[2]};
                box.body = (int)sc.bodies.size() - 1;
                sc.shapes.push_back(box);
            };
            const float rung[3] = {0.05f, 0.05f, 0.05f};
            for (int w = 0; w < sc.worlds; ++w) {
                for (int i = 0; i < 2 * length; ++i) {
                    float p[3] = {0, 0, 0};
                    p[axis] = 0.0995f * (float)(i / 2);
                    p[(axis + 1) % 3] = 0.0995f * (float)(i % 2);
                    add_box(w, p, rung);
                }
                float p[3] = {0, 0, 0}, h[3] = {0.05f, 0.05f, 0.05f};
                p[axis] = 0.0995f * 0.5f * (float)(length - 1);
                h[axis] = p[axis] + 0.05f;
                p[(axis + 2) % 3] = 0.0995f;
                add_box(w, p, h); // the rail
            }
            SCOPED_TRACE("ladders along axis " + std::to_string(axis) + ", " + std::to_string(length) + " boxes");
            Builder b = build(sc);
            Finalized f = finalize(b, sc, device());
            ASSERT_TRUE(f.state);
            cc_model* m = f.model.get();
            cc_state* st = f.state.get();
            Expected ex = brute_force(sc, f.held);
            EXPECT_TRUE(ex.ambiguous.empty());
            EXPECT_GE((int)ex.yes.size(), 3 * (5 * length - 2));
            int cap = (int)ex.yes.size() + 64;
            Pass sap = make_pass(m, CC_BROAD_PHASE_SAP, cap, 8 * cap);
            Pass nxn = make_pass(m, CC_BROAD_PHASE_NXN, cap, 8 * cap);
            std::vector<Pair> got = collide_pairs(sap, st);
            EXPECT_TRUE(std::vector<Pair>(ex.yes.begin(), ex.yes.end()) == got);
            EXPECT_TRUE(collide_pairs(nxn, st) == got);
        }
    }
}

// ---------------------------------------------------------------- flat indices

// The GPU decodes a flat thread index into an NXN or EXPLICIT pair; the CPU
// backend walks the same pairs with nested loops. These check the decoders
// directly, so that they are tested on a machine without a GPU.
TEST(BroadphaseFlatIndex, TrianglePairsCoverEveryPairOnce)
{
    for (int n = 0; n <= 65; ++n) {
        int64_t total = cc_nxn_segment_pairs(n, -1);
        ASSERT_EQ(total, (int64_t)n * (n - 1) / 2);
        std::set<Pair> seen;
        for (int64_t k = 0; k < total; ++k) {
            int i = -1, j = -1;
            cc_triangle_pair(k, n, &i, &j);
            ASSERT_TRUE(i >= 0 && i < n && j >= 0 && j < n && i != j) << "n " << n << " k " << k;
            seen.insert({std::min(i, j), std::max(i, j)});
        }
        EXPECT_EQ((int64_t)seen.size(), total) << "n " << n;
    }
}

TEST(BroadphaseFlatIndex, NxnSegmentsDecodeLikeNestedLoops)
{
    // Two worlds of 7 and 6 shapes, 3 globals; shape_index is a permutation.
    std::vector<int> index;
    for (int i = 0; i < 16; ++i) index.push_back((i * 7) % 16);
    std::vector<cc_nxn_segment> segs;
    int64_t total = 0;
    auto add = [&](int as, int ac, int bs, int bc) {
        segs.push_back({total, as, ac, bs, bc});
        total += cc_nxn_segment_pairs(ac, bc);
    };
    add(0, 7, 0, -1);
    add(0, 7, 13, 3);
    add(7, 6, 0, -1);
    add(7, 6, 13, 3);
    add(13, 3, 0, -1);
    cc_nxn_view v;
    v.segment_count = (int)segs.size();
    v.segments = segs.data();
    v.shape_index = index.data();
    v.total_pairs = total;
    std::vector<Pair> flat, nested;
    for (int64_t t = 0; t < total; ++t) {
        const cc_nxn_segment* s = &segs[(size_t)cc_find_segment(segs.data(), (int)segs.size(), t)];
        int a, b;
        cc_nxn_segment_pair(&v, s, t - s->first_pair, &a, &b);
        flat.push_back({std::min(a, b), std::max(a, b)});
    }
    for (const cc_nxn_segment& s : segs)
        for (int i = 0; i < s.a_count; ++i) {
            int ncols = s.b_count < 0 ? s.a_count - i - 1 : s.b_count;
            for (int j = 0; j < ncols; ++j) {
                int a = index[(size_t)(s.a_start + i)];
                int b = s.b_count < 0 ? index[(size_t)(s.a_start + i + 1 + j)] : index[(size_t)(s.b_start + j)];
                nested.push_back({std::min(a, b), std::max(a, b)});
            }
        }
    std::sort(flat.begin(), flat.end());
    std::sort(nested.begin(), nested.end());
    EXPECT_EQ((int64_t)nested.size(), 21 + 21 + 15 + 18 + 3);
    EXPECT_TRUE(flat == nested);
}

TEST(BroadphaseFlatIndex, ExplicitFlatIndexMatchesNestedLoops)
{
    // Group 0: two global pairs, one instance; group 1: three template pairs
    // (one against global 1) for four instances; group 2: one absolute pair.
    std::vector<cc_pair> pairs = {{-1, -2}, {-2, -3}, {0, 1}, {1, 2}, {0, -2}, {45, 47}};
    std::vector<int> offsets = {0, 10, 20, 30, 40};
    std::vector<cc_explicit_group> groups = {
        {0, 0, 2, 0, 1}, {2, 2, 3, 1, 4}, {2 + 12, 5, 1, 0, 1}};
    cc_explicit_view v;
    v.group_count = 3;
    v.groups = groups.data();
    v.pairs = pairs.data();
    v.instance_offset = offsets.data();
    v.total_tests = 15;
    std::vector<cc_aabb> boxes(64);
    for (auto& b : boxes) b = {{0, 0, 0}, {1, 1, 1}};
    auto run = [&](bool flat) {
        std::vector<cc_pair> out(64);
        int count = 0;
        cc_pair_sink sink{out.data(), 64, &count};
        if (flat) {
            for (int64_t t = 0; t < v.total_tests; ++t) cc_explicit_thread(t, &v, boxes.data(), sink);
        } else {
            for (const cc_explicit_group& g : groups)
                for (int inst = 0; inst < g.instance_count; ++inst)
                    for (int p = 0; p < g.pair_count; ++p) cc_explicit_test(&v, boxes.data(), &g, inst, p, sink);
        }
        std::vector<Pair> r;
        for (int i = 0; i < count; ++i) r.push_back({out[(size_t)i].a, out[(size_t)i].b});
        std::sort(r.begin(), r.end());
        return r;
    };
    std::vector<Pair> flat = run(true), nested = run(false);
    std::vector<Pair> expected = {{0, 1}, {1, 2}, {1, 10}, {1, 20}, {1, 30}, {1, 40}, {10, 11}, {11, 12},
                                  {20, 21}, {21, 22}, {30, 31}, {31, 32}, {40, 41}, {41, 42}, {45, 47}};
    std::sort(expected.begin(), expected.end());
    EXPECT_TRUE(nested == expected);
    EXPECT_TRUE(flat == expected);
}

CC_INSTANTIATE_DEVICE_TEST(Broadphase);

}  // namespace
