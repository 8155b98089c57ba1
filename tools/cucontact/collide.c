/* cucontact collide: one pass on the initial pose, contacts to CSV or JSON
 * and a summary on stdout. A pass that overflows a buffer is rerun once with
 * the capacities it reported (cli_scene_open_fitted), so that every contact
 * is written, or the command fails naming the buffer. */
#include <stdlib.h>
#include <string.h>

#include "tools/cucontact/cli.h"

typedef struct contact_row {
    int world, shape0, shape1;
    float distance;
    double p0[3], p1[3], n[3];
} contact_row;

static void rotate(cc_quat q, const double v[3], double out[3])
{
    double u[3] = {q.x, q.y, q.z}, w = q.w;
    double t[3] = {2.0 * (u[1] * v[2] - u[2] * v[1]), 2.0 * (u[2] * v[0] - u[0] * v[2]), 2.0 * (u[0] * v[1] - u[1] * v[0])};
    out[0] = v[0] + w * t[0] + (u[1] * t[2] - u[2] * t[1]);
    out[1] = v[1] + w * t[1] + (u[2] * t[0] - u[0] * t[2]);
    out[2] = v[2] + w * t[2] + (u[0] * t[1] - u[1] * t[0]);
}

/* World point of a body-frame point (body -1: already world). */
static void to_world(const cc_transform* poses, int body, cc_vec3 p, double out[3])
{
    double v[3] = {p.x, p.y, p.z};
    if (body < 0) {
        memcpy(out, v, sizeof v);
        return;
    }
    rotate(poses[body].q, v, out);
    out[0] += poses[body].p.x, out[1] += poses[body].p.y, out[2] += poses[body].p.z;
}

/* The shape's name, or #index. */
static const char* shape_label(const cc_builder* b, int shape, char* buf, size_t size)
{
    const char* name = cc_builder_shape_name(b, shape);
    if (name) return name;
    snprintf(buf, size, "#%d", shape);
    return buf;
}

static void csv_field(FILE* f, const char* s)
{
    if (!strpbrk(s, ",\"\n\r")) {
        fputs(s, f);
        return;
    }
    fputc('"', f);
    for (; *s; ++s) {
        if (*s == '"') fputc('"', f);
        fputc(*s, f);
    }
    fputc('"', f);
}

static void json_string(FILE* f, const char* s)
{
    fputc('"', f);
    for (; *s; ++s) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\') fprintf(f, "\\%c", c);
        else if (c < 0x20) fprintf(f, "\\u%04x", c);
        else fputc(c, f);
    }
    fputc('"', f);
}

static int write_csv(const char* path, const cc_builder* b, const contact_row* rows, int n)
{
    FILE* f = fopen(path, "w");
    if (!f) return fprintf(stderr, "cucontact: cannot write '%s'\n", path), 0;
    fprintf(f, "world,shape0,shape1,name0,name1,distance,point0_x,point0_y,point0_z,point1_x,point1_y,point1_z,normal_x,normal_y,normal_z\n");
    char b0[32], b1[32];
    for (int i = 0; i < n; ++i) {
        const contact_row* r = &rows[i];
        fprintf(f, "%d,%d,%d,", r->world, r->shape0, r->shape1);
        csv_field(f, shape_label(b, r->shape0, b0, sizeof b0));
        fputc(',', f);
        csv_field(f, shape_label(b, r->shape1, b1, sizeof b1));
        fprintf(f, ",%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g\n", r->distance, r->p0[0], r->p0[1], r->p0[2],
                r->p1[0], r->p1[1], r->p1[2], r->n[0], r->n[1], r->n[2]);
    }
    int ok = !ferror(f);
    if (fclose(f) != 0) ok = 0;
    if (!ok) fprintf(stderr, "cucontact: error writing '%s'\n", path);
    return ok;
}

static int write_json(const char* path, const cli_options* o, const cc_builder* b, const contact_row* rows, int n)
{
    FILE* f = fopen(path, "w");
    if (!f) return fprintf(stderr, "cucontact: cannot write '%s'\n", path), 0;
    fprintf(f, "{\"scene\": ");
    json_string(f, o->scene);
    fprintf(f, ", \"worlds\": %d, \"contacts\": [", o->worlds);
    char b0[32], b1[32];
    for (int i = 0; i < n; ++i) {
        const contact_row* r = &rows[i];
        fprintf(f, "%s\n  {\"world\": %d, \"shape0\": %d, \"shape1\": %d, \"name0\": ", i ? "," : "", r->world, r->shape0, r->shape1);
        json_string(f, shape_label(b, r->shape0, b0, sizeof b0));
        fprintf(f, ", \"name1\": ");
        json_string(f, shape_label(b, r->shape1, b1, sizeof b1));
        fprintf(f, ", \"distance\": %.9g, \"point0\": [%.9g, %.9g, %.9g], \"point1\": [%.9g, %.9g, %.9g], \"normal\": [%.9g, %.9g, %.9g]}",
                r->distance, r->p0[0], r->p0[1], r->p0[2], r->p1[0], r->p1[1], r->p1[2], r->n[0], r->n[1], r->n[2]);
    }
    fprintf(f, "\n]}\n");
    int ok = !ferror(f);
    if (fclose(f) != 0) ok = 0;
    if (!ok) fprintf(stderr, "cucontact: error writing '%s'\n", path);
    return ok;
}

