/* Bodies' mass properties: explicit ones set on the builder, or the sum of
 * their shapes' uniform solids; and validation of the per-shape material
 * parameters that the step reads. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "host/model/mass_properties.h"
#include "host/model/model_internal.h"

static int finite_nonneg(float x) { return isfinite(x) && x >= 0.0f; }

cc_status cc_validate_materials(float density, const cc_material* m, const cc_compliant_params* c,
                                const char* what)
{
    if (!finite_nonneg(density) || density > CC_DENSITY_MAX)
        return cc_fail(CC_ERR_INVALID_ARGUMENT, "%s: density %g must lie in [0, %g] kg/m^3", what, (double)density, (double)CC_DENSITY_MAX);
    const struct {
        const char* name;
        float value;
    } nonneg[] = {
        {"material.mu", m->mu},
        {"material.ke", m->ke},
        {"material.kd", m->kd},
        {"material.kf", m->kf},
        {"material.ka", m->ka},
        {"material.mu_torsional", m->mu_torsional},
        {"material.mu_rolling", m->mu_rolling},
        {"material.kh", m->kh},
        {"compliant.penalty_coefficient", c->penalty_coefficient},
        {"compliant.threshold_extra_padding", c->threshold_extra_padding},
        {"compliant.coulomb_friction", c->coulomb_friction},
        {"compliant.viscous_friction", c->viscous_friction},
        {"compliant.normal_damping", c->normal_damping},
    };
    for (size_t i = 0; i < sizeof nonneg / sizeof nonneg[0]; ++i)
        if (!finite_nonneg(nonneg[i].value))
            return cc_fail(isfinite(nonneg[i].value) ? CC_ERR_INVALID_ARGUMENT : CC_ERR_NOT_FINITE,
                           "%s: %s is %g; it must be finite and >= 0", what, nonneg[i].name, (double)nonneg[i].value);
    if (!(isfinite(m->restitution) && m->restitution >= 0.0f && m->restitution <= 1.0f))
        return cc_fail(CC_ERR_INVALID_ARGUMENT, "%s: material.restitution %g must lie in [0, 1]", what, (double)m->restitution);
    if (!(isfinite(c->smoothing_half_distance) && c->smoothing_half_distance > 0.0f))
        return cc_fail(CC_ERR_INVALID_ARGUMENT, "%s: compliant.smoothing_half_distance %g must be finite and > 0 [m]", what,
                       (double)c->smoothing_half_distance);
    if (!isfinite(c->threshold))
        return cc_fail(CC_ERR_NOT_FINITE, "%s: compliant.threshold is not finite; give a distance in metres", what);
    if (!(isfinite(c->friction_falloff_velocity) && c->friction_falloff_velocity > 0.0f))
        return cc_fail(CC_ERR_INVALID_ARGUMENT, "%s: compliant.friction_falloff_velocity %g must be finite and > 0 [m/s]", what,
                       (double)c->friction_falloff_velocity);
    if (!(isfinite(c->max_alignment) && c->max_alignment >= -1.0f && c->max_alignment <= 1.0f))
        return cc_fail(CC_ERR_INVALID_ARGUMENT, "%s: compliant.max_alignment %g must lie in [-1, 1]", what, (double)c->max_alignment);
    return CC_OK;
}

static int symmetric_positive_definite(const float in[9])
{
    for (int i = 0; i < 9; ++i)
        if (!isfinite(in[i])) return 0;
    double scale = fabs(in[0]) + fabs(in[4]) + fabs(in[8]);
    for (int i = 0; i < 3; ++i)
        for (int j = i + 1; j < 3; ++j)
            if (fabs((double)in[3 * i + j] - (double)in[3 * j + i]) > 1e-6 * scale) return 0;
    /* Sylvester's criterion: leading principal minors positive. */
    double a = in[0], b = in[1], c = in[2], e = in[4], f = in[5], i = in[8];
    double m2 = a * e - b * b;
    double m3 = a * (e * i - f * f) - b * (b * i - f * c) + c * (b * f - e * c);
    return a > 0.0 && m2 > 0.0 && m3 > 0.0;
}

