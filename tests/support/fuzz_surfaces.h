// Fuzzing the mesh and heightfield routes through the public API, scored
// against surfaces whose solid is known exactly: a box made of n x n quads
// a face (the mesh is the box's surface, so the box is the reference), and
// a heightfield that is one tilted plane (its surface is that plane over
// the grid's footprint). Every convex type meets both; the pose classes
// are those of fuzz_pairs.h.
//
// A triangle pushes a shape along its face normal by the shape's depth
// below its plane, or along the closest points when the shape is beside it
// (mesh/triangle.h), so mesh contacts are scored per contact, each against
// the solid along its own normal:
//   nan, normal  as for convex pairs;
//   deep     a contact deeper along its own normal than the solid allows:
//            c < sep_solid(normal) - tol; or, the shapes apart, deeper
//            than their distance: c < D - tol (a phantom);
//   tilted   (heightfield) a normal off the plane's;
//   shallow  with the shape's centre outside the solid (over the
//            heightfield's footprint), the deepest contact shallower than
//            the solid's signed distance: c_min > D + tol;
//   off      a point farther than tol from its surface (the shape's core,
//            the box's surface, the plane);
//   count    more contacts than a pair's reduction keeps;
//   missing  no contact although the centre is outside (over the
//            footprint, the shape inside it) and D <= gap - tol;
//   beyond   a contact with d > gap + tol, or any contact although the
//            solid's lower bound is above gap + tol.
// A shape whose centre is inside the solid meets only back faces, which
// report nothing (the back-face rule): such poses are scored for nan,
// normal, deep, off, count and beyond only.
#ifndef CC_TESTS_FUZZ_SURFACES_H
#define CC_TESTS_FUZZ_SURFACES_H

#include "tests/support/fuzz_pairs.h"
#include "tests/support/mesh_shapes.h"

