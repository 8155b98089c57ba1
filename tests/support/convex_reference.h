// Independent double-precision reference for convex-core queries, written
// from scratch for the accuracy tests (it includes nothing from kernels/).
//
// Every core is a support map under a pose (rotation matrix R whose columns
// are the local axes in world coordinates, and a translation t):
//     s(n) = R * s_local(R^T n) + t,  h(n) = s(n) . n.
// The signed distance of two convex cores A and B (positive apart, negative
// when they overlap) is
//     D = max over unit n of sep(n),  sep(n) = min_{b in B} b.n - max_{a in A} a.n
//                                            = -h_B(-n) - h_A(n),
// valid for separated and overlapping sets alike; the maximiser is the
// contact normal A -> B. sep is not concave on the sphere (for overlapping
// polytopes every face normal of the Minkowski difference is a local
// maximum), so the maximisation is global-then-local:
//   1. sep on a dense Fibonacci sphere (4096 directions, about 3.2 degrees
//      apart);
//   2. up to a few starts: the best samples at least `start_separation`
//      apart from each other;
//   3. from each start, a pattern search on the sphere: eight tangent
//      directions at the current step angle, the pattern turned by an
//      irrational angle after each failure (a fixed pattern misses the
//      narrow climbing cone along a ridge more often), the step grown after
//      a success and cut after two failures, until it is below 1e-10 rad;
//   4. the refined maxima near the best polished by gradient sampling, which
//      follows ridges of the non-smooth sep that the pattern search can
//      stall on (see polish);
//   5. the best of them.
// The distinct local maxima are kept, so callers can tell whether a second,
// distinct normal ties with the best one.
#ifndef CC_TESTS_CONVEX_REFERENCE_H
#define CC_TESTS_CONVEX_REFERENCE_H

#include <algorithm>
#include <cmath>
#include <utility>
#include <vector>

