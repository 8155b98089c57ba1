/* The model builder: bodies, shapes, worlds and filter pairs, validated at
 * the boundary so that a rejected call changes nothing. */
#include <math.h>
#include <string.h>

#include "host/model/builder_internal.h"
#include "host/geometry/mesh_topology.h"


cc_builder_def cc_default_builder_def(void)
{
    cc_builder_def d;
    d.rigid_gap = 0.1f;
    d.gravity.x = 0.0f;
    d.gravity.y = 0.0f;
    d.gravity.z = -9.81f;
    d.cookie = CC_DEF_COOKIE;
    return d;
}

static cc_transform identity_transform(void)
{
    cc_transform t = {{0.0f, 0.0f, 0.0f}, {0.0f, 0.0f, 0.0f, 1.0f}};
    return t;
}

cc_body_def cc_default_body_def(void)
{
    cc_body_def d;
    d.pose = identity_transform();
    d.is_static = 0;
    d.parent = -1;
    d.world = CC_WORLD_CURRENT;
    d.cookie = CC_DEF_COOKIE;
    return d;
}

cc_shape_def cc_default_shape_def(void)
{
    cc_shape_def d;
    d.local = identity_transform();
    d.margin = 0.0f;
    d.gap = CC_GAP_FROM_BUILDER;
    d.collision_group = 1;
    d.collision_filter_parent = 1;
    d.has_shape_collision = 1;
    d.collision_type_bits = 0xFFFFFFFFu;
    d.collision_affinity_bits = 0xFFFFFFFFu;
    d.world = CC_WORLD_CURRENT;
    d.density = 1000.0f;
    d.material = cc_default_material();
    d.compliant = cc_default_compliant_params();
    d.sdf_max_resolution = 0;
    d.sdf_target_voxel_size = 0.0f;
    d.sdf_narrow_band_inner = -0.1f;
    d.sdf_narrow_band_outer = 0.1f;
    d.sdf_padding = -1.0f;
    d.cookie = CC_DEF_COOKIE;
    return d;
}

static void mesh_data_free(cc_mesh_data* m)
{
    cc_host_free(m->vertices);
    cc_host_free(m->triangles);
    cc_host_free(m->label);
    cc_host_free(m->edges);
    memset(m, 0, sizeof *m);
}

static char* copy_text(const char* s)
{
    size_t n = strlen(s) + 1;
    char* c = (char*)cc_host_alloc(n);
    if (c) memcpy(c, s, n);
    return c;
}

cc_status cc_builder_label_mesh(cc_builder* b, int mesh, const char* label)
{
    if (!b || mesh < 0 || mesh >= b->mesh_count || !label)
        return cc_fail(CC_ERR_INVALID_ARGUMENT, "cc_builder_label_mesh: no mesh %d or no label", mesh);
    char* c = copy_text(label);
    if (!c) return cc_fail(CC_ERR_OUT_OF_MEMORY, "cc_builder_label_mesh: out of host memory");
    cc_host_free(b->meshes[mesh].label);
    b->meshes[mesh].label = c;
    return CC_OK;
}

cc_status cc_builder_create(const cc_builder_def* def, cc_builder** out)
{
    if (!out) return cc_fail(CC_ERR_INVALID_ARGUMENT, "cc_builder_create: out is NULL; pass the address of a cc_builder* to receive the builder");
    cc_builder_def d = def ? *def : cc_default_builder_def();
    if (d.cookie != CC_DEF_COOKIE)
        return cc_fail(CC_ERR_UNINITIALIZED_DEF, "cc_builder_create: the def was not made by cc_default_builder_def(); start from it and change fields");
    if (!isfinite(d.rigid_gap))
        return cc_fail(CC_ERR_NOT_FINITE, "cc_builder_create: rigid_gap is not finite; give a distance in metres");
    if (d.rigid_gap < 0.0f)
        return cc_fail(CC_ERR_INVALID_ARGUMENT, "cc_builder_create: rigid_gap %g is negative; use 0 or a positive distance", (double)d.rigid_gap);
    if (!cc_is_finite_vec3(d.gravity))
        return cc_fail(CC_ERR_NOT_FINITE, "cc_builder_create: gravity holds NaN or infinity; give an acceleration in m/s^2");
    cc_builder* b = (cc_builder*)cc_host_calloc(1, sizeof *b);
    if (!b) return cc_fail(CC_ERR_OUT_OF_MEMORY, "cc_builder_create: out of host memory");
    b->rigid_gap = d.rigid_gap;
    b->gravity = d.gravity;
    b->open_world = -1;
    *out = b;
    return cc_ok();
}

void cc_builder_destroy(cc_builder* b)
{
    if (!b) return;
    cc_host_free(b->bodies);
    cc_host_free(b->shapes);
    cc_host_free(b->filters);
    cc_host_free(b->contact_pairs);
    for (int i = 0; i < b->hull_count; ++i) cc_hull_data_free(&b->hulls[i]);
    cc_host_free(b->hulls);
    for (int i = 0; i < b->mesh_count; ++i) mesh_data_free(&b->meshes[i]);
    cc_host_free(b->meshes);
    for (int i = 0; i < b->hfield_count; ++i) cc_host_free(b->hfields[i].heights);
    cc_host_free(b->hfields);
    for (int i = 0; i < b->sdf_count; ++i) cc_sdf_data_free(&b->sdfs[i].data);
    cc_host_free(b->sdfs);
    for (int i = 0; i < b->name_count; ++i) cc_host_free(b->names[i]);
    cc_host_free(b->names);
    cc_host_free(b->blocks);
    cc_host_free(b);
}

int cc_builder_body_count(const cc_builder* b) { return b ? b->body_count : 0; }
int cc_builder_shape_count(const cc_builder* b) { return b ? b->shape_count : 0; }
int cc_builder_world_count(const cc_builder* b) { return b ? b->world_count : 0; }
int cc_builder_mesh_count(const cc_builder* b) { return b ? b->mesh_count : 0; }
int cc_builder_heightfield_count(const cc_builder* b) { return b ? b->hfield_count : 0; }

/* Resolves a def's world field into -1 .. world_count-1. */
static cc_status resolve_world(const cc_builder* b, int requested, const char* what, int* out)
{
    if (requested == CC_WORLD_CURRENT) {
        *out = b->open_world;
        return CC_OK;
    }
    if (requested < -1 || requested >= b->world_count)
        return cc_fail(CC_ERR_WORLD_OUT_OF_RANGE,
                       "%s: world %d is out of range; use -1 (global), CC_WORLD_CURRENT or a world "
                       "created by begin_world/add_world/replicate (0..%d)",
                       what, requested, b->world_count - 1);
    *out = requested;
    return CC_OK;
}

/* Unit quaternion of a user pose; rejects near-zero quaternions. */
static cc_status normalize_pose(cc_transform* t, const char* what)
{
    if (!cc_is_finite_transform(*t))
        return cc_fail(CC_ERR_NOT_FINITE, "%s: the pose holds NaN or infinity; give finite position and quaternion", what);
    /* Scale by the largest component first so that squaring cannot overflow. */
    cc_quat q = t->q;
    float big = fmaxf(fmaxf(fabsf(q.x), fabsf(q.y)), fmaxf(fabsf(q.z), fabsf(q.w)));
    if (!(big > 1.0e-6f))
        return cc_fail(CC_ERR_INVALID_ARGUMENT, "%s: the pose quaternion has zero length; use (0,0,0,1) for no rotation", what);
    q.x /= big;
    q.y /= big;
    q.z /= big;
    q.w /= big;
    float n = sqrtf(q.x * q.x + q.y * q.y + q.z * q.z + q.w * q.w);
    t->q.x = q.x / n;
    t->q.y = q.y / n;
    t->q.z = q.z / n;
    t->q.w = q.w / n;
    return CC_OK;
}

