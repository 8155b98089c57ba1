// The matcher's galloping lower bound agrees with a plain binary search for
// every hint, including hints outside the array and runs of equal keys.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <vector>

#include "kernels/contact_matching.h"

TEST(SortedSearch, GallopingLowerBoundEqualsBinarySearch)
{
    std::mt19937 rng(7);
    for (int trial = 0; trial < 20000; ++trial) {
        int n = (int)(rng() % 70);
        std::vector<uint64_t> keys((size_t)n + 1);
        uint64_t v = 0;
        for (int i = 0; i < n; ++i) keys[(size_t)i] = v += rng() % 3;
        uint64_t query = rng() % (v + 4);
        int hint = (int)(rng() % 90) - 10;
        int expected = (int)(std::lower_bound(keys.begin(), keys.begin() + n, query) - keys.begin());
        ASSERT_EQ(cc_lower_bound_u64(keys.data(), n, query), expected);
        ASSERT_EQ(cc_lower_bound_near_u64(keys.data(), n, query, hint), expected)
            << "n " << n << " query " << query << " hint " << hint;
    }
}
