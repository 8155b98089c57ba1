/* Host-side set-up of the broad phases' fixed data: the NXN segments, the
 * explicit pair groups and the SAP entries, computed once at pipeline
 * creation from the model's host mirror. */
#ifndef CC_HOST_RUNTIME_PAIR_LAYOUT_H
#define CC_HOST_RUNTIME_PAIR_LAYOUT_H

#include "host/model/model_internal.h"

typedef struct cc_nxn_layout {
    cc_nxn_segment* segments;
    int segment_count;
    int* shape_index;
    int shape_index_count;
    int64_t total_pairs;
} cc_nxn_layout;

typedef struct cc_explicit_layout {
    cc_explicit_group* groups;
    int group_count;
    cc_pair* pairs;
    int pair_count; /* stored */
    int* instance_offset;
    int instance_count;
    int64_t total_tests;
} cc_explicit_layout;

typedef struct cc_sap_layout {
    int* entry_shape;
    int* entry_segment;
    int entry_count;
} cc_sap_layout;

cc_status cc_nxn_layout_build(const cc_model* m, cc_nxn_layout* out);
void cc_nxn_layout_free(cc_nxn_layout* l);

/* Upper bound of the pairs EXPLICIT would store, without enumerating them,
 * and (when tests_bound is not NULL) of the pairs it would test per pass. */
int64_t cc_explicit_pairs_upper_bound(const cc_model* m, int64_t* tests_bound);
/* Enumerates the compatible pairs. With count_only, fills only pair_count
 * and total_tests. */
cc_status cc_explicit_layout_build(const cc_model* m, int count_only, cc_explicit_layout* out);
void cc_explicit_layout_free(cc_explicit_layout* l);

/* SAP's entries: each world's shapes, and every global shape once per world. */
int64_t cc_sap_entry_count(const cc_model* m, int* segment_count);
cc_status cc_sap_layout_build(const cc_model* m, cc_sap_layout* out);
void cc_sap_layout_free(cc_sap_layout* l);

#endif