cc_status cc_builder_add_body(cc_builder* b, const cc_body_def* def, int* out_body)
{
    static const char* what = "cc_builder_add_body";
    if (!b) return cc_fail(CC_ERR_INVALID_ARGUMENT, "%s: builder is NULL", what);
    cc_body_def d = def ? *def : cc_default_body_def();
    if (d.cookie != CC_DEF_COOKIE)
        return cc_fail(CC_ERR_UNINITIALIZED_DEF, "%s: the def was not made by cc_default_body_def(); start from it and change fields", what);
    cc_status s = normalize_pose(&d.pose, what);
    if (s != CC_OK) return s;
    if (d.parent < -1 || d.parent >= b->body_count)
        return cc_fail(CC_ERR_INVALID_BODY, "%s: parent body %d does not exist (the builder holds %d bodies); use -1 for none", what, d.parent, b->body_count);
    int world = -1;
    s = resolve_world(b, d.world, what, &world);
    if (s != CC_OK) return s;
    if (!cc_reserve((void**)&b->bodies, &b->body_capacity, b->body_count + 1, sizeof *b->bodies))
        return cc_fail(CC_ERR_OUT_OF_MEMORY, "%s: out of host memory", what);
    cc_body_record* r = &b->bodies[b->body_count];
    r->pose = d.pose;
    r->is_static = d.is_static != 0;
    r->parent = d.parent;
    r->world = world;
    r->has_explicit_mass = 0;
    memset(&r->mass, 0, sizeof r->mass);
    if (out_body) *out_body = b->body_count;
    b->body_count++;
    return cc_ok();
}

static cc_status validate_size(cc_shape_type type, cc_vec3 size, const char* what)
{
    if (!cc_is_finite_vec3(size))
        return cc_fail(CC_ERR_NOT_FINITE, "%s: the %s size holds NaN or infinity; give finite dimensions in metres", what, cc_shape_type_name(type));
    /* Dimensions (and scales) outside the range float arithmetic holds
     * with room: a 1e30 m box has an infinite mass, a 1e-45 m one none. */
    float comps[3] = {size.x, size.y, size.z};
    for (int k = 0; k < 3; ++k)
        if (comps[k] != 0.0f && (fabsf(comps[k]) < CC_SIZE_MIN || fabsf(comps[k]) > CC_SIZE_MAX))
            return cc_fail(CC_ERR_INVALID_SIZE, "%s: the %s size (%g, %g, %g) has a dimension outside [%g, %g]; give sizes in metres within that range", what,
                           cc_shape_type_name(type), (double)size.x, (double)size.y, (double)size.z, (double)CC_SIZE_MIN, (double)CC_SIZE_MAX);
    switch (type) {
    case CC_SHAPE_PLANE:
        if (size.x < 0.0f || size.y < 0.0f || ((size.x == 0.0f) != (size.y == 0.0f)))
            return cc_fail(CC_ERR_INVALID_SIZE, "%s: plane half extents (%g, %g) are invalid; give both > 0 for a finite plane or both 0 for an infinite one", what, (double)size.x, (double)size.y);
        return CC_OK;
    case CC_SHAPE_SPHERE:
        if (!(size.x > 0.0f))
            return cc_fail(CC_ERR_INVALID_SIZE, "%s: sphere radius %g must be > 0", what, (double)size.x);
        return CC_OK;
    case CC_SHAPE_CAPSULE:
        if (!(size.x > 0.0f) || size.y < 0.0f)
            return cc_fail(CC_ERR_INVALID_SIZE, "%s: capsule radius %g must be > 0 and half height %g must be >= 0", what, (double)size.x, (double)size.y);
        return CC_OK;
    case CC_SHAPE_BOX:
        if (!(size.x > 0.0f && size.y > 0.0f && size.z > 0.0f))
            return cc_fail(CC_ERR_INVALID_SIZE, "%s: box half extents (%g, %g, %g) must all be > 0", what, (double)size.x, (double)size.y, (double)size.z);
        return CC_OK;
    case CC_SHAPE_CYLINDER:
    case CC_SHAPE_CONE:
        if (!(size.x > 0.0f && size.y > 0.0f))
            return cc_fail(CC_ERR_INVALID_SIZE, "%s: %s radius %g and half height %g must both be > 0", what, cc_shape_type_name(type), (double)size.x, (double)size.y);
        return CC_OK;
    case CC_SHAPE_ELLIPSOID:
        if (!(size.x > 0.0f && size.y > 0.0f && size.z > 0.0f))
            return cc_fail(CC_ERR_INVALID_SIZE, "%s: ellipsoid semi-axes (%g, %g, %g) must all be > 0", what, (double)size.x, (double)size.y, (double)size.z);
        return CC_OK;
    case CC_SHAPE_CONVEX_HULL:
    case CC_SHAPE_MESH:
        if (!(size.x > 0.0f && size.y > 0.0f && size.z > 0.0f))
            return cc_fail(CC_ERR_INVALID_SIZE, "%s: %s scale (%g, %g, %g) must be > 0 on every axis", what, cc_shape_type_name(type), (double)size.x, (double)size.y, (double)size.z);
        return CC_OK;
    case CC_SHAPE_HEIGHTFIELD:
        if (!(size.x > 0.0f && size.y > 0.0f && size.z > 0.0f))
            return cc_fail(CC_ERR_INVALID_SIZE, "%s: heightfield size (%g, %g, %g) must be > 0: half extents x and y and the vertical scale", what, (double)size.x, (double)size.y, (double)size.z);
        return CC_OK;
    default:
        return CC_OK;
    }
}

/* Appends a validated record; used by the public call and by world copies. */
static cc_status push_shape(cc_builder* b, const cc_shape_record* r, int* out_shape)
{
    if (!cc_reserve((void**)&b->shapes, &b->shape_capacity, b->shape_count + 1, sizeof *b->shapes))
        return cc_fail(CC_ERR_OUT_OF_MEMORY, "cc_builder_add_shape: out of host memory");
    b->shapes[b->shape_count] = *r;
    if (out_shape) *out_shape = b->shape_count;
    b->shape_count++;
    return CC_OK;
}

/* The SDF a shape def asks for: primitives and hulls only (a mesh's comes
 * from cc_builder_build_mesh_sdf, and planes and heightfields have no
 * bounded inside). */
static cc_status shape_sdf(cc_builder* b, cc_shape_record* r, const cc_shape_def* d, const char* what)
{
    if (r->type == CC_SHAPE_MESH)
        return cc_fail(CC_ERR_INVALID_ARGUMENT, "%s: sdf_max_resolution or sdf_target_voxel_size is set on a mesh shape; build a mesh's SDF with cc_builder_build_mesh_sdf", what);
    if (r->type == CC_SHAPE_PLANE || r->type == CC_SHAPE_HEIGHTFIELD)
        return cc_fail(CC_ERR_UNSUPPORTED, "%s: a %s has no bounded inside for an SDF; leave sdf_max_resolution and sdf_target_voxel_size at 0", what, cc_shape_type_name((cc_shape_type)r->type));
    if (!isfinite(d->sdf_padding))
        return cc_fail(CC_ERR_NOT_FINITE, "%s: sdf_padding is not finite; give metres, or a negative value for the shape's margin + gap", what);
    cc_sdf_def def = cc_default_sdf_def();
    def.max_resolution = d->sdf_max_resolution ? d->sdf_max_resolution : def.max_resolution;
    def.target_voxel_size = d->sdf_target_voxel_size;
    def.narrow_band_inner = d->sdf_narrow_band_inner;
    def.narrow_band_outer = d->sdf_narrow_band_outer;
    def.margin = d->sdf_padding >= 0.0f ? d->sdf_padding : r->margin + r->gap;
    return cc_sdf_of_primitive(b, r->type, r->size, r->source, &def, what, &r->sdf);
}

