/* The separation of two convex cores along a direction: the quantity every
 * search over directions (the ascent, the polish, the separating axes)
 * compares. */
#ifndef CC_KERNELS_CONVEX_SEPARATION_H
#define CC_KERNELS_CONVEX_SEPARATION_H

#include "kernels/shapes/support.h"

/* Separation of the cores along unit n (positive: apart), with the support
 * points in the shapes' own frames. It never exceeds the signed distance,
 * so of two directions the one with the larger separation is the better
 * normal. */
CC_HD_CALL float cc_convex_separation_local(const cc_convex* a, const cc_convex* b, cc_vec3 n, cc_vec3* la, cc_vec3* lb)
{
    return -cc_support_height(b, cc_v3_neg(n), lb) - cc_support_height(a, n, la);
}

/* The separation alone, for directions only compared. */
CC_HD float cc_convex_separation_along(const cc_convex* a, const cc_convex* b, cc_vec3 n)
{
    cc_vec3 la, lb;
    return cc_convex_separation_local(a, b, n, &la, &lb);
}

/* The same with the support points in pair coordinates. */
CC_HD_CALL float cc_convex_separation(const cc_convex* a, const cc_convex* b, cc_vec3 n, cc_vec3* pa, cc_vec3* pb)
{
    cc_vec3 la, lb;
    float sep = cc_convex_separation_local(a, b, n, &la, &lb);
    *pa = cc_frame_point_out(&a->f, la);
    *pb = cc_frame_point_out(&b->f, lb);
    return sep;
}

#endif
