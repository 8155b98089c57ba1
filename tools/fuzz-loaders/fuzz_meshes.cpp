// libFuzzer target: the STL, OBJ and MSH readers on arbitrary file
// contents. The first byte picks the format; the rest is written to a file the
// loader opens. Every input must load a mesh of finite vertices and valid
// indices or fail with a message.
#include <unistd.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "host/assets/asset_io.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    if (size < 1) return 0;
    static std::string path;
    int format = data[0] % 3; /* 0 STL, 1 OBJ, 2 MSH */
    const char* ext = format == 0 ? ".stl" : format == 1 ? ".obj" : ".msh";
    path = "/tmp/cc_fuzz_mesh_" + std::to_string(::getpid()) + ext;
    FILE* f = std::fopen(path.c_str(), "wb");
    if (!f) return 0;
    std::fwrite(data + 1, 1, size - 1, f);
    std::fclose(f);
    cc_tri_mesh m;
    cc_status s = format == 0   ? cc_load_stl(path.c_str(), "fuzz", &m)
                  : format == 1 ? cc_load_obj(path.c_str(), "fuzz", &m)
                                : cc_load_msh(path.c_str(), "fuzz", &m);
    if (s == CC_OK) {
        for (int i = 0; i < m.vertex_count; ++i)
            if (!std::isfinite(m.vertices[i].x) || !std::isfinite(m.vertices[i].y) || !std::isfinite(m.vertices[i].z)) std::abort();
        for (int i = 0; i < 3 * m.triangle_count; ++i)
            if (m.triangles[i] < 0 || m.triangles[i] >= m.vertex_count) std::abort();
        cc_tri_mesh_free(&m);
    } else if (!cc_last_error_message()[0]) {
        std::abort();
    }
    std::remove(path.c_str());
    return 0;
}
