/* What one step's kernels see: the model, the input and output states, the
 * contact buffer, and the solver's per-body force accumulators (plus, in
 * deterministic mode, per-contact force entries sorted by body). */
#ifndef CC_KERNELS_STEP_STEP_VIEW_H
#define CC_KERNELS_STEP_STEP_VIEW_H

#include "cucontact/contacts.h"
#include "kernels/model_view.h"

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
    float point_weight;        /* [m^2] area of a point contact, compliant model */
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
} cc_step_view;

#endif
