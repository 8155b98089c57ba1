// A built convex hull that frees itself (host/geometry/hull_build.h).
#pragma once

#include <cstring>

#include "host/geometry/hull_build.h"

struct OwnedHull {
    cc_hull_data h;
    OwnedHull() { std::memset(&h, 0, sizeof h); }
    ~OwnedHull() { cc_hull_data_free(&h); }
    OwnedHull(const OwnedHull&) = delete;
    OwnedHull& operator=(const OwnedHull&) = delete;
};
