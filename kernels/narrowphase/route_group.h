/* Groups candidate pairs by route (a counting sort: histogram, exclusive
 * scan, scatter) so that the threads of a GPU warp run the same pair
 * routine. The scatter's order within a route is thread order on the GPU;
 * the deterministic mode orders contacts afterwards by geometric keys. */
#ifndef CC_KERNELS_NARROWPHASE_ROUTE_GROUP_H
#define CC_KERNELS_NARROWPHASE_ROUTE_GROUP_H

#include "kernels/model_view.h"
#include "kernels/broadphase/pair_buffer.h"
#include "kernels/pass_counters.h"

/* Route of a candidate pair, whose shapes go lower type first. */
CC_HD int cc_pair_route(const cc_model_view* m, cc_pair p)
{
    int ta = m->shape_geom[p.a].type, tb = m->shape_geom[p.b].type;
    return ta <= tb ? cc_route_of(ta, tb) : cc_route_of(tb, ta);
}

CC_HD void cc_route_histogram_thread(int i, const cc_model_view* m, const cc_pair* pairs,
                                     cc_pass_counters* c)
{
    cc_atomic_add_i32(&c->route_count[cc_pair_route(m, pairs[i])], 1);
}

/* One thread: route cursors start at the exclusive prefix of the counts. */
CC_HD void cc_route_scan(cc_pass_counters* c)
{
    int sum = 0;
    for (int r = 0; r < CC_ROUTE_COUNT; ++r) {
        c->route_cursor[r] = sum;
        sum += c->route_count[r];
    }
}

CC_HD void cc_route_scatter_thread(int i, const cc_model_view* m, const cc_pair* pairs,
                                   cc_pair* grouped, cc_pass_counters* c)
{
    cc_pair p = pairs[i];
    int slot = cc_atomic_add_i32(&c->route_cursor[cc_pair_route(m, p)], 1);
    grouped[slot] = p;
}

#endif
