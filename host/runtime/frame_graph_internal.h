/* Frame graphs' shared insides: the object, its creation and capture
 * (frame_graph.c), and the collision sub-step scheduler's frames
 * (frame_schedule.c). */
#ifndef CC_HOST_RUNTIME_FRAME_GRAPH_INTERNAL_H
#define CC_HOST_RUNTIME_FRAME_GRAPH_INTERNAL_H

#include "host/runtime/pipeline_internal.h"
#include "host/runtime/solver_internal.h"

/* A recorded frame (cucontact/solver.h). */
struct cc_frame_graph {
    cc_pipeline* pipeline;
    cc_solver* solver;
    cc_state* states[2];
    cc_contacts* contacts;
    int substeps, collide_every_n;
    float dt;
    const cc_backend* backend;
    void* exec;           /* cudaGraphExec_t on CUDA, NULL on the CPU */
    cc_stream own_stream; /* capture stream when the user gave the default one */
    float* horizons;      /* device: per collide, its horizon [s]; NULL without speculation */
    /* Scheduled frames only (scheduled nonzero). */
    int scheduled, capture;
    cc_schedule_view schedule; /* per substep, the observed state and the substep are set */
    cc_stream body_stream;     /* captures the passes into the conditional nodes' bodies */
};

/* A frame graph of the pipeline, solver and states, with its contact
 * buffer, after the checks every frame graph needs; `what` names the
 * caller in errors. */
cc_status cc_frame_graph_new(cc_pipeline* pipeline, cc_solver* solver, cc_state* states[2], const char* what,
                             cc_frame_graph** out);
/* Records the frame into a CUDA graph where the backend captures (and the
 * graph asks for it); on the CPU, launches replay the recording code. */
cc_status cc_frame_graph_capture(cc_frame_graph* g, cc_stream stream);

/* A scheduled frame (frame_schedule.c): recorded directly (bodies NULL),
 * or captured with a conditional node per substep whose body graph goes
 * to bodies[k]; captured whole into g->exec; its buffers released. */
cc_status cc_frame_schedule_record(cc_frame_graph* g, cc_stream stream, void** bodies);
cc_status cc_frame_schedule_capture(cc_frame_graph* g, cc_stream capture);
void cc_frame_schedule_release(cc_frame_graph* g);

#endif