/* Validates and appends a shape of any type; `source` is the hull, mesh or
 * heightfield index (checked by the caller), else -1. */
static cc_status add_shape(cc_builder* b, int body, cc_shape_type type, cc_vec3 size, int source,
                           const cc_shape_def* def, int* out_shape, const char* what)
{
    if (!b) return cc_fail(CC_ERR_INVALID_ARGUMENT, "%s: builder is NULL", what);
    cc_shape_def d = def ? *def : cc_default_shape_def();
    if (d.cookie != CC_DEF_COOKIE)
        return cc_fail(CC_ERR_UNINITIALIZED_DEF, "%s: the def was not made by cc_default_shape_def(); start from it and change fields", what);
    if ((int)type < 0 || type >= CC_SHAPE_TYPE_COUNT)
        return cc_fail(CC_ERR_INVALID_ARGUMENT, "%s: shape type %d is not a cc_shape_type value", what, (int)type);
    if (type > CC_SHAPE_HEIGHTFIELD)
        return cc_fail(CC_ERR_UNSUPPORTED, "%s: %s shapes are not supported by this build yet; use a plane, a primitive, a convex hull, a mesh or a heightfield", what, cc_shape_type_name(type));
    if (type == CC_SHAPE_CONVEX_HULL && source < 0)
        return cc_fail(CC_ERR_INVALID_ARGUMENT, "%s: a convex hull needs its points; build them with cc_builder_add_convex_hull_data and add the shape with cc_builder_add_convex_hull", what);
    if (type == CC_SHAPE_MESH && source < 0)
        return cc_fail(CC_ERR_INVALID_ARGUMENT, "%s: a mesh needs its triangles; store them with cc_builder_add_mesh_data and add the shape with cc_builder_add_mesh", what);
    if (type == CC_SHAPE_HEIGHTFIELD && source < 0)
        return cc_fail(CC_ERR_INVALID_ARGUMENT, "%s: a heightfield needs its samples; store them with cc_builder_add_heightfield_data and add the shape with cc_builder_add_heightfield", what);
    if (body < -1 || body >= b->body_count)
        return cc_fail(CC_ERR_INVALID_BODY, "%s: body %d does not exist (the builder holds %d bodies); use -1 (CC_BODY_WORLD) for the world frame", what, body, b->body_count);
    if (type == CC_SHAPE_HEIGHTFIELD && body >= 0 && !b->bodies[body].is_static)
        return cc_fail(CC_ERR_UNSUPPORTED, "%s: body %d is dynamic, but a heightfield is static geometry; put it on CC_BODY_WORLD or on a static body", what, body);
    cc_status s = validate_size(type, size, what);
    if (s != CC_OK) return s;
    s = normalize_pose(&d.local, what);
    if (s != CC_OK) return s;
    if (!isfinite(d.margin) || !isfinite(d.gap))
        return cc_fail(CC_ERR_NOT_FINITE, "%s: margin or gap is not finite", what);
    if (d.margin < 0.0f)
        return cc_fail(CC_ERR_INVALID_ARGUMENT, "%s: margin %.9g is negative; use 0 or a positive offset in metres", what, (double)d.margin);
    if (d.gap < 0.0f && d.gap != CC_GAP_FROM_BUILDER)
        return cc_fail(CC_ERR_INVALID_ARGUMENT, "%s: gap %.9g is negative; use 0, a positive distance or CC_GAP_FROM_BUILDER", what, (double)d.gap);
    if (d.margin > CC_SIZE_MAX || d.gap > CC_SIZE_MAX)
        return cc_fail(CC_ERR_INVALID_ARGUMENT, "%s: margin %g or gap %g exceeds %g m", what, (double)d.margin, (double)d.gap, (double)CC_SIZE_MAX);
    s = cc_validate_materials(d.density, &d.material, &d.compliant, what);
    if (s != CC_OK) return s;
    int world = -1;
    if (body >= 0) {
        world = b->bodies[body].world;
        if (d.world != CC_WORLD_CURRENT && d.world != world)
            return cc_fail(CC_ERR_WORLD_OUT_OF_RANGE, "%s: world %d differs from world %d of body %d; shapes on a body live in the body's world (leave world at CC_WORLD_CURRENT)", what, d.world, world, body);
    } else {
        s = resolve_world(b, d.world, what, &world);
        if (s != CC_OK) return s;
    }
    cc_shape_record r;
    r.type = type;
    r.body = body;
    r.world = world;
    r.local = d.local;
    r.size = size;
    r.margin = d.margin;
    r.gap = d.gap == CC_GAP_FROM_BUILDER ? b->rigid_gap : d.gap;
    r.group = d.collision_group;
    r.filter_parent = d.collision_filter_parent != 0;
    r.has_shape_collision = d.has_shape_collision != 0;
    r.type_bits = d.collision_type_bits;
    r.affinity_bits = d.collision_affinity_bits;
    r.source = source;
    r.name = -1;
    r.density = d.density;
    r.material = d.material;
    r.compliant = d.compliant;
    r.sdf = -1;
    int sdf_count = b->sdf_count;
    if (d.sdf_max_resolution != 0 || d.sdf_target_voxel_size != 0.0f) {
        s = shape_sdf(b, &r, &d, what);
        if (s != CC_OK) return s;
    }
    s = push_shape(b, &r, out_shape);
    if (s != CC_OK)
        while (b->sdf_count > sdf_count) cc_sdf_data_free(&b->sdfs[--b->sdf_count].data);
    return s == CC_OK ? cc_ok() : s;
}

cc_status cc_builder_add_shape(cc_builder* b, int body, cc_shape_type type, cc_vec3 size,
                               const cc_shape_def* def, int* out_shape)
{
    return add_shape(b, body, type, size, -1, def, out_shape, "cc_builder_add_shape");
}

cc_status cc_builder_add_plane(cc_builder* b, int body, float half_x, float half_y,
                               const cc_shape_def* def, int* out_shape)
{
    cc_vec3 size = {half_x, half_y, 0.0f};
    return cc_builder_add_shape(b, body, CC_SHAPE_PLANE, size, def, out_shape);
}

cc_status cc_builder_add_sphere(cc_builder* b, int body, float radius, const cc_shape_def* def,
                                int* out_shape)
{
    cc_vec3 size = {radius, 0.0f, 0.0f};
    return cc_builder_add_shape(b, body, CC_SHAPE_SPHERE, size, def, out_shape);
}

cc_status cc_builder_add_capsule(cc_builder* b, int body, float radius, float half_height,
                                 const cc_shape_def* def, int* out_shape)
{
    cc_vec3 size = {radius, half_height, 0.0f};
    return cc_builder_add_shape(b, body, CC_SHAPE_CAPSULE, size, def, out_shape);
}

cc_status cc_builder_add_box(cc_builder* b, int body, cc_vec3 half_extents,
                             const cc_shape_def* def, int* out_shape)
{
    return cc_builder_add_shape(b, body, CC_SHAPE_BOX, half_extents, def, out_shape);
}

