// The inside of a closed mesh through OpenVDB's mesh-to-level-set
// conversion, and OpenVDB level sets read from .vdb files, behind the C
// functions of host/geometry/sdf_volume.h. OpenVDB's leaves are 8^3 voxels
// aligned to multiples of 8 in index space, as the kernels' bricks are, so a
// leaf is a brick and nothing is resampled.
#include "host/geometry/sdf_volume.h"

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <mutex>
#include <new>
#include <string>
#include <vector>

#include "kernels/shapes/sdf.h"

#if defined(CC_WITH_OPENVDB)
#include <openvdb/openvdb.h>
#include <openvdb/io/File.h>
#include <openvdb/tools/MeshToVolume.h>
#include <openvdb/tools/VolumeToMesh.h>
#endif

extern "C" void cc_sdf_surface_free(cc_sdf_surface* s)
{
    if (!s) return;
    cc_host_free(s->vertices);
    cc_host_free(s->triangles);
    std::memset(s, 0, sizeof *s);
}

extern "C" void cc_sdf_volume_free(cc_sdf_volume* v)
{
    if (!v) return;
    cc_host_free(v->table);
    cc_host_free(v->values);
    cc_host_free(v->coarse_sign);
    std::memset(v, 0, sizeof *v);
}

namespace {

void lattice_axis(float lo, float hi, float voxel, int* first, int* count)
{
    int i0 = (int)std::floor(lo / voxel), i1 = (int)std::ceil(hi / voxel);
    i0 = (int)std::floor(i0 / (double)CC_SDF_BRICK) * CC_SDF_BRICK;
    int n = i1 - i0 + 1;
    *first = i0;
    *count = (n + CC_SDF_BRICK - 1) / CC_SDF_BRICK * CC_SDF_BRICK;
}

} // namespace

extern "C" void cc_sdf_lattice_place(cc_sdf_volume* v, cc_vec3 lower, cc_vec3 upper, float voxel, int first[3])
{
    lattice_axis(lower.x, upper.x, voxel, &first[0], &v->nx);
    lattice_axis(lower.y, upper.y, voxel, &first[1], &v->ny);
    lattice_axis(lower.z, upper.z, voxel, &first[2], &v->nz);
    v->voxel = voxel;
    v->origin = cc_v3((float)first[0] * voxel, (float)first[1] * voxel, (float)first[2] * voxel);
}

#if !defined(CC_WITH_OPENVDB)

extern "C" int cc_sdf_volume_available(void) { return 0; }

extern "C" cc_status cc_sdf_volume_build(const cc_vec3*, int, const int*, int, float, cc_vec3, cc_vec3,
                                         const unsigned char*, cc_sdf_volume*)
{
    return cc_fail(CC_ERR_UNSUPPORTED, "cc_builder_build_mesh_sdf: this build has no OpenVDB");
}

extern "C" cc_status cc_sdf_volume_read_vdb(const char* path, const char*, const char* what, cc_sdf_volume*, float*, float**,
                                            int*, cc_sdf_surface*)
{
    return cc_fail(CC_ERR_UNSUPPORTED,
                   "%s: cannot read '%s': this build has no OpenVDB; install libopenvdb-dev "
                   "and libboost-dev (scripts/install-deps.sh does) and configure again", what,
                   path);
}

#else

extern "C" int cc_sdf_volume_available(void) { return 1; }

