/* AUTO's choice of broad phase: the cheaper of EXPLICIT and SAP by a cost
 * model of one pass, EXPLICIT only while its stored pairs fit the budget. */
#ifndef CC_HOST_RUNTIME_BROAD_PHASE_CHOICE_H
#define CC_HOST_RUNTIME_BROAD_PHASE_CHOICE_H

#include "host/model/model_internal.h"

/* d->broad_phase when it is not AUTO, else the cheaper broad phase. */
cc_status cc_choose_broad_phase(const cc_model* m, const cc_pipeline_def* d, cc_broad_phase* out);

#endif
