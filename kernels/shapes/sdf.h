/* Signed distance fields as kernels see them: sparse bricks of quantised
 * samples, shared by every shape that uses them (like hulls and meshes).
 *
 * Samples lie on a lattice: sample (i, j, k) at origin + voxel * (i, j, k)
 * in the shape's frame [m], nx * ny * nz of them, each count a multiple of
 * CC_SDF_BRICK. The lattice is cut into bricks of CC_SDF_BRICK^3 samples;
 * the brick table holds, per brick, the index of its stored block of
 * samples, or CC_SDF_OUTSIDE / CC_SDF_INSIDE for a brick with no sample in
 * the narrow band (every sample of it reads as the band's clamped value on
 * that side). Stored samples are 16-bit codes over [band_lo, band_hi]: a
 * value differs from the field it stores by at most
 * (band_hi - band_lo) / (2 * 65535).
 *
 * Past the band the samples only say "at least this far". A coarse grid of
 * exact signed distances at the brick corners (one more per axis than
 * bricks) keeps a bound there: the field is 1-Lipschitz, so a point p is at
 * least max over the corners c around it of (d(c) - |p - c|) outside;
 * deep inside, the corners' interpolation estimates the depth and its
 * gradient points the way out. The band stored is the def's, at most
 * CC_SDF_BAND_VOXELS either side.
 * Beyond the lattice, the padding that the lattice keeps around the shape
 * gives distance >= distance to the lattice + pad.
 *
 * Negative inside, positive outside; shape_margin is subtracted at sample
 * time (it shrinks nothing that was built). */
#ifndef CC_KERNELS_SHAPES_SDF_H
#define CC_KERNELS_SHAPES_SDF_H

#include "kernels/math/vec3.h"

#define CC_SDF_BRICK 8
#define CC_SDF_BRICK_SAMPLES (CC_SDF_BRICK * CC_SDF_BRICK * CC_SDF_BRICK)
#define CC_SDF_OUTSIDE (-1) /* an empty brick wholly outside the band */
#define CC_SDF_INSIDE (-2)  /* an empty brick wholly inside the band */
#define CC_SDF_CODE_MAX 65535.0f
/* The stored band is the def's, at most this many voxels either side of
 * the surface: beyond, the coarse corners bound the distance, so memory and
 * build time grow with the surface, not the volume. */
#define CC_SDF_BAND_VOXELS 8.0f

typedef struct cc_sdf_desc {
    cc_vec3 origin;       /* sample (0, 0, 0), shape frame [m] */
    float voxel;          /* sample spacing [m] */
    int nx, ny, nz;       /* samples per axis, multiples of CC_SDF_BRICK */
    int table_first;      /* first brick entry in the brick-table pool */
    int value_first;      /* first code in the value pool */
    int coarse_first;     /* first corner in the coarse pool */
    float band_lo, band_hi; /* quantisation range, the narrow band [m] */
    float pad;            /* the lattice reaches at least this far past the shape [m] */
    float shape_margin;   /* subtracted from every sample [m] */
    int mesh;             /* the mesh it was built from, or -1 */
    cc_vec3 scale;        /* the mesh scale baked in */
} cc_sdf_desc;

/* One field resolved from the pools. */
typedef struct cc_sdf_ref {
    const cc_sdf_desc* d;
    const int* table;          /* bricks, x fastest */
    const unsigned short* values;
    const float* coarse;       /* (nx/8 + 1)(ny/8 + 1)(nz/8 + 1) corners, x fastest */
} cc_sdf_ref;

/* The 8 samples of cell (i, j, k), x fastest: decoded codes, or the band's
 * clamped value for an empty brick. A cell inside one brick (7 in 8 along
 * each axis) reads the brick table once; one on a brick's far face reads
 * the bricks its corners fall in. */