cc_status cc_builder_add_cylinder(cc_builder* b, int body, float radius, float half_height,
                                  const cc_shape_def* def, int* out_shape)
{
    cc_vec3 size = {radius, half_height, 0.0f};
    return add_shape(b, body, CC_SHAPE_CYLINDER, size, -1, def, out_shape, "cc_builder_add_cylinder");
}

cc_status cc_builder_add_cone(cc_builder* b, int body, float radius, float half_height,
                              const cc_shape_def* def, int* out_shape)
{
    cc_vec3 size = {radius, half_height, 0.0f};
    return add_shape(b, body, CC_SHAPE_CONE, size, -1, def, out_shape, "cc_builder_add_cone");
}

cc_status cc_builder_add_ellipsoid(cc_builder* b, int body, cc_vec3 semi_axes,
                                   const cc_shape_def* def, int* out_shape)
{
    return add_shape(b, body, CC_SHAPE_ELLIPSOID, semi_axes, -1, def, out_shape, "cc_builder_add_ellipsoid");
}

cc_convex_hull_def cc_default_convex_hull_def(void)
{
    cc_convex_hull_def d;
    d.max_vertices = 64;
    d.cookie = CC_DEF_COOKIE;
    return d;
}

cc_status cc_builder_add_convex_hull_data(cc_builder* b, const cc_vec3* points, int count,
                                          const cc_convex_hull_def* def, int* out_hull)
{
    static const char* what = "cc_builder_add_convex_hull_data";
    if (!b) return cc_fail(CC_ERR_INVALID_ARGUMENT, "%s: builder is NULL", what);
    cc_convex_hull_def d = def ? *def : cc_default_convex_hull_def();
    if (d.cookie != CC_DEF_COOKIE)
        return cc_fail(CC_ERR_UNINITIALIZED_DEF, "%s: the def was not made by cc_default_convex_hull_def(); start from it and change fields", what);
    if (!cc_reserve((void**)&b->hulls, &b->hull_capacity, b->hull_count + 1, sizeof *b->hulls))
        return cc_fail(CC_ERR_OUT_OF_MEMORY, "%s: out of host memory", what);
    cc_hull_data h;
    memset(&h, 0, sizeof h);
    cc_status s = cc_hull_build(points, count, d.max_vertices, what, &h);
    if (s != CC_OK) return s;
    b->hulls[b->hull_count] = h;
    if (out_hull) *out_hull = b->hull_count;
    b->hull_count++;
    return cc_ok();
}

static cc_status check_hull(const cc_builder* b, int hull, const char* what)
{
    if (!b) return cc_fail(CC_ERR_INVALID_ARGUMENT, "%s: builder is NULL", what);
    if (hull < 0 || hull >= b->hull_count)
        return cc_fail(CC_ERR_INVALID_ARGUMENT, "%s: hull %d does not exist (the builder holds %d); use an index from cc_builder_add_convex_hull_data", what, hull, b->hull_count);
    return CC_OK;
}

cc_status cc_builder_get_convex_hull_info(const cc_builder* b, int hull, int* vertex_count,
                                          int* face_count)
{
    cc_status s = check_hull(b, hull, "cc_builder_get_convex_hull_info");
    if (s != CC_OK) return s;
    if (vertex_count) *vertex_count = b->hulls[hull].vertex_count;
    if (face_count) *face_count = b->hulls[hull].face_count;
    return cc_ok();
}

cc_status cc_builder_get_convex_hull_vertices(const cc_builder* b, int hull, cc_vec3* vertices, int max)
{
    static const char* what = "cc_builder_get_convex_hull_vertices";
    cc_status s = check_hull(b, hull, what);
    if (s != CC_OK) return s;
    if (!vertices && max > 0) return cc_fail(CC_ERR_INVALID_ARGUMENT, "%s: vertices is NULL", what);
    int n = b->hulls[hull].vertex_count < max ? b->hulls[hull].vertex_count : max;
    if (n > 0) memcpy(vertices, b->hulls[hull].vertices, sizeof(cc_vec3) * (size_t)n);
    return cc_ok();
}

cc_status cc_builder_add_convex_hull(cc_builder* b, int body, int hull, cc_vec3 scale,
                                     const cc_shape_def* def, int* out_shape)
{
    static const char* what = "cc_builder_add_convex_hull";
    cc_status s = check_hull(b, hull, what);
    if (s != CC_OK) return s;
    return add_shape(b, body, CC_SHAPE_CONVEX_HULL, scale, hull, def, out_shape, what);
}

/* ---- meshes and heightfields ---------------------------------------------- */

cc_status cc_builder_add_mesh_data(cc_builder* b, const cc_vec3* vertices, int vertex_count,
                                   const int* triangles, int triangle_count, int* out_mesh)
{
    static const char* what = "cc_builder_add_mesh_data";
    if (!b) return cc_fail(CC_ERR_INVALID_ARGUMENT, "%s: builder is NULL", what);
    if (vertex_count < 3 || triangle_count < 1)
        return cc_fail(CC_ERR_INVALID_ARGUMENT, "%s: the mesh is empty (%d vertices, %d triangles); give at least 3 vertices and 1 triangle", what, vertex_count, triangle_count);
    if (!vertices || !triangles) return cc_fail(CC_ERR_INVALID_ARGUMENT, "%s: vertices or triangles is NULL", what);
    if (vertex_count > INT32_MAX / 4 || triangle_count > INT32_MAX / 4)
        return cc_fail(CC_ERR_INVALID_ARGUMENT, "%s: %d vertices and %d triangles exceed the index range", what, vertex_count, triangle_count);
    cc_vec3 lo = vertices[0], hi = vertices[0];
    for (int i = 0; i < vertex_count; ++i) {
        cc_vec3 v = vertices[i];
        if (!cc_is_finite_vec3(v))
            return cc_fail(CC_ERR_NOT_FINITE, "%s: vertex %d holds NaN or infinity; give finite coordinates in metres", what, i);
        lo.x = fminf(lo.x, v.x), lo.y = fminf(lo.y, v.y), lo.z = fminf(lo.z, v.z);
        hi.x = fmaxf(hi.x, v.x), hi.y = fmaxf(hi.y, v.y), hi.z = fmaxf(hi.z, v.z);
    }
    int degenerate = 0, first_degenerate = -1;
    for (int t = 0; t < triangle_count; ++t) {
        const int* tri = triangles + 3 * t;
        for (int k = 0; k < 3; ++k)
            if (tri[k] < 0 || tri[k] >= vertex_count)
                return cc_fail(CC_ERR_INVALID_ARGUMENT, "%s: triangle %d uses vertex %d, outside 0..%d", what, t, tri[k], vertex_count - 1);
        /* Zero area: |cross| tiny against the longest edge squared (also
         * catches a vertex used twice). */
        cc_vec3 a = vertices[tri[0]], p = vertices[tri[1]], q = vertices[tri[2]];
        double e1[3] = {(double)p.x - a.x, (double)p.y - a.y, (double)p.z - a.z};
        double e2[3] = {(double)q.x - a.x, (double)q.y - a.y, (double)q.z - a.z};
        double c[3] = {e1[1] * e2[2] - e1[2] * e2[1], e1[2] * e2[0] - e1[0] * e2[2], e1[0] * e2[1] - e1[1] * e2[0]};
        double cross2 = c[0] * c[0] + c[1] * c[1] + c[2] * c[2];
        double l1 = e1[0] * e1[0] + e1[1] * e1[1] + e1[2] * e1[2];
        double l2 = e2[0] * e2[0] + e2[1] * e2[1] + e2[2] * e2[2];
        double scale = l1 > l2 ? l1 : l2;
        if (!(cross2 > 1.0e-14 * scale * scale)) {
            if (degenerate++ == 0) first_degenerate = t;
        }
    }
    if (!cc_reserve((void**)&b->meshes, &b->mesh_capacity, b->mesh_count + 1, sizeof *b->meshes))
        return cc_fail(CC_ERR_OUT_OF_MEMORY, "%s: out of host memory", what);
    cc_mesh_data m;
    memset(&m, 0, sizeof m);
    m.vertices = (cc_vec3*)cc_host_alloc(sizeof(cc_vec3) * (size_t)vertex_count);
    m.triangles = (int*)cc_host_alloc(sizeof(int) * 3 * (size_t)triangle_count);
    if (!m.vertices || !m.triangles) {
        mesh_data_free(&m);
        return cc_fail(CC_ERR_OUT_OF_MEMORY, "%s: out of host memory", what);
    }
    memcpy(m.vertices, vertices, sizeof(cc_vec3) * (size_t)vertex_count);
    memcpy(m.triangles, triangles, sizeof(int) * 3 * (size_t)triangle_count);
    m.vertex_count = vertex_count;
    m.triangle_count = triangle_count;
    m.lower = lo;
    m.upper = hi;
    m.bad_edges = cc_mesh_bad_edge_count(triangles, triangle_count);
    if (m.bad_edges < 0) {
        mesh_data_free(&m);
        return cc_fail(CC_ERR_OUT_OF_MEMORY, "%s: out of host memory", what);
    }
    if (degenerate)
        cc_log(CC_LOG_WARNING, "%s: mesh %d has %d zero-area triangle%s (the first is triangle %d); they are kept but touch nothing",
               what, b->mesh_count, degenerate, degenerate == 1 ? "" : "s", first_degenerate);
    b->meshes[b->mesh_count] = m;
    if (out_mesh) *out_mesh = b->mesh_count;
    b->mesh_count++;
    return cc_ok();
}