extern "C" cc_status cc_sdf_volume_build(const cc_vec3* vertices, int vertex_count, const int* triangles,
                                         int triangle_count, float voxel, cc_vec3 lower, cc_vec3 upper,
                                         const unsigned char* wanted, cc_sdf_volume* out)
{
    static std::once_flag init;
    std::call_once(init, [] { openvdb::initialize(); });
    std::memset(out, 0, sizeof *out);
    int first[3];
    cc_sdf_lattice_place(out, lower, upper, voxel, first);
    const int i0 = first[0], j0 = first[1], k0 = first[2];
    const int bx = out->nx / CC_SDF_BRICK, by = out->ny / CC_SDF_BRICK, bz = out->nz / CC_SDF_BRICK;
    const size_t bricks = (size_t)bx * by * bz;
    const int cx = bx + 1, cy = by + 1, cz = bz + 1;
    try {
        std::vector<openvdb::Vec3s> points((size_t)vertex_count);
        for (int i = 0; i < vertex_count; ++i) points[i] = openvdb::Vec3s(vertices[i].x, vertices[i].y, vertices[i].z);
        // The sign comes from OpenVDB's flood fill of the closed surface,
        // so the winding does not matter.
        std::vector<openvdb::Vec3I> tris((size_t)triangle_count);
        for (int t = 0; t < triangle_count; ++t)
            tris[t] = openvdb::Vec3I((unsigned)triangles[3 * t], (unsigned)triangles[3 * t + 1],
                                     (unsigned)triangles[3 * t + 2]);
        std::vector<openvdb::Vec4I> quads;
        auto xform = openvdb::math::Transform::createLinearTransform((double)voxel);
        // Only the sign is read (the distances are the caller's), and the
        // flood fill signs every voxel whatever the band's width: the
        // narrowest band OpenVDB builds well costs a third of a wide one.
        const float width = 2.0f;
        openvdb::FloatGrid::Ptr grid =
            openvdb::tools::meshToSignedDistanceField<openvdb::FloatGrid>(*xform, points, tris, quads, width, width);
        out->table = (int*)cc_host_alloc(sizeof(int) * bricks);
        out->coarse_sign = (signed char*)cc_host_alloc((size_t)cx * cy * cz);
        size_t stored = 0;
        for (size_t b = 0; b < bricks; ++b) stored += wanted[b] != 0;
        if (stored > (size_t)INT32_MAX / CC_SDF_BRICK_SAMPLES) {
            cc_sdf_volume_free(out);
            return cc_fail(CC_ERR_INVALID_ARGUMENT, "cc_builder_build_mesh_sdf: the band needs %zu bricks, more than a field can index; use a coarser voxel or a narrower band", stored);
        }
        out->values = (float*)cc_host_alloc(sizeof(float) * CC_SDF_BRICK_SAMPLES * (stored ? stored : 1));
        if (!out->table || !out->coarse_sign || !out->values) {
            cc_sdf_volume_free(out);
            return cc_fail(CC_ERR_OUT_OF_MEMORY, "cc_builder_build_mesh_sdf: no memory for a lattice of %zu bricks, %zu of them stored", bricks, stored);
        }
        auto acc = grid->getConstAccessor();
        for (int k = 0; k < cz; ++k)
            for (int j = 0; j < cy; ++j)
                for (int i = 0; i < cx; ++i) {
                    openvdb::Coord c(i0 + CC_SDF_BRICK * i, j0 + CC_SDF_BRICK * j, k0 + CC_SDF_BRICK * k);
                    out->coarse_sign[((size_t)k * cy + j) * cx + i] = acc.getValue(c) > 0.0f ? 1 : -1;
                }
        // Stored bricks in lattice order, so that the layout depends on the
        // field alone; an empty one takes the sign of its first sample.
        int next = 0;
        for (int k = 0; k < bz; ++k)
            for (int j = 0; j < by; ++j)
                for (int i = 0; i < bx; ++i) {
                    size_t b = ((size_t)k * by + j) * bx + i;
                    if (!wanted[b]) {
                        out->table[b] = out->coarse_sign[((size_t)k * cy + j) * cx + i] > 0 ? CC_SDF_OUTSIDE : CC_SDF_INSIDE;
                        continue;
                    }
                    float* dst = out->values + (size_t)next * CC_SDF_BRICK_SAMPLES;
                    for (int z = 0; z < CC_SDF_BRICK; ++z)
                        for (int y = 0; y < CC_SDF_BRICK; ++y)
                            for (int x = 0; x < CC_SDF_BRICK; ++x) {
                                openvdb::Coord c(i0 + CC_SDF_BRICK * i + x, j0 + CC_SDF_BRICK * j + y,
                                                 k0 + CC_SDF_BRICK * k + z);
                                dst[(z * CC_SDF_BRICK + y) * CC_SDF_BRICK + x] = acc.getValue(c) > 0.0f ? 1.0f : -1.0f;
                            }
                    out->table[b] = next++;
                }
        out->stored = next;
    } catch (const std::bad_alloc&) {
        cc_sdf_volume_free(out);
        return cc_fail(CC_ERR_OUT_OF_MEMORY, "cc_builder_build_mesh_sdf: OpenVDB ran out of memory building the level set");
    } catch (const std::exception& e) {
        cc_sdf_volume_free(out);
        return cc_fail(CC_ERR_INVALID_ARGUMENT, "cc_builder_build_mesh_sdf: OpenVDB failed: %s", e.what());
    }
    return CC_OK;
}

