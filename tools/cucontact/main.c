/* cucontact: collide, benchmark and inspect MJCF scenes from the command line.
 *
 *   cucontact collide SCENE.xml [options]   one pass; contacts to CSV or JSON
 *   cucontact bench SCENE.xml [options]     per-stage timing with jittered poses
 *   cucontact info SCENE.xml [options]      counts, capacities and memory
 *
 * Exit status: 0 on success, 2 on bad usage, 1 on a failure (one line on
 * stderr). */
#include <stdlib.h>
#include <string.h>

#include "tools/cucontact/cli.h"

static void usage_main(FILE* f)
{
    fprintf(f,
            "usage: cucontact COMMAND SCENE.xml [options]\n"
            "  collide   one collision pass on the scene's initial pose; writes the contacts\n"
            "  bench     collide timing per stage, poses jittered every repetition\n"
            "  info      bodies, shapes by type, worlds, buffer capacities and memory\n"
            "'cucontact COMMAND --help' describes each command's options.\n");
}

static void usage_collide(FILE* f)
{
    fprintf(f,
            "usage: cucontact collide SCENE.xml [options]\n"
            "One collision pass on the scene's initial pose. Prints a summary (shapes,\n"
            "candidate pairs, contacts, contacts by pair type) and writes every contact.\n"
            "  --device cpu|cuda[:N]   backend (default cpu)\n"
            "  --worlds N              copies of the scene, one world each (default 1)\n"
            "  --csv FILE              contacts as CSV: world, shape0, shape1, name0, name1,\n"
            "                          distance, point0 x y z, point1 x y z, normal x y z\n"
            "  --json FILE             contacts as JSON (instead of --csv)\n"
            "  --deterministic         contacts sorted by key (reruns give identical files)\n"
            "  --matching latest|sticky  contact matching (implies --deterministic)\n"
            "  --broad-phase B         auto, nxn, sap or explicit (default auto)\n"
            "  --mesh-mode hull|mesh   mesh geoms as convex hulls, as MuJoCo (default), or\n"
            "                          as triangle meshes\n"
            "  --sdf R                 with --mesh-mode mesh: an SDF of max_resolution R (a\n"
            "                          multiple of 8) for every mesh at each scale it is used\n"
            "                          at, so that meshes collide through SDFs\n"
            "  --sdf-cache DIR         keep built SDFs in DIR and reuse them\n"
            "  --quiet                 do not print the loader's notes on stderr\n"
            "  --verbose               print every ignored element and attribute where it\n"
            "                          occurs, not only one line per kind with a count\n"
            "Points are world-space points on each shape's surface (margins excluded);\n"
            "the normal points from shape 0 to shape 1; distance is the contact-space\n"
            "signed distance (surface distance minus both margins). Shape names are the\n"
            "MJCF geom names, or #index for unnamed geoms.\n");
}

static void usage_bench(FILE* f)
{
    fprintf(f,
            "usage: cucontact bench SCENE.xml [options]\n"
            "Collide timing with cucontact-bench's per-stage table. Every repetition moves\n"
            "each dynamic body by up to 1 mm and 0.01 rad, so that no pass repeats the last.\n"
            "  --device cpu|cuda[:N]   backend (default cpu)\n"
            "  --worlds N              copies of the scene (default 1)\n"
            "  --repeat R              passes timed (default 10)\n"
            "  --broad-phase B         auto, nxn, sap or explicit (default auto)\n"
            "  --deterministic         sort contacts by key each pass\n"
            "  --mesh-mode hull|mesh   mesh geoms as convex hulls, as MuJoCo (default), or\n"
            "                          as triangle meshes\n"
            "  --sdf R                 with --mesh-mode mesh: an SDF of max_resolution R (a\n"
            "                          multiple of 8) for every mesh at each scale it is used\n"
            "                          at, so that meshes collide through SDFs\n"
            "  --sdf-cache DIR         keep built SDFs in DIR and reuse them\n"
            "  --quiet                 do not print the loader's notes on stderr\n"
            "  --verbose               print every ignored element and attribute where it\n"
            "                          occurs, not only one line per kind with a count\n");
}

