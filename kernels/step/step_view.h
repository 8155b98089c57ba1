/* What one step's kernels see: the model, the input and output states, the
 * contact buffer, and the solver's per-body force accumulators (plus, in
 * deterministic mode, per-contact force entries sorted by body), the
 * implicit integrator's per-body systems and per-contact couplings, and
 * the stability report. */
#ifndef CC_KERNELS_STEP_STEP_VIEW_H
#define CC_KERNELS_STEP_STEP_VIEW_H

#include "cucontact/contacts.h"
#include "kernels/model_view.h"

/* Implicit terms of one contact side on its body: the drift J^T (dt K u)
 * [N, N m] (6) and the matrix -dt alpha J^T A J (21: the upper triangle of
 * a symmetric 6x6 by rows), A = dt K + D. */
#define CC_IMPLICIT_DRIFT 0
#define CC_IMPLICIT_MATRIX 6
#define CC_IMPLICIT_TERMS 27
/* A body's generalised velocity: linear then angular, world frame. */
#define CC_TWIST 6

/* What a coupling sweep needs of one contact: its A = dt K + D (symmetric
 * 3x3: xx yy zz xy xz yz, <= 0), the contact point relative to each body's
 * centre of mass, each side's share alpha of the contact's matrix, and the
 * normal with the angular rates (kernels/step/rates.h). */
typedef struct cc_contact_coupling {
    float a[6];
    cc_vec3 lever0, lever1;
    float alpha0, alpha1;
    cc_vec3 normal;
    float c_roll, c_spin;
} cc_contact_coupling;

/* A body's implicit system of one step, kept for the sweeps: the LU
 * factors of its 6x6 matrix and their pivots, and the right-hand side
 * without coupling (or the explicit change when the matrix was singular). */
typedef struct cc_body_system {
    float lu[36];
    float rhs[6];
    int piv[6];
    int factored;
    cc_vec3 turn; /* the torque-free turn's change of w (world axes) */
} cc_body_system;

/* The stability report on the device: the current step's limit and the
 * running tallies (cucontact/solver.h, cc_solver_report). Limits are kept
 * as cc_float_order_bits so that an atomic minimum of integers orders them. */
typedef struct cc_step_report_state {
    uint32_t step_limit_bits;
    uint32_t min_limit_bits;
    int steps;
    int steps_over_limit;
    int bodies_stopped; /* bodies whose step came out non-finite */
} cc_step_report_state;

/* The speculative arrests' bookkeeping (kernels/step/speculative.h): per
 * body, CC_SPEC_SLOTS partner slots (the world's, then partner bodies by
 * index modulo CC_SPEC_SLOTS - 1) of CC_SPEC_SLOT_WORDS words each: the
 * round's largest loss (cc_float_order_bits), its losses summed along each
 * axis direction (+x -x +y -y +z -z, fixed point) and the largest |u_k| of
 * its rows' directions per half axis (order bits); and the rounds that find the
 * arresting impulses. */
#define CC_SPEC_SLOTS 8
#define CC_SPEC_SLOT_WORDS 13
#define CC_SPEC_ROUNDS 4
/* Per body: the velocity change of the arrests so far (3 words, fixed
 * point), then what holds it from behind (6 half axes, order bits). */
#define CC_SPEC_BODY_WORDS 9
#define CC_SPEC_BACKING 3

typedef struct cc_step_view {
    cc_model_view model;
    const cc_transform* pose_in;
    const cc_vec3* linear_in;
    const cc_vec3* angular_in;
    cc_transform* pose_out;
    cc_vec3* linear_out;
    cc_vec3* angular_out;
    cc_contacts_view contacts; /* count NULL: a step without contacts */
    float dt;                  /* [s] */
    int contact_model;         /* cc_contact_model */
    int integrator;            /* cc_integrator */
    int sweeps;                /* Jacobi sweeps of the implicit step */
    int sweep;                 /* the sweep a coupling stage runs (set per launch) */
    float point_weight;        /* [m^2] area of a point contact, compliant model; 0: the shapes' point areas */
    int gyroscopic;
    cc_vec3* body_force;  /* (nbody) summed contact force [N] */
    cc_vec3* body_torque; /* (nbody) summed contact torque about the centre of mass [N m] */
    /* Deterministic mode: entry 2i + side holds contact i's force and torque
     * on its shape `side`'s body; keys (body << 32 | entry) sort them by body. */
    int deterministic;
    int entry_capacity; /* 2 * contact capacity */
    uint64_t* entry_keys;
    uint64_t* sorted_keys;
    int* entry_ids;
    int* sorted_ids;
    cc_vec3* entry_force;
    cc_vec3* entry_torque;
    void* sort_temp;
    size_t sort_temp_bytes;
    /* Implicit integrator. */
    float* body_implicit;  /* (nbody x CC_IMPLICIT_TERMS) summed implicit terms */
    float* body_coupling;  /* (nbody x CC_TWIST) summed coupling of a sweep */
    float* body_dv;        /* (nbody x CC_TWIST) velocity change of the step */
    cc_body_system* body_system; /* (nbody) factored systems of the step */
    cc_contact_coupling* contact_coupling; /* (contact capacity), when sweeping */
    float* entry_implicit; /* deterministic: (entries x CC_IMPLICIT_TERMS) */
    float* entry_coupling; /* deterministic, when sweeping: (entries x CC_TWIST) */
    cc_step_report_state* report;
    /* Speculative rows (kernels/step/speculative.h): per body, what its
     * rows ask of it this round (fixed point and extremes, the same in any
     * order) and the velocity change of the arrests so far; per row its
     * target closing speed (< 0: never arrested), the closing speed it
     * must still lose this round (< 0: none) and its impulse so far (> 0:
     * arrested). NULL when the contacts come from a pipeline without
     * speculation. */
    unsigned long long* body_spec; /* (nbody x CC_SPEC_SLOTS x CC_SPEC_SLOT_WORDS) */
    long long* body_arrest;        /* (nbody x CC_SPEC_BODY_WORDS) */
    float* row_spec_target;        /* (contact capacity) [m/s] */
    float* row_spec_slack;         /* (contact capacity) [m/s] */
    float* row_spec_loss;          /* (contact capacity) [m/s] */
    float* row_spec_impulse;       /* (contact capacity) [N s] */
    int* spec_rounds_active;       /* (CC_SPEC_ROUNDS) whether each round arrested anything */
    int spec_round;                /* the round an arrest stage runs (set per launch) */
} cc_step_view;

#endif
