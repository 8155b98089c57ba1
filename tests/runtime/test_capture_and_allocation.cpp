// Capture safety: cc_collide allocates nothing after creation, the CPU
// backend on one thread is deterministic to the byte, and (where a CUDA device exists and
// the build defines CC_TEST_WITH_CUDA) a collide captured into a CUDA graph
// and replayed gives the same contacts as a direct call.
//
// Allocation is observed through cc_allocation_count(), which counts the
// buffers made through the backends (device memory, or host memory standing
// in for it on the CPU). This file cannot wrap malloc at link time, so plain
// host allocations inside a collide would not be seen here; the
// HostAllocationsAreCounted test checks the documented "host and device"
// coverage of the counter.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <random>
#include <tuple>
#include <vector>

#include "tests/support/test_support.h"

#if defined(CC_TEST_WITH_CUDA)
#include <cuda_runtime.h>
#endif

using namespace cctest;

namespace {

const cc_broad_phase kBroadPhases[] = {CC_BROAD_PHASE_NXN, CC_BROAD_PHASE_SAP, CC_BROAD_PHASE_EXPLICIT};

cc_quat random_unit_quat(std::mt19937& rng)
{
    std::normal_distribution<float> g(0.0f, 1.0f);
    for (;;) {
        cc_quat q = {g(rng), g(rng), g(rng), g(rng)};
        float n = std::sqrt(q.x * q.x + q.y * q.y + q.z * q.z + q.w * q.w);
        if (n > 1e-3f) return {q.x / n, q.y / n, q.z / n, q.w / n};
    }
}

// Three worlds of 20 randomly placed, overlapping spheres, capsules and boxes
// over a shared ground plane, plus a tilted finite plane in each world and a
// few bodies carrying two shapes.
Builder mixed_scene(unsigned seed)
{
    std::mt19937 rng(seed);
    std::uniform_real_distribution<float> u(0.0f, 1.0f);
    Builder b = make_builder(0.05f);
    EXPECT_EQ(cc_builder_add_plane(b.get(), CC_BODY_WORLD, 0, 0, nullptr, nullptr), CC_OK);
    for (int w = 0; w < 3; ++w) {
        EXPECT_EQ(cc_builder_begin_world(b.get(), nullptr), CC_OK);
        cc_shape_def tilted = cc_default_shape_def();
        tilted.local = {{0.0f, 0.0f, 0.3f}, {0.0998334f, 0.0f, 0.0f, 0.9950042f}};
        EXPECT_EQ(cc_builder_add_plane(b.get(), CC_BODY_WORLD, 1.0f, 1.0f, &tilted, nullptr), CC_OK);
        for (int i = 0; i < 20; ++i) {
            cc_vec3 p = {3.0f * u(rng) - 1.5f, 3.0f * u(rng) - 1.5f, 0.1f + 2.0f * u(rng)};
            int body = add_body(b.get(), p, random_unit_quat(rng));
            int kind = i % 3;
            cc_status s;
            if (kind == 0) s = cc_builder_add_sphere(b.get(), body, 0.2f + 0.2f * u(rng), nullptr, nullptr);
            else if (kind == 1) s = cc_builder_add_capsule(b.get(), body, 0.1f + 0.1f * u(rng), 0.1f + 0.3f * u(rng), nullptr, nullptr);
            else s = cc_builder_add_box(b.get(), body, {0.1f + 0.3f * u(rng), 0.1f + 0.3f * u(rng), 0.1f + 0.3f * u(rng)}, nullptr, nullptr);
            EXPECT_EQ(s, CC_OK) << cc_last_error_message();
            if (i % 7 == 0) {
                cc_shape_def off = cc_default_shape_def();
                off.local.p = {0.3f, 0.0f, 0.0f};
                off.margin = 0.01f;
                EXPECT_EQ(cc_builder_add_sphere(b.get(), body, 0.15f, &off, nullptr), CC_OK);
            }
        }
        EXPECT_EQ(cc_builder_end_world(b.get()), CC_OK);
    }
    return b;
}

cc_pipeline_def roomy_def(cc_broad_phase bp)
{
    cc_pipeline_def d = cc_default_pipeline_def();
    d.broad_phase = bp;
    d.rigid_contact_max = 8192;
    d.shape_pairs_max = 8192;
    return d;
}

void collide_ok(World& w, cc_stream stream = nullptr)
{
    ASSERT_EQ(cc_collide(w.pipeline.get(), w.state.get(), w.contacts.get(), stream), CC_OK) << cc_last_error_message();
}

// Every body moved by a small deterministic offset for frame `frame`.
std::vector<cc_transform> frame_poses(const std::vector<cc_transform>& base, int frame)
{
    std::vector<cc_transform> p = base;
    for (size_t i = 0; i < p.size(); ++i) {
        float t = 0.01f * (float)frame;
        p[i].p.x += t * std::sin((float)i);
        p[i].p.z -= 0.5f * t;
    }
    return p;
}

bool same_bytes(const std::vector<cc_contact>& a, const std::vector<cc_contact>& b)
{
    return a.size() == b.size() && (a.empty() || std::memcmp(a.data(), b.data(), sizeof(cc_contact) * a.size()) == 0);
}

// ---------------------------------------------------------------- allocation

class Allocation : public DeviceTest {};

TEST_P(Allocation, CollideAllocatesNothingAfterCreation)
{
    Builder b = mixed_scene(7);
    for (cc_broad_phase bp : kBroadPhases) {
        SCOPED_TRACE((int)bp);
        // Creation allocates, and the counter sees it.
        int64_t before_create = cc_allocation_count();
        World w;
        ASSERT_EQ(make_world(b.get(), device(), roomy_def(bp), &w), CC_OK) << cc_last_error_message();
        int64_t created = cc_allocation_count();
        EXPECT_GE(created - before_create, 4) << "model, state, pipeline buffers and contacts were not counted";
        int nb = cc_model_body_count(w.model.get());
        std::vector<cc_transform> base((size_t)nb);
        ASSERT_EQ(cc_state_get_body_poses(w.state.get(), 0, nb, base.data()), CC_OK);

        for (int i = 0; i < 10; ++i) collide_ok(w);
        EXPECT_EQ(cc_allocation_count(), created) << "cc_collide allocated";

        // Moving bodies between passes does not make collide allocate. (Host
        // downloads may use staging memory; only the passes are counted.)
        std::vector<cc_contact> rows((size_t)cc_contacts_capacity(w.contacts.get()));
        int64_t during_collide = 0;
        for (int frame = 1; frame <= 10; ++frame) {
            std::vector<cc_transform> p = frame_poses(base, frame);
            ASSERT_EQ(cc_state_set_body_poses(w.state.get(), 0, nb, p.data()), CC_OK);
            int64_t before_pass = cc_allocation_count();
            collide_ok(w);
            during_collide += cc_allocation_count() - before_pass;
            cc_overflow ov;
            ASSERT_EQ(cc_pipeline_get_overflow(w.pipeline.get(), &ov), CC_OK);
            EXPECT_FALSE(ov.contacts_overflowed || ov.pairs_overflowed);
            EXPECT_GT(ov.contacts_needed, 0);
            int n = 0;
            ASSERT_EQ(cc_contacts_download(w.contacts.get(), w.state.get(), rows.data(), (int)rows.size(), &n), CC_OK);
        }
        EXPECT_EQ(during_collide, 0) << "cc_collide allocated after moving bodies";

        // Profiling on the CPU only reads clocks; on CUDA it records events
        // made at creation.
        ASSERT_EQ(cc_pipeline_set_profiling(w.pipeline.get(), 1), CC_OK);
        int64_t before_profiled = cc_allocation_count();
        for (int i = 0; i < 10; ++i) collide_ok(w);
        EXPECT_EQ(cc_allocation_count(), before_profiled) << "a profiled cc_collide allocated";

        // A further contact buffer allocates, so the counter is live.
        int64_t before_extra = cc_allocation_count();
        cc_contacts* extra = nullptr;
        ASSERT_EQ(cc_contacts_create(w.pipeline.get(), &extra), CC_OK);
        Contacts extra_owner(extra);
        EXPECT_GT(cc_allocation_count(), before_extra);
    }
}

CC_INSTANTIATE_DEVICE_TEST(Allocation);

// The header documents the counter as covering "host and device"
// allocations. A builder that grows to a thousand bodies must allocate.
TEST(AllocationCounter, HostAllocationsAreCounted)
{
    int64_t before = cc_allocation_count();
    Builder b = make_builder();
    for (int i = 0; i < 1000; ++i) add_body(b.get(), {(float)i, 0, 0});
    // Host records count too, not only device buffers.
    EXPECT_GT(cc_allocation_count(), before) << "builder records were allocated without being counted";
}

// ---------------------------------------------------------------- determinism

class Determinism : public ::testing::TestWithParam<cc_broad_phase> {};

TEST_P(Determinism, TenCollidesGiveByteIdenticalContacts)
{
    ScopedCpuThreads one(1); // threads reorder rows, as on the GPU (test_cpu_threads.cpp)
    Builder b = mixed_scene(11);
    World w;
    ASSERT_EQ(make_world(b.get(), cc_device_cpu(), roomy_def(GetParam()), &w), CC_OK) << cc_last_error_message();
    std::vector<cc_contact> first = collide(w);
    ASSERT_GT(first.size(), 20u) << "the scene should produce many contacts";
    cc_overflow ov;
    ASSERT_EQ(cc_pipeline_get_overflow(w.pipeline.get(), &ov), CC_OK);
    ASSERT_FALSE(ov.contacts_overflowed || ov.pairs_overflowed);
    for (int i = 1; i < 10; ++i) {
        std::vector<cc_contact> again = collide(w);
        EXPECT_TRUE(same_bytes(first, again)) << "pass " << i << " differs: " << again.size() << " vs " << first.size()
                                              << " contacts";
    }
    // The raw columns match the download row for row.
    cc_contacts_view v = cc_contacts_device_view(w.contacts.get());
    ASSERT_EQ(*v.count, (int)first.size());
    for (size_t i = 0; i < first.size(); ++i) {
        EXPECT_EQ(v.shape0[i], first[i].shape0);
        EXPECT_EQ(v.shape1[i], first[i].shape1);
        EXPECT_EQ(std::memcmp(&v.normal[i], &first[i].normal, sizeof(cc_vec3)), 0);
        EXPECT_EQ(std::memcmp(&v.distance[i], &first[i].distance, sizeof(float)), 0);
    }
}

TEST_P(Determinism, FreshObjectsAndVisitedPosesGiveIdenticalContacts)
{
    ScopedCpuThreads one(1); // threads reorder rows, as on the GPU (test_cpu_threads.cpp)
    Builder b = mixed_scene(12);
    World w;
    ASSERT_EQ(make_world(b.get(), cc_device_cpu(), roomy_def(GetParam()), &w), CC_OK) << cc_last_error_message();
    std::vector<cc_contact> first = collide(w);
    ASSERT_GT(first.size(), 20u);

    // A second model, state, pipeline and buffer from the same builder.
    World w2;
    ASSERT_EQ(make_world(b.get(), cc_device_cpu(), roomy_def(GetParam()), &w2), CC_OK);
    EXPECT_TRUE(same_bytes(first, collide(w2))) << "a fresh pipeline gave different contacts";

    // Moving away and back reproduces the first pass exactly: nothing of a
    // pass leaks into the next.
    int nb = cc_model_body_count(w.model.get());
    std::vector<cc_transform> base((size_t)nb);
    ASSERT_EQ(cc_state_get_body_poses(w.state.get(), 0, nb, base.data()), CC_OK);
    std::vector<std::vector<cc_contact>> frames;
    for (int f = 1; f <= 5; ++f) {
        std::vector<cc_transform> p = frame_poses(base, 10 * f);
        ASSERT_EQ(cc_state_set_body_poses(w.state.get(), 0, nb, p.data()), CC_OK);
        frames.push_back(collide(w));
    }
    EXPECT_FALSE(same_bytes(first, frames.back())) << "moving the bodies should change the contacts";
    ASSERT_EQ(cc_state_set_body_poses(w.state.get(), 0, nb, base.data()), CC_OK);
    EXPECT_TRUE(same_bytes(first, collide(w))) << "returning to the first poses gave different contacts";
    for (int f = 1; f <= 5; ++f) {
        std::vector<cc_transform> p = frame_poses(base, 10 * f);
        ASSERT_EQ(cc_state_set_body_poses(w.state.get(), 0, nb, p.data()), CC_OK);
        EXPECT_TRUE(same_bytes(frames[(size_t)f - 1], collide(w))) << "frame " << f << " replayed differently";
    }
}

TEST_P(Determinism, OverflowingPassesKeepTheSameRows)
{
    ScopedCpuThreads one(1); // threads reorder rows, as on the GPU (test_cpu_threads.cpp)
    Builder b = mixed_scene(13);
    cc_pipeline_def d = roomy_def(GetParam());
    World full;
    ASSERT_EQ(make_world(b.get(), cc_device_cpu(), d, &full), CC_OK);
    int total = (int)collide(full).size();
    ASSERT_GT(total, 20);
    d.rigid_contact_max = total / 2;
    World w;
    ASSERT_EQ(make_world(b.get(), cc_device_cpu(), d, &w), CC_OK);
    std::vector<cc_contact> first = collide(w);
    ASSERT_EQ((int)first.size(), total / 2);
    for (int i = 1; i < 10; ++i) EXPECT_TRUE(same_bytes(first, collide(w))) << "pass " << i;
}

INSTANTIATE_TEST_SUITE_P(BroadPhases, Determinism,
                         ::testing::Values(CC_BROAD_PHASE_NXN, CC_BROAD_PHASE_SAP, CC_BROAD_PHASE_EXPLICIT),
                         [](const ::testing::TestParamInfo<cc_broad_phase>& i) {
                             return std::string(i.param == CC_BROAD_PHASE_NXN   ? "nxn"
                                                : i.param == CC_BROAD_PHASE_SAP ? "sap"
                                                                                : "explicit");
                         });

// ---------------------------------------------------------------- CUDA graph capture

#if defined(CC_TEST_WITH_CUDA)

// Contacts in a canonical order (the GPU appends rows in thread order).
std::vector<cc_contact> sorted(std::vector<cc_contact> v)
{
    auto key = [](const cc_contact& c) {
        return std::make_tuple(c.shape0, c.shape1, c.point0.x, c.point0.y, c.point0.z, c.point1.x, c.point1.y,
                               c.point1.z, c.distance);
    };
    std::sort(v.begin(), v.end(), [&](const cc_contact& a, const cc_contact& b) { return key(a) < key(b); });
    return v;
}

::testing::AssertionResult same_contacts(const std::vector<cc_contact>& a, const std::vector<cc_contact>& b)
{
    if (a.size() != b.size())
        return ::testing::AssertionFailure() << a.size() << " vs " << b.size() << " contacts";
    std::vector<cc_contact> x = sorted(a), y = sorted(b);
    const float tol = 1e-6f;
    auto near3 = [&](cc_vec3 p, cc_vec3 q) {
        return std::fabs(p.x - q.x) <= tol && std::fabs(p.y - q.y) <= tol && std::fabs(p.z - q.z) <= tol;
    };
    for (size_t i = 0; i < x.size(); ++i) {
        const cc_contact &p = x[i], &q = y[i];
        if (p.shape0 != q.shape0 || p.shape1 != q.shape1 || !near3(p.point0, q.point0) || !near3(p.point1, q.point1) ||
            !near3(p.normal, q.normal) || std::fabs(p.distance - q.distance) > tol ||
            p.thickness0 != q.thickness0 || p.thickness1 != q.thickness1)
            return ::testing::AssertionFailure() << "row " << i << " differs: shapes (" << p.shape0 << ", " << p.shape1
                                                 << ") vs (" << q.shape0 << ", " << q.shape1 << "), distance "
                                                 << p.distance << " vs " << q.distance;
    }
    return ::testing::AssertionSuccess();
}

std::vector<cc_contact> download(cc_contacts* c, cc_state* s)
{
    std::vector<cc_contact> rows((size_t)cc_contacts_capacity(c));
    int n = 0;
    EXPECT_EQ(cc_contacts_download(c, s, rows.data(), (int)rows.size(), &n), CC_OK) << cc_last_error_message();
    rows.resize((size_t)std::min<int>(n, (int)rows.size()));
    return rows;
}

#define CUDA_ASSERT(call)                                                              \
    do {                                                                               \
        cudaError_t e_ = (call);                                                       \
        ASSERT_EQ(e_, cudaSuccess) << #call << ": " << cudaGetErrorString(e_);         \
    } while (0)

struct GraphHandles {
    cudaStream_t stream = nullptr;
    cudaGraph_t graph = nullptr;
    cudaGraphExec_t exec = nullptr;
    ~GraphHandles()
    {
        if (exec) cudaGraphExecDestroy(exec);
        if (graph) cudaGraphDestroy(graph);
        if (stream) cudaStreamDestroy(stream);
    }
};

class CudaGraph : public ::testing::TestWithParam<cc_broad_phase> {
  protected:
    void SetUp() override
    {
        if (cc_cuda_device_count() == 0)
            GTEST_SKIP() << "no CUDA device on this machine; graph capture is tested by scripts/gpu-check.sh";
    }
};

TEST_P(CudaGraph, CapturedCollideReplaysTheDirectResult)
{
    Builder b = mixed_scene(21);
    World w;
    ASSERT_EQ(make_world(b.get(), cc_device_cuda(0), roomy_def(GetParam()), &w), CC_OK) << cc_last_error_message();
    // The graph writes its own buffer, so that the direct result cannot be
    // mistaken for the replay's.
    cc_contacts* gc = nullptr;
    ASSERT_EQ(cc_contacts_create(w.pipeline.get(), &gc), CC_OK);
    Contacts graph_contacts(gc);

    std::vector<cc_contact> direct = collide(w);
    ASSERT_GT(direct.size(), 20u);
    cc_overflow direct_ov;
    ASSERT_EQ(cc_pipeline_get_overflow(w.pipeline.get(), &direct_ov), CC_OK);
    ASSERT_FALSE(direct_ov.contacts_overflowed || direct_ov.pairs_overflowed);

    GraphHandles h;
    CUDA_ASSERT(cudaStreamCreate(&h.stream));
    int64_t allocs = cc_allocation_count();
    CUDA_ASSERT(cudaStreamBeginCapture(h.stream, cudaStreamCaptureModeGlobal));
    cc_status s = cc_collide(w.pipeline.get(), w.state.get(), gc, (cc_stream)h.stream);
    std::string msg = cc_last_error_message();
    cudaError_t end = cudaStreamEndCapture(h.stream, &h.graph);  // always end the capture
    ASSERT_EQ(s, CC_OK) << "cc_collide under capture: " << msg;
    ASSERT_EQ(end, cudaSuccess) << "cudaStreamEndCapture: " << cudaGetErrorString(end)
                                << " (cc_collide did something a graph cannot hold)";
    ASSERT_NE(h.graph, nullptr);
    EXPECT_EQ(cc_allocation_count(), allocs) << "cc_collide allocated during capture";
    size_t nodes = 0;
    CUDA_ASSERT(cudaGraphGetNodes(h.graph, nullptr, &nodes));
    EXPECT_GT(nodes, 3u) << "the captured graph holds no collision pass";
    CUDA_ASSERT(cudaGraphInstantiateWithFlags(&h.exec, h.graph, 0));

    // Capturing ran nothing: the graph's buffer is still empty.
    int n = -1;
    ASSERT_EQ(cc_contacts_count(gc, &n), CC_OK);
    EXPECT_EQ(n, 0);

    for (int i = 0; i < 100; ++i) {
        CUDA_ASSERT(cudaGraphLaunch(h.exec, h.stream));
        if (i % 25 == 24) {
            CUDA_ASSERT(cudaStreamSynchronize(h.stream));
            EXPECT_TRUE(same_contacts(direct, download(gc, w.state.get()))) << "after launch " << i + 1;
        }
    }
    CUDA_ASSERT(cudaStreamSynchronize(h.stream));
    EXPECT_TRUE(same_contacts(direct, download(gc, w.state.get())));
    cc_overflow ov;
    ASSERT_EQ(cc_pipeline_get_overflow(w.pipeline.get(), &ov), CC_OK);
    EXPECT_EQ(ov.contacts_needed, direct_ov.contacts_needed);
    EXPECT_EQ(ov.pairs_needed, direct_ov.pairs_needed);
    EXPECT_EQ(cc_allocation_count(), allocs) << "graph launches allocated";

    // Poses set between launches (outside the capture) are read by the
    // replay: the graph reads the state's arrays, not a snapshot.
    int nb = cc_model_body_count(w.model.get());
    std::vector<cc_transform> base((size_t)nb);
    ASSERT_EQ(cc_state_get_body_poses(w.state.get(), 0, nb, base.data()), CC_OK);
    std::vector<cc_transform> moved = frame_poses(base, 20);
    ASSERT_EQ(cc_state_set_body_poses(w.state.get(), 0, nb, moved.data()), CC_OK);
    std::vector<cc_contact> direct_moved = collide(w);
    EXPECT_FALSE(same_contacts(direct, direct_moved)) << "moving the bodies should change the contacts";
    CUDA_ASSERT(cudaGraphLaunch(h.exec, h.stream));
    CUDA_ASSERT(cudaStreamSynchronize(h.stream));
    EXPECT_TRUE(same_contacts(direct_moved, download(gc, w.state.get())));
}

INSTANTIATE_TEST_SUITE_P(BroadPhases, CudaGraph,
                         ::testing::Values(CC_BROAD_PHASE_NXN, CC_BROAD_PHASE_SAP, CC_BROAD_PHASE_EXPLICIT),
                         [](const ::testing::TestParamInfo<cc_broad_phase>& i) {
                             return std::string(i.param == CC_BROAD_PHASE_NXN   ? "nxn"
                                                : i.param == CC_BROAD_PHASE_SAP ? "sap"
                                                                                : "explicit");
                         });

#else

TEST(CudaGraph, CapturedCollideReplaysTheDirectResult)
{
    GTEST_SKIP() << "CUDA graph capture is compiled only when the build defines CC_TEST_WITH_CUDA "
                    "(a CUDA-enabled build); this build has no CUDA runtime for the tests";
}

#endif

}  // namespace
