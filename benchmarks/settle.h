/* The settle scene's stepping (settle.c): a small simulation of model,
 * pipeline, contacts, solver and two states, its measures, and the
 * benchmark run that prints them for each integrator. */
#ifndef CC_BENCH_SETTLE_H
#define CC_BENCH_SETTLE_H

#include "benchmarks/scenes.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct settle_sim {
    cc_model* model;
    cc_pipeline* pipeline;
    cc_contacts* contacts;
    cc_solver* solver;
    cc_state* state[2];
    int current, bodies, capacity;
    float* mass;    /* per body [kg], 0 for static bodies */
    float* inertia; /* per body, 3x3 about the centre of mass, body axes */
    cc_vec3* center; /* per body, centre of mass in the body frame */
    cc_transform* pose;
    cc_vec3 *linear, *angular;
    cc_contact* rows;
} settle_sim;

typedef struct settle_measures {
    double energy;    /* potential of gravity plus kinetic, all bodies [J] */
    double max_speed; /* [m/s] */
    double max_spin;  /* [rad/s] */
    double deepest;   /* deepest penetration of the last collide [m], 0 if none */
    int finite;       /* every pose and velocity finite */
} settle_measures;

cc_status settle_create(const cc_builder* b, cc_device device, const cc_solver_def* sd, int deterministic,
                        settle_sim* s);
/* Collide, then step dt. */
cc_status settle_step(settle_sim* s, float dt);
cc_status settle_measure(settle_sim* s, cc_vec3 gravity, settle_measures* m);
void settle_destroy(settle_sim* s);

/* Prints the settle table for both integrators; returns the failures. */
int bench_settle(cc_device device, int worlds, int shapes, double seconds, int deterministic);

#ifdef __cplusplus
}
#endif

#endif
