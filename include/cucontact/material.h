/* cuContact: contact materials and compliant-contact parameters per shape. */
#ifndef CUCONTACT_MATERIAL_H
#define CUCONTACT_MATERIAL_H

#include "cucontact/types.h"

#ifdef __cplusplus
extern "C" {
#endif

/// Contact material of a shape (cc_shape_def.material). The penalty contact
/// model (CC_CONTACT_PENALTY) averages ke, kd, kf, ka and mu of the two
/// shapes; both contact models' step averages mu_torsional and mu_rolling
/// into torques that resist spinning and rolling (cc_step); restitution and
/// kh are model data for solvers and contact backends that use them.
typedef struct cc_material {
    float mu;           ///< Coulomb friction coefficient (1.0)
    float ke;           ///< normal contact stiffness [N/m] (2.5e3)
    float kd;           ///< normal contact damping [N s/m] (100)
    float kf;           ///< friction gain: slope of the viscous friction regularisation [N s/m] (1000)
    float ka;           ///< adhesion distance [m] (0: no adhesion)
    float restitution;  ///< coefficient of restitution (0)
    float mu_torsional; ///< resistance to spinning about the contact normal: torque over normal load [m] (0.005)
    /// resistance to rolling: torque over normal load [m] (0.0001; a ball of
    /// radius r decelerates at about 0.7 g mu_rolling / r)
    float mu_rolling;
    float kh;           ///< hydroelastic stiffness [Pa/m] (1e10)
} cc_material;

/// Parameters of the compliant contact model (CC_CONTACT_COMPLIANT) for one
/// shape. For a pair, friction and damping coefficients are geometric means;
/// the penalty coefficient and falloff velocity are geometric means when both
/// shapes move and come from the colliding shape when the collider is static;
/// smoothing, threshold and alignment come from the collider.
typedef struct cc_compliant_params {
    float penalty_coefficient;     ///< k [Pa/m] (1e9)
    float smoothing_half_distance; ///< epsilon of the ramp h [m] (0.005)
    float threshold;               ///< delta: distance at which the penalty activates [m] (0.001)
    float threshold_extra_padding; ///< added to delta when the colliding shape is no collider [m] (0)
    float friction_falloff_velocity; ///< V_f of the regularised Coulomb ramp [m/s] (0.01)
    float coulomb_friction;        ///< mu (0.5)
    float viscous_friction;        ///< c_t [s/m] (0)
    float normal_damping;          ///< c_n, Hunt-Crossley [s/m] (0); see cc_restitution_damping
    float max_alignment;           ///< m in [-1, 1]: contacts with G_B . N_A > m are rejected (0)
    int friction_with_collider_normal; ///< nonzero: split friction along the collider normal (1)
    int fade_friction;             ///< nonzero: fade dissipation as alignment nears m (1)
    int is_collider;               ///< nonzero: the shape may supply the distance field (1);
                                   ///< zero is the reference's collider type None
} cc_compliant_params;

/// The reference defaults.
cc_material cc_default_material(void);
cc_compliant_params cc_default_compliant_params(void);

/// Hunt-Crossley normal damping c_n [s/m] that gives a coefficient of
/// restitution e (0 < e <= 1) for an impact at normal speed v > 0 [m/s],
/// by the rational approximation c_n = (1-e)(1+9e/2) / (e v (1+8e/3)).
/// Returns a negative value for arguments outside those ranges.
float cc_restitution_damping(float e, float v);
/// The inverse: the coefficient of restitution that damping c_n >= 0 gives
/// at impact speed v > 0 (closed form of the same approximation); negative
/// for invalid arguments.
float cc_restitution_from_damping(float c_n, float v);

#ifdef __cplusplus
}
#endif

#endif
