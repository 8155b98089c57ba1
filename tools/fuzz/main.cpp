// cucontact-fuzz: the convex narrow phase against independent references
// (tests/support/fuzz_pairs.h), route by route, with a table of findings.
//
//   cucontact-fuzz [--pairs N] [--seed S] [--route TYPE-TYPE] [--device cpu|cuda] [--examples]
//
// N pairs per route (default 10^5); exit status 1 when any check failed.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "tests/support/fuzz_pairs.h"

static int type_of(const char* name)
{
    for (int t = 0; t < CC_SHAPE_TYPE_COUNT; ++t)
        if (!std::strcmp(cc_shape_type_name((cc_shape_type)t), name)) return t;
    return -1;
}

int main(int argc, char** argv)
{
    long pairs = 100000;
    uint64_t seed = 1;
    int only_a = -1, only_b = -1, examples = 0;
    cc_device dev = cc_device_cpu();
    for (int i = 1; i < argc; ++i) {
        std::string a = argv[i];
        const char* v = i + 1 < argc ? argv[i + 1] : "";
        if (a == "--pairs") pairs = std::atol(v), ++i;
        else if (a == "--seed") seed = std::strtoull(v, nullptr, 10), ++i;
        else if (a == "--device") dev = std::strcmp(v, "cpu") ? cc_device_cuda(0) : cc_device_cpu(), ++i;
        else if (a == "--examples") examples = 1;
        else if (a == "--max-ratio") ccfuzz::max_size_ratio() = std::atof(v), ++i;
        else if (a == "--route") {
            std::string r = v;
            size_t dash = r.find('-');
            only_a = dash == std::string::npos ? -1 : type_of(r.substr(0, dash).c_str());
            only_b = dash == std::string::npos ? -1 : type_of(r.substr(dash + 1).c_str());
            if (only_a < 0 || only_b < 0) {
                std::fprintf(stderr, "cucontact-fuzz: --route wants TYPE-TYPE (e.g. cylinder-cone), not '%s'\n", v);
                return 2;
            }
            if (only_a > only_b) std::swap(only_a, only_b);
            ++i;
        } else if (a == "--help" || a == "-h") {
            std::printf("usage: cucontact-fuzz [--pairs N] [--seed S] [--route TYPE-TYPE] [--device cpu|cuda] [--max-ratio R]\n"
                        "                      [--examples]\n");
            return 0;
        } else {
            std::fprintf(stderr, "cucontact-fuzz: unknown argument '%s' (see --help)\n", argv[i]);
            return 2;
        }
    }
    std::printf("%-22s %9s %9s", "route", "pairs", "contacts");
    for (int c = 0; c < ccfuzz::kChecks; ++c) std::printf(" %8s", ccfuzz::check_name(c));
    std::printf("  worst excess (of the smaller size)\n");
    long total_failures = 0;
    for (auto route : ccfuzz::convex_routes()) {
        if (only_a >= 0 && (route.first != only_a || route.second != only_b)) continue;
        ccfuzz::RouteTally t;
        std::string error;
        ccfuzz::fuzz_route(route.first, route.second, pairs, seed, dev, &t, &error);
        std::string name = std::string(cc_shape_type_name(route.first)) + "-" + cc_shape_type_name(route.second);
        if (!error.empty()) {
            std::printf("%-22s error: %s\n", name.c_str(), error.c_str());
            total_failures++;
            continue;
        }
        std::printf("%-22s %9ld %9ld", name.c_str(), t.pairs, t.contacts);
        double worst = 0;
        for (int c = 0; c < ccfuzz::kChecks; ++c) {
            std::printf(" %8ld", t.failures[c]);
            total_failures += t.failures[c];
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
    return total_failures ? 1 : 0;
}
