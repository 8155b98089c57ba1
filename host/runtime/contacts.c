/* The contact buffer: one block of SoA columns on the device, and its
 * download to host rows with the derived friction offsets. */
#include <string.h>

#include "host/runtime/pipeline_internal.h"

/* X(type, name) for every per-row column of cc_contacts_view. */
#define CC_CONTACT_COLUMNS(X) \
    X(int, shape0)            \
    X(int, shape1)            \
    X(cc_vec3, point0)        \
    X(cc_vec3, point1)        \
    X(cc_vec3, normal)        \
    X(float, thickness0)      \
    X(float, thickness1)      \
    X(float, distance)        \
    X(int, speculative)

static size_t align16(size_t n) { return (n + 15) & ~(size_t)15; }

size_t cc_contact_columns_layout(cc_contacts_view* v, int rows, char* base)
{
    size_t off = 16; /* the count lives first */
    if (base) v->count = (int*)base;
#define CC_PLACE(type, name)                                  \
    if (base) v->name = (type*)(base + off);                  \
    off += align16(sizeof(type) * (size_t)rows);
    CC_CONTACT_COLUMNS(CC_PLACE)
#undef CC_PLACE
    return off;
}

/* The columns plus the matching and report columns the pipeline asks for. */
static size_t contact_layout(cc_contacts_view* v, int rows, int matching, int report, char* base)
{
    size_t off = cc_contact_columns_layout(v, rows, base);
    int* ints = base ? (int*)(base + off) : NULL;
    if (matching) {
        /* match_generation, generation, new_count, broken_count share 16 bytes. */
        if (base) {
            v->match_generation = ints;
            v->generation = ints + 1;
            v->match_index = ints + 4;
        }
        off += 16 + align16(sizeof(int) * (size_t)rows);
    }
    if (report) {
        if (base) {
            v->new_count = ints + 2;
            v->broken_count = ints + 3;
            v->new_indices = (int*)(base + off);
            v->broken_indices = (int*)(base + off + align16(sizeof(int) * (size_t)rows));
        }
        off += 2 * align16(sizeof(int) * (size_t)rows);
    }
    return off;
}

cc_status cc_contacts_create(const cc_pipeline* p, cc_contacts** out)
{
    if (!p || !out) return cc_fail(CC_ERR_INVALID_ARGUMENT, "cc_contacts_create: pipeline or out is NULL");
    cc_status active = cc_model_activate(p->model);
    if (active != CC_OK) return active;
    cc_contacts* c = (cc_contacts*)cc_host_calloc(1, sizeof *c);
    if (!c) return cc_fail(CC_ERR_OUT_OF_MEMORY, "cc_contacts_create: out of host memory");
    static int next_id;
    int rows = p->info.rigid_contact_max;
    int matching = p->def.contact_matching != CC_MATCHING_DISABLED, report = p->def.contact_report;
    size_t bytes = contact_layout(&c->view, rows, matching, report, NULL);
    cc_status s = cc_device_alloc(p->backend, bytes, &c->block);
    if (s != CC_OK) {
        cc_host_free(c);
        return s;
    }
    contact_layout(&c->view, rows, matching, report, (char*)c->block);
    c->view.capacity = rows;
    c->model = p->model;
    c->id = next_id++;
    c->speculative = p->horizon != NULL;
    /* Count 0; generations: none yet, matched against nothing (-1). */
    int header[4] = {0, 0, 0, 0};
    s = p->backend->upload(c->view.count, header, sizeof header);
    if (s == CC_OK && matching) {
        int gens[4] = {-1, 0, 0, 0};
        s = p->backend->upload(c->view.match_generation, gens, sizeof gens);
    }
    if (s != CC_OK) {
        cc_contacts_destroy(c);
        return s;
    }
    cc_model_retain(c->model);
    *out = c;
    return cc_ok();
}

cc_status cc_contacts_download_report(const cc_contacts* c, int* new_indices, int max_new, int* new_count,
                                      int* broken_indices, int max_broken, int* broken_count)
{
    static const char* what = "cc_contacts_download_report";
    if (!c || !new_count || !broken_count || (max_new > 0 && !new_indices) || (max_broken > 0 && !broken_indices))
        return cc_fail(CC_ERR_INVALID_ARGUMENT, "%s: contacts, a count or an index array is NULL", what);
    if (!c->view.new_indices)
        return cc_fail(CC_ERR_INVALID_STATE, "%s: the buffer has no reports; create its pipeline with contact_report = 1 and a matching mode", what);
    cc_status s = cc_model_activate(c->model);
    if (s != CC_OK) return s;
    const cc_backend* be = c->model->backend;
    s = be->download(new_count, c->view.new_count, sizeof(int));
    if (s == CC_OK) s = be->download(broken_count, c->view.broken_count, sizeof(int));
    int nn = *new_count < max_new ? *new_count : max_new;
    int nb = *broken_count < max_broken ? *broken_count : max_broken;
    if (s == CC_OK && nn > 0) s = be->download(new_indices, c->view.new_indices, sizeof(int) * (size_t)nn);
    if (s == CC_OK && nb > 0) s = be->download(broken_indices, c->view.broken_indices, sizeof(int) * (size_t)nb);
    return s == CC_OK ? cc_ok() : s;
}