static void usage_info(FILE* f)
{
    fprintf(f,
            "usage: cucontact info SCENE.xml [options]\n"
            "Counts of bodies, shapes by type and worlds, the estimated pair and contact\n"
            "capacities, and the device memory of model, pipeline and contact buffer.\n"
            "  --device cpu|cuda[:N]   backend (default cpu)\n"
            "  --worlds N              copies of the scene (default 1)\n"
            "  --broad-phase B         auto, nxn, sap or explicit (default auto)\n"
            "  --mesh-mode hull|mesh   mesh geoms as convex hulls, as MuJoCo (default), or\n"
            "                          as triangle meshes\n"
            "  --sdf R                 with --mesh-mode mesh: an SDF of max_resolution R (a\n"
            "                          multiple of 8) for every mesh at each scale it is used\n"
            "                          at, so that meshes collide through SDFs\n"
            "  --sdf-cache DIR         keep built SDFs in DIR and reuse them\n"
            "  --quiet                 do not print the loader's notes on stderr\n"
            "  --verbose               print every ignored element and attribute where it\n"
            "                          occurs, not only one line per kind with a count\n");
}

static void print_log(cc_log_level level, const char* message, void* user)
{
    (void)user;
    fprintf(stderr, "cucontact: %s: %s\n", level == CC_LOG_WARNING ? "warning" : "note", message);
}

static int bad_usage(const char* command, const char* format, const char* arg)
{
    fprintf(stderr, "cucontact%s%s: ", command ? " " : "", command ? command : "");
    fprintf(stderr, format, arg);
    fprintf(stderr, " (see cucontact %s%s--help)\n", command ? command : "", command ? " " : "");
    return CLI_USAGE;
}

static int positive_int(const char* s, int* out)
{
    char* end;
    long v = strtol(s, &end, 10);
    if (end == s || *end || v < 1 || v > 100000000) return 0;
    *out = (int)v;
    return 1;
}