namespace convref
{

struct V {
    double x, y, z;
};
inline V v3(double x, double y, double z) { return V{x, y, z}; }
inline V operator+(V a, V b) { return {a.x + b.x, a.y + b.y, a.z + b.z}; }
inline V operator-(V a, V b) { return {a.x - b.x, a.y - b.y, a.z - b.z}; }
inline V operator-(V a) { return {-a.x, -a.y, -a.z}; }
inline V operator*(V a, double s) { return {a.x * s, a.y * s, a.z * s}; }
inline V mul(V a, V b) { return {a.x * b.x, a.y * b.y, a.z * b.z}; }
inline double dot(V a, V b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
inline V cross(V a, V b)
{
    return {a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x};
}
inline double norm(V a) { return std::sqrt(dot(a, a)); }
inline V unit(V a)
{
    double n = norm(a);
    return n > 0 ? a * (1.0 / n) : v3(0, 0, 1);
}
// Angle between two directions [rad], robust near 0 and pi.
inline double angle(V a, V b) { return std::atan2(norm(cross(a, b)), dot(a, b)); }
inline double sgn(double x) { return x < 0 ? -1.0 : 1.0; }

// Two unit tangents of unit n (u x v = n).
inline void tangents(V n, V* u, V* v)
{
    V a = std::fabs(n.x) < 0.6 ? v3(1, 0, 0) : (std::fabs(n.y) < 0.6 ? v3(0, 1, 0) : v3(0, 0, 1));
    *u = unit(cross(a, n));
    *v = cross(n, *u);
}

struct Pose {
    V col[3]; // local axes in world coordinates
    V t;
};

// Pose from a quaternion (x, y, z, w), normalised here in double.
inline Pose pose_from_quat(double x, double y, double z, double w, V t)
{
    double n = std::sqrt(x * x + y * y + z * z + w * w);
    x /= n, y /= n, z /= n, w /= n;
    Pose p;
    p.col[0] = v3(1 - 2 * (y * y + z * z), 2 * (x * y + w * z), 2 * (x * z - w * y));
    p.col[1] = v3(2 * (x * y - w * z), 1 - 2 * (x * x + z * z), 2 * (y * z + w * x));
    p.col[2] = v3(2 * (x * z + w * y), 2 * (y * z - w * x), 1 - 2 * (x * x + y * y));
    p.t = t;
    return p;
}
inline V to_local_dir(const Pose& p, V w) { return v3(dot(w, p.col[0]), dot(w, p.col[1]), dot(w, p.col[2])); }
inline V to_world_dir(const Pose& p, V l) { return p.col[0] * l.x + p.col[1] * l.y + p.col[2] * l.z; }
inline V to_world(const Pose& p, V l) { return to_world_dir(p, l) + p.t; }
inline V to_local(const Pose& p, V w) { return to_local_dir(p, w - p.t); }

enum Kind { POINT, SEGMENT, BOX, CYLINDER, CONE, ELLIPSOID, HULL };

// A convex core. `dim`: segment (0, half length, 0); box half extents;
// cylinder and cone (radius, half height, 0); ellipsoid semi-axes. Hull:
// `points` are the (already scaled) vertices in the local frame.
struct Shape {
    Kind kind = POINT;
    Pose pose;
    V dim{0, 0, 0};
    std::vector<V> points;
};

inline Shape make_shape(Kind kind, const Pose& pose, V dim) { return Shape{kind, pose, dim, {}}; }
// Hull of `vertices` scaled per axis by `scale`.
inline Shape make_hull(const Pose& pose, const std::vector<V>& vertices, V scale)
{
    Shape s{HULL, pose, scale, {}};
    for (const V& p : vertices) s.points.push_back(mul(p, scale));
    return s;
}

// Support point of the core, local frame, for a nonzero local direction d.
inline V support_local(const Shape& s, V d)
{
    V k = s.dim;
    switch (s.kind) {
    case POINT: return v3(0, 0, 0);
    case SEGMENT: return v3(0, 0, sgn(d.z) * k.y);
    case BOX: return v3(sgn(d.x) * k.x, sgn(d.y) * k.y, sgn(d.z) * k.z);
    case CYLINDER: {
        double r = std::hypot(d.x, d.y);
        V rim = r > 0 ? v3(k.x * d.x / r, k.x * d.y / r, 0) : v3(0, 0, 0);
        return v3(rim.x, rim.y, sgn(d.z) * k.y);
    }
    case CONE: {
        // Apex (0, 0, h) or the base rim point (r u, -h), u the radial unit.
        double r = std::hypot(d.x, d.y);
        double apex = k.y * d.z, rim = k.x * r - k.y * d.z;
        if (apex >= rim) return v3(0, 0, k.y);
        return r > 0 ? v3(k.x * d.x / r, k.x * d.y / r, -k.y) : v3(0, 0, -k.y);
    }
    case ELLIPSOID: {
        // argmax of x.d over x^T A^-2 x <= 1: A^2 d / |A d|.
        V ad = mul(k, d);
        double n = norm(ad);
        return n > 0 ? mul(k, ad) * (1.0 / n) : v3(0, 0, k.z);
    }
    case HULL: {
        size_t best = 0;
        double bd = dot(s.points[0], d);
        for (size_t i = 1; i < s.points.size(); ++i) {
            double t = dot(s.points[i], d);
            if (t > bd) bd = t, best = i;
        }
        return s.points[best];
    }
    }
    return v3(0, 0, 0);
}

inline V support(const Shape& s, V n) { return to_world(s.pose, support_local(s, to_local_dir(s.pose, n))); }
inline double support_height(const Shape& s, V n) { return dot(support(s, n), n); }

// Separation of the cores along unit n (positive: apart along n).
inline double sep(const Shape& a, const Shape& b, V n)
{
    return dot(support(b, -n), n) - dot(support(a, n), n);
}

// The Fibonacci sphere of `count` directions (cached for the default count).
inline std::vector<V> fibonacci_sphere(int count)
{
    std::vector<V> d(count);
    const double golden = 3.14159265358979323846 * (3.0 - std::sqrt(5.0));
    for (int i = 0; i < count; ++i) {
        double z = 1.0 - (2.0 * i + 1.0) / count;
        double r = std::sqrt(std::max(0.0, 1.0 - z * z));
        d[i] = v3(r * std::cos(golden * i), r * std::sin(golden * i), z);
    }
    return d;
}
inline const std::vector<V>& default_sphere()
{
    static const std::vector<V> d = fibonacci_sphere(4096);
    return d;
}

struct Maximum {
    V n;
    double value;
};

// Pattern search for a local maximum of sep from unit n0 (see the header
// comment). `step0`: first step angle [rad].
inline Maximum refine(const Shape& a, const Shape& b, V n0, double step0 = 0.05, double min_step = 1e-10)
{
    V n = unit(n0);
    double f = sep(a, b, n);
    double step = step0, phase = 0.0;
    int fails = 0;
    const double kTwist = 0.6180339887498949 * 0.7853981633974483; // irrational part of pi/4
    for (int guard = 0; step > min_step && guard < 20000; ++guard) {
        V u, v;
        tangents(n, &u, &v);
        double cs = std::cos(step), sn = std::sin(step);
        V best_n = n;
        double best_f = f;
        for (int k = 0; k < 8; ++k) {
            double ang = phase + k * 0.7853981633974483;
            V dir = u * std::cos(ang) + v * std::sin(ang);
            V c = unit(n * cs + dir * sn);
            double fc = sep(a, b, c);
            if (fc > best_f) best_f = fc, best_n = c;
        }
        if (best_f > f) {
            n = best_n;
            f = best_f;
            fails = 0;
            step = std::min(step * 1.5, 0.2);
        } else {
            phase += kTwist;
            if (++fails >= 2) {
                step *= 0.25;
                fails = 0;
            }
        }
    }
    return Maximum{n, f};
}

// Gradient of sep at unit n: w = s_B(-n) - s_A(n), since sep(n) = min over
// w in B - A of w.n (a minimum of linear functions, so w is a supergradient).
inline V sep_gradient(const Shape& a, const Shape& b, V n) { return support(b, -n) - support(a, n); }

// Point of the convex hull of 2-D points nearest the origin.
inline void min_norm_2d(const std::vector<double>& x, const std::vector<double>& y, double* ox, double* oy)
{
    const double two_pi = 2.0 * 3.14159265358979323846;
    std::vector<double> ang;
    for (size_t i = 0; i < x.size(); ++i) {
        if (std::hypot(x[i], y[i]) == 0.0) {
            *ox = *oy = 0.0;
            return;
        }
        ang.push_back(std::atan2(y[i], x[i]));
    }
    std::sort(ang.begin(), ang.end());
    double gap = ang.front() + two_pi - ang.back();
    for (size_t i = 1; i < ang.size(); ++i) gap = std::max(gap, ang[i] - ang[i - 1]);
    if (gap < 3.14159265358979323846) { // the origin is inside the hull
        *ox = *oy = 0.0;
        return;
    }
    double best = 1e300;
    *ox = *oy = 0.0;
    for (size_t i = 0; i < x.size(); ++i) {
        for (size_t j = i; j < x.size(); ++j) {
            double dx = x[j] - x[i], dy = y[j] - y[i], dd = dx * dx + dy * dy;
            double t = dd > 0 ? std::min(1.0, std::max(0.0, -(x[i] * dx + y[i] * dy) / dd)) : 0.0;
            double px = x[i] + t * dx, py = y[i] + t * dy, d = px * px + py * py;
            if (d < best) best = d, *ox = px, *oy = py;
        }
    }
}

// Gradient sampling (Burke, Lewis and Overton) from a pattern-search result:
// the pattern search can stall on a ridge of a non-smooth sep (a kink along
// a face or edge boundary, where only a narrow cone of directions climbs).
// Supergradients sampled on a ring of radius eps around n span both sides of
// the ridge; the smallest vector of their convex hull points along it, and a
// backtracking line search follows it. eps shrinks from 1e-5 to 1e-11 rad
// whenever no step climbs.
inline Maximum polish(const Shape& a, const Shape& b, Maximum m)
{
    V n = m.n;
    double f = m.value;
    double eps = 1e-5, t_last = 1e-5, phase = 0.0;
    std::vector<double> gx, gy;
    for (int guard = 0; eps > 1e-11 && guard < 2000; ++guard) {
        V u, v;
        tangents(n, &u, &v);
        gx.clear();
        gy.clear();
        for (int k = 0; k <= 8; ++k) {
            V c = n;
            if (k > 0) {
                double ang = phase + k * 0.7853981633974483, r = (k & 1) ? eps : 0.5 * eps;
                c = unit(n + (u * std::cos(ang) + v * std::sin(ang)) * r);
            }
            V w = sep_gradient(a, b, c);
            gx.push_back(dot(w, u));
            gy.push_back(dot(w, v));
        }
        phase += 0.4854;
        double dx = 0.0, dy = 0.0;
        min_norm_2d(gx, gy, &dx, &dy);
        double dl = std::hypot(dx, dy);
        bool moved = false;
        if (dl > 0) {
            V dir = (u * dx + v * dy) * (1.0 / dl);
            for (double t = std::min(4.0 * t_last, 0.05); t > 1e-3 * eps; t *= 0.3) {
                V c = unit(n + dir * t);
                double fc = sep(a, b, c);
                if (fc > f + 1e-4 * t * dl) {
                    n = c;
                    f = fc;
                    t_last = t;
                    moved = true;
                    break;
                }
            }
        }
        if (!moved) eps *= 0.1;
    }
    return Maximum{n, f};
}

struct Result {
    double distance;              // signed core distance D
    V normal;                     // maximiser of sep, A -> B
    std::vector<Maximum> maxima;  // refined local maxima, best first, distinct (> 1e-6 rad apart)
};

struct Options {
    int starts = 6;                    // local refinements
    double start_separation = 0.17;    // between starts [rad] (about 10 degrees)
    const std::vector<V>* extra_seeds = nullptr; // refined as well (diagnostics)
    double polish_band = 1e-2;         // maxima within this (times the pair's size) of the best are polished
};

inline Result signed_distance(const Shape& a, const Shape& b, const Options& opt = Options())
{
    const std::vector<V>& dirs = default_sphere();
    std::vector<std::pair<double, int>> scored(dirs.size());
    for (size_t i = 0; i < dirs.size(); ++i) scored[i] = {sep(a, b, dirs[i]), (int)i};
    std::sort(scored.begin(), scored.end(), [](const std::pair<double, int>& x, const std::pair<double, int>& y) {
        return x.first > y.first;
    });
    std::vector<V> starts;
    for (size_t i = 0; i < scored.size() && (int)starts.size() < opt.starts; ++i) {
        V d = dirs[scored[i].second];
        bool far = true;
        for (const V& s : starts) far = far && angle(s, d) > opt.start_separation;
        if (far) starts.push_back(d);
    }
    if (opt.extra_seeds)
        for (const V& s : *opt.extra_seeds) starts.push_back(unit(s));
    std::vector<Maximum> found;
    for (const V& s : starts) found.push_back(refine(a, b, s));
    std::sort(found.begin(), found.end(), [](const Maximum& x, const Maximum& y) { return x.value > y.value; });
    // Polish every maximum that could still become the best or tie with it.
    double top = found[0].value;
    double scale = 0; // the pair's size: widths along the world axes
    for (int k = 0; k < 3; ++k) {
        V e = v3(k == 0, k == 1, k == 2);
        scale += support_height(a, e) + support_height(a, -e) + support_height(b, e) + support_height(b, -e);
    }
    for (Maximum& m : found)
        if (m.value >= top - opt.polish_band * scale) m = polish(a, b, m);
    std::sort(found.begin(), found.end(), [](const Maximum& x, const Maximum& y) { return x.value > y.value; });
    Result r;
    for (const Maximum& m : found) {
        bool dup = false;
        for (const Maximum& k : r.maxima) dup = dup || angle(k.n, m.n) <= 1e-6;
        if (!dup) r.maxima.push_back(m);
    }
    r.distance = r.maxima[0].value;
    r.normal = r.maxima[0].n;
    return r;
}

// The local maximum of sep climbed to from `seed` (pattern search, then
// polish): much cheaper than signed_distance, and enough where only the
// maximum of one basin matters.
inline Maximum local_max(const Shape& a, const Shape& b, V seed) { return polish(a, b, refine(a, b, seed)); }

// Signed distance from world point x to the core c (negative inside), from
// a seed direction near its outward normal at the nearest boundary point.
inline double point_distance(const Shape& c, V x, V seed)
{
    Shape p = make_shape(POINT, c.pose, v3(0, 0, 0));
    p.pose.t = x;
    return local_max(c, p, seed).value;
}

// Largest sep on the circle of directions at angle `alpha` around unit n.
inline double ring_max(const Shape& a, const Shape& b, V n, double alpha, int count = 24)
{
    V u, v;
    tangents(n, &u, &v);
    double best = -1e300;
    for (int k = 0; k < count; ++k) {
        double t = 2.0 * 3.14159265358979323846 * k / count;
        V d = unit(n * std::cos(alpha) + (u * std::cos(t) + v * std::sin(t)) * std::sin(alpha));
        best = std::max(best, sep(a, b, d));
    }
    return best;
}

// Smallest sep along the great-circle arc from n1 to n2 (interior samples).
inline double arc_min(const Shape& a, const Shape& b, V n1, V n2, int count = 32)
{
    double best = 1e300;
    double th = angle(n1, n2);
    if (!(th > 0)) return sep(a, b, n1);
    V w = n2 - n1 * dot(n1, n2);
    if (!(norm(w) > 1e-9)) { // antipodal: every great circle through n1 joins them; take one
        V u, v;
        tangents(n1, &u, &v);
        w = u;
    }
    w = unit(w);
    for (int k = 1; k < count; ++k) {
        double t = th * k / count;
        best = std::min(best, sep(a, b, unit(n1 * std::cos(t) + w * std::sin(t))));
    }
    return best;
}

// Whether two normals are equally good answers for this pair (so a test must
// not tell them apart), given the reference maximum D:
//  - flat: both within `flat_tol` of D (the maximum is a plateau at the
//    precision that matters, e.g. coincident point cores, or a nearly
//    touching vertex pair whose normal is set by rounding);
//  - tie: both within `tie_tol` of D and sep dips between them by more than
//    `flat_tol` (two distinct local maxima, e.g. two box faces).
inline bool normals_tie(const Shape& a, const Shape& b, double D, V n1, V n2, double flat_tol, double tie_tol)
{
    n1 = unit(n1);
    n2 = unit(n2);
    double s1 = sep(a, b, n1), s2 = sep(a, b, n2);
    double worst = std::min(s1, s2);
    if (worst >= D - flat_tol) return true;
    if (worst < D - tie_tol) return false;
    return arc_min(a, b, n1, n2) < worst - flat_tol;
}

} // namespace convref

#endif
