/* cuContact: the collision pipeline (AABBs, broad phase, narrow phase). */
#ifndef CUCONTACT_PIPELINE_H
#define CUCONTACT_PIPELINE_H

#include "cucontact/contacts.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct cc_pipeline cc_pipeline;

/// Broad phase algorithms.
/// AUTO takes whichever of EXPLICIT and SAP a cost model of one pass says is
/// cheaper: EXPLICIT tests every stored pair of every copy, SAP sorts every
/// shape and sweeps a run that grows with the shapes per world. EXPLICIT is
/// taken only while its stored compatible pairs (8 bytes each, counted once
/// per replicated template) fit in explicit_pair_budget_bytes.
typedef enum cc_broad_phase {
    CC_BROAD_PHASE_AUTO = 0,
    CC_BROAD_PHASE_NXN = 1,      ///< every pair of every world, tested each pass
    CC_BROAD_PHASE_SAP = 2,      ///< sort and sweep along the coordinate axis the shape centres spread most on
    CC_BROAD_PHASE_EXPLICIT = 3  ///< compatible pairs precomputed at creation, AABB-tested each pass
} cc_broad_phase;

/// Name of a broad phase ("sap"); never NULL.
const char* cc_broad_phase_name(cc_broad_phase b);

/// Contact matching across passes (see cc_contacts_view.match_index).
typedef enum cc_contact_matching {
    CC_MATCHING_DISABLED = 0, ///< no matching, no extra memory
    CC_MATCHING_LATEST = 1,   ///< match by world-space midpoint; keep fresh geometry
    CC_MATCHING_STICKY = 2    ///< match by transported body-local witnesses; replay
                              ///< the previous geometry of matched penetrating contacts
} cc_contact_matching;

/// How a speculating pipeline finds contacts that close within the
/// collision horizon (README, "Speculative contacts").
typedef enum cc_speculative_mode {
    /// Velocity-adapted gaps: every candidate's detection distance grows by
    /// how far its points can close within the horizon (at most
    /// speculative_contact_gap_max), and separated points that close within
    /// it are kept. Cheap and robust; every moving shape's box grows.
    CC_SPECULATIVE_GAP = 0,
    /// Time of impact: only fast shapes (whose sweep over the horizon
    /// exceeds their smallest half extent) sweep; a convex pair with one is
    /// advanced conservatively to its time of impact and gets its
    /// manifold from the poses there, carried back to the pass's poses with
    /// an effective distance that lands the bodies on each other at the
    /// impact, unless another shape hides it (line of sight). Pairs of slow
    /// shapes, meshes and heightfields keep the gap mode.
    CC_SPECULATIVE_TOI = 1
} cc_speculative_mode;

/// In a capacity field: estimate it from the model.
#define CC_CAPACITY_AUTO (-1)

