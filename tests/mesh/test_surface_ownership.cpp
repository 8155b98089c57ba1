// Ownership of contacts on features that several triangles share, read from
// the surface's neighbourhood (kernels/mesh/narrowphase.h): at every vertex
// exactly one triangle of the fan that faces A keeps a vertex contact, and
// face contacts on shared seams go to exactly one of the triangles in the
// same plane. Checked on a wavy grid, a tessellated box and a heightfield,
// for reference points all around them.
#include <cmath>
#include <map>
#include <random>
#include <set>
#include <vector>

#include "host/geometry/mesh_topology.h"
#include "kernels/mesh/narrowphase.h"
#include "tests/support/mesh_util.h"

using namespace cctest;

namespace {

// A model view holding one mesh shape (scale 1, at `pose`), or one
// heightfield shape, with the pools the ownership rules read.
struct Surface {
    cc_model_view view{};
    cc_shape_geometry geom{};
    int source = 0;
    cc_mesh_desc desc{};
    std::vector<cc_vec3> vertices;
    std::vector<cc_mesh_triangle> triangles, adjacent;
    std::vector<unsigned> flags;
    cc_hfield_desc hdesc{};
    std::vector<float> samples;
    cc_transform pose = {{0, 0, 0}, {0, 0, 0, 1}};
    int triangle_count = 0;

