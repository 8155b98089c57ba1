/* The interface the pipeline drives. A backend moves memory and runs each
 * stage's kernel body from kernels/: the CPU backend in loops, the CUDA
 * backend as launches on a stream. Stages read device-side counts
 * themselves, so the host never waits between stages. */
#ifndef CC_HOST_BACKEND_BACKEND_H
#define CC_HOST_BACKEND_BACKEND_H

#include "host/internal.h"
#include "kernels/pass_view.h"
#include "kernels/step/schedule.h"
#include "kernels/step/step_view.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum cc_stage {
    CC_STAGE_CLEAR_COUNTERS,
    CC_STAGE_SHAPE_BOUNDS,
    CC_STAGE_NXN,
    CC_STAGE_EXPLICIT,
    CC_STAGE_SAP_AXIS,
    CC_STAGE_SAP_PROJECT,
    CC_STAGE_SAP_SORT,
    CC_STAGE_SAP_GATHER,
    CC_STAGE_SAP_SWEEP,
    CC_STAGE_ROUTE_GROUP,
    CC_STAGE_NARROWPHASE,
    CC_STAGE_TOI_LINK,         /* TOI mode: candidate lists of the line of sight */
    CC_STAGE_TOI,              /* TOI mode: swept convex pairs with a fast shape */
    CC_STAGE_MESH_MIDPHASE,    /* work items and reduction blocks of surface pairs */
    CC_STAGE_MESH_CLEAR_SLOTS, /* zero the reduction blocks taken */
    CC_STAGE_MESH_GROUP,       /* work items grouped by kind */
    CC_STAGE_MESH_CONTACTS,    /* raw contacts: written, or voted when reducing */
    CC_STAGE_MESH_EMIT,        /* reduction: the kept contacts written */
    CC_STAGE_FINALIZE,
    CC_STAGE_KEYS_CLEAR,     /* raw keys := CC_KEY_EMPTY */
    CC_STAGE_CONTACT_SORT,   /* radix sort of raw keys */
    CC_STAGE_CONTACT_GATHER, /* sorted rows into the user's buffer */
    CC_STAGE_MATCH,          /* generations, claims, resolve (and sticky replay) */
    CC_STAGE_REPORT,         /* new and broken index lists */
    CC_STAGE_MATCH_SAVE      /* this pass becomes the previous one */
} cc_stage;

/* The stages of cc_step, in order (the sorts and reductions only in
 * deterministic mode; the solves and sweeps only with the implicit
 * integrator: a solve, then per sweep the coupling, its reduction and a
 * solve). */
typedef enum cc_step_stage {
    CC_STEP_CLEAR,           /* zero the accumulators (and entry keys), open the step's report */
    CC_STEP_SPECULATIVE,     /* one thread per contact: which speculative rows can arrest, and the first round's losses */
    CC_STEP_SPECULATIVE_CLEAR,    /* one thread per body: empty slots for a later arrest round */
    CC_STEP_SPECULATIVE_RESIDUAL, /* one thread per contact: a later round's losses (view.spec_round set) */
    CC_STEP_ARREST,          /* one thread per contact: a round's impulses and the bodies' velocity changes */
    CC_STEP_CONTACT_FORCES,  /* one thread per contact */
    CC_STEP_SORT_ENTRIES,    /* radix sort of the entry keys */
    CC_STEP_REDUCE,          /* one thread per body, entries in sorted order */
    CC_STEP_SOLVE,           /* one thread per body: its implicit 6x6 system (view.sweep set) */
    CC_STEP_COUPLING,        /* one thread per contact: a sweep's coupling */
    CC_STEP_REDUCE_COUPLING, /* one thread per body, coupling entries in sorted order */
    CC_STEP_INTEGRATE        /* one thread per body, then the report */
} cc_step_stage;

/* The collision sub-step scheduler's stages (kernels/step/schedule.h). */
typedef enum cc_schedule_stage {
    CC_SCHEDULE_OBSERVE, /* one thread per shape: its speed bound into the running maximum */
    CC_SCHEDULE_DECIDE   /* one thread: the decision (and, on CUDA, the conditional's value) */
} cc_schedule_stage;