static cc_status check_mesh(const cc_builder* b, int mesh, const char* what)
{
    if (!b) return cc_fail(CC_ERR_INVALID_ARGUMENT, "%s: builder is NULL", what);
    if (mesh < 0 || mesh >= b->mesh_count)
        return cc_fail(CC_ERR_INVALID_ARGUMENT, "%s: mesh %d does not exist (the builder holds %d); use an index from cc_builder_add_mesh_data", what, mesh, b->mesh_count);
    return CC_OK;
}

cc_status cc_builder_get_mesh_topology(const cc_builder* b, int mesh, int* watertight, int64_t* open_edges)
{
    cc_status s = check_mesh(b, mesh, "cc_builder_get_mesh_topology");
    if (s != CC_OK) return s;
    if (watertight) *watertight = b->meshes[mesh].bad_edges == 0;
    if (open_edges) *open_edges = b->meshes[mesh].bad_edges;
    return cc_ok();
}

cc_status cc_builder_get_mesh_info(const cc_builder* b, int mesh, int* vertex_count, int* triangle_count)
{
    cc_status s = check_mesh(b, mesh, "cc_builder_get_mesh_info");
    if (s != CC_OK) return s;
    if (vertex_count) *vertex_count = b->meshes[mesh].vertex_count;
    if (triangle_count) *triangle_count = b->meshes[mesh].triangle_count;
    return cc_ok();
}

cc_status cc_builder_get_mesh_vertices(const cc_builder* b, int mesh, cc_vec3* vertices, int max)
{
    static const char* what = "cc_builder_get_mesh_vertices";
    cc_status s = check_mesh(b, mesh, what);
    if (s != CC_OK) return s;
    if (!vertices && max > 0) return cc_fail(CC_ERR_INVALID_ARGUMENT, "%s: vertices is NULL", what);
    int n = b->meshes[mesh].vertex_count < max ? b->meshes[mesh].vertex_count : max;
    if (n > 0) memcpy(vertices, b->meshes[mesh].vertices, sizeof(cc_vec3) * (size_t)n);
    return cc_ok();
}

cc_status cc_builder_add_mesh(cc_builder* b, int body, int mesh, cc_vec3 scale, const cc_shape_def* def,
                              int* out_shape)
{
    static const char* what = "cc_builder_add_mesh";
    cc_status s = check_mesh(b, mesh, what);
    if (s != CC_OK) return s;
    return add_shape(b, body, CC_SHAPE_MESH, scale, mesh, def, out_shape, what);
}

cc_status cc_builder_add_heightfield_data(cc_builder* b, int rows, int cols, const float* heights,
                                          int* out_hfield)
{
    static const char* what = "cc_builder_add_heightfield_data";
    if (!b) return cc_fail(CC_ERR_INVALID_ARGUMENT, "%s: builder is NULL", what);
    if (rows < 2 || cols < 2)
        return cc_fail(CC_ERR_INVALID_ARGUMENT, "%s: a %d x %d grid is too small; give at least 2 rows and 2 columns", what, rows, cols);
    if ((int64_t)rows * cols > CC_HFIELD_MAX_SAMPLES)
        return cc_fail(CC_ERR_INVALID_ARGUMENT, "%s: a %d x %d grid is %lld samples, over the %d a heightfield may hold", what, rows, cols, (long long)rows * cols, CC_HFIELD_MAX_SAMPLES);
    if (!heights) return cc_fail(CC_ERR_INVALID_ARGUMENT, "%s: heights is NULL", what);
    int n = rows * cols;
    float lo = heights[0], hi = heights[0];
    for (int i = 0; i < n; ++i) {
        if (!isfinite(heights[i]))
            return cc_fail(CC_ERR_NOT_FINITE, "%s: sample %d (row %d, column %d) is NaN or infinite", what, i, i / cols, i % cols);
        lo = fminf(lo, heights[i]);
        hi = fmaxf(hi, heights[i]);
    }
    if (!cc_reserve((void**)&b->hfields, &b->hfield_capacity, b->hfield_count + 1, sizeof *b->hfields))
        return cc_fail(CC_ERR_OUT_OF_MEMORY, "%s: out of host memory", what);
    float* copy = (float*)cc_host_alloc(sizeof(float) * (size_t)n);
    if (!copy) return cc_fail(CC_ERR_OUT_OF_MEMORY, "%s: out of host memory", what);
    memcpy(copy, heights, sizeof(float) * (size_t)n);
    cc_hfield_data* h = &b->hfields[b->hfield_count];
    h->heights = copy;
    h->rows = rows;
    h->cols = cols;
    h->min_height = lo;
    h->max_height = hi;
    if (out_hfield) *out_hfield = b->hfield_count;
    b->hfield_count++;
    return cc_ok();
}

static cc_status check_hfield(const cc_builder* b, int hfield, const char* what)
{
    if (!b) return cc_fail(CC_ERR_INVALID_ARGUMENT, "%s: builder is NULL", what);
    if (hfield < 0 || hfield >= b->hfield_count)
        return cc_fail(CC_ERR_INVALID_ARGUMENT, "%s: heightfield %d does not exist (the builder holds %d); use an index from cc_builder_add_heightfield_data", what, hfield, b->hfield_count);
    return CC_OK;
}

cc_status cc_builder_get_heightfield_info(const cc_builder* b, int hfield, int* rows, int* cols,
                                          float* min_height, float* max_height)
{
    cc_status s = check_hfield(b, hfield, "cc_builder_get_heightfield_info");
    if (s != CC_OK) return s;
    const cc_hfield_data* h = &b->hfields[hfield];
    if (rows) *rows = h->rows;
    if (cols) *cols = h->cols;
    if (min_height) *min_height = h->min_height;
    if (max_height) *max_height = h->max_height;
    return cc_ok();
}