    void bind()
    {
        view.shape_count = 1;
        view.shape_geom = &geom;
        view.shape_source = &source;
        view.meshes = &desc;
        view.meshes_count = 1;
        view.mesh_vertices = vertices.data();
        view.mesh_triangles = triangles.data();
        view.mesh_triangle_adjacent = adjacent.data();
        view.mesh_triangle_flags = flags.data();
        view.hfields = &hdesc;
        view.hfield_samples = samples.data();
    }
};

Surface mesh_surface(const MeshData& m)
{
    Surface s;
    s.geom.type = CC_SHAPE_MESH;
    s.geom.size = {1, 1, 1};
    s.vertices = m.vertices;
    s.triangle_count = m.triangle_count();
    s.flags.resize((size_t)s.triangle_count);
    std::vector<int> adj(3 * (size_t)s.triangle_count);
    EXPECT_EQ(cc_mesh_triangle_flags(m.vertices.data(), (int)m.vertices.size(), m.triangles.data(), s.triangle_count,
                                     s.flags.data(), adj.data()),
              1);
    for (int t = 0; t < s.triangle_count; ++t) {
        s.triangles.push_back({{m.triangles[3 * t], m.triangles[3 * t + 1], m.triangles[3 * t + 2]}});
        s.adjacent.push_back({{adj[3 * t], adj[3 * t + 1], adj[3 * t + 2]}});
    }
    s.desc.vertex_count = (int)m.vertices.size();
    s.desc.triangle_count = s.triangle_count;
    s.bind();
    return s;
}

Surface hfield_surface(int rows, int cols, float (*height)(float, float))
{
    Surface s;
    s.geom.type = CC_SHAPE_HEIGHTFIELD;
    s.geom.size = {1.0f, 0.8f, 0.3f};
    for (int r = 0; r < rows; ++r)
        for (int c = 0; c < cols; ++c) s.samples.push_back(height((float)c / (cols - 1), (float)r / (rows - 1)));
    s.hdesc.rows = rows;
    s.hdesc.cols = cols;
    s.triangle_count = 2 * (rows - 1) * (cols - 1);
    s.bind();
    return s;
}

float wave(float x, float y) { return 0.5f + 0.3f * std::sin(6.0f * x) * std::cos(5.0f * y); }
float terraces(float x, float y) { return x < 0.5f ? 0.2f : (y < 0.4f ? 0.6f : 0.6f + 0.5f * (y - 0.4f)); }

// Each vertex (keyed by its world point) and its (triangle, corner) uses.
std::map<std::vector<float>, std::vector<std::pair<int, int>>> fans(const Surface& s)
{
    std::map<std::vector<float>, std::vector<std::pair<int, int>>> out;
    for (int t = 0; t < s.triangle_count; ++t) {
        cc_vec3 p[3];
        cc_surface_triangle(&s.view, 0, s.pose, t, &p[0], &p[1], &p[2]);
        for (int k = 0; k < 3; ++k) out[{p[k].x, p[k].y, p[k].z}].push_back({t, k});
    }
    return out;
}

// At every vertex, of the triangles that pass their own culling for `ref`,
// exactly one owns a contact at the vertex; none when a facing triangle of
// the fan is nearer to ref than the vertex (its own contact is nearer), or
// when no triangle faces ref. Fans where a triangle is nearer by less than
// 1e-4 of the distance are ties within rounding and are not judged.
void check_vertex_owners(const Surface& s, cc_vec3 ref, int* checked)
{
    for (const auto& f : fans(s)) {
        int facing = 0, owners = 0, over = 0, tie = 0;
        std::vector<std::pair<int, int>> reporting;
        cc_vec3 vertex = cc_v3(f.first[0], f.first[1], f.first[2]);
        float to_vertex = cc_v3_length(cc_v3_sub(vertex, ref));
        for (auto [t, k] : f.second) {
            cc_vec3 p[3], n;
            cc_surface_triangle(&s.view, 0, s.pose, t, &p[0], &p[1], &p[2]);
            cc_vec3 rel[3] = {cc_v3_sub(p[0], ref), cc_v3_sub(p[1], ref), cc_v3_sub(p[2], ref)};
            if (!cc_triangle_normal(rel[0], rel[1], rel[2], &n)) continue;
            if (!(cc_v3_dot(rel[0], n) <= 0.0f)) continue; // culled: reports nothing
            ++facing;
            int region;
            float to_triangle = cc_v3_length(cc_triangle_closest_origin(rel[0], rel[1], rel[2], n, 1, &region));
            if (to_triangle < to_vertex * (1.0f - 1.0e-4f)) ++over;
            else if (to_triangle < to_vertex * (1.0f - 1.0e-6f)) ++tie;
            else reporting.push_back({t, k}); // nearest to ref at this vertex: it asks

        }
        if (facing == 0 || (tie && !over)) continue;
        for (auto [t, k] : reporting)
            owners += cc_surface_fan_owner(&s.view, 0, s.pose, t, k, ref, 1, nullptr, nullptr) == CC_SURFACE_KEEP;
        ++*checked;
        if (over) {
            EXPECT_EQ(owners, 0) << "vertex " << f.first[0] << " " << f.first[1] << " " << f.first[2];
        } else {
            EXPECT_EQ(owners, 1) << "vertex " << f.first[0] << " " << f.first[1] << " " << f.first[2] << ": "
                                 << facing << " facing triangles";
        }
    }
}

TEST(SurfaceOwnership, EveryVertexOfAMeshHasOneOwnerAmongTheTrianglesFacingA)
{
    std::mt19937 g(5);
    std::uniform_real_distribution<float> u(-1.0f, 1.0f);
    MeshData grid = grid_mesh(6, 1.0f);
    for (auto& v : grid.vertices) v.z = 0.2f * std::sin(3.0f * v.x) * std::cos(2.0f * v.y);
    const MeshData meshes[] = {grid, tessellated_box_mesh({0.5f, 0.3f, 0.2f}, 3), box_mesh({1, 1, 1})};
    int checked = 0;
    for (const MeshData& m : meshes) {
        Surface s = mesh_surface(m);
        for (int k = 0; k < 40; ++k) check_vertex_owners(s, {1.5f * u(g), 1.5f * u(g), 1.5f * u(g)}, &checked);
    }
    EXPECT_GT(checked, 1000);
}

TEST(SurfaceOwnership, EveryVertexOfAHeightfieldHasOneOwnerAmongTheTrianglesFacingA)
{
    std::mt19937 g(6);
    std::uniform_real_distribution<float> u(-1.0f, 1.0f);
    int checked = 0;
    for (auto height : {wave, terraces}) {
        Surface s = hfield_surface(7, 9, height);
        for (int k = 0; k < 40; ++k) check_vertex_owners(s, {1.2f * u(g), 1.0f * u(g), 0.5f + 0.5f * u(g)}, &checked);
    }
    EXPECT_GT(checked, 1000);
}

TEST(SurfaceOwnership, FaceVerticesHaveOneOwnerPerPlane)
{
    // Face contacts at a vertex are shared by the triangles of one plane
    // only: each coplanar fan around a vertex has exactly one owner.
    const MeshData meshes[] = {tessellated_box_mesh({0.5f, 0.3f, 0.2f}, 3), box_mesh({1, 1, 1}), grid_mesh(4, 1.0f)};
    for (const MeshData& m : meshes) {
        Surface s = mesh_surface(m);
        std::map<std::pair<std::vector<float>, std::vector<float>>, int> owners; // (vertex, plane normal) -> count
        std::set<std::pair<std::vector<float>, std::vector<float>>> planes;
        for (int t = 0; t < s.triangle_count; ++t) {
            cc_vec3 p[3], n;
            cc_surface_triangle(&s.view, 0, s.pose, t, &p[0], &p[1], &p[2]);
            ASSERT_TRUE(cc_triangle_normal(p[0], p[1], p[2], &n));
            std::vector<float> nk = {std::round(n.x * 1e4f), std::round(n.y * 1e4f), std::round(n.z * 1e4f)};
            for (int k = 0; k < 3; ++k) {
                auto key = std::make_pair(std::vector<float>{p[k].x, p[k].y, p[k].z}, nk);
                planes.insert(key);
                if (s.flags[(size_t)t] & CC_TRI_FACE_VERTEX_OWNER(k)) owners[key]++;
            }
        }
        for (const auto& key : planes) EXPECT_EQ(owners[key], 1);
    }
}

TEST(SurfaceOwnership, AHeightfieldsPlanesHaveOneFaceOwnerPerVertex)
{
    Surface s = hfield_surface(6, 7, terraces);
    std::map<std::pair<std::vector<float>, std::vector<float>>, int> owners;
    std::set<std::pair<std::vector<float>, std::vector<float>>> planes;
    cc_hfield_ref h = cc_hfield_ref_of(&s.view, 0);
    for (int t = 0; t < s.triangle_count; ++t) {
        cc_vec3 p[3], n;
        cc_surface_triangle(&s.view, 0, s.pose, t, &p[0], &p[1], &p[2]);
        ASSERT_TRUE(cc_triangle_normal(p[0], p[1], p[2], &n));
        unsigned f = cc_hfield_face_owners(&h, t);
        std::vector<float> nk = {std::round(n.x * 1e4f), std::round(n.y * 1e4f), std::round(n.z * 1e4f)};
        for (int k = 0; k < 3; ++k) {
            auto key = std::make_pair(std::vector<float>{p[k].x, p[k].y, p[k].z}, nk);
            planes.insert(key);
            if (f & CC_TRI_FACE_VERTEX_OWNER(k)) owners[key]++;
        }
    }
    // Terraces: a plane may touch a vertex in two separate fans (a flat step
    // seen across a fold); each connected fan has its owner, so at least one.
    for (const auto& key : planes) EXPECT_GE(owners[key], 1);
}

} // namespace
