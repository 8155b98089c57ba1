// cc_collide allocates nothing after pipeline creation. This executable is
// linked with --wrap for malloc, calloc and realloc, so every heap
// allocation made by the (static) library's objects passes through the
// counters below; allocations by the test framework itself are not counted.
#include <cstddef>

#include "tests/support/test_support.h"

extern "C" {
void* __real_malloc(size_t);
void* __real_calloc(size_t, size_t);
void* __real_realloc(void*, size_t);
static long library_allocations = 0;
void* __wrap_malloc(size_t n)
{
    library_allocations++;
    return __real_malloc(n);
}
void* __wrap_calloc(size_t n, size_t s)
{
    library_allocations++;
    return __real_calloc(n, s);
}
void* __wrap_realloc(void* p, size_t n)
{
    library_allocations++;
    return __real_realloc(p, n);
}
}

namespace {

using namespace cctest;

class NoAllocation : public DeviceTest {};

// A small pile of every shape type over a ground plane, in 8 worlds.
Builder pile_scene()
{
    Builder env = make_builder(0.02f);
    for (int i = 0; i < 12; ++i) {
        int body = add_body(env.get(), {0.3f * (i % 4), 0.3f * (i / 4), 0.1f});
        cc_shape_def d = cc_default_shape_def();
        if (i % 3 == 0) cc_builder_add_sphere(env.get(), body, 0.1f, &d, nullptr);
        else if (i % 3 == 1) cc_builder_add_capsule(env.get(), body, 0.08f, 0.1f, &d, nullptr);
        else cc_builder_add_box(env.get(), body, {0.1f, 0.1f, 0.1f}, &d, nullptr);
    }
    Builder b = make_builder(0.02f);
    cc_builder_add_plane(b.get(), CC_BODY_WORLD, 0, 0, nullptr, nullptr);
    cc_builder_replicate(b.get(), env.get(), 8, nullptr);
    return b;
}

TEST_P(NoAllocation, CollideAllocatesNothingWithAnyBroadPhase)
{
    Builder b = pile_scene();
    for (cc_broad_phase bp : {CC_BROAD_PHASE_NXN, CC_BROAD_PHASE_SAP, CC_BROAD_PHASE_EXPLICIT}) {
        cc_pipeline_def def = cc_default_pipeline_def();
        def.broad_phase = bp;
        World w;
        CC_ASSERT_OK(make_world(b.get(), device(), def, &w));
        if (device().kind == CC_DEVICE_CUDA) {
            // The static CUDA runtime allocates on its own at a module's first
            // launch (lazy loading); one warm-up pass keeps those out of the
            // count. The CPU counts from the very first pass.
            int n = 0;
            CC_ASSERT_OK(cc_collide(w.pipeline.get(), w.state.get(), w.contacts.get(), nullptr));
            CC_ASSERT_OK(cc_contacts_count(w.contacts.get(), &n));
        }
        long heap_before = library_allocations;
        int64_t buffers_before = cc_allocation_count();
        for (int i = 0; i < 10; ++i)
            CC_ASSERT_OK(cc_collide(w.pipeline.get(), w.state.get(), w.contacts.get(), nullptr));
        EXPECT_EQ(library_allocations, heap_before) << "broad phase " << bp;
        EXPECT_EQ(cc_allocation_count(), buffers_before) << "broad phase " << bp;
        // The pass did real work: every shape rests on the ground.
        int n = 0;
        CC_ASSERT_OK(cc_contacts_count(w.contacts.get(), &n));
        EXPECT_GE(n, 8 * 12);
    }
}

TEST_P(NoAllocation, CreationDoesAllocate)
{
    // Guards the counters themselves: building a model must be seen.
    long before = library_allocations;
    Builder b = pile_scene();
    EXPECT_GT(library_allocations, before);
}

CC_INSTANTIATE_DEVICE_TEST(NoAllocation);

}  // namespace
