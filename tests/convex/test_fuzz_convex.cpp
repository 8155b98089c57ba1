// The convex narrow phase fuzzed (tests/support/fuzz_pairs.h): every route,
// seeded, 3000 pairs each (300 under the sanitizers), sizes over six orders
// of magnitude and pairs up to 100 times apart in size, in every pose
// class. No NaN, non-unit normal, excess count, missing or beyond-gap
// contact, point off its core or order dependence is allowed. A handful of
// deep overlaps of extreme shapes (a small cone or cylinder coincident with
// one a hundred times its size, where several local optima tie) still come
// out over-deep or tilted by up to a few hundredths of the smaller size:
// those three checks are held to their present level, so that any new
// failure shows, and so are the count of contacts whose core points do not
// face each other along the normal (the witness check: one in these 84,000
// pairs, a cylinder on a hull) and how far apart across it they are. The
// tool (cucontact-fuzz) runs millions on demand and prints the table.
#include <gtest/gtest.h>

#include <cstdio>

#include "tests/support/fuzz_pairs.h"

namespace {

#if defined(__SANITIZE_ADDRESS__)
constexpr long kPairsPerRoute = 300;
#else
constexpr long kPairsPerRoute = 3000;
#endif

// Per route: findings of the deep, shallow and certify checks together, and
// their worst excess (of the smaller shape's size).
constexpr long kResidualFindings = 6;
constexpr double kResidualExcess = 0.05;
// Per route: contacts whose two core points do not lie across the normal,
// held to their present level, and how far the worst misses (of the
// smaller shape's size).
constexpr long kWitnessFindings = 1;
constexpr double kWitnessExcess = 0.01;

TEST(FuzzConvex, EveryRouteMeetsTheChecks)
{
    ccfuzz::max_size_ratio() = 100.0;
    long pairs = 0;
    for (auto route : ccfuzz::convex_routes()) {
        ccfuzz::RouteTally t;
        std::string error;
        ccfuzz::fuzz_route(route.first, route.second, kPairsPerRoute, 1, cc_device_cpu(), &t, &error);
        std::string name = std::string(cc_shape_type_name(route.first)) + "-" + cc_shape_type_name(route.second);
        ASSERT_TRUE(error.empty()) << name << ": " << error;
        pairs += t.pairs;
        std::printf("%-24s %6ld pairs %6ld contacts", name.c_str(), t.pairs, t.contacts);
        for (int c = 0; c < ccfuzz::kChecks; ++c)
            if (t.failures[c]) std::printf("  %s %ld (worst %.2g)", ccfuzz::check_name(c), t.failures[c], t.worst[c]);
        std::printf("\n");
        long residual = 0;
        for (int c = 0; c < ccfuzz::kChecks; ++c) {
            bool held = c == ccfuzz::kDeep || c == ccfuzz::kShallow || c == ccfuzz::kCertify;
            if (c == ccfuzz::kWitness) {
                EXPECT_LE(t.failures[c], kWitnessFindings) << name << " witness: " << t.example[c];
                EXPECT_LE(t.worst[c], kWitnessExcess) << name << " witness: " << t.example[c];
            } else if (held) {
                residual += t.failures[c];
                EXPECT_LE(t.worst[c], kResidualExcess) << name << " " << ccfuzz::check_name(c) << ": " << t.example[c];
            } else {
                EXPECT_EQ(t.failures[c], 0) << name << " " << ccfuzz::check_name(c) << ": " << t.example[c];
            }
        }
        EXPECT_LE(residual, kResidualFindings) << name;
    }
    EXPECT_EQ(pairs, kPairsPerRoute * (long)ccfuzz::convex_routes().size());
}

} // namespace
