// Shared test helpers: the devices every pipeline test runs on (CUDA
// instances skip visibly where no device exists) and small builders.
#pragma once

#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "cucontact/cucontact.h"

namespace cctest {

#define CC_ASSERT_OK(call)                                                                 \
    do {                                                                                   \
        cc_status s_ = (call);                                                             \
        ASSERT_EQ(s_, CC_OK) << cc_status_string(s_) << ": " << cc_last_error_message();  \
    } while (0)

// A fresh directory under gtest's TempDir for this process, named by
// `prefix` and a count; all of them are removed when the test binary exits,
// so that test runs leave nothing behind.
inline std::string scratch_dir(const std::string& prefix)
{
    static struct Made {
        std::set<std::string> dirs;
        ~Made()
        {
            std::error_code ignored;
            for (const std::string& d : dirs) std::filesystem::remove_all(d, ignored);
        }
    } made;
    static int counter = 0;
    std::string d = ::testing::TempDir() + prefix + std::to_string(::getpid()) + "_" + std::to_string(counter++);
    std::error_code error;
    std::filesystem::create_directories(d, error);
    EXPECT_FALSE(error) << d << ": " << error.message();
    made.dirs.insert(d);
    return d;
}

inline const char* device_name(cc_device_kind k) { return k == CC_DEVICE_CPU ? "cpu" : "cuda"; }

// Parameterised fixture base: GetParam() is the device kind.
class DeviceTest : public ::testing::TestWithParam<cc_device_kind> {
  protected:
    void SetUp() override
    {
        if (GetParam() == CC_DEVICE_CUDA && cc_cuda_device_count() == 0)
            GTEST_SKIP() << "no CUDA device on this machine; the CUDA backend is tested by scripts/gpu-check.sh";
    }
    cc_device device() const { return GetParam() == CC_DEVICE_CPU ? cc_device_cpu() : cc_device_cuda(0); }
};

#define CC_INSTANTIATE_DEVICE_TEST(fixture)                                                   \
    INSTANTIATE_TEST_SUITE_P(Devices, fixture, ::testing::Values(CC_DEVICE_CPU, CC_DEVICE_CUDA), \
                             [](const ::testing::TestParamInfo<cc_device_kind>& i) {          \
                                 return std::string(::cctest::device_name(i.param));          \
                             })

struct BuilderDeleter {
    void operator()(cc_builder* b) const { cc_builder_destroy(b); }
};
struct ModelDeleter {
    void operator()(cc_model* m) const { cc_model_destroy(m); }
};
struct StateDeleter {
    void operator()(cc_state* s) const { cc_state_destroy(s); }
};
struct PipelineDeleter {
    void operator()(cc_pipeline* p) const { cc_pipeline_destroy(p); }
};
struct ContactsDeleter {
    void operator()(cc_contacts* c) const { cc_contacts_destroy(c); }
};
using Builder = std::unique_ptr<cc_builder, BuilderDeleter>;
using Model = std::unique_ptr<cc_model, ModelDeleter>;
using State = std::unique_ptr<cc_state, StateDeleter>;
using Pipeline = std::unique_ptr<cc_pipeline, PipelineDeleter>;
using Contacts = std::unique_ptr<cc_contacts, ContactsDeleter>;

inline Builder make_builder(float rigid_gap = 0.1f)
{
    cc_builder_def d = cc_default_builder_def();
    d.rigid_gap = rigid_gap;
    cc_builder* b = nullptr;
    EXPECT_EQ(cc_builder_create(&d, &b), CC_OK);
    return Builder(b);
}

inline int add_body(cc_builder* b, cc_vec3 p, cc_quat q = {0, 0, 0, 1}, int is_static = 0)
{
    cc_body_def d = cc_default_body_def();
    d.pose.p = p;
    d.pose.q = q;
    d.is_static = is_static;
    int body = -1;
    EXPECT_EQ(cc_builder_add_body(b, &d, &body), CC_OK) << cc_last_error_message();
    return body;
}

// Everything needed to collide one model, created on one device.
struct World {
    Model model;
    State state;
    Pipeline pipeline;
    Contacts contacts;
};

inline cc_status make_world(const cc_builder* b, cc_device dev, const cc_pipeline_def& def, World* w)
{
    cc_model* m = nullptr;
    cc_status s = cc_builder_finalize(b, dev, &m);
    if (s != CC_OK) return s;
    w->model.reset(m);
    cc_state* st = nullptr;
    if ((s = cc_state_create(m, &st)) != CC_OK) return s;
    w->state.reset(st);
    cc_pipeline* p = nullptr;
    if ((s = cc_pipeline_create(m, &def, &p)) != CC_OK) return s;
    w->pipeline.reset(p);
    cc_contacts* c = nullptr;
    if ((s = cc_contacts_create(p, &c)) != CC_OK) return s;
    w->contacts.reset(c);
    return CC_OK;
}

// Collides and downloads every contact.
inline std::vector<cc_contact> collide(World& w)
{
    std::vector<cc_contact> out;
    EXPECT_EQ(cc_collide(w.pipeline.get(), w.state.get(), w.contacts.get(), nullptr), CC_OK) << cc_last_error_message();
    out.resize((size_t)cc_contacts_capacity(w.contacts.get()));
    int n = 0;
    EXPECT_EQ(cc_contacts_download(w.contacts.get(), w.state.get(), out.data(), (int)out.size(), &n), CC_OK);
    out.resize((size_t)std::min<int>(n, (int)out.size()));
    return out;
}

// CUCONTACT_CPU_THREADS set for a scope (the CPU backend reads it at each
// stage), restored after.
class ScopedCpuThreads {
  public:
    explicit ScopedCpuThreads(const char* value)
    {
        const char* old = std::getenv("CUCONTACT_CPU_THREADS");
        had_ = old != nullptr;
        if (had_) old_ = old;
        setenv("CUCONTACT_CPU_THREADS", value, 1);
    }
    explicit ScopedCpuThreads(int threads) : ScopedCpuThreads(std::to_string(threads).c_str()) {}
    ~ScopedCpuThreads()
    {
        if (had_) setenv("CUCONTACT_CPU_THREADS", old_.c_str(), 1);
        else unsetenv("CUCONTACT_CPU_THREADS");
    }
    ScopedCpuThreads(const ScopedCpuThreads&) = delete;
    ScopedCpuThreads& operator=(const ScopedCpuThreads&) = delete;

  private:
    bool had_ = false;
    std::string old_;
};

}  // namespace cctest
