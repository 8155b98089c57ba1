// libFuzzer target: the MJCF loader on arbitrary bytes (as a scene string;
// includes and asset files resolve under a directory that holds the
// corpus's small meshes). Every input must load or fail with a message,
// leave a failed builder unchanged, and never crash, hang or leak.
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>

#include "cucontact/cucontact.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    std::string xml(reinterpret_cast<const char*>(data), size);
    cc_builder* b = nullptr;
    if (cc_builder_create(nullptr, &b) != CC_OK) return 0;
    cc_set_log_callback(nullptr, nullptr); /* the notes of odd files are no finding */
    const char* dir = std::getenv("CC_FUZZ_ASSET_DIR");
    int shapes = cc_builder_shape_count(b);
    cc_status s = cc_builder_load_mjcf_string(b, xml.c_str(), dir ? dir : ".", nullptr);
    if (s != CC_OK) {
        if (cc_builder_shape_count(b) != shapes || cc_builder_body_count(b) != 0) std::abort(); // not rolled back
        if (!cc_last_error_message()[0]) std::abort();                                         // no message
    } else if (cc_builder_shape_count(b) < 64) {
        // Small scenes also finalize and collide once.
        cc_model* m = nullptr;
        if (cc_builder_finalize(b, cc_device_cpu(), &m) == CC_OK) {
            cc_state* st = nullptr;
            cc_pipeline* p = nullptr;
            cc_contacts* c = nullptr;
            if (cc_state_create(m, &st) == CC_OK && cc_pipeline_create(m, nullptr, &p) == CC_OK &&
                cc_contacts_create(p, &c) == CC_OK)
                cc_collide(p, st, c, nullptr);
            cc_contacts_destroy(c);
            cc_pipeline_destroy(p);
            cc_state_destroy(st);
            cc_model_destroy(m);
        }
    }
    cc_builder_destroy(b);
    return 0;
}