typedef struct cc_pipeline_def {
    cc_broad_phase broad_phase;        ///< (CC_BROAD_PHASE_AUTO)
    int rigid_contact_max;             ///< contact rows per buffer (CC_CAPACITY_AUTO)
    int shape_pairs_max;               ///< candidate pairs per pass (CC_CAPACITY_AUTO)
    size_t explicit_pair_budget_bytes; ///< AUTO's limit on stored explicit pairs (64 MiB)
    /// Nonzero: contacts are ordered by (shape0, shape1, sub_key) every pass, so
    /// that reruns give byte-identical buffers (0). Holds while nothing overflows.
    int deterministic;
    cc_contact_matching contact_matching;        ///< (CC_MATCHING_DISABLED); others imply deterministic
    float contact_matching_pos_threshold;        ///< largest distance of a match [m] (0.0005)
    float contact_matching_normal_dot_threshold; ///< smallest normal dot of a match (0.9)
    int contact_report; ///< nonzero: new and broken index lists each pass; needs matching (0)
    /// Shape pairs this build has no narrow-phase routine for (none among the
    /// supported types today): zero makes cc_pipeline_create fail with
    /// CC_ERR_UNSUPPORTED naming one such pair when the model has a pair that
    /// could collide; nonzero skips them, so they produce nothing (0).
    int skip_unsupported_pairs;
    /// Contact reduction of mesh and heightfield pairs: each pair keeps at
    /// most 240 representative contacts (20 normal bins x 12 slots: the
    /// deepest and the extremes of the bin's patch), chosen independently of
    /// thread order. Zero writes every raw contact (1).
    int reduce_contacts;
    /// Mesh mid-phase work items (a triangle near a shape, or a chunk of 16
    /// mesh vertices) per pass (CC_CAPACITY_AUTO: estimated from the model).
    int mesh_work_items_max;
    /// Mesh and heightfield pairs reduced per pass; pairs beyond it are
    /// written unreduced (CC_CAPACITY_AUTO).
    int mesh_reduction_pairs_max;
    /// Speculative contacts (velocity-adapted gaps) [m]: a separated
    /// candidate at contact-space distance d is also kept when
    /// d <= min(v dt, speculative_contact_gap_max), v being the closing
    /// speed along its normal at its points (both bodies' linear and angular
    /// velocity in the collided state) and dt the collision horizon
    /// (cc_pipeline_set_collision_dt): receding and common motion enlarge
    /// nothing. The limit holds for the pair, not per shape. Such rows carry
    /// the speculative flag, and cc_step keeps their bodies from passing
    /// through each other. Finite and >= 0; 0 turns speculation off (0).
    /// In the TOI mode it caps how far a shape's sweep looks ahead.
    float speculative_contact_gap_max;
    /// How speculation finds its contacts (CC_SPECULATIVE_GAP); only read
    /// when speculative_contact_gap_max > 0.
    cc_speculative_mode speculative_mode;
    int32_t cookie;                    ///< set by cc_default_pipeline_def; do not touch
} cc_pipeline_def;

cc_pipeline_def cc_default_pipeline_def(void);

/// Resolved settings of a pipeline.
typedef struct cc_pipeline_info {
    cc_broad_phase broad_phase;    ///< never AUTO
    int rigid_contact_max;
    int shape_pairs_max;
    int64_t explicit_pairs_stored; ///< pairs kept in memory (templates counted once)
    int64_t explicit_pairs_tested; ///< pairs tested per pass by EXPLICIT
    int deterministic;             ///< contacts are sorted by key each pass
    int key_shape_bits;            ///< bits per shape index in the sort key (30 or 20)
    int key_sub_bits;              ///< bits of the sub-key (3 or 23)
    size_t device_bytes;           ///< device memory the pipeline holds, contacts excluded
    int64_t unsupported_pairs;     ///< shape pairs that pass every filter but have no route
                                   ///< in this build (skipped; see skip_unsupported_pairs)
    int reduce_contacts;           ///< mesh and heightfield contacts are reduced
    int mesh_work_items_max;       ///< 0 when the model has no mesh or heightfield pair
    int mesh_reduction_pairs_max;  ///< 0 when not reducing or without such pairs
    float speculative_contact_gap_max; ///< 0: speculation off
    cc_speculative_mode speculative_mode;
} cc_pipeline_info;

/// What the last completed pass needed beyond the capacities.
typedef struct cc_overflow {
    int pairs_overflowed;    ///< nonzero: candidate pairs were dropped
    int pairs_needed;        ///< candidate pairs the pass found
    int pairs_capacity;      ///< shape_pairs_max
    int contacts_overflowed; ///< nonzero: contacts were dropped
    int contacts_needed;     ///< contacts the pass found (a lower bound if pairs overflowed)
    int contacts_capacity;   ///< rows of the contact buffer the last pass wrote
    int mesh_items_overflowed; ///< nonzero: mesh work items were dropped (their contacts missing)
    int mesh_items_needed;     ///< work items the mesh mid phase found
    int mesh_items_capacity;   ///< mesh_work_items_max
    int mesh_pairs_unreduced;  ///< surface pairs beyond mesh_reduction_pairs_max, written unreduced
} cc_overflow;