cc_status cc_contacts_generations(const cc_contacts* c, int* generation, int* match_generation)
{
    if (!c || !generation || !match_generation)
        return cc_fail(CC_ERR_INVALID_ARGUMENT, "cc_contacts_generations: contacts or an output is NULL");
    if (!c->view.generation)
        return cc_fail(CC_ERR_INVALID_STATE, "cc_contacts_generations: the buffer has no matching; create its pipeline with a contact_matching mode");
    int g[2];
    cc_status s = cc_model_activate(c->model);
    if (s != CC_OK) return s;
    s = c->model->backend->download(g, c->view.match_generation, sizeof g);
    if (s != CC_OK) return s;
    *match_generation = g[0];
    *generation = g[1];
    return cc_ok();
}

void cc_contacts_destroy(cc_contacts* c)
{
    if (!c) return;
    const cc_model* m = c->model;
    cc_model_activate(m);
    if (c->block) m->backend->free(c->block);
    cc_host_free(c);
    cc_model_release(m);
}

cc_contacts_view cc_contacts_device_view(const cc_contacts* c)
{
    cc_contacts_view v;
    if (c) return c->view;
    memset(&v, 0, sizeof v);
    return v;
}

int cc_contacts_capacity(const cc_contacts* c) { return c ? c->view.capacity : 0; }

cc_status cc_contacts_count(const cc_contacts* c, int* out_count)
{
    if (!c || !out_count) return cc_fail(CC_ERR_INVALID_ARGUMENT, "cc_contacts_count: contacts or out_count is NULL");
    cc_status s = cc_model_activate(c->model);
    if (s == CC_OK) s = c->model->backend->download(out_count, c->view.count, sizeof *out_count);
    return s == CC_OK ? cc_ok() : s;
}

cc_status cc_contacts_download(const cc_contacts* c, const cc_state* state, cc_contact* out, int max,
                               int* out_count)
{
    static const char* what = "cc_contacts_download";
    if (!c || !state || !out_count || (max > 0 && !out))
        return cc_fail(CC_ERR_INVALID_ARGUMENT, "%s: contacts, state, out or out_count is NULL", what);
    if (state->model != c->model)
        return cc_fail(CC_ERR_MISMATCH, "%s: the state belongs to another model", what);
    cc_status s = cc_model_activate(c->model);
    if (s != CC_OK) return s;
    const cc_backend* be = c->model->backend;
    int count;
    s = be->download(&count, c->view.count, sizeof count);
    if (s != CC_OK) return s;
    int n = count < max ? count : max;
    if (n < 0) n = 0;
    *out_count = n;
    if (n == 0) return cc_ok();
    /* Stage the columns through one host block, then assemble rows. */
    cc_contacts_view h;
    memset(&h, 0, sizeof h);
    size_t bytes = contact_layout(&h, n, 0, 0, NULL) + sizeof(int) * (size_t)n;
    char* staging = (char*)cc_host_alloc(bytes);
    int nbody = c->model->host_view.body_count;
    cc_transform* poses = (cc_transform*)cc_host_alloc(sizeof(cc_transform) * (size_t)(nbody + 1));
    if (!staging || !poses) {
        cc_host_free(staging);
        cc_host_free(poses);
        return cc_fail(CC_ERR_OUT_OF_MEMORY, "%s: out of host memory", what);
    }
    contact_layout(&h, n, 0, 0, staging);
    int* match = (int*)(staging + bytes - sizeof(int) * (size_t)n);
#define CC_FETCH(type, name) \
    if (s == CC_OK) s = be->download(h.name, c->view.name, sizeof(type) * (size_t)n);
    CC_CONTACT_COLUMNS(CC_FETCH)
#undef CC_FETCH
    if (s == CC_OK && nbody) s = be->download(poses, state->body_pose, sizeof(cc_transform) * (size_t)nbody);
    if (s == CC_OK && c->view.match_index) s = be->download(match, c->view.match_index, sizeof(int) * (size_t)n);
    if (s == CC_OK) {
        const cc_shape_geometry* geom = c->model->host_view.shape_geom;
        for (int i = 0; i < n; ++i) {
            cc_contact* r = &out[i];
            r->shape0 = h.shape0[i];
            r->shape1 = h.shape1[i];
            r->point0 = h.point0[i];
            r->point1 = h.point1[i];
            r->normal = h.normal[i];
            r->thickness0 = h.thickness0[i];
            r->thickness1 = h.thickness1[i];
            r->distance = h.distance[i];
            r->speculative = h.speculative[i];
            r->match_index = c->view.match_index ? match[i] : -1;
            /* Friction offsets: +-normal * thickness, in each body's frame. */
            int b0 = geom[r->shape0].body, b1 = geom[r->shape1].body;
            cc_vec3 o0 = cc_v3_scale(r->normal, r->thickness0);
            cc_vec3 o1 = cc_v3_scale(r->normal, -r->thickness1);
            r->offset0 = b0 >= 0 ? cc_tf_vector_inv(poses[b0], o0) : o0;
            r->offset1 = b1 >= 0 ? cc_tf_vector_inv(poses[b1], o1) : o1;
        }
    }
    cc_host_free(staging);
    cc_host_free(poses);
    return s == CC_OK ? cc_ok() : s;
}
