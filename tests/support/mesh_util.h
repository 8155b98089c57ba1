// Mesh helpers for the mesh tests: the shapes of mesh_shapes.h, stored in
// a builder.
#pragma once

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

}  // namespace cctest
