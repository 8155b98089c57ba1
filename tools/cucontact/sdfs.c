/* SDFs for the mesh shapes of a loaded scene (--sdf), with a progress bar. */
#define _POSIX_C_SOURCE 199309L /* clock_gettime */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "tools/cucontact/cli.h"

static double seconds_now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* One build's bar: drawn once the build has run a second. */
typedef struct progress_bar {
    double start;
    int mesh, triangles, drawn, quiet;
} progress_bar;

static void draw(float fraction, void* user)
{
    progress_bar* bar = (progress_bar*)user;
    if (bar->quiet || (!bar->drawn && seconds_now() - bar->start < 1.0)) return;
    int filled = (int)(fraction * 30.0f + 0.5f);
    fprintf(stderr, "\rcucontact: SDF of mesh %d (%d triangles) [%.*s%*s] %3d%%", bar->mesh, bar->triangles, filled,
            "##############################", 30 - filled, "", (int)(fraction * 100.0f + 0.5f));
    bar->drawn = 1;
}

int cli_build_sdfs(const cli_options* o, cc_builder* b)
{
    int shapes = cc_builder_shape_count(b), meshes = 0;
    for (int i = 0; i < shapes; ++i) {
        cc_shape_info si;
        cc_status s = cc_builder_get_shape_info(b, i, &si);
        if (s != CC_OK) return cli_fail("reading the scene's shapes", s), 0;
        if (si.type != CC_SHAPE_MESH) continue;
        meshes++;
        /* Once per (mesh, scale): an earlier shape may have built it, or
         * the mesh came from a .vdb with its own. */
        int seen = 0;
        for (int j = 0; j < cc_builder_sdf_count(b) && !seen; ++j) {
            cc_sdf_info info;
            if (cc_builder_get_sdf_info(b, j, &info) == CC_OK && info.mesh == si.source && info.scale.x == si.size.x &&
                info.scale.y == si.size.y && info.scale.z == si.size.z)
                seen = 1;
        }
        if (seen) continue;
        progress_bar bar = {seconds_now(), si.source, 0, 0, o->quiet};
        cc_builder_get_mesh_info(b, si.source, NULL, &bar.triangles);
        cc_sdf_def d = cc_default_sdf_def();
        d.max_resolution = o->sdf_resolution;
        d.scale = si.size;
        d.cache_dir = o->sdf_cache;
        d.progress = draw;
        d.progress_user = &bar;
        s = cc_builder_build_mesh_sdf(b, si.source, &d, NULL);
        if (bar.drawn) fprintf(stderr, "\n");
        if (s != CC_OK) return cli_fail("building an SDF", s), 0;
    }
    if (!meshes && !o->quiet) fprintf(stderr, "cucontact: note: --sdf: the scene has no mesh shapes\n");
    return 1;
}
