/* The solver object, shared by host/runtime/solver.c and host/runtime/frame_graph.c. */
#ifndef CC_HOST_RUNTIME_SOLVER_INTERNAL_H
#define CC_HOST_RUNTIME_SOLVER_INTERNAL_H

#include "host/model/model_internal.h"

struct cc_solver {
    const cc_model* model;
    cc_solver_def def;
    int contact_capacity;
    cc_step_view view; /* accumulators and scratch; states and contacts set per step */
    void* block;
    size_t block_bytes;
};

#endif