CC_HD void cc_sdf_cell_samples(const cc_sdf_ref* s, int i, int j, int k, float* c)
{
    const cc_sdf_desc* d = s->d;
    const unsigned last = CC_SDF_BRICK - 1;
    unsigned ui = (unsigned)i, uj = (unsigned)j, uk = (unsigned)k;
    unsigned bx = (unsigned)d->nx / CC_SDF_BRICK, by = (unsigned)d->ny / CC_SDF_BRICK;
    float step = (d->band_hi - d->band_lo) / CC_SDF_CODE_MAX;
    if ((ui & last) != last && (uj & last) != last && (uk & last) != last) {
        int brick = s->table[((uk / CC_SDF_BRICK) * by + uj / CC_SDF_BRICK) * bx + ui / CC_SDF_BRICK];
        if (brick < 0) {
            float v = brick == CC_SDF_OUTSIDE ? d->band_hi : d->band_lo;
            for (int n = 0; n < 8; ++n) c[n] = v;
            return;
        }
        const unsigned short* codes = s->values + (size_t)brick * CC_SDF_BRICK_SAMPLES +
                                      (((uk & last) * CC_SDF_BRICK + (uj & last)) * CC_SDF_BRICK + (ui & last));
        for (int n = 0; n < 8; ++n) {
            int off = ((n >> 2) * CC_SDF_BRICK + ((n >> 1) & 1)) * CC_SDF_BRICK + (n & 1);
            c[n] = d->band_lo + (float)codes[off] * step;
        }
        return;
    }
    /* Per axis, the brick and the place in it of the cell's two sides. */
    unsigned bi[2] = {ui / CC_SDF_BRICK, (ui + 1u) / CC_SDF_BRICK}, li[2] = {ui & last, (ui + 1u) & last};
    unsigned bj[2] = {uj / CC_SDF_BRICK, (uj + 1u) / CC_SDF_BRICK}, lj[2] = {uj & last, (uj + 1u) & last};
    unsigned bk[2] = {uk / CC_SDF_BRICK, (uk + 1u) / CC_SDF_BRICK}, lk[2] = {uk & last, (uk + 1u) & last};
    for (int n = 0; n < 8; ++n) {
        int x = n & 1, y = (n >> 1) & 1, z = n >> 2;
        int brick = s->table[(bk[z] * by + bj[y]) * bx + bi[x]];
        unsigned local = (lk[z] * CC_SDF_BRICK + lj[y]) * CC_SDF_BRICK + li[x];
        c[n] = brick >= 0 ? d->band_lo + (float)s->values[(size_t)brick * CC_SDF_BRICK_SAMPLES + local] * step
                          : (brick == CC_SDF_OUTSIDE ? d->band_hi : d->band_lo);
    }
}

/* Trilinear weights' derivative helper: value and gradient (per unit of t)
 * of the interpolation of corners c[8] (x fastest) at t in [0, 1]^3. */
CC_HD float cc_sdf_trilinear(const float* c, cc_vec3 t, cc_vec3* grad)
{
    float x00 = c[0] + (c[1] - c[0]) * t.x, x10 = c[2] + (c[3] - c[2]) * t.x;
    float x01 = c[4] + (c[5] - c[4]) * t.x, x11 = c[6] + (c[7] - c[6]) * t.x;
    float y0 = x00 + (x10 - x00) * t.y, y1 = x01 + (x11 - x01) * t.y;
    float dx0 = (c[1] - c[0]) + ((c[3] - c[2]) - (c[1] - c[0])) * t.y;
    float dx1 = (c[5] - c[4]) + ((c[7] - c[6]) - (c[5] - c[4])) * t.y;
    grad->x = dx0 + (dx1 - dx0) * t.z;
    grad->y = (x10 - x00) + ((x11 - x01) - (x10 - x00)) * t.z;
    grad->z = y1 - y0;
    return y0 + (y1 - y0) * t.z;
}

/* Cell index and fraction of lattice coordinate u on an axis of n samples
 * (u inside [0, n - 1]). */
CC_HD int cc_sdf_cell(float u, int n, float* t)
{
    int c = (int)floorf(u);
    c = c < 0 ? 0 : (c > n - 2 ? n - 2 : c);
    *t = cc_clampf(u - (float)c, 0.0f, 1.0f);
    return c;
}

/* The coarse grid at point u (lattice coordinates, inside the lattice):
 * a lower bound of the distance, and the corners' interpolated value and
 * gradient [per m]. */
CC_HD float cc_sdf_coarse_bound(const cc_sdf_ref* s, cc_vec3 u, float* interpolated, cc_vec3* grad)
{
    const cc_sdf_desc* d = s->d;
    int cx = d->nx / CC_SDF_BRICK + 1, cy = d->ny / CC_SDF_BRICK + 1, cz = d->nz / CC_SDF_BRICK + 1;
    cc_vec3 w = cc_v3_scale(u, 1.0f / CC_SDF_BRICK), t;
    int i = cc_sdf_cell(w.x, cx, &t.x), j = cc_sdf_cell(w.y, cy, &t.y), k = cc_sdf_cell(w.z, cz, &t.z);
    float c[8];
    float bound = -3.4e38f, span = d->voxel * CC_SDF_BRICK;
    for (int n = 0; n < 8; ++n) {
        int di = n & 1, dj = (n >> 1) & 1, dk = n >> 2;
        c[n] = s->coarse[((size_t)(k + dk) * cy + (j + dj)) * cx + (i + di)];
        cc_vec3 off = cc_v3((t.x - (float)di) * span, (t.y - (float)dj) * span, (t.z - (float)dk) * span);
        bound = cc_maxf(bound, c[n] - cc_v3_length(off));
    }
    cc_vec3 g;
    *interpolated = cc_sdf_trilinear(c, t, &g);
    *grad = cc_v3_scale(g, 1.0f / span);
    return bound;
}

