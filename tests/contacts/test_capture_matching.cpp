// A CUDA graph holding collide with deterministic order, contact matching and
// reports, replayed over 200 frames of moving poses, gives exactly what
// direct calls give: the same rows in the same order, the same match
// indices and the same new and broken lists. Needs a CUDA device (run by
// scripts/gpu-check.sh); skipped visibly elsewhere.
#include <cmath>
#include <cstring>
#include <vector>

#include "tests/support/test_support.h"

#if defined(CC_TEST_WITH_CUDA)
#include <cuda_runtime.h>
#endif

namespace {

using namespace cctest;

#if defined(CC_TEST_WITH_CUDA)

// Boxes and spheres resting on a shared ground plane in 16 worlds.
Builder resting_scene()
{
    Builder env = make_builder(0.02f);
    for (int i = 0; i < 6; ++i) {
        int body = add_body(env.get(), {0.5f * (float)i, 0.0f, i % 2 ? 0.1f : 0.15f});
        if (i % 2) cc_builder_add_box(env.get(), body, {0.1f, 0.1f, 0.1f}, nullptr, nullptr);
        else cc_builder_add_sphere(env.get(), body, 0.15f, nullptr, nullptr);
    }
    Builder b = make_builder(0.02f);
    cc_builder_add_plane(b.get(), CC_BODY_WORLD, 0, 0, nullptr, nullptr);
    cc_builder_replicate(b.get(), env.get(), 16, nullptr);
    return b;
}

// Poses of frame f: small drifts that keep most matches, and every 25th
// frame a jump of 3 mm that breaks them.
std::vector<cc_transform> frame_poses(const std::vector<cc_transform>& base, int f)
{
    std::vector<cc_transform> p = base;
    for (size_t i = 0; i < p.size(); ++i) {
        p[i].p.x += 1e-4f * (float)(f % 7) * (float)((i % 3) + 1);
        p[i].p.z += (f % 25 == 0 && i % 2 == 0) ? 0.003f : 0.0f;
    }
    return p;
}

struct Frame {
    std::vector<unsigned char> rows; // every column up to the count, byte for byte
    std::vector<int> match, fresh, broken;
};

Frame read_frame(cc_contacts* c)
{
    Frame fr;
    cc_contacts_view v = cc_contacts_device_view(c);
    int n = 0;
    EXPECT_EQ(cc_contacts_count(c, &n), CC_OK);
    auto grab = [&](const void* col, size_t item) {
        size_t at = fr.rows.size();
        fr.rows.resize(at + item * (size_t)n);
        if (n) cudaMemcpy(fr.rows.data() + at, col, item * (size_t)n, cudaMemcpyDeviceToHost);
    };
    grab(v.shape0, 4), grab(v.shape1, 4), grab(v.point0, 12), grab(v.point1, 12), grab(v.normal, 12);
    grab(v.thickness0, 4), grab(v.thickness1, 4), grab(v.distance, 4);
    fr.match.resize((size_t)n);
    if (n) cudaMemcpy(fr.match.data(), v.match_index, sizeof(int) * (size_t)n, cudaMemcpyDeviceToHost);
    int cap = cc_contacts_capacity(c), nn = 0, nb = 0;
    fr.fresh.resize((size_t)cap);
    fr.broken.resize((size_t)cap);
    EXPECT_EQ(cc_contacts_download_report(c, fr.fresh.data(), cap, &nn, fr.broken.data(), cap, &nb), CC_OK);
    fr.fresh.resize((size_t)nn);
    fr.broken.resize((size_t)nb);
    return fr;
}

#endif

TEST(CaptureMatching, GraphReplaysEqualDirectCallsOver200Frames)
{
#if !defined(CC_TEST_WITH_CUDA)
    GTEST_SKIP() << "built without CUDA; scripts/gpu-check.sh runs this on a GPU";
#else
    if (cc_cuda_device_count() == 0) GTEST_SKIP() << "no CUDA device; scripts/gpu-check.sh runs this on a GPU";
    Builder b = resting_scene();
    cc_pipeline_def def = cc_default_pipeline_def();
    def.contact_matching = CC_MATCHING_LATEST;
    def.contact_report = 1;
    World direct, graphed;
    CC_ASSERT_OK(make_world(b.get(), cc_device_cuda(0), def, &direct));
    CC_ASSERT_OK(make_world(b.get(), cc_device_cuda(0), def, &graphed));
    int nb = cc_model_body_count(direct.model.get());
    std::vector<cc_transform> base((size_t)nb);
    CC_ASSERT_OK(cc_state_get_body_poses(direct.state.get(), 0, nb, base.data()));

    cudaStream_t stream;
    ASSERT_EQ(cudaStreamCreate(&stream), cudaSuccess);
    cudaGraph_t graph;
    ASSERT_EQ(cudaStreamBeginCapture(stream, cudaStreamCaptureModeGlobal), cudaSuccess);
    CC_ASSERT_OK(cc_collide(graphed.pipeline.get(), graphed.state.get(), graphed.contacts.get(), stream));
    ASSERT_EQ(cudaStreamEndCapture(stream, &graph), cudaSuccess);
    cudaGraphExec_t exec;
    ASSERT_EQ(cudaGraphInstantiate(&exec, graph, 0), cudaSuccess);

    int matched_frames = 0, broken_total = 0;
    for (int f = 0; f < 200; ++f) {
        std::vector<cc_transform> p = frame_poses(base, f);
        CC_ASSERT_OK(cc_state_set_body_poses(direct.state.get(), 0, nb, p.data()));
        CC_ASSERT_OK(cc_state_set_body_poses(graphed.state.get(), 0, nb, p.data()));
        CC_ASSERT_OK(cc_collide(direct.pipeline.get(), direct.state.get(), direct.contacts.get(), nullptr));
        ASSERT_EQ(cudaGraphLaunch(exec, stream), cudaSuccess);
        ASSERT_EQ(cudaStreamSynchronize(stream), cudaSuccess);
        Frame a = read_frame(direct.contacts.get()), g = read_frame(graphed.contacts.get());
        ASSERT_FALSE(a.rows.empty()) << "frame " << f;
        ASSERT_EQ(a.rows, g.rows) << "frame " << f;
        ASSERT_EQ(a.match, g.match) << "frame " << f;
        ASSERT_EQ(a.fresh, g.fresh) << "frame " << f;
        ASSERT_EQ(a.broken, g.broken) << "frame " << f;
        int kept = 0;
        for (int m : a.match) kept += m >= 0;
        matched_frames += kept > 0;
        broken_total += (int)a.broken.size();
    }
    // The sequence exercised both persistent and broken contacts.
    EXPECT_GT(matched_frames, 150);
    EXPECT_GT(broken_total, 0);
    cudaGraphExecDestroy(exec);
    cudaGraphDestroy(graph);
    cudaStreamDestroy(stream);
#endif
}

}  // namespace
