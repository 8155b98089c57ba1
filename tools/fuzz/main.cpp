// cucontact-fuzz: the convex narrow phase and the mesh and heightfield
// routes against independent references (tests/support/fuzz_pairs.h and
// fuzz_surfaces.h), route by route, with a table of findings.
//
//   cucontact-fuzz [--pairs N] [--seed S] [--route TYPE-TYPE] [--device cpu|cuda] [--examples] [--only CHECK]
//   cucontact-fuzz --replay "<a pair as --examples prints it>"
//
// N pairs per route (default 10^5); exit status 1 when any check failed.
// --replay collides one reported pair (both orders) and prints its
// contacts, the reference distance and the findings.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "tests/support/fuzz_surfaces.h"

static void print_contacts(const char* label, const std::vector<cc_contact>& cs)
{
    std::printf("%s: %zu contacts\n", label, cs.size());
    for (const cc_contact& c : cs)
        std::printf("  d %.9g (core %.9g) normal (%.9g %.9g %.9g) point0 (%.9g %.9g %.9g) point1 (%.9g %.9g %.9g)\n",
                    c.distance, (double)c.distance + c.thickness0 + c.thickness1, c.normal.x, c.normal.y, c.normal.z,
                    c.point0.x, c.point0.y, c.point0.z, c.point1.x, c.point1.y, c.point1.z);
}

static int replay_surface(const char* text, cc_device dev)
{
    ccfuzz::SurfacePair p;
    if (!ccfuzz::parse_surface_pair(text, &p)) {
        std::fprintf(stderr, "cucontact-fuzz: --replay could not read a surface pair from '%s'\n", text);
        return 2;
    }
    std::string error;
    std::vector<std::vector<cc_contact>> cs = ccfuzz::collide_surface_pairs({p}, dev, &error);
    if (!error.empty()) {
        std::fprintf(stderr, "cucontact-fuzz: %s\n", error.c_str());
        return 2;
    }
    ccfuzz::Reference ref = ccfuzz::surface_reference(p);
    double tol = ccfuzz::surface_tolerance(p);
    std::printf("reference core distance %.9g normal (%.9g %.9g %.9g), tolerance %.3g, centre side %d\n", ref.distance,
                ref.normal.x, ref.normal.y, ref.normal.z, tol, ccfuzz::centre_side(p, tol));
    print_contacts("a-surface", cs[0]);
    for (size_t i = 0; i < cs[0].size(); ++i)
        std::printf("  contact %zu: point1 %.3g off the exact surface\n", i, ccfuzz::surface_off(p, ccfuzz::to_v(cs[0][i].point1)));
    std::vector<ccfuzz::Finding> f = ccfuzz::score_surface(p, cs[0]);
    for (const ccfuzz::Finding& x : f) std::printf("finding %s: %s\n", ccfuzz::check_name(x.check), x.detail.c_str());
    return f.empty() ? 0 : 1;
}

static int replay(const char* text, cc_device dev)
{
    if (std::strstr(text, "; mesh box") || std::strstr(text, "; heightfield")) return replay_surface(text, dev);
    ccfuzz::Pair p;
    if (!ccfuzz::parse_pair(text, &p)) {
        std::fprintf(stderr, "cucontact-fuzz: --replay could not read a pair from '%s'; pass one '[class] A: ...; B: ...' line as --examples prints it\n", text);
        return 2;
    }
    std::string error;
    std::vector<std::vector<cc_contact>> ab = ccfuzz::collide_pairs({p}, false, dev, &error);
    std::vector<std::vector<cc_contact>> ba;
    if (error.empty()) ba = ccfuzz::collide_pairs({p}, true, dev, &error);
    if (!error.empty()) {
        std::fprintf(stderr, "cucontact-fuzz: %s\n", error.c_str());
        return 2;
    }
    ccfuzz::Reference ref = ccfuzz::reference(p);
    std::printf("reference core distance %.9g normal (%.9g %.9g %.9g), tolerance %.3g\n", ref.distance, ref.normal.x,
                ref.normal.y, ref.normal.z, ccfuzz::pair_tolerance(p));
    print_contacts("a-b", ab[0]);
    print_contacts("b-a (as a-b)", ba[0]);
    std::vector<ccfuzz::Finding> f = ccfuzz::score(p, ab[0]);
    if (p.a.type == p.b.type) {
        std::vector<ccfuzz::Finding> g = ccfuzz::score_swap(p, ab[0], ba[0]);
        f.insert(f.end(), g.begin(), g.end());
    }
    for (const ccfuzz::Finding& x : f) std::printf("finding %s: %s\n", ccfuzz::check_name(x.check), x.detail.c_str());
    return f.empty() ? 0 : 1;
}

static int type_of(const char* name)
{
    for (int t = 0; t < CC_SHAPE_TYPE_COUNT; ++t)
        if (!std::strcmp(cc_shape_type_name((cc_shape_type)t), name)) return t;
    return -1;
}

