/* The contact buffer: one block of SoA columns on the device, and its
 * download to host rows with the derived friction offsets. */
#include <string.h>

#include "pipeline_internal.h"

/* X(type, name) for every per-row column of cc_contacts_view. */
#define CC_CONTACT_COLUMNS(X) \
    X(int, shape0)            \
    X(int, shape1)            \
    X(cc_vec3, point0)        \
    X(cc_vec3, point1)        \
    X(cc_vec3, normal)        \
    X(float, thickness0)      \
    X(float, thickness1)      \
    X(float, distance)

static size_t align16(size_t n) { return (n + 15) & ~(size_t)15; }

/* Bytes of the block for `rows` rows; assigns the column pointers when base is set. */
static size_t contact_layout(cc_contacts_view* v, int rows, char* base)
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

cc_status cc_contacts_create(const cc_pipeline* p, cc_contacts** out)
{
    if (!p || !out) return cc_fail(CC_ERR_INVALID_ARGUMENT, "cc_contacts_create: pipeline or out is NULL");
    cc_contacts* c = (cc_contacts*)cc_host_calloc(1, sizeof *c);
    if (!c) return cc_fail(CC_ERR_OUT_OF_MEMORY, "cc_contacts_create: out of host memory");
    int rows = p->info.rigid_contact_max;
    size_t bytes = contact_layout(&c->view, rows, NULL);
    cc_status s = cc_device_alloc(p->backend, bytes, &c->block);
    if (s != CC_OK) {
        cc_host_free(c);
        return s;
    }
    contact_layout(&c->view, rows, (char*)c->block);
    c->view.capacity = rows;
    c->model = p->model;
    int zero = 0;
    s = p->backend->upload(c->view.count, &zero, sizeof zero);
    if (s != CC_OK) {
        cc_contacts_destroy(c);
        return s;
    }
    *out = c;
    return cc_ok();
}

void cc_contacts_destroy(cc_contacts* c)
{
    if (!c) return;
    if (c->block) c->model->backend->free(c->block);
    cc_host_free(c);
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
    cc_status s = c->model->backend->download(out_count, c->view.count, sizeof *out_count);
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
    const cc_backend* be = c->model->backend;
    int count;
    cc_status s = be->download(&count, c->view.count, sizeof count);
    if (s != CC_OK) return s;
    int n = count < max ? count : max;
    *out_count = count;
    if (n <= 0) return cc_ok();
    /* Stage the columns through one host block, then assemble rows. */
    cc_contacts_view h;
    size_t bytes = contact_layout(&h, n, NULL);
    char* staging = (char*)cc_host_alloc(bytes);
    int nbody = c->model->host_view.body_count;
    cc_transform* poses = (cc_transform*)cc_host_alloc(sizeof(cc_transform) * (size_t)(nbody + 1));
    if (!staging || !poses) {
        cc_host_free(staging);
        cc_host_free(poses);
        return cc_fail(CC_ERR_OUT_OF_MEMORY, "%s: out of host memory", what);
    }
    contact_layout(&h, n, staging);
#define CC_FETCH(type, name) \
    if (s == CC_OK) s = be->download(h.name, c->view.name, sizeof(type) * (size_t)n);
    CC_CONTACT_COLUMNS(CC_FETCH)
#undef CC_FETCH
    if (s == CC_OK && nbody) s = be->download(poses, state->body_pose, sizeof(cc_transform) * (size_t)nbody);
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
