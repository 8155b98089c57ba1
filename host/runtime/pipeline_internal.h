/* The pipeline object, shared by host/runtime/pipeline.c and host/runtime/contacts.c. */
#ifndef CC_HOST_RUNTIME_PIPELINE_INTERNAL_H
#define CC_HOST_RUNTIME_PIPELINE_INTERNAL_H

#include "host/model/model_internal.h"

#define CC_MAX_PIPELINE_BUFFERS 40
#define CC_TIMER_COUNT 6

struct cc_pipeline {
    const cc_model* model;
    const cc_backend* backend;
    cc_pipeline_info info;
    cc_pass_view view; /* device pointers; body_pose and contacts set per pass */
    void* buffers[CC_MAX_PIPELINE_BUFFERS];
    int buffer_count;
    int profiling;
    int last_contact_capacity; /* capacity of the buffer the last pass wrote */
    void* timers[CC_TIMER_COUNT];
    cc_stage_times times;
    double route_seconds[CC_ROUTE_COUNT]; /* CPU profiling */
    cc_pipeline_def def;                  /* as created, deterministic resolved */
    float* horizon;                       /* device: speculation's collision dt; NULL when off */
    float* reserve;                       /* device: the scheduler's distance reserve during its passes, else 0 */
};

struct cc_contacts {
    const cc_model* model;
    int id; /* tells the matcher which buffer the previous pass wrote */
    int speculative; /* made by a pipeline with speculative contacts */
    cc_contacts_view view;
    void* block;
};

/* Bytes of the SoA contact columns for `rows` rows; with base set, also
 * points the view's columns into it (the count lives in the first 16 bytes). */
size_t cc_contact_columns_layout(cc_contacts_view* v, int rows, char* base);

#endif