namespace ccfuzz
{

enum SurfaceKind { kMeshBox, kTiltedHeightfield, kSurfaceKinds };

// Most contacts the reduction keeps for one surface pair (its 240 slots).
constexpr int kReducedMax = 240;
inline const char* surface_name(int k) { return k == kMeshBox ? "mesh" : "heightfield"; }

struct SurfacePair {
    Shape a;
    int kind = kMeshBox;
    int pose_class = kRandom;
    cc_transform pose{{0, 0, 0}, {0, 0, 0, 1}}; // the surface's
    float gap = 0.0f;
    // Mesh: box half extents and quads per face edge.
    cc_vec3 half{1, 1, 1};
    int quads = 1;
    // Heightfield: grid, size and the plane's samples h0 + gx X + gy Y over
    // X, Y in [-1, 1] (heights are samples times size.z).
    int rows = 2, cols = 2;
    cc_vec3 hsize{1, 1, 1};
    float h0 = 0.5f, gx = 0.0f, gy = 0.0f;
};

// The plane of a heightfield pair: unit normal u and a point p0, world.
inline void plane_of(const SurfacePair& p, V* u, V* p0)
{
    convref::Pose pose = convref::pose_from_quat(p.pose.q.x, p.pose.q.y, p.pose.q.z, p.pose.q.w, to_v(p.pose.p));
    // z(x, y) = size.z (h0 + gx x / size.x + gy y / size.y) in the shape's frame.
    V n_local = convref::v3(-p.hsize.z * p.gx / p.hsize.x, -p.hsize.z * p.gy / p.hsize.y, 1.0);
    *u = convref::unit(convref::to_world_dir(pose, n_local));
    *p0 = convref::to_world(pose, convref::v3(0, 0, (double)p.hsize.z * p.h0));
}

// The reference solid of a mesh pair: the box.
inline convref::Shape box_of(const SurfacePair& p)
{
    return convref::make_shape(convref::BOX,
                               convref::pose_from_quat(p.pose.q.x, p.pose.q.y, p.pose.q.z, p.pose.q.w, to_v(p.pose.p)),
                               to_v(p.half));
}

inline double surface_extent(const SurfacePair& p)
{
    return p.kind == kMeshBox ? convref::norm(to_v(p.half)) : std::hypot((double)p.hsize.x, (double)p.hsize.y);
}

// Signed core distance between A's core and the solid, its normal (A ->
// solid) and a lower bound; for the heightfield the height of A's core
// above the plane (the plane's only finite direction).
inline Reference surface_reference(const SurfacePair& p)
{
    Reference r;
    convref::Shape ca = core_of(p.a);
    if (p.kind == kMeshBox) {
        convref::Result res = convref::signed_distance(ca, box_of(p));
        r.distance = res.distance;
        r.normal = res.normal;
    } else {
        V u, p0;
        plane_of(p, &u, &p0);
        r.distance = convref::dot(convref::support(ca, -u) - p0, u);
        r.normal = -u;
    }
    return r;
}

// Separation of A's core and the solid along n (A -> solid).
inline double surface_sep(const SurfacePair& p, V n)
{
    convref::Shape ca = core_of(p.a);
    if (p.kind == kMeshBox) return convref::sep(ca, box_of(p), n);
    V u, p0;
    plane_of(p, &u, &p0);
    // Finite only straight down the normal.
    if (convref::angle(n, -u) > 1e-3) return -1e300;
    return convref::dot(convref::support(ca, -u) - p0, u);
}

// Where A's centre is: 1 outside the solid (over the footprint, for the
// heightfield, with A's whole reach inside it), -1 inside or beyond the
// footprint, 0 on the surface within tol (culling may go either way).
// A's reference point, as the library culls by: the mean of a hull's
// vertices (the points on its boundary), the shape's origin otherwise.
inline V reference_point(const Shape& s)
{
    if (s.type != CC_SHAPE_CONVEX_HULL) return to_v(s.pose.p);
    convref::Shape core = core_of(s);
    std::vector<Plane> planes = hull_planes(core.points);
    double scale = 0;
    for (const V& q : core.points) scale = std::max(scale, convref::norm(q));
    V sum = convref::v3(0, 0, 0);
    int count = 0;
    for (const V& q : core.points) {
        bool on = false;
        for (const Plane& pl : planes) on = on || std::fabs(convref::dot(pl.n, q) - pl.offset) <= 1e-7 * scale;
        if (on) sum = sum + q, ++count;
    }
    return convref::to_world(core.pose, count ? sum * (1.0 / count) : convref::v3(0, 0, 0));
}

inline int centre_side(const SurfacePair& p, double tol)
{
    V c = reference_point(p.a);
    convref::Pose pose = convref::pose_from_quat(p.pose.q.x, p.pose.q.y, p.pose.q.z, p.pose.q.w, to_v(p.pose.p));
    V l = convref::to_local(pose, c);
    double h;
    if (p.kind == kMeshBox) {
        h = box_sdf(l, to_v(p.half));
    } else {
        double reach = extent(p.a) + p.a.margin + p.a.gap + p.gap;
        if (std::fabs(l.x) + reach > p.hsize.x || std::fabs(l.y) + reach > p.hsize.y) return -1;
        V u, p0;
        plane_of(p, &u, &p0);
        h = convref::dot(c - p0, u);
    }
    return h > tol ? 1 : (h < -tol ? -1 : 0);
}

// Whether world point x lies on the surface within tol.
inline double surface_off(const SurfacePair& p, V x)
{
    convref::Pose pose = convref::pose_from_quat(p.pose.q.x, p.pose.q.y, p.pose.q.z, p.pose.q.w, to_v(p.pose.p));
    if (p.kind == kMeshBox) return std::fabs(box_sdf(convref::to_local(pose, x), to_v(p.half)));
    V u, p0;
    plane_of(p, &u, &p0);
    return std::fabs(convref::dot(x - p0, u));
}

inline double surface_tolerance(const SurfacePair& p)
{
    double small = std::min(extent(p.a), surface_extent(p));
    double coords = std::max({(double)std::fabs(p.a.pose.p.x), (double)std::fabs(p.a.pose.p.y),
                              (double)std::fabs(p.a.pose.p.z), (double)std::fabs(p.pose.p.x),
                              (double)std::fabs(p.pose.p.y), (double)std::fabs(p.pose.p.z)}) +
                    extent(p.a) + surface_extent(p);
    return 1e-4 * small + 8.0 * 1.1920929e-7 * coords;
}

// A heightfield grid of `scale`: rows and columns each `first` plus up to
// `spread` - 1 more, heights on a tilted plane.
inline void random_tilted_grid(Random& r, double scale, int first, int spread, SurfacePair* p)
{
    p->rows = first + r.below(spread);
    p->cols = first + r.below(spread);
    p->hsize = {(float)scale, (float)(scale * r.log_uniform(0.3, 1)), (float)(scale * r.log_uniform(0.05, 0.5))};
    p->h0 = (float)r.uniform(0.3, 0.7);
    p->gx = (float)r.uniform(-0.3, 0.3);
    p->gy = (float)r.uniform(-0.3, 0.3);
}

// A random pair of convex type ta and surface `kind` in pose class `pose_class`.
inline SurfacePair random_surface_pair(Random& r, cc_shape_type ta, int kind, int pose_class)
{
    SurfacePair p;
    p.kind = kind;
    p.pose_class = pose_class;
    double scale = r.log_uniform(1e-3, 1e3);
    double ratio = std::min(max_size_ratio(), 100.0);
    double scale_a = scale * r.log_uniform(1.0 / ratio, kind == kMeshBox ? ratio : 0.3);
    p.a = random_shape(r, ta, scale_a);
    p.pose.q = r.rotation();
    p.pose.p = {(float)(scale * r.uniform(-2, 2)), (float)(scale * r.uniform(-2, 2)), (float)(scale * r.uniform(-2, 2))};
    if (r.chance(0.6)) p.gap = (float)(scale * r.log_uniform(1e-4, 0.05));
    if (kind == kMeshBox) {
        p.half = {(float)(scale * r.log_uniform(0.1, 1)), (float)(scale * r.log_uniform(0.1, 1)),
                  (float)(scale * r.log_uniform(0.1, 1))};
        p.quads = 1 + r.below(6);
    } else {
        random_tilted_grid(r, scale, 2, 10, &p);
        if (r.chance(0.3)) p.gx = p.gy = 0.0f;
    }
    convref::Pose pose = convref::pose_from_quat(p.pose.q.x, p.pose.q.y, p.pose.q.z, p.pose.q.w, to_v(p.pose.p));
    auto place = [&](V c) { p.a.pose.p = {(float)c.x, (float)c.y, (float)c.z}; };
    // Where A goes: near the box, or over the heightfield's footprint.
    double ea = extent(p.a);
    V anchor = kind == kMeshBox
                   ? convref::to_world(pose, convref::v3(p.half.x * r.uniform(-1.3, 1.3), p.half.y * r.uniform(-1.3, 1.3),
                                                         p.half.z * r.uniform(-1.3, 1.3)))
                   : convref::to_world(pose, convref::v3(p.hsize.x * r.uniform(-0.6, 0.6), p.hsize.y * r.uniform(-0.6, 0.6),
                                                         (double)p.hsize.z * p.h0));
    V up = kind == kMeshBox ? r.direction() : convref::to_world_dir(pose, convref::v3(0, 0, 1));
    switch (pose_class) {
    case kCoincident: place(convref::to_world(pose, convref::v3(0, 0, kind == kMeshBox ? 0.0 : (double)p.hsize.z * p.h0))); break;
    case kFar: place(anchor + up * (ea * r.log_uniform(10, 1000) + surface_extent(p))); break;
    case kParallel: p.a.pose.q = p.pose.q; place(anchor + up * (ea * r.uniform(0.0, 1.2))); break;
    case kTouching: {
        place(anchor + up * ea);
        for (int it = 0; it < 3; ++it) {
            Reference ref = surface_reference(p);
            double surface = ref.distance - core_radius(p.a) - p.a.margin;
            double target = 0.0;
            switch (r.below(4)) {
            case 0: target = 0.0; break;
            case 1: target = (r.chance(0.5) ? 1 : -1) * 1e-6 * ea; break;
            case 2: target = (r.chance(0.5) ? 1 : -1) * 1e-3 * ea; break;
            default: target = p.a.gap + p.gap; break;
            }
            place(to_v(p.a.pose.p) + ref.normal * (target - surface));
        }
        break;
    }
    default: place(anchor + up * (ea * r.uniform(-0.5, 1.2)));
    }
    return p;
}

// One model with each pair alone in its world. Returns each pair's
// contacts oriented A -> surface, in world coordinates (empty and *error
// set on failure).
inline std::vector<std::vector<cc_contact>> collide_surface_pairs(const std::vector<SurfacePair>& pairs, cc_device dev,
                                                                  std::string* error)
{
    std::vector<std::vector<cc_contact>> out(pairs.size());
    cc_builder_def bdef = cc_default_builder_def();
    bdef.gravity = {0, 0, 0};
    cc_builder* b = nullptr;
    cc_builder_create(&bdef, &b);
    std::map<std::vector<float>, int> hulls;
    std::map<int, int> meshes; // quads -> mesh
    std::vector<int> pair_of_world;
    std::vector<int> shape_a; // per pair
    auto fail = [&](const std::string& what) {
        *error = what + ": " + cc_last_error_message();
        cc_builder_destroy(b);
        out.clear();
        return out;
    };
    for (size_t i = 0; i < pairs.size(); ++i) {
        const SurfacePair& p = pairs[i];
        int w = -1;
        cc_builder_begin_world(b, &w);
        int sa = add_shape(b, p.a, &hulls);
        if (sa < 0) return fail("pair " + std::to_string(i));
        shape_a.push_back(sa);
        cc_shape_def d = cc_default_shape_def();
        d.gap = p.gap;
        d.local = p.pose;
        if (p.kind == kMeshBox) {
            auto it = meshes.find(p.quads);
            int mesh = -1;
            if (it != meshes.end()) {
                mesh = it->second;
            } else {
                cctest::MeshData m = cctest::tessellated_box_mesh({1, 1, 1}, p.quads);
                if (cc_builder_add_mesh_data(b, m.vertices.data(), (int)m.vertices.size(), m.triangles.data(),
                                             m.triangle_count(), &mesh) != CC_OK)
                    return fail("mesh");
                meshes[p.quads] = mesh;
            }
            if (cc_builder_add_mesh(b, CC_BODY_WORLD, mesh, p.half, &d, nullptr) != CC_OK) return fail("mesh shape");
        } else {
            std::vector<float> h((size_t)p.rows * (size_t)p.cols);
            for (int rr = 0; rr < p.rows; ++rr)
                for (int c = 0; c < p.cols; ++c)
                    h[(size_t)rr * (size_t)p.cols + (size_t)c] =
                        p.h0 + p.gx * (2.0f * c / (p.cols - 1) - 1.0f) + p.gy * (2.0f * rr / (p.rows - 1) - 1.0f);
            int hf = -1;
            if (cc_builder_add_heightfield_data(b, p.rows, p.cols, h.data(), &hf) != CC_OK) return fail("heightfield");
            if (cc_builder_add_heightfield(b, CC_BODY_WORLD, hf, p.hsize, &d, nullptr) != CC_OK)
                return fail("heightfield shape");
        }
        cc_builder_end_world(b);
    }
    cc_model* m = nullptr;
    cc_state* st = nullptr;
    cc_pipeline* pl = nullptr;
    cc_contacts* c = nullptr;
    cc_pipeline_def pd = cc_default_pipeline_def();
    pd.rigid_contact_max = (int)pairs.size() * 64 + 64;
    pd.shape_pairs_max = (int)pairs.size() + 64;
    cc_status s = cc_builder_finalize(b, dev, &m);
    if (s == CC_OK) s = cc_state_create(m, &st);
    if (s == CC_OK) s = cc_pipeline_create(m, &pd, &pl);
    if (s == CC_OK) s = cc_contacts_create(pl, &c);
    if (s == CC_OK) s = cc_collide(pl, st, c, nullptr);
    std::vector<cc_contact> rows((size_t)pd.rigid_contact_max);
    int n = 0;
    if (s == CC_OK) s = cc_contacts_download(c, st, rows.data(), (int)rows.size(), &n);
    cc_overflow ov{};
    if (s == CC_OK) s = cc_pipeline_get_overflow(pl, &ov);
    if (s != CC_OK) *error = cc_last_error_message();
    else if (ov.contacts_overflowed || ov.pairs_overflowed || ov.mesh_items_overflowed) *error = "capacity overflow";
    else {
        // Shapes are numbered in build order: A then the surface, per pair.
        for (int i = 0; i < n; ++i) {
            cc_contact r = rows[(size_t)i];
            size_t pair = (size_t)(std::min(r.shape0, r.shape1) / 2);
            const SurfacePair& p = pairs[pair];
            bool a_first = r.shape0 == shape_a[pair];
            cc_contact w = r;
            convref::Pose pa = pose_of(p.a);
            cc_vec3 pa_local = a_first ? r.point0 : r.point1;
            V xa = convref::to_world(pa, to_v(pa_local));
            cc_vec3 surface_point = a_first ? r.point1 : r.point0; // the surface is static: world frame
            w.point0 = {(float)xa.x, (float)xa.y, (float)xa.z};
            w.point1 = surface_point;
            if (!a_first) {
                std::swap(w.thickness0, w.thickness1);
                w.normal = {-w.normal.x, -w.normal.y, -w.normal.z};
            }
            out[pair].push_back(w);
        }
    }
    if (c) cc_contacts_destroy(c);
    if (pl) cc_pipeline_destroy(pl);
    if (st) cc_state_destroy(st);
    if (m) cc_model_destroy(m);
    cc_builder_destroy(b);
    if (!error->empty()) out.clear();
    return out;
}

// Scores one surface pair's contacts (oriented A -> surface, world points).
inline std::vector<Finding> score_surface(const SurfacePair& p, const std::vector<cc_contact>& cs)
{
    std::vector<Finding> f;
    double tol = surface_tolerance(p);
    double small = std::min(extent(p.a), surface_extent(p)), large = std::max(extent(p.a), surface_extent(p));
    auto add = [&](int check, double amount, const std::string& d) { f.push_back({check, amount / small, d}); };
    double gap = p.a.gap + p.gap;
    double thick = core_radius(p.a) + p.a.margin;
    Reference ref = surface_reference(p);
    double lb = ref.distance; // the reference's maximum: a lower bound of D
    int side = centre_side(p, tol);
    bool outside = side > 0;
    int n = (int)cs.size();
    if (n > kReducedMax) add(kCount, n - kReducedMax, std::to_string(n) + " contacts");
    if (n == 0) {
        if (outside && lb - thick <= gap - tol) add(kMissing, gap - tol - (lb - thick), "true d " + std::to_string(lb - thick));
        return f;
    }
    CoreDistance da(p.a);
    double cmin = 1e300;
    for (const cc_contact& c : cs) {
        const float* v = &c.point0.x;
        bool finite = std::isfinite(c.distance) && std::isfinite(c.thickness0) && std::isfinite(c.thickness1);
        for (int k = 0; k < 21 - 4 && finite; ++k) finite = std::isfinite(v[k]);
        if (!finite) {
            add(kNan, 1, "non-finite contact");
            return f;
        }
        double len = std::sqrt((double)c.normal.x * c.normal.x + (double)c.normal.y * c.normal.y + (double)c.normal.z * c.normal.z);
        if (std::fabs(len - 1) > 1e-5) add(kNormal, std::fabs(len - 1) * small, "normal length " + std::to_string(len));
        double core = (double)c.distance + c.thickness0 + c.thickness1;
        cmin = std::min(cmin, core);
        V nrm = convref::unit(to_v(c.normal));
        double bound = surface_sep(p, nrm);
        if (p.kind == kTiltedHeightfield && bound < -1e299 && outside)
            add(kCertify, convref::angle(nrm, ref.normal) * small, "normal off the plane's by " + std::to_string(convref::angle(nrm, ref.normal)));
        else if (bound > -1e299 && core < bound - tol)
            add(kDeep, bound - tol - core, "core " + std::to_string(core) + " < sep(normal) " + std::to_string(bound));
        else if (lb > 0.0 && core < lb - tol)
            // Apart, no two points of the shapes are nearer than D: a
            // deeper contact is a phantom, whatever its normal.
            add(kDeep, lb - tol - core, "core " + std::to_string(core) + " < D " + std::to_string(lb) + " of shapes apart");
        if (c.distance > gap + tol) add(kBeyond, c.distance - gap - tol, "d " + std::to_string(c.distance));
        double off0 = std::fabs(da(to_v(c.point0))), off1 = surface_off(p, to_v(c.point1));
        if (off0 > tol) add(kOff, off0 - tol, "point on A off by " + std::to_string(off0));
        if (off1 > tol) add(kOff, off1 - tol, "point on the surface off by " + std::to_string(off1));
        double across = witness_miss(c), witness_tol = witness_tolerance(tol, small, large);
        if (across > witness_tol)
            add(kWitness, across - witness_tol, "core points miss each other along the normal by " + std::to_string(across));
    }
    if (outside && cmin > lb + tol) add(kShallow, cmin - lb - tol, "core " + std::to_string(cmin) + " > D " + std::to_string(lb));
    if (lb - thick > gap + tol) add(kBeyond, lb - thick - gap - tol, "true d " + std::to_string(lb - thick));
    return f;
}

inline std::string describe_surface(const SurfacePair& p)
{
    Pair q;
    q.a = p.a;
    q.b = p.a;
    q.pose_class = p.pose_class;
    std::string a = describe(q);
    a = a.substr(0, a.find("; B: "));
    char buf[512];
    if (p.kind == kMeshBox)
        std::snprintf(buf, sizeof buf, "; mesh box half (%.9g %.9g %.9g) quads %d gap %.9g at (%.9g %.9g %.9g) q (%.9g %.9g %.9g %.9g)",
                      p.half.x, p.half.y, p.half.z, p.quads, p.gap, p.pose.p.x, p.pose.p.y, p.pose.p.z, p.pose.q.x,
                      p.pose.q.y, p.pose.q.z, p.pose.q.w);
    else
        std::snprintf(buf, sizeof buf,
                      "; heightfield %dx%d size (%.9g %.9g %.9g) plane %.9g %.9g %.9g gap %.9g at (%.9g %.9g %.9g) q (%.9g %.9g %.9g %.9g)",
                      p.rows, p.cols, p.hsize.x, p.hsize.y, p.hsize.z, p.h0, p.gx, p.gy, p.gap, p.pose.p.x, p.pose.p.y,
                      p.pose.p.z, p.pose.q.x, p.pose.q.y, p.pose.q.z, p.pose.q.w);
    return a + buf;
}

// Reads a pair as describe_surface() writes it. False when malformed.
inline bool parse_surface_pair(const std::string& text, SurfacePair* p)
{
    size_t a = text.find("A: "), mesh = text.find("; mesh box"), hf = text.find("; heightfield");
    size_t cut = mesh != std::string::npos ? mesh : hf;
    if (a == std::string::npos || cut == std::string::npos || cut < a) return false;
    p->pose_class = kRandom;
    for (int c = 0; c < kPoseClasses; ++c)
        if (text.find(std::string("[") + pose_class_name(c) + "]") != std::string::npos) p->pose_class = c;
    if (!parse_shape(text.substr(a + 3, cut - a - 3), &p->a)) return false;
    const char* t = text.c_str() + cut;
    cc_transform& x = p->pose;
    if (mesh != std::string::npos) {
        p->kind = kMeshBox;
        return std::sscanf(t, "; mesh box half (%f %f %f) quads %d gap %f at (%f %f %f) q (%f %f %f %f)", &p->half.x,
                           &p->half.y, &p->half.z, &p->quads, &p->gap, &x.p.x, &x.p.y, &x.p.z, &x.q.x, &x.q.y, &x.q.z,
                           &x.q.w) == 12;
    }
    p->kind = kTiltedHeightfield;
    return std::sscanf(t, "; heightfield %dx%d size (%f %f %f) plane %f %f %f gap %f at (%f %f %f) q (%f %f %f %f)",
                       &p->rows, &p->cols, &p->hsize.x, &p->hsize.y, &p->hsize.z, &p->h0, &p->gx, &p->gy, &p->gap,
                       &x.p.x, &x.p.y, &x.p.z, &x.q.x, &x.q.y, &x.q.z, &x.q.w) == 16;
}

// Fuzzes `count` pairs of convex type ta against surface `kind`.
inline void fuzz_surface_route(cc_shape_type ta, int kind, long count, uint64_t seed, cc_device dev, RouteTally* t,
                               std::string* error, int batch = 1000)
{
    Random r(seed * 7919u + (uint64_t)ta * 17u + (uint64_t)kind + 5u);
    for (long done = 0; done < count && error->empty();) {
        int k = (int)std::min<long>(batch, count - done);
        std::vector<SurfacePair> pairs;
        for (int i = 0; i < k; ++i) pairs.push_back(random_surface_pair(r, ta, kind, r.below(kPoseClasses)));
        std::vector<std::vector<cc_contact>> cs = collide_surface_pairs(pairs, dev, error);
        if (!error->empty()) return;
        for (int i = 0; i < k; ++i) {
            std::vector<Finding> f = score_surface(pairs[(size_t)i], cs[(size_t)i]);
            t->pairs++;
            t->contacts += (long)cs[(size_t)i].size();
            bool seen[kChecks] = {};
            for (const Finding& x : f) {
                if (seen[x.check]) continue;
                seen[x.check] = true;
                t->failures[x.check]++;
                if (t->keeps(x.check))
                    t->first.push_back(std::string(check_name(x.check)) + ": " + x.detail + " -- " + describe_surface(pairs[(size_t)i]));
                if (x.excess > t->worst[x.check]) {
                    t->worst[x.check] = x.excess;
                    t->example[x.check] = x.detail + " -- " + describe_surface(pairs[(size_t)i]);
                }
            }
        }
        done += k;
    }
}

// Every surface route: each convex type against the mesh and the heightfield.
inline std::vector<std::pair<cc_shape_type, int>> surface_routes()
{
    std::vector<std::pair<cc_shape_type, int>> r;
    for (int kind = 0; kind < kSurfaceKinds; ++kind)
        for (int a = CC_SHAPE_SPHERE; a <= CC_SHAPE_CONVEX_HULL; ++a) r.push_back({(cc_shape_type)a, kind});
    return r;
}

} // namespace ccfuzz

#endif
