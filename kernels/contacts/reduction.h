/* Contact reduction for mesh and heightfield pairs: a bounded, thread-order
 * independent representative set of at most CC_REDUCE_SLOTS contacts per
 * shape pair, chosen from any number of raw contacts.
 *
 * Layout. Each pair owns CC_REDUCE_SLOTS = 240 64-bit slots: 20 normal bins
 * x 12 slots. A raw contact's bin is the face direction of a regular
 * icosahedron nearest its normal (the 20 vertices of the dual dodecahedron).
 * The icosahedron is oriented with a face on +z (z is up in this library)
 * and a second face direction in the xz-plane, so the common cases - a body
 * resting on ground, a heightfield or a horizontal mesh (normal +-z) and
 * walls facing +-x - fall on the centre of a bin instead of a tie between two
 * (the textbook orientation puts +z exactly between two faces, so a slightly
 * noisy flat patch would split in two bins). Neighbouring face directions
 * are 41.8 degrees apart, so a bin collects normals within about 21-38
 * degrees of its direction: one flat or gently curved patch is one bin.
 *
 * Scoring within a bin (slot j of the bin's 12):
 *   j = 0      depth: score = -distance, so the deepest contact (smallest
 *              signed distance) wins. The deepest point carries the largest
 *              penalty force and the one position error the solver must
 *              resolve first; keeping it also guarantees that the deepest
 *              contact of the whole pair is always kept.
 *   j = 1..11  spatial extremes: the point (relative to the per-pair
 *              reference point) is projected on the bin's fixed tangent
 *              frame (u, v) and then on the direction
 *              d_k = cos(2 pi k / 11) u + sin(2 pi k / 11) v, k = j - 1;
 *              score = dot(p, d_k) - CC_REDUCE_DEPTH_BONUS * distance.
 *              Eleven directions spread evenly over the full 360 degrees
 *              (32.7 degrees apart) capture both +d and -d extremes with one
 *              slot each: every hull vertex whose exterior angle exceeds
 *              32.7 degrees (every corner of a square, rectangle or L
 *              footprint, however rotated) is the extreme of some direction,
 *              and on a round footprint the 11 extremes span an 11-gon with
 *              ~95% of the disk's area. The small depth bonus (1 cm of
 *              projection per metre of depth) only breaks ties among equally
 *              extreme points (a whole edge of a grid aligned with d_k) in
 *              favour of the deeper one; it is far too small to move an
 *              extreme noticeably.
 *
 * Key. key = (order_bits(score) << 32) | fingerprint, where order_bits maps
 * a float to a uint32 with the same order (negative floats bit-inverted,
 * positives with the sign bit set). Each slot keeps the maximum key by a
 * 64-bit atomic max: the best score, ties to the larger fingerprint. A
 * non-NaN score has order bits >= 0x007fffff (that of -inf), so a real key
 * is never 0 and 0 means an empty slot.
 *
 * Use (two passes over the same deterministic raw contacts):
 *   clear:  cc_reduce_clear(slots), or memset the pair's 240 slots to 0;
 *   pass 1: every raw contact calls cc_reduce_vote;
 *   pass 2: every raw contact, recomputed bit for bit, calls cc_reduce_kept
 *           and is emitted when it returns 1, with sub_key in [0, 240).
 *
 * Guarantees. Max is commutative and associative, so the slot contents,
 * the kept set and the sub-keys depend only on the set of raw contacts,
 * never on the order in which threads vote or ask. At most 12 contacts per
 * bin and 240 per pair are kept. A kept contact is emitted exactly once
 * (with the first slot it holds), and distinct kept contacts get distinct
 * sub-keys because a slot holds one key and keys carry the fingerprint.
 * The pair's deepest contact is always kept (slot 0 of its bin).
 *
 * Caller contract: fingerprints are unique within the pair and derived from
 * the geometry (e.g. triangle index * 8 + manifold point index); the
 * reference point is the same in both passes (choose one near the contact
 * region, e.g. a shape origin, to keep float precision); pass 2 recomputes
 * point, normal and distance bit-identically (the library builds with
 * -ffp-contract=off / --fmad=false, so vote and kept evaluate the same float
 * operations). The normal need not be exactly unit length.
 *
 * Non-finite input: a contact with a NaN or infinite component in its
 * point, normal or distance never votes and is never kept (cc_reduce_kept
 * returns 0), so it cannot put a NaN-derived key into a slot. A slot whose
 * score overflows to NaN (inf - inf) is skipped the same way in both
 * passes. */