typedef struct cc_backend {
    const char* name;
    /* Checks that the device exists and makes it current. */
    cc_status (*open_device)(int ordinal);
    /* Makes the device current for the calling thread (cheap when it is);
     * NULL on the CPU. */
    cc_status (*activate)(int ordinal);
    cc_status (*alloc)(size_t bytes, void** out);
    void (*free)(void* p);
    /* Blocking copies; the device-to-host one waits for all prior work. */
    cc_status (*upload)(void* dst, const void* src, size_t bytes);
    cc_status (*download)(void* dst, const void* src, size_t bytes);
    /* Scratch bytes the SAP radix sort of n 64-bit keys needs. */
    size_t (*sort_temp_bytes)(int n);
    /* Scratch bytes for selecting up to n indices into a compact list. */
    size_t (*select_temp_bytes)(int n);
    /* Enqueues one stage of a pass. */
    cc_status (*run_stage)(cc_stage stage, const cc_pass_view* v, cc_stream stream);
    /* Timing marks for profiling: record on the stream, then read after a wait. */
    cc_status (*timer_create)(void** timer);
    void (*timer_destroy)(void* timer);
    cc_status (*timer_record)(void* timer, cc_stream stream);
    cc_status (*timer_elapsed_ms)(void* start, void* end, double* ms);
    cc_status (*synchronize)(cc_stream stream);
    /* Enqueues one stage of a step. */
    cc_status (*run_step_stage)(cc_step_stage stage, const cc_step_view* v, cc_stream stream);
    /* Enqueued device-to-device copy. */
    cc_status (*copy_async)(void* dst, const void* src, size_t bytes, cc_stream stream);
    /* Graph capture: begin on a stream, end into an executable graph, replay,
     * release. NULL on the CPU, which records frames itself. */
    cc_status (*capture_begin)(cc_stream stream);
    cc_status (*capture_end)(cc_stream stream, void** exec);
    cc_status (*graph_launch)(void* exec, cc_stream stream);
    void (*graph_destroy)(void* exec);
    /* A stream of the library's own, for capture when the user passes the
     * default stream (which cannot be captured); NULL on the CPU. */
    cc_status (*stream_create)(cc_stream* out);
    void (*stream_destroy)(cc_stream stream);
    /* Enqueues one stage of the collision sub-step scheduler. */
    cc_status (*run_schedule_stage)(cc_schedule_stage stage, const cc_schedule_view* v, cc_stream stream);
    /* Conditional capture (NULL on the CPU, which branches on the host):
     * a handle of the graph being captured on `stream`, for a decision
     * kernel to set; an IF node on that handle appended to the capture,
     * whose (empty) body graph is returned; ending a capture into a graph
     * without instantiating it, so that bodies can be filled by capturing
     * another stream into them; instantiating (which releases the graph);
     * releasing an uninstantiated graph. */
    cc_status (*capture_condition)(cc_stream stream, unsigned long long* handle);
    cc_status (*capture_if)(cc_stream stream, unsigned long long handle, void** body);
    cc_status (*capture_end_graph)(cc_stream stream, void** graph);
    cc_status (*capture_into_begin)(cc_stream stream, void* graph);
    cc_status (*capture_into_end)(cc_stream stream);
    cc_status (*graph_instantiate)(void* graph, void** exec);
    void (*graph_release)(void* graph);
} cc_backend;

const cc_backend* cc_backend_cpu(void);
/* NULL when the library was built without CUDA. */
const cc_backend* cc_backend_cuda(void);

/* Name and peak memory bandwidth of CUDA device `ordinal`. */
cc_status cc_cuda_describe(int ordinal, char* name, size_t name_size, double* peak_gbps);

/* Backend for a device, or an error naming what is missing. */
cc_status cc_backend_for(cc_device device, const cc_backend** out);

/* Allocation made by the library through a backend (host or device). Every
 * allocation the pipeline makes goes through here, so that tests can check
 * that cc_collide allocates nothing. */
cc_status cc_device_alloc(const cc_backend* be, size_t bytes, void** out);

#ifdef __cplusplus
}
#endif

#endif
