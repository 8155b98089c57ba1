/* Heightfield triangles generated on the fly: cell (r, c) of the grid is
 * split along its diagonal from (r, c) to (r+1, c+1) into two triangles,
 * counter-clockwise seen from above (+z, the outside). Triangle id
 * 2 * (r * (cols - 1) + c) + k names triangle k of that cell. */
#ifndef CC_KERNELS_SHAPES_HEIGHTFIELD_H
#define CC_KERNELS_SHAPES_HEIGHTFIELD_H

#include "kernels/shapes/mesh.h"

/* A heightfield as one shape sees it: samples and grid spacing. */
typedef struct cc_hfield_ref {
    const float* samples; /* rows * cols, row-major */
    int rows, cols;
    cc_vec3 size;         /* half extents x, y and vertical scale */
} cc_hfield_ref;

/* Sample point (r, c) in the shape frame. */
CC_HD cc_vec3 cc_hfield_point(const cc_hfield_ref* h, int r, int c)
{
    float x = -h->size.x + 2.0f * h->size.x * (float)c / (float)(h->cols - 1);
    float y = -h->size.y + 2.0f * h->size.y * (float)r / (float)(h->rows - 1);
    return cc_v3(x, y, h->samples[r * h->cols + c] * h->size.z);
}

CC_HD int cc_hfield_triangle_count(const cc_hfield_ref* h) { return 2 * (h->rows - 1) * (h->cols - 1); }

/* Corners of triangle `id` in the shape frame. */
CC_HD void cc_hfield_triangle(const cc_hfield_ref* h, int id, cc_vec3* t0, cc_vec3* t1, cc_vec3* t2)
{
    int cell = id >> 1, k = id & 1;
    int r = cell / (h->cols - 1), c = cell % (h->cols - 1);
    *t0 = cc_hfield_point(h, r, c);
    *t1 = k == 0 ? cc_hfield_point(h, r, c + 1) : cc_hfield_point(h, r + 1, c + 1);
    *t2 = k == 0 ? cc_hfield_point(h, r + 1, c + 1) : cc_hfield_point(h, r + 1, c);
}

/* Cells whose footprint meets the box [lo, hi] (shape frame): rows
 * [*r0, *r1] and columns [*c0, *c1], inclusive. Returns 0 when none. */
CC_HD int cc_hfield_cell_range(const cc_hfield_ref* h, cc_vec3 lo, cc_vec3 hi, int* r0, int* r1, int* c0, int* c1)
{
    float dx = 2.0f * h->size.x / (float)(h->cols - 1), dy = 2.0f * h->size.y / (float)(h->rows - 1);
    float fx0 = (lo.x + h->size.x) / dx, fx1 = (hi.x + h->size.x) / dx;
    float fy0 = (lo.y + h->size.y) / dy, fy1 = (hi.y + h->size.y) / dy;
    /* Also rejects NaN bounds. */
    if (!(fx1 >= 0.0f && fy1 >= 0.0f && fx0 <= (float)(h->cols - 1) && fy0 <= (float)(h->rows - 1))) return 0;
    *c0 = fx0 > 0.0f ? (int)fx0 : 0;
    *r0 = fy0 > 0.0f ? (int)fy0 : 0;
    *c1 = fx1 < (float)(h->cols - 2) ? (int)fx1 : h->cols - 2;
    *r1 = fy1 < (float)(h->rows - 2) ? (int)fy1 : h->rows - 2;
    return *c0 <= *c1 && *r0 <= *r1;
}

/* The triangle whose footprint holds the shape-frame point p (x, y): the
 * cell's lower-right triangle (k = 0, from (r, c) to (r, c + 1) and
 * (r + 1, c + 1)) where the point is at or right of the diagonal, else
 * k = 1. Every point of the footprint has exactly one; -1 outside it. */
CC_HD int cc_hfield_column_triangle(const cc_hfield_ref* h, cc_vec3 p)
{
    float fx = (p.x + h->size.x) * (float)(h->cols - 1) / (2.0f * h->size.x);
    float fy = (p.y + h->size.y) * (float)(h->rows - 1) / (2.0f * h->size.y);
    /* Also rejects NaN. */
    if (!(fx >= 0.0f && fy >= 0.0f && fx <= (float)(h->cols - 1) && fy <= (float)(h->rows - 1))) return -1;
    int c = (int)fx < h->cols - 2 ? (int)fx : h->cols - 2, r = (int)fy < h->rows - 2 ? (int)fy : h->rows - 2;
    int k = fx - (float)c >= fy - (float)r ? 0 : 1;
    return 2 * (r * (h->cols - 1) + c) + k;
}

/* Lowest and highest surface point of cell (r, c) [m, shape frame z]. */
CC_HD void cc_hfield_cell_height_range(const cc_hfield_ref* h, int r, int c, float* lo, float* hi)
{
    const float* s = h->samples + r * h->cols + c;
    float a = s[0], b = s[1], d = s[h->cols], e = s[h->cols + 1];
    float mn = cc_minf(cc_minf(a, b), cc_minf(d, e)), mx = cc_maxf(cc_maxf(a, b), cc_maxf(d, e));
    /* A negative vertical scale is rejected by the builder; keep the order anyway. */
    *lo = mn * h->size.z;
    *hi = mx * h->size.z;
}

#endif