#ifndef CC_KERNELS_CONTACTS_REDUCTION_H
#define CC_KERNELS_CONTACTS_REDUCTION_H

#include <string.h>

#include "kernels/math/vec3.h"
#include "kernels/platform.h"

#define CC_REDUCE_BINS 20
#define CC_REDUCE_SLOTS_PER_BIN 12
#define CC_REDUCE_SLOTS 240 /* CC_REDUCE_BINS * CC_REDUCE_SLOTS_PER_BIN */
/* Projection gained per unit of depth in the extreme slots (tie-break). */
#define CC_REDUCE_DEPTH_BONUS 0.01f

/* Face direction b of the regular icosahedron (unit; exact in double,
 * rounded to float). Bins 0 and 19 are +z and -z; 1-3, 4-9, 10-15 and
 * 16-18 are rings at z = +sqrt(5)/3, +1/3, -1/3, -sqrt(5)/3, each ordered
 * by azimuth; bin 4 lies in the xz-plane. */
CC_HD cc_vec3 cc_reduce_bin_direction(int b)
{
    switch (b) {
    case 0: return cc_v3(0.0f, 0.0f, 1.0f);
    case 1: return cc_v3(0.527046277f, 0.40824829f, 0.745355992f);
    case 2: return cc_v3(-0.617076529f, 0.252311319f, 0.745355992f);
    case 3: return cc_v3(0.0900302522f, -0.66055961f, 0.745355992f);
    case 4: return cc_v3(0.942809042f, 0.0f, 0.333333333f);
    case 5: return cc_v3(0.23570226f, 0.912870929f, 0.333333333f);
    case 6: return cc_v3(-0.471404521f, 0.816496581f, 0.333333333f);
    case 7: return cc_v3(-0.908420545f, -0.252311319f, 0.333333333f);
    case 8: return cc_v3(-0.471404521f, -0.816496581f, 0.333333333f);
    case 9: return cc_v3(0.672718285f, -0.66055961f, 0.333333333f);
    case 10: return cc_v3(0.908420545f, 0.252311319f, -0.333333333f);
    case 11: return cc_v3(0.471404521f, 0.816496581f, -0.333333333f);
    case 12: return cc_v3(-0.672718285f, 0.66055961f, -0.333333333f);
    case 13: return cc_v3(-0.942809042f, 0.0f, -0.333333333f);
    case 14: return cc_v3(-0.23570226f, -0.912870929f, -0.333333333f);
    case 15: return cc_v3(0.471404521f, -0.816496581f, -0.333333333f);
    case 16: return cc_v3(-0.0900302522f, 0.66055961f, -0.745355992f);
    case 17: return cc_v3(-0.527046277f, -0.40824829f, -0.745355992f);
    case 18: return cc_v3(0.617076529f, -0.252311319f, -0.745355992f);
    default: return cc_v3(0.0f, 0.0f, -1.0f);
    }
}

/* Tangent frame (u, v) of bin b: u = normalize(z x n) (u = x for the
 * poles), v = n x u. Fixed per bin so that every contact of the bin is
 * projected the same way. */
