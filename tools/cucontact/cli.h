/* The cucontact command-line tool: shared options, scene loading and
 * output helpers of its subcommands (collide, bench, info). */
#ifndef CUCONTACT_CLI_H
#define CUCONTACT_CLI_H

#include <stdio.h>

#include "cucontact/cucontact.h"

/* Exit statuses. */
#define CLI_OK 0
#define CLI_FAILED 1
#define CLI_USAGE 2

typedef struct cli_options {
    const char* scene;
    cc_device device;
    int worlds;
    const char* csv;
    const char* json;
    int deterministic;
    cc_contact_matching matching;
    cc_broad_phase broad_phase;
    int repeat;
    int quiet;
    int verbose;                  /* every loader note where it occurs */
    cc_mjcf_mesh_mode mesh_mode; /* how mesh geoms become shapes */
    int sdf_resolution;          /* > 0: SDFs of that max_resolution for the mesh shapes */
    const char* sdf_cache;       /* the SDF cache folder, or NULL */
} cli_options;

/* A scene loaded and set up on one device. */
typedef struct cli_scene {
    cc_builder* builder;
    cc_model* model;
    cc_state* state;
    cc_pipeline* pipeline;
    cc_contacts* contacts;
    cc_pipeline_info info;
} cli_scene;

/* Prints "cucontact: <what>: <status>: <message>" to stderr; returns CLI_FAILED. */
int cli_fail(const char* what, cc_status s);

/* Capacities that override the pipeline's estimates where > 0. */
typedef struct cli_capacities {
    int pairs, contacts, mesh_items;
} cli_capacities;

/* Loads options->scene and creates model, state, pipeline (unsupported pairs
 * skipped) and contacts; `caps` (NULL: none) overrides the estimates. On
 * failure prints the reason and returns 0. */
int cli_scene_open(const cli_options* o, const cli_capacities* caps, cli_scene* out);
/* cli_scene_open, then one collide on the initial pose; a pass that overflows
 * any buffer is opened again once with the capacities it reported (and room
 * to spare), so that no contact is lost. Returns 0, with one line naming each
 * buffer still overflowed and the capacity to set, when that is not enough. */
int cli_scene_open_fitted(const cli_options* o, const char* command, cli_scene* out);
/* One line on stderr per overflowed buffer of `ov`, naming the capacity to
 * set; returns nonzero when any overflowed. */
int cli_report_overflow(const cc_overflow* ov, const char* command);
void cli_scene_close(cli_scene* s);

/* Builds an SDF for every (mesh, scale) the builder's mesh shapes use,
 * with a progress bar on stderr for builds that take over a second (not
 * with `quiet`). Returns 0 after printing the reason on failure. */
int cli_build_sdfs(const cli_options* o, cc_builder* b);

/* "sphere-box" style name of a pair of shape types. */
void cli_pair_name(cc_shape_type a, cc_shape_type b, char* out, size_t size);
/* Short name of a scene file: its stem ("bin_64_primitives"). */
const char* cli_scene_stem(const char* path, char* out, size_t size);
/* The route-less shape types present, "mesh, heightfield", or "" when none. */
void cli_unsupported_types(const cc_builder* b, char* out, size_t size);

int cli_collide(const cli_options* o);
int cli_bench(const cli_options* o);
int cli_info(const cli_options* o);

#endif