cc_status cc_builder_add_heightfield(cc_builder* b, int body, int hfield, cc_vec3 size,
                                     const cc_shape_def* def, int* out_shape)
{
    static const char* what = "cc_builder_add_heightfield";
    cc_status s = check_hfield(b, hfield, what);
    if (s != CC_OK) return s;
    return add_shape(b, body, CC_SHAPE_HEIGHTFIELD, size, hfield, def, out_shape, what);
}

/* ---- names and read-back ---------------------------------------------------- */

cc_status cc_builder_set_shape_name(cc_builder* b, int shape, const char* name)
{
    static const char* what = "cc_builder_set_shape_name";
    if (!b) return cc_fail(CC_ERR_INVALID_ARGUMENT, "%s: builder is NULL", what);
    if (shape < 0 || shape >= b->shape_count)
        return cc_fail(CC_ERR_INVALID_SHAPE, "%s: shape %d is not in 0..%d", what, shape, b->shape_count - 1);
    if (!name) {
        b->shapes[shape].name = -1;
        return cc_ok();
    }
    if (!cc_reserve((void**)&b->names, &b->name_capacity, b->name_count + 1, sizeof *b->names))
        return cc_fail(CC_ERR_OUT_OF_MEMORY, "%s: out of host memory", what);
    size_t n = strlen(name) + 1;
    char* copy = (char*)cc_host_alloc(n);
    if (!copy) return cc_fail(CC_ERR_OUT_OF_MEMORY, "%s: out of host memory", what);
    memcpy(copy, name, n);
    b->names[b->name_count] = copy;
    b->shapes[shape].name = b->name_count++;
    return cc_ok();
}

const char* cc_builder_shape_name(const cc_builder* b, int shape)
{
    if (!b || shape < 0 || shape >= b->shape_count || b->shapes[shape].name < 0) return NULL;
    return b->names[b->shapes[shape].name];
}

cc_status cc_builder_get_shape_info(const cc_builder* b, int shape, cc_shape_info* out)
{
    static const char* what = "cc_builder_get_shape_info";
    if (!b || !out) return cc_fail(CC_ERR_INVALID_ARGUMENT, "%s: builder or out is NULL", what);
    if (shape < 0 || shape >= b->shape_count)
        return cc_fail(CC_ERR_INVALID_SHAPE, "%s: shape %d is not in 0..%d", what, shape, b->shape_count - 1);
    const cc_shape_record* r = &b->shapes[shape];
    out->type = (cc_shape_type)r->type;
    out->body = r->body;
    out->world = r->world;
    out->size = r->size;
    out->local = r->local;
    out->margin = r->margin;
    out->gap = r->gap;
    out->collision_group = r->group;
    out->collision_type_bits = r->type_bits;
    out->collision_affinity_bits = r->affinity_bits;
    out->has_shape_collision = r->has_shape_collision;
    out->source = r->source;
    out->density = r->density;
    out->material = r->material;
    out->compliant = r->compliant;
    out->sdf = cc_shape_sdf_of(b, r);
    return cc_ok();
}

cc_status cc_builder_get_body_info(const cc_builder* b, int body, cc_body_info* out)
{
    static const char* what = "cc_builder_get_body_info";
    if (!b || !out) return cc_fail(CC_ERR_INVALID_ARGUMENT, "%s: builder or out is NULL", what);
    if (body < 0 || body >= b->body_count)
        return cc_fail(CC_ERR_INVALID_BODY, "%s: body %d is not in 0..%d", what, body, b->body_count - 1);
    out->pose = b->bodies[body].pose;
    out->is_static = b->bodies[body].is_static;
    out->parent = b->bodies[body].parent;
    out->world = b->bodies[body].world;
    return cc_ok();
}

static int block_of_shape(const cc_builder* b, int shape)
{
    for (int k = 0; k < b->block_count; ++k) {
        const cc_replica_block* blk = &b->blocks[k];
        if (shape >= blk->first_shape && shape < blk->first_shape + blk->shape_stride * blk->copies)
            return k;
    }
    return -1;
}

static cc_status push_filter(cc_builder* b, int a, int c)
{
    if (!cc_reserve((void**)&b->filters, &b->filter_capacity, b->filter_count + 1, sizeof *b->filters))
        return cc_fail(CC_ERR_OUT_OF_MEMORY, "cc_builder_add_filter_pair: out of host memory");
    b->filters[b->filter_count].a = a < c ? a : c;
    b->filters[b->filter_count].b = a < c ? c : a;
    b->filter_count++;
    return CC_OK;
}

cc_status cc_builder_add_filter_pair(cc_builder* b, int shape_a, int shape_b)
{
    static const char* what = "cc_builder_add_filter_pair";
    if (!b) return cc_fail(CC_ERR_INVALID_ARGUMENT, "%s: builder is NULL", what);
    if (shape_a < 0 || shape_a >= b->shape_count || shape_b < 0 || shape_b >= b->shape_count)
        return cc_fail(CC_ERR_INVALID_SHAPE, "%s: shapes (%d, %d) are not both in 0..%d", what, shape_a, shape_b, b->shape_count - 1);
    if (shape_a == shape_b)
        return cc_fail(CC_ERR_INVALID_ARGUMENT, "%s: a shape never collides with itself; give two different shapes", what);
    cc_status s = push_filter(b, shape_a, shape_b);
    if (s != CC_OK) return s;
    /* A pair added to one copy makes that copy differ from its template. */
    int ka = block_of_shape(b, shape_a), kb = block_of_shape(b, shape_b);
    if (ka >= 0) b->blocks[ka].irregular = 1;
    if (kb >= 0) b->blocks[kb].irregular = 1;
    return cc_ok();
}

cc_contact_pair_def cc_default_contact_pair_def(void)
{
    cc_contact_pair_def d;
    d.margin = 0.0f;
    d.gap = 0.0f;
    d.mu = d.mu_torsional = d.mu_rolling = -1.0f;
    d.cookie = CC_DEF_COOKIE;
    return d;
}

