// Convex hulls for the narrow-phase tests: built with qhull, kept alive for
// the whole test program, with a double-precision copy of their vertices
// for the dense reference (convex_reference.h).
#pragma once

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "tests/support/convex_reference.h"
#include "host/geometry/hull_build.h"
#include "host/geometry/hull_graph.h"
#include "kernels/math/vec3.h"

struct TestHull {
    cc_hull_data data{};
    cc_hull_ref ref{};
    std::vector<convref::V> vertices; // for the reference
    std::vector<int> graph;
    std::string name;
    ~TestHull() { cc_hull_data_free(&data); }
};

// The hull of `pts` with at most max_vertices vertices; NULL (and a test
// failure) when qhull rejects the points.
inline const TestHull* build_test_hull(const std::vector<cc_vec3>& pts, int max_vertices, const std::string& name)
{
    static std::vector<std::unique_ptr<TestHull>> registry;
    std::unique_ptr<TestHull> h(new TestHull);
    h->name = name;
    if (cc_hull_build(pts.data(), (int)pts.size(), max_vertices, name.c_str(), &h->data) != CC_OK) {
        ADD_FAILURE() << "cc_hull_build failed for " << name << ": " << cc_last_error_message();
        return nullptr;
    }
    cc_vec3 c = cc_v3(0, 0, 0);
    for (int i = 0; i < h->data.vertex_count; ++i) {
        c = cc_v3_add(c, h->data.vertices[i]);
        h->vertices.push_back(convref::v3(h->data.vertices[i].x, h->data.vertices[i].y, h->data.vertices[i].z));
    }
    h->ref.vertices = h->data.vertices;
    h->ref.faces = h->data.faces;
    h->ref.indices = h->data.indices;
    h->ref.vertex_count = h->data.vertex_count;
    h->ref.face_count = h->data.face_count;
    h->ref.vertex_first = 0;
    h->ref.center = cc_v3_scale(c, 1.0f / (float)h->data.vertex_count);
    // The vertex graph, as the model builds it: large hulls climb.
    h->graph.resize(cc_hull_graph_ints(h->data.vertex_count, h->data.index_count));
    cc_hull_graph_build(&h->data, h->ref.center, h->graph.data(), &h->ref.radius);
    h->ref.graph = h->data.vertex_count > CC_HULL_CLIMB_MIN ? h->graph.data() : nullptr;
    registry.push_back(std::move(h));
    return registry.back().get();
}