static void print_row(const std::string& name, const ccfuzz::RouteTally& t, int examples, long* total_failures)
{
    std::printf("%-22s %9ld %9ld", name.c_str(), t.pairs, t.contacts);
    double worst = 0;
    for (int c = 0; c < ccfuzz::kChecks; ++c) {
        std::printf(" %8ld", t.failures[c]);
        *total_failures += t.failures[c];
        worst = std::max(worst, t.worst[c]);
    }
    std::printf("  %.3g\n", worst);
    if (examples) {
        for (int c = 0; c < ccfuzz::kChecks; ++c)
            if (t.failures[c]) std::printf("    worst %s: %s\n", ccfuzz::check_name(c), t.example[c].c_str());
        for (const std::string& e : t.first) std::printf("    first %s\n", e.c_str());
    }
    std::fflush(stdout);
}

int main(int argc, char** argv)
{
    long pairs = 100000;
    uint64_t seed = 1;
    int only_a = -1, only_b = -1, only_surface = -1, examples = 0, only_check = -1;
    cc_device dev = cc_device_cpu();
    const char* replay_text = nullptr;
    for (int i = 1; i < argc; ++i) {
        std::string a = argv[i];
        const char* v = i + 1 < argc ? argv[i + 1] : "";
        if (a == "--pairs") pairs = std::atol(v), ++i;
        else if (a == "--seed") seed = std::strtoull(v, nullptr, 10), ++i;
        else if (a == "--device") dev = std::strcmp(v, "cpu") ? cc_device_cuda(0) : cc_device_cpu(), ++i;
        else if (a == "--examples") examples = 1;
        else if (a == "--only") {
            for (int c = 0; c < ccfuzz::kChecks; ++c)
                if (!std::strcmp(ccfuzz::check_name(c), v)) only_check = c;
            if (only_check < 0) {
                std::fprintf(stderr, "cucontact-fuzz: --only wants a column of the table (deep, witness, ...), not '%s'\n", v);
                return 2;
            }
            examples = 1;
            ++i;
        }
        else if (a == "--replay") replay_text = v, ++i;
        else if (a == "--max-ratio") ccfuzz::max_size_ratio() = std::atof(v), ++i;
        else if (a == "--route") {
            std::string r = v;
            size_t dash = r.find('-');
            only_a = dash == std::string::npos ? -1 : type_of(r.substr(0, dash).c_str());
            std::string second = dash == std::string::npos ? "" : r.substr(dash + 1);
            only_surface = second == "mesh" ? ccfuzz::kMeshBox : (second == "heightfield" ? ccfuzz::kTiltedHeightfield : -1);
            only_b = only_surface >= 0 ? -1 : type_of(second.c_str());
            if (only_a < 0 || (only_b < 0 && only_surface < 0)) {
                std::fprintf(stderr, "cucontact-fuzz: --route wants TYPE-TYPE with the table's type names (e.g. cylinder-cone, box-mesh, capsule-heightfield, \"sphere-convex hull\"), not '%s'\n", v);
                return 2;
            }
            if (only_surface < 0 && only_a > only_b) std::swap(only_a, only_b);
            ++i;
        } else if (a == "--help" || a == "-h") {
            std::printf("usage: cucontact-fuzz [--pairs N] [--seed S] [--route TYPE-TYPE] [--device cpu|cuda] [--max-ratio R]\n"
                        "                      [--examples] [--only CHECK]\n"
                        "       cucontact-fuzz --replay \"[class] A: ...; B: ...\"\n");
            return 0;
        } else {
            std::fprintf(stderr, "cucontact-fuzz: unknown argument '%s' (see --help)\n", argv[i]);
            return 2;
        }
    }
    if (replay_text) return replay(replay_text, dev);
    std::printf("%-22s %9s %9s", "route", "pairs", "contacts");
    for (int c = 0; c < ccfuzz::kChecks; ++c) std::printf(" %8s", ccfuzz::check_name(c));
    std::printf("  worst excess (of the smaller size)\n");
    long total_failures = 0;
    for (auto route : ccfuzz::convex_routes()) {
        if (only_surface >= 0 || (only_a >= 0 && (route.first != only_a || route.second != only_b))) continue;
        ccfuzz::RouteTally t;
        t.only = only_check;
        std::string error;
        ccfuzz::fuzz_route(route.first, route.second, pairs, seed, dev, &t, &error);
        std::string name = std::string(cc_shape_type_name(route.first)) + "-" + cc_shape_type_name(route.second);
        if (!error.empty()) {
            std::printf("%-22s error: %s\n", name.c_str(), error.c_str());
            total_failures++;
            continue;
        }
        print_row(name, t, examples, &total_failures);
    }
    for (auto route : ccfuzz::surface_routes()) {
        if (only_a >= 0 && (only_surface < 0 || route.first != only_a || route.second != only_surface)) continue;
        ccfuzz::RouteTally t;
        t.only = only_check;
        std::string error;
        ccfuzz::fuzz_surface_route(route.first, route.second, pairs, seed, dev, &t, &error);
        std::string name = std::string(cc_shape_type_name(route.first)) + "-" + ccfuzz::surface_name(route.second);
        if (!error.empty()) {
            std::printf("%-22s error: %s\n", name.c_str(), error.c_str());
            total_failures++;
            continue;
        }
        print_row(name, t, examples, &total_failures);
    }
    return total_failures ? 1 : 0;
}
