/* Which shape pairs may collide, independent of their poses: the world
 * rule, the collision-group truth table, the type/affinity bitmasks, the
 * automatic filters (same body, static-static, parent/child bodies),
 * explicit filter pairs, and whether a narrow-phase route exists for the
 * two types. A contact pair overrides all but the world, static-static and
 * route rules. Every broad phase calls
 * cc_pair_may_collide, so all of them honour the same rules. */
#ifndef CC_KERNELS_BROADPHASE_FILTER_H
#define CC_KERNELS_BROADPHASE_FILTER_H

#include "kernels/contacts/contact_pairs.h"
#include "kernels/model_view.h"
#include "kernels/narrowphase/route.h"

/* World rule: -1 collides with every world; others only within their own. */
CC_HD int cc_worlds_may_collide(int wa, int wb) { return wa == -1 || wb == -1 || wa == wb; }

/* Group rule: 0 never; positive with the same positive or any negative;
 * negative with everything except the same negative group. */
CC_HD int cc_groups_may_collide(int ga, int gb)
{
    if (ga == 0 || gb == 0) return 0;
    if (ga > 0 && gb > 0) return ga == gb;
    if (ga < 0 && gb < 0) return ga != gb;
    return 1;
}

/* Bitmask rule (MuJoCo's contype/conaffinity): either shape's type bits
 * must meet the other's affinity bits. */
CC_HD int cc_bits_may_collide(uint32_t type_a, uint32_t affinity_a, uint32_t type_b, uint32_t affinity_b)
{
    return ((type_a & affinity_b) | (type_b & affinity_a)) != 0u;
}

/* Binary search of the sorted explicit filter pairs. */
CC_HD int cc_is_filter_pair(const cc_model_view* m, int a, int b)
{
    return cc_pair_key_row(m->filter_pairs, m->filter_pair_count, cc_filter_pair_key(a, b)) >= 0;
}

/* Every rule but the static-static one (the line of sight asks whether a
 * static shape could collide with another static one's partner, as a
 * table hides the floor); with check_route zero, all but the route rule
 * too. */
CC_HD int cc_pair_passes_rules_of_any_motion(const cc_model_view* m, int a, int b, int check_route)
{
    if (a == b) return 0;
    unsigned fa = m->shape_flags[a], fb = m->shape_flags[b];
    if (!(fa & fb & CC_SHAPE_FLAG_COLLIDES)) return 0;
    if (!cc_worlds_may_collide(m->shape_world[a], m->shape_world[b])) return 0;
    if ((fa & fb & CC_SHAPE_FLAG_IN_CONTACT_PAIR) && cc_contact_pair_index(m, a, b) >= 0)
        return !check_route || cc_route_exists(m->shape_geom[a].type, m->shape_geom[a].size, m->shape_geom[b].type,
                                               m->shape_geom[b].size);
    if ((fa | fb) & CC_SHAPE_FLAG_PAIRS_ONLY) return 0;
    if (!cc_groups_may_collide(m->shape_group[a], m->shape_group[b])) return 0;
    if (!cc_bits_may_collide(m->shape_type_bits[a], m->shape_affinity_bits[a], m->shape_type_bits[b],
                             m->shape_affinity_bits[b]))
        return 0;
    const cc_shape_geometry* ga = &m->shape_geom[a];
    const cc_shape_geometry* gb = &m->shape_geom[b];
    int ba = ga->body, bb = gb->body;
    if (ba == bb && ba >= 0) return 0;
    if (((fa | fb) & CC_SHAPE_FLAG_FILTER_PARENT) && ba >= 0 && bb >= 0 &&
        (m->body_parent[ba] == bb || m->body_parent[bb] == ba))
        return 0;
    if (check_route && !cc_route_exists(ga->type, ga->size, gb->type, gb->size))
        return 0;
    if ((fa & fb & CC_SHAPE_FLAG_HAS_FILTERS) && cc_is_filter_pair(m, a, b)) return 0;
    return 1;
}

/* Every rule; with check_route zero, all but the route rule (pipeline
 * creation uses that to find pairs this build cannot collide yet). */
CC_HD int cc_pair_passes_rules(const cc_model_view* m, int a, int b, int check_route)
{
    if (m->shape_flags[a] & m->shape_flags[b] & CC_SHAPE_FLAG_STATIC) return 0;
    return cc_pair_passes_rules_of_any_motion(m, a, b, check_route);
}

CC_HD int cc_pair_may_collide(const cc_model_view* m, int a, int b) { return cc_pair_passes_rules(m, a, b, 1); }

#endif
