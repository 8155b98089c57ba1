// The mesh and heightfield routes fuzzed (tests/support/fuzz_surfaces.h):
// every convex type against a tessellated box mesh and a tilted-plane
// heightfield, seeded, 1500 pairs each (150 under the sanitizers), in every
// pose class. Every check must pass, but for the shallow check on the
// heightfield, where a contact may come out a few float ulps of the
// coordinates shallower than the double-precision plane: held to its
// present level.
#include <gtest/gtest.h>

#include <cstdio>

#include "tests/support/fuzz_surfaces.h"

namespace {

#if defined(__SANITIZE_ADDRESS__)
constexpr long kPairsPerRoute = 150;
#else
constexpr long kPairsPerRoute = 1500;
#endif

TEST(FuzzSurfaces, EveryRouteMeetsTheChecks)
{
    for (auto route : ccfuzz::surface_routes()) {
        ccfuzz::RouteTally t;
        std::string error;
        ccfuzz::fuzz_surface_route(route.first, route.second, kPairsPerRoute, 1, cc_device_cpu(), &t, &error);
        std::string name = std::string(cc_shape_type_name(route.first)) + "-" + ccfuzz::surface_name(route.second);
        ASSERT_TRUE(error.empty()) << name << ": " << error;
        std::printf("%-24s %6ld pairs %6ld contacts", name.c_str(), t.pairs, t.contacts);
        for (int c = 0; c < ccfuzz::kChecks; ++c)
            if (t.failures[c]) std::printf("  %s %ld (worst %.2g)", ccfuzz::check_name(c), t.failures[c], t.worst[c]);
        std::printf("\n");
        EXPECT_GT(t.contacts, kPairsPerRoute / 10) << name;
        for (int c = 0; c < ccfuzz::kChecks; ++c) {
            if (c == ccfuzz::kShallow && route.second == ccfuzz::kTiltedHeightfield) {
                EXPECT_LE(t.failures[c], 2) << name;
                EXPECT_LE(t.worst[c], 0.01) << name << ": " << t.example[c];
            } else {
                EXPECT_EQ(t.failures[c], 0) << name << " " << ccfuzz::check_name(c) << ": " << t.example[c];
            }
        }
    }
}

} // namespace