cc_status cc_builder_add_contact_pair(cc_builder* b, int shape_a, int shape_b, const cc_contact_pair_def* def)
{
    static const char* what = "cc_builder_add_contact_pair";
    if (!b) return cc_fail(CC_ERR_INVALID_ARGUMENT, "%s: builder is NULL", what);
    cc_contact_pair_def d = def ? *def : cc_default_contact_pair_def();
    if (d.cookie != CC_DEF_COOKIE)
        return cc_fail(CC_ERR_UNINITIALIZED_DEF, "%s: the def was not made by cc_default_contact_pair_def(); start from it and change fields", what);
    if (shape_a < 0 || shape_a >= b->shape_count || shape_b < 0 || shape_b >= b->shape_count)
        return cc_fail(CC_ERR_INVALID_SHAPE, "%s: shapes (%d, %d) are not both in 0..%d", what, shape_a, shape_b, b->shape_count - 1);
    if (shape_a == shape_b)
        return cc_fail(CC_ERR_INVALID_ARGUMENT, "%s: a shape never collides with itself; give two different shapes", what);
    if (!(d.margin >= 0.0f && d.margin <= CC_SIZE_MAX) || !(d.gap >= 0.0f && d.gap <= CC_SIZE_MAX))
        return cc_fail(CC_ERR_INVALID_ARGUMENT, "%s: margin %g and gap %g must be finite and in [0, %g] m", what, (double)d.margin,
                       (double)d.gap, (double)CC_SIZE_MAX);
    if (!isfinite(d.mu) || !isfinite(d.mu_torsional) || !isfinite(d.mu_rolling) || d.mu > 1.0e3f || d.mu_torsional > 1.0e3f ||
        d.mu_rolling > 1.0e3f)
        return cc_fail(CC_ERR_INVALID_ARGUMENT, "%s: friction coefficients %g, %g, %g must be finite and at most 1000 (negative: the shapes')", what,
                       (double)d.mu, (double)d.mu_torsional, (double)d.mu_rolling);
    if (!cc_reserve((void**)&b->contact_pairs, &b->contact_pair_capacity, b->contact_pair_count + 1, sizeof *b->contact_pairs))
        return cc_fail(CC_ERR_OUT_OF_MEMORY, "%s: out of host memory", what);
    cc_contact_pair_record* r = &b->contact_pairs[b->contact_pair_count++];
    r->a = shape_a < shape_b ? shape_a : shape_b;
    r->b = shape_a < shape_b ? shape_b : shape_a;
    r->margin = d.margin;
    r->gap = d.gap;
    r->mu = d.mu;
    r->mu_torsional = d.mu_torsional;
    r->mu_rolling = d.mu_rolling;
    int ka = block_of_shape(b, shape_a), kb = block_of_shape(b, shape_b);
    if (ka >= 0) b->blocks[ka].irregular = 1;
    if (kb >= 0) b->blocks[kb].irregular = 1;
    return cc_ok();
}

cc_status cc_builder_begin_world(cc_builder* b, int* out_world)
{
    if (!b) return cc_fail(CC_ERR_INVALID_ARGUMENT, "cc_builder_begin_world: builder is NULL");
    if (b->open_world >= 0)
        return cc_fail(CC_ERR_INVALID_STATE, "cc_builder_begin_world: world %d is still open; call cc_builder_end_world first", b->open_world);
    if (b->world_count >= CC_MAX_WORLDS)
        return cc_fail(CC_ERR_INVALID_ARGUMENT, "cc_builder_begin_world: the builder holds %d worlds, the most a model may hold", b->world_count);
    b->open_world = b->world_count++;
    if (out_world) *out_world = b->open_world;
    return cc_ok();
}

cc_status cc_builder_end_world(cc_builder* b)
{
    if (!b) return cc_fail(CC_ERR_INVALID_ARGUMENT, "cc_builder_end_world: builder is NULL");
    if (b->open_world < 0)
        return cc_fail(CC_ERR_INVALID_STATE, "cc_builder_end_world: no world is open; call cc_builder_begin_world first");
    b->open_world = -1;
    return cc_ok();
}

/* Where a template's pools start in the builder it is copied into. */
typedef struct pool_offsets {
    int hull, mesh, hfield, name, sdf;
} pool_offsets;

/* Appends one copy of templ as world `world`; the caller rolls back on failure. */
static cc_status append_copy(cc_builder* b, const cc_builder* t, int world, pool_offsets off)
{
    int body0 = b->body_count, shape0 = b->shape_count, filter0 = b->filter_count, pair0 = b->contact_pair_count;
    if (!cc_reserve((void**)&b->bodies, &b->body_capacity, body0 + t->body_count, sizeof *b->bodies) ||
        !cc_reserve((void**)&b->shapes, &b->shape_capacity, shape0 + t->shape_count, sizeof *b->shapes) ||
        !cc_reserve((void**)&b->filters, &b->filter_capacity, filter0 + t->filter_count, sizeof *b->filters) ||
        !cc_reserve((void**)&b->contact_pairs, &b->contact_pair_capacity, pair0 + t->contact_pair_count, sizeof *b->contact_pairs))
        return cc_fail(CC_ERR_OUT_OF_MEMORY, "out of host memory while copying a world");
    for (int i = 0; i < t->body_count; ++i) {
        cc_body_record r = t->bodies[i];
        r.world = world;
        if (r.parent >= 0) r.parent += body0;
        b->bodies[body0 + i] = r;
    }
    for (int i = 0; i < t->shape_count; ++i) {
        cc_shape_record r = t->shapes[i];
        r.world = world;
        if (r.body >= 0) r.body += body0;
        if (r.source >= 0) {
            if (r.type == CC_SHAPE_CONVEX_HULL) r.source += off.hull;
            else if (r.type == CC_SHAPE_MESH) r.source += off.mesh;
            else if (r.type == CC_SHAPE_HEIGHTFIELD) r.source += off.hfield;
        }
        if (r.name >= 0) r.name += off.name;
        if (r.sdf >= 0) r.sdf += off.sdf;
        b->shapes[shape0 + i] = r;
    }
    for (int i = 0; i < t->filter_count; ++i) {
        b->filters[filter0 + i].a = t->filters[i].a + shape0;
        b->filters[filter0 + i].b = t->filters[i].b + shape0;
    }
    for (int i = 0; i < t->contact_pair_count; ++i) {
        cc_contact_pair_record r = t->contact_pairs[i];
        r.a += shape0;
        r.b += shape0;
        b->contact_pairs[pair0 + i] = r;
    }
    b->body_count += t->body_count;
    b->shape_count += t->shape_count;
    b->filter_count += t->filter_count;
    b->contact_pair_count += t->contact_pair_count;
    return CC_OK;
}

/* Deep copy of a hull; 0 when out of memory (dst is then zeroed). */
static int copy_hull(const cc_hull_data* src, cc_hull_data* dst)
{
    memset(dst, 0, sizeof *dst);
    *dst = *src;
    dst->vertices = (cc_vec3*)cc_host_alloc(sizeof(cc_vec3) * (size_t)src->vertex_count);
    dst->faces = (cc_hull_face*)cc_host_alloc(sizeof(cc_hull_face) * (size_t)src->face_count);
    dst->indices = (int*)cc_host_alloc(sizeof(int) * (size_t)src->index_count);
    if (!dst->vertices || !dst->faces || !dst->indices) {
        cc_hull_data_free(dst);
        return 0;
    }
    memcpy(dst->vertices, src->vertices, sizeof(cc_vec3) * (size_t)src->vertex_count);
    memcpy(dst->faces, src->faces, sizeof(cc_hull_face) * (size_t)src->face_count);
    memcpy(dst->indices, src->indices, sizeof(int) * (size_t)src->index_count);
    return 1;
}

static int copy_mesh(const cc_mesh_data* src, cc_mesh_data* dst)
{
    *dst = *src;
    dst->vertices = (cc_vec3*)cc_host_alloc(sizeof(cc_vec3) * (size_t)src->vertex_count);
    dst->triangles = (int*)cc_host_alloc(sizeof(int) * 3 * (size_t)src->triangle_count);
    dst->label = src->label ? copy_text(src->label) : NULL;
    dst->edges = src->edges ? (int*)cc_host_alloc(sizeof(int) * 2 * (size_t)(src->edge_count ? src->edge_count : 1)) : NULL;
    if (!dst->vertices || !dst->triangles || (src->label && !dst->label) || (src->edges && !dst->edges)) {
        mesh_data_free(dst);
        return 0;
    }
    if (src->edges) memcpy(dst->edges, src->edges, sizeof(int) * 2 * (size_t)src->edge_count);
    memcpy(dst->vertices, src->vertices, sizeof(cc_vec3) * (size_t)src->vertex_count);
    memcpy(dst->triangles, src->triangles, sizeof(int) * 3 * (size_t)src->triangle_count);
    return 1;
}