cc_status cc_builder_set_body_mass(cc_builder* b, int body, const cc_mass_properties* mass)
{
    static const char* what = "cc_builder_set_body_mass";
    if (!b) return cc_fail(CC_ERR_INVALID_ARGUMENT, "%s: builder is NULL", what);
    if (body < 0 || body >= b->body_count)
        return cc_fail(CC_ERR_INVALID_BODY, "%s: body %d is not in 0..%d", what, body, b->body_count - 1);
    cc_body_record* r = &b->bodies[body];
    if (!mass) {
        r->has_explicit_mass = 0;
        return cc_ok();
    }
    if (!isfinite(mass->mass) || !cc_is_finite_vec3(mass->center))
        return cc_fail(CC_ERR_NOT_FINITE, "%s: body %d: mass or centre holds NaN or infinity", what, body);
    if (!(mass->mass > 0.0f))
        return cc_fail(CC_ERR_INVALID_ARGUMENT, "%s: body %d: mass %g must be > 0 [kg]", what, body, (double)mass->mass);
    if (!symmetric_positive_definite(mass->inertia))
        return cc_fail(CC_ERR_INVALID_ARGUMENT, "%s: body %d: the inertia tensor is not symmetric positive definite; give a row-major 3x3 tensor about the centre of mass [kg m^2]", what, body);
    r->has_explicit_mass = 1;
    r->mass = *mass;
    return cc_ok();
}

/* The last solid computed for each hull and mesh with the scale it used:
 * replicated worlds repeat the same (source, scale), so one integration
 * serves them all. */
typedef struct solid_memo {
    int valid;
    cc_vec3 size;
    cc_solid_mass solid;
    int result;
} solid_memo;

static int same_size(cc_vec3 a, cc_vec3 b) { return a.x == b.x && a.y == b.y && a.z == b.z; }

/* Unit-density solid of shape `r` in its own frame; 0 no volume, -1 bad mesh. */
static int shape_unit_solid(const cc_builder* b, const cc_shape_record* r, solid_memo* hull_memo, solid_memo* mesh_memo,
                            cc_solid_mass* out)
{
    solid_memo* memo = NULL;
    if (r->type == CC_SHAPE_CONVEX_HULL) memo = &hull_memo[r->source];
    if (r->type == CC_SHAPE_MESH) memo = &mesh_memo[r->source];
    if (memo && memo->valid && same_size(memo->size, r->size)) {
        *out = memo->solid;
        return memo->result;
    }
    const cc_hull_data* hull = r->type == CC_SHAPE_CONVEX_HULL ? &b->hulls[r->source] : NULL;
    const cc_mesh_data* mesh = r->type == CC_SHAPE_MESH ? &b->meshes[r->source] : NULL;
    int result = cc_shape_solid_mass(r->type, r->size, 1.0, hull, mesh, out);
    if (memo) {
        memo->valid = 1;
        memo->size = r->size;
        memo->solid = *out;
        memo->result = result;
    }
    return result;
}

static cc_solid_mass scaled(cc_solid_mass m, double density)
{
    m.mass *= density;
    for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j) m.inertia[i][j] *= density;
    return m;
}

static cc_mass_properties to_public(const cc_solid_mass* m)
{
    cc_mass_properties p;
    p.mass = (float)m->mass;
    p.center.x = (float)m->center[0];
    p.center.y = (float)m->center[1];
    p.center.z = (float)m->center[2];
    for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j) p.inertia[3 * i + j] = (float)m->inertia[i][j];
    return p;
}

