/* Default contact materials and the restitution calibration helpers. */
#include "host/internal.h"
#include "kernels/step/law_compliant.h"

cc_material cc_default_material(void)
{
    cc_material m;
    m.mu = 1.0f;
    m.ke = 2.5e3f;
    m.kd = 100.0f;
    m.kf = 1000.0f;
    m.ka = 0.0f;
    m.restitution = 0.0f;
    m.mu_torsional = 0.005f;
    m.mu_rolling = 0.0001f;
    m.kh = 1.0e10f;
    return m;
}

cc_compliant_params cc_default_compliant_params(void)
{
    cc_compliant_params c;
    c.penalty_coefficient = 1.0e9f;
    c.smoothing_half_distance = 0.005f;
    c.threshold = 0.001f;
    c.threshold_extra_padding = 0.0f;
    c.friction_falloff_velocity = 0.01f;
    c.coulomb_friction = 0.5f;
    c.viscous_friction = 0.0f;
    c.normal_damping = 0.0f;
    c.max_alignment = 0.0f;
    c.friction_with_collider_normal = 1;
    c.fade_friction = 1;
    c.is_collider = 1;
    return c;
}

/* The public entry points share the kernel code, so host calibration and
 * device evaluation agree bit for bit (given the same FP flags). */
float cc_restitution_damping(float e, float v) { return cc_restitution_damping_hd(e, v); }

float cc_restitution_from_damping(float c_n, float v)
{
    return cc_restitution_from_damping_hd(c_n, v);
}
