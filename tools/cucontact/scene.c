/* Loading a scene for the subcommands, and small shared helpers. */
#include <string.h>

#include "tools/cucontact/cli.h"

int cli_fail(const char* what, cc_status s)
{
    fprintf(stderr, "cucontact: %s: %s: %s\n", what, cc_status_string(s), cc_last_error_message());
    return CLI_FAILED;
}

void cli_scene_close(cli_scene* s)
{
    cc_contacts_destroy(s->contacts);
    cc_pipeline_destroy(s->pipeline);
    cc_state_destroy(s->state);
    cc_model_destroy(s->model);
    cc_builder_destroy(s->builder);
    memset(s, 0, sizeof *s);
}

int cli_scene_open(const cli_options* o, const cli_capacities* caps, cli_scene* out)
{
    cli_capacities none = {0, 0, 0};
    if (!caps) caps = &none;
    memset(out, 0, sizeof *out);
    cc_status s = cc_builder_create(NULL, &out->builder);
    if (s != CC_OK) return cli_fail("creating the builder", s), 0;
    cc_mjcf_options mo = cc_default_mjcf_options();
    mo.worlds = o->worlds;
    mo.mesh_mode = o->mesh_mode;
    mo.report_every_note = o->verbose;
    s = cc_builder_load_mjcf(out->builder, o->scene, &mo);
    if (s != CC_OK) {
        cli_fail("loading the scene", s);
        cli_scene_close(out);
        return 0;
    }
    if (o->sdf_resolution && !cli_build_sdfs(o, out->builder)) {
        cli_scene_close(out);
        return 0;
    }
    const char* what = "creating the model";
    s = cc_builder_finalize(out->builder, o->device, &out->model);
    if (s == CC_OK) what = "creating the state", s = cc_state_create(out->model, &out->state);
    cc_pipeline_def pd = cc_default_pipeline_def();
    pd.broad_phase = o->broad_phase;
    pd.deterministic = o->deterministic;
    pd.contact_matching = o->matching;
    pd.skip_unsupported_pairs = 1; /* types without a route in this build (none today) are skipped, not fatal */
    if (caps->pairs > 0) pd.shape_pairs_max = caps->pairs;
    if (caps->contacts > 0) pd.rigid_contact_max = caps->contacts;
    if (caps->mesh_items > 0) pd.mesh_work_items_max = caps->mesh_items;
    if (s == CC_OK) what = "creating the pipeline", s = cc_pipeline_create(out->model, &pd, &out->pipeline);
    if (s == CC_OK) s = cc_pipeline_get_info(out->pipeline, &out->info);
    if (s == CC_OK) what = "creating the contact buffer", s = cc_contacts_create(out->pipeline, &out->contacts);
    if (s != CC_OK) {
        cli_fail(what, s);
        cli_scene_close(out);
        return 0;
    }
    return 1;
}

static int overflowed(const cc_overflow* ov)
{
    return ov->pairs_overflowed || ov->contacts_overflowed || ov->mesh_items_overflowed;
}

/* Room to spare over a reported need: a buffer that fits may let the next
 * stage find more (contacts of the pairs or work items that were dropped). */
static int with_room(int needed, int capacity) { return (needed > capacity ? needed : capacity) * 2 + 16; }

int cli_scene_open_fitted(const cli_options* o, const char* command, cli_scene* out)
{
    if (!cli_scene_open(o, NULL, out)) return 0;
    cc_overflow ov;
    for (int attempt = 0;; ++attempt) {
        cc_status st = cc_collide(out->pipeline, out->state, out->contacts, NULL);
        if (st == CC_OK) st = cc_pipeline_get_overflow(out->pipeline, &ov);
        if (st != CC_OK) {
            cli_scene_close(out);
            return cli_fail(command, st), 0;
        }
        if (!overflowed(&ov)) return 1;
        if (attempt == 1) break;
        cli_capacities caps = {with_room(ov.pairs_needed, ov.pairs_capacity),
                               with_room(ov.contacts_needed, ov.contacts_capacity),
                               ov.mesh_items_capacity > 0 ? with_room(ov.mesh_items_needed, ov.mesh_items_capacity) : 0};
        cli_scene_close(out);
        if (!cli_scene_open(o, &caps, out)) return 0;
    }
    cli_report_overflow(&ov, command);
    cli_scene_close(out);
    return 0;
}

int cli_report_overflow(const cc_overflow* ov, const char* command)
{
    if (ov->pairs_overflowed)
        fprintf(stderr, "cucontact: %s: candidate pairs overflow: %d found, capacity %d; set shape_pairs_max to at least %d\n", command,
                ov->pairs_needed, ov->pairs_capacity, ov->pairs_needed);
    if (ov->contacts_overflowed)
        fprintf(stderr, "cucontact: %s: contacts overflow: %d found, capacity %d; set rigid_contact_max to at least %d\n", command,
                ov->contacts_needed, ov->contacts_capacity, ov->contacts_needed);
    if (ov->mesh_items_overflowed)
        fprintf(stderr, "cucontact: %s: mesh work items overflow: %d found, capacity %d; set mesh_work_items_max to at least %d\n",
                command, ov->mesh_items_needed, ov->mesh_items_capacity, ov->mesh_items_needed);
    return overflowed(ov);
}

void cli_pair_name(cc_shape_type a, cc_shape_type b, char* out, size_t size)
{
    snprintf(out, size, "%s-%s", cc_shape_type_name(a), cc_shape_type_name(b));
}

const char* cli_scene_stem(const char* path, char* out, size_t size)
{
    const char* base = strrchr(path, '/');
    base = base ? base + 1 : path;
    snprintf(out, size, "%s", base);
    char* dot = strrchr(out, '.');
    if (dot && dot != out) *dot = '\0';
    return out;
}

void cli_unsupported_types(const cc_builder* b, char* out, size_t size)
{
    int seen[CC_SHAPE_TYPE_COUNT] = {0};
    for (int i = 0; i < cc_builder_shape_count(b); ++i) {
        cc_shape_info si;
        if (cc_builder_get_shape_info(b, i, &si) == CC_OK) seen[si.type] = 1;
    }
    out[0] = '\0';
    /* Types without a narrow-phase route in this build. */
    const cc_shape_type types[] = {CC_SHAPE_SDF};
    for (int k = 0; k < (int)(sizeof types / sizeof types[0]); ++k)
        if (seen[types[k]]) {
            size_t n = strlen(out);
            snprintf(out + n, size - n, "%s%s", n ? ", " : "", cc_shape_type_name(types[k]));
        }
}