cc_status cc_builder_body_masses(const cc_builder* b, cc_mass_properties* out, const char* what)
{
    cc_solid_mass* sum = (cc_solid_mass*)cc_host_calloc((size_t)b->body_count + 1, sizeof *sum);
    solid_memo* hull_memo = (solid_memo*)cc_host_calloc((size_t)b->hull_count + 1, sizeof *hull_memo);
    solid_memo* mesh_memo = (solid_memo*)cc_host_calloc((size_t)b->mesh_count + 1, sizeof *mesh_memo);
    cc_status s = CC_OK;
    int warned = 0;
    if (!sum || !hull_memo || !mesh_memo) {
        s = cc_fail(CC_ERR_OUT_OF_MEMORY, "%s: out of host memory", what);
        goto done;
    }
    for (int i = 0; i < b->shape_count; ++i) {
        const cc_shape_record* r = &b->shapes[i];
        if (r->body < 0 || b->bodies[r->body].has_explicit_mass || r->density == 0.0f) continue;
        cc_solid_mass unit;
        int result = shape_unit_solid(b, r, hull_memo, mesh_memo, &unit);
        if (result < 0) {
            /* Collision alone does not need a volume, so this is no error;
             * the step would see a body without this shape's mass. */
            if (!warned) {
                /* Names where the builder has them: the shape's, the mesh's label. */
                char shape_name[160] = "", mesh_name[320] = "";
                if (r->name >= 0) snprintf(shape_name, sizeof shape_name, " ('%.120s')", b->names[r->name]);
                if (b->meshes[r->source].label) snprintf(mesh_name, sizeof mesh_name, " (%.300s)", b->meshes[r->source].label);
                cc_log(CC_LOG_WARNING, "%s: shape %d%s uses mesh %d%s, whose volume is not positive (open or inside out); it adds no mass to body %d. Give the body an explicit mass with cc_builder_set_body_mass, set the shape's density to 0, or close the mesh (further such shapes are not reported)",
                       what, i, shape_name, r->source, mesh_name, r->body);
            }
            warned = 1;
            continue;
        }
        if (result == 0) continue;
        cc_solid_mass placed = cc_solid_mass_transform(&unit, r->local);
        placed = scaled(placed, r->density);
        sum[r->body] = cc_solid_mass_add(&sum[r->body], &placed);
    }
    for (int k = 0; k < b->body_count; ++k)
        out[k] = b->bodies[k].has_explicit_mass ? b->bodies[k].mass : to_public(&sum[k]);
done:
    cc_host_free(sum);
    cc_host_free(hull_memo);
    cc_host_free(mesh_memo);
    return s;
}

cc_status cc_builder_get_body_mass(const cc_builder* b, int body, cc_mass_properties* out)
{
    static const char* what = "cc_builder_get_body_mass";
    if (!b || !out) return cc_fail(CC_ERR_INVALID_ARGUMENT, "%s: builder or out is NULL", what);
    if (body < 0 || body >= b->body_count)
        return cc_fail(CC_ERR_INVALID_BODY, "%s: body %d is not in 0..%d", what, body, b->body_count - 1);
    if (b->bodies[body].has_explicit_mass) {
        *out = b->bodies[body].mass;
        return cc_ok();
    }
    cc_mass_properties* all = (cc_mass_properties*)cc_host_alloc(sizeof *all * ((size_t)b->body_count + 1));
    if (!all) return cc_fail(CC_ERR_OUT_OF_MEMORY, "%s: out of host memory", what);
    cc_status s = cc_builder_body_masses(b, all, what);
    if (s == CC_OK) *out = all[body];
    cc_host_free(all);
    return s == CC_OK ? cc_ok() : s;
}

/* Device record of a body: inverse mass and inertia both ways. */
cc_body_mass cc_body_mass_record(const cc_mass_properties* p, int is_static)
{
    cc_body_mass r;
    memset(&r, 0, sizeof r);
    r.com = p->center;
    double in[3][3], inv[3][3];
    for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j) in[i][j] = p->inertia[3 * i + j];
    const int row[6] = {0, 1, 2, 0, 0, 1}, col[6] = {0, 1, 2, 1, 2, 2};
    for (int k = 0; k < 6; ++k) r.inertia[k] = (float)in[row[k]][col[k]];
    if (is_static || !(p->mass > 0.0f) || !cc_inertia_inverse(in, inv)) return r; /* never moves under forces */
    r.inv_mass = 1.0f / p->mass;
    for (int k = 0; k < 6; ++k) r.inv_inertia[k] = (float)inv[row[k]][col[k]];
    return r;
}