int main(int argc, char** argv)
{
    if (argc < 2) {
        usage_main(stderr);
        return CLI_USAGE;
    }
    const char* cmd = argv[1];
    if (!strcmp(cmd, "--help") || !strcmp(cmd, "-h") || !strcmp(cmd, "help")) {
        usage_main(stdout);
        return CLI_OK;
    }
    void (*usage)(FILE*) = NULL;
    int (*run)(const cli_options*) = NULL;
    if (!strcmp(cmd, "collide")) usage = usage_collide, run = cli_collide;
    else if (!strcmp(cmd, "bench")) usage = usage_bench, run = cli_bench;
    else if (!strcmp(cmd, "info")) usage = usage_info, run = cli_info;
    else return bad_usage(NULL, "unknown command '%s'; use collide, bench or info", cmd);

    cli_options o;
    memset(&o, 0, sizeof o);
    o.device = cc_device_cpu();
    o.worlds = 1;
    o.repeat = 10;
    o.broad_phase = CC_BROAD_PHASE_AUTO;
    o.mesh_mode = CC_MJCF_MESH_AS_CONVEX_HULL;
    int is_collide = run == cli_collide, is_bench = run == cli_bench;
    for (int i = 2; i < argc; ++i) {
        const char* a = argv[i];
        const char* v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            usage(stdout);
            return CLI_OK;
        } else if (a[0] != '-' || !a[1]) {
            if (o.scene) return bad_usage(cmd, "more than one scene given ('%s')", a);
            o.scene = a;
        } else if (!strcmp(a, "--quiet")) {
            o.quiet = 1;
        } else if (!strcmp(a, "--verbose")) {
            o.verbose = 1;
        } else if (!strcmp(a, "--deterministic") && (is_collide || is_bench)) {
            o.deterministic = 1;
        } else if (!strcmp(a, "--device") || !strcmp(a, "--worlds") || !strcmp(a, "--broad-phase") || !strcmp(a, "--mesh-mode") ||
                   !strcmp(a, "--sdf") || !strcmp(a, "--sdf-cache") ||
                   (is_collide && (!strcmp(a, "--csv") || !strcmp(a, "--json") || !strcmp(a, "--matching"))) ||
                   (is_bench && !strcmp(a, "--repeat"))) {
            if (!v) return bad_usage(cmd, "%s needs a value", a);
            i++;
            if (!strcmp(a, "--device")) {
                if (!strcmp(v, "cpu")) o.device = cc_device_cpu();
                else if (!strcmp(v, "cuda")) o.device = cc_device_cuda(0);
                else if (!strncmp(v, "cuda:", 5) && v[5] >= '0' && v[5] <= '9') o.device = cc_device_cuda(atoi(v + 5));
                else return bad_usage(cmd, "unknown device '%s' (cpu, cuda, cuda:N)", v);
            } else if (!strcmp(a, "--worlds")) {
                if (!positive_int(v, &o.worlds)) return bad_usage(cmd, "--worlds wants a positive integer, not '%s'", v);
            } else if (!strcmp(a, "--repeat")) {
                if (!positive_int(v, &o.repeat)) return bad_usage(cmd, "--repeat wants a positive integer, not '%s'", v);
            } else if (!strcmp(a, "--broad-phase")) {
                if (!strcmp(v, "auto")) o.broad_phase = CC_BROAD_PHASE_AUTO;
                else if (!strcmp(v, "nxn")) o.broad_phase = CC_BROAD_PHASE_NXN;
                else if (!strcmp(v, "sap")) o.broad_phase = CC_BROAD_PHASE_SAP;
                else if (!strcmp(v, "explicit")) o.broad_phase = CC_BROAD_PHASE_EXPLICIT;
                else return bad_usage(cmd, "unknown broad phase '%s' (auto, nxn, sap, explicit)", v);
            } else if (!strcmp(a, "--mesh-mode")) {
                if (!strcmp(v, "hull")) o.mesh_mode = CC_MJCF_MESH_AS_CONVEX_HULL;
                else if (!strcmp(v, "mesh")) o.mesh_mode = CC_MJCF_MESH_AS_MESH;
                else return bad_usage(cmd, "unknown mesh mode '%s' (hull, mesh)", v);
            } else if (!strcmp(a, "--matching")) {
                if (!strcmp(v, "latest")) o.matching = CC_MATCHING_LATEST;
                else if (!strcmp(v, "sticky")) o.matching = CC_MATCHING_STICKY;
                else return bad_usage(cmd, "unknown matching mode '%s' (latest, sticky)", v);
                o.deterministic = 1;
            } else if (!strcmp(a, "--sdf")) {
                if (!positive_int(v, &o.sdf_resolution) || o.sdf_resolution % 8 || o.sdf_resolution > 2048)
                    return bad_usage(cmd, "--sdf wants a resolution: a multiple of 8 from 8 to 2048, not '%s'", v);
            } else if (!strcmp(a, "--sdf-cache")) {
                o.sdf_cache = v;
            } else if (!strcmp(a, "--csv")) {
                o.csv = v;
            } else {
                o.json = v;
            }
        } else {
            return bad_usage(cmd, "unknown option '%s'", a);
        }
    }
    if (!o.scene) return bad_usage(cmd, "%s", "no scene file given");
    if (o.csv && o.json) return bad_usage(cmd, "%s", "give --csv or --json, not both");
    if (o.quiet && o.verbose) return bad_usage(cmd, "%s", "give --quiet or --verbose, not both");
    if ((o.sdf_resolution || o.sdf_cache) && o.mesh_mode != CC_MJCF_MESH_AS_MESH)
        return bad_usage(cmd, "%s", "--sdf and --sdf-cache are for triangle meshes: add --mesh-mode mesh");
    if (o.sdf_cache && !o.sdf_resolution) return bad_usage(cmd, "%s", "--sdf-cache needs --sdf R");
    if (!o.quiet) cc_set_log_callback(print_log, NULL);
    return run(&o);
}