CC_HD void cc_reduce_bin_frame(int b, cc_vec3* u, cc_vec3* v)
{
    cc_vec3 t;
    switch (b) {
    case 0: t = cc_v3(1.0f, 0.0f, 0.0f); break;
    case 1: t = cc_v3(-0.612372436f, 0.790569415f, 0.0f); break;
    case 2: t = cc_v3(-0.378466979f, -0.925614793f, 0.0f); break;
    case 3: t = cc_v3(0.990839415f, 0.135045378f, 0.0f); break;
    case 4: t = cc_v3(0.0f, 1.0f, 0.0f); break;
    case 5: t = cc_v3(-0.968245837f, 0.25f, 0.0f); break;
    case 6: t = cc_v3(-0.866025404f, -0.5f, 0.0f); break;
    case 7: t = cc_v3(0.267616567f, -0.963525492f, 0.0f); break;
    case 8: t = cc_v3(0.866025404f, -0.5f, 0.0f); break;
    case 9: t = cc_v3(0.700629269f, 0.713525492f, 0.0f); break;
    case 10: t = cc_v3(-0.267616567f, 0.963525492f, 0.0f); break;
    case 11: t = cc_v3(-0.866025404f, 0.5f, 0.0f); break;
    case 12: t = cc_v3(-0.700629269f, -0.713525492f, 0.0f); break;
    case 13: t = cc_v3(0.0f, -1.0f, 0.0f); break;
    case 14: t = cc_v3(0.968245837f, -0.25f, 0.0f); break;
    case 15: t = cc_v3(0.866025404f, 0.5f, 0.0f); break;
    case 16: t = cc_v3(-0.990839415f, -0.135045378f, 0.0f); break;
    case 17: t = cc_v3(0.612372436f, -0.790569415f, 0.0f); break;
    case 18: t = cc_v3(0.378466979f, 0.925614793f, 0.0f); break;
    default: t = cc_v3(1.0f, 0.0f, 0.0f); break;
    }
    *u = t;
    *v = cc_v3_cross(cc_reduce_bin_direction(b), t);
}

/* In-plane scan direction k (0..10) of the extreme slots: (cos, sin) of
 * 2 pi k / 11. */
CC_HD void cc_reduce_scan_direction(int k, float* c, float* s)
{
    switch (k) {
    case 0: *c = 1.0f; *s = 0.0f; break;
    case 1: *c = 0.841253533f; *s = 0.540640817f; break;
    case 2: *c = 0.415415013f; *s = 0.909631995f; break;
    case 3: *c = -0.142314838f; *s = 0.989821442f; break;
    case 4: *c = -0.654860734f; *s = 0.755749574f; break;
    case 5: *c = -0.959492974f; *s = 0.281732557f; break;
    case 6: *c = -0.959492974f; *s = -0.281732557f; break;
    case 7: *c = -0.654860734f; *s = -0.755749574f; break;
    case 8: *c = -0.142314838f; *s = -0.989821442f; break;
    case 9: *c = 0.415415013f; *s = -0.909631995f; break;
    default: *c = 0.841253533f; *s = -0.540640817f; break;
    }
}

/* The icosahedron face direction nearest the normal (largest dot product);
 * ties go to the lowest index. A NaN normal gives bin 0. */
CC_HD int cc_reduce_bin(cc_vec3 normal)
{
    int best = 0;
    float best_dot = cc_v3_dot(normal, cc_reduce_bin_direction(0));
    for (int b = 1; b < CC_REDUCE_BINS; ++b) {
        float d = cc_v3_dot(normal, cc_reduce_bin_direction(b));
        /* A NaN best_dot (an infinite normal: inf * 0) yields to any number. */
        if (d > best_dot || (d == d && !(best_dot == best_dot))) {
            best = b;
            best_dot = d;
        }
    }
    return best;
}

/* 1 when x is neither NaN nor infinite. */
CC_HD int cc_reduce_finite(float x) { return (x - x) == 0.0f; }