static int copy_hfield(const cc_hfield_data* src, cc_hfield_data* dst)
{
    size_t n = (size_t)src->rows * (size_t)src->cols;
    *dst = *src;
    dst->heights = (float*)cc_host_alloc(sizeof(float) * n);
    if (!dst->heights) return 0;
    memcpy(dst->heights, src->heights, sizeof(float) * n);
    return 1;
}

static int copy_name(const char* src, char** dst)
{
    size_t n = strlen(src) + 1;
    *dst = (char*)cc_host_alloc(n);
    if (!*dst) return 0;
    memcpy(*dst, src, n);
    return 1;
}

/* Appends the template's pools (hulls, meshes, heightfields, names) once,
 * for all copies of one replicate call. On failure the caller rolls back. */
static cc_status append_pools(cc_builder* b, const cc_builder* t)
{
    static const char* oom = "out of host memory while copying a world's shared geometry";
    if (!cc_reserve((void**)&b->hulls, &b->hull_capacity, b->hull_count + t->hull_count, sizeof *b->hulls) ||
        !cc_reserve((void**)&b->meshes, &b->mesh_capacity, b->mesh_count + t->mesh_count, sizeof *b->meshes) ||
        !cc_reserve((void**)&b->hfields, &b->hfield_capacity, b->hfield_count + t->hfield_count, sizeof *b->hfields) ||
        !cc_reserve((void**)&b->names, &b->name_capacity, b->name_count + t->name_count, sizeof *b->names) ||
        !cc_reserve((void**)&b->sdfs, &b->sdf_capacity, b->sdf_count + t->sdf_count, sizeof *b->sdfs))
        return cc_fail(CC_ERR_OUT_OF_MEMORY, "%s", oom);
    int mesh0 = b->mesh_count, hull0 = b->hull_count;
    for (int i = 0; i < t->hull_count; ++i, ++b->hull_count)
        if (!copy_hull(&t->hulls[i], &b->hulls[b->hull_count])) return cc_fail(CC_ERR_OUT_OF_MEMORY, "%s", oom);
    for (int i = 0; i < t->mesh_count; ++i, ++b->mesh_count)
        if (!copy_mesh(&t->meshes[i], &b->meshes[b->mesh_count])) return cc_fail(CC_ERR_OUT_OF_MEMORY, "%s", oom);
    for (int i = 0; i < t->hfield_count; ++i, ++b->hfield_count)
        if (!copy_hfield(&t->hfields[i], &b->hfields[b->hfield_count])) return cc_fail(CC_ERR_OUT_OF_MEMORY, "%s", oom);
    for (int i = 0; i < t->name_count; ++i, ++b->name_count)
        if (!copy_name(t->names[i], &b->names[b->name_count])) return cc_fail(CC_ERR_OUT_OF_MEMORY, "%s", oom);
    for (int i = 0; i < t->sdf_count; ++i, ++b->sdf_count) {
        if (!cc_sdf_record_copy(&t->sdfs[i], &b->sdfs[b->sdf_count])) return cc_fail(CC_ERR_OUT_OF_MEMORY, "%s", oom);
        cc_sdf_record* r = &b->sdfs[b->sdf_count];
        if (r->mesh >= 0) r->mesh += mesh0;
        if (r->shape_type == CC_SHAPE_CONVEX_HULL) r->source += hull0;
    }
    return CC_OK;
}

cc_builder_mark cc_builder_get_mark(const cc_builder* b)
{
    cc_builder_mark m;
    m.body_count = b->body_count;
    m.shape_count = b->shape_count;
    m.filter_count = b->filter_count;
    m.contact_pair_count = b->contact_pair_count;
    m.hull_count = b->hull_count;
    m.mesh_count = b->mesh_count;
    m.hfield_count = b->hfield_count;
    m.name_count = b->name_count;
    m.block_count = b->block_count;
    m.world_count = b->world_count;
    m.sdf_count = b->sdf_count;
    return m;
}

void cc_builder_rollback(cc_builder* b, const cc_builder_mark* m)
{
    b->body_count = m->body_count;
    b->shape_count = m->shape_count;
    b->filter_count = m->filter_count;
    b->contact_pair_count = m->contact_pair_count;
    while (b->hull_count > m->hull_count) cc_hull_data_free(&b->hulls[--b->hull_count]);
    while (b->mesh_count > m->mesh_count) mesh_data_free(&b->meshes[--b->mesh_count]);
    while (b->hfield_count > m->hfield_count) cc_host_free(b->hfields[--b->hfield_count].heights);
    while (b->name_count > m->name_count) cc_host_free(b->names[--b->name_count]);
    while (b->sdf_count > m->sdf_count) cc_sdf_data_free(&b->sdfs[--b->sdf_count].data);
    b->block_count = m->block_count;
    b->world_count = m->world_count;
}

cc_status cc_builder_replicate(cc_builder* b, const cc_builder* templ, int copies, int* out_first_world)
{
    static const char* what = "cc_builder_replicate";
    if (!b || !templ) return cc_fail(CC_ERR_INVALID_ARGUMENT, "%s: builder or template is NULL", what);
    if (b == templ) return cc_fail(CC_ERR_INVALID_ARGUMENT, "%s: a builder cannot be its own template; build the environment in a separate builder", what);
    if (copies < 1) return cc_fail(CC_ERR_INVALID_ARGUMENT, "%s: copies is %d; give at least 1", what, copies);
    if (b->open_world >= 0)
        return cc_fail(CC_ERR_INVALID_STATE, "%s: world %d is open; call cc_builder_end_world first", what, b->open_world);
    if ((int64_t)templ->shape_count * copies + b->shape_count > INT32_MAX / 2 ||
        (int64_t)templ->body_count * copies + b->body_count > INT32_MAX / 2)
        return cc_fail(CC_ERR_INVALID_ARGUMENT, "%s: %d copies of %d shapes exceed the index range", what, copies, templ->shape_count);
    if ((int64_t)b->world_count + copies > CC_MAX_WORLDS)
        return cc_fail(CC_ERR_INVALID_ARGUMENT, "%s: %d copies after %d worlds make more than the %d worlds a model may hold", what, copies, b->world_count, CC_MAX_WORLDS);
    if (!cc_reserve((void**)&b->blocks, &b->block_capacity, b->block_count + 1, sizeof *b->blocks))
        return cc_fail(CC_ERR_OUT_OF_MEMORY, "%s: out of host memory", what);
    cc_builder_mark mark = cc_builder_get_mark(b);
    int body0 = b->body_count, shape0 = b->shape_count, world0 = b->world_count;
    pool_offsets off = {b->hull_count, b->mesh_count, b->hfield_count, b->name_count, b->sdf_count};
    cc_status s = append_pools(b, templ);
    for (int c = 0; c < copies && s == CC_OK; ++c) s = append_copy(b, templ, world0 + c, off);
    if (s != CC_OK) {
        cc_builder_rollback(b, &mark);
        return s;
    }
    b->world_count += copies;
    cc_replica_block* blk = &b->blocks[b->block_count++];
    blk->first_shape = shape0;
    blk->shape_stride = templ->shape_count;
    blk->first_body = body0;
    blk->body_stride = templ->body_count;
    blk->first_world = world0;
    blk->copies = copies;
    blk->irregular = 0;
    if (out_first_world) *out_first_world = world0;
    return cc_ok();
}

cc_status cc_builder_add_world(cc_builder* b, const cc_builder* templ, int* out_world)
{
    return cc_builder_replicate(b, templ, 1, out_world);
}
