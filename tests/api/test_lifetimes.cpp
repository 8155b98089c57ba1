// Object lifetimes: a model stays alive while any state, pipeline, contact
// buffer or solver made from it does, so they may be destroyed in any order
// (under AddressSanitizer a use after free fails the test).
#include <algorithm>
#include <vector>

#include "tests/support/step_util.h"

using namespace cctest;

namespace {

class Lifetimes : public DeviceTest {};

TEST_P(Lifetimes, DependentsMayOutliveTheirModelInAnyOrder)
{
    Builder b = make_builder();
    ASSERT_EQ(cc_builder_add_plane(b.get(), CC_BODY_WORLD, 0, 0, nullptr, nullptr), CC_OK);
    int body = add_body(b.get(), {0, 0, 0.09f});
    ASSERT_EQ(cc_builder_add_sphere(b.get(), body, 0.1f, nullptr, nullptr), CC_OK);
    // Each of the 24 orders of destroying state, pipeline, contacts and
    // solver, with the model destroyed first: the dependents still work.
    std::vector<int> order = {0, 1, 2, 3};
    int runs = 0;
    do {
        SCOPED_TRACE(testing::Message() << order[0] << order[1] << order[2] << order[3]);
        cc_model* m = nullptr;
        ASSERT_EQ(cc_builder_finalize(b.get(), device(), &m), CC_OK);
        cc_state *s0 = nullptr, *s1 = nullptr;
        cc_pipeline* p = nullptr;
        cc_contacts* c = nullptr;
        cc_solver* sv = nullptr;
        cc_pipeline_info info;
        ASSERT_EQ(cc_state_create(m, &s0), CC_OK);
        ASSERT_EQ(cc_state_create(m, &s1), CC_OK);
        ASSERT_EQ(cc_pipeline_create(m, nullptr, &p), CC_OK);
        ASSERT_EQ(cc_contacts_create(p, &c), CC_OK);
        ASSERT_EQ(cc_pipeline_get_info(p, &info), CC_OK);
        ASSERT_EQ(cc_solver_create(m, nullptr, info.rigid_contact_max, &sv), CC_OK);
        cc_model_destroy(m);
        ASSERT_EQ(cc_collide(p, s0, c, nullptr), CC_OK);
        ASSERT_EQ(cc_step(sv, s0, s1, c, 1e-3f, nullptr), CC_OK);
        int n = 0;
        ASSERT_EQ(cc_contacts_count(c, &n), CC_OK);
        EXPECT_EQ(n, 1);
        cc_state_destroy(s1);
        for (int k : order) {
            if (k == 0) cc_state_destroy(s0);
            if (k == 1) cc_pipeline_destroy(p);
            if (k == 2) cc_contacts_destroy(c);
            if (k == 3) cc_solver_destroy(sv);
        }
        ++runs;
    } while (std::next_permutation(order.begin(), order.end()));
    EXPECT_EQ(runs, 24);
    // A model destroyed with nothing made from it is freed at once, and one
    // whose creation of a dependent failed keeps no extra reference.
    cc_model* m = nullptr;
    ASSERT_EQ(cc_builder_finalize(b.get(), device(), &m), CC_OK);
    cc_solver* sv = nullptr;
    EXPECT_EQ(cc_solver_create(m, nullptr, -1, &sv), CC_ERR_INVALID_CAPACITY);
    cc_model_destroy(m);
}

CC_INSTANTIATE_DEVICE_TEST(Lifetimes);

}  // namespace
