/* AUTO's cost model. Both estimates are nanoseconds of one pass on one CPU
 * core, fitted to measured passes of the bench scenes (README, "Broad
 * phase"):
 *
 *   EXPLICIT = tests * 2.5, one AABB test per stored pair per copy;
 *   SAP      = 1000 + entries * (70 + 1.2 * n^(2/3)), n = entries per world.
 *
 * SAP's per-entry term is the key, the sort and the gather; n^(2/3) is the
 * sweep length in a world about as deep as it is wide (a flat world sweeps
 * fewer, n^(1/2), so the estimate leans towards EXPLICIT). The GPU runs
 * both broad phases on the same data, so the same ratio decides there. */
#include <math.h>

#include "host/runtime/broad_phase_choice.h"
#include "host/runtime/pair_layout.h"

#define EXPLICIT_NS_PER_TEST 2.5
#define SAP_NS_PER_PASS 1000.0
#define SAP_NS_PER_ENTRY 70.0
#define SAP_NS_PER_CANDIDATE 1.2
/* Above this many pair checks, AUTO does not count explicit pairs exactly
 * (the count would take seconds) and takes SAP. */
#define EXPLICIT_COUNT_LIMIT ((int64_t)1 << 28)

static double sap_cost(const cc_model* m)
{
    int segments = 1;
    double entries = (double)cc_sap_entry_count(m, &segments);
    double per_world = entries / (double)segments;
    return SAP_NS_PER_PASS + entries * (SAP_NS_PER_ENTRY + SAP_NS_PER_CANDIDATE * pow(per_world, 2.0 / 3.0));
}

cc_status cc_choose_broad_phase(const cc_model* m, const cc_pipeline_def* d, cc_broad_phase* out)
{
    if (d->broad_phase != CC_BROAD_PHASE_AUTO) {
        *out = d->broad_phase;
        return CC_OK;
    }
    double sap_ns = sap_cost(m), explicit_ns = INFINITY;
    int64_t budget_pairs = (int64_t)(d->explicit_pair_budget_bytes / sizeof(cc_pair));
    int64_t tests_bound = 0;
    int64_t stored_bound = cc_explicit_pairs_upper_bound(m, &tests_bound);
    if (stored_bound <= budget_pairs && (double)tests_bound * EXPLICIT_NS_PER_TEST <= sap_ns) {
        /* Cheaper even at the bound: no need to count. */
        explicit_ns = (double)tests_bound * EXPLICIT_NS_PER_TEST;
    } else if (stored_bound <= EXPLICIT_COUNT_LIMIT) {
        cc_explicit_layout count;
        cc_status s = cc_explicit_layout_build(m, 1, &count);
        if (s != CC_OK) return s;
        if (count.pair_count <= budget_pairs) explicit_ns = (double)count.total_tests * EXPLICIT_NS_PER_TEST;
        cc_explicit_layout_free(&count);
    }
    *out = explicit_ns <= sap_ns ? CC_BROAD_PHASE_EXPLICIT : CC_BROAD_PHASE_SAP;
    return CC_OK;
}