/* Shape counts by type, "box 12, sphere 3". */
static void shapes_by_type(const cc_builder* b, char* out, size_t size)
{
    int count[CC_SHAPE_TYPE_COUNT] = {0};
    for (int i = 0; i < cc_builder_shape_count(b); ++i) {
        cc_shape_info si;
        if (cc_builder_get_shape_info(b, i, &si) == CC_OK) count[si.type]++;
    }
    out[0] = '\0';
    for (int t = 0; t < CC_SHAPE_TYPE_COUNT; ++t)
        if (count[t]) {
            size_t n = strlen(out);
            snprintf(out + n, size - n, "%s%s %d", n ? ", " : "", cc_shape_type_name((cc_shape_type)t), count[t]);
        }
}

int cli_collide(const cli_options* o)
{
    cli_scene s;
    if (!cli_scene_open_fitted(o, "collide", &s)) return CLI_FAILED;
    cc_overflow ov;
    cc_status st = cc_pipeline_get_overflow(s.pipeline, &ov);
    if (st != CC_OK) {
        cli_scene_close(&s);
        return cli_fail("collide", st);
    }
    int capacity = cc_contacts_capacity(s.contacts), n = 0;
    int bodies = cc_builder_body_count(s.builder), shapes = cc_builder_shape_count(s.builder);
    cc_contact* raw = (cc_contact*)malloc(sizeof(cc_contact) * (size_t)(capacity + 1));
    contact_row* rows = (contact_row*)malloc(sizeof(contact_row) * (size_t)(capacity + 1));
    cc_transform* poses = (cc_transform*)malloc(sizeof(cc_transform) * (size_t)(bodies + 1));
    cc_shape_info* info = (cc_shape_info*)malloc(sizeof(cc_shape_info) * (size_t)(shapes + 1));
    int ok = raw && rows && poses && info;
    if (!ok) fprintf(stderr, "cucontact: collide: out of memory\n");
    if (ok && (st = cc_contacts_download(s.contacts, s.state, raw, capacity, &n)) != CC_OK) ok = !cli_fail("reading contacts", st);
    if (ok && bodies && (st = cc_state_get_body_poses(s.state, 0, bodies, poses)) != CC_OK) ok = !cli_fail("reading poses", st);
    for (int i = 0; ok && i < shapes; ++i) cc_builder_get_shape_info(s.builder, i, &info[i]);
    int by_route[CC_SHAPE_TYPE_COUNT][CC_SHAPE_TYPE_COUNT];
    memset(by_route, 0, sizeof by_route);
    for (int i = 0; ok && i < n; ++i) {
        const cc_contact* c = &raw[i];
        const cc_shape_info *a = &info[c->shape0], *b = &info[c->shape1];
        contact_row* r = &rows[i];
        r->world = a->world >= 0 ? a->world : b->world;
        r->shape0 = c->shape0;
        r->shape1 = c->shape1;
        r->distance = c->distance;
        r->n[0] = c->normal.x, r->n[1] = c->normal.y, r->n[2] = c->normal.z;
        /* Surface points: the core point moved along the normal by the
         * effective radius (thickness less margin). */
        double w0[3], w1[3], r0 = c->thickness0 - a->margin, r1 = c->thickness1 - b->margin;
        to_world(poses, a->body, c->point0, w0);
        to_world(poses, b->body, c->point1, w1);
        for (int k = 0; k < 3; ++k) r->p0[k] = w0[k] + r->n[k] * r0, r->p1[k] = w1[k] - r->n[k] * r1;
        int lo = a->type < b->type ? a->type : b->type, hi = a->type < b->type ? b->type : a->type;
        by_route[lo][hi]++;
    }
    if (ok && o->csv) ok = write_csv(o->csv, s.builder, rows, n);
    if (ok && o->json) ok = write_json(o->json, o, s.builder, rows, n);
    if (ok) {
        char types[512], skipped[128];
        shapes_by_type(s.builder, types, sizeof types);
        printf("scene: %s\n", o->scene);
        printf("device: %s, worlds: %d, bodies: %d\n", o->device.kind == CC_DEVICE_CUDA ? "cuda" : "cpu",
               cc_builder_world_count(s.builder), bodies);
        printf("shapes: %d (%s)\n", shapes, types);
        printf("candidate pairs: %d\n", ov.pairs_needed);
        printf("contacts: %d\n", n);
        printf("contacts by pair type:%s\n", n ? "" : " none");
        for (int x = 0; x < CC_SHAPE_TYPE_COUNT; ++x)
            for (int y = 0; y < CC_SHAPE_TYPE_COUNT; ++y)
                if (by_route[x][y]) {
                    char name[64];
                    cli_pair_name((cc_shape_type)x, (cc_shape_type)y, name, sizeof name);
                    printf("  %-24s %d\n", name, by_route[x][y]);
                }
        cli_unsupported_types(s.builder, skipped, sizeof skipped);
        if (s.info.unsupported_pairs > 0 || skipped[0])
            printf("%lld shape pairs skipped: no narrow-phase route yet for %s\n", (long long)s.info.unsupported_pairs,
                   skipped[0] ? skipped : "some types");
        if (o->csv) printf("wrote %d contacts to %s\n", n, o->csv);
        if (o->json) printf("wrote %d contacts to %s\n", n, o->json);
    }
    free(raw);
    free(rows);
    free(poses);
    free(info);
    cli_scene_close(&s);
    return ok ? CLI_OK : CLI_FAILED;
}
