// Signed distance fields of meshes: the field against closed forms (a box,
// a tessellated sphere), its sign in and out of the band and off the
// lattice, its gradient, the quantisation bound, the sparse layout and its
// memory, the edge simplification, and bad input.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <cstdio>
#include <random>
#include <string>
#include <unistd.h>

#if defined(CC_TEST_WITH_OPENVDB)
#include <openvdb/openvdb.h>
#include <openvdb/io/File.h>
#include <openvdb/tools/LevelSetSphere.h>
#endif

#include "cucontact/mjcf.h"
#include "host/geometry/bvh_build.h"
#include "host/geometry/mesh_edges.h"
#include "host/geometry/sdf_build.h"
#include "host/geometry/winding.h"
#include "kernels/math/quat.h"
#include "host/testing.h"
#include "kernels/mesh/bvh.h"
#include "tests/support/mesh_util.h"

using namespace cctest;

namespace {

// Signed distance to the box [-h, h].
float box_distance(cc_vec3 p, cc_vec3 h)
{
    float qx = std::fabs(p.x) - h.x, qy = std::fabs(p.y) - h.y, qz = std::fabs(p.z) - h.z;
    float ox = std::max(qx, 0.0f), oy = std::max(qy, 0.0f), oz = std::max(qz, 0.0f);
    return std::sqrt(ox * ox + oy * oy + oz * oz) + std::min(std::max(qx, std::max(qy, qz)), 0.0f);
}

// Unit direction from the nearest point of mesh m to p (brute force).
cc_vec3 nearest_direction(const MeshData& m, cc_vec3 p)
{
    float best = INFINITY;
    cc_vec3 dir{};
    for (int t = 0; t < m.triangle_count(); ++t) {
        const int* v = &m.triangles[3 * (size_t)t];
        cc_vec3 q = cc_closest_point_on_triangle(p, m.vertices[v[0]], m.vertices[v[1]], m.vertices[v[2]]);
        cc_vec3 d = cc_v3_sub(p, q);
        float len = cc_v3_length(d);
        if (len < best) best = len, dir = cc_v3_scale(d, 1.0f / len);
    }
    return dir;
}

struct Field {
    Builder b;
    int sdf = -1;
    cc_sdf_info info{};
};

Field build(const MeshData& m, cc_sdf_def def = cc_default_sdf_def())
{
    Field f{make_builder()};
    int mesh = add_mesh_data(f.b.get(), m);
    EXPECT_EQ(cc_builder_build_mesh_sdf(f.b.get(), mesh, &def, &f.sdf), CC_OK) << cc_last_error_message();
    EXPECT_EQ(cc_builder_get_sdf_info(f.b.get(), f.sdf, &f.info), CC_OK);
    return f;
}

float sample(const Field& f, cc_vec3 p, cc_vec3* g = nullptr)
{
    float d = 0.0f;
    cc_vec3 grad{};
    EXPECT_EQ(cc_builder_sample_sdf(f.b.get(), f.sdf, &p, 1, &d, &grad), CC_OK);
    if (g) *g = grad;
    return d;
}

TEST(Sdf, BoxFieldMatchesTheBoxDistanceWithinHalfAVoxel)
{
    const cc_vec3 h = {0.3f, 0.2f, 0.1f};
    Field f = build(box_mesh(h));
    const float voxel = f.info.voxel_size;
    EXPECT_NEAR(voxel, (0.6f + 0.1f) / 64.0f, 1e-6f);
    std::mt19937 rng(7);
    std::uniform_real_distribution<float> u(-1.0f, 1.0f);
    int inside_band = 0;
    for (int i = 0; i < 20000; ++i) {
        // Within the lattice: the bounds padded by the default margin.
        cc_vec3 p = {0.35f * u(rng), 0.25f * u(rng), 0.15f * u(rng)};
        float truth = box_distance(p, h), d = sample(f, p);
        if (truth > f.info.band[0] + voxel && truth < f.info.band[1] - voxel) {
            ++inside_band;
            ASSERT_NEAR(d, truth, 0.5f * voxel) << p.x << " " << p.y << " " << p.z;
        }
        if (std::fabs(truth) > 0.5f * voxel) {
            ASSERT_EQ(d > 0.0f, truth > 0.0f) << p.x << " " << p.y << " " << p.z;
        }
        if (truth > 0.0f) {
            ASSERT_LE(d, truth + 0.5f * voxel) << "outside, the field never overstates the distance";
        }
    }
    EXPECT_GT(inside_band, 10000);
}

TEST(Sdf, FarPointsGetALowerBoundOfTheirDistance)
{
    // Past the band and off the lattice the field keeps a lower bound that
    // grows with the distance, and the right sign.
    const cc_vec3 h = {0.3f, 0.2f, 0.1f};
    cc_sdf_def def = cc_default_sdf_def();
    def.narrow_band_inner = -0.02f;
    def.narrow_band_outer = 0.02f;
    def.margin = 0.3f;
    Field f = build(box_mesh(h), def);
    std::mt19937 rng(3);
    std::uniform_real_distribution<float> u(-3.0f, 3.0f);
    for (int i = 0; i < 5000; ++i) {
        cc_vec3 p = {u(rng), u(rng), u(rng)};
        float truth = box_distance(p, h), d = sample(f, p);
        if (truth > 0.0f) {
            ASSERT_LE(d, truth + 1e-5f) << p.x << " " << p.y << " " << p.z;
            ASSERT_GE(d, std::min(truth, 0.02f) - f.info.voxel_size) << p.x << " " << p.y << " " << p.z;
            if (truth > 0.5f) {
                ASSERT_GT(d, 0.3f * truth) << "the bound follows the distance far out";
            }
        }
    }
    // Deep inside, past the band: negative, the band's depth at most.
    EXPECT_LT(sample(f, {0.0f, 0.0f, 0.0f}), -0.019f);
}

TEST(Sdf, GradientIsUnitAwayFromEdgesAndPointsOut)
{
    const cc_vec3 h = {0.3f, 0.2f, 0.1f};
    Field f = build(box_mesh(h));
    std::mt19937 rng(11);
    std::uniform_real_distribution<float> u(-1.0f, 1.0f);
    int checked = 0;
    for (int i = 0; i < 5000; ++i) {
        // Points near the top face, away from its rim: the field is linear there.
        cc_vec3 p = {0.25f * u(rng), 0.15f * u(rng), 0.1f + 0.04f * u(rng)};
        cc_vec3 g;
        sample(f, p, &g);
        float len = std::sqrt(g.x * g.x + g.y * g.y + g.z * g.z);
        ASSERT_NEAR(len, 1.0f, 1e-2f);
        ASSERT_GT(g.z / len, 0.999f);
        ++checked;
    }
    EXPECT_EQ(checked, 5000);
}

TEST(Sdf, TessellatedSphereMatchesTheSphereWithinHalfAVoxel)
{
    const float r = 0.25f;
    cc_sdf_def def = cc_default_sdf_def();
    def.max_resolution = 128;
    MeshData m = sphere_mesh(r, 4);
    Field f = build(m, def);
    const float voxel = f.info.voxel_size;
    std::mt19937 rng(5);
    std::uniform_real_distribution<float> u(-0.3f, 0.3f); // the padded bounds: the lattice
    int in_band = 0;
    for (int i = 0; i < 20000; ++i) {
        cc_vec3 p = {u(rng), u(rng), u(rng)};
        float len = std::sqrt(p.x * p.x + p.y * p.y + p.z * p.z), truth = len - r;
        cc_vec3 g;
        float d = sample(f, p, &g);
        if (truth > f.info.band[0] + voxel && truth < f.info.band[1] - voxel) {
            ASSERT_NEAR(d, truth, 0.5f * voxel) << p.x << " " << p.y << " " << p.z;
            ++in_band;
        }
        // Deeper than the band: the coarse corners' estimate, within half a
        // brick's diagonal, and a gradient pointing out.
        if (truth < f.info.band[0] - 2.0f * voxel) {
            ASSERT_LE(d, f.info.band[0] + voxel);
            ASSERT_NEAR(d, truth, 0.87f * 8.0f * voxel);
            if (len > 0.1f) {
                float gl = std::sqrt(g.x * g.x + g.y * g.y + g.z * g.z);
                ASSERT_GT((g.x * p.x + g.y * p.y + g.z * p.z) / (gl * len), 0.9f);
            }
        }
        if (std::fabs(truth) > voxel) {
            ASSERT_EQ(d > 0.0f, truth > 0.0f);
        }
        // Outside the polyhedron, over its vertices and edges, the distance
        // curves with radius t (the distance itself), and interpolation
        // stretches the gradient by up to about voxel / t there (measured:
        // 3-5 % a few voxels out); inside, the bisectors of neighbouring
        // faces are ridges that interpolation rounds off. The direction
        // is what contacts use: within 5 degrees of the nearest point's
        // (measured: 4 two voxels out).
        if (truth > 2.0f * voxel && truth < f.info.band[1] - voxel) {
            float gl = std::sqrt(g.x * g.x + g.y * g.y + g.z * g.z);
            ASSERT_NEAR(gl, 1.0f, 0.5f * voxel / truth + 0.01f);
            cc_vec3 n = nearest_direction(m, p);
            ASSERT_GT((g.x * n.x + g.y * n.y + g.z * n.z) / gl, std::cos(5.0f * 3.14159265f / 180.0f))
                << "the gradient points away from the nearest point of the mesh";
        }
    }
    EXPECT_GT(in_band, 3000);
}

// A mesh with triangles removed: the box without its top face, or the
// sphere with a cap torn off.
MeshData without(MeshData m, bool (*drop)(cc_vec3 centroid))
{
    std::vector<int> kept;
    for (int t = 0; t < m.triangle_count(); ++t) {
        const int* v = &m.triangles[3 * (size_t)t];
        cc_vec3 c = cc_v3_scale(cc_v3_add(m.vertices[v[0]], cc_v3_add(m.vertices[v[1]], m.vertices[v[2]])), 1.0f / 3.0f);
        if (!drop(c)) kept.insert(kept.end(), v, v + 3);
    }
    m.triangles = kept;
    return m;
}

TEST(Sdf, OpenMeshesAreSignedByTheirWindingNumber)
{
    const MeshData open_box = without(box_mesh({0.3f, 0.2f, 0.1f}), [](cc_vec3 c) { return c.z > 0.09f; });
    const MeshData torn_sphere = without(sphere_mesh(0.25f, 3), [](cc_vec3 c) { return c.z > 0.18f; });
    for (const MeshData* m : {&open_box, &torn_sphere}) {
        ASSERT_LT(m->triangle_count(), (int)(m == &open_box ? 12 : 512));
        Field f = build(*m);
        std::mt19937 rng(9);
        std::uniform_real_distribution<float> u(-0.3f, 0.3f);
        int inside = 0, outside = 0;
        for (int i = 0; i < 3000; ++i) {
            cc_vec3 p = {u(rng), u(rng), u(rng)};
            double w = cc_winding_number_exact(m->vertices.data(), m->triangles.data(), m->triangle_count(), p);
            float d = sample(f, p);
            // Away from the surface and from the hole's rim, where w passes 1/2.
            if (std::fabs(d) < f.info.voxel_size || std::fabs(w - 0.5) < 0.1) continue;
            ASSERT_EQ(d < 0.0f, w > 0.5) << p.x << " " << p.y << " " << p.z << " w " << w << " d " << d;
            (w > 0.5 ? inside : outside)++;
        }
        EXPECT_GT(inside, 100);
        EXPECT_GT(outside, 100);
    }
}

TEST(Sdf, WithoutOpenVdbTheFieldIsTheSame)
{
    // The library's own band (bricks near a triangle) and winding-number
    // signs against OpenVDB's band and flood fill: the same exact values
    // wherever both store the band, the same sign everywhere.
    const MeshData meshes[] = {box_mesh({0.3f, 0.2f, 0.1f}), sphere_mesh(0.25f, 3),
                               without(box_mesh({0.3f, 0.2f, 0.1f}), [](cc_vec3 c) { return c.z > 0.09f; })};
    for (const MeshData& m : meshes) {
        Field vdb = build(m);
        cc_testing_sdf_use_openvdb(0);
        Field own = build(m);
        cc_testing_sdf_use_openvdb(1);
        ASSERT_EQ(own.info.voxel_size, vdb.info.voxel_size);
        ASSERT_EQ(own.info.band[0], vdb.info.band[0]);
        const float voxel = vdb.info.voxel_size, band = vdb.info.band[1];
        std::mt19937 rng(4);
        std::uniform_real_distribution<float> u(-0.35f, 0.35f);
        int compared = 0;
        for (int i = 0; i < 5000; ++i) {
            cc_vec3 p = {u(rng), u(rng), u(rng)};
            float a = sample(vdb, p), b = sample(own, p);
            if (std::fabs(a) < band - 2.0f * voxel) {
                ASSERT_NEAR(a, b, 1e-5f) << p.x << " " << p.y << " " << p.z;
                ++compared;
            }
            if (std::fabs(a) > voxel && std::fabs(b) > voxel) {
                ASSERT_EQ(a > 0.0f, b > 0.0f) << p.x << " " << p.y << " " << p.z;
            }
        }
        EXPECT_GT(compared, 500);
    }
}

TEST(Sdf, FastWindingNumbersMatchTheExactSum)
{
    // The BVH evaluation (dipoles for far nodes) against every triangle's
    // solid angle, on a closed and a torn sphere, near and far.
    const MeshData closed = sphere_mesh(0.25f, 4);
    const MeshData torn = without(closed, [](cc_vec3 c) { return c.z > 0.18f; });
    for (const MeshData* m : {&closed, &torn}) {
        cc_winding_tree tree;
        ASSERT_EQ(cc_winding_tree_build(m->vertices.data(), m->triangles.data(), m->triangle_count(), &tree), CC_OK);
        std::mt19937 rng(2);
        std::uniform_real_distribution<float> u(-1.0f, 1.0f);
        for (int i = 0; i < 2000; ++i) {
            cc_vec3 p = {u(rng), u(rng), u(rng)};
            double exact = cc_winding_number_exact(m->vertices.data(), m->triangles.data(), m->triangle_count(), p);
            ASSERT_NEAR(cc_winding_number(&tree, p), exact, 0.02) << p.x << " " << p.y << " " << p.z;
        }
        cc_winding_tree_free(&tree);
    }
}

TEST(Sdf, QuantisationStaysWithinItsBound)
{
    for (const MeshData& m : {box_mesh({0.3f, 0.2f, 0.1f}), sphere_mesh(0.25f, 3), tessellated_box_mesh({1, 2, 0.5f}, 4)}) {
        Field f = build(m);
        // Half a code step, and the rounding of the decoded float (2^-22 of the band).
        const float bound = (0.1f - -0.1f) / (2.0f * 65535.0f) + 0.1f * std::ldexp(1.0f, -22);
        EXPECT_LE(f.info.quantization_error, bound);
        EXPECT_GT(f.info.quantization_error, 0.0f);
    }
}

TEST(Sdf, BricksAreStoredOnlyWhereTheBandIs)
{
    cc_sdf_def def = cc_default_sdf_def();
    def.max_resolution = 128;
    def.narrow_band_inner = -0.01f;
    def.narrow_band_outer = 0.01f;
    Field f = build(sphere_mesh(0.5f, 4), def);
    EXPECT_EQ(f.info.bricks, (f.info.samples[0] / 8) * (f.info.samples[1] / 8) * (f.info.samples[2] / 8));
    EXPECT_GT(f.info.stored_bricks, 0);
    EXPECT_LT(f.info.stored_bricks, f.info.bricks / 2) << "a thin band leaves most bricks empty";
    for (int k = 0; k < 3; ++k) EXPECT_EQ(f.info.samples[k] % 8, 0);
    // The model reports the SDF's bytes apart, and they are what the info says.
    int body = add_body(f.b.get(), {0, 0, 0});
    EXPECT_EQ(cc_builder_add_mesh(f.b.get(), body, 0, {1, 1, 1}, nullptr, nullptr), CC_OK);
    cc_model* model = nullptr;
    ASSERT_EQ(cc_builder_finalize(f.b.get(), cc_device_cpu(), &model), CC_OK) << cc_last_error_message();
    Model owned(model);
    cc_model_memory mem;
    ASSERT_EQ(cc_model_get_memory(model, &mem), CC_OK);
    EXPECT_GE(mem.sdf_bytes, f.info.device_bytes);
    EXPECT_LE(mem.sdf_bytes, f.info.device_bytes + 64);
    EXPECT_EQ(mem.shape_bytes + mem.body_bytes + mem.filter_bytes + mem.geometry_bytes + mem.sdf_bytes,
              cc_model_device_bytes(model));
}

TEST(Sdf, BricksAreStoredExactlyWhereASampleLiesInsideTheBand)
{
    // Every brick holding a sample nearer the surface than the band's edge
    // is stored, and no other but an open mesh's bricks that its winding
    // number's inside crosses past a hole (both sides of the band in one
    // brick): each sample's distance from the BVH's branch and bound, an
    // independent search. Closed meshes (OpenVDB's signs) and an open one
    // (the winding number's).
    const MeshData meshes[] = {sphere_mesh(0.25f, 3), tessellated_box_mesh({0.3f, 0.2f, 0.1f}, 3),
                               without(sphere_mesh(0.25f, 3), [](cc_vec3 c) { return c.z > 0.18f; })};
    for (int which = 0; which < 3; ++which) {
        const MeshData& m = meshes[which];
        cc_sdf_def def = cc_default_sdf_def();
        def.narrow_band_inner = -0.018f; // both sides alike: one reach decides
        def.narrow_band_outer = 0.018f;
        cc_sdf_data data;
        ASSERT_EQ(cc_sdf_build(m.vertices.data(), (int)m.vertices.size(), m.triangles.data(), m.triangle_count(),
                               which < 2, &def, &data),
                  CC_OK);
        cc_bvh_node* nodes = nullptr;
        int node_count = 0, *prims = nullptr;
        ASSERT_EQ(cc_mesh_bvh_build(m.vertices.data(), m.triangles.data(), m.triangle_count(), &nodes, &node_count, &prims), CC_OK);
        const cc_sdf_desc& d = data.desc;
        const float reach = std::max(-d.band_lo, d.band_hi), tolerance = 1e-4f * d.voxel;
        const int bx = d.nx / 8, by = d.ny / 8, bz = d.nz / 8;
        int stored = 0, empty = 0;
        for (int b = 0; b < bx * by * bz; ++b) {
            float nearest = INFINITY;
            for (int n = 0; n < 512; ++n) {
                cc_vec3 p = cc_v3_add(d.origin, cc_v3_scale(cc_v3((float)((b % bx) * 8 + n % 8), (float)((b / bx % by) * 8 + n / 8 % 8),
                                                                   (float)((b / (bx * by)) * 8 + n / 64)),
                                                            d.voxel));
                float distance = reach + 1.0f;
                cc_bvh_closest_triangle(nodes, prims, m.vertices.data(), (const cc_mesh_triangle*)m.triangles.data(), p,
                                        reach + 1.0f, nullptr, &distance);
                nearest = std::min(nearest, distance);
            }
            if (nearest < reach - tolerance) {
                ASSERT_GE(data.table[b], 0) << "mesh " << which << " brick " << b << " nearest " << nearest;
                ++stored;
            } else if (nearest > reach + tolerance) {
                if (data.table[b] >= 0) {
                    const unsigned short* codes = data.codes + (size_t)data.table[b] * 512;
                    ASSERT_EQ(*std::min_element(codes, codes + 512), 0) << "mesh " << which << " brick " << b;
                    ASSERT_EQ(*std::max_element(codes, codes + 512), 65535) << "mesh " << which << " brick " << b;
                    ASSERT_EQ(which, 2) << "a closed mesh stores brick " << b << ", nearest " << nearest;
                } else {
                    ++empty;
                }
            }
        }
        EXPECT_GT(stored, 20);
        EXPECT_GT(empty, 20);
        cc_host_free(nodes);
        cc_host_free(prims);
        cc_sdf_data_free(&data);
    }
}

TEST(Sdf, FlatEdgesAreLeftOutOfTheQueries)
{
    // A box of 12 triangles has 18 edges; the 6 face diagonals are flat.
    EXPECT_EQ(build(box_mesh({1, 1, 1})).info.edges, 12);
    cc_sdf_def keep = cc_default_sdf_def();
    keep.edge_lower_angle_threshold = -1.0f;
    EXPECT_EQ(build(box_mesh({1, 1, 1}), keep).info.edges, 18);
    // A tessellated box keeps only its 12 rims' segments.
    EXPECT_EQ(build(tessellated_box_mesh({1, 1, 1}, 3)).info.edges, 12 * 3);
}

TEST(Sdf, EdgeBoxesAbsorbOnlyEdgesInsideALongerKeptOnesBox)
{
    // A dense sphere (8,192 triangles): with edge boxes on, the kept edges
    // are a subset of those without, markedly fewer, and every edge left
    // out lies (both ends) in the box of a kept edge at least as long,
    // checked by brute force. A box's 12 rims absorb nothing.
    MeshData sphere = sphere_mesh(0.25f, 5);
    auto edges_of = [&](const MeshData& m, const cc_edge_boxes* boxes) {
        int* e = nullptr;
        int n = 0;
        EXPECT_EQ(cc_mesh_collision_edges(m.vertices.data(), (int)m.vertices.size(), m.triangles.data(), m.triangle_count(),
                                          0.1f * 3.14159265f / 180.0f, 1, boxes, &e, &n),
                  CC_OK);
        std::vector<std::pair<int, int>> out;
        for (int i = 0; i < n; ++i) out.push_back({e[2 * i], e[2 * i + 1]});
        cc_host_free(e);
        return out;
    };
    const float diagonal = 0.25f * 2.0f * std::sqrt(3.0f);
    // Boxes 3 % of the diagonal wide, about an edge's length either side.
    cc_edge_boxes boxes{1, 0.0025f * diagonal, 0.03f * diagonal};
    auto all = edges_of(sphere, nullptr), kept = edges_of(sphere, &boxes);
    std::printf("dense sphere: %zu edges, %zu after absorption\n", all.size(), kept.size());
    EXPECT_LT(kept.size(), all.size() * 9 / 10);
    EXPECT_GT(kept.size(), all.size() / 4);
    // The box of edge (a, b): its mean normal from the triangles on it.
    std::map<std::pair<int, int>, cc_vec3> normal;
    for (int t = 0; t < sphere.triangle_count(); ++t) {
        const int* v = &sphere.triangles[3 * (size_t)t];
        cc_vec3 n = cc_v3_normalize(cc_v3_cross(cc_v3_sub(sphere.vertices[v[1]], sphere.vertices[v[0]]),
                                                cc_v3_sub(sphere.vertices[v[2]], sphere.vertices[v[0]])));
        for (int k = 0; k < 3; ++k) {
            std::pair<int, int> e{std::min(v[k], v[(k + 1) % 3]), std::max(v[k], v[(k + 1) % 3])};
            normal[e] = cc_v3_add(normal[e], n);
        }
    }
    auto length = [&](std::pair<int, int> e) { return cc_v3_length(cc_v3_sub(sphere.vertices[e.second], sphere.vertices[e.first])); };
    auto in_box = [&](std::pair<int, int> e, cc_vec3 p) {
        cc_vec3 a = sphere.vertices[e.first], b = sphere.vertices[e.second];
        cc_vec3 u = cc_v3_normalize(cc_v3_sub(b, a)), n = normal[e];
        n = cc_v3_normalize(cc_v3_madd(n, u, -cc_v3_dot(n, u)));
        cc_vec3 w = cc_v3_cross(u, n), r = cc_v3_sub(p, cc_v3_scale(cc_v3_add(a, b), 0.5f));
        const float slack = 1e-5f;
        return std::fabs(cc_v3_dot(r, u)) <= 0.5f * cc_v3_length(cc_v3_sub(b, a)) + slack &&
               std::fabs(cc_v3_dot(r, w)) <= boxes.half_lateral + slack && std::fabs(cc_v3_dot(r, n)) <= boxes.half_normal + slack;
    };
    std::set<std::pair<int, int>> kept_set(kept.begin(), kept.end());
    for (auto e : kept) ASSERT_TRUE(std::binary_search(all.begin(), all.end(), e));
    for (auto e : all) {
        if (kept_set.count(e)) continue;
        bool covered = false;
        for (auto k : kept)
            if (length(k) >= length(e) - 1e-6f && in_box(k, sphere.vertices[e.first]) && in_box(k, sphere.vertices[e.second])) {
                covered = true;
                break;
            }
        ASSERT_TRUE(covered) << "edge " << e.first << "-" << e.second << " left out with no kept box around it";
    }
    MeshData box = box_mesh({1, 1, 1});
    EXPECT_EQ(edges_of(box, &boxes).size(), 12u);
    // Through the def: the SDF's edge count drops, and a box pressed 2 mm
    // into the sphere meets it as deep with and without.
    cc_sdf_def def = cc_default_sdf_def();
    def.edge_box_absorption = 1;
    def.edge_box_half_lateral_rel = 0.03f;
    Field on = build(sphere, def), off = build(sphere);
    EXPECT_EQ(on.info.edges, (int)kept.size());
    EXPECT_EQ(off.info.edges, (int)all.size());
    float deepest[2] = {0.0f, 0.0f};
    for (int absorb = 0; absorb < 2; ++absorb) {
        Builder w = make_builder(0.005f);
        int ball = add_mesh_data(w.get(), sphere), cube = add_mesh_data(w.get(), box_mesh({0.1f, 0.1f, 0.1f}));
        cc_sdf_def sd = absorb ? def : cc_default_sdf_def();
        ASSERT_EQ(cc_builder_build_mesh_sdf(w.get(), ball, &sd, nullptr), CC_OK) << cc_last_error_message();
        ASSERT_EQ(cc_builder_build_mesh_sdf(w.get(), cube, nullptr, nullptr), CC_OK) << cc_last_error_message();
        ASSERT_EQ(cc_builder_add_mesh(w.get(), CC_BODY_WORLD, ball, {1, 1, 1}, nullptr, nullptr), CC_OK);
        int body = add_body(w.get(), {0.0f, 0.0f, 0.25f + 0.1f - 0.002f});
        ASSERT_EQ(cc_builder_add_mesh(w.get(), body, cube, {1, 1, 1}, nullptr, nullptr), CC_OK);
        World world;
        ASSERT_EQ(make_world(w.get(), cc_device_cpu(), cc_default_pipeline_def(), &world), CC_OK) << cc_last_error_message();
        for (const cc_contact& c : collide(world)) deepest[absorb] = std::min(deepest[absorb], c.distance);
    }
    EXPECT_LT(deepest[0], -0.001f);
    EXPECT_NEAR(deepest[1], deepest[0], 0.1f * on.info.voxel_size);
}

// The cache's tests: a build's progress calls (a hit reports 1 alone) and
// the warnings logged meanwhile.
struct CacheProbe {
    std::vector<float> progress;
    std::vector<std::string> warnings;
};

void on_progress(float f, void* user) { static_cast<CacheProbe*>(user)->progress.push_back(f); }
void on_log(cc_log_level level, const char* message, void* user)
{
    if (level == CC_LOG_WARNING) static_cast<CacheProbe*>(user)->warnings.push_back(message);
}

struct CachedBuild {
    Builder b;
    int sdf = -1;
    bool hit = false;
    std::vector<std::string> warnings;
};

CachedBuild cached_build(const MeshData& m, cc_sdf_def def, const char* dir)
{
    CacheProbe probe;
    def.cache_dir = dir;
    def.progress = on_progress;
    def.progress_user = &probe;
    cc_set_log_callback(on_log, &probe);
    CachedBuild r{make_builder(), -1, false, {}};
    int mesh = add_mesh_data(r.b.get(), m);
    EXPECT_EQ(cc_builder_build_mesh_sdf(r.b.get(), mesh, &def, &r.sdf), CC_OK) << cc_last_error_message();
    cc_set_log_callback(nullptr, nullptr);
    EXPECT_FALSE(probe.progress.empty());
    if (!probe.progress.empty()) {
        EXPECT_EQ(probe.progress.back(), 1.0f);
    }
    for (size_t i = 1; i < probe.progress.size(); ++i) EXPECT_GE(probe.progress[i], probe.progress[i - 1]);
    r.hit = probe.progress.size() == 1;
    r.warnings = probe.warnings;
    return r;
}

std::vector<float> samples_of(const CachedBuild& c)
{
    std::mt19937 rng(1);
    std::uniform_real_distribution<float> u(-0.4f, 0.4f);
    std::vector<cc_vec3> p(2000);
    for (auto& x : p) x = {u(rng), u(rng), u(rng)};
    std::vector<float> d(p.size());
    EXPECT_EQ(cc_builder_sample_sdf(c.b.get(), c.sdf, p.data(), (int)p.size(), d.data(), nullptr), CC_OK);
    return d;
}

std::string cache_file(const std::string& dir)
{
    std::string found;
    for (const auto& e : std::filesystem::directory_iterator(dir)) found = e.path().string();
    return found;
}

TEST(Sdf, CacheHitsAreBitIdenticalAndEveryBuildParameterMisses)
{
    std::string dir = std::filesystem::temp_directory_path() / ("cucontact-sdf-cache-" + std::to_string(getpid()));
    std::filesystem::remove_all(dir);
    std::filesystem::create_directories(dir);
    const MeshData mesh = sphere_mesh(0.25f, 3);
    const cc_sdf_def def = cc_default_sdf_def();
    CachedBuild first = cached_build(mesh, def, dir.c_str());
    EXPECT_FALSE(first.hit);
    CachedBuild second = cached_build(mesh, def, dir.c_str());
    EXPECT_TRUE(second.hit);
    std::vector<float> a = samples_of(first), b = samples_of(second);
    EXPECT_EQ(std::memcmp(a.data(), b.data(), sizeof(float) * a.size()), 0) << "a hit is bit-identical";
    // shape_margin is applied when sampled: it hits and shifts the field.
    cc_sdf_def shrunk = def;
    shrunk.shape_margin = 0.01f;
    CachedBuild margin = cached_build(mesh, shrunk, dir.c_str());
    EXPECT_TRUE(margin.hit);
    std::vector<float> c = samples_of(margin);
    for (size_t i = 0; i < a.size(); ++i) EXPECT_EQ(c[i], a[i] - 0.01f);
    // Every keyed parameter, and the mesh itself, misses.
    std::vector<cc_sdf_def> changed(6, def);
    changed[0].max_resolution = 72;
    changed[1].target_voxel_size = 0.01f;
    changed[2].narrow_band_inner = -0.05f;
    changed[3].narrow_band_outer = 0.05f;
    changed[4].margin = 0.06f;
    changed[5].scale = {1.0f, 1.0f, 1.5f};
    for (size_t i = 0; i < changed.size(); ++i) EXPECT_FALSE(cached_build(mesh, changed[i], dir.c_str()).hit) << i;
    MeshData moved = mesh;
    moved.vertices[3].x += 1e-4f;
    EXPECT_FALSE(cached_build(moved, def, dir.c_str()).hit);
    std::filesystem::remove_all(dir);
}

TEST(Sdf, ACorruptCacheFileIsRebuiltAndReplaced)
{
    std::string dir = std::filesystem::temp_directory_path() / ("cucontact-sdf-corrupt-" + std::to_string(getpid()));
    std::filesystem::remove_all(dir);
    std::filesystem::create_directories(dir);
    const MeshData mesh = box_mesh({0.3f, 0.2f, 0.1f});
    const cc_sdf_def def = cc_default_sdf_def();
    CachedBuild fresh = cached_build(mesh, def, dir.c_str());
    std::vector<float> truth = samples_of(fresh);
    const std::string file = cache_file(dir);
    ASSERT_FALSE(file.empty());
    const auto size = std::filesystem::file_size(file);
    for (int damage = 0; damage < 3; ++damage) {
        if (damage == 0) std::filesystem::resize_file(file, size / 2); // truncated
        if (damage == 1) {                                             // one bit flipped in the codes
            std::fstream f(file, std::ios::in | std::ios::out | std::ios::binary);
            f.seekg((std::streamoff)(size / 2));
            char ch = 0;
            f.read(&ch, 1);
            ch ^= 0x10;
            f.seekp((std::streamoff)(size / 2));
            f.write(&ch, 1);
        }
        if (damage == 2) { // someone else's bytes under the name
            std::ofstream f(file, std::ios::binary | std::ios::trunc);
            f << "not an SDF";
        }
        CachedBuild rebuilt = cached_build(mesh, def, dir.c_str());
        EXPECT_FALSE(rebuilt.hit) << damage;
        ASSERT_EQ(rebuilt.warnings.size(), 1u) << damage;
        EXPECT_NE(rebuilt.warnings[0].find("corrupt"), std::string::npos);
        std::vector<float> again = samples_of(rebuilt);
        EXPECT_EQ(std::memcmp(again.data(), truth.data(), sizeof(float) * truth.size()), 0);
        EXPECT_TRUE(cached_build(mesh, def, dir.c_str()).hit) << "the file was replaced";
    }
    std::filesystem::remove_all(dir);
}

TEST(Sdf, AnUnusableCacheFolderIsAWarningNotAFailure)
{
    // A folder under a regular file can be neither read nor written.
    std::string file = std::filesystem::temp_directory_path() / ("cucontact-sdf-file-" + std::to_string(getpid()));
    std::ofstream(file) << "x";
    std::string dir = file + "/cache";
    const MeshData mesh = box_mesh({0.3f, 0.2f, 0.1f});
    CachedBuild built = cached_build(mesh, cc_default_sdf_def(), dir.c_str());
    EXPECT_FALSE(built.hit);
    ASSERT_GE(built.warnings.size(), 1u);
    EXPECT_NE(built.warnings.back().find("cannot write"), std::string::npos) << built.warnings.back();
    std::filesystem::remove(file);
}

#if defined(CC_TEST_WITH_OPENVDB)
// Writes grids to a .vdb file with OpenVDB.
void write_vdb(const std::string& path, openvdb::GridPtrVec grids)
{
    openvdb::io::File file(path);
    file.write(grids);
    file.close();
}

openvdb::FloatGrid::Ptr sphere_level_set(float radius, float voxel, const char* name)
{
    openvdb::FloatGrid::Ptr g =
        openvdb::tools::createLevelSetSphere<openvdb::FloatGrid>(radius, openvdb::Vec3f(0.0f, 0.0f, 0.0f), voxel, 3.0f);
    g->setName(name);
    return g;
}
#endif

TEST(Sdf, AVdbSphereLoadsAndCollidesLikeTheSphere)
{
#if !defined(CC_TEST_WITH_OPENVDB)
    GTEST_SKIP() << "built without OpenVDB: the test cannot write a .vdb";
#else
    openvdb::initialize();
    const float r = 0.25f, voxel = 0.005f;
    std::string path = std::filesystem::temp_directory_path() / ("cucontact-sphere-" + std::to_string(getpid()) + ".vdb");
    write_vdb(path, {sphere_level_set(r, voxel, "ball")});
    Builder b = make_builder(0.0f);
    int ball = add_mesh_data(b.get(), sphere_mesh(r, 4));
    int sdf = -1;
    ASSERT_EQ(cc_builder_load_mesh_sdf_vdb(b.get(), ball, path.c_str(), "ball", {1, 1, 1}, &sdf), CC_OK)
        << cc_last_error_message();
    cc_sdf_info info;
    ASSERT_EQ(cc_builder_get_sdf_info(b.get(), sdf, &info), CC_OK);
    EXPECT_NEAR(info.voxel_size, voxel, 1e-7f);
    EXPECT_NEAR(info.band[1], 3.0f * voxel, 1e-6f);
    // The field: the sphere's distance within a voxel in the band, the
    // right sign everywhere.
    std::mt19937 rng(8);
    std::uniform_real_distribution<float> u(-0.4f, 0.4f);
    Field f{std::move(b), sdf, info};
    for (int i = 0; i < 5000; ++i) {
        cc_vec3 p = {u(rng), u(rng), u(rng)};
        float truth = std::sqrt(p.x * p.x + p.y * p.y + p.z * p.z) - r, d = sample(f, p);
        if (std::fabs(truth) < info.band[1] - voxel) {
            ASSERT_NEAR(d, truth, voxel) << p.x << " " << p.y << " " << p.z;
        }
        if (std::fabs(truth) > voxel) {
            ASSERT_EQ(d > 0.0f, truth > 0.0f) << p.x << " " << p.y << " " << p.z;
        }
    }
    // Collided: a box corner pointing up 2 mm into the ball's bottom goes
    // through the ball's field, as deep as against the analytic sphere.
    int box = add_mesh_data(f.b.get(), box_mesh({0.1f, 0.1f, 0.1f}));
    ASSERT_EQ(cc_builder_add_mesh(f.b.get(), add_body(f.b.get(), {0, 0, 0}), ball, {1, 1, 1}, nullptr, nullptr), CC_OK);
    // Corner (1, 1, 1) of the box turned to point along +z, 2 mm inside the ball.
    const float c = 0.1f * std::sqrt(3.0f);
    const float k = 0.57735027f; // the shortest turn of (1, 1, 1) / sqrt(3) onto +z: (a x z, 1 + a . z)
    cc_quat q = cc_q_normalize({k, -k, 0.0f, 1.0f + k});
    ASSERT_NEAR(cc_q_rotate(q, {0.1f, 0.1f, 0.1f}).z, c, 1e-6f);
    int holder = add_body(f.b.get(), {0.0f, 0.0f, -r + 0.002f - c}, q, 1);
    ASSERT_EQ(cc_builder_add_mesh(f.b.get(), holder, box, {1, 1, 1}, nullptr, nullptr), CC_OK);
    World w;
    cc_pipeline_def d = cc_default_pipeline_def();
    ASSERT_EQ(make_world(f.b.get(), cc_device_cpu(), d, &w), CC_OK) << cc_last_error_message();
    std::vector<cc_contact> contacts = collide(w);
    ASSERT_GE(contacts.size(), 1u);
    float deepest = 0.0f;
    for (const auto& x : contacts) deepest = std::min(deepest, x.distance);
    EXPECT_NEAR(deepest, -0.002f, voxel);
    std::filesystem::remove(path);
#endif
}

TEST(Sdf, BadVdbFilesFailWithTheirReasonAndChangeNothing)
{
#if !defined(CC_TEST_WITH_OPENVDB)
    GTEST_SKIP() << "built without OpenVDB: the test cannot write a .vdb";
#else
    openvdb::initialize();
    const std::string stem = std::filesystem::temp_directory_path() / ("cucontact-bad-" + std::to_string(getpid()));
    Builder b = make_builder();
    int ball = add_mesh_data(b.get(), sphere_mesh(0.25f, 2));
    auto load = [&](const std::string& path, const char* grid) {
        return cc_builder_load_mesh_sdf_vdb(b.get(), ball, path.c_str(), grid, {1, 1, 1}, nullptr);
    };
    // A fog volume is not a level set.
    openvdb::FloatGrid::Ptr fog = sphere_level_set(0.25f, 0.01f, "fog");
    fog->setGridClass(openvdb::GRID_FOG_VOLUME);
    write_vdb(stem + "-fog.vdb", {fog});
    EXPECT_EQ(load(stem + "-fog.vdb", "fog"), CC_ERR_PARSE);
    EXPECT_NE(std::string(cc_last_error_message()).find("not a level set"), std::string::npos) << cc_last_error_message();
    // A grid name the file does not hold: the message lists what it holds.
    write_vdb(stem + "-ball.vdb", {sphere_level_set(0.25f, 0.01f, "ball")});
    EXPECT_EQ(load(stem + "-ball.vdb", "cube"), CC_ERR_PARSE);
    EXPECT_NE(std::string(cc_last_error_message()).find("no grid named 'cube' (it holds: ball)"), std::string::npos)
        << cc_last_error_message();
    // Truncated.
    std::filesystem::copy_file(stem + "-ball.vdb", stem + "-cut.vdb");
    std::filesystem::resize_file(stem + "-cut.vdb", std::filesystem::file_size(stem + "-ball.vdb") / 2);
    EXPECT_EQ(load(stem + "-cut.vdb", "ball"), CC_ERR_PARSE);
    EXPECT_NE(std::string(cc_last_error_message()).find(stem + "-cut.vdb"), std::string::npos) << cc_last_error_message();
    // Missing.
    EXPECT_EQ(load(stem + "-none.vdb", "ball"), CC_ERR_IO);
    EXPECT_NE(std::string(cc_last_error_message()).find("cannot open"), std::string::npos) << cc_last_error_message();
    EXPECT_EQ(cc_builder_sdf_count(b.get()), 0);
    // And the good one loads.
    EXPECT_EQ(load(stem + "-ball.vdb", nullptr), CC_OK) << cc_last_error_message();
    EXPECT_EQ(cc_builder_sdf_count(b.get()), 1);
    for (const char* s : {"-fog.vdb", "-ball.vdb", "-cut.vdb"}) std::filesystem::remove(stem + s);
#endif
}

TEST(Sdf, AVdbLevelSetIsAMeshShapeThatCollidesLikeTheSphere)
{
#if !defined(CC_TEST_WITH_OPENVDB)
    GTEST_SKIP() << "built without OpenVDB: the test cannot write a .vdb";
#else
    openvdb::initialize();
    const float r = 0.25f, voxel = 0.005f;
    std::string path = std::filesystem::temp_directory_path() / ("cucontact-shape-" + std::to_string(getpid()) + ".vdb");
    write_vdb(path, {sphere_level_set(r, voxel, "ball")});
    Builder b = make_builder(0.0f);
    int ball = -1, sdf = -1;
    ASSERT_EQ(cc_builder_add_sdf_vdb(b.get(), path.c_str(), "ball", &ball, &sdf), CC_OK) << cc_last_error_message();
    std::filesystem::remove(path);
    // The mesh is the zero level: closed, facing out, on the sphere within
    // a hundredth of a voxel (the grid holds the exact distance, so a
    // crossing interpolated along a voxel edge errs by its curvature only).
    int vertex_count = 0, triangle_count = 0, watertight = 0;
    ASSERT_EQ(cc_builder_get_mesh_info(b.get(), ball, &vertex_count, &triangle_count), CC_OK);
    ASSERT_EQ(cc_builder_get_mesh_topology(b.get(), ball, &watertight, nullptr), CC_OK);
    EXPECT_TRUE(watertight);
    EXPECT_GT(triangle_count, 1000);
    std::vector<cc_vec3> v((size_t)vertex_count);
    ASSERT_EQ(cc_builder_get_mesh_vertices(b.get(), ball, v.data(), vertex_count), CC_OK);
    for (const cc_vec3& p : v) ASSERT_NEAR(cc_v3_length(p), r, 0.01f * voxel);
    // Facing out: a point just outside the mesh is outside the field and
    // the BVH route agrees (a sphere 2 mm into the ball's top).
    const int body = add_body(b.get(), {0, 0, 0});
    ASSERT_EQ(cc_builder_add_mesh(b.get(), body, ball, {1, 1, 1}, nullptr, nullptr), CC_OK);
    // Below: a box primitive 2 mm into the ball (mesh-box triangles); above:
    // a box mesh with its own SDF 3 mm into it (through both fields).
    cc_shape_def sd = cc_default_shape_def();
    int low = add_body(b.get(), {0.0f, 0.0f, -r - 0.1f + 0.002f}, {0, 0, 0, 1}, 1);
    ASSERT_EQ(cc_builder_add_box(b.get(), low, {0.1f, 0.1f, 0.1f}, &sd, nullptr), CC_OK);
    int cube = add_mesh_data(b.get(), box_mesh({0.1f, 0.1f, 0.1f}));
    cc_sdf_def def = cc_default_sdf_def();
    ASSERT_EQ(cc_builder_build_mesh_sdf(b.get(), cube, &def, nullptr), CC_OK) << cc_last_error_message();
    int high = add_body(b.get(), {0.0f, 0.0f, r + 0.1f - 0.003f}, {0, 0, 0, 1}, 1);
    ASSERT_EQ(cc_builder_add_mesh(b.get(), high, cube, {1, 1, 1}, nullptr, nullptr), CC_OK);
    World w;
    ASSERT_EQ(make_world(b.get(), cc_device_cpu(), cc_default_pipeline_def(), &w), CC_OK) << cc_last_error_message();
    float deepest[2] = {0.0f, 0.0f};
    int count[2] = {0, 0};
    for (const cc_contact& c : collide(w)) {
        int top = c.shape0 == 2 || c.shape1 == 2;
        deepest[top] = std::min(deepest[top], c.distance);
        ++count[top];
        // Normals run along the axis, from the ball outward.
        float along = c.shape0 == 0 ? c.normal.z : -c.normal.z;
        EXPECT_NEAR(along, top ? 1.0f : -1.0f, 0.05f) << c.shape0 << " " << c.shape1;
    }
    ASSERT_GE(count[0], 1);
    ASSERT_GE(count[1], 1);
    EXPECT_NEAR(deepest[0], -0.002f, 0.1f * voxel);
    EXPECT_NEAR(deepest[1], -0.003f, voxel);
#endif
}

TEST(Sdf, AVdbMeshAssetInMjcfCarriesItsField)
{
#if !defined(CC_TEST_WITH_OPENVDB)
    GTEST_SKIP() << "built without OpenVDB: the test cannot write a .vdb";
#else
    openvdb::initialize();
    const float r = 0.25f, voxel = 0.005f;
    const std::string dir = std::filesystem::temp_directory_path() / ("cucontact-mjcf-vdb-" + std::to_string(getpid()));
    std::filesystem::create_directories(dir);
    write_vdb(dir + "/ball.vdb", {sphere_level_set(r, voxel, "ball")});
    // The ball 3 mm into a box mesh that has no SDF of its own (so the
    // box's vertices go through the ball's field, and the ball's features
    // through the box's BVH), and 2 mm into a box primitive.
    auto scene = [&](const std::string& mesh_attrs) {
        return "<mujoco><compiler meshdir=\"" + dir + "\"/><asset><mesh name=\"ball\" file=\"ball.vdb\"" + mesh_attrs +
               "/><mesh name=\"cube\" vertex=\"-.1 -.1 -.1 .1 -.1 -.1 -.1 .1 -.1 .1 .1 -.1 -.1 -.1 .1 .1 -.1 .1 -.1 .1 .1 .1 .1 .1\" "
               "face=\"0 2 3 0 3 1 4 5 7 4 7 6 0 1 5 0 5 4 2 6 7 2 7 3 0 4 6 0 6 2 1 3 7 1 7 5\"/>"
               "</asset><worldbody><body><freejoint/><geom type=\"mesh\" mesh=\"ball\"/></body>"
               "<geom type=\"mesh\" mesh=\"cube\" pos=\"0 0 0.347\"/><geom type=\"box\" size=\".1 .1 .1\" pos=\"0 0 -0.348\"/>"
               "</worldbody></mujoco>";
    };
    cc_mjcf_options o = cc_default_mjcf_options();
    o.mesh_mode = CC_MJCF_MESH_AS_MESH;
    Builder b = make_builder(0.0f);
    ASSERT_EQ(cc_builder_load_mjcf_string(b.get(), scene("").c_str(), dir.c_str(), &o), CC_OK) << cc_last_error_message();
    ASSERT_EQ(cc_builder_sdf_count(b.get()), 1);
    cc_sdf_info info;
    ASSERT_EQ(cc_builder_get_sdf_info(b.get(), 0, &info), CC_OK);
    EXPECT_NEAR(info.voxel_size, voxel, 1e-7f);
    World w;
    ASSERT_EQ(make_world(b.get(), cc_device_cpu(), cc_default_pipeline_def(), &w), CC_OK) << cc_last_error_message();
    // Shapes by kind: [0] the box primitive, [1] the box mesh.
    float deepest[2] = {0.0f, 0.0f};
    for (const cc_contact& c : collide(w)) {
        cc_shape_info a, bi;
        ASSERT_EQ(cc_builder_get_shape_info(b.get(), c.shape0, &a), CC_OK);
        ASSERT_EQ(cc_builder_get_shape_info(b.get(), c.shape1, &bi), CC_OK);
        int mesh_pair = a.type == CC_SHAPE_MESH && bi.type == CC_SHAPE_MESH;
        deepest[mesh_pair] = std::min(deepest[mesh_pair], c.distance);
    }
    EXPECT_NEAR(deepest[1], -0.003f, voxel);       // the box mesh above
    EXPECT_NEAR(deepest[0], -0.002f, 0.1f * voxel); // the box primitive below
    // A scale would stretch the grid's distances; a missing file is named.
    Builder bad = make_builder(0.0f);
    EXPECT_EQ(cc_builder_load_mjcf_string(bad.get(), scene(" scale=\"2 2 2\"").c_str(), dir.c_str(), &o), CC_ERR_INVALID_SIZE);
    EXPECT_NE(std::string(cc_last_error_message()).find("drop scale"), std::string::npos) << cc_last_error_message();
    std::filesystem::remove(dir + "/ball.vdb");
    EXPECT_EQ(cc_builder_load_mjcf_string(bad.get(), scene("").c_str(), dir.c_str(), &o), CC_ERR_IO);
    EXPECT_NE(std::string(cc_last_error_message()).find("ball.vdb"), std::string::npos) << cc_last_error_message();
    EXPECT_EQ(cc_builder_shape_count(bad.get()), 0);
    std::filesystem::remove_all(dir);
#endif
}

TEST(Sdf, BadVdbShapesFailWithTheirReasonAndChangeNothing)
{
#if !defined(CC_TEST_WITH_OPENVDB)
    GTEST_SKIP() << "built without OpenVDB: the test cannot write a .vdb";
#else
    openvdb::initialize();
    const std::string stem = std::filesystem::temp_directory_path() / ("cucontact-badshape-" + std::to_string(getpid()));
    Builder b = make_builder();
    auto add = [&](const std::string& path, const char* grid) {
        int mesh = -7, sdf = -7;
        cc_status s = cc_builder_add_sdf_vdb(b.get(), path.c_str(), grid, &mesh, &sdf);
        if (s != CC_OK) {
            EXPECT_EQ(mesh, -7);
            EXPECT_EQ(sdf, -7);
            EXPECT_NE(std::string(cc_last_error_message()).find(path), std::string::npos) << cc_last_error_message();
        }
        return s;
    };
    openvdb::FloatGrid::Ptr fog = sphere_level_set(0.25f, 0.01f, "fog");
    fog->setGridClass(openvdb::GRID_FOG_VOLUME);
    write_vdb(stem + "-fog.vdb", {fog});
    EXPECT_EQ(add(stem + "-fog.vdb", "fog"), CC_ERR_PARSE);
    write_vdb(stem + "-ball.vdb", {sphere_level_set(0.25f, 0.01f, "ball")});
    EXPECT_EQ(add(stem + "-ball.vdb", "cube"), CC_ERR_PARSE);
    std::filesystem::copy_file(stem + "-ball.vdb", stem + "-cut.vdb");
    std::filesystem::resize_file(stem + "-cut.vdb", std::filesystem::file_size(stem + "-ball.vdb") / 2);
    EXPECT_EQ(add(stem + "-cut.vdb", "ball"), CC_ERR_PARSE);
    EXPECT_EQ(add(stem + "-none.vdb", "ball"), CC_ERR_IO);
    // A level set with active voxels but no zero crossing has no surface.
    openvdb::FloatGrid::Ptr empty = openvdb::FloatGrid::create(0.03f);
    empty->setGridClass(openvdb::GRID_LEVEL_SET);
    empty->setTransform(openvdb::math::Transform::createLinearTransform(0.01));
    empty->setName("far");
    empty->tree().setValue(openvdb::Coord(0, 0, 0), 0.02f);
    write_vdb(stem + "-far.vdb", {empty});
    EXPECT_EQ(add(stem + "-far.vdb", "far"), CC_ERR_PARSE);
    EXPECT_NE(std::string(cc_last_error_message()).find("never crosses zero"), std::string::npos) << cc_last_error_message();
    EXPECT_EQ(cc_builder_mesh_count(b.get()), 0);
    EXPECT_EQ(cc_builder_sdf_count(b.get()), 0);
    EXPECT_EQ(add(stem + "-ball.vdb", nullptr), CC_OK) << cc_last_error_message();
    EXPECT_EQ(cc_builder_mesh_count(b.get()), 1);
    EXPECT_EQ(cc_builder_sdf_count(b.get()), 1);
    for (const char* s : {"-fog.vdb", "-ball.vdb", "-cut.vdb", "-far.vdb"}) std::filesystem::remove(stem + s);
#endif
}

// Support function of a convex primitive or hull (scaled points) along unit n.
float support(cc_shape_type t, cc_vec3 k, const std::vector<cc_vec3>& pts, cc_vec3 n)
{
    float rho = std::sqrt(n.x * n.x + n.y * n.y);
    switch (t) {
    case CC_SHAPE_SPHERE: return k.x;
    case CC_SHAPE_CAPSULE: return k.x + k.y * std::fabs(n.z);
    case CC_SHAPE_BOX: return k.x * std::fabs(n.x) + k.y * std::fabs(n.y) + k.z * std::fabs(n.z);
    case CC_SHAPE_CYLINDER: return k.x * rho + k.y * std::fabs(n.z);
    case CC_SHAPE_CONE: return std::max(k.y * n.z, k.x * rho - k.y * n.z);
    case CC_SHAPE_ELLIPSOID: return cc_v3_length(cc_v3_mul(k, n));
    default: {
        float best = -INFINITY;
        for (cc_vec3 q : pts) best = std::max(best, cc_v3_dot(q, n));
        return best;
    }
    }
}

// The exact signed distance from the support function alone: outside,
// max over unit n of n.p - h(n); inside, -(min over n of h(n) - n.p).
// A sphere of directions, then hill climbing with a shrinking step.
double support_distance(cc_shape_type t, cc_vec3 k, const std::vector<cc_vec3>& pts, cc_vec3 p)
{
    auto gap = [&](cc_vec3 n) { return (double)cc_v3_dot(n, p) - support(t, k, pts, n); };
    cc_vec3 best{0, 0, 1};
    double value = -INFINITY;
    const int m = 2000;
    for (int i = 0; i < m; ++i) {
        float z = 1.0f - 2.0f * ((float)i + 0.5f) / m, r = std::sqrt(1.0f - z * z), a = 2.39996323f * (float)i;
        cc_vec3 n{r * std::cos(a), r * std::sin(a), z};
        double g = gap(n);
        if (g > value) value = g, best = n;
    }
    std::mt19937 rng(5);
    std::normal_distribution<float> nd(0.0f, 1.0f);
    for (float step = 0.05f; step > 1e-8f; step *= 0.85f)
        for (int tries = 0; tries < 40; ++tries) {
            cc_vec3 n = cc_v3_normalize(cc_v3_add(best, cc_v3_scale(cc_vec3{nd(rng), nd(rng), nd(rng)}, step)));
            double g = gap(n);
            if (g > value) value = g, best = n;
        }
    return value;
}

// The reference distance: closed forms where the shape has one (a solid of
// revolution in its meridian plane); the ellipsoid by its support function
// (smooth, so the climb converges); the hull (the caller's pyramid, its
// planes `planes` written out) by its planes inside and its faces' nearest
// points outside.
double reference_distance(cc_shape_type t, cc_vec3 k, const std::vector<cc_vec3>& pts,
                          const std::vector<std::pair<cc_vec3, float>>& planes, cc_vec3 p)
{
    double rho = std::sqrt((double)p.x * p.x + (double)p.y * p.y), z = p.z;
    auto seg = [](double u, double v, double a0, double a1, double b0, double b1) {
        double du = b0 - a0, dv = b1 - a1;
        double s = std::clamp(((u - a0) * du + (v - a1) * dv) / (du * du + dv * dv), 0.0, 1.0);
        return std::hypot(u - a0 - s * du, v - a1 - s * dv);
    };
    switch (t) {
    case CC_SHAPE_SPHERE: return std::sqrt(rho * rho + z * z) - k.x;
    case CC_SHAPE_CAPSULE: return std::hypot(rho, std::max(std::fabs(z) - k.y, 0.0)) - k.x;
    case CC_SHAPE_BOX: return box_distance(p, k);
    case CC_SHAPE_CYLINDER: {
        double a = rho - k.x, c = std::fabs(z) - k.y;
        return a > 0 || c > 0 ? std::hypot(std::max(a, 0.0), std::max(c, 0.0)) : std::max(a, c);
    }
    case CC_SHAPE_CONE: {
        double d = std::min(seg(rho, z, 0, -k.y, k.x, -k.y), seg(rho, z, k.x, -k.y, 0, k.y));
        bool inside = z >= -k.y && rho <= k.x * (k.y - z) / (2.0 * k.y);
        return inside ? -d : d;
    }
    case CC_SHAPE_CONVEX_HULL: {
        double in = -INFINITY;
        for (const auto& pl : planes) in = std::max(in, (double)cc_v3_dot(pl.first, p) - pl.second);
        if (in <= 0.0) return in;
        // Outside: the nearest point of the faces (each a triangle here,
        // the base two), by projection or else the nearest edge.
        const int tris[6][3] = {{0, 2, 1}, {0, 3, 2}, {0, 1, 4}, {1, 2, 4}, {2, 3, 4}, {3, 0, 4}};
        double best = INFINITY;
        for (const auto& tri : tris) {
            cc_vec3 a = pts[tri[0]], b = pts[tri[1]], c = pts[tri[2]];
            cc_vec3 n = cc_v3_normalize(cc_v3_cross(cc_v3_sub(b, a), cc_v3_sub(c, a)));
            cc_vec3 q = cc_v3_madd(p, n, -cc_v3_dot(cc_v3_sub(p, a), n));
            bool over = true;
            const cc_vec3 e[3][2] = {{a, b}, {b, c}, {c, a}};
            for (const auto& ed : e) over = over && cc_v3_dot(cc_v3_cross(cc_v3_sub(ed[1], ed[0]), cc_v3_sub(q, ed[0])), n) >= 0.0f;
            if (over) best = std::min(best, (double)std::fabs(cc_v3_dot(cc_v3_sub(p, a), n)));
            for (const auto& ed : e) {
                cc_vec3 d = cc_v3_sub(ed[1], ed[0]);
                float s = std::clamp(cc_v3_dot(cc_v3_sub(p, ed[0]), d) / cc_v3_dot(d, d), 0.0f, 1.0f);
                best = std::min(best, (double)cc_v3_length(cc_v3_sub(p, cc_v3_madd(ed[0], d, s))));
            }
        }
        return best;
    }
    default: return support_distance(t, k, pts, p);
    }
}

TEST(Sdf, PrimitiveFieldsMatchTheirExactDistance)
{
    // Each primitive and a scaled hull with an SDF of max_resolution 64:
    // at the lattice's samples (multiples of the voxel) the field is the
    // exact distance (from the support function, independently) within the
    // quantisation; between samples in the band within half a voxel on the
    // flat and round parts (0.87 voxel at worst near edges and corners);
    // the sign right everywhere, in and out of the band and off the lattice.
    const std::vector<cc_vec3> pyramid = {{-0.1f, -0.08f, -0.05f}, {0.1f, -0.08f, -0.05f}, {0.1f, 0.08f, -0.05f},
                                          {-0.1f, 0.08f, -0.05f}, {0.02f, 0.01f, 0.09f}};
    const cc_vec3 hull_scale = {1.0f, 1.5f, 0.7f};
    struct Case {
        cc_shape_type type;
        cc_vec3 size;
    } cases[] = {{CC_SHAPE_SPHERE, {0.1f, 0, 0}},          {CC_SHAPE_CAPSULE, {0.05f, 0.1f, 0}},
                 {CC_SHAPE_BOX, {0.1f, 0.08f, 0.06f}},     {CC_SHAPE_CYLINDER, {0.1f, 0.05f, 0}},
                 {CC_SHAPE_CONE, {0.1f, 0.08f, 0}},        {CC_SHAPE_ELLIPSOID, {0.1f, 0.07f, 0.05f}},
                 {CC_SHAPE_CONVEX_HULL, hull_scale}};
    Builder b = make_builder();
    int hull = -1;
    ASSERT_EQ(cc_builder_add_convex_hull_data(b.get(), pyramid.data(), (int)pyramid.size(), nullptr, &hull), CC_OK);
    std::vector<cc_vec3> scaled;
    for (cc_vec3 q : pyramid) scaled.push_back(cc_v3_mul(q, hull_scale));
    // The scaled pyramid's faces: the base and the four slants to the apex.
    std::vector<std::pair<cc_vec3, float>> planes;
    auto face = [&](cc_vec3 a, cc_vec3 b2, cc_vec3 c2) {
        cc_vec3 n = cc_v3_normalize(cc_v3_cross(cc_v3_sub(b2, a), cc_v3_sub(c2, a)));
        planes.push_back({n, cc_v3_dot(n, a)});
    };
    face(scaled[0], scaled[2], scaled[1]);
    for (int e = 0; e < 4; ++e) face(scaled[e], scaled[(e + 1) % 4], scaled[4]);
    std::mt19937 rng(17);
    for (const Case& c : cases) {
        SCOPED_TRACE(cc_shape_type_name(c.type));
        cc_shape_def d = cc_default_shape_def();
        d.sdf_max_resolution = 64;
        int shape = -1;
        if (c.type == CC_SHAPE_CONVEX_HULL) {
            ASSERT_EQ(cc_builder_add_convex_hull(b.get(), CC_BODY_WORLD, hull, c.size, &d, &shape), CC_OK) << cc_last_error_message();
        } else {
            ASSERT_EQ(cc_builder_add_shape(b.get(), CC_BODY_WORLD, c.type, c.size, &d, &shape), CC_OK) << cc_last_error_message();
        }
        cc_shape_info si;
        ASSERT_EQ(cc_builder_get_shape_info(b.get(), shape, &si), CC_OK);
        ASSERT_GE(si.sdf, 0);
        Field f{nullptr, si.sdf, {}};
        ASSERT_EQ(cc_builder_get_sdf_info(b.get(), si.sdf, &f.info), CC_OK);
        EXPECT_EQ(f.info.mesh, -1);
        EXPECT_EQ(f.info.shape_type, c.type);
        const float voxel = f.info.voxel_size, band = f.info.band[1];
        auto at = [&](cc_vec3 p) {
            float v = 0.0f;
            cc_vec3 g;
            EXPECT_EQ(cc_builder_sample_sdf(b.get(), si.sdf, &p, 1, &v, &g), CC_OK);
            return v;
        };
        std::uniform_int_distribution<int> lattice(-28, 28);
        std::uniform_real_distribution<float> u(-0.3f, 0.3f);
        int on_lattice = 0;
        for (int i = 0; i < 300; ++i) {
            cc_vec3 p = cc_v3_scale(cc_vec3{(float)lattice(rng), (float)lattice(rng), (float)lattice(rng)}, voxel);
            double truth = reference_distance(c.type, c.size, scaled, planes, p);
            if (std::fabs(truth) < band) {
                ASSERT_NEAR(at(p), truth, f.info.quantization_error + 2e-6f) << "lattice point " << p.x << " " << p.y << " " << p.z;
                ++on_lattice;
            }
            cc_vec3 q = {u(rng), u(rng), u(rng)};
            truth = reference_distance(c.type, c.size, scaled, planes, q);
            float v = at(q);
            if (std::fabs(truth) < band - voxel) {
                ASSERT_NEAR(v, truth, 0.87f * voxel) << q.x << " " << q.y << " " << q.z;
            }
            if (std::fabs(truth) > voxel) {
                ASSERT_EQ(v > 0.0f, truth > 0.0f) << q.x << " " << q.y << " " << q.z << " truth " << truth;
            }
            if (truth > 0.0) {
                ASSERT_LE(v, truth + 0.87f * voxel) << "not a lower bound at " << q.x << " " << q.y << " " << q.z;
            }
        }
        EXPECT_GT(on_lattice, 30);
    }
    // One SDF per (type, size, lattice): a second sphere of the same size
    // shares the first's; another size builds its own.
    cc_shape_def d = cc_default_shape_def();
    d.sdf_max_resolution = 64;
    int before = cc_builder_sdf_count(b.get()), s1 = -1, s2 = -1;
    ASSERT_EQ(cc_builder_add_sphere(b.get(), CC_BODY_WORLD, 0.1f, &d, &s1), CC_OK);
    EXPECT_EQ(cc_builder_sdf_count(b.get()), before);
    ASSERT_EQ(cc_builder_add_sphere(b.get(), CC_BODY_WORLD, 0.2f, &d, &s2), CC_OK);
    EXPECT_EQ(cc_builder_sdf_count(b.get()), before + 1);
    // Replicated worlds share the template's field.
    Builder templ = make_builder();
    int templ_shape = -1;
    ASSERT_EQ(cc_builder_add_sphere(templ.get(), add_body(templ.get(), {0, 0, 0}), 0.3f, &d, &templ_shape), CC_OK);
    int shapes_before = cc_builder_shape_count(b.get()), sdfs_before = cc_builder_sdf_count(b.get());
    ASSERT_EQ(cc_builder_replicate(b.get(), templ.get(), 3, nullptr), CC_OK) << cc_last_error_message();
    EXPECT_EQ(cc_builder_sdf_count(b.get()), sdfs_before + 1);
    for (int k = 0; k < 3; ++k) {
        cc_shape_info copy;
        ASSERT_EQ(cc_builder_get_shape_info(b.get(), shapes_before + k, &copy), CC_OK);
        EXPECT_EQ(copy.sdf, sdfs_before);
    }
    cc_sdf_info copied;
    ASSERT_EQ(cc_builder_get_sdf_info(b.get(), sdfs_before, &copied), CC_OK);
    EXPECT_EQ(copied.shape_type, CC_SHAPE_SPHERE);
    // The model carries them.
    cc_model* model = nullptr;
    ASSERT_EQ(cc_builder_finalize(b.get(), cc_device_cpu(), &model), CC_OK) << cc_last_error_message();
    cc_model_memory mem;
    ASSERT_EQ(cc_model_get_memory(model, &mem), CC_OK);
    size_t expected = 0;
    for (int i = 0; i < cc_builder_sdf_count(b.get()); ++i) {
        cc_sdf_info info;
        ASSERT_EQ(cc_builder_get_sdf_info(b.get(), i, &info), CC_OK);
        expected += info.device_bytes;
    }
    // The model's four SDF pools each start 16-byte aligned.
    EXPECT_GE(mem.sdf_bytes, expected);
    EXPECT_LE(mem.sdf_bytes, expected + 4 * 15);
    cc_model_destroy(model);
}

TEST(Sdf, PrimitiveSdfRequestsAreCheckedAndChangeNothing)
{
    Builder b = make_builder();
    auto add = [&](cc_shape_type t, cc_vec3 size, cc_shape_def d) {
        int shapes = cc_builder_shape_count(b.get()), sdfs = cc_builder_sdf_count(b.get());
        cc_status s = cc_builder_add_shape(b.get(), CC_BODY_WORLD, t, size, &d, nullptr);
        EXPECT_EQ(cc_builder_shape_count(b.get()), shapes);
        EXPECT_EQ(cc_builder_sdf_count(b.get()), sdfs);
        return s;
    };
    cc_shape_def d = cc_default_shape_def();
    d.sdf_max_resolution = 60; // not a multiple of 8
    EXPECT_EQ(add(CC_SHAPE_SPHERE, {0.1f, 0, 0}, d), CC_ERR_INVALID_ARGUMENT);
    EXPECT_NE(std::string(cc_last_error_message()).find("max_resolution 60"), std::string::npos) << cc_last_error_message();
    d = cc_default_shape_def();
    d.sdf_max_resolution = 64;
    d.sdf_narrow_band_inner = 0.05f; // must be negative
    EXPECT_EQ(add(CC_SHAPE_BOX, {0.1f, 0.1f, 0.1f}, d), CC_ERR_INVALID_ARGUMENT);
    d = cc_default_shape_def();
    d.sdf_target_voxel_size = 1e-5f; // a lattice past 2^31 samples
    EXPECT_EQ(add(CC_SHAPE_BOX, {10.0f, 10.0f, 10.0f}, d), CC_ERR_INVALID_ARGUMENT);
    EXPECT_NE(std::string(cc_last_error_message()).find("2^31"), std::string::npos) << cc_last_error_message();
    d = cc_default_shape_def();
    d.sdf_max_resolution = 64;
    EXPECT_EQ(add(CC_SHAPE_PLANE, {0, 0, 0}, d), CC_ERR_UNSUPPORTED);
    d.sdf_padding = NAN;
    EXPECT_EQ(add(CC_SHAPE_SPHERE, {0.1f, 0, 0}, d), CC_ERR_NOT_FINITE);
}

TEST(Sdf, BadInputFailsAndChangesNothing)
{
    Builder b = make_builder();
    int box = add_mesh_data(b.get(), box_mesh({1, 1, 1}));
    cc_sdf_def d = cc_default_sdf_def();
    EXPECT_EQ(cc_builder_build_mesh_sdf(b.get(), 7, &d, nullptr), CC_ERR_INVALID_ARGUMENT);
    cc_sdf_def bad = d;
    bad.max_resolution = 60;
    EXPECT_EQ(cc_builder_build_mesh_sdf(b.get(), box, &bad, nullptr), CC_ERR_INVALID_ARGUMENT);
    EXPECT_NE(std::string(cc_last_error_message()).find("max_resolution"), std::string::npos);
    bad = d;
    bad.narrow_band_inner = 0.1f;
    EXPECT_EQ(cc_builder_build_mesh_sdf(b.get(), box, &bad, nullptr), CC_ERR_INVALID_ARGUMENT);
    bad = d;
    bad.scale = {1, NAN, 1};
    EXPECT_EQ(cc_builder_build_mesh_sdf(b.get(), box, &bad, nullptr), CC_ERR_INVALID_SIZE);
    bad = d;
    bad.target_voxel_size = 1e-5f;
    EXPECT_EQ(cc_builder_build_mesh_sdf(b.get(), box, &bad, nullptr), CC_ERR_INVALID_ARGUMENT);
    EXPECT_NE(std::string(cc_last_error_message()).find("2^31"), std::string::npos);
    cc_sdf_def raw;
    std::memset(&raw, 0, sizeof raw);
    EXPECT_EQ(cc_builder_build_mesh_sdf(b.get(), box, &raw, nullptr), CC_ERR_UNINITIALIZED_DEF);
    EXPECT_EQ(cc_builder_sdf_count(b.get()), 0);
    int sdf = -1;
    ASSERT_EQ(cc_builder_build_mesh_sdf(b.get(), box, &d, &sdf), CC_OK);
    EXPECT_EQ(cc_builder_build_mesh_sdf(b.get(), box, &d, nullptr), CC_ERR_INVALID_ARGUMENT) << "one SDF per mesh and scale";
    d.scale = {2, 2, 2};
    EXPECT_EQ(cc_builder_build_mesh_sdf(b.get(), box, &d, nullptr), CC_OK) << "another scale is another SDF";
    EXPECT_EQ(cc_builder_sdf_count(b.get()), 2);
    cc_vec3 p = {NAN, 0, 0};
    float dist;
    EXPECT_EQ(cc_builder_sample_sdf(b.get(), sdf, &p, 1, &dist, nullptr), CC_ERR_NOT_FINITE);
    EXPECT_EQ(cc_builder_sample_sdf(b.get(), 5, &p, 1, &dist, nullptr), CC_ERR_INVALID_ARGUMENT);
}

} // namespace