namespace {

// The grid's zero level as triangles in its world frame: OpenVDB's
// polygonisation without adaptivity (a vertex per crossed voxel, quads split
// along their shorter diagonal), turned outward when it came out inward
// (the enclosed volume negative).
cc_status zero_surface(const openvdb::FloatGrid& grid, const char* path, const char* what, cc_sdf_surface* out)
{
    std::vector<openvdb::Vec3s> points;
    std::vector<openvdb::Vec3I> tris;
    std::vector<openvdb::Vec4I> quads;
    try {
        openvdb::tools::volumeToMesh(grid, points, tris, quads, 0.0, 0.0);
    } catch (const std::bad_alloc&) {
        return cc_fail(CC_ERR_OUT_OF_MEMORY, "%s: no memory for the zero level of grid '%s' of '%s'", what, grid.getName().c_str(), path);
    }
    const size_t count = tris.size() + 2 * quads.size();
    if (points.size() < 3 || count == 0)
        return cc_fail(CC_ERR_PARSE, "%s: grid '%s' of '%s' never crosses zero: a level set needs a surface", what,
                       grid.getName().c_str(), path);
    if (points.size() > (size_t)(INT32_MAX / 4) || count > (size_t)(INT32_MAX / 4))
        return cc_fail(CC_ERR_INVALID_ARGUMENT, "%s: the zero level of grid '%s' of '%s' has %zu triangles, more than a mesh holds",
                       what, grid.getName().c_str(), path, count);
    out->vertices = (cc_vec3*)cc_host_alloc(sizeof(cc_vec3) * points.size());
    out->triangles = (int*)cc_host_alloc(sizeof(int) * 3 * count);
    if (!out->vertices || !out->triangles) {
        cc_sdf_surface_free(out);
        return cc_fail(CC_ERR_OUT_OF_MEMORY, "%s: no memory for the zero level of grid '%s' of '%s'", what, grid.getName().c_str(), path);
    }
    for (size_t i = 0; i < points.size(); ++i) out->vertices[i] = cc_v3(points[i][0], points[i][1], points[i][2]);
    out->vertex_count = (int)points.size();
    int* t = out->triangles;
    for (const openvdb::Vec3I& tri : tris)
        for (int k = 0; k < 3; ++k) *t++ = (int)tri[k];
    for (const openvdb::Vec4I& q : quads) {
        float d02 = (points[q[0]] - points[q[2]]).lengthSqr(), d13 = (points[q[1]] - points[q[3]]).lengthSqr();
        int a = d02 <= d13 ? 0 : 1;
        int first[3] = {(int)q[a], (int)q[a + 1], (int)q[(a + 2) % 4]};
        int second[3] = {(int)q[a], (int)q[(a + 2) % 4], (int)q[(a + 3) % 4]};
        for (int k = 0; k < 3; ++k) *t++ = first[k];
        for (int k = 0; k < 3; ++k) *t++ = second[k];
    }
    out->triangle_count = (int)count;
    double volume = 0.0;
    for (int i = 0; i < out->triangle_count; ++i) {
        const int* f = out->triangles + 3 * i;
        cc_vec3 a = out->vertices[f[0]], b = out->vertices[f[1]], c = out->vertices[f[2]];
        volume += (double)a.x * ((double)b.y * c.z - (double)b.z * c.y) - (double)a.y * ((double)b.x * c.z - (double)b.z * c.x) +
                  (double)a.z * ((double)b.x * c.y - (double)b.y * c.x);
    }
    if (volume < 0.0)
        for (int i = 0; i < out->triangle_count; ++i) std::swap(out->triangles[3 * i + 1], out->triangles[3 * i + 2]);
    return CC_OK;
}

} // namespace

