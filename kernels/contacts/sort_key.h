/* 64-bit contact sort keys: (shape0, shape1, sub_key) with bit 63 clear.
 *
 * The sub-key numbers a pair's contacts: the manifold point index for
 * primitives and convex shapes (3 bits), and for pairs with a mesh or a
 * heightfield a fingerprint of the geometry (triangle * 8 + point, vertex *
 * 2 + side) or a reduction slot. Its width is chosen per model, wide enough
 * for the largest fingerprint the model can produce (so keys stay unique
 * for meshes and heightfields of any size), and the shapes get the rest:
 * (63 - sub_bits) / 2 bits each. Sub-keys come from the geometry, never
 * from thread or counter order, so sorting by key gives the same order
 * however the GPU scheduled the narrow phase. Empty slots hold
 * CC_KEY_EMPTY, which sorts after every real key. */
#ifndef CC_KERNELS_CONTACTS_SORT_KEY_H
#define CC_KERNELS_CONTACTS_SORT_KEY_H

#include "kernels/platform.h"

#define CC_KEY_EMPTY 0xffffffffffffffffull
#define CC_KEY_SUB_BITS_SIMPLE 3

typedef struct cc_key_layout {
    int shape_bits; /* (63 - sub_bits) / 2 */
    int sub_bits;
} cc_key_layout;

CC_HD cc_key_layout cc_key_layout_make(int sub_bits)
{
    cc_key_layout l;
    l.sub_bits = sub_bits;
    l.shape_bits = (63 - sub_bits) / 2;
    return l;
}

CC_HD uint64_t cc_contact_key(cc_key_layout l, int shape0, int shape1, unsigned sub)
{
    return ((uint64_t)(uint32_t)shape0 << (l.shape_bits + l.sub_bits)) |
           ((uint64_t)(uint32_t)shape1 << l.sub_bits) | (uint64_t)sub;
}

/* The key's shape pair, (shape0 << shape_bits | shape1). */
CC_HD uint64_t cc_key_pair(cc_key_layout l, uint64_t key) { return key >> l.sub_bits; }

CC_HD void cc_contact_key_decode(cc_key_layout l, uint64_t key, int* shape0, int* shape1, int* sub)
{
    uint64_t shape_mask = ((uint64_t)1 << l.shape_bits) - 1;
    *shape0 = (int)(key >> (l.shape_bits + l.sub_bits));
    *shape1 = (int)((key >> l.sub_bits) & shape_mask);
    *sub = (int)(key & (((uint64_t)1 << l.sub_bits) - 1));
}

#endif
