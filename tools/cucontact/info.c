/* cucontact info: what a scene holds and what colliding it costs. */
#include <string.h>

#include "tools/cucontact/cli.h"

static double mib(size_t bytes) { return (double)bytes / (1024.0 * 1024.0); }

int cli_info(const cli_options* o)
{
    cli_scene s;
    if (!cli_scene_open(o, NULL, &s)) return CLI_FAILED;
    const cc_builder* b = s.builder;
    int bodies = cc_builder_body_count(b), shapes = cc_builder_shape_count(b), dynamic = 0, global = 0;
    int by_type[CC_SHAPE_TYPE_COUNT] = {0};
    for (int i = 0; i < bodies; ++i) {
        cc_body_info bi;
        if (cc_builder_get_body_info(b, i, &bi) == CC_OK && !bi.is_static) dynamic++;
    }
    for (int i = 0; i < shapes; ++i) {
        cc_shape_info si;
        if (cc_builder_get_shape_info(b, i, &si) != CC_OK) continue;
        by_type[si.type]++;
        global += si.world < 0;
    }
    printf("scene: %s\n", o->scene);
    printf("worlds: %d\n", cc_builder_world_count(b));
    printf("bodies: %d (%d dynamic, %d static)\n", bodies, dynamic, bodies - dynamic);
    printf("shapes: %d (%d global, %d in worlds)\n", shapes, global, shapes - global);
    for (int t = 0; t < CC_SHAPE_TYPE_COUNT; ++t)
        if (by_type[t]) printf("  %-12s %d\n", cc_shape_type_name((cc_shape_type)t), by_type[t]);
    long long vertices = 0, triangles = 0;
    for (int m = 0; m < cc_builder_mesh_count(b); ++m) {
        int v = 0, t = 0;
        cc_builder_get_mesh_info(b, m, &v, &t);
        vertices += v, triangles += t;
    }
    if (cc_builder_mesh_count(b))
        printf("meshes: %d stored once (%lld vertices, %lld triangles)\n", cc_builder_mesh_count(b), vertices, triangles);
    if (cc_builder_sdf_count(b)) {
        size_t bytes = 0;
        int bricks = 0, stored = 0;
        for (int i = 0; i < cc_builder_sdf_count(b); ++i) {
            cc_sdf_info si;
            if (cc_builder_get_sdf_info(b, i, &si) != CC_OK) continue;
            bytes += si.device_bytes, bricks += si.bricks, stored += si.stored_bricks;
        }
        printf("sdfs: %d stored once (%d of %d bricks stored, %.1f KiB)\n", cc_builder_sdf_count(b), stored, bricks,
               (double)bytes / 1024.0);
    }
    long long samples = 0;
    for (int h = 0; h < cc_builder_heightfield_count(b); ++h) {
        int r = 0, c = 0;
        cc_builder_get_heightfield_info(b, h, &r, &c, NULL, NULL);
        samples += (long long)r * c;
    }
    if (cc_builder_heightfield_count(b))
        printf("heightfields: %d stored once (%lld samples)\n", cc_builder_heightfield_count(b), samples);
    const cc_pipeline_info* pi = &s.info;
    printf("broad phase: %s", cc_broad_phase_name(pi->broad_phase));
    if (pi->broad_phase == CC_BROAD_PHASE_EXPLICIT)
        printf(" (%lld pairs stored, %lld tested per pass)", (long long)pi->explicit_pairs_stored, (long long)pi->explicit_pairs_tested);
    printf("\n");
    printf("capacity: %d candidate pairs, %d contacts (estimates)\n", pi->shape_pairs_max, pi->rigid_contact_max);
    if (pi->unsupported_pairs > 0) {
        char skipped[128];
        cli_unsupported_types(b, skipped, sizeof skipped);
        printf("unsupported pairs: %lld shape pairs have no narrow-phase route yet (%s); they are skipped\n",
               (long long)pi->unsupported_pairs, skipped);
    }
    size_t model = cc_model_device_bytes(s.model), pipeline = pi->device_bytes;
    size_t contacts = (size_t)pi->rigid_contact_max * 56u;
    printf("device memory (%s): model %.2f MiB, pipeline %.2f MiB, contact buffer %.2f MiB, total %.2f MiB\n",
           o->device.kind == CC_DEVICE_CUDA ? "cuda" : "cpu", mib(model), mib(pipeline), mib(contacts),
           mib(model + pipeline + contacts));
    cli_scene_close(&s);
    return CLI_OK;
}