/// Stage durations of the last pass [ms], measured only when profiling is on.
typedef struct cc_stage_times {
    double aabb_ms;
    double broad_phase_ms;
    double narrow_phase_ms;
    double other_ms; ///< route grouping, sort, matching, reports, bookkeeping
    double total_ms;
} cc_stage_times;

/// Allocates every buffer the pipeline needs; cc_collide allocates nothing.
cc_status cc_pipeline_create(const cc_model* model, const cc_pipeline_def* def,
                             cc_pipeline** out);
void cc_pipeline_destroy(cc_pipeline* p);
cc_status cc_pipeline_get_info(const cc_pipeline* p, cc_pipeline_info* out);

/// A contact buffer of rigid_contact_max rows on the pipeline's device.
cc_status cc_contacts_create(const cc_pipeline* p, cc_contacts** out);

/// One collision pass: body poses of `state` in, contacts out. Only enqueues
/// work on `stream` (no allocation, no synchronisation), so it can be captured
/// into a CUDA graph. On the CPU backend it runs to completion.
cc_status cc_collide(cc_pipeline* p, const cc_state* state, cc_contacts* contacts,
                     cc_stream stream);

/// The collision horizon of speculative contacts: the time [s] until the
/// next planned cc_collide (including steps taken without one); finite and
/// >= 0, 0 keeps only the authored gaps. It lives on the device, so a
/// captured cc_collide reads the value current at each replay. This call
/// writes it with a blocking copy (ordered after work on the default
/// stream); a device kernel of the user's may write
/// cc_pipeline_collision_dt_device instead. A frame graph writes it itself.
/// Fails with CC_ERR_INVALID_STATE when the pipeline has no speculation.
cc_status cc_pipeline_set_collision_dt(cc_pipeline* p, float dt);
/// Device (on the CPU, host) address of the horizon [s], or NULL when the
/// pipeline has no speculation.
float* cc_pipeline_collision_dt_device(cc_pipeline* p);

/// Waits for the device and reads the overflow record of the last pass.
cc_status cc_pipeline_get_overflow(const cc_pipeline* p, cc_overflow* out);

/// What the time-of-impact mode did in the last completed pass (zeros in
/// the gap mode and without speculation).
typedef struct cc_speculation_stats {
    int fast_shapes;        ///< shapes whose sweep exceeded their smallest half extent
    int swept_pairs;        ///< convex pairs advanced to their time of impact
    int toi_contacts;       ///< contacts they produced (written unless the buffer overflowed)
    int occluded_pairs;     ///< impacts dropped because another shape hides them
    int capped_searches;    ///< searches stopped at their iteration cap (contact made where they stopped)
    int iterations_max;     ///< the most separation queries one search took (refinement included; at most 40)
} cc_speculation_stats;

/// Waits for the device and reads the last pass's speculation figures.
cc_status cc_pipeline_get_speculation_stats(const cc_pipeline* p, cc_speculation_stats* out);

/// Candidate pairs of the last pass (after a wait), as (shape_a, shape_b)
/// with shape_a < shape_b, in no particular order. For tests and tools.
cc_status cc_pipeline_download_pairs(const cc_pipeline* p, int* pairs_ab, int max_pairs,
                                     int* out_count);

/// Candidate pairs of one narrow-phase route in the last pass.
typedef struct cc_route_stats {
    cc_shape_type type_a, type_b; ///< the pair's types, lower first
    int pairs;                    ///< candidate pairs that ran the route
    double ns_per_pair;           ///< CPU backend with profiling on; else -1
} cc_route_stats;

/// Routes that ran in the last pass (after a wait), at most `max` of them.
cc_status cc_pipeline_get_route_stats(const cc_pipeline* p, cc_route_stats* out, int max,
                                      int* out_count);

/// Per-stage timing for benchmarks. With profiling on, cc_collide waits for
/// each stage to finish, so leave it off in production and graph capture.
cc_status cc_pipeline_set_profiling(cc_pipeline* p, int enabled);
cc_status cc_pipeline_get_stage_times(const cc_pipeline* p, cc_stage_times* out);

#ifdef __cplusplus
}
#endif

#endif
