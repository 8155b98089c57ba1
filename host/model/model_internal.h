/* The finalized model and state, shared by the host sources. */
#ifndef CC_HOST_MODEL_MODEL_INTERNAL_H
#define CC_HOST_MODEL_MODEL_INTERNAL_H

#include "host/backend/backend.h"
#include "host/model/builder_internal.h"

struct cc_model {
    cc_device device;
    const cc_backend* backend;
    cc_model_view view;      /* device pointers */
    cc_model_view host_view; /* the same arrays on the host, for pipeline set-up */
    void* device_block;
    void* host_block;
    size_t block_bytes;
    cc_transform* initial_pose; /* (nbody) host */
    cc_replica_block* blocks;   /* replication layout, irregular ones marked */
    int block_count;
    cc_mass_properties* body_mass; /* (nbody) host, as finalized */
    /* References: the user's (until cc_model_destroy) and one per state,
     * pipeline, contacts and solver, so that the model outlives them in
     * whatever order they are destroyed. */
    int refs;
};

struct cc_state {
    const cc_model* model;
    cc_transform* body_pose;    /* device */
    cc_vec3* body_linear;       /* device */
    cc_vec3* body_angular;      /* device */
    void* device_block;         /* poses, then linear, then angular velocities */
    size_t block_bytes;
};

/* Makes the model's device current on the calling thread. Every call on a
 * model's objects (states, pipelines, contacts, solvers, frame graphs)
 * starts with it, so each runs on the model's device whatever the thread
 * had current. */
cc_status cc_model_activate(const cc_model* m);

/* A dependent object takes and gives back a reference to its model; the
 * last one given back frees the model. */
void cc_model_retain(const cc_model* m);
void cc_model_release(const cc_model* m);

/* Device record of a body's mass properties (zero inverse mass for static
 * bodies and bodies without mass). */
cc_body_mass cc_body_mass_record(const cc_mass_properties* p, int is_static);

#endif