extern "C" cc_status cc_sdf_volume_read_vdb(const char* path, const char* grid_name, const char* what,
                                            cc_sdf_volume* out, float* band, float** coarse, int* coarse_count,
                                            cc_sdf_surface* surface)
{
    static std::once_flag init;
    std::call_once(init, [] { openvdb::initialize(); });
    std::memset(out, 0, sizeof *out);
    if (surface) std::memset(surface, 0, sizeof *surface);
    *coarse = nullptr;
    if (FILE* f = std::fopen(path, "rb")) {
        std::fclose(f);
    } else {
        return cc_fail(CC_ERR_IO, "%s: cannot open '%s' (%s)", what, path, std::strerror(errno));
    }
    openvdb::FloatGrid::Ptr grid;
    try {
        openvdb::io::File file(path);
        file.open(false);
        openvdb::GridBase::Ptr base;
        if (grid_name && *grid_name) {
            if (!file.hasGrid(grid_name)) {
                std::string names;
                for (auto it = file.beginName(); it != file.endName(); ++it) names += (names.empty() ? "" : ", ") + *it;
                file.close();
                return cc_fail(CC_ERR_PARSE, "%s: '%s' has no grid named '%s' (it holds: %s)", what, path, grid_name,
                               names.empty() ? "no grids" : names.c_str());
            }
            base = file.readGrid(grid_name);
        } else {
            openvdb::GridPtrVecPtr grids = file.getGrids();
            for (const auto& g : *grids)
                if (g && g->isType<openvdb::FloatGrid>()) {
                    base = g;
                    break;
                }
        }
        file.close();
        grid = openvdb::gridPtrCast<openvdb::FloatGrid>(base);
        if (!grid)
            return cc_fail(CC_ERR_PARSE, "%s: '%s' holds no float grid%s%s; an SDF needs a level set of floats", what, path,
                           grid_name && *grid_name ? " named " : "", grid_name && *grid_name ? grid_name : "");
    } catch (const std::exception& e) {
        return cc_fail(CC_ERR_PARSE, "%s: cannot read '%s' as an OpenVDB file: %s", what, path, e.what());
    }
    if (grid->getGridClass() != openvdb::GRID_LEVEL_SET)
        return cc_fail(CC_ERR_PARSE, "%s: grid '%s' of '%s' is not a level set (its class is %s); an SDF needs signed distances",
                       what, grid->getName().c_str(), path, openvdb::GridBase::gridClassToString(grid->getGridClass()).c_str());
    const openvdb::math::Transform& xform = grid->transform();
    openvdb::Vec3d vs = xform.voxelSize();
    openvdb::Vec3d o = xform.indexToWorld(openvdb::Vec3d(0.0, 0.0, 0.0));
    openvdb::Vec3d ex = xform.indexToWorld(openvdb::Vec3d(1.0, 0.0, 0.0)) - o;
    openvdb::Vec3d ey = xform.indexToWorld(openvdb::Vec3d(0.0, 1.0, 0.0)) - o;
    openvdb::Vec3d ez = xform.indexToWorld(openvdb::Vec3d(0.0, 0.0, 1.0)) - o;
    double h = vs[0];
    auto off_axis = [&](const openvdb::Vec3d& e, int k) {
        for (int a = 0; a < 3; ++a)
            if (std::fabs(e[a] - (a == k ? h : 0.0)) > 1e-6 * h) return true;
        return false;
    };
    if (!xform.isLinear() || !(h > 0.0) || off_axis(ex, 0) || off_axis(ey, 1) || off_axis(ez, 2))
        return cc_fail(CC_ERR_PARSE, "%s: grid '%s' of '%s' does not have uniform cubic voxels along the axes (voxel %g x %g x %g); resample it to a uniform, unrotated transform",
                       what, grid->getName().c_str(), path, vs[0], vs[1], vs[2]);
    float background = grid->background();
    if (!std::isfinite(background) || !(background > 0.0f))
        return cc_fail(CC_ERR_PARSE, "%s: grid '%s' of '%s' has background %g; a level set's is its positive half width", what,
                       grid->getName().c_str(), path, (double)background);
    for (auto it = grid->cbeginValueOn(); it; ++it)
        if (!std::isfinite(*it))
            return cc_fail(CC_ERR_PARSE, "%s: grid '%s' of '%s' holds a non-finite value at voxel (%d, %d, %d)", what,
                           grid->getName().c_str(), path, it.getCoord().x(), it.getCoord().y(), it.getCoord().z());
    openvdb::CoordBBox box = grid->evalActiveVoxelBoundingBox();
    if (box.empty()) return cc_fail(CC_ERR_PARSE, "%s: grid '%s' of '%s' has no active voxels", what, grid->getName().c_str(), path);
    float voxel = (float)h, b = std::min(background, CC_SDF_BAND_VOXELS * voxel);
    *band = b;
    // The lattice in index space over the active voxels and a brick around
    // them, then placed in the world by the grid's translation.
    int first[3], last[3];
    for (int k = 0; k < 3; ++k) {
        first[k] = (int)std::floor((box.min()[k] - CC_SDF_BRICK) / (double)CC_SDF_BRICK) * CC_SDF_BRICK;
        last[k] = (int)std::ceil((box.max()[k] + CC_SDF_BRICK + 1) / (double)CC_SDF_BRICK) * CC_SDF_BRICK;
    }
    out->nx = last[0] - first[0], out->ny = last[1] - first[1], out->nz = last[2] - first[2];
    if ((double)out->nx * out->ny * out->nz > 2147483647.0)
        return cc_fail(CC_ERR_PARSE, "%s: grid '%s' of '%s' spans %d x %d x %d voxels, more than an SDF holds (2^31)", what,
                       grid->getName().c_str(), path, out->nx, out->ny, out->nz);
    out->voxel = voxel;
    openvdb::Vec3d origin = xform.indexToWorld(openvdb::Vec3d(first[0], first[1], first[2]));
    out->origin = cc_v3((float)origin[0], (float)origin[1], (float)origin[2]);
    const int bx = out->nx / CC_SDF_BRICK, by = out->ny / CC_SDF_BRICK, bz = out->nz / CC_SDF_BRICK;
    const size_t bricks = (size_t)bx * by * bz;
    const int cx = bx + 1, cy = by + 1, cz = bz + 1;
    auto acc = grid->getConstAccessor();
    out->table = (int*)cc_host_alloc(sizeof(int) * bricks);
    *coarse = (float*)cc_host_alloc(sizeof(float) * (size_t)cx * cy * cz);
    std::vector<char> banded(bricks, 0);
    for (auto leaf = grid->tree().cbeginLeaf(); leaf; ++leaf) {
        if (leaf->onVoxelCount() == 0) continue;
        openvdb::Coord lo = leaf->origin();
        int i = (lo.x() - first[0]) / CC_SDF_BRICK, j = (lo.y() - first[1]) / CC_SDF_BRICK, k = (lo.z() - first[2]) / CC_SDF_BRICK;
        if (i >= 0 && j >= 0 && k >= 0 && i < bx && j < by && k < bz) banded[((size_t)k * by + j) * bx + i] = 1;
    }
    size_t stored = 0;
    for (size_t n = 0; n < bricks; ++n) stored += banded[n];
    out->values = (float*)cc_host_alloc(sizeof(float) * CC_SDF_BRICK_SAMPLES * (stored ? stored : 1));
    if (!out->table || !*coarse || !out->values) {
        cc_sdf_volume_free(out);
        cc_host_free(*coarse);
        *coarse = nullptr;
        return cc_fail(CC_ERR_OUT_OF_MEMORY, "%s: no memory for an SDF of %zu bricks", what, bricks);
    }
    int next = 0;
    for (int k = 0; k < bz; ++k)
        for (int j = 0; j < by; ++j)
            for (int i = 0; i < bx; ++i) {
                size_t n = ((size_t)k * by + j) * bx + i;
                openvdb::Coord corner(first[0] + CC_SDF_BRICK * i, first[1] + CC_SDF_BRICK * j, first[2] + CC_SDF_BRICK * k);
                if (!banded[n]) {
                    out->table[n] = acc.getValue(corner) > 0.0f ? CC_SDF_OUTSIDE : CC_SDF_INSIDE;
                    continue;
                }
                float* dst = out->values + (size_t)next * CC_SDF_BRICK_SAMPLES;
                for (int z = 0; z < CC_SDF_BRICK; ++z)
                    for (int y = 0; y < CC_SDF_BRICK; ++y)
                        for (int x = 0; x < CC_SDF_BRICK; ++x) {
                            float v = acc.getValue(corner.offsetBy(x, y, z));
                            dst[(z * CC_SDF_BRICK + y) * CC_SDF_BRICK + x] = std::min(std::max(v, -b), b);
                        }
                out->table[n] = next++;
            }
    out->stored = next;
    for (int k = 0; k < cz; ++k)
        for (int j = 0; j < cy; ++j)
            for (int i = 0; i < cx; ++i) {
                openvdb::Coord c(first[0] + CC_SDF_BRICK * i, first[1] + CC_SDF_BRICK * j, first[2] + CC_SDF_BRICK * k);
                (*coarse)[((size_t)k * cy + j) * cx + i] = acc.getValue(c);
            }
    *coarse_count = cx * cy * cz;
    if (surface) {
        cc_status s = zero_surface(*grid, path, what, surface);
        if (s != CC_OK) {
            cc_sdf_volume_free(out);
            cc_host_free(*coarse);
            *coarse = nullptr;
            return s;
        }
    }
    return CC_OK;
}

#endif