/* 1 when every component of the contact is finite (it may take part). */
CC_HD int cc_reduce_contact_valid(cc_vec3 point, cc_vec3 normal, float distance)
{
    return cc_reduce_finite(point.x) && cc_reduce_finite(point.y) && cc_reduce_finite(point.z) &&
           cc_reduce_finite(normal.x) && cc_reduce_finite(normal.y) && cc_reduce_finite(normal.z) &&
           cc_reduce_finite(distance);
}

/* The contact's key for slot j (0..11) of its bin, given its projections
 * pu, pv on the bin frame; 0 when the score is NaN (the slot is skipped). */
CC_HD unsigned long long cc_reduce_slot_key(int j, float pu, float pv, float distance, unsigned fingerprint)
{
    float score;
    if (j == 0) {
        score = -distance;
    } else {
        float c, s;
        cc_reduce_scan_direction(j - 1, &c, &s);
        score = (pu * c + pv * s) - CC_REDUCE_DEPTH_BONUS * distance;
    }
    if (!(score == score)) return 0ull;
    return ((unsigned long long)cc_float_order_bits(score) << 32) | (unsigned long long)fingerprint;
}

/* Empties the pair's CC_REDUCE_SLOTS slots (equivalently: memset to 0). */
CC_HD void cc_reduce_clear(unsigned long long* slots)
{
    for (int i = 0; i < CC_REDUCE_SLOTS; ++i) slots[i] = 0ull;
}

/* Pass 1: offers the raw contact to the 12 slots of its bin. point is
 * relative to the pair's reference point, distance < 0 is penetration. */
CC_HD void cc_reduce_vote(unsigned long long* slots, cc_vec3 point, cc_vec3 normal, float distance,
                          unsigned fingerprint)
{
    if (!cc_reduce_contact_valid(point, normal, distance)) return;
    int bin = cc_reduce_bin(normal);
    cc_vec3 u, v;
    cc_reduce_bin_frame(bin, &u, &v);
    float pu = cc_v3_dot(point, u), pv = cc_v3_dot(point, v);
    unsigned long long* bin_slots = slots + bin * CC_REDUCE_SLOTS_PER_BIN;
    for (int j = 0; j < CC_REDUCE_SLOTS_PER_BIN; ++j) {
        unsigned long long key = cc_reduce_slot_key(j, pu, pv, distance, fingerprint);
        /* Slots only grow, so a stale read can only be smaller: skipping
         * the atomic when it already holds a larger key is exact, and
         * spares the atomic for the many contacts that lose. */
        if (key != 0ull && bin_slots[j] < key) cc_atomic_max_u64(&bin_slots[j], key);
    }
}

/* Pass 2 (after every vote of the pair has completed): 1 when the contact
 * holds at least one slot of its bin, with *sub_key = bin * 12 + the first
 * slot it holds (in [0, CC_REDUCE_SLOTS)); 0 otherwise (*sub_key is left
 * unchanged). The arguments must be bit-identical to the vote's. */
CC_HD int cc_reduce_kept(const unsigned long long* slots, cc_vec3 point, cc_vec3 normal, float distance,
                         unsigned fingerprint, int* sub_key)
{
    if (!cc_reduce_contact_valid(point, normal, distance)) return 0;
    int bin = cc_reduce_bin(normal);
    cc_vec3 u, v;
    cc_reduce_bin_frame(bin, &u, &v);
    float pu = cc_v3_dot(point, u), pv = cc_v3_dot(point, v);
    const unsigned long long* bin_slots = slots + bin * CC_REDUCE_SLOTS_PER_BIN;
    for (int j = 0; j < CC_REDUCE_SLOTS_PER_BIN; ++j) {
        unsigned long long key = cc_reduce_slot_key(j, pu, pv, distance, fingerprint);
        if (key != 0ull && bin_slots[j] == key) {
            if (sub_key) *sub_key = bin * CC_REDUCE_SLOTS_PER_BIN + j;
            return 1;
        }
    }
    return 0;
}

#endif