/* Signed distance from point p (the field's shape frame) to the surface,
 * with its gradient (not normalised; zero where the field is flat). In the
 * band it is the trilinear interpolation of the samples, which differs
 * from the true distance by at most the quantisation bound plus the
 * interpolation error of a voxel; past the band and the lattice, a lower
 * bound outside and the band's value inside. A caller that only asks
 * whether the distance is below `near` gets, for a point outside the band
 * where even the samples' own bound (the band's edge less 0.87 voxel)
 * reaches `near`, that bound, without the coarse grid's sharper one and
 * with a zero gradient; cc_sdf_distance asks for everything. */
CC_HD_CALL float cc_sdf_distance_below(const cc_sdf_ref* s, cc_vec3 p, float near, cc_vec3* grad)
{
    const cc_sdf_desc* d = s->d;
    float inv = 1.0f / d->voxel;
    cc_vec3 u = cc_v3_scale(cc_v3_sub(p, d->origin), inv);
    cc_vec3 top = cc_v3((float)(d->nx - 1), (float)(d->ny - 1), (float)(d->nz - 1));
    cc_vec3 q = cc_v3_min(cc_v3_max(u, cc_v3(0.0f, 0.0f, 0.0f)), top);
    int off = u.x != q.x || u.y != q.y || u.z != q.z; /* a NaN point counts as on */
    cc_vec3 t;
    int i = cc_sdf_cell(q.x, d->nx, &t.x), j = cc_sdf_cell(q.y, d->ny, &t.y), k = cc_sdf_cell(q.z, d->nz, &t.z);
    float c[8];
    cc_sdf_cell_samples(s, i, j, k, c);
    float lo = c[0], hi = c[0];
    for (int n = 1; n < 8; ++n) lo = cc_minf(lo, c[n]), hi = cc_maxf(hi, c[n]);
    cc_vec3 g;
    float v = cc_sdf_trilinear(c, t, &g);
    g = cc_v3_scale(g, inv);
    int clamped_out = lo >= d->band_hi, clamped_in = hi <= d->band_lo;
    if (clamped_out && !off && v - 0.8660254f * d->voxel - d->shape_margin >= near) {
        *grad = cc_v3(0.0f, 0.0f, 0.0f);
        return v - 0.8660254f * d->voxel - d->shape_margin;
    }
    if (clamped_out || clamped_in) {
        /* Past the band the samples only clamp; the coarse corners know
         * more: outside a lower bound, inside an estimate of the depth
         * (their interpolation, within about a brick of it) and the way out. */
        cc_vec3 cg;
        float coarse;
        float bound = cc_sdf_coarse_bound(s, q, &coarse, &cg);
        v = clamped_out ? cc_maxf(v - 0.8660254f * d->voxel, bound) : cc_minf(v, coarse);
        g = cg;
    }
    if (off) {
        /* Off the lattice: at least the way to it plus the padding. */
        cc_vec3 out = cc_v3_scale(cc_v3_sub(u, q), d->voxel);
        float beyond = cc_v3_length(out);
        if (beyond > 0.0f) {
            v = cc_maxf(v - beyond, beyond + d->pad);
            g = cc_v3_scale(out, 1.0f / beyond);
        }
    }
    *grad = g;
    return v - d->shape_margin;
}

CC_HD float cc_sdf_distance(const cc_sdf_ref* s, cc_vec3 p, cc_vec3* grad)
{
    return cc_sdf_distance_below(s, p, 3.0e38f, grad);
}

/* Interpolating the samples of a distance (1-Lipschitz) errs by at most
 * half a cell's diagonal, 0.87 voxel, at each of two points: what a bound
 * of the field at one point by the field at another allows, in voxels
 * (the bounds past the band and the lattice are lower bounds of the
 * distance, and err only low). */
#define CC_SDF_TWO_POINT_SLACK 1.75f

/* The least the field can be within `radius` of l, by the field at l
 * alone: field(l) - radius - CC_SDF_TWO_POINT_SLACK voxels, which never
 * culls a contact. `*at_l` gets the field at l, exact below `threshold`
 * plus that slack (cc_sdf_distance_below). */
CC_HD float cc_sdf_ball_low(const cc_sdf_ref* f, cc_vec3 l, float radius, float threshold, float* at_l)
{
    cc_vec3 g;
    float slack = radius + CC_SDF_TWO_POINT_SLACK * f->d->voxel;
    *at_l = cc_sdf_distance_below(f, l, threshold + slack, &g);
    return *at_l - slack;
}

/* Whether every point within `radius` of l lies farther than `threshold`
 * from the field's surface, by the field at l alone (cc_sdf_ball_low). */
CC_HD int cc_sdf_ball_clear(const cc_sdf_ref* f, cc_vec3 l, float radius, float threshold)
{
    float at_l;
    return cc_sdf_ball_low(f, l, radius, threshold, &at_l) > threshold;
}

#endif
