// Mesh helpers for the mesh tests: the shapes of mesh_shapes.h stored in a
// builder, pipeline defaults, the deepest contact.
#pragma once

#include <algorithm>
#include <cmath>
#include <vector>

#include "tests/support/mesh_shapes.h"
#include "tests/support/test_support.h"

namespace cctest {

inline int add_mesh_data(cc_builder* b, const MeshData& m)
{
    int id = -1;
    EXPECT_EQ(cc_builder_add_mesh_data(b, m.vertices.data(), (int)m.vertices.size(), m.triangles.data(),
                                       m.triangle_count(), &id),
              CC_OK)
        << cc_last_error_message();
    return id;
}

// Pipeline defaults with contact reduction on or off.
inline cc_pipeline_def plain_def(int reduce = 1)
{
    cc_pipeline_def d = cc_default_pipeline_def();
    d.reduce_contacts = reduce;
    return d;
}

// The deepest contact's distance (infinity for none).
inline float min_distance(const std::vector<cc_contact>& c)
{
    float d = INFINITY;
    for (const auto& x : c) d = std::min(d, x.distance);
    return d;
}

}  // namespace cctest
